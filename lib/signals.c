/* signals.c: rotor wrench and least-squares slope; see signals.h. */
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
