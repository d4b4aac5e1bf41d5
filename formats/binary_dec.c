/*
 * binary_dec.c: version 4 records (binary.h) decoded a vector of columns
 * at a time on x86-64 with AVX2 or AVX-512 (chosen at run time), the same
 * rows as binary.h's binary_decode, which every other host uses.
 *
 * Why: binary_decode visits each column whose code is not SAME, a branch
 * on its code each, and then copies the row out (a tenth of tagk-estimate
 * -a tagk on tagk-regress's synth stream).
 * Here a group of columns (4 with AVX2, 8 with AVX-512) takes the row
 * before's words, their NEXT (plus 1.0, BINARY_NONE where not finite), +0.0
 * and the record's values expanded to the VALUE lanes (AVX-512: an expand
 * within the register; AVX2: a permute from a 16-entry table), picks each
 * lane's by its code, and stores the row and the words at once: no branch
 * a column. The values are loaded under a mask of their count, so that no
 * byte past the record is read. Rows of at most 32 columns (one mask
 * word) unroll by their group count, so that each group's shifts and
 * lanes are constants.
 *
 * Decoder alone, ns a 23-column row (bench/codec_speed.c: 3000 rows of
 * tagk-regress's synth stream, in cache, least of 21 runs, a loaded
 * 2-core AMD EPYC; in brackets a quarter of the cells random): the
 * column-at-a-time decoder binary_in.c had 24.6 (65: its branch on each
 * code mispredicts), binary_decode 26.2 (31), AVX2 12.8 (12.8), AVX-512
 * 9.5 (9.5). AVX-512's mask-register operations bound it, as the
 * encoder's: selects by vector sign masks (vpternlog) instead took 12.
 */
#include "binary.h"

