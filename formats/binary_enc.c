/*
 * binary_enc.c: version 4 records (binary.h) computed a vector of columns
 * at a time on x86-64 with AVX2 or AVX-512 (chosen at run time), the same
 * bytes as binary.h's binary_encode, which every other host uses.
 *
 * Why: binary_encode's branch a column cost about 1 ns a column, a sixth
 * of tagk-regress CSV -> binary and two thirds of binlog -> binary against
 * version 3's copy. Here a group of columns (4 with AVX2, 8 with AVX-512)
 * gives three tests: SAME (the bits equal the row before's), zero (+0.0)
 * and NEXT (the row before's plus 1.0), from which a column's code
 * follows in the order binary_encode tries them: SAME, then ZERO, then
 * NEXT, else VALUE. NEXT needs no test that the row before's is finite:
 * an infinity plus 1.0 is itself and a NaN gives a NaN, so that a value
 * equal to it is SAME, or a NaN no value has (BINARY_NONE's quieted).
 * The group's words are stored where the next value goes whatever their
 * codes, packed to its VALUE columns first (AVX2: a permute from a
 * 16-entry table; AVX-512: a compress), and the output moves on by their
 * count: no branch a column. A row of at most 32 columns (one mask word:
 * tagk-regress's 23, tagk-estimate's 32) keeps its words in registers as
 * the next row's, so that prev is read and written once a call.
 *
 * Encoder alone, six 23-column rows a call, ns a row (bench/codec_speed.c:
 * 3000 rows of tagk-regress's synth stream, in cache; least of 21 runs on
 * a loaded 2-core AMD EPYC): binary_encode 22.6-22.9, AVX2 10.5-10.8 (27
 * before its codes came from one movemask and its last columns from a
 * vector), AVX-512 8.7-9.2 (13.3 before the registers, the chained
 * compares and fixupimm's NaNs), version 3's copy 4.5. With a quarter of
 * the cells random binary_encode's branches mispredict (65); AVX2 and
 * AVX-512 keep their times. On AVX-512 the mask registers' operations
 * bound it: what takes one off a group pays, what adds one (the k-unpack
 * of the codes, the count from general registers) costs.
 * SSE2's two columns a compare took 37-41 on the synth stream, so a CPU
 * without AVX2 keeps binary_encode.
 *
 * The caller's promise (binary.h's same: rows 1 to k - 1 alike from a
 * column on) lets a group wholly past it go uncompared after row 0: its
 * codes are SAME and its words stay. tagk-regress promises its truth,
 * span and scale (10 of 23 columns: AVX-512's third group, AVX2's last
 * two): AVX-512 9.1 -> 6.1 ns a row, AVX2 14.4 -> 11.9 (one run, a load
 * of 3).
 */
#include "binary.h"

