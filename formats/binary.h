/*
 * binary.h: the wire format of tagk's binary stream, shared by its writer
 * (sink.c) and its reader (binary_in.c); documented in tagk-formats(5).
 *
 *   "\x93TAGK 3 f64le NCOLS" and spaces, "\n"   the magic line, padded so
 *                                                that the records start at a
 *                                                multiple of 8 bytes
 *   NAME,NAME,...\n                             the column names (quoted as in CSV when
 *                                                one holds a comma or a quote)
 *   UNIT,UNIT,...\n                             their units ("" if not fixed)
 *   records: NCOLS IEEE-754 binary64, little-endian; an empty cell is the
 *            quiet NaN 0x7ff8000000000000, the only NaN written
 *   BINARY_TRAILER (eight 0xff bytes, a NaN never written as data), then
 *   text lines: "#tagk-note: KEY VALUE"..., then "#tagk-end: N rows, check
 *   HEX" on success (HEX: streamsum.h's bsum, XXH3-64 of every byte from
 *   the names line to the trailer; version 2, still read, had ssum over
 *   the names and each record) or "#tagk-error: WHY" on failure, and
 *   nothing after.
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
#define BINARY_VERSION 3
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

static inline double
binary_get(const unsigned char *p)
{
	uint64_t u;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&u, p, 8);
#else
	u = 0;
	for (int i = 0; i < 8; i++)
		u |= (uint64_t)p[i] << (8 * i);
#endif
	double x;
	memcpy(&x, &u, 8);
	return x;
}

/* The unit of a column of tagk's schemas, by its name ("" when the name
 * does not fix one, as for b, whose rows mix N and N m). */
const char *binary_unit(const char *name);

#endif
