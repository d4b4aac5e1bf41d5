/*
 * csv_in.c: the CSV backend of table.c, on libcsv.
 *
 * libcsv pushes fields and record ends through callbacks; this file turns
 * that into tbl_next's pull by reading 256 KiB at a time and queueing the
 * rows completed, so memory is bounded by the buffer and by TBL_MAX_LINE
 * (libcsv's own field buffer is capped through its realloc hook).
 *
 * The fast path: a whole line without a quote is split here, in place,
 * into the same fields libcsv would give (split at commas, spaces and
 * tabs trimmed at both ends, a line of blanks empty), and handed to the
 * same callbacks; libcsv copies every byte into its field buffer, which
 * was most of the reading time. A line whose quotes each enclose a
 * whole field, with nothing inside libcsv would read differently
 * (unquote_line), is split the same way from a copy without its quotes.
 * Anything else (a quote inside a field, a quoted comma or line end, a
 * line longer than the buffer, the last line without its line end, the
 * header) goes through libcsv, which then owns the input until it ends
 * the record. tbl_csv_fastpath = 0 turns the fast path off: the
 * fuzz harness reads every input both ways and requires the same result.
 */
#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "numconv.h"
#include "streamsum.h"
#include "table_impl.h"
#include "gz.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { CHUNK = 262144, FRONT = 16, PAD = 64 };

int tbl_csv_fastpath = 1;
enum { MARK_NONE, MARK_ERROR, MARK_STREAM, MARK_END, MARK_NOTE };

/* Which marker line a record's first field starts, if any. */
static int
marker_kind(const char *txt)
{
	if (txt[0] != '#')
		return MARK_NONE;
	if (strncmp(txt, TBL_ERROR_MARK, strlen(TBL_ERROR_MARK)) == 0)
		return MARK_ERROR;
	if (strncmp(txt, TBL_STREAM_MARK, strlen(TBL_STREAM_MARK)) == 0)
		return MARK_STREAM;
	if (strncmp(txt, TBL_END_MARK, strlen(TBL_END_MARK)) == 0)
		return MARK_END;
	if (strncmp(txt, TBL_NOTE_MARK, strlen(TBL_NOTE_MARK)) == 0)
		return MARK_NOTE;
	return MARK_NONE;
}

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

/* libcsv grows one buffer per field; refusing to grow it past the line
 * limit keeps memory bounded on a pathological line. */
static void *
capped_realloc(void *p, size_t n)
{
	if (n > TBL_MAX_LINE + 1024)
		return NULL;
	return realloc(p, n);
}

static void
set_fatal(tbl_reader *r, const char *msg)
{
	csvin *c = r->impl;
	if (!c->fatal) {
		c->fatal = 1;
		snprintf(c->fatal_msg, sizeof(c->fatal_msg), "%s", msg);
	}
}

static int
push_row(tbl_reader *r)
{
	csvin *c = r->impl;
	if (c->qlen == c->qcap) {
		int ncap = c->qcap ? 2 * c->qcap : 64;
		double *nq = malloc((size_t)ncap * (size_t)r->ncols * sizeof(*nq));
		long *nl = malloc((size_t)ncap * sizeof(*nl));
		if (!nq || !nl) {
			free(nq);
			free(nl);
			return -1;
		}
		for (int i = 0; i < c->qlen; i++) {
			int k = (c->qhead + i) % (c->qcap ? c->qcap : 1);
			memcpy(nq + (size_t)i * r->ncols, c->q + (size_t)k * r->ncols,
			    (size_t)r->ncols * sizeof(*nq));
			nl[i] = c->qline[k];
		}
		free(c->q);
		free(c->qline);
		c->q = nq;
		c->qline = nl;
		c->qcap = ncap;
		c->qhead = 0;
	}
	int k = (c->qhead + c->qlen) % c->qcap;
	memcpy(c->q + (size_t)k * r->ncols, c->cur, (size_t)r->ncols * sizeof(*c->cur));
	c->qline[k] = c->rec_line;
	c->qlen++;
	return 0;
}

/* A record begins: its line, no error yet, every value NaN (an unwanted
 * or nullable empty cell stays so). */
static void
begin_record(tbl_reader *r)
{
	csvin *c = r->impl;
	c->rec_line = c->line + 1;
	c->bad = c->marker = 0;
	if (c->header_done)
		for (int i = 0; i < r->ncols; i++)
			c->cur[i] = NAN;
}

/* The count of t[i..len)'s leading bytes that are in set. */
static size_t
span_in(const char *t, size_t i, size_t len, const char *set)
{
	size_t n = 0;
	while (i + n < len && t[i + n] && strchr(set, t[i + n]))
		n++;
	return n;
}

/* What a cell t[0..len) that is not a number looks like, when it looks
 * like one of the usual mistakes: a date or a time of day (loggers that
 * stamp rows with the wall clock), a decimal comma (in a quoted field), a
 * number with its unit after it; else "". */