/* binary_encode a row at a time */
static size_t
encode_scalar(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n, int k, int same)
{
	(void)same;
	size_t len = 0;
	for (int r = 0; r < k; r++, x += n)
		len += binary_encode(p + len, prev, x, n);
	return len;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#include "binary_avx2.h"

/* After word 0's codes m: 32 NEXT is the trailer's word, so column 0
 * (whose word is w0) becomes a VALUE, the word's only one (binary_encode
 * does the same). */
static inline uint64_t
not_trailer(uint64_t m, unsigned char **v, uint64_t w0)
{
	if (m != ~UINT64_C(0))
		return m;
	binary_put_word(*v, w0);
	*v += 8;
	return ~UINT64_C(0) << 2 | BINARY_VALUE;
}

/* The valid bits of a mask word of k columns (1..32). */
static inline uint64_t
word_bits(int k)
{
	return k == 32 ? ~UINT64_C(0) : (UINT64_C(1) << 2 * k) - 1;
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

#define AVX2 __attribute__((target("avx2,popcnt"), always_inline)) static inline


/* One group of k (1..4) AVX2 lanes, column i's of a row (x its values,
 * x[0..k) readable), against old, the words of the row before (0 in the
 * lanes past k): its 8 bits of codes (*code, the low bits inverted), its
 * VALUE lanes' words stored at *v (a whole store when k is 4, which ends
 * by the room's end: at most i values went before it, and i + 4 <= n),
 * *v moved on past them. Returns the lanes' words (0 past k). Both bits
 * of a code from one movemask: the low bit's and the high bit's lanes,
 * each all ones, interleaved as 32-bit halves. */
AVX2 __m256i
group256(unsigned char **v, __m256i old, const double *x, int k, uint32_t *code)
{
	const __m256d qnan = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7ff8000000000000));
	__m256d xd = k == 4 ? _mm256_loadu_pd(x) : _mm256_maskload_pd(x, lanes256(k));
	__m256i u = _mm256_castpd_si256(_mm256_blendv_pd(xd, qnan, _mm256_cmp_pd(xd, xd, _CMP_UNORD_Q)));
	__m256i nx = _mm256_castpd_si256(_mm256_add_pd(_mm256_castsi256_pd(old), _mm256_set1_pd(1.0)));
	__m256i ge = _mm256_cmpeq_epi64(u, old), gz = _mm256_cmpeq_epi64(u, _mm256_setzero_si256());
	__m256i gc = _mm256_cmpeq_epi64(u, nx);
	__m256i nl = _mm256_or_si256(ge, gz), h = _mm256_andnot_si256(ge, _mm256_or_si256(gz, gc));
	*code = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_blend_epi32(nl, h, 0xaa)));
	unsigned val = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_or_si256(nl, gc))) ^ 15;
	__m256i idx = _mm256_loadu_si256((const __m256i *)(const void *)pack4[val]);
	__m256i packed = _mm256_permutevar8x32_epi32(u, idx);
	if (k == 4)
		_mm256_storeu_si256((__m256i *)(void *)*v, packed);
	else
		store_part256(*v, packed, k);
	*v += 8 * (size_t)(unsigned)__builtin_popcount(val);
	return u;
}

/* Rows of G groups (n <= 32: one mask word), the group loop unrolled so
 * that each row's words stay in registers as the next row's old: prev is
 * read once and written once a call. */
AVX2 size_t
rows256_small(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n, int k, int same,
    const int G)
{
	__m256i old[8];
	int kt = n - 4 * (G - 1); /* the last group's lanes */
	for (int g = 0; g < G; g++)
		old[g] = g < G - 1 || kt == 4 ? _mm256_loadu_si256((const __m256i *)(const void *)(prev + 4 * g))
		    : _mm256_maskload_epi64((const long long *)(const void *)(prev + 4 * g), lanes256(kt));
	uint64_t valid = word_bits(n);
	unsigned char *q = p;
	for (int r = 0; r < k; r++, x += n) {
		unsigned char *v = q + 8;
		uint64_t m = 0;
		for (int g = 0; g < G; g++) {
			uint32_t c = 0x55; /* four SAME: the promise's (binary.h) */
			if (r == 0 || 4 * g < same)
				old[g] = group256(&v, old[g], x + 4 * g, g < G - 1 ? 4 : kt, &c);
			m |= (uint64_t)c << 8 * g;
		}
		m = (m ^ UINT64_C(0x5555555555555555)) & valid;
		binary_put_word(q, not_trailer(m, &v, (uint64_t)_mm256_extract_epi64(old[0], 0)));
		q = v;
	}
	for (int g = 0; g < G; g++) {
		if (g < G - 1 || kt == 4)
			_mm256_storeu_si256((__m256i *)(void *)(prev + 4 * g), old[g]);
		else
			store_part256(prev + 4 * g, old[g], kt);
	}
	return (size_t)(q - p);
}

