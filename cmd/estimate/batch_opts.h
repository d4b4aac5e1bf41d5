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
	double min_shift;     /* m: a change whose centre of mass moves this far (and
	                       * min_z sd) is kept whatever its m; 0: m alone */
	const char *robot;    /* a whole-arm stream's -pc prior: the description (estimate_widepc.h) */
	int no_fit_check;     /* --no-fit-check: no model-fit check after estimation (rowfit.h) */
	int verbose;          /* -v: the check's figures */
} batch_opts;

#endif
