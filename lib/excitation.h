/*
 * excitation.h: which parameter directions a regressor stream leaves
 * undetermined, and how slowly a Kaczmarz method moves in one window.
 *
 * Every row y of the stream is added to G = sum y y^T (in double, in
 * batches of TAGK_EXC_BATCH rows as dot products of columns: a tenth of
 * the time of one rank-one update per row). A direction v (unit
 * eigenvector of G, eigenvalue g) is not excited when the data's
 * information along it is below the prior's: g < eps, with eps = 1 / p0
 * for RLS (P0 = p0 I), r / p0 for KF (information A^T A / r against
 * P0^-1), and 1e-10 times G's largest eigenvalue for the Kaczmarz methods
 * (no prior: their steps never leave the rows' span). The estimate along
 * such a direction stays at its prior value whatever the method reports.
 * Forgetting is ignored: G counts every row of the log once.
 * No allocation; the caller owns the state.
 */
#ifndef TAGK_EXCITATION_H
#define TAGK_EXCITATION_H

#include "inertia.h"
#include "scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_EXC_BATCH = 32 };

typedef struct {
	int n;
	double G[TAGK_NPARAM * TAGK_NPARAM]; /* upper triangle */
	double B[TAGK_NPARAM][TAGK_EXC_BATCH];
	int nb;
} tagk_excitation;

void tagk_excitation_init(tagk_excitation *x, int n);
/* One row y (n values). */
void tagk_excitation_add(tagk_excitation *x, const double *y);
/* The directions with g < eps (eps <= 0: 1e-10 times the largest
 * eigenvalue): their number, and in named[j] (n flags) 1 for each
 * parameter j with a weight of at least 0.3 in one of them; *combo is 1
 * when a direction mixes several parameters. 0 when G is not finite (the
 * stream's bad values are reported elsewhere). x is not changed. */
int tagk_excitation_unexcited(const tagk_excitation *x, double eps, int named[TAGK_NPARAM], int *combo);

/* Kaczmarz's pace on one window A (m x n): kappa = ||A||_F^2 /
 * sigma_min(A)^2. Each iteration removes about 1 / kappa of the error along
 * A's weakest direction (Strohmer and Vershynin's rate, in expectation for
 * rk; greedy selection is no slower), so T iterations with T much below
 * kappa leave the estimate there where the update started. 0 when m < n, n
 * > TAGK_NPARAM, or sigma_min is 0. */
double tagk_window_pace(const tagk_real *A, int m, int n);

#ifdef __cplusplus
}
#endif

#endif
