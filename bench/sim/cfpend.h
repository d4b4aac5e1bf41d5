/*
 * cfpend.h: paper 002's inertia-dominated system, a Crazyflie with a
 * pendulum hanging from a universal joint, flown by a geometric controller
 * along sinusoids of x, y, z and yaw at mutually non-harmonic frequencies.
 * Deterministic (everything random comes from the seed), without allocation.
 *
 * The tree (multibody.h): body 0 the Crazyflie, floating (frame at its
 * centre of mass; 0.035 kg and the inertia of ../shared/design.md); body 1
 * the universal joint's core, 0.02 m below, turning about the base's x
 * (alpha1; 2 g, compact); body 2 the pendulum, turning about the core's y
 * (alpha2): a 0.15 m rod of 6 g along -z. Coordinates (n = 8): the base's
 * body velocity [omega; v] (multibody.h's convention: angular first) and
 * the two joint rates; p = 30 parameters (10 per body, inertia.h order).
 * The paper prints none of these except the Crazyflie's type.
 *
 * Control, every sample (100 Hz, held between samples; RK4 at 1 ms): a
 * position PD with the reference's acceleration fed forward sets the
 * force F (world), the thrust is F along the body z, the attitude PD
 * (Lee's geometric SO(3) error) turns the body z toward F at the reference
 * yaw. The pendulum is not known to the controller: it swings. The
 * reference: x = 0.15 sin(2 pi 0.53 t + phi_x), y = 0.15 sin(2 pi 0.71 t +
 * phi_y), z = 1 + 0.1 sin(2 pi 0.37 t + phi_z), yaw = 0.5 sin(2 pi 0.29 t +
 * phi_yaw), each run's phases drawn from its seed (the paper's test runs
 * "start from a different phase"); runs of 35 s. The frequencies are high
 * enough (the pendulum's own is 1.6 Hz) that it swings by tenths of a
 * radian: slower references leave it hanging nearly still.
 *
 * What is logged, per sample: the configuration (base pose, joint angles),
 * qd and qdd (exact, or by central differences of the measured positions
 * and of those velocities), and tau = the commanded base wrench [n; (0, 0,
 * T)] and 0 at the passive joints. Mismatch knobs, none of which the model
 * has (all 0: every method recovers the truth): rotor drag, a force -k v
 * on the base (body frame); a thrust-map error, the thrust produced being
 * (1 + e) T; viscous joint friction; position noise on the measured pose
 * and joint angles (with differentiation on, it reaches qd and qdd).
 */
#ifndef TAGK_CFPEND_H
#define TAGK_CFPEND_H

#include <stdint.h>
#include "../../lib/multibody.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_CFP_N = 8, TAGK_CFP_BODIES = 3, TAGK_CFP_P = 30 };

typedef struct {
	tagk_real duration;     /* s (35) */
	tagk_real rate;         /* samples per second (100) */
	tagk_real rotor_drag;   /* N s/m (0) */
	tagk_real thrust_error; /* relative (0) */
	tagk_real joint_friction; /* N m s/rad, viscous (0) */
	tagk_real pos_noise;    /* m and rad (0) */
	int differentiate;      /* 1: qd, qdd by central differences of the measured positions */
	uint64_t seed;
} tagk_cfp_config;

void tagk_cfp_defaults(tagk_cfp_config *c);
/* The tree and its true parameters (10 x 3). */
void tagk_cfp_model(tagk_mb_model *m, tagk_real theta[TAGK_CFP_P]);

typedef struct {
	tagk_real t;
	tagk_real R[9], p[3], alpha[2];   /* measured: base pose (world <- base), joint angles */
	tagk_real qd[TAGK_CFP_N], qdd[TAGK_CFP_N]; /* measured */
	tagk_real tau[TAGK_CFP_N];        /* commanded */
	tagk_real qd_true[TAGK_CFP_N], qdd_true[TAGK_CFP_N];
} tagk_cfp_sample;

long tagk_cfp_samples(const tagk_cfp_config *cfg);
/* Fly into out (tagk_cfp_samples(cfg), at most max). TAGK_EINVAL for a bad
 * config or a short buffer, TAGK_ENONFINITE if the flight diverges. */
tagk_status tagk_cfp_run(const tagk_cfp_config *cfg, tagk_cfp_sample *out, long max);

#ifdef __cplusplus
}
#endif

#endif
