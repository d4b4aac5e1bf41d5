/*
 * binary_in.c: the backend of table.c for tagk's binary stream (binary.h,
 * tagk-formats(5)). Records are read in blocks; the header, the trailer
 * and every count in them are checked, and the check value of the names
 * and records (streamsum.h) against the end marker's, so that a stream cut
 * anywhere, altered, or spliced from two streams, is an error. Version 4's
 * and 3's (bsum) is taken over the buffer in blocks, each run of records
 * when it leaves the buffer; version 2's (ssum) record by record.
 * Version 4's records (binary.h) are decoded straight into the caller's
 * row by binary_decoder's decoder (the row before's words kept in cur);
 * versions 2 and 3 only when the caller asks (tbl_options.old_stream).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "binary.h"
#include "streamsum.h"
#include "gz.h"
#include "table_impl.h"
#include "table_readers.h"

enum { BLOCK = 1 << 16, TRAILER_LINE = 1024 };

typedef struct {
	FILE *f;
	unsigned char *buf;
	size_t cap, len, off;  /* unread bytes are buf[off..len) */
	int eof, ioerr;
	size_t rec;            /* bytes per record (version 4: at most) */
	uint64_t *cur;         /* version 4: the words of the row last decoded */
	binary_decode_fn *decode; /* version 4: binary_decoder's */
	int nw;                /* version 4: mask words a record */
	long long records;     /* data records read, skipped ones included */
	int ended;
	int wanted;            /* every column wanted: 1, 0, or -1 not yet known */
	int version;           /* 2, 3 or 4 */
	ssum sum;              /* version 2: of the names and every record read */
	bsum *bsum;            /* versions 3, 4: of the bytes from the names line on */
	int bhash;             /* versions 3, 4, in the records: buf[hfrom..off) is */
	size_t hfrom;          /* read and not yet hashed */
	char line[TBL_MAX_LINE + 2];
} binin;

/* Make at least need bytes available (need <= cap); returns how many are. */
static size_t
avail(binin *b, size_t need)
{
	if (b->len - b->off >= need || b->eof)
		return b->len - b->off;
	if (b->bhash) {
		bsum_bytes(b->bsum, b->buf + b->hfrom, b->off - b->hfrom);
		b->hfrom = 0; /* where the unread bytes move to */
	}
	memmove(b->buf, b->buf + b->off, b->len - b->off);
	b->len -= b->off;
	b->off = 0;
	while (b->len < need && !b->eof) {
		size_t n = fread(b->buf + b->len, 1, b->cap - b->len, b->f);
		b->len += n;
		if (n == 0) {
			b->eof = 1;
			b->ioerr = ferror(b->f);
		}
	}
	return b->len - b->off;
}

/* The next line, without its "\n", into b->line; its length, or -1 when
 * the input ends first or the line is longer than max. */
static long
read_line(binin *b, size_t max)
{
	size_t n = 0;
	for (;;) {
		if (avail(b, 1) == 0)
			return -1;
		unsigned char ch = b->buf[b->off++];
		if (ch == '\n')
			break;
		if (n == max)
			return -1;
		b->line[n++] = (char)ch;
	}
	b->line[n] = 0;
	return (long)n;
}

static int
read_error(tbl_reader *r)
{
	return tbl_fail(r, "%s: read error: %s", r->name, gz_strerror(errno));
}

/* After BINARY_TRAILER: notes, then the end marker or an error marker. */
static int
read_trailer(tbl_reader *r)
{
	binin *b = r->impl;
	for (;;) {
		long n = read_line(b, TRAILER_LINE);
		if (n < 0) {
			if (b->ioerr)
				return read_error(r);
			return tbl_fail(r, "%s: the stream was cut in its trailer, after %lld rows: the "
			    "command that wrote it stopped early", r->name, b->records);
		}
		const char *p = b->line;
		if (strncmp(p, TBL_ERROR_MARK, strlen(TBL_ERROR_MARK)) == 0) {
			p += strlen(TBL_ERROR_MARK);
			return tbl_fail(r, "%s:row %lld: the command upstream failed: %s", r->name,
			    b->records + 1, p + (*p == ' '));
		}
		if (strncmp(p, TBL_NOTE_MARK, strlen(TBL_NOTE_MARK)) == 0) {
			tbl_add_note(r, p + strlen(TBL_NOTE_MARK));
			continue;
		}
		if (strncmp(p, TBL_END_MARK, strlen(TBL_END_MARK)) != 0)
			return tbl_fail(r, "%s: a malformed trailer line after row %lld: '%.40s'", r->name,
			    b->records, b->line);
		p += strlen(TBL_END_MARK);
		long long count;
		uint64_t check;
		if (tbl_parse_end(p, &count, &check) != 0)
			return tbl_fail(r, "%s: a malformed end marker: '%.60s'", r->name, b->line);
		uint64_t sum = b->version == 2 ? ssum_value(&b->sum) : bsum_value(b->bsum);
		if (tbl_check_end(r, r->name, count, check, b->records, sum) != 0)
			return -1;
		if (avail(b, 1) != 0)
			return tbl_fail(r, "%s: data after the stream's end marker (two streams joined "
			    "with cat?)", r->name);
		if (b->ioerr)
			return read_error(r);
		b->ended = 1;
		return 0;
	}
}

