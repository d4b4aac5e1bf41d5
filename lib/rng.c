/* rng.c: xoshiro256** and splitmix64; see rng.h. */
#include "rng.h"

uint64_t
tagk_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void
tagk_rng_seed(tagk_rng *g, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		g->s[i] = tagk_splitmix64(&x);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
tagk_rng_next(tagk_rng *g)
{
	uint64_t *s = g->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

tagk_real
tagk_rng_uniform(tagk_rng *g)
{
#ifdef TAGK_FLOAT
	return (tagk_real)(uint32_t)(tagk_rng_next(g) >> 40) * (1.0f / 16777216.0f);
#else
	/* The top 53 bits as a double, converted as two 32-bit halves: exact
	 * (each half and their sum below 2^53 are representable), so the same
	 * value as converting the 64-bit integer, without the Cortex-M7's
	 * software helper for 64-bit conversions (__aeabi_ul2d). */
	uint64_t v = tagk_rng_next(g) >> 11;
	double hi = (double)(uint32_t)(v >> 32), lo = (double)(uint32_t)v;
	return (hi * 4294967296.0 + lo) * (1.0 / 9007199254740992.0);
#endif
}

tagk_real
tagk_rng_gaussian(tagk_rng *g)
{
	/* 1 - u lies in (0, 1], so the log is finite. */
	tagk_real u1 = (tagk_real)1 - tagk_rng_uniform(g);
	tagk_real u2 = tagk_rng_uniform(g);
	const tagk_real two_pi = (tagk_real)6.283185307179586476925286766559;
	return tagk_sqrt((tagk_real)-2 * tagk_log(u1)) * tagk_cos(two_pi * u2);
}
