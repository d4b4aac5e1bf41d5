/*
 * filter_whiten.h: tagk-filter --whiten V,...: paper 002's dual metric,
 * frozen at a prior, applied to a regressor stream that carries it
 * (tagk-regress -m multibody --metric). Per sample (the rows sharing a t,
 * row indices 0..n-1), M = M0 + sum_j V_j M_j is formed from the rows'
 * metric columns and factored, L L^T = M, and the sample's rows become
 * L^-1 A and L^-1 b: sum |L^-1 (A theta - b)|^2 = sum r^T M^-1 r, so any
 * least-squares method downstream (ols, rls, kf) minimises the dual-metric
 * objective with the metric frozen at V, the online variant the paper
 * leaves to future work. The metric columns are dropped; t, row, Y_*, b
 * and true_* are written.
 */
#ifndef TAGK_FILTER_WHITEN_H
#define TAGK_FILTER_WHITEN_H

#include "../formats/table.h"

/* Run; exits through cli_die on any failure, returns the exit status. */
int filter_whiten(const char *input, const tbl_options *in, const double *theta0, int n0, const char *outname);

#endif
