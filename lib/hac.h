/*
 * hac.h: heteroskedasticity- and autocorrelation-consistent (HAC) long-run
 * variances, for intervals whose residuals are not white.
 *
 * For a series of n-vectors g_0 .. g_{T-1} of mean zero (scores of a
 * least-squares fit, sample by sample or summed over blocks of samples),
 * the Newey-West (1987) estimate of the long-run covariance
 * sum_{j=-inf}^{inf} E[g_t g_{t-j}^T] (times T) is
 *
 *   Omega = G_0 + sum_{j=1}^{B} (1 - j / (B + 1)) (G_j + G_j^T),
 *   G_j = sum_{t=j}^{T-1} g_t g_{t-j}^T,
 *
 * the Bartlett kernel, positive semidefinite for every B. The bandwidth B
 * comes from the data by Andrews' (1991) plug-in rule for that kernel,
 * with the series taken as an AR(1): on a scalar series s_t (for vectors,
 * the sum of the components, each divided by its own sd), with sigma_j =
 * (1/T) sum s_t s_{t-j} and rho = sigma_1 / sigma_0 (within +-0.999),
 *
 *   alpha = 4 rho^2 / ((1 - rho)^2 (1 + rho)^2),
 *   B     = floor(1.1447 (alpha T)^(1/3)),
 *
 * Newey and West's (1994) rule, used before, estimates the same alpha from
 * floor(4 (T / 100)^(2/9)) lags only (5 for 500 values): on a series
 * correlated over tens of values (AR(1) 0.98 sampled at 100 Hz) it saw a
 * tenth of the correlation and its intervals held the truth in 80 % of
 * flights (tagk-bench coverage), 84.5 % with this rule and 90.5 % with
 * the fixed-b widening below (tagk_hac_widen). B is capped at T - 1 (and
 * at the caller's bound). Nothing allocates.
 */
#ifndef TAGK_HAC_H
#define TAGK_HAC_H

