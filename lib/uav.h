/*
 * uav.h: the 4-DoF UAV of paper 001 (eqs. 26-32), whose mass the state-space
 * estimators (massest.h) track.
 *
 *   r' = v,   v' = R(q) (0, 0, T) / m + g,   q' = q (x) (0, w) / 2,   m' = 0
 *
 * Inputs u = (T, w): the commanded collective thrust along body z (N) and the
 * body angular velocity from the gyro (rad/s). Measurements y = (q, r, v),
 * as a VIO system would give them. World frame z up, g = (0, 0, -9.80665).
 *
 * The error state of every estimator is d = (dtheta, dr, dv, dm), 10 numbers:
 * dtheta a body-frame rotation vector (q [+] dtheta, so3.h), the rest
 * additive. The innovation y [-] h(x) is 9 numbers (dtheta, dr, dv).
 */
#ifndef TAGK_UAV_H
#define TAGK_UAV_H
#include "scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_UAV_NE = 10, TAGK_UAV_NY = 9 };

#define TAGK_UAV_G ((tagk_real)TAGK_G0)

typedef struct {
	tagk_real q[4], r[3], v[3], m;
} tagk_uav_state;

typedef struct {
	tagk_real thrust;  /* N, along body z */
	tagk_real w[3];    /* rad/s, body */
} tagk_uav_input;

typedef struct {
	tagk_real q[4], r[3], v[3];
} tagk_uav_meas;

/* Eq. 3: one explicit Euler step of dt with u held, the attitude advanced by
 * the exact exponential of w dt (so it stays a unit quaternion). */
void tagk_uav_propagate(tagk_uav_state *x, const tagk_uav_input *u, tagk_real dt);
/* Eq. 4: J = d f / d x in the error state at x, u (10 x 10, row-major). */
void tagk_uav_jacobian(const tagk_uav_state *x, const tagk_uav_input *u, tagk_real J[100]);
/* x [+] d, and d = a [-] b, on the 10-number error state. */
void tagk_uav_plus(tagk_uav_state *x, const tagk_real d[10]);
void tagk_uav_minus(const tagk_uav_state *a, const tagk_uav_state *b, tagk_real d[10]);
/* z = y [-] h(x), the 9-number innovation; d z / d dx is [I_9 0] to first order. */
void tagk_uav_innovation(const tagk_uav_meas *y, const tagk_uav_state *x, tagk_real z[9]);
/* 1 when every number of x is finite and the quaternion has unit length to
 * within 1e-3; the checks made on a measurement before it is used. */
int tagk_uav_meas_ok(const tagk_uav_meas *y);

#ifdef __cplusplus
}
#endif

#endif
