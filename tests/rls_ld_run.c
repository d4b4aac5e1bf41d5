/* rls_ld_run.c: a window method of the registry as a filter, for the NumPy
 * oracle test (tests/rls_ld_oracle_test.sh). Reads "METHOD alpha beta",
 * then the 10 values of theta0, then windows "m, m x 10 values of A
 * (row-major), m values of b" from stdin; writes per window one line: the
 * status, then the estimate (10 values, %.17g). */
#include <stdio.h>
#include <stdlib.h>
#include "../lib/tagk.h"

enum { N = TAGK_NPARAM, MMAX = 64 };

int
main(void)
{
	char name[32];
	double alpha, beta;
	tagk_real theta0[N], A[MMAX * N], b[MMAX], th[N];
	if (scanf("%31s %lf %lf", name, &alpha, &beta) != 3)
		return 2;
	for (int i = 0; i < N; i++) {
		double v;
		if (scanf("%lf", &v) != 1)
			return 2;
		theta0[i] = (tagk_real)v;
	}
	tagk_config c;
	tagk_config_defaults(&c, tagk_window_method(name), N, MMAX);
	c.theta0 = theta0;
	if (!c.method || tagk_config_set(&c, "alpha", alpha) != TAGK_OK || tagk_config_set(&c, "beta", beta) != TAGK_OK)
		return 2;
	size_t len = tagk_est_workspace_len(&c);
	tagk_real *ws = malloc(len * sizeof(*ws));
	tagk_estimator e;
	if (!ws || tagk_est_init(&e, &c, ws, len) != TAGK_OK)
		return 2;
	int m;
	while (scanf("%d", &m) == 1) {
		if (m < 1 || m > MMAX)
			return 2;
		for (int i = 0; i < m * N + m; i++) {
			double v;
			if (scanf("%lf", &v) != 1)
				return 2;
			if (i < m * N)
				A[i] = (tagk_real)v;
			else
				b[i - m * N] = (tagk_real)v;
		}
		tagk_status st = tagk_est_update(&e, A, b, m, th);
		printf("%d", (int)st);
		for (int i = 0; i < N; i++)
			printf(" %.17g", (double)tagk_est_theta(&e)[i]);
		printf("\n");
	}
	free(ws);
	return 0;
}
