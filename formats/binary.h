/*
 * binary.h: the wire format of tagk's binary stream, shared by its writer
 * (sink.c) and its reader (binary_in.c); documented in tagk-formats(5).
 *
 *   "\x93TAGK 4 f64le NCOLS" and spaces, "\n"   the magic line, padded so
 *                                                that the records start at a
 *                                                multiple of 8 bytes
 *   NAME,NAME,...\n                             the column names (quoted as in CSV when
 *                                                one holds a comma or a quote)
 *   UNIT,UNIT,...\n                             their units ("" if not fixed)
 *   records, one a row: a mask of W = ceil(NCOLS / 32) little-endian 64-bit
 *            words, two bits a column (column i: bits 2(i mod 32) and up of
 *            word i / 32, unused bits zero), then the values its codes
 *            carry, in column order, each an IEEE-754 binary64, little-endian:
 *              0 SAME   the column's value in the row before, bit for bit
 *              1 VALUE  the next 8 bytes (an empty cell: the quiet NaN
 *                       0x7ff8000000000000, the only NaN written)
 *              2 ZERO   +0.0
 *              3 NEXT   the value in the row before plus 1.0 (a counter)
 *            The first row has no row before: SAME and NEXT are refused
 *            there. A first word of all ones (32 NEXT) is never written: it
 *            is the trailer's. Everything stays a multiple of 8 bytes.
 *   BINARY_TRAILER (eight 0xff bytes), then
 *   text lines: "#tagk-note: KEY VALUE"..., then "#tagk-end: N rows, check
 *   HEX" on success (HEX: streamsum.h's bsum, XXH3-64 of every byte from
 *   the names line to the trailer) or "#tagk-error: WHY" on failure, and
 *   nothing after.
 *
 * Why version 4: a sample of tagk-regress's rigid-body stream is 6 rows of
 * 23 columns, where t and the 10 true_* columns repeat, the row index
 * counts 0..5 and a third of the regressor's entries are structural zeros:
 * 1104 bytes in version 3's full records, 416 here. Versions 2 and 3 (full
 * records of NCOLS values; 2 with streamsum.h's ssum) are read only where a
 * command asks for them (tbl_options.old_stream: tagk-filter --old-stream,
 * which converts them).
 *
 * 0x93 cannot begin UTF-8 text, so no CSV file is taken for a stream.
 */
#ifndef TAGK_BINARY_H
#define TAGK_BINARY_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define BINARY_MAGIC "\x93TAGK"
#define BINARY_VERSION 4
/* a version 4 record's codes (above) */
enum { BINARY_SAME = 0, BINARY_VALUE = 1, BINARY_ZERO = 2, BINARY_NEXT = 3 };
/* the previous value of a column before the first row: a NaN that
 * binary_word never gives, so that no value is SAME or NEXT to it */
#define BINARY_NONE UINT64_C(0x7ff0000000000001)
/* Longest magic line, padding and "\n" included. */
enum { BINARY_MAGIC_MAX = 64 };

