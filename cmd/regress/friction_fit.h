/*
 * friction_fit.h: tagk-regress -m multibody --fit-friction: per joint, the
 * least-squares fit of the torque the rigid-body model does not explain,
 * r = tau - ID(q, qd, qdd; the model's parameters), by the chosen terms of
 * fv qd + fc s(qd) + fo (formats/friction.h). Each joint's friction
 * appears in its own row only, so the fit is one small problem per joint.
 */
#ifndef TAGK_FRICTION_FIT_H
#define TAGK_FRICTION_FIT_H

#include <stddef.h>
#include "../formats/friction.h"

enum { FF_VISCOUS = 1, FF_COULOMB = 2, FF_OFFSET = 4 };

typedef struct {
	int nj, kinds;
	double smooth;
	double G[FRICTION_MAX_JOINTS][9], g[FRICTION_MAX_JOINTS][3], rr[FRICTION_MAX_JOINTS];
	long n[FRICTION_MAX_JOINTS];
} friction_fit;

/* Parse "viscous,coulomb,offset" (any of them) into FF_* bits; exits on
 * an unknown word. */
int ffit_kinds(const char *opt, const char *arg);
/* The chosen terms' regressors at velocity qd (qd, s(qd), 1, in that order,
 * those in kinds) into x; returns how many. */
int ffit_terms(int kinds, double smooth, double qd, double *x);
void ffit_init(friction_fit *f, int nj, int kinds, double smooth);
/* Joint j's residual torque r at velocity qd. */
void ffit_add(friction_fit *f, int j, double qd, double r);
/* Solve into fr and sd (n x 3, 0 for terms not fitted) and describe the fit
 * in what; 0, or -1 with why in what (a term the data do not excite). */
int ffit_solve(const friction_fit *f, friction *fr, double (*sd)[3], char *what, size_t len);

#endif
