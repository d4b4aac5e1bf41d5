/*
 * batch_opts.h: the options of tagk-estimate --batch, which estimate_batch
 * (estimate_batch.h) and estimate_samples (estimate_samples.h) both read.
 */
#ifndef TAGK_BATCH_OPTS_H
#define TAGK_BATCH_OPTS_H

#include "../formats/table.h"
#include "../lib/method.h"

typedef struct {
	const tagk_method *method; /* of kind TAGK_KIND_BATCH */
	const char *segments; /* NULL: the whole stream; "truth": at every change of
	                       * the true_* columns; else increasing times T1,T2,...
	                       * at which a new segment starts */
	const char *weight;   /* a column of per-row weights, or NULL */
	const char *outname;
	tbl_options in;
	const double *theta0; /* the regularised methods' prior (ntheta0 values), or NULL */
	int ntheta0;
	double prior_weight;  /* and its weight */
	int raw;              /* rigid body: no projection onto the physical bodies */
	int quiet;            /* no note of the projections */
} batch_opts;

#endif
