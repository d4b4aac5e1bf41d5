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

/* Savitzky-Golay weights for samples at irregular times: the deriv-th
 * derivative at t0 of the least-squares polynomial of degree order through
 * the n points (t[i], y[i]) is sum w[i] y[i] (w: n). deriv 0 smooths.
 * Order at most TAGK_SG_MAX_ORDER. Returns 0, or -1 when the fit is not
 * determined: n <= order, deriv > order, or times too close together for
 * the degree (the normal equations' pivot under 1e-12 of their scale).
 * Evenly spaced samples centred on t0 give the classical zero-phase
 * filter; the weights reproduce any polynomial of degree <= order exactly. */
#define TAGK_SG_MAX_ORDER 6
int tagk_sg_weights(int n, const double *t, double t0, int order, int deriv, double *w);

#ifdef __cplusplus
}
#endif

#endif