static const unsigned char BINARY_TRAILER[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* The bits of x as the stream carries them: every NaN as the one quiet
 * NaN (branch-free, so that loops over it vectorise). */
static inline uint64_t
binary_word(double x)
{
	uint64_t u;
	memcpy(&u, &x, 8);
	return (u & UINT64_C(0x7fffffffffffffff)) > UINT64_C(0x7ff0000000000000) ? UINT64_C(0x7ff8000000000000) : u;
}

/* Copy x[0..n) to p and say whether it held a NaN: one pass, eight
 * values an iteration into two accumulators where SSE2 is (GCC leaves a
 * scalar compare loop as it is). */
static inline int
copy_any_nan(unsigned char *restrict p, const double *restrict x, int n)
{
	int i = 0, nan = 0;
#if defined(__SSE2__)
	__m128d u0 = _mm_setzero_pd(), u1 = _mm_setzero_pd();
	for (; i + 8 <= n; i += 8) {
		__m128d a = _mm_loadu_pd(x + i), b = _mm_loadu_pd(x + i + 2);
		__m128d c = _mm_loadu_pd(x + i + 4), d = _mm_loadu_pd(x + i + 6);
		_mm_storeu_pd((double *)(void *)(p + 8 * i), a);
		_mm_storeu_pd((double *)(void *)(p + 8 * i + 16), b);
		_mm_storeu_pd((double *)(void *)(p + 8 * i + 32), c);
		_mm_storeu_pd((double *)(void *)(p + 8 * i + 48), d);
		u0 = _mm_or_pd(u0, _mm_or_pd(_mm_cmpunord_pd(a, a), _mm_cmpunord_pd(b, b)));
		u1 = _mm_or_pd(u1, _mm_or_pd(_mm_cmpunord_pd(c, c), _mm_cmpunord_pd(d, d)));
	}
	nan = _mm_movemask_pd(_mm_or_pd(u0, u1));
#endif
	if (i < n)
		memcpy(p + 8 * i, x + i, 8 * (size_t)(n - i));
	for (; i < n; i++)
		nan |= x[i] != x[i];
	return nan != 0;
}

/* n doubles to 8 little-endian bytes each (binary_word), whatever the
 * host's byte order. p and x must not overlap. On a little-endian host a
 * copy that looks for a NaN as it goes (a vectorised compare; rows rarely
 * hold one), and only a row with one is rewritten: a branch per value
 * through binary_word was a tenth of tagk-regress -> binary, and a block
 * copy followed by a NaN pass over the same values, one compare chained
 * to the next, an eighth of tagk-regress from a binary log. */
static inline void
binary_put(unsigned char *restrict p, const double *restrict x, int n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (!copy_any_nan(p, x, n))
		return;
	for (int i = 0; i < n; i++) {
		uint64_t u = binary_word(x[i]);
		memcpy(p + 8 * i, &u, 8);
	}
#else
	for (int i = 0; i < n; i++) {
		uint64_t u = binary_word(x[i]);
		for (int k = 0; k < 8; k++)
			p[8 * i + k] = (unsigned char)(u >> (8 * k));
	}
#endif
}

/* The mask words of a version 4 record of ncols columns. */
static inline int
binary_mask_words(int ncols)
{
	return (ncols + 31) / 32;
}

/* The bytes of a version 4 record of ncols columns at most. */
static inline size_t
binary_record_max(int ncols)
{
	return 8 * ((size_t)binary_mask_words(ncols) + (size_t)ncols);
}

/* How many values the mask word m carries: its codes VALUE (01), counted
 * in the word (each 2-bit field holds 0 or 1): without -mpopcnt
 * __builtin_popcountll is a call into libgcc, a tenth of the decoder. */
static inline int
binary_mask_values(uint64_t m)
{
	uint64_t c = m & ~(m >> 1) & UINT64_C(0x5555555555555555);
	c = (c & UINT64_C(0x3333333333333333)) + (c >> 2 & UINT64_C(0x3333333333333333));
	c = (c + (c >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (int)((c * UINT64_C(0x0101010101010101)) >> 56);
}

static inline void
binary_put_word(unsigned char *p, uint64_t u)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &u, 8);
#else
	for (int k = 0; k < 8; k++)
		p[k] = (unsigned char)(u >> (8 * k));
#endif
}

static inline uint64_t
binary_get_word(const unsigned char *p)
{
	uint64_t u;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&u, p, 8);
#else
	u = 0;
	for (int i = 0; i < 8; i++)
		u |= (uint64_t)p[i] << (8 * i);
#endif
	return u;
}

static inline double
binary_get(const unsigned char *p)
{
	uint64_t u = binary_get_word(p);
	double x;
	memcpy(&x, &u, 8);
	return x;
}

/* The word that NEXT makes of prev (a value's bits): prev + 1.0, or a
 * word no value has (BINARY_NONE's) when prev is not finite. */
static inline uint64_t
binary_next(uint64_t prev)
{
	if ((prev & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000))
		return BINARY_NONE;
	double x;
	memcpy(&x, &prev, 8);
	x += 1.0;
	memcpy(&prev, &x, 8);
	return prev;
}

/* Row x of n values as a version 4 record at p (binary_record_max(n)
 * bytes of room), against prev, the words of the row before (n of them,
 * BINARY_NONE before the first row), which become this row's. Returns the
 * record's bytes. Branches, not selects: a column's code repeats from
 * sample to sample (t, the row, a structural zero, the truth), which the
 * predictor learns, and the common SAME then costs a compare. A branch-free
 * version computed every case for every column and took twice as long, one
 * that found the changed columns two at a time (SSE2) and then visited
 * them alone a quarter longer. A value is stored before its code is
 * known; only VALUE moves on. The reference encoder, and the one where
 * binary_encoder has no vector version: on x86-64 that writer is 2-2.5x
 * faster with whole masks of compares (binary_enc.c). */