/* A row of more than 32 columns, a word at a time, against prev. */
AVX2 unsigned char *
row_avx2(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n)
{
	int nw = binary_mask_words(n);
	unsigned char *v = p + 8 * (size_t)nw;
	for (int w = 0; w < nw; w++) {
		int lo = 32 * w, hi = n - lo < 32 ? n : lo + 32;
		uint64_t m = 0;
		for (int i = lo; i < hi; i += 4) {
			int k = hi - i < 4 ? hi - i : 4;
			uint32_t c;
			__m256i old = k == 4 ? _mm256_loadu_si256((const __m256i *)(const void *)(prev + i))
			    : _mm256_maskload_epi64((const long long *)(const void *)(prev + i), lanes256(k));
			__m256i u = group256(&v, old, x + i, k, &c);
			if (k == 4)
				_mm256_storeu_si256((__m256i *)(void *)(prev + i), u);
			else
				store_part256(prev + i, u, k);
			m |= (uint64_t)c << 2 * (i - lo);
		}
		m = (m ^ UINT64_C(0x5555555555555555)) & word_bits(hi - lo);
		binary_put_word(p + 8 * (size_t)w, w == 0 ? not_trailer(m, &v, prev[0]) : m);
	}
	return v;
}

__attribute__((target("avx2,popcnt"))) size_t
binary_encode_avx2(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n, int k,
    int same)
{
	switch ((n + 3) / 4) {
	case 1: return rows256_small(p, prev, x, n, k, same, 1);
	case 2: return rows256_small(p, prev, x, n, k, same, 2);
	case 3: return rows256_small(p, prev, x, n, k, same, 3);
	case 4: return rows256_small(p, prev, x, n, k, same, 4);
	case 5: return rows256_small(p, prev, x, n, k, same, 5);
	case 6: return rows256_small(p, prev, x, n, k, same, 6);
	case 7: return rows256_small(p, prev, x, n, k, same, 7);
	case 8: return rows256_small(p, prev, x, n, k, same, 8);
	}
	unsigned char *q = p;
	for (int r = 0; r < k; r++, x += n)
		q = row_avx2(q, prev, x, n);
	return (size_t)(q - p);
}

/* One group of AVX-512 lanes (column i's of a row: the lanes of kg)
 * against old, the words of the row before: its codes' low bits (*l) and
 * high bits (*h), its VALUE lanes stored at *v (a whole store when kg is
 * 0xff, which ends by the room's end as AVX2's does), *v moved on past
 * them. Returns the lanes' words. Codes: SAME where the bits are old's;
 * else ZERO, NEXT, VALUE, each test under the mask of the last: the low
 * bit is a changed lane's that is not +0.0, VALUE a low bit's that is not
 * NEXT, the high bit a changed lane's that is not VALUE. Three compares
 * and one mask operation: the mask registers' operations bound it. */
__attribute__((target("avx512f,avx512dq,bmi2,popcnt"), always_inline)) static inline __m512i
group512(unsigned char **v, __m512i old, const double *x, __mmask8 kg, __mmask8 *l, __mmask8 *h)
{
	const __m512i qnan = _mm512_set1_epi64(0x7ff8000000000000);
	__m512d xd = kg == 0xff ? _mm512_loadu_pd(x) : _mm512_maskz_loadu_pd(kg, x);
	/* a NaN (either kind: classes 0 and 1) keeps qnan, any other value
	 * (token 1) is itself: one instruction, no mask register */
	__m512i u = _mm512_castpd_si512(_mm512_fixupimm_pd(_mm512_castsi512_pd(qnan), xd, _mm512_set1_epi64(0x11111100), 0));
	__m512i nx = _mm512_castpd_si512(_mm512_add_pd(_mm512_castsi512_pd(old), _mm512_set1_pd(1.0)));
	__mmask8 ne = _mm512_mask_cmpneq_epi64_mask(kg, u, old);
	__mmask8 lo = _mm512_mask_test_epi64_mask(ne, u, u);
	__mmask8 val = _mm512_mask_cmpneq_epi64_mask(lo, u, nx);
	*l = lo, *h = _kandn_mask8(val, ne);
	__m512i packed = _mm512_maskz_compress_epi64(val, u);
	size_t cnt = (unsigned)__builtin_popcount(val);
	if (kg == 0xff)
		_mm512_storeu_si512(*v, packed);
	else
		_mm512_mask_storeu_epi64(*v, (__mmask8)((1u << cnt) - 1), packed);
	*v += 8 * cnt;
	return u;
}

/* Rows of G groups (n <= 32: one mask word), the group loop unrolled so
 * that each row's words stay in registers as the next row's old: prev is
 * read once and written once a call. */