static const char *
not_number_hint(const char *t, size_t len)
{
	static const char *const dig = "0123456789";
	size_t d = span_in(t, 0, len, dig), k = len && (t[0] == '-' || t[0] == '+');
	if ((d == 4 && len >= 10 && t[4] == '-' && span_in(t, 5, len, dig) == 2 && t[7] == '-') ||
	    (d == 2 && len >= 8 && t[2] == ':' && span_in(t, 3, len, dig) == 2 && t[5] == ':'))
		return " (a date or a time of day: tagk reads time as a number, seconds or --time-unit's, "
		    "such as seconds since the epoch or since the log's start)";
	size_t m = k + span_in(t, k, len, dig);
	if (m > k && m < len && t[m] == ',' && m + 1 + span_in(t, m + 1, len, dig) == len && m + 1 < len)
		return " (a decimal comma: tagk reads a decimal point)";
	size_t e = k + span_in(t, k, len, "0123456789.eE+-");
	if (e > k && e < len && (isalpha((unsigned char)t[e]) || t[e] == '%' || t[e] == '/' ||
	    (unsigned char)t[e] >= 0x80))
		return " (a number with text after it: a unit belongs in the header, not the cell)";
	return "";
}

/* The record is bad: its cell txt[0..len) of column name is not a
 * number, and the message says what it looks like. Kept out of
 * data_cell, on the path of every cell the reader's cache misses: its
 * message code inlined there cost the CSV reader 1.5-2 %. */
#if defined(__GNUC__)
__attribute__((cold, noinline))
#endif
static void
not_a_number(csvin *c, const char *name, const char *txt, size_t len)
{
	char units[96] = "";
	const char *hint = not_number_hint(txt, len);
	if (c->records == 0 && !*hint && !memchr(txt, '.', len) && strcspn(txt, "0123456789") == strlen(txt))
		snprintf(units, sizeof(units), " (a second header row, of units? tagk reads one: delete line %ld, "
		    "sed %ldd FILE)", c->rec_line, c->rec_line); /* a word under the header */
	snprintf(c->bad_msg, sizeof(c->bad_msg), "column '%.60s': not a number: '%.24s%s'%s%s", name, txt,
	    len > 24 ? "..." : "", hint, units);
	c->bad = 1;
	c->bad_skippable = 0;
}

/* Cell col of a data record (not a marker line), txt NUL-terminated: if
 * the column is wanted, its value into cur, or why the record is bad. */
static void
data_cell(tbl_reader *r, int col, const char *txt, size_t len)
{
	csvin *c = r->impl;
	if (col >= r->ncols || !r->want[col] || c->bad)
		return;
	const char *name = r->cols[col];
	if (len == 0 && r->want[col] == 2)
		return; /* nullable: NaN, as cur was set */
	if (len == 0) {
		snprintf(c->bad_msg, sizeof(c->bad_msg), "column '%s': empty cell", name);
		c->bad = c->bad_skippable = 1;
		return;
	}
	if (len < 32 && c->clen_[col] == len && memcmp(c->ctext[col], txt, len) == 0) {
		c->cur[col] = c->cval[col];
		return;
	}
	double v;
	int prc = num_parse(txt, len, &v);
	if (prc == NUM_UNDERFLOW) {
		snprintf(c->bad_msg, sizeof(c->bad_msg), "column '%s': '%.24s%s' is too small for a "
		    "double (below 4.9e-324) and would read as 0", name, txt, len > 24 ? "..." : "");
		c->bad = 1;
		c->bad_skippable = 0;
		return;
	}
	if (prc != 0 && r->want_numeric && c->records == 0) {
		/* a text column: ignored, as the caller asked */
		r->text[col] = 1;
		r->want[col] = 0;
		return;
	}
	if (prc != 0) {
		not_a_number(c, name, txt, len);
		return;
	}
	if (isnan(v) && r->want[col] == 2) {
		c->cur[col] = v;
		return;
	}
	if (!isfinite(v)) {
		int word = strpbrk(txt, "nNiI") != NULL; /* "nan"/"inf" written as such */
		snprintf(c->bad_msg, sizeof(c->bad_msg), "column '%s': %s", name,
		    isnan(v) ? "NaN" : word ? "Inf" : "number out of range");
		c->bad = c->bad_skippable = 1;
		return;
	}
	c->cur[col] = v;
	if (len < 32) {
		memcpy(c->ctext[col], txt, len);
		c->clen_[col] = (unsigned char)len;
		c->cval[col] = v;
	}
}

static void
on_field(void *s, size_t len, void *data)
{
	tbl_reader *r = data;
	csvin *c = r->impl;
	const char *txt = s ? s : "";
	/* libcsv goes on through the rest of the buffer it was given after an
	 * error was set (a refused header among them): ignore it */
	if (c->fatal || (c->header_done && !c->cur))
		return;
	c->prev_cr = 0;
	if (c->nfield == 0) {
		begin_record(r);
		c->marker = marker_kind(txt);
		if (c->marker == MARK_ERROR)
			snprintf(c->marker_msg, sizeof(c->marker_msg), "%s",
			    txt + strlen(TBL_ERROR_MARK) + (txt[strlen(TBL_ERROR_MARK)] == ' '));
		else if (c->marker)
			snprintf(c->marker_msg, sizeof(c->marker_msg), "%s", txt);
	} else if (c->marker) {
		size_t used = strlen(c->marker_msg);
		snprintf(c->marker_msg + used, sizeof(c->marker_msg) - used, ",%s", txt);
	}
	/* quoted line ends inside the field: LF, CR LF or a lone CR (only
	 * libcsv's fields can hold one; the fast path's lines have none) */
	if (c->lib_busy)
		for (size_t i = 0; i < len; i++)
			if (txt[i] == '\n' || (txt[i] == '\r' && (i + 1 == len || txt[i + 1] != '\n')))
				c->line++;
	c->rec_bytes += len + 1;
	int col = c->nfield++;
	if (!c->header_done) {
		if (c->marker)
			return;
		if (tbl_add_col(r, txt, len) != 0)
			set_fatal(r, "out of memory");
		return;
	}
	if (c->declared == 2 && !c->marker)
		ssum_text(&c->sum, col, txt, len);
	if (!c->marker)
		data_cell(r, col, txt, len);
}

