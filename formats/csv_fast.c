/*
 * csv_fast.c: the CSV reader's fast path (csv_in.c hands it whole lines).
 * A whole line without a quote is split here, in place, into the same
 * fields libcsv would give (split at commas, spaces and tabs trimmed at
 * both ends, a line of blanks empty), and handed to the same callbacks
 * (csv_in.h); libcsv copies every byte into its field buffer, which was
 * most of the reading time. A line whose quotes each enclose a whole
 * field is split the same way from a copy without its quotes
 * (unquote_line). Each cell's common case, a repeated text or a number
 * num_parse_pad reads whole, is taken here (cached_cell); anything else
 * goes to csv_in.c's data_cell, which judges it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "numconv.h"
#include "streamsum.h"
#include "table_impl.h"
#include "csv_in.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static int
blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* One whole line without a quote, s[0..n) then its line end ch: split as
 * libcsv would, each field NUL-terminated in place for the callbacks. */
void
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
	/* step 2 of numconv.h's list: the C++ scanner, for the shape nearly
	 * every cell has; 0 sends the cell to data_cell and num_parse */
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
	if (col < r->ncols && r->want[col] && !c->bad && (col + 1 == r->tcol1 || !fast_cell(c, col, s + a, len))) {
		char save = s[end];
		s[end] = 0;
		data_cell(r, col, s + a, len);
		s[end] = save;
	}
}

/* The fields of a line with blanks in it, from the one that begins at
 * s[i]: each trimmed at both ends. */
static void
fields_trimmed(tbl_reader *r, csvin *c, char *s, size_t i, size_t n)
{
	for (;;) {
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

/* Bit k set where s[k] is a comma, k < 64, and in *blanks where it is a
 * space or a tab; s readable to s + 64. */
static inline uint64_t
commas64(const char *s, uint64_t *blanks)
{
	uint64_t m = 0, b = 0;
	for (int k = 0; k < 4; k++) {
		m |= (uint64_t)bytes_are(s + 16 * k, ',', ',') << 16 * k;
		b |= (uint64_t)bytes_are(s + 16 * k, ' ', '\t') << 16 * k;
	}
	*blanks = b;
	return m;
}

/* The fields of a line: commas found 64 bytes at a time and taken lowest
 * bit first, three instructions per field where the scan for each comma
 * was a loop; each wanted cell through cached_cell, else data_cell (once
 * a cell is bad, the rest are only counted). Blanks are looked for in the
 * same 64 bytes: from the block that has one, the fields go to
 * fields_trimmed (those before hold none, so trimming would not change
 * them); a pass over each line for its blanks first was 1.2 % of
 * tagk-regress's time (issue 57). s is readable to s + n + 64 (the
 * chunk's padding). */
static void
fields_plain(tbl_reader *r, csvin *c, char *s, size_t n)
{
	const cellcache cc = { r->want, r->ncols, c->cur, c->cval, c->ctext, c->clen_ };
	int col = 0, bad = c->bad;
	size_t a = 0;
	for (size_t base = 0;; base += 64) {
		uint64_t bl, m = commas64(s + base, &bl);
		int last = n - base < 64;
		if (last) { /* the line's end closes its last field */
			bl &= (UINT64_C(1) << (n - base)) - 1;
			m = (m & ((UINT64_C(1) << (n - base)) - 1)) | UINT64_C(1) << (n - base);
		}
		if (bl) {
			c->nfield = col;
			c->rec_bytes += a; /* each field before: its bytes and its comma */
			fields_trimmed(r, c, s, a, n);
			return;
		}
		for (; m; m &= m - 1, col++) {
			size_t b = base + (size_t)__builtin_ctzll(m), len = b - a;
			char *t = s + a;
			a = b + 1;
			if (col >= cc.ncols || !cc.want[col] || bad || (col + 1 != r->tcol1 && cached_cell(&cc, col, t, len)))
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
static void
fields_plain(tbl_reader *r, csvin *c, char *s, size_t n)
{
	fields_trimmed(r, c, s, 0, n);
}
#endif

/* One whole data line without a quote, s[0..n) then its line end ch,
 * once the header is read: split_line's fields and on_field's work
 * without a call per field, and each cell's common case in fast_cell.
 * Marker lines and blank lines go to split_line. */
void
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
	if (c->declared == 2)
		fields_trimmed(r, c, s, 0, n); /* version 2 hashes each cell's text */
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
int
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