static inline size_t
binary_encode(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n)
{
	int nw = binary_mask_words(n);
	unsigned char *v = p + 8 * (size_t)nw;
	for (int w = 0; w < nw; w++) {
		uint64_t m = 0;
		int lo = 32 * w, hi = n - lo < 32 ? n : lo + 32;
		for (int i = lo; i < hi; i++) {
			uint64_t u = binary_word(x[i]), old = prev[i], c = BINARY_SAME;
			prev[i] = u;
			if (u != old) {
				binary_put_word(v, u);
				c = BINARY_ZERO;
				if (u != 0) {
					c = BINARY_NEXT;
					if (u != binary_next(old)) {
						c = BINARY_VALUE;
						v += 8;
					}
				}
			}
			m |= c << (2 * (i - lo));
		}
		if (w == 0 && m == ~UINT64_C(0)) {
			/* 32 counters: the trailer's bytes. No value went before
			 * (every code is NEXT), so column 0's goes first */
			m = ~UINT64_C(0) << 2 | BINARY_VALUE;
			binary_put_word(v, prev[0]);
			v += 8;
		}
		binary_put_word(p + 8 * (size_t)w, m);
	}
	return (size_t)(v - p);
}

/* k rows of n values, one after the other in x, as binary_encode makes
 * them one at a time: their records' bytes at p (k binary_record_max(n)
 * of room), prev as binary_encode's. binary_encoder (binary_enc.c) gives
 * the fastest this CPU runs: vector compares of 4 (AVX2) or 8 (AVX-512)
 * columns on x86-64 where the CPU has them, binary_encode elsewhere.
 * same (0 < same <= n; n: no promise) is the caller's promise that rows 1
 * to k - 1 hold row 0's bits in columns same to n - 1 (tagk-regress's
 * time-invariant truth down a sample's rows): an encoder may then skip
 * comparing those (they are SAME), and writes the bytes it would without
 * the promise. */
typedef size_t binary_encode_fn(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n, int k,
    int same);
binary_encode_fn *binary_encoder(void);
#if defined(__x86_64__) && defined(__GNUC__)
binary_encode_fn binary_encode_avx2, binary_encode_avx512; /* each where the CPU has it */
#endif

/* A version 4 record at p (its mask words and every value they carry;
 * no code past column n) decoded against cur, the words of the row
 * before (n of them), which become this row's: its values in row, and
 * *nonfinite 1 when one is not finite (an empty cell, or a bad record's),
 * else 0. Returns the record's bytes. NEXT from a word that is not finite
 * gives BINARY_NONE (binary_next), so that the row is refused there as
 * its encoder never writes it. The columns whose code is not SAME are
 * visited alone (binary_encode's reason); the reference decoder, and the
 * one where binary_decoder has no vector version. */
static inline size_t
binary_decode(uint64_t *restrict cur, double *restrict row, const unsigned char *restrict p, int n, int *nonfinite)
{
	int nw = binary_mask_words(n);
	const unsigned char *v = p + 8 * (size_t)nw;
	for (int w = 0; w < nw; w++) {
		uint64_t m = binary_get_word(p + 8 * (size_t)w), *c = cur + 32 * (size_t)w;
		for (uint64_t k = (m | m >> 1) & UINT64_C(0x5555555555555555); k; k &= k - 1) {
			int j = __builtin_ctzll(k);
			uint64_t code = (m >> j) & 3, *cj = c + j / 2;
			if (code == BINARY_VALUE) {
				*cj = binary_get_word(v);
				v += 8;
			} else
				*cj = code == BINARY_ZERO ? 0 : binary_next(*cj);
		}
	}
	int bad = 0;
	for (int i = 0; i < n; i++) {
		memcpy(row + i, cur + i, 8);
		bad |= (cur[i] & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000);
	}
	*nonfinite = bad;
	return (size_t)(v - p);
}

/* binary_decode's kind. binary_decoder (binary_dec.c) gives the fastest
 * this CPU runs: the codes of 4 (AVX2) or 8 (AVX-512) columns at a time
 * on x86-64 where the CPU has them, binary_decode elsewhere. */
typedef size_t binary_decode_fn(uint64_t *restrict cur, double *restrict row, const unsigned char *restrict p, int n,
    int *nonfinite);
binary_decode_fn *binary_decoder(void);
#if defined(__x86_64__) && defined(__GNUC__)
binary_decode_fn binary_decode_avx2, binary_decode_avx512; /* each where the CPU has it */
#endif

/* The unit of a column of tagk's schemas, by its name ("" when the name
 * does not fix one, as for b, whose rows mix N and N m). */
const char *binary_unit(const char *name);

#endif
