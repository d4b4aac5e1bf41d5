/*
 * armfit.h: tagk-regress -m multibody's model-fit check: can the unknown
 * body (with each joint's friction, when no friction file is given) explain
 * the torques the known links leave, to within the noise the log shows?
 *
 * Each force row k (one per generalized force) gives A (the unknown's ten
 * columns), the known part K = Y theta_known (+ the given friction) and the
 * measured effort tau_k, with b = tau_k - K. Per row the Gram matrix of
 * v = [A, x, K, tau_1 .. tau_nv] is kept (x the friction terms qd, sign qd,
 * 1 when friction is fitted), so that at the end the least-squares fit of
 * the whole log, and of a few alternative readings of it (each joint's
 * effort scaled by its own gain: a sign or a unit; two joints' efforts
 * exchanged), are exact, in bounded memory. The noise of row k is read from
 * its effort's fourth differences: for white noise of sd s, x[i-2] - 4 x[i-1] + 6 x[i]
 * - 4 x[i+1] + x[i+2] has sd s sqrt(70), and a motion sampled 20 or more
 * times a period contributes under 1 % of its amplitude; the median of its
 * absolute value (0.6745 sd) is robust to the Coulomb term's steps.
 */
#ifndef TAGK_ARMFIT_H
#define TAGK_ARMFIT_H

#include <stddef.h>
#include "../lib/tagk.h"

typedef struct armfit armfit;

/* nv rows per sample, the first off of them a free base's (no friction);
 * fit_friction: 1 to fit fv qd + fc s(qd) + fo per joint in the check
 * (smooth: the Coulomb smoothing velocity, 0 for sign). Dies out of memory. */
armfit *afit_new(int nv, int off, int fit_friction, double smooth);
/* One sample: A (nv x 10, row-major), the known part K (nv), the efforts
 * tau (nv, as logged, before any friction is subtracted) and qd (nv). */
void afit_add(armfit *f, double t, const double *A, const double *K, const double *tau, const double *qd);

/* What the check found, for the caller's messages. */
typedef struct {
	int nv, off, bad;          /* rows; rows that do not fit */
	int refuse;                /* the misfit is a large part of all the torques: not a usable log */
	double agg;                /* rms left over all rows / rms torque over all rows */
	double aggratio;           /* rms left over all rows / rms noise over all rows */
	double noise[TAGK_MB_MAX_DOF], res[TAGK_MB_MAX_DOF], ratio[TAGK_MB_MAX_DOF], rel[TAGK_MB_MAX_DOF], typ[TAGK_MB_MAX_DOF];
	int misfit[TAGK_MB_MAX_DOF];            /* 1: row k's residual is many times its noise and a large part of its torque */
	double gain[TAGK_MB_MAX_DOF];           /* per-row effort gains that fit best (the gain reading) */
	double gain_ratio;         /* the worst ratio under the gain reading */
	int swap_i, swap_j;        /* a pair whose exchange fits (-1: none) */
	double swap_ratio;         /* the worst ratio with it */
	double fv[TAGK_MB_MAX_DOF], fc[TAGK_MB_MAX_DOF];     /* the friction fitted in the check (fit_friction) */
	double qdrms[TAGK_MB_MAX_DOF];                     /* rms joint velocity (fit_friction) */
	double sdfv[TAGK_MB_MAX_DOF];                      /* fv's sd, given the unknown body */
	int fitted;                /* friction fitted in the check */
	long n;                    /* samples */
} armfit_result;

/* Judge; fills r. The unknown body is fitted per block of AFIT_BLOCK_S
 * seconds (so that a payload picked up or dropped does not misfit), and
 * each row's residual is the median over the blocks. A row misfits when its
 * residual rms is over AFIT_RATIO times its noise and over AFIT_REL of its
 * typical torque (its effort's rms, at least a tenth of the largest row's):
 * a warning. The log is refused when the rms left over all rows is over
 * AFIT_RATIO times their rms noise and over AFIT_REL_ALL of their rms
 * torque (a log without noise is judged by the second alone; a joint
 * that carries little torque, such as a wrist's, can misfit by a filter's
 * distortion without the log being wrong). */
enum { AFIT_RATIO = 20, AFIT_BLOCK_MIN = 50 };
#define AFIT_BLOCK_S 2.0
#define AFIT_REL 0.1
#define AFIT_REL_ALL 0.05
void afit_judge(armfit *f, armfit_result *r);
/* Say r on stderr: row k is named names[k] (a joint and its effort
 * column); what names the unknown and the robot. Returns r->bad. */
int afit_say(const armfit_result *r, const char *const *names, const char *what, const char *unit);
/* Flag friction fitted with the unknown (--friction-terms) that is not a
 * friction: fv below 0 by 3 sd, or |fc| over the joint's typical torque;
 * a caution the stream carries (cli_caution: tagk-report --strict fails). */
void afit_say_friction(const armfit_result *r, const char *const *names, const char *unit);
void afit_free(armfit *f);

#endif
