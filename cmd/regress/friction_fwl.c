/* friction_fwl.c: friction concentrated out of the rows; see friction_fwl.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "friction_fwl.h"
#include "../lib/tagk.h"

enum { P = TAGK_NPARAM + 1 }; /* A's ten values and b */

void
fwl_init(friction_fwl *f, int nj, int off, int ncol, int kinds, double smooth)
{
	memset(f, 0, sizeof(*f));
	f->nj = nj, f->off = off, f->ncol = ncol, f->kinds = kinds, f->smooth = smooth;
	if (!(f->spool = tmpfile()))
		cli_die(EXIT_DATA, "--friction-terms: no temporary file for the rows: %s", strerror(errno));
}

void
fwl_add(friction_fwl *f, const double *orow, double qd)
{
	int k = (int)orow[1] - f->off;
	if (fwrite(orow, sizeof(double), (size_t)f->ncol, f->spool) != (size_t)f->ncol ||
	    fwrite(&qd, sizeof(double), 1, f->spool) != 1)
		cli_die(EXIT_DATA, "--friction-terms: writing the temporary file: %s", strerror(errno));
	f->rows++;
	if (k < 0)
		return;
	double x[3];
	int m = ffit_terms(f->kinds, f->smooth, qd, x);
	for (int a = 0; a < m; a++) {
		for (int b = 0; b < m; b++)
			f->G[k][a * 3 + b] += x[a] * x[b];
		for (int c = 0; c < P; c++)
			f->XA[k][a * P + c] += x[a] * orow[2 + c];
	}
}

/* Solve the m x m system G Z = B (B m x P, in place) by Gaussian
 * elimination with partial pivoting; -1 when G is singular to its scale. */
static int
solve(int m, const double *G0, double *B)
{
	double G[9];
	memcpy(G, G0, sizeof(G));
	double scale = 0;
	for (int a = 0; a < m; a++)
		scale = fmax(scale, fabs(G[a * 3 + a]));
	for (int c = 0; c < m; c++) {
		int piv = c;
		for (int r = c + 1; r < m; r++)
			if (fabs(G[r * 3 + c]) > fabs(G[piv * 3 + c]))
				piv = r;
		if (!(fabs(G[piv * 3 + c]) > 1e-10 * scale))
			return -1;
		for (int j = 0; j < 3; j++) {
			double t = G[c * 3 + j];
			G[c * 3 + j] = G[piv * 3 + j], G[piv * 3 + j] = t;
		}
		for (int j = 0; j < P; j++) {
			double t = B[c * P + j];
			B[c * P + j] = B[piv * P + j], B[piv * P + j] = t;
		}
		for (int r = 0; r < m; r++) {
			if (r == c)
				continue;
			double l = G[r * 3 + c] / G[c * 3 + c];
			for (int j = 0; j < 3; j++)
				G[r * 3 + j] -= l * G[c * 3 + j];
			for (int j = 0; j < P; j++)
				B[r * P + j] -= l * B[c * P + j];
		}
	}
	for (int r = 0; r < m; r++)
		for (int j = 0; j < P; j++)
			B[r * P + j] /= G[r * 3 + r];
	return 0;
}

/* Term a's variance in joint j's friction, by the partitioned inverse of
 * the joint problem's normal equations: s^2 (G_j^-1 + K_j Hn^-1 K_j^T)_aa,
 * with Hn = L L^T the projected rows' (the Schur complement). */
static double
variance(const friction_fwl *f, const double *Kj, int j, int a, int m, const tagk_real *L, double s2)
{
	double Gi[3 * P] = { 0 };
	for (int c = 0; c < m; c++)
		Gi[c * P + c] = 1;
	if (solve(m, f->G[j], Gi) != 0)
		return (double)NAN;
	tagk_real k[TAGK_NPARAM];
	for (int c = 0; c < TAGK_NPARAM; c++)
		k[c] = (tagk_real)Kj[a * P + c];
	tagk_real u[TAGK_NPARAM];
	memcpy(u, k, sizeof(u));
	tagk_cholesky_solve(TAGK_NPARAM, 1, L, u);
	double q = 0;
	for (int c = 0; c < TAGK_NPARAM; c++)
		q += (double)k[c] * (double)u[c];
	return s2 * (Gi[a * P + a] + q);
}

/* The friction at the projected rows' least-squares theta, with its sd
 * (rows of equal noise assumed, as -a ols does), on stderr. */
