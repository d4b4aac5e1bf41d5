/*
 * swimmer.h: paper 002's drag-dominated system, a planar LandSalp-like
 * robot: three units in a chain joined by two passive joints, each pushed
 * by its own wheel, moving through a resistive medium where drag, not
 * inertia, balances the forces. Deterministic (everything random comes
 * from the seed), without allocation.
 *
 * Coordinates (n = 5): the head unit's body velocity xi = (vx, vy, omega)
 * in its own frame (m/s, m/s, rad/s), then the joint rates (alpha1',
 * alpha2'); the head's pose (x, y, theta) and the joint angles are the
 * configuration. The units are L = 0.3 m long; unit 1 hangs behind the
 * head at joint 1, unit 2 behind unit 1 at joint 2, each unit's frame at
 * its centre, x along it.
 *
 * The metric (eq. 3's drag matrix), affine in the p = 11 parameters
 * pi = (cx_b, cy_b, ct_b for units b = 0, 1, 2; d_1, d_2):
 *   M(alpha, pi) = sum_b J_b(alpha)^T diag(cx_b, cy_b, ct_b) J_b(alpha)
 *                  + diag(0, 0, 0, d_1, d_2),
 * J_b the Jacobian from the coordinates to unit b's body velocity, so that
 * the dynamics are M qd = tau, with tau = sum_b J_b^T u_b - K alpha: the
 * wheels' forces (unit b's wheel pushes along direction beta_b in its frame:
 * 90, 0 and 90 degrees) and the joints' springs (K = 0.1 N m/rad, known:
 * the passive joints would otherwise wind up without bound), and the inverse-dynamics regressor Y(alpha, qd) = [M_1 qd ...
 * M_11 qd], Y pi = tau.
 *
 * Chosen here (the paper prints no parameter): cx 1.2, 1.0, 1.2 N s/m
 * along each unit, cy 4.0, 3.5, 4.0 N s/m across it, ct 0.05, 0.04, 0.05
 * N m s, joint damping 0.02 N m s; wheel forces up to about 1 N.
 * Excitation (training): 8 segments of 20 s, each wheel u_b = A sin(2 pi f
 * t + phase) with amplitude, frequency (0.1-0.5 Hz) and phase drawn per
 * segment. Test gaits (20 s each): forward (the middle wheel pushes, the
 * others oscillate in antiphase), backward, left, right (the side wheels
 * push together) and turning (the side wheels push against each other),
 * each with an oscillation at 0.25 Hz that swings the joints.
 *
 * Mismatch knobs (all 0 gives a perfect model: every consistent method then
 * recovers pi exactly, which is a test, not a result): position noise on
 * the pose and the joint angles, velocities by central differences of the
 * noisy positions instead of exact, Coulomb friction in the joints that the
 * model lacks, and force noise on the wheels that the log does not see.
 */
#ifndef TAGK_SWIMMER_H
#define TAGK_SWIMMER_H

#include <stdint.h>
#include "../../lib/scalar.h"
#include "../../lib/status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_SWIM_N = 5, TAGK_SWIM_P = 11, TAGK_SWIM_UNITS = 3 };

typedef enum {
	TAGK_SWIM_TRAIN,   /* the 8 excitation segments, one after another */
	TAGK_SWIM_FORWARD, TAGK_SWIM_BACKWARD, TAGK_SWIM_LEFT, TAGK_SWIM_RIGHT, TAGK_SWIM_TURN
} tagk_swim_gait;

typedef struct {
	tagk_swim_gait gait;
	tagk_real rate;          /* samples per second (20) */
	tagk_real pos_noise;     /* m and rad, standard deviation (0) */
	int differentiate;       /* 1: qd by central differences of the measured positions */
	tagk_real friction;      /* joint Coulomb friction, N m (0) */
	tagk_real force_noise;   /* N on each wheel, unseen (0) */
	uint64_t seed;
} tagk_swim_config;

void tagk_swim_defaults(tagk_swim_config *c);
/* The true parameters. */
void tagk_swim_truth(tagk_real pi[TAGK_SWIM_P]);

/* Unit b's Jacobian (3 x 5, row-major) at joint angles a1, a2. */
void tagk_swim_jacobian(tagk_real a1, tagk_real a2, int b, tagk_real J[3 * TAGK_SWIM_N]);
/* M(alpha, pi) (5 x 5). */
void tagk_swim_metric(tagk_real a1, tagk_real a2, const tagk_real pi[TAGK_SWIM_P], tagk_real M[25]);
/* Its derivative in each parameter: Mj (11 x 5 x 5), M = sum_j pi_j Mj. */
void tagk_swim_metric_parts(tagk_real a1, tagk_real a2, tagk_real Mj[TAGK_SWIM_P * 25]);
/* Y (5 x 11) with Y pi = M(alpha, pi) qd. */
void tagk_swim_regressor(tagk_real a1, tagk_real a2, const tagk_real qd[TAGK_SWIM_N], tagk_real Y[5 * TAGK_SWIM_P]);

/* One logged sample. */
typedef struct {
	tagk_real t;
	tagk_real pose[3], alpha[2];    /* measured: x, y, theta; joint angles */
	tagk_real qd[TAGK_SWIM_N];      /* measured (exact, or differentiated) */
	tagk_real tau[TAGK_SWIM_N];     /* generalized force of the commanded wheel forces */
	tagk_real qd_true[TAGK_SWIM_N];
	tagk_real alpha_true[2];
} tagk_swim_sample;

/* Samples a run of cfg logs. */
long tagk_swim_samples(const tagk_swim_config *cfg);
/* Simulate into out (tagk_swim_samples(cfg) of them, at most max).
 * TAGK_EINVAL for a bad config or a short buffer. */
tagk_status tagk_swim_run(const tagk_swim_config *cfg, tagk_swim_sample *out, long max);

#ifdef __cplusplus
}
#endif

#endif
