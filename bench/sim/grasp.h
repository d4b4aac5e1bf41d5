/*
 * grasp.h: paper 003's experiment: a manipulator holds an unknown cube and
 * moves it; its ten inertial parameters are to be estimated. Deterministic
 * (everything random comes from the seed), without allocation.
 *
 * The robot is any tree of multibody.h (the Panda of datasets/panda.model in
 * tagk-bench grasp), its last body the end effector; the cube is rigidly
 * held there. Ground: the base is fixed, gravity on. Orbit: the base is the
 * robot's base fused with a satellite of mass base_mass and inertia
 * base_inertia * 1 about its centre (the robot's base origin), floating, with
 * no gravity, starting at rest with zero momentum.
 *
 * What the paper lost in conversion and is chosen here (written in the
 * README too):
 *   - the motion (TAGK_GRASP_TASK, the default, the structure of the
 *     paper's eq. 28): the cube's centre moves with linear velocity
 *     v_i = 0.1 cos(2 pi f_i t) m/s, f = 0.13, 0.19, 0.23 Hz, and angular
 *     velocity w_i = 0.6 cos(2 pi g_i t) rad/s, g = 0.29, 0.37, 0.43 Hz,
 *     both in the robot's base frame (excursions of at most 0.12 m and
 *     0.33 rad about the start, inside the Panda's workspace), by joint
 *     velocity control qd = J^+ V (damped least squares, lambda 0.01,
 *     with a null-space pull of 1/s toward the home posture), q integrated
 *     by RK4 ("perfect tracking");
 *     TAGK_GRASP_JOINT: joints follow q_j = q_home_j + a_j sin(2 pi f_j t),
 *     a_j 0.5 rad (joints 1-4) and 0.8 rad (5-7), f_j 0.11, 0.17, 0.23,
 *     0.29, 0.37, 0.43, 0.53 Hz. Both start at the Panda's home posture;
 *     in orbit the base moves so that the momentum stays zero,
 *     nu_b = -M_bb^-1 M_bj qd_j, its pose integrated with the joints by
 *     RK4 at the step (1 ms or finer);
 *   - the cube: side 0.2 m, uniform, its centre 0.1 m beyond the flange
 *     along the end effector's z (0.107 m from its origin, as the Panda's
 *     flange is), so 0.207 m;
 *   - the satellite: 100 kg, 4 kg m^2 about each axis (a uniform 0.5 m cube);
 *   - samples every 1 ms (the Panda's 1 kHz control loop) for 20 s;
 *   - measured joint torques: inverse dynamics of the true system times
 *     (1 + 0.05 e), e standard normal per joint and sample ("5 % noise");
 *     the base wrench of a floating base is 0, known exactly;
 *   - measured velocities qdm: the true ones plus qd_noise (joints) or
 *     base_noise (a floating base's twist, first) times a standard normal
 *     each (default 0: the truth; tagk-bench grasp-table sets its own);
 *   - robot error (eqs. 20-27): each robot body's mass, centre-of-mass
 *     coordinates and principal moments are scaled by (1 + rho u), u uniform
 *     in [-1, 1] each, and its principal axes turned by rho u pi about a
 *     random axis; redrawn until the triangle inequalities hold. The
 *     perturbed robot is the model the estimator knows; the simulated
 *     robot is the nominal one.
 */
#ifndef TAGK_GRASP_H
#define TAGK_GRASP_H

#include <stdint.h>
#include "../../lib/multibody.h"
#include "../../lib/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TAGK_GRASP_TASK, TAGK_GRASP_JOINT } tagk_grasp_motion;

typedef struct {
	tagk_grasp_motion motion;
	int floating;            /* 1: orbit (floating base, no gravity); 0: ground */
	tagk_real target_mass;   /* kg */
	tagk_real target_side;   /* cube side, m (0.2) */
	tagk_real target_offset; /* its centre along the end effector's z, m (0.207) */
	tagk_real robot_error;   /* rho (0 or 0.025) */
	tagk_real torque_noise;  /* relative (0.05) */
	tagk_real qd_noise;      /* absolute, on the joints' velocities, rad/s (0) */
	tagk_real base_noise;    /* absolute, on a floating base's twist, rad/s and m/s (0) */
	tagk_real base_mass, base_inertia; /* the satellite (100 kg, 4 kg m^2) */
	tagk_real duration, dt;  /* s: 20 and 0.001 */
	uint64_t seed;
} tagk_grasp_config;

void tagk_grasp_defaults(tagk_grasp_config *c);

typedef struct {
	tagk_grasp_config cfg;
	tagk_mb_model model;     /* the robot, with the base as cfg says */
	tagk_real theta_true[TAGK_NPARAM * TAGK_MB_MAX_BODIES];  /* robot + cube on the end effector */
	tagk_real theta_known[TAGK_NPARAM * TAGK_MB_MAX_BODIES]; /* the perturbed robot, no cube */
	tagk_real target[TAGK_NPARAM]; /* the cube, end-effector frame */
	int ee, nj, nv;
	long step, steps;
	tagk_real R[9], p[3];    /* base pose (world <- base) */
	tagk_real q[TAGK_MB_MAX_BODIES]; /* joint positions, integrated (TAGK_GRASP_TASK) */
	tagk_real cube_R0[9], cube_p0[3]; /* the cube's pose at the start, base frame */
	tagk_rng rng;
} tagk_grasp;

/* One sample: the state and the measured generalized forces. */
typedef struct {
	tagk_real t;
	tagk_real q[TAGK_MB_MAX_BODIES], qd[TAGK_MB_MAX_DOF], qdd[TAGK_MB_MAX_DOF]; /* qd, qdd: nv, base first */
	tagk_real R[9], p[3];    /* base pose */
	tagk_real tau[TAGK_MB_MAX_DOF]; /* measured (base rows 0 for a floating base) */
	tagk_real qdm[TAGK_MB_MAX_DOF]; /* measured velocities (qd plus noise) */
} tagk_grasp_sample;

/* Set up from the robot (its base joint is overridden by cfg->floating,
 * and its gravity) with inertias theta_robot (10 nb). TAGK_EINVAL for a
 * robot of other than 7 joints in a chain, or a bad config. */
tagk_status tagk_grasp_init(tagk_grasp *g, const tagk_grasp_config *cfg, const tagk_mb_model *robot,
    const tagk_real *theta_robot);
/* The next sample; TAGK_EZERO after the last. */
tagk_status tagk_grasp_next(tagk_grasp *g, tagk_grasp_sample *s);

#ifdef __cplusplus
}
#endif

#endif
