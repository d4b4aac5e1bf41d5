/* sink.c: CSV, binary-stream and HDF5 writers with commit-or-abandon semantics;
 * see sink.h. */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sink.h"
#include "hdf5_out.h"
#include "outfile.h"
#include "gz.h"
#include "numconv.h"
#include "binary.h"
#include "pipeout.h"
#include "streamsum.h"

enum { HOLD = 1 << 20, MEMO_BITS = 8, MEMO = 1 << MEMO_BITS };

struct sink {
	tbl_format fmt;
	FILE *f;             /* CSV: the temporary file, stdout or a stream node */
	const char *name;    /* in messages: the user's path or "stdout" */
	outfile of;          /* file outputs */
	int to_stdout;       /* stdout, or a non-regular node written in place:
	                      * held, then ended by the error marker on failure */
	int is_file;         /* of is in use */
	int ncols;
	long long rows;      /* data rows written, for the end marker */
	bsum *bsum;          /* the end marker's check value (streamsum.h): of
	                      * the bytes emitted while bhash is set (CSV: from
	                      * the names line to the last row; binary: the names
	                      * and units lines) and of every binary record */
	int bhash;
	unsigned char *hq;   /* binary: records stored and not yet hashed, */
	size_t hn;           /* hn bytes at hq (sum_run) */
	char notes[TBL_NOTES][160]; /* #tagk-note lines written before the end
	                      * marker, the latest TBL_NOTES, as readers keep */
	int nnotes;
	char *hold;          /* stdout: held output, until HOLD bytes */
	size_t held;
	int flushed;         /* stdout: some output has been released */
	int failed;
	char err[512];
	h5out *h5;
	/* per column, the bits of the last value written and its text:
	 * streams repeat values across rows (time, truth), which are then
	 * copied. Equal bits, equal text; every NaN's text is empty (tlen 0),
	 * which is where each column starts */
	uint64_t *last;
	char (*text)[32];
	unsigned char *tlen;
	/* csv_row_whole's cells formatted anew in the row: their columns and
	 * where their text starts in line */
	int *fresh;
	uint32_t *off;
	/* the text of recent magnitudes, whatever their column: a regressor
	 * row repeats the sample's values in other places and signs */
	struct memo { uint64_t bits; unsigned char len; char text[32]; } *memo;
	struct memo **fill; /* per column: the slot its new text fills, or NULL */
	/* binary rows to a pipe read only by tagk, once output has begun:
	 * handed over by reference (pipeout.h) */
	int by_reference;
	pipeout *po;
	unsigned char *room; /* sink_rows_room's, until sink_rows_commit */
	/* binary: the words of the row last written (binary_encode's prev),
	 * the rows sink_rows_room hands out (stage, for stagen rows), and a
	 * record too wide for line (big) */
	uint64_t *prev;
	binary_encode_fn *encode; /* binary_encoder's */
	double *stage;
	int stagen;
	unsigned char *big;
	/* rows not yet emitted: whole CSV lines or binary records */
	size_t pending;
	char line[64 * 1024];
};

int
fmt_double(char *buf, double x)
{
	return num_format(buf, x);
}

static int
emit(sink *s, const char *p, size_t n)
{
	if (s->bhash)
		bsum_bytes(s->bsum, p, n);
	if (s->to_stdout && !s->flushed) {
		if (s->held + n <= HOLD) {
			memcpy(s->hold + s->held, p, n);
			s->held += n;
			return 0;
		}
		if (fwrite(s->hold, 1, s->held, s->f) != s->held)
			goto fail;
		s->flushed = 1;
		s->held = 0;
	}
	if (fwrite(p, 1, n, s->f) != n)
		goto fail;
	return 0;
fail:
	snprintf(s->err, sizeof(s->err), "%s: write error: %s", s->name, strerror(errno));
	s->failed = 1;
	return -1;
}

/* HDF5 writer messages do not know the user's path: put it in front. */
static void
name_h5_error(sink *s)
{
	char t[sizeof(s->err)];
	snprintf(t, sizeof(t), "%.200s: %.300s", s->name, s->err);
	memcpy(s->err, t, sizeof(t));
}

