/* hac.c: Newey-West long-run variances; see hac.h. */
#include <math.h>
#include <string.h>
#include "hac.h"

int
tagk_hac_bandwidth_acov(int T, const double *sigma, int nlag, int bmax)
{
	if (T < 2 || nlag < 1 || !(sigma[0] > 0))
		return 0;
	/* Andrews (1991): the series as an AR(1) of coefficient rho = sigma_1
	 * / sigma_0; alpha(1) = 4 rho^2 / ((1 - rho)^2 (1 + rho)^2) */
	double rho = sigma[1] / sigma[0];
	if (!isfinite(rho))
		return 0;
	if (rho > 0.999)
		rho = 0.999;
	if (rho < -0.999)
		rho = -0.999;
	double a = 2 * rho / ((1 - rho) * (1 + rho));
	double B = floor(1.1447 * pow(a * a * T, 1.0 / 3));
	if (B > T - 1)
		B = T - 1;
	if (B > bmax)
		B = bmax;
	return B > 0 ? (int)B : 0;
}

double
tagk_hac_widen(int B, long T)
{
	if (B < 1 || T < 2)
		return 1;
	double b = (double)(B + 1) / (double)T;
	if (b > 1)
		b = 1;
	return (1.96 + b * (2.9694 + b * (0.4160 - 0.5324 * b))) / 1.96;
}

int
tagk_hac_bandwidth(int T, const double *s, int bmax)
{
	double sigma[64];
	int nlag = 63;
	for (int j = 0; j <= nlag; j++) {
		double a = 0;
		for (int t = j; t < T; t++)
			a += s[t] * s[t - j];
		sigma[j] = T > 0 ? a / T : 0;
	}
	return tagk_hac_bandwidth_acov(T, sigma, nlag, bmax);
}

int
tagk_hac_bandwidth_vec(int T, int n, const double *G, int bmax)
{
	double sigma[64], scale[64];
	int nlag = 63, nn = n < 64 ? n : 64;
	for (int i = 0; i < nn; i++) {
		double a = 0;
		for (int t = 0; t < T; t++)
			a += G[t * n + i] * G[t * n + i];
		scale[i] = a > 0 ? 1 / sqrt(a / T) : 0;
	}
	for (int j = 0; j <= nlag; j++) {
		double a = 0;
		for (int t = j; t < T; t++) {
			double x = 0, y = 0;
			for (int i = 0; i < nn; i++) {
				x += scale[i] * G[t * n + i];
				y += scale[i] * G[(t - j) * n + i];
			}
			a += x * y;
		}
		sigma[j] = T > 0 ? a / T : 0;
	}
	return tagk_hac_bandwidth_acov(T, sigma, nlag, bmax);
}

void
tagk_hac_cov(int T, int n, const double *G, int B, double *Omega)
{
	memset(Omega, 0, sizeof(*Omega) * (size_t)n * (size_t)n);
	for (int j = 0; j <= B && j < T; j++) {
		double k = j == 0 ? 1 : 1 - (double)j / (B + 1);
		for (int t = j; t < T; t++) {
			const double *a = G + (size_t)t * n, *b = G + (size_t)(t - j) * n;
			for (int p = 0; p < n; p++)
				for (int q = 0; q < n; q++) {
					double v = k * a[p] * b[q];
					Omega[p * n + q] += v;
					if (j)
						Omega[q * n + p] += v;
				}
		}
	}
}

void
tagk_lrv_add(tagk_lrv *l, double x)
{
	if (!isfinite(x))
		return;
	int pos = (int)(l->T % TAGK_LRV_LAGS);
	l->ring[pos] = x;
	l->T++;
	for (int j = 0; j < TAGK_LRV_LAGS && j < l->T; j++)
		l->S[j] += x * l->ring[(pos - j + TAGK_LRV_LAGS) % TAGK_LRV_LAGS];
	l->sum += x;
}

double
tagk_lrv_factor(const tagk_lrv *l, int *bandwidth)
{
	return tagk_lrv_factor_kept(l, 1, bandwidth);
}

double
tagk_lrv_factor_kept(const tagk_lrv *l, double keep, int *bandwidth)
{
	if (!(keep >= 0))
		keep = 0;
	if (keep > 1)
		keep = 1;
	if (bandwidth)
		*bandwidth = 0;
	if (l->T < 16)
		return 1;
	double T = (double)l->T, mean = l->sum / T, sigma[TAGK_LRV_LAGS];
	/* sum (x_t - mu)(x_{t-j} - mu) over the T - j pairs, to within the
	 * ends' share of the mean, divided by T */
	for (int j = 0; j < TAGK_LRV_LAGS; j++)
		sigma[j] = j < l->T ? (l->S[j] - (T - j) * mean * mean) / T : 0;
	if (!(sigma[0] > 0))
		return 1;
	int B = tagk_hac_bandwidth_acov((int)(T < 2e9 ? T : 2e9), sigma, TAGK_LRV_LAGS - 1, TAGK_LRV_LAGS - 1);
	double f = 1, kj = 1;
	for (int j = 1; j <= B; j++) {
		kj *= keep;
		f += 2 * (1 - (double)j / (B + 1)) * kj * sigma[j] / sigma[0];
	}
	if (bandwidth)
		*bandwidth = B;
	return f > 1.0 / 16 ? f : 1.0 / 16;
}

double
tagk_lrv_variance(const tagk_lrv *l)
{
	if (l->T < 2)
		return 0;
	double T = (double)l->T, mean = l->sum / T, v = l->S[0] / T - mean * mean;
	return v > 0 ? v : 0;
}

void
tagk_wander_add(tagk_wander *w, double x, double sd)
{
	if (!isfinite(x) || !isfinite(sd) || !(sd > 0))
		return;
	for (int j = 0; j < TAGK_WANDER_LAGS; j++) {
		long L = 16L << j;
		if (w->T < L)
			break;
		int at = (int)((w->T - L) % TAGK_WANDER_RING);
		/* the filter still in its transient at k - L: not noise */
		if (w->sd[at] > 2 * sd)
			continue;
		double d = x - w->x[at], d2 = d * d;
		/* a change of the truth (a payload), not noise */
		if (w->n[j] >= 16 && d2 > 25 * w->s2[j] / (double)w->n[j])
			continue;
		w->s2[j] += d2;
		w->n[j]++;
	}
	int pos = (int)(w->T % TAGK_WANDER_RING);
	w->x[pos] = x;
	w->sd[pos] = sd;
	w->T++;
}

double
tagk_wander_sd(const tagk_wander *w, double own, int *lag, int *wander)
{
	if (lag)
		*lag = 0;
	if (wander)
		*wander = 0;
	if (!isfinite(own) || !(own > 0))
		own = NAN;
	for (int j = TAGK_WANDER_LAGS - 1; j >= 0; j--) {
		long L = 16L << j;
		if (w->n[j] < 8 * L)
			continue;
		double v = w->s2[j] / (2 * (double)w->n[j]);
		double sd = sqrt(v) * tagk_hac_widen((int)L, w->n[j] + L);
		/* levelled off: the variance at L within 1.5 times at L / 2 */
		int flat = j > 0 && w->n[j - 1] > 0 && v <= 1.5 * w->s2[j - 1] / (2 * (double)w->n[j - 1]);
		if (!flat && !(sd > own) && !isnan(own))
			return own;
		if (lag)
			*lag = (int)L;
		if (wander)
			*wander = 1;
		return sd;
	}
	return own;
}
