/*
 * excitation.h: which parameters a regressor stream leaves undetermined.
 *
 * tagk-estimate adds every row y of the stream to G = sum y y^T. A direction
 * v (unit eigenvector of G, eigenvalue g) is not excited when the data's
 * information along it is below the prior's: g < eps, with eps = 1 / p0 for
 * RLS (P0 = p0 I), r / p0 for KF (information A^T A / r against P0^-1), and
 * 1e-10 times G's largest eigenvalue for the Kaczmarz methods (no prior:
 * their steps never leave the rows' span). The estimate along such a
 * direction stays at its prior (initial) value whatever the method reports.
 * Forgetting is ignored: G counts every row of the log once.
 *
 * A direction excited over the log can still be too weak in each window for
 * a Kaczmarz method's few iterations: window_pace measures that.
 */
#ifndef TAGK_EXCITATION_H
#define TAGK_EXCITATION_H

#include <stddef.h>
#include "../lib/tagk.h"

/* Rows gather in B (column by column) and are added to G EXC_BATCH at a
 * time, as dot products of columns: a tenth of the time of one rank-one
 * update per row, which was a third of tagk-estimate's on a binary stream. */
enum { EXC_BATCH = 32 };

typedef struct {
	int n;
	double G[TAGK_NPARAM * TAGK_NPARAM]; /* upper triangle */
	double B[TAGK_NPARAM][EXC_BATCH];
	int nb;
} excitation;

void excitation_init(excitation *x, int n);
void excitation_add(excitation *x, const double *y);
/* eps <= 0: relative to the largest eigenvalue (see above). Writes into
 * buf the parameters with a weight of at least 0.3 in an unexcited
 * direction ("mcx, Iyy", with a remark when a direction mixes several; empty when
 * no direction is excited) and returns the number of unexcited directions
 * (0: everything excited, buf empty; n: nothing excited). */
int excitation_report(const excitation *x, double eps, char *buf, size_t len);

/* Kaczmarz's pace on one window A (m x n): kappa = ||A||_F^2 /
 * sigma_min(A)^2. Each iteration removes about 1 / kappa of the error along
 * A's weakest direction (Strohmer and Vershynin's rate, in expectation for
 * rk; greedy selection is no slower), so T iterations with T much below
 * kappa leave the estimate there where the update started. 0 when m < n, n
 * > TAGK_NPARAM, or sigma_min is 0 (excitation_report covers those). */
double window_pace(const tagk_real *A, int m, int n);

#endif