static void
free_sink(sink *s)
{
	pipeout_close(s->po);
	free(s->hold);
	free(s->last);
	free(s->text);
	free(s->tlen);
	free(s->off);
	free(s->fresh);
	free(s->memo);
	free(s->fill);
	free(s->prev);
	free(s->stage);
	free(s->big);
	XXH3_freeState(s->bsum);
	free(s);
}

/* A stream over a copy of the output's descriptor (gzip-compressed when
 * gz), or NULL with errno set. */
static FILE *
open_fd_stream(outfile *o, int gz)
{
	if (!gz)
		return outfile_stream(o);
	int fd = outfile_fd(o);
	if (fd < 0 || (fd = dup(fd)) < 0)
		return NULL;
	FILE *f = gz_open_write_fd(fd);
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

sink *
sink_open(const char *path, tbl_format fmt, char *err, size_t errlen)
{
	sink *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	int is_stdout = !path || strcmp(path, "-") == 0;
	if (fmt == TBL_AUTO)
		fmt = is_stdout ? TBL_CSV : tbl_format_from_name(path);
	if (fmt == TBL_AUTO)
		fmt = TBL_CSV;
	if (fmt == TBL_CFUSD || fmt > TBL_BINARY) {
		snprintf(err, errlen, "%s: tagk does not write %s", path ? path : "stdout",
		    fmt == TBL_CFUSD ? "Crazyflie uSD logs" : "this format");
		free(s);
		return NULL;
	}
	s->fmt = fmt;
	s->name = is_stdout ? "stdout" : path;
	if (!is_stdout) {
		if (outfile_begin(&s->of, path, err, errlen) != 0) {
			free(s);
			return NULL;
		}
		s->is_file = 1;
	}
	s->to_stdout = is_stdout || s->of.direct;
	int gz = !is_stdout && gz_name(path);
	if (gz && fmt == TBL_HDF5) {
		snprintf(err, errlen, "%s: HDF5 output is not gzip-compressed (write FILE.h5, or CSV as "
		    "FILE.csv.gz)", s->name);
		goto fail;
	}
	if (s->to_stdout) {
		if (fmt == TBL_HDF5) {
			snprintf(err, errlen, "%s: HDF5 output needs a regular file (-o FILE.h5)", s->name);
			goto fail;
		}
		s->f = is_stdout ? stdout : open_fd_stream(&s->of, gz);
		if (!s->f) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		/* a pipe of 1 MiB (Linux's default limit) rather than 64 KiB: a
		 * tenth of the context switches between writer and reader */
#ifdef F_SETPIPE_SZ
		struct stat st;
		if (fstat(fileno(s->f), &st) == 0 && S_ISFIFO(st.st_mode))
			(void)fcntl(fileno(s->f), F_SETPIPE_SZ, 1 << 20);
#endif
		s->hold = malloc(HOLD);
		if (!s->hold) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		return s;
	}
	if (fmt == TBL_HDF5) {
		char why[512];
		s->h5 = h5out_create(outfile_open_name(&s->of), why, sizeof(why));
		if (!s->h5) {
			/* the user's path, not the temporary one */
			snprintf(err, errlen, "%s: %s", path, why);
			goto fail;
		}
		return s;
	}
	s->f = open_fd_stream(&s->of, gz);
	if (!s->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	return s;
fail:
	if (s->f && s->f != stdout)
		fclose(s->f);
	if (s->is_file)
		outfile_abandon(&s->of);
	free_sink(s);
	return NULL;
}

static int
po_failed(sink *s)
{
	snprintf(s->err, sizeof(s->err), "%s: write error: %s", s->name, strerror(errno));
	s->failed = 1;
	return -1;
}

/* Records not yet hashed into the check value, now. */
static void
sum_run(sink *s)
{
	bsum_bytes(s->bsum, s->hq, s->hn);
	s->hn = 0;
}

/* A record of n bytes just stored at p, after the last (in the same
 * buffer, or first in a new one). Hashed every 4 KiB, while still in L1:
 * hashing the 64 KiB buffer as it went out read it back from L2, and made
 * tagk-regress from HDF5 slower than with version 2's check value. */
static void
sum_later(sink *s, unsigned char *p, size_t n)
{
	if (!s->hn)
		s->hq = p;
	s->hn += n;
	if (s->hn >= 4096)
		sum_run(s);
}

/* pipeout's: a slot is about to go. */
static void
sum_sent(void *ctx, const unsigned char *p, size_t n)
{
	(void)p, (void)n;
	sum_run(ctx);
}

/* Emit the rows held in s->line, or in the pipe's current slot. */
static int
flush_pending(sink *s)
{
	if (s->hn)
		sum_run(s);
	if (s->po)
		return pipeout_send(s->po) == 0 ? 0 : po_failed(s);
	size_t n = s->pending;
	s->pending = 0;
	return n ? emit(s, s->line, n) : 0;
}

/* Append l bytes to s->line after its n bytes, emitting the line whenever
 * it fills. */
static int
put(sink *s, size_t *n, const char *p, size_t l)
{
	while (l) {
		if (*n == sizeof(s->line)) {
			if (emit(s, s->line, *n) != 0)
				return -1;
			*n = 0;
		}
		size_t k = sizeof(s->line) - *n < l ? sizeof(s->line) - *n : l;
		memcpy(s->line + *n, p, k);
		*n += k;
		p += k;
		l -= k;
	}
	return 0;
}

/* Whether a name is written in double quotes (RFC 4180): it holds a comma
 * or a double quote. (Line breaks are refused by sink_header.) */
static int
needs_quotes(const char *w)
{
	return w[strcspn(w, ",\"")] != 0;
}

/* The bytes a name takes in the header line. */
static size_t
field_len(const char *w)
{
	size_t l = strlen(w);
	if (!needs_quotes(w))
		return l;
	for (const char *q = w; (q = strchr(q, '"')); q++)
		l++;
	return l + 2;
}

/* The names (or with units, their units) separated by commas, then "\n",
 * after the n bytes already in s->line: the header line of both streams.
 * A name with a comma or a double quote is quoted, its quotes doubled, as
 * CSV readers (and tagk's binary reader) expect. */
static int
emit_list(sink *s, size_t n, const char *const *names, int units)
{
	for (int i = 0; i < s->ncols; i++) {
		const char *w = units ? binary_unit(names[i]) : names[i];
		if (i && put(s, &n, ",", 1) != 0)
			return -1;
		if (!needs_quotes(w)) {
			if (put(s, &n, w, strlen(w)) != 0)
				return -1;
			continue;
		}
		if (put(s, &n, "\"", 1) != 0)
			return -1;
		for (const char *q = w; *q;) {
			size_t k = strcspn(q, "\"");
			if (put(s, &n, q, k) != 0 || (q[k] && put(s, &n, "\"\"", 2) != 0))
				return -1;
			q += k + (q[k] != 0);
		}
		if (put(s, &n, "\"", 1) != 0)
			return -1;
	}
	return put(s, &n, "\n", 1) == 0 ? emit(s, s->line, n) : -1;
}

/* The binary stream's header (binary.h): the magic line padded so that the
 * records start at a multiple of 8 bytes, the names, the units. */
static int
binary_header(sink *s, const char *const *names)
{
	size_t text = 0;
	for (int i = 0; i < s->ncols; i++)
		text += field_len(names[i]) + strlen(binary_unit(names[i])) + 2;
	char magic[BINARY_MAGIC_MAX];
	int n = snprintf(magic, sizeof(magic), "%s %d f64le %d", BINARY_MAGIC, BINARY_VERSION, s->ncols);
	while ((text + (size_t)n + 1) % 8)
		magic[n++] = ' ';
	magic[n++] = '\n';
	if (emit(s, magic, (size_t)n) != 0)
		return -1;
	/* the check value covers every byte from here to the trailer */
	s->bhash = 1;
	int rc = emit_list(s, 0, names, 0) != 0 || emit_list(s, 0, names, 1) != 0 ? -1 : 0;
	s->bhash = 0;
	return rc;
}

/* Where the next rec bytes of binary records go: the pipe's slot (once
 * output to a tagk reader has begun, the rows before go out through stdio
 * and the pipe is used by reference from then on) or s->line after the
 * rows pending (sent first when these would not fit). NULL on an error
 * (s->failed), or for a record wider than s->line (rows pending sent). */
static unsigned char *
binary_room(sink *s, size_t rec)
{
	if (s->by_reference && s->flushed && !s->po && !s->failed && rec <= pipeout_slot_size()) {
		if (flush_pending(s) != 0)
			return NULL;
		if (fflush(s->f) != 0)
			return po_failed(s), NULL;
		s->po = pipeout_open(fileno(s->f));
		if (s->po)
			pipeout_watch(s->po, sum_sent, s);
		s->by_reference = 0;
	}
	if (s->po) {
		unsigned char *p = pipeout_room(s->po, rec);
		if (!p)
			po_failed(s);
		return p;
	}
	if (s->pending + rec > sizeof(s->line) && flush_pending(s) != 0)
		return NULL;
	return rec <= sizeof(s->line) ? (unsigned char *)s->line + s->pending : NULL;
}

/* The k records of rec bytes just stored at p, from binary_room: hashed
 * and counted, and the room's. */
static void
binary_commit(sink *s, unsigned char *p, size_t rec, int k)
{
	sum_later(s, p, rec);
	if (s->po)
		pipeout_commit(s->po, rec);
	else
		s->pending += rec;
	s->rows += k;
}

/* k rows of v, each a version 4 record (binary.h) against the row
 * before. */
static int
binary_rows(sink *s, const double *v, int k, int same)
{
	size_t rec = binary_record_max(s->ncols);
	if (k > 1 && (size_t)k * rec <= sizeof(s->line) && (size_t)k * rec <= pipeout_slot_size()) {
		/* a sample's rows in one room: one call and one commit */
		unsigned char *p = binary_room(s, (size_t)k * rec);
		if (!p)
			return -1;
		binary_commit(s, p, s->encode(p, s->prev, v, s->ncols, k, same), k);
		return 0;
	}
	for (int r = 0; r < k; r++, v += s->ncols) {
		unsigned char *p = binary_room(s, rec);
		if (p) {
			binary_commit(s, p, s->encode(p, s->prev, v, s->ncols, 1, s->ncols), 1);
			continue;
		}
		if (s->failed)
			return -1;
		/* a record wider than the buffer goes out alone, from its own */
		if (!s->big && !(s->big = malloc(rec))) {
			snprintf(s->err, sizeof(s->err), "out of memory");
			return s->failed = 1, -1;
		}
		size_t n = s->encode(s->big, s->prev, v, s->ncols, 1, s->ncols);
		bsum_bytes(s->bsum, s->big, n);
		s->rows++;
		if (emit(s, (const char *)s->big, n) != 0)
			return -1;
	}
	return 0;
}

int
sink_header(sink *s, int ncols, const char *const *names)
{
	s->ncols = ncols;
	s->last = malloc((size_t)ncols * sizeof(*s->last));
	s->text = calloc((size_t)ncols, sizeof(*s->text));
	s->tlen = calloc((size_t)ncols, 1);
	s->off = malloc(((size_t)ncols + 1) * sizeof(*s->off));
	s->fresh = malloc(((size_t)ncols + 1) * sizeof(*s->fresh));
	s->memo = calloc(MEMO, sizeof(*s->memo)); /* bits 0 is +0, which never reaches it */
	s->fill = calloc((size_t)ncols, sizeof(*s->fill));
	s->prev = malloc((size_t)ncols * sizeof(*s->prev));
	s->encode = binary_encoder();
	if (!s->last || !s->text || !s->tlen || !s->off || !s->fresh || !s->memo || !s->fill || !s->prev) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		return s->failed = 1, -1;
	}
	for (int i = 0; i < ncols; i++) {
		s->last[i] = UINT64_C(0x7ff8000000000000); /* a NaN: its text, empty */
		s->prev[i] = BINARY_NONE;
		if (names[i][strcspn(names[i], "\r\n")]) {
			snprintf(s->err, sizeof(s->err), "column %d's name has a line break, which tagk's streams "
			    "cannot carry: rename it", i + 1);
			return s->failed = 1, -1;
		}
	}
	if (s->fmt == TBL_HDF5) {
		if (h5out_header(s->h5, ncols, names, s->err, sizeof(s->err)) != 0)
			return name_h5_error(s), s->failed = 1, -1;
		return 0;
	}
	if (!(s->bsum = XXH3_createState())) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		return s->failed = 1, -1;
	}
	bsum_init(s->bsum);
	if (s->fmt == TBL_BINARY)
		return binary_header(s, names);
	/* the declaration that makes a reader insist on the end marker; the
	 * check value covers every byte after it, up to the notes */
	int n = snprintf(s->line, sizeof(s->line), "%s %d\n", TBL_STREAM_MARK, TBL_STREAM_VERSION);
	if (emit(s, s->line, (size_t)n) != 0)
		return -1;
	s->bhash = 1;
	return emit_list(s, 0, names, 0);
}

