/* coordinv_tables.c: what paper 002's two tables share; see coordinv_tables.h. */
#include <math.h>
#include <stdio.h>
#include "coordinv_tables.h"
#include "../lib/tagk.h"
#include "../lib/coordinv.h"

const char *
coordinv_name(int k, int physical)
{
	static char names[TAGK_CI_NMETHODS][24];
	if (k == coordinv_paper_dm(physical))
		return "DM";
	if (k == TAGK_CI_DUAL)
		return "DM-unc";
	const char *base = tagk_ci_name((tagk_ci_method)k);
	if (!physical || k == TAGK_CI_BREGMAN || k == TAGK_CI_DUAL_PC)
		return base;
	snprintf(names[k], sizeof(names[k]), "%s-pc", base);
	return names[k];
}

int
coordinv_paper_dm(int physical)
{
	return physical ? TAGK_CI_DUAL : TAGK_CI_DUAL_PC;
}

int
coordinv_solve(int n, const tagk_real *A0, const tagk_real *b0, tagk_real *x)
{
	double A[16][17];
	if (n < 1 || n > 16)
		return 0;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			A[i][j] = (double)A0[i * n + j];
		A[i][n] = (double)b0[i];
	}
	for (int c = 0; c < n; c++) {
		int piv = c;
		for (int r = c + 1; r < n; r++)
			if (fabs(A[r][c]) > fabs(A[piv][c]))
				piv = r;
		if (!(fabs(A[piv][c]) > 1e-300))
			return 0;
		for (int j = 0; j <= n; j++) {
			double t = A[c][j];
			A[c][j] = A[piv][j];
			A[piv][j] = t;
		}
		for (int r = c + 1; r < n; r++) {
			double f = A[r][c] / A[c][c];
			for (int j = c; j <= n; j++)
				A[r][j] -= f * A[c][j];
		}
	}
	for (int i = n - 1; i >= 0; i--) {
		double s = A[i][n];
		for (int j = i + 1; j < n; j++)
			s -= A[i][j] * (double)x[j];
		x[i] = (tagk_real)(s / A[i][i]);
	}
	return tagk_all_finite(n, x);
}

void
coordinv_score(int n, long T, const tagk_real *meas, const tagk_real *pred, long max_shift, double *sum, double *sq,
    tagk_real *a, tagk_real *b)
{
	for (int i = 0; i < n; i++) {
		for (long t = 0; t < T; t++) {
			a[t] = meas[t * n + i];
			b[t] = pred[t * n + i];
		}
		double v = (double)tagk_ncc(a, b, T, max_shift);
		if (isnan(v))
			v = 0;
		sum[i] += v;
		sq[i] += v * v;
	}
}

void
coordinv_print_claim(int low, const char *coord, const char *what, int best, double dm, int physical,
    int best_unc, double unc)
{
	printf("  %s data, %s: %s: %s (%.3f)", low ? "low" : "high", coord, what, best ? "yes" : "no", dm);
	if (!physical)
		printf("; DM-unc: %s (%.3f)", best_unc ? "yes" : "no", unc);
	printf("\n");
}
