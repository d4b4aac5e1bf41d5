/*
 * estimate_batch.h: tagk-estimate --batch, one estimate from a whole
 * regressor stream, or one per segment of it, by a batch method of the
 * registry (lib/batch.h: ols, wls, ols-pc, wls-pc). Memory does not grow
 * with the log.
 */
#ifndef TAGK_ESTIMATE_BATCH_H
#define TAGK_ESTIMATE_BATCH_H

#include "batch_opts.h"

/* estimate_batch hands a method that keeps every sample to
 * estimate_samples (estimate_samples.h). */
int estimate_batch(const batch_opts *o, const char *input);

#endif