/* The text of x into out (32 bytes), through s->memo, a direct-mapped
 * table of the text of recent magnitudes by their bits (num_format(-x) is
 * "-" and num_format(x)). On a miss x is formatted into out, and *fill is
 * the slot to fill from out once the row is written: copying it now would
 * read back bytes not yet stored. */
static int
format_memo(sink *s, char *out, double x, struct memo **fill)
{
	uint64_t bits;
	memcpy(&bits, &x, 8);
	uint64_t mag = bits & ~(UINT64_C(1) << 63);
	*fill = NULL;
	if (mag == 0 || mag >= UINT64_C(0x7ff0000000000000))
		return num_format(out, x); /* zeros, Inf and NaN: as they are */
	struct memo *m = &s->memo[(mag * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - MEMO_BITS)];
	if (m->bits != mag) {
		*fill = m;
		return num_format(out, x);
	}
	int neg = bits >> 63;
	out[0] = '-';
	memcpy(out + neg, m->text, sizeof(m->text) - 1); /* the text: at most 24 */
	return neg + m->len;
}

/* Slot m of s->memo from x's text at t, once the row is written. */
static void
memo_fill(struct memo *m, double x, const char *t, int len)
{
	uint64_t bits;
	memcpy(&bits, &x, 8);
	int neg = bits >> 63;
	m->bits = bits & ~(UINT64_C(1) << 63);
	m->len = (unsigned char)(len - neg);
	memcpy(m->text, t + neg, sizeof(m->text));
}