/* Version 3's check value: the bytes read so far are hashed up to the
 * line being read, which is not (a note or the end marker, which the
 * writer does not hash either), and hashing resumes after it. Every
 * line is read from chunk[coff..) and coff moves past it after. */
static void
unhashed_line(csvin *c)
{
	if (!c->bhash)
		return;
	bsum_bytes(c->bsum, c->chunk + c->hfrom, c->coff - c->hfrom);
	c->hskip = 1;
}

/* After a line was read, start[0..len): version 3 hashes the stream as
 * its writer wrote it, every line ending in LF, so a line that ended in
 * CR LF or a lone CR is hashed as if it ended in LF (a stream that went
 * through a Windows tool is still whole), and a line unhashed_line
 * skipped is not hashed. */
static void
hash_line_end(csvin *c, const char *start, size_t len)
{
	size_t off = (size_t)(start - c->chunk), end = off + len;
	int cr = start[len - 1] == '\r', lf_of_crlf = c->hcr && len == 1 && start[0] == '\n';
	c->hcr = cr;
	if (c->hskip || lf_of_crlf) {
		if (lf_of_crlf && !c->hskip)
			bsum_bytes(c->bsum, c->chunk + c->hfrom, off - c->hfrom);
		c->hskip = 0;
		c->hfrom = end;
		return;
	}
	if (cr) {
		bsum_bytes(c->bsum, c->chunk + c->hfrom, end - 1 - c->hfrom);
		bsum_bytes(c->bsum, "\n", 1);
		c->hfrom = end;
	}
}

/* A header of one column whose name holds a tab, a semicolon or a bar:
 * a file separated by that, which read as CSV would only have been
 * refused later for a missing column, or, by a command that takes any
 * columns, read as one text column. 1 and the message in msg, else 0. */
static int
other_separator(tbl_reader *r, char *msg, size_t len)
{
	static const struct { char ch; const char *one, *many, *how; } seps[] = {
		{ '\t', "tab", "tabs", "convert it with tr '\\t' ',' < FILE" },
		{ ';', "semicolon", "semicolons", "a spreadsheet's export, whose decimal mark is a comma? Convert it "
		    "with sed 's/,/./g; s/;/,/g' FILE (when no text field holds a comma)" },
		{ '|', "'|'", "'|' characters", "convert it with tr '|' ','" },
	};
	if (r->ncols != 1)
		return 0;
	for (size_t i = 0; i < sizeof(seps) / sizeof(seps[0]); i++) {
		const char *name = r->cols[0];
		int n = 0;
		for (const char *p = strchr(name, seps[i].ch); p; p = strchr(p + 1, seps[i].ch))
			n++;
		if (n == 0)
			continue;
		snprintf(msg, len, "%s:1: the header is one column, '%.40s%s', with %d %s in it: a %s-separated "
		    "file? tagk reads comma-separated values; %s", r->name, name, strlen(name) > 40 ? "..." : "", n,
		    n == 1 ? seps[i].one : seps[i].many, seps[i].one, seps[i].how);
		return 1;
	}
	return 0;
}

