/*
 * binary_avx2.h: the AVX2 helpers both version 4 codecs use
 * (binary_enc.c, binary_dec.c): a row's last group of 1 to 3 words, read
 * by a masked load and written by whole stores. x86-64 with GCC or Clang
 * only; included after <immintrin.h>, each function compiled for AVX2.
 */
#ifndef TAGK_BINARY_AVX2_H
#define TAGK_BINARY_AVX2_H

#include <immintrin.h>

#define BINARY_AVX2 __attribute__((target("avx2,popcnt"), always_inline)) static inline

/* The lanes below k (0..4) of a 256-bit vector, for maskload. */
BINARY_AVX2 __m256i
lanes256(int k)
{
	return _mm256_cmpgt_epi64(_mm256_set1_epi64x(k), _mm256_setr_epi64x(0, 1, 2, 3));
}

/* The first k words of u (k 1..3) at p, as whole 16- and 8-byte stores
 * (a masked store is slow on some CPUs): a row's last group. */
BINARY_AVX2 void
store_part256(void *p, __m256i u, int k)
{
	__m128i a = _mm256_castsi256_si128(u);
	if (k == 1)
		_mm_storel_epi64((__m128i *)p, a);
	else
		_mm_storeu_si128((__m128i *)p, a);
	if (k == 3)
		_mm_storel_epi64((__m128i *)(void *)((char *)p + 16), _mm256_extracti128_si256(u, 1));
}

#endif