/* A CSV row that fits in line after what is pending, each cell followed
 * by a comma (the last one is the caller's to replace by the line end).
 * A value whose bits are its column's last has its text copied; another
 * is formatted straight into line, and its text kept for the column once
 * the whole row is written, from a list of those cells: reading a cell's
 * text right after its bytes were stored stalls store forwarding (the
 * line, then the cache, then the hash each read it back), which was a
 * third of writing CSV. One integer comparison per cell decides, where
 * a NaN test, a comparison and the signs' took three unpredictable
 * branches. The check value hashes the line as it goes out (emit). */
static void
csv_row_whole(sink *s, const double *v)
{
	/* locals, not s->: every store through line may alias s for the
	 * compiler, which then reloads each field per cell */
	char *line = s->line;
	size_t n = s->pending;
	int nc = s->ncols, nf = 0;
	uint32_t *off = s->off;
	int *fresh = s->fresh;
	unsigned char *tlen = s->tlen;
	uint64_t *last = s->last;
	for (int i = 0; i < nc; i++) {
		uint64_t bits;
		memcpy(&bits, &v[i], 8);
		size_t len;
		if (bits != last[i]) {
			if (isnan(v[i]))
				len = 0, s->fill[i] = NULL;
			else
				len = (size_t)format_memo(s, line + n, v[i], &s->fill[i]);
			tlen[i] = (unsigned char)len;
			last[i] = bits;
			off[nf] = (uint32_t)n;
			fresh[nf++] = i;
		} else {
			/* all 32 bytes: a fixed copy is two moves, a variable one a call */
			memcpy(line + n, s->text[i], sizeof(s->text[i]));
			len = tlen[i];
		}
		n += len;
		line[n++] = ',';
	}
	for (int k = 0; k < nf; k++) {
		int i = fresh[k];
		const char *t = line + off[k];
		memcpy(s->text[i], t, sizeof(s->text[i]));
		if (s->fill[i])
			memo_fill(s->fill[i], v[i], t, tlen[i]);
	}
	s->pending = n;
}