static void
on_record(int ch, void *data)
{
	tbl_reader *r = data;
	csvin *c = r->impl;
	/* A line ends at LF, CR LF or a lone CR (old Mac loggers). libcsv
	 * reports CR LF as a record end at CR and an empty record at LF. */
	if (c->nfield == 0) { /* an empty line, or the LF of a CR LF */
		c->lib_busy = 0;
		if (ch == '\n' && !c->prev_cr)
			c->line++;
		else if (ch == '\r')
			c->line++;
		c->prev_cr = ch == '\r';
		return;
	}
	int nf = c->nfield;
	c->nfield = 0;
	c->rec_bytes = 0;
	c->lib_busy = 0;
	if (ch == '\n' || ch == '\r')
		c->line++;
	c->prev_cr = ch == '\r';
	if (c->fatal)
		return;
	char msg[768];
	if (c->marker == MARK_ERROR) {
		snprintf(msg, sizeof(msg), "%.120s:%ld: the command upstream failed: %s", r->name,
		    c->rec_line, c->marker_msg);
		set_fatal(r, msg);
		return;
	}
	if (c->marker == MARK_STREAM) {
		if (c->header_done || c->declared) {
			snprintf(msg, sizeof(msg), "%s:%ld: a second stream begins here (two streams "
			    "joined with cat?)", r->name, c->rec_line);
			set_fatal(r, msg);
		}
		const char *v = c->marker_msg + strlen(TBL_STREAM_MARK);
		int version = nf != 1 ? 0 : strcmp(v, " 2") == 0 ? 2 : strcmp(v, " 3") == 0 ? 3 : 0;
		if (version != TBL_STREAM_VERSION && version != 2) {
			int old = strcmp(v, " 1") == 0;
			snprintf(msg, sizeof(msg), "%s:%ld: a tagk stream of version '%.20s': this tagk reads versions "
			    "2 and %d%s", r->name, c->rec_line, v + (*v == ' '), TBL_STREAM_VERSION, old ? " (version 1 "
			    "has no check value: write it again with this tagk, or delete its #tagk- lines to read it as "
			    "plain CSV)" : "");
			set_fatal(r, msg);
			return;
		}
		c->declared = version;
		if (version == 3 && !c->bsum) {
			if (!(c->bsum = XXH3_createState())) {
				set_fatal(r, "out of memory");
				return;
			}
			bsum_init(c->bsum);
			c->bhash = c->hskip = 1; /* from the line after this one */
		}
		return;
	}
	if (c->ended) {
		snprintf(msg, sizeof(msg), "%s:%ld: data after the stream's end marker (%s)", r->name,
		    c->rec_line, TBL_END_MARK);
		set_fatal(r, msg);
		return;
	}
	if (c->marker == MARK_NOTE || c->marker == MARK_END)
		unhashed_line(c);
	if (c->marker == MARK_NOTE) {
		tbl_add_note(r, c->marker_msg + strlen(TBL_NOTE_MARK));
		return;
	}
	if (c->marker == MARK_END) {
		const char *p = c->marker_msg + strlen(TBL_END_MARK);
		long long n;
		uint64_t check;
		char where[300];
		snprintf(where, sizeof(where), "%s:%ld", r->name, c->rec_line);
		if (!c->header_done || !c->declared || nf != 1 || tbl_parse_end(p, &n, &check) != 0) {
			snprintf(msg, sizeof(msg), "%s: a malformed end marker: '%.60s'%s", where, c->marker_msg,
			    c->declared ? "" : " (in a stream without its #tagk-stream: line)");
			set_fatal(r, msg);
		} else if (tbl_check_end(r, where, n, check, c->records, c->declared == 3 ? bsum_value(c->bsum)
		    : ssum_value(&c->sum)) != 0) {
			set_fatal(r, r->err);
			r->failed = 0;
		}
		c->ended = 1;
		c->bhash = 0;
		return;
	}
	if (!c->header_done) {
		c->header_done = 1;
		if (other_separator(r, msg, sizeof(msg))) {
			set_fatal(r, msg);
			return;
		}
		if (tbl_finish_header(r, r->name) != 0) {
			set_fatal(r, r->err);
			r->failed = 0;
			return;
		}
		ssum_init(&c->sum);
		for (int i = 0; i < r->ncols; i++)
			ssum_text(&c->sum, i, r->cols[i], strlen(r->cols[i]));
		c->cur = malloc((size_t)r->ncols * sizeof(*c->cur));
		c->ctext = malloc((size_t)r->ncols * sizeof(*c->ctext));
		c->clen_ = calloc((size_t)r->ncols, 1);
		c->cval = malloc((size_t)r->ncols * sizeof(*c->cval));
		if (!c->cur || !c->ctext || !c->clen_ || !c->cval)
			set_fatal(r, "out of memory");
		return;
	}
	if (nf != r->ncols) {
		if (c->at_end && nf < r->ncols)
			snprintf(msg, sizeof(msg), "%s:%ld: the input ends inside its last line (%d field%s where the "
			    "header has %d, and no line end): it was cut, or the command writing it was killed",
			    r->name, c->rec_line, nf, nf == 1 ? "" : "s", r->ncols);
		else
			snprintf(msg, sizeof(msg), "%s:%ld: %d field%s, but the header has %d",
			    r->name, c->rec_line, nf, nf == 1 ? "" : "s", r->ncols);
		set_fatal(r, msg);
		return;
	}
	c->records++;
	if (c->declared == 2)
		ssum_row(&c->sum);
	if (c->bad) {
		if (c->bad_skippable && r->opt.skip_bad) {
			r->skipped++;
			return;
		}
		snprintf(msg, sizeof(msg), "%s:%ld: %s%s", r->name, c->rec_line, c->bad_msg,
		    c->bad_skippable ? " (--skip-bad skips such rows)" : "");
		set_fatal(r, msg);
		return;
	}
	if (push_row(r) != 0)
		set_fatal(r, "out of memory");
}

/* The first bytes p[0..n) of an input: if they are UTF-16 text (its
 * byte-order mark, or ASCII with every other byte 0, as Windows tools
 * write "Unicode" text), the name iconv(1) reads it by ("UTF-16" with a
 * mark; "UTF-16LE" or "UTF-16BE" without, where iconv would guess the
 * order), else NULL. Without this the NUL in it was called binary data. */
