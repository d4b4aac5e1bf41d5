/*
 * table.h: read a log or stream as a table of named numeric columns, whatever
 * its format: CSV (libcsv), HDF5 (one dataset per signal), or a Crazyflie
 * uSD-card binary log. Rows are streamed: memory does not grow with the
 * length of the input.
 *
 * Contract for callers: open, look the columns up by name, mark the ones
 * the command uses as wanted (only those are parsed and checked), then call
 * tbl_next until it returns 0 (end) or -1 (error: tbl_error() holds one line
 * such as "flight.csv:120: column 'az': not a number"). Unwanted cells are
 * returned as NaN.
 */
#ifndef TAGK_TABLE_H
#define TAGK_TABLE_H

#include <stddef.h>

/* TBL_BINARY: tagk's binary stream (tagk-formats(5)), recognised by its
 * first byte whatever format was asked for, except HDF5 and cfusd. */
/* TBL_ULOG: a PX4 ULog, recognised by its magic "ULog" 01 12 35. */
typedef enum { TBL_AUTO, TBL_CSV, TBL_HDF5, TBL_CFUSD, TBL_BINARY, TBL_ULOG } tbl_format;

typedef struct {
	tbl_format format;   /* TBL_AUTO: by magic bytes, else CSV */
	int skip_bad;        /* skip rows whose wanted cells are empty, NaN or Inf */
	int ignore_crc;      /* cfusd: accept a CRC-32 mismatch */
	const char *group;   /* hdf5: group holding the datasets (default "/") */
	const char *event;   /* cfusd: event type to read (default: the only one);
	                      * ulog: the topic whose samples are the rows
	                      * (default: the wanted topic with the most) */
	const char *name;    /* the input's name in messages (default: path, or "stdin") */
	int old_stream;      /* binary: read versions 2 and 3 too (to convert them) */
} tbl_options;

typedef struct tbl_reader tbl_reader;

/* Longest CSV record accepted, in bytes: longer lines are refused so that
 * memory stays bounded whatever the input. */
#define TBL_MAX_LINE 65536

/* First field of the line a tagk command writes when it fails after its
 * output has begun; readers turn it into an error. */
#define TBL_ERROR_MARK "#tagk-error:"

/* A CSV stream that starts with the line "#tagk-stream: 3" (the
 * declaration) promises to end with "#tagk-end: N rows; check HEX", N its
 * data rows and HEX the check value of its header and data lines (version
 * 2's: of its names and cells; streamsum.h).
 * A reader refuses a declared stream that ends without that marker, whose
 * count or check value differs, that goes on after it, or that declares
 * another version: it was cut, altered, spliced, or written by another
 * tagk. Streams without the declaration are read as plain CSV. See
 * tagk-formats(5). The binary stream (binary.h) has the same end marker. */
#define TBL_STREAM_MARK "#tagk-stream:"
#define TBL_STREAM_VERSION 3
#define TBL_END_MARK "#tagk-end:"
/* "#tagk-note: KEY VALUE" lines before the end marker carry facts about the
 * stream (tagk-estimate's refused updates); readers skip them as data and
 * keep them for tbl_note. */
#define TBL_NOTE_MARK "#tagk-note:"

/* Open path ("-" for standard input). On failure returns NULL with a
 * one-line message in err. */
tbl_reader *tbl_open(const char *path, const tbl_options *opt, char *err, size_t errlen);
/* 1 (the default): the CSV reader splits quote-free lines itself; 0: every
 * line through libcsv. For the tests, which require the same result. */
extern int tbl_csv_fastpath;
void tbl_close(tbl_reader *r);

const char *tbl_name(const tbl_reader *r);     /* the path, or "stdin" */
tbl_format tbl_format_of(const tbl_reader *r);
int tbl_ncols(const tbl_reader *r);
const char *tbl_col(const tbl_reader *r, int i);
int tbl_find(const tbl_reader *r, const char *name);   /* index or -1 */
void tbl_want(tbl_reader *r, int col);
/* Want col, whose empty cells (NaN) are values, not errors: read as NaN
 * (an Inf is still an error). */
void tbl_want_nullable(tbl_reader *r, int col);
/* Want col, a time: in a CSV file, when its first value is 1e9 or more
 * in magnitude (Unix epoch stamps: in ns, a double keeps 0.26 us of them),
 * every value is read as its difference from the first, subtracted in long
 * double from the text (exact for integer stamps below 2^64), and
 * tbl_time_origin gives that first value's text; other formats, and
 * smaller values, read as they are. */
void tbl_want_time(tbl_reader *r, int col);
/* The text of the first time stamp its values are counted from, or NULL. */
const char *tbl_time_origin(const tbl_reader *r);
void tbl_want_all(tbl_reader *r);
/* Want every numeric column: a CSV column whose first data cell is neither
 * a number nor empty is a text column, unwanted from then on (its cells
 * read as NaN) and flagged by tbl_is_text once the first row is read.
 * HDF5 text datasets are never columns; Crazyflie logs have no text. */
