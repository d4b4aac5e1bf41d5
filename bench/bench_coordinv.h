/*
 * bench_coordinv.h: tagk-bench coordinv, paper 002's coordinate-(in)dependent
 * identification compared as tables (lib/coordinv.h, lib/sim/swimmer.h).
 */
#ifndef TAGK_BENCH_COORDINV_H
#define TAGK_BENCH_COORDINV_H

#include "../lib/scalar.h"

int bench_coordinv(int argc, char **argv);

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

/* lib/coordinv.h's method k as the tables print it: with physical, every
 * method keeps the parameters physical and is named -pc (WLS-Bregman is
 * physical already). */
const char *coordinv_name(int k, int physical);

/* The Crazyflie-with-pendulum half (Fig. 4), bench_cfpend.c. */
typedef struct {
	int seeds;
	long low;
	double lambda, prior_error;
	double pos_noise, rotor_drag, thrust_error, joint_friction;
	int differentiate;
	int physical;  /* every method with the pseudo-inertias kept physical */
} cfp_opts;
void coordinv_crazyflie(const cfp_opts *o);

#endif