static void
note(const friction_fwl *f, double (*K)[3 * P], int m)
{
	static const char *const names[3] = { "fv", "fc", "fo" };
	tagk_real L[TAGK_NPARAM * TAGK_NPARAM], th[TAGK_NPARAM];
	for (int a = 0; a < TAGK_NPARAM; a++) {
		th[a] = (tagk_real)f->H[a * P + TAGK_NPARAM];
		for (int b = 0; b < TAGK_NPARAM; b++)
			L[a * TAGK_NPARAM + b] = (tagk_real)f->H[a * P + b];
	}
	/* a note, not an estimate: the library's Cholesky in its own precision */
	if (tagk_cholesky(TAGK_NPARAM, L) != TAGK_OK) {
		cli_warn("--friction-terms: the rows do not determine the ten parameters by least squares; "
		    "the friction is not printed");
		return;
	}
	tagk_cholesky_solve(TAGK_NPARAM, 1, L, th);
	/* residual variance: b^T b - theta^T h at the solution, over the joint
	 * problem's degrees of freedom */
	double rss = f->H[TAGK_NPARAM * P + TAGK_NPARAM];
	for (int a = 0; a < TAGK_NPARAM; a++)
		rss -= (double)th[a] * f->H[a * P + TAGK_NPARAM];
	long dof = f->rows - TAGK_NPARAM - (long)f->nj * m;
	double s2 = dof > 0 ? fmax(rss, 0) / (double)dof : (double)NAN;
	char msg[6144];
	int l = snprintf(msg, sizeof(msg), "--friction-terms: %d joints' friction concentrated out of the rows over "
	    "the whole log (exact for least squares); at the least-squares estimate the friction is (+- sd)", f->nj);
	for (int j = 0; j < f->nj && l < (int)sizeof(msg) - 160; j++) {
		l += snprintf(msg + l, sizeof(msg) - (size_t)l, "%s joint %d", j ? ";" : "", j + 1);
		int a = 0;
		for (int t = 0; t < 3; t++) {
			if (!(f->kinds & (1 << t)))
				continue;
			/* phi = k - K theta */
			double v = K[j][a * P + TAGK_NPARAM];
			for (int c = 0; c < TAGK_NPARAM; c++)
				v -= K[j][a * P + c] * (double)th[c];
			l += snprintf(msg + l, sizeof(msg) - (size_t)l, " %s %.4g +- %.2g", names[t], v,
			    sqrt(variance(f, K[j], j, a, m, L, s2)));
			a++;
		}
	}
	cli_warn("%s", msg);
}

void
fwl_finish(friction_fwl *f, sink *out)
{
	static double K[FRICTION_MAX_JOINTS][3 * P];
	const int m = (f->kinds & 1) + !!(f->kinds & 2) + !!(f->kinds & 4);
	for (int j = 0; j < f->nj; j++) {
		memcpy(K[j], f->XA[j], sizeof(K[j]));
		if (solve(m, f->G[j], K[j]) != 0)
			cli_die(EXIT_DATA, "--friction-terms: joint %d: the log does not excite the terms asked for (it needs "
			    "motion both ways at several speeds)", j + 1);
	}
	double *row = malloc((size_t)(f->ncol + 1) * sizeof(double));
	if (!row || fseek(f->spool, 0, SEEK_SET) != 0)
		cli_die(EXIT_DATA, "--friction-terms: rereading the temporary file: %s", strerror(errno));
	for (long i = 0; i < f->rows; i++) {
		if (fread(row, sizeof(double), (size_t)f->ncol + 1, f->spool) != (size_t)f->ncol + 1)
			cli_die(EXIT_DATA, "--friction-terms: rereading the temporary file: %s", strerror(errno));
		int k = (int)row[1] - f->off;
		if (k >= 0) {
			double x[3];
			ffit_terms(f->kinds, f->smooth, row[f->ncol], x);
			for (int c = 0; c < P; c++)
				for (int a = 0; a < m; a++)
					row[2 + c] -= x[a] * K[k][a * P + c];
		}
		for (int a = 0; a < P; a++)
			for (int b = 0; b < P; b++)
				f->H[a * P + b] += row[2 + a] * row[2 + b];
		cmdio_row(out, row);
	}
	free(row);
	fclose(f->spool);
	note(f, K, m);
}
