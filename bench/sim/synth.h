/*
 * synth.h: a synthetic rigid-body log with known truth, for testing the
 * pipeline and for benchmarks. Not a simulator of closed-loop flight: the
 * motion is prescribed (sums of sinusoids in angular velocity and specific
 * force), and the body wrench is computed exactly from the Newton-Euler
 * equations for the current parameters, so a perfect estimator recovers
 * the truth exactly. A payload (a point mass) is attached at t_on and
 * released at t_off, changing m, c and I consistently.
 *
 * Every sample is a pure function of the configuration and its index, so
 * a log of any length streams in constant memory and the same seed gives
 * the same bytes everywhere.
 */
#ifndef TAGK_SYNTH_H
#define TAGK_SYNTH_H

#include <stdint.h>
#include "../../lib/inertia.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	uint64_t seed;
	tagk_real rate;          /* samples per second */
	tagk_real base[TAGK_NPARAM];   /* vehicle without payload */
	tagk_real payload_mass;  /* kg; 0 for no payload */
	tagk_real payload_pos[3];/* m, body frame */
	tagk_real t_on, t_off;   /* attach and release times, s */
	tagk_real omega_amp;     /* peak angular velocity per axis, rad/s */
	tagk_real accel_amp;     /* peak specific-force variation per axis, m/s^2 */
	tagk_real noise_acc, noise_gyro, noise_force, noise_torque; /* std devs; the
	                           angular acceleration gets noise_gyro * rate, as a
	                           finite difference of the gyro would */
} tagk_synth_config;

/* Crazyflie 2.1 body, payload of 30-50 % of its mass at 20-30 % of the arm
 * length in a random direction, attached in [4, 6] s and released in
 * [12, 14] s (the TAG-K paper's protocol), all drawn from seed. 100 Hz. */
void tagk_synth_defaults(tagk_synth_config *c, uint64_t seed);

typedef struct {
	tagk_real t;
	tagk_real acc[3], gyro[3], alpha[3];   /* measured (with noise) */
	tagk_real force[3], torque[3];         /* measured (with noise) */
	tagk_real truth[TAGK_NPARAM];          /* parameters in force */
} tagk_synth_sample;

/* Sample k (t = k / rate). */
void tagk_synth_at(const tagk_synth_config *c, long k, tagk_synth_sample *s);

#ifdef __cplusplus
}
#endif

#endif
