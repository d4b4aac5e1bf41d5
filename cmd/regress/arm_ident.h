/*
 * arm_ident.h: tagk-regress -m multibody --identify and --predict
 * (arm_ident.c): a whole arm from its own joint log.
 *
 * --identify: every moving link's ten parameters, and with
 * --friction-terms each joint's friction, by weighted least squares over
 * the whole log subject to every link's pseudo-inertia being positive
 * semidefinite, pulled toward the description's values (lib/armpc.h):
 * the data fix what they identify, the description the rest. The rows are
 * reduced to normal equations per joint as they come (memory does not
 * grow with the log); each joint's rows are weighted by the inverse of its
 * residual variance at a first, unweighted solve (paper 002's recipe).
 * Writes the identified model file (-o), and on request the description
 * (URDF or MJCF) with its inertials replaced and the friction file.
 *
 * --predict: the joint torques the description (and --friction) predict
 * for each sample of the log, beside the measured ones, and on stderr the
 * RMS residual of each joint.
 */
#ifndef TAGK_ARM_IDENT_H
#define TAGK_ARM_IDENT_H

#include "../formats/friction.h"
#include "../formats/mbmodel.h"

enum { ARM_IDENTIFY = 1, ARM_PREDICT = 2 };

typedef struct {
	int mode;                /* ARM_IDENTIFY or ARM_PREDICT */
	int kinds;               /* identify: friction terms (FF_* of friction_fit.h) */
	double smooth;           /* their Coulomb smoothing velocity (0: sign) */
	double prior_weight;     /* identify: the prior's weight per sample */
	int prior_metric;        /* 0 euclid, 1 pullback, 2 logdet (pcls.h's order) */
	const char *write_robot; /* identify: the description rewritten, or NULL */
	const char *write_friction; /* identify: the friction file, or NULL */
	const char *robot;       /* the description's path as given (messages, write-back) */
	const char *robot_path;  /* ... as found */
	const char *outname;     /* -o */
} arm_opts;

typedef struct arm_ident arm_ident;

/* Parse --prior-metric's word; exits on another. */
int arm_prior_metric(const char *arg);
/* Start for the model mm (a fixed base, checked here: exits otherwise);
 * fr the friction subtracted from the log's torques, or NULL. */
arm_ident *arm_new(const arm_opts *o, const mbmodel *mm, const friction *fr, const char *input);
/* One sample: its kinematics, the joint velocities qd (nj) and the
 * torques tau (nj, friction of fr already subtracted). */
void arm_add(arm_ident *a, double t, const tagk_mb_kin *kin, const tagk_real *qd, const tagk_real *tau);
/* At the end of the log: solve and write (identify), or commit the
 * stream and print the residuals (predict). Frees a. */
void arm_finish(arm_ident *a);

#endif