static size_t
decode_scalar(uint64_t *restrict cur, double *restrict row, const unsigned char *restrict p, int n, int *nonfinite)
{
	return binary_decode(cur, row, p, n, nonfinite);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#include "binary_avx2.h"

/* NEXT from a word that is not finite gives BINARY_NONE (binary_next).
 * The vector paths add 1.0 whatever the word, which leaves a word that
 * is not finite so and a finite one finite, and mend those columns here,
 * only for a row that has a value not finite (rare: an empty cell). */
static void
mend_next(uint64_t *restrict cur, double *restrict row, const unsigned char *restrict p, int n)
{
	for (int w = 0; w < binary_mask_words(n); w++) {
		uint64_t m = binary_get_word(p + 8 * (size_t)w), none = BINARY_NONE;
		for (uint64_t k = m & m >> 1 & UINT64_C(0x5555555555555555); k; k &= k - 1) {
			int j = 32 * w + __builtin_ctzll(k) / 2;
			if ((cur[j] & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000)) {
				cur[j] = none;
				memcpy(row + j, &none, 8);
			}
		}
	}
}

#define AVX2 __attribute__((target("avx2,popcnt"), always_inline)) static inline
#define AVX512 __attribute__((target("avx512f,avx512dq,bmi2,popcnt"), always_inline)) static inline

/* For each 4-bit set of VALUE lanes, the 32-bit lanes that take the
 * loaded words in order, one after the other, to those lanes. */
static const uint32_t expand4[16][8] = {
#define L(a) 2 * (a), 2 * (a) + 1
	{ L(0), L(0), L(0), L(0) }, { L(0), L(0), L(0), L(0) }, { L(0), L(0), L(0), L(0) },
	{ L(0), L(1), L(0), L(0) }, { L(0), L(0), L(0), L(0) }, { L(0), L(0), L(1), L(0) },
	{ L(0), L(0), L(1), L(0) }, { L(0), L(1), L(2), L(0) }, { L(0), L(0), L(0), L(0) },
	{ L(0), L(0), L(0), L(1) }, { L(0), L(0), L(0), L(1) }, { L(0), L(1), L(0), L(2) },
	{ L(0), L(0), L(0), L(1) }, { L(0), L(0), L(1), L(2) }, { L(0), L(0), L(1), L(2) },
	{ L(0), L(1), L(2), L(3) },
#undef L
};


/* For each count 0..4, its first lanes: maskload's mask. */
static const int64_t first4[5][4] = { { 0, 0, 0, 0 }, { -1, 0, 0, 0 }, { -1, -1, 0, 0 }, { -1, -1, -1, 0 },
	{ -1, -1, -1, -1 } };

/* k (1..4) columns from cur, group g of a mask word whose every lane of
 * mv holds, their values from v: the row's at cur and row, *bad the lanes
 * not finite or'd in. Returns v past the values taken. A lane's code
 * bits (low l, high h) moved to the sign bits pick: l ? (h ? NEXT :
 * VALUE) : (h ? 0 : SAME). */
AVX2 const unsigned char *
group256(uint64_t *cur, double *row, const unsigned char *v, __m256i mv, int g, int k, __m256i *bad)
{
	const __m256i expo = _mm256_set1_epi64x(0x7ff0000000000000);
	__m256i sh = _mm256_sub_epi64(_mm256_setr_epi64x(63, 61, 59, 57), _mm256_set1_epi64x(8 * g));
	__m256d l = _mm256_castsi256_pd(_mm256_sllv_epi64(mv, sh));
	__m256d h = _mm256_castsi256_pd(_mm256_sllv_epi64(mv, _mm256_sub_epi64(sh, _mm256_set1_epi64x(1))));
	unsigned val = (unsigned)_mm256_movemask_pd(_mm256_andnot_pd(h, l));
	int cnt = __builtin_popcount(val);
	__m256i vals = _mm256_maskload_epi64((const long long *)(const void *)v,
	    _mm256_loadu_si256((const __m256i *)(const void *)first4[cnt]));
	__m256d ex = _mm256_castsi256_pd(
	    _mm256_permutevar8x32_epi32(vals, _mm256_loadu_si256((const __m256i *)(const void *)expand4[val])));
	__m256i oi = k == 4 ? _mm256_loadu_si256((const __m256i *)(const void *)cur)
	    : _mm256_maskload_epi64((const long long *)(const void *)cur, lanes256(k));
	__m256d old = _mm256_castsi256_pd(oi);
	__m256d nx = _mm256_add_pd(old, _mm256_set1_pd(1.0)); /* mend_next's */
	__m256d lo = _mm256_blendv_pd(old, ex, l), hi = _mm256_blendv_pd(_mm256_setzero_pd(), nx, l);
	__m256i r = _mm256_castpd_si256(_mm256_blendv_pd(lo, hi, h));
	*bad = _mm256_or_si256(*bad, _mm256_cmpeq_epi64(_mm256_and_si256(r, expo), expo));
	if (k == 4) {
		_mm256_storeu_si256((__m256i *)(void *)cur, r);
		_mm256_storeu_si256((__m256i *)(void *)row, r);
	} else {
		store_part256(cur, r, k);
		store_part256(row, r, k);
	}
	return v + 8 * cnt;
}

/* A row of n columns; G, when not 0, its groups of 4 (n <= 32: one mask
 * word), known when compiled, so that the loop unrolls and each group's
 * shifts are constants. */
AVX2 size_t
row256(uint64_t *restrict cur, double *restrict row, const unsigned char *restrict p, int n, int *nonfinite, const int G)
{
	int nw = G ? 1 : binary_mask_words(n);
	const unsigned char *v = p + 8 * (size_t)nw;
	__m256i bad = _mm256_setzero_si256();
	for (int w = 0; w < nw; w++) {
		uint64_t m = binary_get_word(p + 8 * (size_t)w);
		int lo = 32 * w, hi = n - lo < 32 ? n : lo + 32;
		int ng = G ? G : (hi - lo + 3) / 4, kt = hi - lo - 4 * (ng - 1); /* the last group's lanes */
		__m256i mv = _mm256_set1_epi64x((long long)m);
		for (int g = 0; g < ng; g++)
			v = group256(cur + lo + 4 * g, row + lo + 4 * g, v, mv, g, g < ng - 1 ? 4 : kt, &bad);
	}
	if ((*nonfinite = _mm256_movemask_pd(_mm256_castsi256_pd(bad)) != 0))
		mend_next(cur, row, p, n);
	return (size_t)(v - p);
}

__attribute__((target("avx2,popcnt"))) size_t
binary_decode_avx2(uint64_t *restrict cur, double *restrict row, const unsigned char *restrict p, int n, int *nonfinite)
{
	switch ((n + 3) / 4) {
	case 1: return row256(cur, row, p, n, nonfinite, 1);
	case 2: return row256(cur, row, p, n, nonfinite, 2);
	case 3: return row256(cur, row, p, n, nonfinite, 3);
	case 4: return row256(cur, row, p, n, nonfinite, 4);
	case 5: return row256(cur, row, p, n, nonfinite, 5);
	case 6: return row256(cur, row, p, n, nonfinite, 6);
	case 7: return row256(cur, row, p, n, nonfinite, 7);
	case 8: return row256(cur, row, p, n, nonfinite, 8);
	}
	return row256(cur, row, p, n, nonfinite, 0);
}

/* Eight columns at cur, the lanes kg, whose codes are VALUE in val,
 * NEXT in next and SAME in same: as group256. The row before's words go
 * in last (after the expand), so that the chain from one row's words to
 * the next row's is a load, an add and two blends. */
AVX512 const unsigned char *
group512(uint64_t *cur, double *row, const unsigned char *v, uint32_t val, uint32_t next, uint32_t same, __mmask8 kg,
    __mmask8 *bad)
{
	unsigned cnt = (unsigned)__builtin_popcount(val & 0xff);
	/* the expand from memory reads only the values it takes */
	__m512i ex = _mm512_maskz_expandloadu_epi64((__mmask8)val, v);
	__m512i oi = kg == 0xff ? _mm512_loadu_si512(cur) : _mm512_maskz_loadu_epi64(kg, cur);
	__m512d old = _mm512_castsi512_pd(oi);
	__m512i nx = _mm512_castpd_si512(_mm512_add_pd(old, _mm512_set1_pd(1.0))); /* mend_next's */
	__m512i r = _mm512_mask_mov_epi64(_mm512_mask_mov_epi64(ex, (__mmask8)same, oi), (__mmask8)next, nx);
	*bad = _kor_mask8(*bad, _mm512_mask_fpclass_pd_mask(kg, _mm512_castsi512_pd(r), 0x99));
	if (kg == 0xff) {
		_mm512_storeu_si512(cur, r);
		_mm512_storeu_si512(row, r);
	} else {
		_mm512_mask_storeu_epi64(cur, kg, r);
		_mm512_mask_storeu_epi64(row, kg, r);
	}
	return v + 8 * cnt;
}

/* The columns lo..hi of one mask word m (hi - lo <= 32) in groups of 8;
 * G, when not 0, their groups, known when compiled (a row of at most 32
 * columns: the loop unrolled). */
AVX512 const unsigned char *
word512(uint64_t *cur, double *row, const unsigned char *v, uint64_t m, int lo, int hi, const int G, __mmask8 *bad)
{
	uint32_t l = (uint32_t)_pext_u64(m, UINT64_C(0x5555555555555555));
	uint32_t h = (uint32_t)_pext_u64(m, UINT64_C(0xaaaaaaaaaaaaaaaa));
	uint32_t val = l & ~h, next = l & h, same = ~(l | h);
	int ng = G ? G : (hi - lo + 7) / 8, kt = hi - lo - 8 * (ng - 1); /* the last group's lanes */
	for (int g = 0; g < ng; g++) {
		__mmask8 kg = (__mmask8)(g < ng - 1 || kt == 8 ? 0xff : (1u << kt) - 1);
		int i = lo + 8 * g;
		v = group512(cur + i, row + i, v, val >> 8 * g, next >> 8 * g, same >> 8 * g, kg, bad);
	}
	return v;
}

/* A row of n columns, G as word512's. */
AVX512 size_t
row512(uint64_t *restrict cur, double *restrict row, const unsigned char *restrict p, int n, int *nonfinite, const int G)
{
	int nw = G ? 1 : binary_mask_words(n);
	const unsigned char *v = p + 8 * (size_t)nw;
	__mmask8 bad = 0;
	size_t len = 8 * (size_t)nw;
	for (int w = 0; w < nw; w++) {
		int lo = 32 * w, hi = n - lo < 32 ? n : lo + 32;
		uint64_t m = binary_get_word(p + 8 * (size_t)w);
		/* the record's length straight from its masks: the next
		 * record's start waits on these few steps only */
		len += 8 * (size_t)__builtin_popcountll(m & ~(m >> 1) & UINT64_C(0x5555555555555555));
		v = word512(cur, row, v, m, lo, hi, G, &bad);
	}
	if ((*nonfinite = bad != 0))
		mend_next(cur, row, p, n);
	return len;
}

__attribute__((target("avx512f,avx512dq,bmi2,popcnt"))) size_t
binary_decode_avx512(uint64_t *restrict cur, double *restrict row, const unsigned char *restrict p, int n,
    int *nonfinite)
{
	switch ((n + 7) / 8) {
	case 1: return row512(cur, row, p, n, nonfinite, 1);
	case 2: return row512(cur, row, p, n, nonfinite, 2);
	case 3: return row512(cur, row, p, n, nonfinite, 3);
	case 4: return row512(cur, row, p, n, nonfinite, 4);
	}
	return row512(cur, row, p, n, nonfinite, 0);
}

binary_decode_fn *
binary_decoder(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("bmi2"))
		return binary_decode_avx512;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
		return binary_decode_avx2;
	return decode_scalar;
}

#else

binary_decode_fn *
binary_decoder(void)
{
	return decode_scalar;
}

#endif
