/*
 * estimate_wide.h: tagk-estimate --batch -a ols|wls on a whole-arm stream
 * (tagk-regress -m multibody --unknown all, with or without --base): any
 * number of Y_<name> columns, one estimate of every parameter with its
 * standard deviation, as lib/batch.h does for one body: normal equations
 * per row index r (joint r's rows: each its own noise), ols, or wls with
 * each index weighted by the inverse of its residual variance at the
 * ordinary fit; sd from the Newey-West sandwich Hw^-1 (N / (N - n)) c^2
 * Omega Hw^-1 over blocks of consecutive samples (lib/hac.h; the white
 * Hw^-1 (sum_r w_r^2 s_r^2 H_r) Hw^-1 for a stream of one sample).
 * The normal matrix is scaled to a unit diagonal before its Cholesky
 * factorisation (the base columns' norms differ by orders of magnitude).
 * Memory: n^2 doubles per row index, and the blocks' sums, at most 512
 * blocks of (n (n + 1) / 2 + n) doubles (times the row indices for wls)
 * within 64 MiB (at least 32 blocks): not growing with the log.
 */
#ifndef TAGK_ESTIMATE_WIDE_H
#define TAGK_ESTIMATE_WIDE_H

#include "batch_opts.h"

/* 1 if r is a whole-arm stream: Y_ columns but no Y_m. */
int estimate_wide_stream(tbl_reader *r);
/* Estimate from r (open, header read) and close it; returns the exit status. */
int estimate_wide(const batch_opts *o, tbl_reader *r);

#endif