static const char *
utf16_name(const unsigned char *p, size_t n)
{
	if (n >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff)))
		return "UTF-16";
	if (n >= 4 && p[0] && !p[1] && p[2] && !p[3] && p[0] < 0x80 && p[2] < 0x80)
		return "UTF-16LE";
	if (n >= 4 && !p[0] && p[1] && !p[2] && p[3] && p[1] < 0x80 && p[3] < 0x80)
		return "UTF-16BE";
	return NULL;
}

/* Move the unread tail to the front and read more after it. Returns the
 * bytes read: 0 at the end of the input or on an error (then fatal). */
static size_t
refill(tbl_reader *r)
{
	csvin *c = r->impl;
	size_t left = c->clen - c->coff;
	if (c->bhash) {
		bsum_bytes(c->bsum, c->chunk + c->hfrom, c->coff - c->hfrom);
		c->hfrom = 0;
	}
	memmove(c->chunk, c->chunk + c->coff, left);
	c->clen = left;
	c->coff = 0;
	if (c->nul) {
		/* every line before the NUL's has been read and counted: the
		 * one being read is the NUL's */
		char msg[512];
		snprintf(msg, sizeof(msg), "%s:%ld: binary data (a NUL byte), not CSV", r->name, c->line + 1);
		set_fatal(r, msg);
		return 0;
	}
	size_t n = fread(c->chunk + left, 1, CHUNK - left, c->f);
	const char *wide = !c->bom_checked ? utf16_name((const unsigned char *)c->chunk + left, n) : NULL;
	if (wide) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s: UTF-16 text, not UTF-8: convert it first, e.g. iconv -f %s -t UTF-8 "
		    "FILE", r->name, wide);
		set_fatal(r, msg);
		return 0;
	}
	if (n == 0 && ferror(c->f)) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s: read error: %s", r->name, gz_strerror(errno));
		set_fatal(r, msg);
		return 0;
	}
	const char *z = n ? memchr(c->chunk + left, 0, n) : NULL;
	if (z) {
		/* the bytes before it are read as usual, so that the error, when
		 * the reader reaches it, names the NUL's own line */
		n = (size_t)(z - (c->chunk + left));
		c->nul = 1;
		if (n == 0)
			return refill(r);
	}
	c->clen += n;
	if (n && !c->bom_checked) {
		/* a UTF-8 byte-order mark (Excel, PowerShell) is not part of the
		 * first column's name; the first read holds all three bytes unless
		 * the input is shorter */
		c->bom_checked = 1;
		if (c->clen >= 3 && memcmp(c->chunk, "\xef\xbb\xbf", 3) == 0)
			c->coff = 3;
	}
	return n;
}

/* The input has ended: the checks of a last line without its line end,
 * then libcsv's own end of input. */
static void
at_input_end(tbl_reader *r)
{
	csvin *c = r->impl;
	/* a last line without its line end: the input was cut there */
	c->at_end = c->last_byte != '\n' && c->last_byte != '\r' && c->last_byte >= 0;
	if (c->at_end && c->declared && !c->ended && c->header_done) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s:%ld: the stream was cut inside a line: it declares itself a tagk "
		    "stream but ends without its end marker (%s), so the command that wrote it stopped early (killed, "
		    "or its disk full)", r->name, c->line + 1, TBL_END_MARK);
		set_fatal(r, msg);
		c->eof = 1;
		return;
	}
	if (c->at_end && !c->declared) {
		/* said, not refused: a hand-written file may just lack the last
		 * line end, but a copy or a logger stopped mid-write ends so too,
		 * perhaps mid-number (1.25 cut to 1.2) */
		char msg[600];
		snprintf(msg, sizeof(msg), "%s:%ld: note: the last line has no line end: the file may have been "
		    "cut there (its row is read as it stands)", r->name, c->line + 1);
		tbl_say(msg);
	}
	csv_fini(&c->p, on_field, on_record, r);
	c->eof = 1;
	if (c->declared && !c->ended && c->header_done) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s: the stream was cut: it declares itself a tagk stream but ends "
		    "without its end marker (%s), so the command that wrote it stopped early", r->name, TBL_END_MARK);
		set_fatal(r, msg);
	}
}

/* The first line end in s[0..n): its index, or -1; *quote says whether a
 * quote comes before it. */
static long
line_end(const char *s, size_t n, int *quote)
{
	/* memchr is vectorised: three passes over a line beat one by bytes */
	const char *lf = memchr(s, '\n', n);
	size_t end = lf ? (size_t)(lf - s) : n;
	const char *cr = memchr(s, '\r', end);
	if (cr)
		end = (size_t)(cr - s);
	*quote = memchr(s, '"', end) != NULL;
	return end < n ? (long)end : -1;
}

static int
blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* One whole line without a quote, s[0..n) then its line end ch: split as
 * libcsv would, each field NUL-terminated in place for the callbacks. */
