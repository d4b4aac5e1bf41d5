/*
 * testutil.h: shared helpers for the cmocka suites: tolerances per scalar
 * type, random problems, workspace canaries, and an independent least-squares
 * oracle (Householder QR, in long double, sharing no code with lib/).
 */
#ifndef TAGK_TESTUTIL_H
#define TAGK_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../bench/sim/tagk_sim.h"

#ifdef TAGK_FLOAT
#define TOL_EXACT 2e-4   /* "exact" solutions: float has 7 digits */
#define TOL_TIGHT 1e-3
#define TOL_LOOSE 2e-2
#else
#define TOL_EXACT 1e-8
#define TOL_TIGHT 1e-9
#define TOL_LOOSE 1e-6
#endif

/* Fill x (k values) with independent standard normals. */
void fill_gauss(tagk_rng *g, int k, tagk_real *x);
/* ||x - y|| / ||y|| in long double. */
double rel_err(int n, const tagk_real *x, const tagk_real *y);
double rel_err_d(int n, const tagk_real *x, const double *y);

/*
 * Ridge least squares by Householder QR on the stacked system
 *   [A; sqrt(delta) I] x = [b; sqrt(delta) x0],
 * i.e. argmin ||A x - b||^2 + delta ||x - x0||^2 (delta = 0: plain LS, A must
 * have full column rank). A is m x n row-major, m + n <= 400, n <= 64.
 * Rows may be weighted: row i scaled by sqrt(wt[i]) when wt is not NULL.
 */
void oracle_lsq(int m, int n, const tagk_real *A, const tagk_real *b,
    const double *wt, double delta, const tagk_real *x0, double *x);

/* Workspace with canary words behind it: returns a buffer of len reals
 * followed by CANARY_WORDS guard reals filled with a fixed bit pattern. */
#define CANARY_WORDS 16
/* Solve S x = v (n x n, row-major) in place, v becoming x, by Gaussian
 * elimination with partial pivoting in long double (S is destroyed). */
void gauss_solve(int n, long double *S, long double *v);
tagk_real *canary_alloc(size_t len);
/* 1 if every canary word behind buf (len reals) still holds the pattern. */
int canary_intact(const tagk_real *buf, size_t len);
void canary_free(tagk_real *buf);

#endif