/* A CSV row too wide for what is left of line: cell by cell, each
 * followed by a comma, line going out whenever it fills. */
static int
csv_row_pieces(sink *s, const double *v)
{
	size_t n = s->pending;
	for (int i = 0; i < s->ncols; i++) {
		if (n + 40 > sizeof(s->line)) {
			if (emit(s, s->line, n) != 0)
				return -1;
			n = 0;
		}
		uint64_t bits;
		memcpy(&bits, &v[i], 8);
		if (bits != s->last[i]) {
			s->tlen[i] = (unsigned char)(isnan(v[i]) ? 0 : num_format(s->text[i], v[i]));
			s->last[i] = bits;
		}
		memcpy(s->line + n, s->text[i], sizeof(s->text[i]));
		n += s->tlen[i];
		s->line[n++] = ',';
	}
	s->pending = n;
	return 0;
}

int
sink_row(sink *s, const double *v)
{
	if (s->failed)
		return -1;
	if (s->fmt == TBL_HDF5) {
		if (h5out_row(s->h5, v, s->err, sizeof(s->err)) != 0)
			return name_h5_error(s), s->failed = 1, -1;
		return 0;
	}
	if (s->fmt == TBL_BINARY)
		return binary_rows(s, v, 1, s->ncols);
	/* whole lines gather in s->line; a line longer than it goes out in
	 * pieces */
	if (s->pending + 40 * (size_t)s->ncols + 64 <= sizeof(s->line))
		csv_row_whole(s, v);
	else if (csv_row_pieces(s, v) != 0)
		return -1;
	if (s->ncols)
		s->pending--; /* the last cell's comma */
	s->line[s->pending++] = '\n';
	s->rows++;
	if (s->pending + 40 * (size_t)s->ncols + 64 > sizeof(s->line))
		return flush_pending(s);
	return 0;
}