static void
split_line(tbl_reader *r, char *s, size_t n, int ch)
{
	size_t k = 0;
	while (k < n && blank(s[k]))
		k++;
	if (k < n)
		for (size_t i = 0;;) {
			size_t a = i, b, end;
			while (a < n && blank(s[a]))
				a++;
			for (b = a; b < n && s[b] != ','; b++)
				;
			for (end = b; end > a && blank(s[end - 1]); end--)
				;
			char save = s[end];
			s[end] = 0;
			on_field(s + a, end - a, r);
			s[end] = save;
			if (b == n)
				break;
			i = b + 1;
		}
	on_record(ch, r);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORDWISE 1
#else
#define WORDWISE 0
#endif

/* The first comma in s[i..n), or n; s[n .. n + 8) must be readable. Eight
 * bytes at a time: the lowest byte flagged by the zero-byte test of
 * w ^ ",,,,,,,," is the first comma (borrows only flag bytes above it). */
static size_t
next_comma(const char *s, size_t i, size_t n)
{
#if WORDWISE
	const uint64_t ones = UINT64_C(0x0101010101010101), commas = ones * ',';
	for (; i < n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		w ^= commas;
		uint64_t m = (w - ones) & ~w & (ones << 7);
		if (m) {
			size_t j = i + (size_t)(__builtin_ctzll(m) >> 3);
			return j < n ? j : n;
		}
	}
	return n;
#else
	while (i < n && s[i] != ',')
		i++;
	return i;
#endif
}

/* Whether a's and b's first len < 32 bytes are equal; both readable to
 * len rounded up to 8. Word by word, the last masked: memcmp was a call
 * per cell. */
static int
same_text(const char *a, const char *b, size_t len)
{
#if WORDWISE
	size_t k = 0;
	uint64_t x, y;
	for (; k + 8 <= len; k += 8) {
		memcpy(&x, a + k, 8);
		memcpy(&y, b + k, 8);
		if (x != y)
			return 0;
	}
	if (k == len)
		return 1;
	memcpy(&x, a + k, 8);
	memcpy(&y, b + k, 8);
	return ((x ^ y) & (~UINT64_C(0) >> (64 - 8 * (len - k)))) == 0;
#else
	return memcmp(a, b, len) == 0;
#endif
}

/* What the cell loop reads per column, in locals the compiler keeps in
 * registers: through c and r it reloaded every pointer after each store
 * of a cell's text (a char store may alias anything). */
typedef struct {
	const char *want;
	int ncols;
	double *cur, *cval;
	char (*ctext)[32];
	unsigned char *clen;
} cellcache;

/* The common case of data_cell: a wanted cell that repeats the column's
 * last text, or that num_parse_pad reads whole as a finite nonzero number: 1
 * and the value in cur, or 0 for anything else, which data_cell then
 * judges. t is readable from t - 16 to t + 48 (the chunk's padding, as
 * num_parse_pad asks). */
static inline int
cached_cell(const cellcache *cc, int col, const char *t, size_t len)
{
	if (len - 1 >= 31)
		return 0;
	if (cc->clen[col] == len && same_text(cc->ctext[col], t, len)) {
		cc->cur[col] = cc->cval[col];
		return 1;
	}
	double v;
	if (num_parse_pad(t, len, &v) != 0)
		return 0;
	cc->cur[col] = v;
	cc->cval[col] = v;
	memcpy(cc->ctext[col], t, 32);
	cc->clen[col] = (unsigned char)len;
	return 1;
}

/* cached_cell for line_cell. */
static int
fast_cell(csvin *c, int col, const char *t, size_t len)
{
	const cellcache cc = { NULL, 0, c->cur, c->cval, c->ctext, c->clen_ };
	return cached_cell(&cc, col, t, len);
}

/* One cell of a data line, s[a..end) (blanks trimmed): version 2's check
 * value of its text, then a wanted cell's value (fast_cell's common case,
 * else data_cell's judgement with the cell NUL-terminated). */
static void
line_cell(tbl_reader *r, csvin *c, char *s, size_t a, size_t end)
{
	size_t len = end - a;
	int col = c->nfield++;
	if (c->declared == 2)
		ssum_text_padded(&c->sum, col, s + a, len);
	if (col < r->ncols && r->want[col] && !c->bad && !fast_cell(c, col, s + a, len)) {
		char save = s[end];
		s[end] = 0;
		data_cell(r, col, s + a, len);
		s[end] = save;
	}
}

/* The fields of a line with blanks in it: each trimmed at both ends. */
static void
fields_trimmed(tbl_reader *r, csvin *c, char *s, size_t n)
{
	for (size_t i = 0;;) {
		size_t a = i, b = next_comma(s, i, n), end = b;
		while (a < b && blank(s[a]))
			a++;
		while (end > a && blank(s[end - 1]))
			end--;
		c->rec_bytes += end - a + 1;
		line_cell(r, c, s, a, end);
		if (b == n)
			break;
		i = b + 1;
	}
}

#if defined(__SSE2__)
/* Bit k set where s[k] is ch0 or ch1, k < 16. */
static inline unsigned
bytes_are(const char *s, char ch0, char ch1)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
	__m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(ch0)), _mm_cmpeq_epi8(v, _mm_set1_epi8(ch1)));
	return (unsigned)_mm_movemask_epi8(m);
}

/* Bit k set where s[k] is a comma, k < 64; s readable to s + 64. */
static inline uint64_t
commas64(const char *s)
{
	return (uint64_t)bytes_are(s, ',', ',') | (uint64_t)bytes_are(s + 16, ',', ',') << 16 |
	    (uint64_t)bytes_are(s + 32, ',', ',') << 32 | (uint64_t)bytes_are(s + 48, ',', ',') << 48;
}

