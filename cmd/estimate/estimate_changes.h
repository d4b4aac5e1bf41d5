/*
 * estimate_changes.h: tagk-estimate --batch --segment auto: the times of
 * the changes chosen from the data (lib/changepoint.h), one estimate per
 * segment by the batch method, and a 95 % interval for each change time.
 *
 * The stream is reduced to blocks of k consecutive samples, each holding
 * the sums of each row index (k doubles when the blocks reach 16384, so
 * memory is bounded: about 3 kB per block for a rigid body's 6 rows). The
 * cost of a segment is its least-squares residual weighted by 1 / sigma_r^2
 * per row index r (sigma_r given, or the median over windows of the
 * ordinary fit's residual variance: robust to the windows a change spoils).
 */
#ifndef TAGK_ESTIMATE_CHANGES_H
#define TAGK_ESTIMATE_CHANGES_H

#include "estimate_batch.h"

int estimate_changes(const batch_opts *o, const char *input);

#endif
