/*
 * binary_enc.c: version 4 records (binary.h) computed a vector of columns
 * at a time on x86-64 with AVX2 or AVX-512 (chosen at run time), the same
 * bytes as binary.h's binary_encode, which every other host uses.
 *
 * Why: binary_encode's branch a column cost about 1 ns a column, a sixth
 * of tagk-regress CSV -> binary and two thirds of binlog -> binary against
 * version 3's copy. Here a group of columns (4 with AVX2, 8 with AVX-512)
 * gives three bit masks: SAME (the bits equal the row before's), zero
 * (+0.0) and NEXT (the row before's plus 1.0), from which a column's code
 * follows in the order binary_encode tries them: SAME, then ZERO, then
 * NEXT, else VALUE. NEXT needs no test that the row before's is finite:
 * an infinity plus 1.0 is itself and a NaN gives a NaN, so that a value
 * equal to it is SAME, or a NaN no value has (BINARY_NONE's quieted). A
 * word's 32 codes are those masks with their bits spread two apart. The
 * group's words are stored where the next value goes whatever their
 * codes, packed to its VALUE columns first (AVX2: a permute from a
 * 16-entry table; AVX-512: a compress), and the output moves on by their
 * count: no branch a column. Encoder alone, six 23-column rows a call
 * (ns a row, one loaded machine): on tagk-regress's synth stream
 * binary_encode 27-32, AVX2 27-29, AVX-512 14, version 3's copy 5; with a
 * quarter of the cells changed at random binary_encode's branches
 * mispredict (130-150), AVX2 and AVX-512 take the same as before. SSE2's
 * two columns a compare took 37-41 on the synth stream, so a CPU without
 * AVX2 keeps binary_encode.
 */
#include "binary.h"