/* The trailer, when the buffer's next bytes are it (have of them): 1
 * when it was read (or failed: r's error set), 0 when they are not. */
static int
at_trailer(tbl_reader *r, size_t have, int *rc)
{
	binin *b = r->impl;
	if (have < sizeof(BINARY_TRAILER) || memcmp(b->buf + b->off, BINARY_TRAILER, sizeof(BINARY_TRAILER)) != 0)
		return 0;
	if (b->bhash)
		bsum_bytes(b->bsum, b->buf + b->hfrom, b->off - b->hfrom);
	b->bhash = 0;
	b->off += sizeof(BINARY_TRAILER);
	*rc = read_trailer(r);
	return 1;
}

/* The error for a stream that ends, having have bytes, where a record of
 * need bytes was to be. */
static int
cut_short(tbl_reader *r, size_t have)
{
	binin *b = r->impl;
	if (b->ioerr)
		return read_error(r);
	if (have == 0)
		return tbl_fail(r, "%s: the stream was cut after %lld rows: it ends without its end marker "
		    "(%s), so the command that wrote it stopped early", r->name, b->records, TBL_END_MARK);
	return tbl_fail(r, "%s: the stream was cut in the middle of row %lld", r->name, b->records + 1);
}

/* A version 4 record's masks checked before it is decoded: 0, or -1
 * with r's error set for a mask with codes past the last column, or one
 * that refers to a row before the first. */
static int
check4(tbl_reader *r, const unsigned char *p)
{
	binin *b = r->impl;
	for (int w = b->records == 1 ? 0 : b->nw - 1; w < b->nw; w++) {
		uint64_t m = binary_get_word(p + 8 * (size_t)w);
		int hi = r->ncols - 32 * w < 32 ? r->ncols - 32 * w : 32;
		if (hi < 32 && m >> (2 * hi))
			return tbl_fail(r, "%s:row %lld: a malformed record: its mask has codes past column %d",
			    r->name, b->records, r->ncols);
		if (b->records == 1) {
			for (int j = 0; j < hi; j++)
				if (((m >> (2 * j)) & 1) == ((m >> (2 * j + 1)) & 1)) /* SAME or NEXT */
					return tbl_fail(r, "%s:row 1: a malformed record: column '%s' refers to the "
					    "row before, and there is none", r->name, r->cols[32 * w + j]);
		}
	}
	return 0;
}

/* The next record, version 4, decoded into row (and b->cur), *nonfinite
 * set as binary_decode's: 1; 0 at the trailer or on an error (*rc set). */
static int
record4(tbl_reader *r, double *row, int *nonfinite, int *rc)
{
	binin *b = r->impl;
	size_t mask = 8 * (size_t)b->nw, have = b->len - b->off;
	if (have < b->rec) {
		/* near the buffer's end: the record's length from its masks */
		if (have < mask)
			have = avail(b, mask);
		if (at_trailer(r, have, rc))
			return 0;
		if (have < mask) {
			*rc = cut_short(r, have);
			return 0;
		}
		size_t need = mask;
		for (int w = 0; w < b->nw; w++)
			need += 8 * (size_t)binary_mask_values(binary_get_word(b->buf + b->off + 8 * (size_t)w));
		if (have < need && (have = avail(b, need)) < need) {
			*rc = cut_short(r, have);
			return 0;
		}
	} else if (binary_get_word(b->buf + b->off) == ~UINT64_C(0) && at_trailer(r, have, rc))
		return 0; /* a first word of all ones is the trailer's */
	const unsigned char *p = b->buf + b->off;
	b->records++;
	if (check4(r, p) != 0) {
		*rc = -1;
		return 0;
	}
	b->off += b->decode(b->cur, row, p, r->ncols, nonfinite);
	return 1;
}

/* The next record, versions 2 and 3: its bytes; NULL at the trailer or
 * on an error (*rc set). */
