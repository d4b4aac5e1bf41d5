/*
 * friction_fwl.h: tagk-regress -m multibody --friction-terms: joint friction
 * estimated together with the payload, in one least-squares problem, by
 * concentrating the friction unknowns out of the rows (the Frisch-Waugh-
 * Lovell theorem). Joint j's row reads A theta + x_j^T phi_j = b with x_j
 * the chosen terms (qd, s(qd), 1) and phi_j its friction. Over the whole
 * log, phi_j = G_j^-1 sum x (b - A theta) with G_j = sum x x^T, and putting
 * that back leaves rows A - x^T K_j, b - x^T k_j (K_j = G_j^-1 sum x A,
 * k_j = G_j^-1 sum x b) in theta alone, whose least squares solution is the
 * theta of the joint problem, exactly; every method (the -pc ones included,
 * which then constrain the inertial block only) reads them as it reads any
 * rows. Two passes: the rows are spooled to a temporary file (bounded
 * memory), then written projected.
 */
#ifndef TAGK_FRICTION_FWL_H
#define TAGK_FRICTION_FWL_H

#include <stdio.h>
#include "friction_fit.h"
#include "../formats/sink.h"

typedef struct {
	int nj, off, ncol, kinds;
	double smooth;
	FILE *spool;
	long rows;
	double G[FRICTION_MAX_JOINTS][9], XA[FRICTION_MAX_JOINTS][3 * 11]; /* sum x x^T; sum x [A b] */
	double H[121];  /* the projected rows' normal equations [A b]^T [A b], for the note */
} friction_fwl;

/* Start: nj joints after off base rows, rows of ncol values (t, row, Y_*
 * (10), b, then the rest), the terms (FF_* bits) and the Coulomb smoothing. */
void fwl_init(friction_fwl *f, int nj, int off, int ncol, int kinds, double smooth);
/* One output row (ncol values) and its joint velocity (rows k >= off). */
void fwl_add(friction_fwl *f, const double *orow, double qd);
/* Write every row projected to out; then on stderr the terms, and the
 * friction at the rows' own least-squares theta. */
void fwl_finish(friction_fwl *f, sink *out);

#endif