/* binary_encode a row at a time */
static size_t
encode_scalar(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n, int k)
{
	size_t len = 0;
	for (int r = 0; r < k; r++, x += n)
		len += binary_encode(p + len, prev, x, n);
	return len;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* bit i of x to bit 2i */
static inline uint64_t
spread(uint32_t x)
{
	uint64_t v = x;
	v = (v | v << 16) & UINT64_C(0x0000ffff0000ffff);
	v = (v | v << 8) & UINT64_C(0x00ff00ff00ff00ff);
	v = (v | v << 4) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	v = (v | v << 2) & UINT64_C(0x3333333333333333);
	return (v | v << 1) & UINT64_C(0x5555555555555555);
}

/* The mask word of columns whose bits are set in e (SAME), z (+0.0) and
 * inc (NEXT) among the k of the word: 0 SAME, then 2 ZERO, then 3 NEXT,
 * else 1 VALUE (the low bit: neither SAME nor zero; the high bit: not
 * SAME, and zero or NEXT). */
static inline uint64_t
mask_word(uint32_t e, uint32_t z, uint32_t inc, int k)
{
	uint32_t all = k == 32 ? ~UINT32_C(0) : (UINT32_C(1) << k) - 1;
	return spread(all & ~e & ~z) | spread(all & ~e & (z | inc)) << 1;
}

/* One column (the last ones of a row that fill no group): its value
 * stored at *v, *v moved on if it is a VALUE, its bits at sh. */
static inline void
one_column(unsigned char **v, uint64_t *prev, double x, uint32_t sh, uint32_t b[3])
{
	uint64_t u = binary_word(x), old = *prev;
	*prev = u;
	uint32_t e = u == old, z = u == 0, inc = u == binary_next(old);
	binary_put_word(*v, u);
	*v += 8 * (!e & !z & !inc);
	b[0] |= e << sh;
	b[1] |= z << sh;
	b[2] |= inc << sh;
}

/* After word 0's codes m: 32 NEXT is the trailer's word, so column 0
 * becomes a VALUE, the word's only one (binary_encode does the same). */
static inline uint64_t
not_trailer(uint64_t m, unsigned char **v, const uint64_t *prev)
{
	if (m != ~UINT64_C(0))
		return m;
	binary_put_word(*v, prev[0]);
	*v += 8;
	return ~UINT64_C(0) << 2 | BINARY_VALUE;
}

/* For each 4-bit set of VALUE lanes, the 32-bit lanes that bring those
 * lanes' words first, in order. */
static const uint32_t pack4[16][8] = {
#define L(a) 2 * (a), 2 * (a) + 1
	{ L(0), L(1), L(2), L(3) }, { L(0), L(1), L(2), L(3) }, { L(1), L(0), L(2), L(3) },
	{ L(0), L(1), L(2), L(3) }, { L(2), L(0), L(1), L(3) }, { L(0), L(2), L(1), L(3) },
	{ L(1), L(2), L(0), L(3) }, { L(0), L(1), L(2), L(3) }, { L(3), L(0), L(1), L(2) },
	{ L(0), L(3), L(1), L(2) }, { L(1), L(3), L(0), L(2) }, { L(0), L(1), L(3), L(2) },
	{ L(2), L(3), L(0), L(1) }, { L(0), L(2), L(3), L(1) }, { L(1), L(2), L(3), L(0) },
	{ L(0), L(1), L(2), L(3) },
#undef L
};

__attribute__((target("avx2,bmi2,popcnt"), always_inline)) static inline unsigned char *
row_avx2(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n)
{
	const __m256d qnan = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7ff8000000000000));
	const __m256i zero = _mm256_setzero_si256();
	const __m256d one = _mm256_set1_pd(1.0);
	int nw = binary_mask_words(n);
	unsigned char *v = p + 8 * (size_t)nw;
	for (int w = 0; w < nw; w++) {
		int lo = 32 * w, hi = n - lo < 32 ? n : lo + 32, i = lo;
		uint32_t lo1 = 0, hi1 = 0;
		/* a group's 32-byte store ends by the room's end: at most i
		 * values went before it, and i + 4 <= n */
		for (; i + 4 <= hi; i += 4) {
			__m256d xd = _mm256_loadu_pd(x + i);
			__m256i u = _mm256_castpd_si256(_mm256_blendv_pd(xd, qnan, _mm256_cmp_pd(xd, xd, _CMP_UNORD_Q)));
			__m256i old = _mm256_loadu_si256((const __m256i *)(const void *)(prev + i));
			_mm256_storeu_si256((__m256i *)(void *)(prev + i), u);
			__m256i nx = _mm256_castpd_si256(_mm256_add_pd(_mm256_castsi256_pd(old), one));
			__m256i ge = _mm256_cmpeq_epi64(u, old), gz = _mm256_cmpeq_epi64(u, zero);
			__m256i gc = _mm256_cmpeq_epi64(u, nx);
			/* mask_word's low and high bits, in vectors */
			uint32_t l1 = (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_or_si256(ge, gz))) ^ 15;
			uint32_t h1 = (uint32_t)_mm256_movemask_pd(
			    _mm256_castsi256_pd(_mm256_andnot_si256(ge, _mm256_or_si256(gz, gc))));
			uint32_t val = l1 & ~h1;
			__m256i idx = _mm256_loadu_si256((const __m256i *)(const void *)pack4[val]);
			_mm256_storeu_si256((__m256i *)(void *)v, _mm256_permutevar8x32_epi32(u, idx));
			v += 8 * (unsigned)__builtin_popcount(val);
			lo1 |= l1 << (i - lo), hi1 |= h1 << (i - lo);
		}
		uint64_t m = 0;
		if (i < hi) { /* the last 1 to 3 columns */
			uint32_t b[3] = { 0, 0, 0 };
			for (int j = i; j < hi; j++)
				one_column(&v, prev + j, x[j], (uint32_t)(j - i), b);
			m = mask_word(b[0], b[1], b[2], hi - i) << 2 * (i - lo);
		}
		m |= _pdep_u64(lo1, UINT64_C(0x5555555555555555)) | _pdep_u64(hi1, UINT64_C(0xaaaaaaaaaaaaaaaa));
		binary_put_word(p + 8 * (size_t)w, w == 0 ? not_trailer(m, &v, prev) : m);
	}
	return v;
}