static const unsigned char *
record3(tbl_reader *r, int *rc)
{
	binin *b = r->impl;
	/* the common case, a whole record buffered, without the call */
	size_t have = b->len - b->off >= b->rec ? b->len - b->off : avail(b, b->rec);
	if (at_trailer(r, have, rc))
		return NULL;
	if (have < b->rec) {
		*rc = cut_short(r, have);
		return NULL;
	}
	const unsigned char *p = b->buf + b->off;
	b->off += b->rec;
	b->records++;
	if (b->version == 2)
		ssum_record(&b->sum, p, r->ncols);
	return p;
}

/* Row's wanted cells that are bad (not finite; NaN allowed where
 * nullable), its unwanted ones blanked: whether one is bad. From p, a
 * version 2 or 3 record, or (p NULL) row as version 4 decoded it.
 * Branch-free, so that it vectorises. */
static int
screen(tbl_reader *r, double *row, const unsigned char *p)
{
	binin *b = r->impl;
	int any = 0;
	if (b->wanted) {
		for (int i = 0; i < r->ncols; i++) {
			row[i] = p ? binary_get(p + 8 * (size_t)i) : row[i];
			any |= !(fabs(row[i]) <= DBL_MAX);
		}
	} else {
		for (int i = 0; i < r->ncols; i++) {
			double v = p ? binary_get(p + 8 * (size_t)i) : row[i];
			int w = r->want[i] != 0;
			/* a nullable column may hold NaN (an empty cell), not Inf */
			any |= r->want[i] == 1 ? !(fabs(v) <= DBL_MAX) : w & (fabs(v) > DBL_MAX);
			row[i] = w ? v : (double)NAN;
		}
	}
	return any;
}

static int
bin_next(tbl_reader *r, double *row)
{
	binin *b = r->impl;
	if (b->ended)
		return 0;
	/* the callers want their columns before the first row, so the
	 * mask is fixed */
	if (b->wanted < 0) {
		b->wanted = 1;
		for (int i = 0; i < r->ncols; i++)
			b->wanted &= r->want[i] == 1;
	}
	for (;;) {
		int rc = 0, any;
		if (b->version == 4) {
			/* decoded straight into row: a row whose values are all
			 * finite, every column wanted, is done */
			if (!record4(r, row, &any, &rc))
				return rc;
			if (any || !b->wanted)
				any = screen(r, row, NULL);
		} else {
			const unsigned char *p = record3(r, &rc);
			if (!p)
				return rc;
			any = screen(r, row, p);
		}
		if (!any)
			return 1;
		int bad = 0;
		while (!r->want[bad] || isfinite(row[bad]) || (r->want[bad] == 2 && isnan(row[bad])))
			bad++;
		if (r->opt.skip_bad) {
			r->skipped++;
			continue;
		}
		return tbl_fail(r, "%s:row %lld: column '%s': %s (--skip-bad skips such rows)", r->name,
		    b->records, r->cols[bad], isnan(row[bad]) ? "empty cell" : "Inf");
	}
}

static void
bin_where(tbl_reader *r, char *buf, size_t len)
{
	binin *b = r->impl;
	snprintf(buf, len, "%s:row %lld", r->name, b->records);
}

static void
bin_close(tbl_reader *r)
{
	binin *b = r->impl;
	if (!b)
		return;
	if (b->f && b->f != stdin)
		fclose(b->f);
	free(b->buf);
	free(b->cur);
	XXH3_freeState(b->bsum);
	free(b);
	r->impl = NULL;
}

/* "NAME,NAME,..." of the header: exactly ncols fields, each bare or in
 * double quotes with its quotes doubled (as the sink writes a name with a
 * comma or a quote). Quoted names are decoded in place. */
static int
names(tbl_reader *r, char *line, long ncols)
{
	char *p = line;
	for (;;) {
		size_t l;
		char *name = p;
		if (*p == '"') {
			char *w = name;
			for (p++;; p++) {
				if (!*p)
					return tbl_fail(r, "%s: a malformed header: a quoted name without its closing "
					    "quote", r->name);
				if (*p == '"' && p[1] != '"')
					break;
				*w++ = *p;
				p += *p == '"';
			}
			p++;
			if (*p && *p != ',')
				return tbl_fail(r, "%s: a malformed header: text after a quoted name", r->name);
			l = (size_t)(w - name);
		} else {
			l = strcspn(p, ",");
			p += l;
		}
		if (tbl_add_col(r, name, l) != 0)
			return tbl_fail(r, "out of memory");
		if (!*p)
			break;
		p++;
	}
	if (r->ncols != ncols)
		return tbl_fail(r, "%s: the header declares %ld columns but names %d", r->name, ncols,
		    r->ncols);
	return tbl_finish_header(r, r->name);
}

