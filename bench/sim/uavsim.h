/*
 * uavsim.h: flights of the 4-DoF UAV (uav.h) whose mass changes, for the
 * benchmark of paper 001: five trajectories (random, loop, lemniscate,
 * zigzag, square) times five mass behaviours, repeatable by seed.
 *
 * The vehicle (1 kg by default) is commanded in collective thrust and body
 * rates, as in the paper. The controller is ours (the paper used MPC): PID
 * on position with the reference's acceleration fed forward, using the
 * nominal mass (the integral term absorbs the payload), a desired attitude
 * from the thrust direction with zero yaw, and body rates proportional to
 * the attitude error. It acts on the noisy measurements, as a VIO-fed
 * controller would. The truth is integrated with RK4 (4 sub-steps per
 * period, the mass evaluated at each stage), the attitude exactly.
 *
 * Mass behaviours, as fractions of the nominal mass over a flight of
 * duration D (amplitudes and times jittered by the seed by about 10 % and
 * 3 % of D):
 *   0 constant
 *   1 drain: steady decrease to 0.7 from 0.1 D to 0.9 D (a sprayer's tank)
 *   2 swaps: abrupt steps +0.3 at 0.2 D, -0.15 at 0.4 D, +0.3 at 0.6 D and
 *     back to 1 at 0.8 D (objects picked up and put down)
 *   3 drop: one step to 0.75 at 0.5 D (a payload released)
 *   4 load: ramp up to 1.3 from 0.25 D to 0.75 D (loading)
 * The paper blames its lemniscate's poor estimates on control actions
 * "very close to the limits of the robot" that the vehicle cannot follow;
 * thrust_tau, thrust_max and speed (an aggressive lemniscate) let that be
 * tested: the log then holds a commanded thrust the vehicle did not produce.
 *
 * The paper shows its behaviours only as plots (Fig. 4); its tables have
 * the largest errors in row 2, where the text says the mass "is decreasing
 * and growing multiple times", so that is row 2 here as well.
 */
#ifndef TAGK_UAVSIM_H
#define TAGK_UAVSIM_H
#include <stdint.h>
#include "../../lib/rng.h"
#include "../../lib/status.h"
#include "../../lib/uav.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_UAVTRAJ_RANDOM, TAGK_UAVTRAJ_LOOP, TAGK_UAVTRAJ_LEMNISCATE, TAGK_UAVTRAJ_ZIGZAG,
	TAGK_UAVTRAJ_SQUARE, TAGK_UAVTRAJ_COUNT };
enum { TAGK_MASS_CONSTANT, TAGK_MASS_DRAIN, TAGK_MASS_SWAPS, TAGK_MASS_DROP, TAGK_MASS_LOAD,
	TAGK_MASSB_COUNT };
extern const char *const tagk_uavtraj_names[TAGK_UAVTRAJ_COUNT];
extern const char *const tagk_massb_names[TAGK_MASSB_COUNT];

typedef struct {
	int traj;             /* TAGK_UAVTRAJ_* */
	int behaviour;        /* TAGK_MASS_* (0-4) */
	uint64_t seed;
	tagk_real duration;   /* s (20) */
	tagk_real dt;         /* control and log period, s (0.01) */
	tagk_real m_nom;      /* nominal mass, kg (1) */
	tagk_real mass_scale; /* the mass changes' amplitudes times this (1) */
	/* sensor noise, standard deviations per sample */
	tagk_real sd_att;     /* rad (0.005) */
	tagk_real sd_pos;     /* m (0.01) */
	tagk_real sd_vel;     /* m/s (0.02) */
	tagk_real sd_gyro;    /* rad/s (0.005) */
	tagk_real sd_acc;     /* m/s^2, the accelerometer (0.05) */
	tagk_real sd_thrust;  /* relative error of the thrust actually produced (0) */
	tagk_real noise_ar1;  /* the accelerometer's and gyro's noise an AR(1) process
	                       * of this coefficient per sample, its sd kept (0: white) */
	tagk_real state_ar1;  /* the logged state's (q, r, v) noise the same, from the
	                       * same draws, while the controller flies on the white
	                       * one: an onboard estimator's output, whose errors are
	                       * correlated, logged beside the sensors (0: white) */
	/* actuators, which the logged (commanded) thrust does not show */
	tagk_real thrust_tau; /* s: first-order lag of the thrust produced (0: none) */
	tagk_real thrust_max; /* the thrust produced saturates at this many nominal
	                       * weights (0: only the controller's own 2.5) */
	tagk_real speed;      /* time scale of the reference: 2 flies it twice as fast,
	                       * with 4 times the acceleration (1) */
} tagk_uavsim_config;

typedef struct {
	tagk_real t;
	tagk_uav_input u;     /* thrust command and gyro reading, held from t to t + dt */
	tagk_uav_meas y;      /* noisy (q, r, v) at t */
	tagk_real acc[3];     /* accelerometer (body specific force) over the same period */
	tagk_real m;          /* true mass at t */
	tagk_uav_state x;     /* true state at t (x.m = m) */
	tagk_real ref[3];     /* reference position at t */
} tagk_uavsim_sample;

typedef struct {
	tagk_uavsim_config c;
	tagk_rng rng;
	tagk_real tp[24];     /* trajectory parameters */
	tagk_real mp[8];      /* mass-profile parameters */
	tagk_uav_state x;     /* truth (x.m unused) */
	tagk_real integ[3];   /* the controller's integral of position error */
	tagk_real thrust;     /* the thrust the lagging actuator produces */
	tagk_real ar_acc[3], ar_gyro[3]; /* the coloured noises' states */
	tagk_real ar_att[3], ar_pos[3], ar_vel[3]; /* the logged state's (state_ar1) */
	long k, steps;
} tagk_uavsim;

void tagk_uavsim_defaults(tagk_uavsim_config *c, int traj, int behaviour, uint64_t seed);
/* TAGK_EINVAL for a bad configuration. */
tagk_status tagk_uavsim_init(tagk_uavsim *s, const tagk_uavsim_config *c);
/* Samples in the flight: duration / dt + 1. */
long tagk_uavsim_steps(const tagk_uavsim *s);
/* The next sample, then the truth advanced by one period. TAGK_EINVAL past
 * the last sample; TAGK_EDIVERGED if the flight leaves the envelope (the
 * state not finite or more than 10 m from the reference). */
tagk_status tagk_uavsim_next(tagk_uavsim *s, tagk_uavsim_sample *out);
/* The true mass at time t, and the reference position, velocity and
 * acceleration, of the flight s was initialised for. */
tagk_real tagk_uavsim_mass(const tagk_uavsim *s, tagk_real t);
void tagk_uavsim_reference(const tagk_uavsim *s, tagk_real t, tagk_real p[3], tagk_real v[3],
    tagk_real a[3]);

#ifdef __cplusplus
}
#endif

#endif
