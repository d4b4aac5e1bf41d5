/*
 * regressor.h: rows of A and b from one measurement.
 *
 * Rigid body, Newton-Euler about the body origin O, body frame:
 *   f   = m a + alpha x mc + omega x (omega x mc)
 *   tau = I_O alpha + omega x (I_O omega) + mc x a
 * with a the specific force at O (what an IMU at O reads: acceleration minus
 * gravity), omega the angular velocity and alpha its time derivative.
 * [f; tau] = Y(a, omega, alpha) theta, Y 6 x 10 in the order of inertia.h.
 *
 * Mass only (time-varying-mass paper): f = m a, Y = a (3 x 1).
 */
#ifndef TAGK_REGRESSOR_H
#define TAGK_REGRESSOR_H

#include "inertia.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Y: 6 x 10 row-major. */
void tagk_regressor_rigid(const tagk_real a[3], const tagk_real omega[3],
    const tagk_real alpha[3], tagk_real Y[6 * TAGK_NPARAM]);
/* Y: 3 x 1. */
void tagk_regressor_mass(const tagk_real a[3], tagk_real Y[3]);

#ifdef __cplusplus
}
#endif

#endif