unsigned char *
sink_rows_room(sink *s, int k)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (s->fmt != TBL_BINARY || s->failed || s->room || k < 1)
		return NULL;
	/* the rows are encoded against the row before when committed: they
	 * gather here first */
	if (k > s->stagen) {
		double *st = realloc(s->stage, (size_t)k * (size_t)s->ncols * sizeof(double));
		if (!st)
			return NULL;
		s->stage = st;
		s->stagen = k;
	}
	return s->room = (unsigned char *)s->stage;
#else
	(void)s, (void)k;
	return NULL;
#endif
}

void
sink_rows_commit(sink *s, int k, int same)
{
	s->room = NULL;
	if (!(same > 0 && same <= s->ncols))
		same = s->ncols;
	(void)binary_rows(s, s->stage, k, same); /* a failure is s->failed's, for the next call */
}

int
sink_rows(sink *s, const double *v, int k)
{
	if (s->fmt == TBL_BINARY)
		return s->failed ? -1 : binary_rows(s, v, k, s->ncols);
	for (int i = 0; i < k; i++)
		if (sink_row(s, v + (size_t)i * (size_t)s->ncols) != 0)
			return -1;
	return 0;
}

void
sink_note(sink *s, const char *key, const char *value)
{
	if (s->nnotes == TBL_NOTES) {
		memmove(s->notes[0], s->notes[1], sizeof(s->notes) - sizeof(s->notes[0]));
		s->nnotes--;
	}
	snprintf(s->notes[s->nnotes++], sizeof(s->notes[0]), "%.40s %.110s", key, value);
}

void
sink_by_reference(sink *s)
{
	if (s->fmt == TBL_BINARY && s->f == stdout)
		s->by_reference = 1;
}

const char *
sink_error(const sink *s)
{
	return s->err;
}

static int
is_pipe(FILE *f)
{
	struct stat st;
	return fstat(fileno(f), &st) == 0 && S_ISFIFO(st.st_mode);
}

/* The carried warnings (table.h), one note each, and how many more there
 * were: a stream ends with every warning its writer read or gave. */
static int
write_warnings(sink *s)
{
	char line[TBL_WARNING_MAX + 64];
	for (int i = 0; i < tbl_ncarried(); i++) {
		int n = snprintf(line, sizeof(line), "%s %s %s\n", TBL_NOTE_MARK, TBL_WARNING_KEY, tbl_carried(i));
		if (emit(s, line, (size_t)n) != 0)
			return -1;
	}
	if (tbl_carried_dropped() > 0) {
		int n = snprintf(line, sizeof(line), "%s %s tagk: %ld more warnings upstream, not carried (the first "
		    "%d are)\n", TBL_NOTE_MARK, TBL_WARNING_KEY, tbl_carried_dropped(), TBL_WARNINGS);
		if (emit(s, line, (size_t)n) != 0)
			return -1;
	}
	return 0;
}