int
tbl_binary_open(tbl_reader *r, FILE *f)
{
	binin *b = calloc(1, sizeof(*b));
	if (!b || !(b->buf = malloc(BLOCK))) {
		free(b);
		return tbl_fail(r, "out of memory");
	}
	r->impl = b;
	r->next = bin_next;
	r->where_fn = bin_where;
	r->close = bin_close;
	b->f = f;
	b->cap = BLOCK;
	b->wanted = -1;
	long n = read_line(b, BINARY_MAGIC_MAX);
	const char *magic = BINARY_MAGIC;
	if (n < 0 || strncmp(b->line, magic, strlen(magic)) != 0)
		return b->ioerr ? read_error(r)
		    : tbl_fail(r, "%s: not a tagk binary stream: a malformed first line", r->name);
	char *p = b->line + strlen(magic), *end;
	errno = 0;
	long version = *p == ' ' ? strtol(p + 1, &end, 10) : -1;
	if ((version == 2 || version == 3) && !r->opt.old_stream)
		return tbl_fail(r, "%s: a tagk binary stream of version %ld, which this tagk reads only to "
		    "convert it: tagk-filter --old-stream %s --stream binary -o NEW (or > NEW.csv)", r->name,
		    version, strcmp(r->name, "stdin") == 0 ? "-" : r->name);
	if (version != BINARY_VERSION && version != 2 && version != 3)
		return tbl_fail(r, "%s: a tagk binary stream of version %.*s: this tagk reads version %d%s",
		    r->name, *p == ' ' ? (int)strcspn(p + 1, " ") % 12 : 1, *p == ' ' ? p + 1 : "?",
		    BINARY_VERSION, version == 1 ? " (version 1 has no check value: write it again with this "
		    "tagk)" : "");
	b->version = (int)version;
	p = end;
	long ncols = -1;
	if (strncmp(p, " f64le ", 7) == 0 && p[7] >= '0' && p[7] <= '9')
		ncols = strtol(p + 7, &end, 10);
	while (ncols >= 0 && *end == ' ')
		end++;
	if (ncols < 1 || ncols > TBL_MAX_LINE / 2 || errno || *end)
		return tbl_fail(r, "%s: a malformed tagk binary stream header: '%.40s'", r->name, b->line + 1);
	long nlen = read_line(b, TBL_MAX_LINE);
	if (nlen < 0)
		return b->ioerr ? read_error(r) : tbl_fail(r, "%s: the stream was cut in its header (or its "
		    "names are longer than %d bytes)", r->name, TBL_MAX_LINE);
	if (b->version > 2 && !(b->bsum = XXH3_createState()))
		return tbl_fail(r, "out of memory");
	if (b->version > 2) {
		/* the lines as they are, before names() decodes quotes in place */
		bsum_init(b->bsum);
		bsum_bytes(b->bsum, b->line, (size_t)nlen);
		bsum_bytes(b->bsum, "\n", 1);
	}
	if (names(r, b->line, ncols) != 0)
		return -1;
	ssum_init(&b->sum);
	for (int i = 0; b->version == 2 && i < r->ncols; i++)
		ssum_text(&b->sum, i, r->cols[i], strlen(r->cols[i]));
	long ulen = read_line(b, TBL_MAX_LINE);
	if (ulen < 0)
		return b->ioerr ? read_error(r) : tbl_fail(r, "%s: the stream was cut in its header (or its "
		    "units are longer than %d bytes)", r->name, TBL_MAX_LINE);
	if (b->version > 2) {
		bsum_bytes(b->bsum, b->line, (size_t)ulen);
		bsum_bytes(b->bsum, "\n", 1);
	}
	long commas = 0;
	for (long i = 0; i < ulen; i++)
		commas += b->line[i] == ',';
	if (commas != ncols - 1)
		return tbl_fail(r, "%s: the header names %ld columns but %ld units", r->name, ncols, commas + 1);
	b->rec = b->version == 4 ? binary_record_max((int)ncols) : 8 * (size_t)ncols;
	if (b->version == 4) {
		b->nw = binary_mask_words((int)ncols);
		b->decode = binary_decoder();
		if (!(b->cur = calloc((size_t)ncols, sizeof(*b->cur))))
			return tbl_fail(r, "out of memory");
	}
	if (b->rec + sizeof(BINARY_TRAILER) > b->cap) {
		unsigned char *nb = realloc(b->buf, 2 * b->rec);
		if (!nb)
			return tbl_fail(r, "out of memory");
		b->buf = nb;
		b->cap = 2 * b->rec;
	}
	b->bhash = b->version > 2;
	b->hfrom = b->off;
	return 0;
}
