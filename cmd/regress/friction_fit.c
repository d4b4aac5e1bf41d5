/* friction_fit.c: per-joint friction by least squares; see friction_fit.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "friction_fit.h"

int
ffit_kinds(const char *opt, const char *arg)
{
	char buf[256], *items[8];
	int n = cli_split(opt, arg, buf, sizeof(buf), items, 8), k = 0;
	for (int i = 0; i < n; i++) {
		if (strcmp(items[i], "viscous") == 0)
			k |= FF_VISCOUS;
		else if (strcmp(items[i], "coulomb") == 0)
			k |= FF_COULOMB;
		else if (strcmp(items[i], "offset") == 0)
			k |= FF_OFFSET;
		else
			cli_die(EXIT_USAGE, "%s: '%s' is not viscous, coulomb or offset", opt, items[i]);
	}
	return k;
}

void
ffit_init(friction_fit *f, int nj, int kinds, double smooth)
{
	memset(f, 0, sizeof(*f));
	f->nj = nj;
	f->kinds = kinds;
	f->smooth = smooth;
}

int
ffit_terms(int kinds, double smooth, double qd, double *x)
{
	int k = 0;
	if (kinds & FF_VISCOUS)
		x[k++] = qd;
	if (kinds & FF_COULOMB)
		x[k++] = smooth > 0 ? tanh(qd / smooth) : (qd > 0) - (qd < 0);
	if (kinds & FF_OFFSET)
		x[k++] = 1;
	return k;
}

void
ffit_add(friction_fit *f, int j, double qd, double r)
{
	double x[3];
	int k = ffit_terms(f->kinds, f->smooth, qd, x);
	for (int a = 0; a < k; a++) {
		for (int b = 0; b < k; b++)
			f->G[j][a * 3 + b] += x[a] * x[b];
		f->g[j][a] += x[a] * r;
	}
	f->rr[j] += r * r;
	f->n[j]++;
}

/* Solve the k x k system G c = g by Cholesky, and the diagonal of G^-1;
 * -1 when G is singular to its scale. */
static int
solve(int k, const double *G0, const double *g, double *c, double *dinv)
{
	double L[9] = { 0 }, scale = 0;
	for (int a = 0; a < k; a++)
		scale = fmax(scale, G0[a * 3 + a]);
	for (int j = 0; j < k; j++) {
		double d = G0[j * 3 + j];
		for (int m = 0; m < j; m++)
			d -= L[j * 3 + m] * L[j * 3 + m];
		if (!(d > 1e-10 * scale))
			return -1;
		L[j * 3 + j] = sqrt(d);
		for (int i = j + 1; i < k; i++) {
			double s = G0[i * 3 + j];
			for (int m = 0; m < j; m++)
				s -= L[i * 3 + m] * L[j * 3 + m];
			L[i * 3 + j] = s / L[j * 3 + j];
		}
	}
	/* columns of G^-1 by two triangular solves; c likewise */
	for (int col = -1; col < k; col++) {
		double y[3] = { 0, 0, 0 };
		for (int i = 0; i < k; i++) {
			double s = col < 0 ? g[i] : (i == col);
			for (int m = 0; m < i; m++)
				s -= L[i * 3 + m] * y[m];
			y[i] = s / L[i * 3 + i];
		}
		for (int i = k - 1; i >= 0; i--) {
			double s = y[i];
			for (int m = i + 1; m < k; m++)
				s -= L[m * 3 + i] * y[m];
			y[i] = s / L[i * 3 + i];
		}
		if (col < 0)
			memcpy(c, y, (size_t)k * sizeof(double));
		else
			dinv[col] = y[col];
	}
	return 0;
}

int
ffit_solve(const friction_fit *f, friction *fr, double (*sd)[3], char *what, size_t len)
{
	memset(fr, 0, sizeof(*fr));
	fr->n = f->nj;
	fr->smooth = f->smooth;
	const int k = (f->kinds & 1) + !!(f->kinds & 2) + !!(f->kinds & 4);
	double worst = 0;
	for (int j = 0; j < f->nj; j++) {
		double c[3], dinv[3];
		if (f->n[j] <= k || solve(k, f->G[j], f->g[j], c, dinv) != 0) {
			snprintf(what, len, "joint %d: the log does not excite the terms asked for (it needs motion both "
			    "ways at several speeds)", j + 1);
			return -1;
		}
		/* residual sum of squares: r.r - 2 c.g + c G c */
		double rss = f->rr[j];
		for (int a = 0; a < k; a++) {
			rss -= 2 * c[a] * f->g[j][a];
			for (int b = 0; b < k; b++)
				rss += c[a] * f->G[j][a * 3 + b] * c[b];
		}
		double s2 = fmax(rss, 0) / (double)(f->n[j] - k), out[3] = { 0, 0, 0 }, outsd[3] = { 0, 0, 0 };
		int a = 0;
		for (int t = 0; t < 3; t++)
			if (f->kinds & (1 << t)) {
				out[t] = c[a];
				outsd[t] = sqrt(s2 * dinv[a]);
				a++;
			}
		fr->fv[j] = out[0], fr->fc[j] = out[1], fr->fo[j] = out[2];
		memcpy(sd[j], outsd, sizeof(outsd));
		worst = fmax(worst, sqrt(s2));
	}
	snprintf(what, len, "%d joints, %ld samples; the largest rms of what friction leaves unexplained is %.3g N m",
	    f->nj, f->n[0], worst);
	return 0;
}
