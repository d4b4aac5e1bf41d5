/*
 * coordinv_tables.h: what tagk-bench coordinv's two experiments (the
 * swimmer, bench_coordinv.c; the Crazyflie with a pendulum,
 * bench_cfpend.c) share: the metric's solve, the NCC scoring, the
 * methods' printed names.
 */
#ifndef TAGK_COORDINV_TABLES_H
#define TAGK_COORDINV_TABLES_H

#include "../lib/scalar.h"

/* x = A^-1 b (n x n, n <= 16) by Gaussian elimination with partial
 * pivoting: an estimated metric need not be positive definite. 0 if A is
 * singular or the result not finite. */
int coordinv_solve(int n, const tagk_real *A, const tagk_real *b, tagk_real *x);

/* Add each coordinate's NCC (tagk_ncc, shifts up to max_shift) of pred
 * against meas, both T x n with a row per sample, to sum[i] and sq[i] (its
 * square); a NaN (a constant signal) counts as 0. a and b: T reals of
 * scratch. */
void coordinv_score(int n, long T, const tagk_real *meas, const tagk_real *pred, long max_shift, double *sum,
    double *sq, tagk_real *a, tagk_real *b);

/* lib/coordinv.h's method k as the tables print it. The paper's DM is the
 * constrained one (its Sec. III: M_k kept positive definite through the
 * physical-consistency constraints, eq. 29), so "DM" names
 * coordinv_paper_dm's method and the unconstrained one is "DM-unc". With
 * physical every method keeps the parameters physical and is named -pc
 * (WLS-Bregman is physical already; DM then is TAGK_CI_DUAL so kept, and
 * TAGK_CI_DUAL_PC is not printed). */
const char *coordinv_name(int k, int physical);
/* The method that is the paper's DM: TAGK_CI_DUAL_PC, or with physical
 * TAGK_CI_DUAL (every method constrained). */
int coordinv_paper_dm(int physical);
/* One claim's line: "  low data, COORD: WHAT: yes (0.894)", and with
 * the unconstrained DM-unc beside it unless physical. */
void coordinv_print_claim(int low, const char *coord, const char *what, int best, double dm, int physical,
    int best_unc, double unc);

#endif
