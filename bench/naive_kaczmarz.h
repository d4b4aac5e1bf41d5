/*
 * naive_kaczmarz.h: the straightforward greedy Kaczmarz / TAG-K update, kept
 * as a yardstick for the Gram-matrix implementation in lib/kaczmarz.c.
 *
 * It follows the authors' reference code: row norms once per update, then per
 * iteration the full residual b - A x is recomputed (O(mn)), the greedy set of
 * eqs. (11)-(13) formed and one row drawn, and x updated in place. It draws
 * exactly one uniform per iteration, like the library, so for the same seed
 * both pick the same rows unless rounding moves a candidate across the
 * threshold. Pure C, no allocation, so it also runs on the Cortex-M7.
 */
#ifndef TAGK_NAIVE_KACZMARZ_H
#define TAGK_NAIVE_KACZMARZ_H

#include "../lib/tagk.h"

/* Scratch length for tagk_naive_greedy, in tagk_real elements. */
#define TAGK_NAIVE_WORK(m, n) (3 * (size_t)(m) + 2 * (size_t)(n))

/* One update of grk (average = 0) or tagk (average = 1) on A (m x n), b (m),
 * starting from x0 (n); T iterations (0 means m), burn-in, relative tolerance.
 * The result goes to out (n); work holds TAGK_NAIVE_WORK(m, n) reals.
 * Returns TAGK_EZERO for an all-zero window (out untouched). */
tagk_status tagk_naive_greedy(int m, int n, const tagk_real *A, const tagk_real *b,
    const tagk_real *x0, int T, int burnin, int average, tagk_real tol,
    tagk_rng *rng, tagk_real *work, tagk_real *out);

#endif