__attribute__((target("avx512f,avx512dq,bmi2,popcnt"), always_inline)) static inline size_t
rows512_small(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n, int k, int same,
    const int G)
{
	__m512i old[4];
	__mmask8 kt = (__mmask8)(n % 8 ? (1u << (n % 8)) - 1 : 0xff);
	for (int g = 0; g < G; g++)
		old[g] = _mm512_maskz_loadu_epi64(g == G - 1 ? kt : 0xff, prev + 8 * g);
	unsigned char *q = p;
	for (int r = 0; r < k; r++, x += n) {
		unsigned char *v = q + 8;
		uint32_t lo = 0, hi = 0;
		for (int g = 0; g < G; g++) {
			if (r > 0 && 8 * g >= same)
				continue; /* eight SAME, codes 0: the promise's (binary.h) */
			__mmask8 l, h;
			old[g] = group512(&v, old[g], x + 8 * g, g == G - 1 ? kt : 0xff, &l, &h);
			lo |= (uint32_t)l << 8 * g, hi |= (uint32_t)h << 8 * g;
		}
		uint64_t m = _pdep_u64(lo, UINT64_C(0x5555555555555555)) | _pdep_u64(hi, UINT64_C(0xaaaaaaaaaaaaaaaa));
		binary_put_word(q, not_trailer(m, &v, (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(old[0]))));
		q = v;
	}
	for (int g = 0; g < G; g++)
		_mm512_mask_storeu_epi64(prev + 8 * g, g == G - 1 ? kt : 0xff, old[g]);
	return (size_t)(q - p);
}

/* Eight columns a group, the last group's lanes past the row masked
 * off; VALUE lanes packed by a compress within the register (its store
 * form is slow on some CPUs). */
__attribute__((target("avx512f,avx512dq,bmi2,popcnt"), always_inline)) static inline unsigned char *
row_avx512(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n)
{
	int nw = binary_mask_words(n);
	unsigned char *v = p + 8 * (size_t)nw;
	for (int w = 0; w < nw; w++) {
		int lo = 32 * w, hi = n - lo < 32 ? n : lo + 32;
		uint32_t lo1 = 0, hi1 = 0; /* the codes' low and high bits */
		for (int i = lo; i < hi; i += 8) {
			__mmask8 kg = (__mmask8)(hi - i >= 8 ? 0xff : (1u << (hi - i)) - 1), l, h;
			__m512i old = _mm512_maskz_loadu_epi64(kg, prev + i);
			_mm512_mask_storeu_epi64(prev + i, kg, group512(&v, old, x + i, kg, &l, &h));
			lo1 |= (uint32_t)l << (i - lo), hi1 |= (uint32_t)h << (i - lo);
		}
		uint64_t m = _pdep_u64(lo1, UINT64_C(0x5555555555555555)) | _pdep_u64(hi1, UINT64_C(0xaaaaaaaaaaaaaaaa));
		binary_put_word(p + 8 * (size_t)w, w == 0 ? not_trailer(m, &v, prev[0]) : m);
	}
	return v;
}

/* rows of at most 32 columns (tagk-regress's 23, tagk-estimate's 32)
 * through rows512_small, wider ones a row at a time */
__attribute__((target("avx512f,avx512dq,bmi2,popcnt"))) size_t
binary_encode_avx512(unsigned char *restrict p, uint64_t *restrict prev, const double *restrict x, int n, int k,
    int same)
{
	switch ((n + 7) / 8) {
	case 1: return rows512_small(p, prev, x, n, k, same, 1);
	case 2: return rows512_small(p, prev, x, n, k, same, 2);
	case 3: return rows512_small(p, prev, x, n, k, same, 3);
	case 4: return rows512_small(p, prev, x, n, k, same, 4);
	}
	unsigned char *q = p;
	for (int r = 0; r < k; r++, x += n)
		q = row_avx512(q, prev, x, n);
	return (size_t)(q - p);
}

binary_encode_fn *
binary_encoder(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("bmi2"))
		return binary_encode_avx512;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
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
