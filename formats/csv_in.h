/*
 * csv_in.h: what the CSV reader's two files share: its state (csvin), the
 * callbacks of csv_in.c that libcsv and the fast path both call, and the
 * fast path's entry points in csv_fast.c. Private to formats/csv_*.c.
 */
#ifndef TAGK_CSV_IN_H
#define TAGK_CSV_IN_H

#include <csv.h>
#include <stdio.h>
#include "streamsum.h"
#include "table_impl.h"

enum { CHUNK = 262144, FRONT = 16, PAD = 64 };

typedef struct {
	FILE *f;
	struct csv_parser p;
	int header_done;
	int nfield;          /* fields seen in the current record */
	size_t rec_bytes;    /* bytes in the current record */
	long line;           /* lines completed so far */
	long rec_line;       /* line on which the current record started */
	double *cur;         /* ncols: the record being assembled */
	int bad;             /* the current record has a bad wanted cell */
	int bad_skippable;   /* ... and skip_bad may skip it */
	char bad_msg[384];
	int marker;          /* the record is a marker line (enum below) */
	char marker_msg[600];
	/* queue of complete rows */
	double *q;
	long *qline;
	int qcap, qhead, qlen;
	long last_line;      /* line of the row returned last */
	int eof;
	int fatal;           /* an error to report once the queue drains */
	char fatal_msg[800];
	int opening;         /* stop feeding once the header row is complete */
	int declared;        /* the stream began with TBL_STREAM_MARK: its version */
	ssum sum;            /* version 2: of the names and every data cell */
	bsum *bsum;          /* version 3: of the bytes after the declaration */
	int bhash;           /* version 3, before the end marker: chunk[hfrom..coff) */
	size_t hfrom;        /* is read and not yet hashed */
	int hskip;           /* the line just read is not hashed: resume after it */
	int hcr;             /* the line before ended at a CR */
	int ended;           /* ... and its TBL_END_MARK has been read */
	long long records;   /* data records read, skipped ones included */
	int prev_cr;         /* the last record ended at a CR */
	int last_byte;       /* the last byte fed to libcsv, -1 before any */
	int at_end;          /* csv_fini is completing the input's last record */
	int bom_checked;     /* a UTF-8 byte-order mark at the start was dropped */
	int lib_busy;        /* libcsv holds part of a record: feed it until the record ends */
	int nul;             /* the input has a NUL byte right after what chunk holds */
	/* chunk = mem + FRONT: bytes read but not yet fed, then PAD bytes
	 * never filled. The fast path reads whole words (and a cell's 48)
	 * past a line's end, and a number's 16 bytes before its end */
	char mem[FRONT + CHUNK + PAD];
	char *chunk;
	size_t clen, coff;
	/* per column, the text and value of the last cell parsed: streams
	 * repeat cells across rows (time, truth), which are then not parsed */
	char (*ctext)[32];
	unsigned char *clen_;
	double *cval;
	/* unquote_line's copy of a line, with chunk's FRONT and PAD around it */
	char *uq;
} csvin;

/* csv_in.c: a record begins; a field (NUL-terminated, s NULL for an empty
 * one) and a record's end (ch its line end, or -1 at the input's end), as
 * libcsv calls them; a wanted cell's value, or why its record is bad. */
void begin_record(tbl_reader *r);
void on_field(void *s, size_t len, void *data);
void on_record(int ch, void *data);
void data_cell(tbl_reader *r, int col, const char *txt, size_t len);

/* csv_fast.c: s[0..n) a whole line without its line end ch (s writable,
 * with chunk's FRONT and PAD bytes around it). split_line takes any line
 * without a quote, fast_line a data line once the header is read;
 * unquote_line a line with quotes: 1 if it took it, 0 for libcsv. */
void split_line(tbl_reader *r, char *s, size_t n, int ch);
void fast_line(tbl_reader *r, char *s, size_t n, int ch);
int unquote_line(tbl_reader *r, const char *s, size_t n, int ch);

#endif
