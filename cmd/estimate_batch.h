/*
 * estimate_batch.h: tagk-estimate's batch methods, one estimate from a whole
 * regressor stream, or one per segment of it.
 *
 *   ols      ordinary least squares
 *   wls      weighted least squares, paper 002's recipe: an ordinary fit
 *            first, then each row of a sample (row 0, 1, ... of the model)
 *            weighted by the inverse of its residual variance
 *   ols-pc   ols subject to physical consistency (lib/pcls.h)
 *   wls-pc   wls subject to physical consistency
 *
 * Memory does not grow with the log: the stream is reduced to normal
 * equations per row index (H_r = sum y y^T, h_r = sum y b, c_r = sum b^2),
 * from which the residual variances and the weighted system follow.
 */
#ifndef TAGK_ESTIMATE_BATCH_H
#define TAGK_ESTIMATE_BATCH_H

#include "../formats/table.h"

typedef struct {
	const char *method;   /* ols, wls, ols-pc, wls-pc */
	const char *segments; /* NULL: the whole stream; "truth": at every change of
	                       * the true_* columns; else increasing times T1,T2,...
	                       * at which a new segment starts */
	const char *outname;
	tbl_options in;
} batch_opts;

/* 1 if name is a batch method. */
int batch_method(const char *name);
/* The one-line list of batch methods for --list. */
void batch_list(void);
int estimate_batch(const batch_opts *o, const char *input);

#endif