/* Eight columns a group, the last group's lanes past the row masked
 * off; VALUE lanes packed by a compress within the register (its store
 * form is slow on some CPUs). */
__attribute__((target("avx512f,avx512dq,bmi2,popcnt"), always_inline)) static inline unsigned char *
row_avx512(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n)
{
	const __m512i qnan = _mm512_set1_epi64(0x7ff8000000000000);
	const __m512d one = _mm512_set1_pd(1.0);
	int nw = binary_mask_words(n);
	unsigned char *v = p + 8 * (size_t)nw;
	for (int w = 0; w < nw; w++) {
		int lo = 32 * w, hi = n - lo < 32 ? n : lo + 32;
		uint32_t lo1 = 0, hi1 = 0; /* the codes' low and high bits */
		for (int i = lo; i < hi; i += 8) {
			__mmask8 k = (__mmask8)(hi - i >= 8 ? 0xff : (1u << (hi - i)) - 1);
			__m512d xd = _mm512_maskz_loadu_pd(k, x + i);
			__m512i u = _mm512_mask_mov_epi64(_mm512_castpd_si512(xd), _mm512_cmp_pd_mask(xd, xd, _CMP_UNORD_Q), qnan);
			__m512i old = _mm512_maskz_loadu_epi64(k, prev + i);
			_mm512_mask_storeu_epi64(prev + i, k, u);
			__m512i nx = _mm512_castpd_si512(_mm512_add_pd(_mm512_castsi512_pd(old), one));
			__mmask8 ge = _mm512_mask_cmpeq_epi64_mask(k, u, old);
			__mmask8 gz = _mm512_mask_testn_epi64_mask(k, u, u);
			__mmask8 gc = _mm512_mask_cmpeq_epi64_mask(k, u, nx);
			/* mask_word's, in mask registers */
			__mmask8 l1 = _kandn_mask8(_kor_mask8(ge, gz), k);
			__mmask8 h1 = _kandn_mask8(ge, _kor_mask8(gz, gc));
			__mmask8 val = _kandn_mask8(h1, l1);
			__m512i packed = _mm512_maskz_compress_epi64(val, u);
			int cnt = __builtin_popcount(val);
			if (k == 0xff) /* ends by the room's end, as in AVX2's */
				_mm512_storeu_si512(v, packed);
			else
				_mm512_mask_storeu_epi64(v, (__mmask8)((1u << cnt) - 1), packed);
			v += 8 * cnt;
			lo1 |= (uint32_t)l1 << (i - lo), hi1 |= (uint32_t)h1 << (i - lo);
		}
		uint64_t m = _pdep_u64(lo1, UINT64_C(0x5555555555555555)) | _pdep_u64(hi1, UINT64_C(0xaaaaaaaaaaaaaaaa));
		binary_put_word(p + 8 * (size_t)w, w == 0 ? not_trailer(m, &v, prev) : m);
	}
	return v;
}

/* k rows in one call: the constants and the call once, not a row each
 * (a fifth of the time a row of 23 columns) */
#define ROWS(name, attr) \
	attr size_t binary_encode_##name(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, \
	    int n, int k) \
	{ \
		unsigned char *q = p; \
		for (int r = 0; r < k; r++, x += n) \
			q = row_##name(q, prev, x, n); \
		return (size_t)(q - p); \
	}
ROWS(avx2, __attribute__((target("avx2,bmi2,popcnt"))))
ROWS(avx512, __attribute__((target("avx512f,avx512dq,bmi2,popcnt"))))

binary_encode_fn *
binary_encoder(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("bmi2"))
		return binary_encode_avx512;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt"))
		return binary_encode_avx2;
	return encode_scalar;
}

#else

binary_encode_fn *
binary_encoder(void)
{
	return encode_scalar;
}

#endif