#ifdef __cplusplus
extern "C" {
#endif

/* Andrews' (1991) AR(1) Bartlett bandwidth (above) for the scalar series s (T
 * values), at most bmax (and T - 1); 0 for T < 2 or a series of zeros. */
int tagk_hac_bandwidth(int T, const double *s, int bmax);
/* The same from the series' autocovariances sigma[0 .. nlag] (sigma_j as
 * above), for a series kept only as running sums. */
int tagk_hac_bandwidth_acov(int T, const double *sigma, int nlag, int bmax);
/* The 95 % interval's widening for an sd from a Bartlett long-run variance
 * of bandwidth B over T values: Kiefer and Vogelsang's (2005) fixed-b
 * critical value of the two-sided 5 % t-test, with b = (B + 1) / T,
 *   c(b) = 1.96 + 2.9694 b + 0.4160 b^2 - 0.5324 b^3,
 * over 1.96 (1 for B = 0 or T < 2; b at most 1). The estimate of the
 * long-run variance is itself random and, its mean removed from the same
 * values, biased low, the more so the larger B / T; the critical value
 * holds both, so that sd times this is the sd whose 1.96 multiple is the
 * 95 % interval. */
double tagk_hac_widen(int B, long T);
/* Omega (n x n, row-major) of the series G (T rows of n, row-major) with
 * bandwidth B (above; not divided by T). */
void tagk_hac_cov(int T, int n, const double *G, int B, double *Omega);
/* The bandwidth of the vector series G (T x n): the rule above on the sum
 * of its components, each divided by its root mean square (a component
 * that is all zeros left out), at most bmax. Only the first 64 components
 * enter the sum (the scales sit on the stack: nothing allocates); a caller
 * with more, as the whole arm's, forms its own scalar series and calls
 * tagk_hac_bandwidth. */
int tagk_hac_bandwidth_vec(int T, int n, const double *G, int bmax);

/* A scalar series kept as running sums of its lagged products, for its
 * long-run variance over its variance without keeping the series. */
enum { TAGK_LRV_LAGS = 64 };
typedef struct {
	double ring[TAGK_LRV_LAGS]; /* the last values, newest at (T - 1) % LAGS */
	double S[TAGK_LRV_LAGS];    /* S_j = sum x_t x_{t-j}, j < LAGS */
	double sum;
	long T;
} tagk_lrv;

/* Add x (finite; others are ignored). */
void tagk_lrv_add(tagk_lrv *l, double x);
/* Its long-run variance over its variance, with the mean removed and the
 * bandwidth above (at most TAGK_LRV_LAGS - 1) into *bandwidth if not NULL:
 * 1 + 2 sum_{j=1}^{B} (1 - j/(B+1)) rho_j, floored at 1/16. 1 with fewer
 * than 16 values or a constant series. */
double tagk_lrv_factor(const tagk_lrv *l, int *bandwidth);
/* The same factor for an estimate that keeps a share keep (0 to 1) of its
 * previous value at each new one (a recursive filter's I - K A, 1 for a
 * plain mean): 1 + 2 sum_{j=1}^{B} (1 - j/(B+1)) keep^j rho_j. A filter of
 * short memory averages the series over about 1 / (1 - keep) values, and
 * only the correlation within that span widens its error. */
double tagk_lrv_factor_kept(const tagk_lrv *l, double keep, int *bandwidth);
/* Its variance (mean removed, divided by T); 0 before two values. */
double tagk_lrv_variance(const tagk_lrv *l);

/*
 * The wander of a running estimate, for the noise's part of its error when
 * its own variance cannot be trusted: a state-space filter's (massest.h)
 * covariance holds the random walk its model lets the mass take (q_mass)
 * and the process noise it assumes, not the noise the data carry, and
 * neither counts noise that is correlated in time. While the truth x is
 * constant, the estimate's error is its deviation x_k - x, and
 *
 *   E (x_k - x_{k-L})^2 / 2 = Var(e) (1 - rho_e(L)),
 *
 * the error's variance once L exceeds the span over which the errors are
 * correlated: the filter's memory and the noise's own correlation (an
 * AR(1) 0.98 over 50 samples) alike. Such a variogram is kept for the lags
 * L = 16, 32, .. 16 * 2^(TAGK_WANDER_LAGS - 1), and the sd is read at the
 * largest L counted over 8 L or more increments (the error's correlation
 * is unknown; a larger lag is biased less and the count bounds its own
 * noise), times tagk_hac_widen(L, n + L): the Bartlett fixed-b critical
 * value, b = (L + 1) / (n + L), for an estimate from n overlapping
 * increments (each is a Bartlett-weighted sum of the error's
 * autocovariances up to lag L).
 *
 * Two kinds of increment are left out, as changes rather than noise: one
 * that starts while the filter had not settled (its own sd at k - L more
 * than twice its sd at k: the prior's transient, a restart), and one whose
 * square exceeds 25 times its expected value 2 Var(e) at that lag once 16
 * are counted (a payload picked up or dropped). A truth that drifts within
 * L samples counts as noise. Nothing allocates.
 *
 * Why not a long-run factor (tagk_lrv_factor_kept of the filter's
 * innovations) on the filter's own variance: on constant-mass flights
 * (tagk-bench coverage, ekf, msckf, ukf) that sd was 3.5 to 5.4 times the
 * error on white and AR(1) 0.9 and 0.98 noise alike and held the truth in
 * every flight; a factor of at least 1 could only widen it. The wander's
 * holds it in 97 to 99 % of 200 flights, its sd 1.16 to 1.21 times the
 * error (1.10 of that the widening).
 */
enum { TAGK_WANDER_LAGS = 5, TAGK_WANDER_RING = 512 };
typedef struct {
	double x[TAGK_WANDER_RING];  /* the last estimates, newest at (T - 1) % RING */
	double sd[TAGK_WANDER_RING]; /* the filter's own sd of each */
	double s2[TAGK_WANDER_LAGS]; /* sum of (x_k - x_{k-L})^2 counted, per lag */
	long n[TAGK_WANDER_LAGS];
	long T;
} tagk_wander;

/* Add the estimate x with the filter's own sd (both finite, sd > 0; others
 * are ignored). */
void tagk_wander_add(tagk_wander *w, double x, double sd);
/* The error's sd: the wander's (above), widened, when it has levelled off
 * (its variance at L at most 1.5 times its variance at L / 2; on 30
 * simulated constant-mass flights at most 1.19 at L = 128), else the
 * larger of it and own, the filter's own sd: a wander still rising at the
 * largest lag is correlated beyond what the run can measure (a model
 * error that drifts on a real flight: 1.6 and 1.7 times at L = 256 on the
 * Crazyflie logs), and is only a lower bound. At L = 16, below a filter's
 * memory, nothing says it levelled off. own alone (NAN if it is not
 * finite) before 128 increments of the shortest lag are counted. *lag
 * gets L (0 if own is returned) and *wander 1 if the result is the
 * wander's, when not NULL. */
double tagk_wander_sd(const tagk_wander *w, double own, int *lag, int *wander);

#ifdef __cplusplus
}
#endif

#endif