/* Whether s[0..n) holds a space or a tab; s readable to n rounded up to 16. */
static int
has_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i += 16) {
		unsigned m = bytes_are(s + i, ' ', '\t');
		if (n - i < 16)
			m &= (1u << (n - i)) - 1;
		if (m)
			return 1;
	}
	return 0;
}

/* The fields of a line without blanks: commas found 64 bytes at a time
 * and taken lowest bit first, three instructions per field where the
 * scan for each comma was a loop; each wanted cell through
 * cached_cell, else data_cell (once a cell is bad, the rest are only
 * counted). s is readable to s + n + 64 (the chunk's padding). */
static void
fields_plain(tbl_reader *r, csvin *c, char *s, size_t n)
{
	const cellcache cc = { r->want, r->ncols, c->cur, c->cval, c->ctext, c->clen_ };
	int col = 0, bad = c->bad;
	size_t a = 0;
	for (size_t base = 0;; base += 64) {
		uint64_t m = commas64(s + base);
		int last = n - base < 64;
		if (last) /* the line's end closes its last field */
			m = (m & ((UINT64_C(1) << (n - base)) - 1)) | UINT64_C(1) << (n - base);
		for (; m; m &= m - 1, col++) {
			size_t b = base + (size_t)__builtin_ctzll(m), len = b - a;
			char *t = s + a;
			a = b + 1;
			if (col >= cc.ncols || !cc.want[col] || bad || cached_cell(&cc, col, t, len))
				continue;
			char save = t[len];
			t[len] = 0;
			data_cell(r, col, t, len);
			t[len] = save;
			bad = c->bad;
		}
		if (last)
			break;
	}
	c->nfield = col;
	c->rec_bytes += n + 1;
}
#else
static int
has_blank(const char *s, size_t n)
{
	return memchr(s, ' ', n) || memchr(s, '\t', n);
}

static void
fields_plain(tbl_reader *r, csvin *c, char *s, size_t n)
{
	fields_trimmed(r, c, s, n);
}
#endif

/* One whole data line without a quote, s[0..n) then its line end ch,
 * once the header is read: split_line's fields and on_field's work
 * without a call per field, and each cell's common case in fast_cell.
 * Marker lines and blank lines go to split_line. */
static void
fast_line(tbl_reader *r, char *s, size_t n, int ch)
{
	csvin *c = r->impl;
	size_t k = 0;
	while (k < n && blank(s[k]))
		k++;
	if (k == n || s[k] == '#') {
		split_line(r, s, n, ch);
		return;
	}
	c->prev_cr = 0;
	begin_record(r);
	if (c->declared == 2 || has_blank(s, n))
		fields_trimmed(r, c, s, n); /* version 2 hashes each cell's text */
	else
		fields_plain(r, c, s, n);
	on_record(ch, r);
}

/* Whether the field s[0..n) of a line is one the fast path may take
 * without its quotes: none, or a quote at each end and none between
 * (nothing before or after them, not even a blank: libcsv keeps blanks
 * after a closing quote in the field) around text that neither begins
 * nor ends with a blank (the fast path would trim those). */
static int
simply_quoted(const char *s, size_t n)
{
	if (!memchr(s, '"', n))
		return 1;
	return n >= 2 && s[0] == '"' && s[n - 1] == '"' && !memchr(s + 1, '"', n - 2) &&
	    (n == 2 || (!blank(s[1]) && !blank(s[n - 2])));
}

/* A line with quotes, s[0..n) then its line end ch: if every field is
 * simply_quoted, the line without the quotes is split by fast_line from
 * a copy (the chunk's bytes stay as read, for version 3's hash), giving
 * the fields libcsv would: 1. Else 0, for libcsv: a quote inside a field
 * (a comma or line end in it, a doubled quote), blanks next to a quote,
 * and a copy that would start with '#' or hold only blanks (a marker, or
 * a line of one empty field, which the fast path would take for a
 * comment or a blank line). Loggers that quote every cell (Python's
 * csv.QUOTE_ALL) went through libcsv a line at a time: 2.6 times the
 * plain file's reading time. */
static int
unquote_line(tbl_reader *r, const char *s, size_t n, int ch)
{
	csvin *c = r->impl;
	if (!c->uq && !(c->uq = malloc(FRONT + CHUNK + PAD)))
		return 0;
	char *o = c->uq + FRONT;
	size_t m = 0;
	for (size_t i = 0;;) {
		const char *comma = memchr(s + i, ',', n - i);
		size_t b = comma ? (size_t)(comma - s) : n, len = b - i;
		if (!simply_quoted(s + i, len))
			return 0;
		int q = len >= 2 && s[i] == '"';
		memcpy(o + m, s + i + q, len - 2 * (size_t)q);
		m += len - 2 * (size_t)q;
		if (b == n)
			break;
		o[m++] = ',';
		i = b + 1;
	}
	size_t k = 0;
	while (k < m && blank(o[k]))
		k++;
	if (k == m || o[k] == '#')
		return 0;
	fast_line(r, o, m, ch);
	return 1;
}

