/*
 * kaczmarz.h: the randomized Kaczmarz family on a window A (m x n), b (m).
 *
 *   rk    rows drawn with probability ||a_i||^2 / ||A||_F^2 (Strohmer-Vershynin)
 *   grk   greedy randomized Kaczmarz (Bai and Wu): candidate set of eq. (11-12)
 *         with squared residuals, row drawn with probability r_i^2 over the set
 *   tark  rk with tail averaging of the iterates after a burn-in
 *   tagk  grk with tail averaging (Algorithm 1 of the TAG-K paper)
 *
 * Each update runs T iterations (T = m by default) from the previous estimate
 * (warm start) or from theta0, and stops early once ||b - A x|| <= tol ||b||.
 * The greedy variants keep the residual current with the Gram matrix A A^T,
 * whose columns are formed only for rows actually chosen: an iteration costs
 * O(m) plus, the first time a row is chosen, O(mn) for its column. The
 * iterate is held as x0 + A^T y and built once at the end. The random variants need no residual to pick a row and do
 * O(n) work per iteration; they test the tolerance once, before iterating.
 *
 * Rows whose norm is zero are never chosen; an all-zero window is TAGK_EZERO.
 */
#ifndef TAGK_KACZMARZ_H
#define TAGK_KACZMARZ_H

#include <stddef.h>
#include <stdint.h>
#include "rng.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	TAGK_KZ_RK,
	TAGK_KZ_GRK,
	TAGK_KZ_TARK,
	TAGK_KZ_TAGK
} tagk_kz_variant;

typedef struct {
	tagk_kz_variant variant;
	int iters;      /* T per update; 0 means m, the window's row count */
	int burnin;     /* iterations discarded before tail averaging (tark, tagk) */
	tagk_real tol;  /* relative residual to stop at; 0 never stops early */
	uint64_t seed;  /* seed of this estimator's own generator */
	int warm_start; /* 1: start each update from the last estimate; 0: from theta0 */
} tagk_kz_config;

/* Settings: defaults, as in the authors' experiments. */
void tagk_kz_defaults(tagk_kz_config *cfg, tagk_kz_variant v);

typedef struct {
	tagk_kz_config cfg;
	int n, m_max;
	tagk_rng rng;
	int columns;       /* Gram columns formed by the last greedy update: the
	                      distinct rows it chose, which set its cost */
	tagk_real *theta;  /* n: current estimate (averaged for tark/tagk) */
	tagk_real *theta0; /* n: initial estimate, restored by reset */
	tagk_real *x;      /* n: scratch iterate */
	tagk_real *xsum;   /* n: scratch sum of averaged iterates */
	tagk_real *r;      /* m_max: residual b - A x */
	tagk_real *s;      /* m_max: squared row norms */
	tagk_real *w;      /* m_max: selection weights or cumulative row norms */
	tagk_real *y;      /* m_max: x = x0 + A^T y */
	tagk_real *ysum;   /* m_max: bookkeeping for the tail average (see kaczmarz.c) */
	tagk_real *inv;    /* m_max: 1 / s_i (0 for zero rows) */
	tagk_real *G;      /* m_max x m_max: Gram matrix A A^T, column i at G + i m,
	                      formed only for rows chosen */
} tagk_kz;

/* Workspace length, in tagk_real elements, that init needs for n and m_max:
 * 4 n + m_max (m_max + 6). */
size_t tagk_kz_workspace_len(int n, int m_max);
/* Wire k to the caller's ws (len elements) and set the estimate to theta0
 * (zeros if theta0 is NULL). Checks sizes and options; allocates nothing. */
tagk_status tagk_kz_init(tagk_kz *k, const tagk_kz_config *cfg, int n, int m_max,
    const tagk_real *theta0, tagk_real *ws, size_t len);
/* One estimation step on the window A (m x n, row-major), b (m); 1 <= m <= m_max.
 * On success the new estimate is in k->theta; on failure nothing changes. */
tagk_status tagk_kz_update(tagk_kz *k, const tagk_real *A, const tagk_real *b, int m);
/* Back to theta0 and the configured seed. */
void tagk_kz_reset(tagk_kz *k);

#ifdef __cplusplus
}
#endif

#endif
