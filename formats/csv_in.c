/*
 * csv_in.c: the CSV backend of table.c, on libcsv.
 *
 * libcsv pushes fields and record ends through callbacks; this file turns
 * that into tbl_next's pull by reading 256 KiB at a time and queueing the
 * rows completed, so memory is bounded by the buffer and by TBL_MAX_LINE
 * (libcsv's own field buffer is capped through its realloc hook).
 *
 * The fast path (csv_fast.c): a whole line without a quote is split here, in place,
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
#include "table_readers.h"
#include "csv_in.h"
#include "gz.h"

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
void
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

/* The time column's value v, of text txt (NUL-terminated, a finite number):
 * from the first value on, as tbl_want_time says. */
static double
time_cell(tbl_reader *r, const char *txt, double v)
{
	if (r->tstate == 0) {
		r->tstate = fabs(v) >= 1e9 ? 1 : 2;
		if (r->tstate == 1) {
			r->t0 = strtold(txt, NULL);
			snprintf(r->t0text, sizeof(r->t0text), "%.40s", txt);
		}
	}
	return r->tstate == 1 ? (double)(strtold(txt, NULL) - r->t0) : v;
}

/* Cell col of a data record (not a marker line), txt NUL-terminated: if
 * the column is wanted, its value into cur, or why the record is bad. */
void
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
	/* step 3 of numconv.h's list: what the fast path left, and libcsv's */
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
	if (col + 1 == r->tcol1)
		v = time_cell(r, txt, v);
	c->cur[col] = v;
	if (len < 32) {
		memcpy(c->ctext[col], txt, len);
		c->clen_[col] = (unsigned char)len;
		c->cval[col] = v;
	}
}

void
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

/* A "#tagk-stream: V" line of nf fields: the stream's version, and for
 * version 3 the hash of the bytes after it; a second declaration, or one
 * of a version this tagk does not read, is fatal. */
static void
stream_declaration(tbl_reader *r, int nf)
{
	csvin *c = r->impl;
	char msg[768];
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
}

/* The "#tagk-end: N rows; check HEX" line of nf fields: the count and
 * check value against what was read (fatal if they differ, or if the
 * marker is malformed or ends an undeclared stream); nothing may follow. */
static void
end_marker(tbl_reader *r, int nf)
{
	csvin *c = r->impl;
	char msg[768];
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
}

/* The header row is complete: its names checked (another separator, or a
 * name empty or repeated, is fatal), version 2's check value begun with
 * them, and the record's buffers sized to its columns. */
static void
header_complete(tbl_reader *r)
{
	csvin *c = r->impl;
	char msg[768];
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
}

void
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
		stream_declaration(r, nf);
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
		end_marker(r, nf);
		return;
	}
	if (!c->header_done) {
		header_complete(r);
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

/* A whole line s[0..n) that is one of tagk's marker lines (#tagk-note:,
 * #tagk-error:, ...; leading blanks allowed), taken as it was written: 1.
 * Else 0, and the line goes to the CSV parsers. A note or an error is
 * free text: split into fields, then joined again, it lost every blank
 * after a comma and libcsv took its quotes, so a warning carried through
 * a CSV stream read differently from the same warning through a binary
 * one. A stream or end marker keeps its field count (a comma in it is
 * still malformed). */
static int
is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

static int
marker_line(tbl_reader *r, const char *s, size_t n, int ch)
{
	csvin *c = r->impl;
	size_t k = 0;
	while (k < n && is_blank(s[k]))
		k++;
	if (n - k < 6 || memcmp(s + k, "#tagk-", 6) != 0)
		return 0;
	char txt[sizeof(c->marker_msg)];
	size_t len = n - k, end = len;
	while (end > 0 && (is_blank(s[k + end - 1]) || s[k + end - 1] == '\r'))
		end--;
	if (end >= sizeof(txt))
		end = sizeof(txt) - 1;
	memcpy(txt, s + k, end);
	txt[end] = 0;
	int kind = marker_kind(txt);
	if (kind == MARK_NONE)
		return 0;
	begin_record(r);
	c->prev_cr = 0;
	c->marker = kind;
	size_t skip = kind == MARK_ERROR ? strlen(TBL_ERROR_MARK) + (txt[strlen(TBL_ERROR_MARK)] == ' ') : 0;
	snprintf(c->marker_msg, sizeof(c->marker_msg), "%s", txt + skip);
	int nf = 1;
	for (size_t i = 0; i < end; i++)
		nf += txt[i] == ',';
	c->nfield = nf;
	c->rec_bytes = n + 1;
	on_record(ch, r);
	return 1;
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
		if (e >= 0 && !c->lib_busy && marker_line(r, start, (size_t)e, start[e]))
			;
		else if (fast && !quote)
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
