/*
 * estimate_widepc.h: tagk-estimate --batch -a ols-pc|wls-pc|wls-pullback|
 * wls-bregman on a whole-arm stream of standard parameters (tagk-regress
 * -m multibody --unknown all: columns Y_<param>_<body>, and friction
 * columns Y_fv_J ...): every listed body's ten parameters physically
 * consistent, the friction columns free, pulled toward the description
 * --robot FILE names (lib/armpc.h), as tagk-regress --identify does from
 * the log. The data determine the base parameters; the pull (weight
 * 1e-4 x --prior-weight per sample; the pullback metric, or for
 * wls-bregman the log-det divergence) the directions they leave free.
 * wls-*: each row index weighted by the inverse of its residual variance
 * at a first, unweighted solve.
 */
#ifndef TAGK_ESTIMATE_WIDEPC_H
#define TAGK_ESTIMATE_WIDEPC_H

#include "batch_opts.h"

enum { WIDEPC_MAX_IDX = 64 };

/* The stream's sums, per row index k (NULL H[k]: no such index): H (n x n,
 * upper triangle), h (n), c = sum b^2, N rows; names[j] the column of
 * parameter j without its Y_ prefix. */
typedef struct {
	int n;
	double *const *H, *const *h;
	const double *c;
	const long *N;
	long samples;
	const char *const *names;
	const char *input;
} widepc_sums;

/* 1 if method (a batch method's name) is one widepc solves. */
int widepc_method(const char *method);
/* Solve into theta (n); exits with a message on any failure. */
void widepc_estimate(const batch_opts *o, const widepc_sums *s, double *theta);

#endif