void tbl_want_numeric(tbl_reader *r);
/* (tbl_want_numeric: the sd_* columns of an estimate stream are nullable.) */
int tbl_is_text(const tbl_reader *r, int col);

/* Next row into row[0..ncols-1]: 1 a row, 0 the end, -1 an error. */
int tbl_next(tbl_reader *r, double *row);
const char *tbl_error(const tbl_reader *r);
/* "file:line" (CSV), "file:row N" (HDF5) or "file:record N" (cfusd) of the
 * row tbl_next returned last, for the caller's own messages. */
const char *tbl_where(tbl_reader *r);
/* The value of the last "#tagk-note: KEY VALUE" line read so far, or NULL. */
const char *tbl_note(const tbl_reader *r, const char *key);
/* The notes kept (the latest TBL_NOTES read), and the i-th of them, 0 the
 * oldest, as "KEY VALUE" (NULL past the last): for a command that passes
 * its input's notes on. */
enum { TBL_NOTES = 8 };
int tbl_nnotes(const tbl_reader *r);
const char *tbl_note_line(const tbl_reader *r, int i);
/* Warnings travel with streams (tagk-formats(5)): a note whose key is
 * "warning", "#tagk-note: warning PROG: MESSAGE", is a warning a command
 * upstream gave. A reader keeps its input's warnings apart from the notes
 * (tbl_warning) and adds each to the process's carried warnings
 * (tbl_carry), which every stream a sink finishes afterwards ends with:
 * each command passes on what it read and what it said itself. Up to
 * TBL_WARNINGS distinct ones, each cut to TBL_WARNING_MAX - 1 bytes; more
 * are counted (tbl_carried_dropped), not kept. A reader that met more than
 * it keeps has one more warning, its last, that counts them; the note a
 * sink writes for the ones not carried adds its count, read back. */
enum { TBL_WARNINGS = 16, TBL_WARNING_MAX = 600 };
#define TBL_WARNING_KEY "warning"
int tbl_nwarnings(const tbl_reader *r);
const char *tbl_warning(const tbl_reader *r, int i);   /* "PROG: MESSAGE", NULL past the last */
/* Add "PROG: MESSAGE" to the carried warnings (a copy; one equal to one
 * kept is not added again). */
void tbl_carry(const char *msg);
int tbl_ncarried(void);
const char *tbl_carried(int i);
long tbl_carried_dropped(void);
/* Where a reader's notes for the user go (not errors: the input is read
 * on, e.g. a CSV file whose last line has no line end), one line each
 * without its end; NULL, the default, writes them to stderr as they are.
 * Process-wide: the commands set it once, to prefix their name. */
void tbl_on_note(void (*fn)(const char *msg));
/* Rows skipped under skip_bad. */
long tbl_skipped(const tbl_reader *r);
/* Why the input has a signal called name that is not a column (an HDF5
 * dataset of text or booleans: "holds text"), or NULL: for the message
 * of a caller that looked for name and did not find it. */
enum { TBL_UNREAD_MAX = 2048 };
const char *tbl_unread(const tbl_reader *r, const char *name, char *why, size_t len);

/* Copy in to out (outlen bytes with the NUL) as one line: control
 * characters become \n, \r, \t or \xHH. Every message of the readers and
 * of the commands goes through it. */
void tbl_one_line(char *out, size_t outlen, const char *in);

/* A ULog's parameter called name (its first value, P message): 1 with *v
 * set, or 0 (no such parameter, or not a ULog). */
int tbl_param(const tbl_reader *r, const char *name, double *v);

/* A ULog's topic with data, i from 0: its name ("topic", or "topic_K"
 * for instance K), samples kept, samples skipped (a time stamp that did
 * not increase), first and last time (s), and its columns first ..
 * first + n - 1. 1, or 0 past the last topic or for another format. */
typedef struct {
	const char *name;
	long samples, skipped;
	double t0, t1;
	int first, n;
} tbl_topic_info;
int tbl_topic(const tbl_reader *r, int i, tbl_topic_info *out);
/* A ULog's parameters: the i-th's name and value (1), or 0 past the last. */
int tbl_param_at(const tbl_reader *r, int i, const char **name, double *v);

/* What a format is, for messages: "CSV", "a tagk binary stream"... */
const char *tbl_format_label(tbl_format f);
/* Parse a format name ("csv", "hdf5", "cfusd"); -1 if unknown. */
int tbl_format_parse(const char *s);
/* The format a file name suggests by its extension, or TBL_AUTO. */
tbl_format tbl_format_from_name(const char *path);

#endif
