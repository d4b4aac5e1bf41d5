/*
 * rng.h: the project's one random generator, xoshiro256** seeded through
 * splitmix64 (Blackman and Vigna). Integer arithmetic only, so a seed gives the
 * same sequence on every platform and compiler; the float conversions below are
 * exact (53 or 24 top bits), and gaussian() uses libm's log, sqrt and cos.
 */
#ifndef TAGK_RNG_H
#define TAGK_RNG_H

#include <stdint.h>
#include "scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	uint64_t s[4];
} tagk_rng;

/* Seed the state from a 64-bit seed via splitmix64; any seed is valid. */
void tagk_rng_seed(tagk_rng *g, uint64_t seed);
/* Next 64 random bits. */
uint64_t tagk_rng_next(tagk_rng *g);
/* Uniform in [0, 1), with the resolution of tagk_real's mantissa. */
tagk_real tagk_rng_uniform(tagk_rng *g);
/* Standard normal, by the Box-Muller transform (one value per two uniforms). */
tagk_real tagk_rng_gaussian(tagk_rng *g);
/* splitmix64 step, exposed so callers can derive independent seeds. */
uint64_t tagk_splitmix64(uint64_t *x);

#ifdef __cplusplus
}
#endif

#endif
