/*
 * estimate_samples.h: tagk-estimate --batch for the batch methods that keep
 * every sample (batch.h: solve_samples, e.g. dm; estimate_samples.c):
 * estimate_batch hands them here. The options are batch_opts.h's.
 */
#ifndef TAGK_ESTIMATE_SAMPLES_H
#define TAGK_ESTIMATE_SAMPLES_H

#include "batch_opts.h"

int estimate_samples(const batch_opts *o, const char *input);

#endif
