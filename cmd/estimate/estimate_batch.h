/*
 * estimate_batch.h: tagk-estimate --batch, one estimate from a whole
 * regressor stream, or one per segment of it, by a batch method of the
 * registry (lib/batch.h: ols, wls, ols-pc, wls-pc). Memory does not grow
 * with the log.
 */
#ifndef TAGK_ESTIMATE_BATCH_H
#define TAGK_ESTIMATE_BATCH_H

#include "../formats/table.h"
#include "../lib/method.h"

typedef struct {
	const tagk_method *method; /* of kind TAGK_KIND_BATCH */
	const char *segments; /* NULL: the whole stream; "truth": at every change of
	                       * the true_* columns; "auto": from the data; else increasing times T1,T2,...
	                       * at which a new segment starts */
	const char *weight;   /* a column of per-row weights, or NULL */
	const char *outname;
	tbl_options in;
	const double *theta0; /* the regularised methods' prior (ntheta0 values), or NULL */
	int ntheta0;
	double prior_weight;  /* and its weight */
	int raw;              /* rigid body: no projection onto the physical bodies */
	int quiet;            /* no note of the projections */
	/* --segment auto (estimate_changes.h): */
	double penalty;       /* per change, in sigma^2 units; < 0: (n + 1) ln(rows) */
	double min_z, min_rel; /* a change in m below min_z sd of the difference or
	                        * min_rel of the larger m is merged away */
	const double *noise_sd; /* per row index (nnoise values), or NULL: estimated */
	int nnoise;
} batch_opts;

int estimate_batch(const batch_opts *o, const char *input);
/* The same for a method that keeps every sample (estimate_samples.c). */
int estimate_samples(const batch_opts *o, const char *input);

#endif
