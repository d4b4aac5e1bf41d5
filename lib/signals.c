/* signals.c: rotor wrench, least-squares slope, Savitzky-Golay weights;
 * see signals.h. */
#include <math.h>
#include "signals.h"

void
tagk_rotor_wrench(int n, const double (*pos)[3], const double *dir, double kappa, const double *T,
    double f[3], double tau[3])
{
	f[0] = f[1] = f[2] = 0;
	tau[0] = tau[1] = tau[2] = 0;
	for (int i = 0; i < n; i++) {
		f[2] += T[i];
		tau[0] += pos[i][1] * T[i];
		tau[1] -= pos[i][0] * T[i];
		tau[2] += dir[i] * kappa * T[i];
	}
}

void
tagk_slope(int n, const double *t, int k, const double *x, double *out)
{
	/* centred sums: the slope is s_tx / s_tt about the means */
	double tm = 0;
	for (int i = 0; i < n; i++)
		tm += t[i];
	tm /= n;
	for (int j = 0; j < k; j++) {
		double xm = 0, stt = 0, stx = 0;
		for (int i = 0; i < n; i++)
			xm += x[i * k + j];
		xm /= n;
		for (int i = 0; i < n; i++) {
			double dt = t[i] - tm;
			stt += dt * dt;
			stx += dt * (x[i * k + j] - xm);
		}
		out[j] = stx / stt;
	}
}

int
tagk_sg_weights(int n, const double *t, double t0, int order, int deriv, double *w)
{
	enum { K = TAGK_SG_MAX_ORDER + 1 };
	if (order < 0 || order > TAGK_SG_MAX_ORDER || deriv < 0 || deriv > order || n <= order)
		return -1;
	/* times scaled to [-1, 1] about t0, so that the normal equations of
	 * the powers stay well scaled whatever the time unit */
	double h = 0;
	for (int i = 0; i < n; i++) {
		double d = t[i] - t0;
		h = d > h ? d : -d > h ? -d : h;
	}
	if (!(h > 0) || h != h)
		return -1;
	const int m = order + 1;
	double G[K * K] = { 0 }, z[K] = { 0 };
	for (int i = 0; i < n; i++) {
		double x = (t[i] - t0) / h, p[2 * K - 1];
		p[0] = 1;
		for (int k = 1; k < 2 * m - 1; k++)
			p[k] = p[k - 1] * x;
		for (int a = 0; a < m; a++)
			for (int b = 0; b < m; b++)
				G[a * K + b] += p[a + b];
	}
	/* Cholesky of G, then G z = e_deriv */
	double scale = 0;
	for (int a = 0; a < m; a++)
		scale = G[a * K + a] > scale ? G[a * K + a] : scale;
	for (int j = 0; j < m; j++) {
		double d = G[j * K + j];
		for (int k = 0; k < j; k++)
			d -= G[j * K + k] * G[j * K + k];
		if (!(d > 1e-12 * scale))
			return -1;
		d = sqrt(d);
		G[j * K + j] = d;
		for (int i = j + 1; i < m; i++) {
			double s = G[i * K + j];
			for (int k = 0; k < j; k++)
				s -= G[i * K + k] * G[j * K + k];
			G[i * K + j] = s / d;
		}
	}
	z[deriv] = 1;
	for (int i = 0; i < m; i++) {
		for (int k = 0; k < i; k++)
			z[i] -= G[i * K + k] * z[k];
		z[i] /= G[i * K + i];
	}
	for (int i = m - 1; i >= 0; i--) {
		for (int k = i + 1; k < m; k++)
			z[i] -= G[k * K + i] * z[k];
		z[i] /= G[i * K + i];
	}
	/* w_i = deriv! / h^deriv * sum_k z_k x_i^k */
	double f = 1;
	for (int k = 2; k <= deriv; k++)
		f *= k;
	for (int k = 0; k < deriv; k++)
		f /= h;
	for (int i = 0; i < n; i++) {
		double x = (t[i] - t0) / h, s = 0, p = 1;
		for (int k = 0; k < m; k++, p *= x)
			s += z[k] * p;
		w[i] = f * s;
	}
	return 0;
}
