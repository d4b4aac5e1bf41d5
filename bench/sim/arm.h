/*
 * arm.h: paper 004's experiment in simulation: a 4-DoF arm under joint PD
 * control at 400 Hz holds an unknown object and shakes it (shake.h), or
 * moves it for longer; the object's inertial parameters are to be found
 * from the joint signals. Deterministic (everything random comes from the
 * seed and the object's index), without allocation.
 *
 * The paper's robot is SATYRR's arm, whose parameters it does not print;
 * chosen here (and written in the README):
 *   - the arm (tagk_arm_model): a fixed torso, then shoulder pitch (y),
 *     shoulder roll (x), upper-arm yaw (z), elbow pitch (y); upper arm and
 *     forearm 0.2 m each along their frames' -z; the grip 0.02 m beyond the
 *     forearm's end; links 0.3, 0.3, 0.6 and 0.4 kg as slender rods;
 *     home posture (-0.6, 0, 0, -1.2) rad: the forearm points forward;
 *   - the object (tagk_arm_object), the paper's "cuboids and steel weights":
 *     a uniform box of sides uniform in [0.05, 0.2] m and mass uniform in
 *     [0.1, 0.6] kg, its top face centred on the grip (it extends along
 *     the forearm's direction), plus a steel cube of side 0.03 m and mass
 *     uniform in [0, 1.2] kg anywhere inside it; a physical body, so the
 *     triangle inequalities hold (and are checked);
 *   - control: tau = Kp (q_des - q) + Kd (qd_des - qd) + g_arm(q) on the
 *     measured q, qd, with Kp (60, 60, 30, 30) N m/rad, Kd (2, 2, 1, 1)
 *     N m s/rad and the gravity of the arm alone (the object is unknown),
 *     held for each 1/400 s; the plant is integrated by RK4 at 4 steps per
 *     control period;
 *   - before every run the arm settles at home for 1 s (not logged);
 *   - the shake (S): 0.5 s of paper 004's eqs. 6-8 on the grip's x and y
 *     (world frame; z held), turned into joint references by the
 *     damped-least-squares inverse kinematics of eq. 9 (lambda 0.01, gain
 *     1, three steps per period); the long excitation (L): every joint
 *     follows home + 0.35 sin(2 pi f t) rad (f 0.31, 0.47, 0.71, 0.97 Hz,
 *     faded in over 1 s) for the given duration (10 s, as the paper's
 *     Table III times suggest);
 *   - noise: encoder noise on q (q_noise, rad) and on qd (qd_noise, rad/s),
 *     which the controller also sees; torque noise added to the commanded
 *     torque (tau_noise, N m), which the log does not see; viscous joint
 *     damping (damping, N m s/rad) that the estimators' model lacks.
 */
#ifndef TAGK_ARM_H
#define TAGK_ARM_H

#include <stdint.h>
#include "../../lib/multibody.h"
#include "../../lib/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_ARM_JOINTS = 4, TAGK_ARM_BODIES = 5, TAGK_ARM_HAND = 4 };
#define TAGK_ARM_RATE ((tagk_real)400)

typedef enum { TAGK_ARM_SHAKE, TAGK_ARM_LONG } tagk_arm_motion;

typedef struct {
	tagk_arm_motion motion;
	tagk_real duration;     /* s: 0.5 for the shake (TAGK_SHAKE_T), 10 for long */
	tagk_real q_noise;      /* rad, standard deviation (5e-4) */
	tagk_real qd_noise;     /* rad/s (5e-3) */
	tagk_real tau_noise;    /* N m (0.02) */
	tagk_real damping;      /* N m s/rad, unmodelled (0) */
	uint64_t seed;
} tagk_arm_config;

void tagk_arm_defaults(tagk_arm_config *c);

/* The arm (5 bodies, fixed base, gravity -9.81 z) and its inertias (10 x 5,
 * the hand, body TAGK_ARM_HAND, without the object). */
void tagk_arm_model(tagk_mb_model *m, tagk_real theta[TAGK_NPARAM * TAGK_ARM_BODIES]);
/* The grip point in the hand's frame, m. */
extern const tagk_real tagk_arm_grip[3];

/* Object number index of the distribution for seed: its ten parameters in
 * the hand's frame (inertia.h order). The same (seed, index) gives the same
 * object whatever else is drawn. */
void tagk_arm_object(uint64_t seed, long index, tagk_real theta[TAGK_NPARAM]);

/* What paper 004 estimates of an object, from theta (hand frame): out =
 * m, the centre of mass relative to the grip (hand axes), and the diagonal
 * of the inertia about the centre of mass (Ixx, Iyy, Izz). 0 if m is 0 or
 * a value is not finite. */
enum { TAGK_ARM_SUMMARY = 7 };
int tagk_arm_summary(const tagk_real theta[TAGK_NPARAM], tagk_real out[TAGK_ARM_SUMMARY]);
/* The inverse, with zero products of inertia, is the learned method's:
 * tagk_cnn_theta (cnn.h), whose grip is this arm's. */
/* 1 if a summary is physical: m > 0, the diagonal positive and obeying the
 * triangle inequalities (as the diagonal of any physical inertia does). */
int tagk_arm_summary_feasible(const tagk_real in[TAGK_ARM_SUMMARY]);

/* One logged sample, every 1/400 s. */
typedef struct {
	tagk_real t;
	tagk_real q[TAGK_ARM_JOINTS], qd[TAGK_ARM_JOINTS];   /* measured (with noise) */
	tagk_real tau[TAGK_ARM_JOINTS];                      /* commanded */
	tagk_real q_true[TAGK_ARM_JOINTS], qd_true[TAGK_ARM_JOINTS];
	tagk_real qdd_true[TAGK_ARM_JOINTS];                 /* at t, under the applied torque */
	tagk_real tau_applied[TAGK_ARM_JOINTS];              /* with noise, before damping */
} tagk_arm_sample;

/* Samples a run of cfg logs: duration * 400 + 1. */
long tagk_arm_samples(const tagk_arm_config *cfg);

/* Simulate object index (tagk_arm_object with cfg->seed) held by the arm,
 * into out (tagk_arm_samples(cfg) of them, at most max). TAGK_EINVAL for a
 * bad config or too small a buffer; TAGK_ENONFINITE if the simulation
 * diverges (it does not for the defaults). */
tagk_status tagk_arm_run(const tagk_arm_config *cfg, long index, tagk_arm_sample *out, long max);

/* Joint accelerations by central differences of the measured qd (one-sided
 * at the ends), what a robot without an accelerometer has: qdd (n x 4). */
void tagk_arm_differentiate(const tagk_arm_sample *s, long n, tagk_real *qdd);

#ifdef __cplusplus
}
#endif

#endif
