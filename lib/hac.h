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
 * comes from the data by Newey and West's (1994) plug-in rule for that
 * kernel: on a scalar series s_t (for vectors, the sum of the components,
 * each divided by its own sd), with sigma_j = (1/T) sum s_t s_{t-j},
 *
 *   nT = floor(4 (T / 100)^(2/9)),
 *   s0 = sigma_0 + 2 sum_{j=1}^{nT} sigma_j,  s1 = 2 sum_{j=1}^{nT} j sigma_j,
 *   B  = floor(1.1447 ((s1 / s0)^2)^(1/3) T^(1/3)),
 *
 * capped at T - 1 (and at the caller's bound). Nothing allocates.
 */
#ifndef TAGK_HAC_H
#define TAGK_HAC_H

#ifdef __cplusplus
extern "C" {
#endif

/* Newey and West's (1994) Bartlett bandwidth for the scalar series s (T
 * values), at most bmax (and T - 1); 0 for T < 2 or a series of zeros. */
int tagk_hac_bandwidth(int T, const double *s, int bmax);
/* The same from the series' autocovariances sigma[0 .. nlag] (sigma_j as
 * above), for a series kept only as running sums. */
int tagk_hac_bandwidth_acov(int T, const double *sigma, int nlag, int bmax);
/* Omega (n x n, row-major) of the series G (T rows of n, row-major) with
 * bandwidth B (above; not divided by T). */
void tagk_hac_cov(int T, int n, const double *G, int B, double *Omega);
/* The bandwidth of the vector series G (T x n): the rule above on the sum
 * of its components, each divided by its root mean square (a component
 * that is all zeros left out), at most bmax. */
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
/* Its variance (mean removed, divided by T); 0 before two values. */
double tagk_lrv_variance(const tagk_lrv *l);

#ifdef __cplusplus
}
#endif

#endif