/* Give libcsv s[0..len); it owns the input until it ends the record. */
static int
feed_libcsv(tbl_reader *r, const char *s, size_t len)
{
	csvin *c = r->impl;
	c->lib_busy = 1;
	if (csv_parse(&c->p, s, len, on_field, on_record, r) != len) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s:%ld: %s", r->name, c->line + 1, csv_error(&c->p) == CSV_ENOMEM
		    ? "line longer than the limit of 65536 bytes" : csv_strerror(csv_error(&c->p)));
		set_fatal(r, msg);
		return -1;
	}
	return 0;
}

/* Feed input until a row is queued, the input ends or an error is found
 * (or, while opening, until the header row is complete). One line at a
 * time: the fast path's, or libcsv's while opening, while it holds part of
 * a record, or for a line with a quote. */
static void
fill(tbl_reader *r)
{
	csvin *c = r->impl;
	while (c->qlen == 0 && !c->eof && !c->fatal && !(c->opening && c->header_done)) {
		char *start = c->chunk + c->coff;
		size_t left = c->clen - c->coff;
		int quote;
		long e = line_end(start, left, &quote);
		size_t len = e >= 0 ? (size_t)e + 1 : left;
		if (e < 0 && left < CHUNK) {
			/* no whole line here: read on; at the end, what is left goes
			 * to libcsv, then its end of input */
			if (refill(r) > 0 || c->fatal)
				continue;
			if (c->clen > c->coff && feed_libcsv(r, c->chunk + c->coff, c->clen - c->coff) == 0) {
				c->last_byte = (unsigned char)c->chunk[c->clen - 1];
				c->coff = c->clen;
			}
			if (!c->fatal)
				at_input_end(r);
			return;
		}
		int fast = tbl_csv_fastpath && e >= 0 && !c->opening && !c->lib_busy;
		if (fast && !quote)
			(c->cur ? fast_line : split_line)(r, start, (size_t)e, start[e]);
		else if (fast && c->cur && unquote_line(r, start, (size_t)e, start[e]))
			;
		else if (feed_libcsv(r, start, len) != 0)
			return;
		c->coff += len;
		if (c->bhash || c->hskip)
			hash_line_end(c, start, len);
		c->last_byte = (unsigned char)start[len - 1];
		if (c->rec_bytes > TBL_MAX_LINE) {
			char msg[512];
			snprintf(msg, sizeof(msg), "%s:%ld: line longer than the limit of %d bytes",
			    r->name, c->nfield ? c->rec_line : c->line + 1, TBL_MAX_LINE);
			set_fatal(r, msg);
			return;
		}
	}
}

static int
csv_next(tbl_reader *r, double *row)
{
	csvin *c = r->impl;
	if (c->qlen == 0)
		fill(r);
	if (c->qlen > 0) {
		memcpy(row, c->q + (size_t)c->qhead * r->ncols, (size_t)r->ncols * sizeof(*row));
		c->last_line = c->qline[c->qhead];
		c->qhead = (c->qhead + 1) % c->qcap;
		c->qlen--;
		return 1;
	}
	if (c->fatal)
		return tbl_fail(r, "%s", c->fatal_msg);
	return 0;
}

static void
csv_where(tbl_reader *r, char *buf, size_t len)
{
	csvin *c = r->impl;
	snprintf(buf, len, "%s:%ld", r->name, c->last_line);
}

static void
csv_close(tbl_reader *r)
{
	csvin *c = r->impl;
	if (!c)
		return;
	csv_free(&c->p);
	XXH3_freeState(c->bsum);
	if (c->f && c->f != stdin)
		fclose(c->f);
	free(c->cur);
	free(c->ctext);
	free(c->clen_);
	free(c->cval);
	free(c->uq);
	free(c->q);
	free(c->qline);
	free(c);
	r->impl = NULL;
}

int
tbl_csv_open(tbl_reader *r, FILE *f)
{
	csvin *c = calloc(1, sizeof(*c));
	if (!c)
		return tbl_fail(r, "out of memory");
	r->impl = c;
	r->next = csv_next;
	r->where_fn = csv_where;
	r->close = csv_close;
	c->f = f;
	c->chunk = c->mem + FRONT;
	c->last_byte = -1;
	if (csv_init(&c->p, CSV_APPEND_NULL | CSV_REPALL_NL) != 0)
		return tbl_fail(r, "out of memory");
	csv_set_realloc_func(&c->p, capped_realloc);
	/* Read the header row now, so that open fails on a bad header; data
	 * rows wait until the caller has said which columns it wants. */
	c->opening = 1;
	fill(r);
	c->opening = 0;
	if (c->fatal)
		return tbl_fail(r, "%s", c->fatal_msg);
	if (!c->header_done && c->declared)
		return tbl_fail(r, "%s: the stream was cut before its header: it declares itself a "
		    "tagk stream but ends there", r->name);
	if (!c->header_done) {
		/* a pipe that gave nothing: its writer most likely failed, and
		 * said why on stderr above */
		struct stat st;
		int pipe_in = fstat(fileno(f), &st) == 0 && S_ISFIFO(st.st_mode);
		return tbl_fail(r, "%s: empty input: no header row%s", r->name, pipe_in ? " (the command "
		    "writing to this pipe gave nothing: did it fail?)" : "");
	}
	return 0;
}