int
sink_close(sink *s, int ok, const char *why, char *err, size_t errlen)
{
	int rc = 0, want = ok;
	if (ok && s->failed)
		ok = 0, rc = -1;
	int text = s->fmt != TBL_HDF5 && s->ncols > 0;  /* a CSV or binary stream */
	if (ok && text && flush_pending(s) != 0)
		ok = 0, rc = -1;
	if (ok && text && s->fmt == TBL_BINARY && emit(s, (const char *)BINARY_TRAILER,
	    sizeof(BINARY_TRAILER)) != 0)
		ok = 0, rc = -1;
	s->bhash = 0; /* the notes and the end marker are not hashed */
	for (int i = 0; ok && text && i < s->nnotes; i++) {
		char line[200];
		int n = snprintf(line, sizeof(line), "%s %s\n", TBL_NOTE_MARK, s->notes[i]);
		if (emit(s, line, (size_t)n) != 0)
			ok = 0, rc = -1;
	}
	if (ok && text && write_warnings(s) != 0)
		ok = 0, rc = -1;
	if (ok && text) {
		char end[96];
		int n = snprintf(end, sizeof(end), "%s %lld %s; check %016llx\n", TBL_END_MARK, s->rows,
		    s->rows == 1 ? "row" : "rows", (unsigned long long)bsum_value(s->bsum));
		if (emit(s, end, (size_t)n) != 0)
			ok = 0, rc = -1;
	}
	if (s->to_stdout) {
		if (ok) {
			if (s->held && fwrite(s->hold, 1, s->held, s->f) != s->held)
				rc = -1, snprintf(s->err, sizeof(s->err), "%s: write error: %s", s->name, strerror(errno));
			if (fflush(s->f) != 0 || ferror(s->f))
				rc = -1, snprintf(s->err, sizeof(s->err), "%s: write error: %s", s->name, strerror(errno));
		} else if (!s->flushed && is_pipe(s->f)) {
			/* nothing went out yet: the reader of a pipe gets the reason
			 * alone, which a tagk reader reports as the upstream's failure
			 * instead of an empty input */
			fprintf(s->f, "%s %s\n", TBL_ERROR_MARK, why ? why : "failed");
			fflush(s->f);
		} else if (s->flushed) {
			/* whole rows still held go out first: the marker starts a line
			 * (CSV) or follows a whole record (binary) */
			if (!s->failed && s->po)
				(void)pipeout_send(s->po);
			else if (!s->failed && s->pending)
				(void)fwrite(s->line, 1, s->pending, s->f);
			if (s->fmt == TBL_BINARY)
				(void)fwrite(BINARY_TRAILER, 1, sizeof(BINARY_TRAILER), s->f);
			fprintf(s->f, "%s %s\n", TBL_ERROR_MARK, why ? why : "failed");
			fflush(s->f);
		}
		/* held output of a failed run is dropped: the stream stays empty */
		if (s->f != stdout && fclose(s->f) != 0 && ok && rc == 0)
			rc = -1, snprintf(s->err, sizeof(s->err), "%s: write error: %s", s->name, strerror(errno));
	} else if (s->fmt == TBL_HDF5) {
		char notes[TBL_NOTES * 162] = "";
		for (int i = 0, n = 0; i < s->nnotes; i++)
			n += snprintf(notes + n, sizeof(notes) - (size_t)n, "%s\n", s->notes[i]);
		if (h5out_close(s->h5, ok, notes, s->err, sizeof(s->err)) != 0 && ok)
			rc = -1, name_h5_error(s);
	} else {
		if (fflush(s->f) != 0 || ferror(s->f))
			rc = -1, snprintf(s->err, sizeof(s->err), "%s: write error: %s", s->name, strerror(errno));
		if (fclose(s->f) != 0 && rc == 0)
			rc = -1, snprintf(s->err, sizeof(s->err), "%s: write error: %s", s->name, strerror(errno));
	}
	if (s->is_file) {
		if (ok && rc == 0)
			rc = outfile_commit(&s->of, s->err, sizeof(s->err));
		else
			outfile_abandon(&s->of);
	}
	if (rc != 0 && err)
		snprintf(err, errlen, "%s", s->err);
	free_sink(s);
	return want ? rc : 0;
}
