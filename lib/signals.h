/*
 * signals.h: from a log's raw signals to the regressor's inputs, in double
 * (log times and sums want it): the body wrench of a multirotor from its
 * rotors' thrusts, and the angular acceleration from the gyro by a
 * least-squares slope.
 */
#ifndef TAGK_SIGNALS_H
#define TAGK_SIGNALS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Body force f and torque tau about the origin of n rotors with thrusts
 * T[i] (N) along body z at positions pos[i] (m, body), spin dir[i] (+1 or -1:
 * the sign of the reaction torque about z) and reaction torque kappa per
 * newton: f = (0, 0, sum T), tau = sum pos_i x (0, 0, T_i) + dir_i kappa T_i z. */
void tagk_rotor_wrench(int n, const double (*pos)[3], const double *dir, double kappa, const double *T,
    double f[3], double tau[3]);

/* The least-squares slope d x / d t of k signals over n >= 2 samples:
 * x is n x k row-major, t increasing; out (k). For samples evenly spaced
 * about the middle one the slope of a quadratic is its derivative there. */
void tagk_slope(int n, const double *t, int k, const double *x, double *out);

#ifdef __cplusplus
}
#endif

#endif
