/* armpc_solve.c: tagk_armpc_solve as a filter, for the SDP oracle test
 * (tests/armio_oracle_test.sh). Reads problems "B F reg mu, n*n values of
 * H, n of h, 10 B of theta0" (n = 10 B + F, reg 0 EUCLID, 1 PULLBACK,
 * 2 LOGDET) from stdin; writes per problem one line: the status, then x
 * (n values, %.17g). */
#include <stdio.h>
#include <stdlib.h>
#include "../lib/tagk.h"

static int
read_n(int n, double *v)
{
	for (int i = 0; i < n; i++)
		if (scanf("%lf", &v[i]) != 1)
			return -1;
	return 0;
}

int
main(void)
{
	int B, F, reg;
	double mu;
	while (scanf("%d %d %d %lf", &B, &F, &reg, &mu) == 4) {
		if (B < 1 || B > TAGK_PCLS_MAX_BODIES || F < 0 || F > TAGK_ARMPC_MAX_FREE || reg < 0 || reg > 2)
			return 2;
		int n = TAGK_NPARAM * B + F;
		double *H = malloc((size_t)n * n * sizeof(double)), *h = malloc((size_t)n * sizeof(double));
		double *x = malloc((size_t)n * sizeof(double)), *t0 = malloc((size_t)n * sizeof(double));
		size_t len = tagk_armpc_workspace_len(B, F);
		double *ws = malloc(len * sizeof(double));
		if (!H || !h || !x || !ws || !t0 || read_n(n * n, H) || read_n(n, h) || read_n(TAGK_NPARAM * B, t0))
			return 2;
		tagk_pcls_config c;
		tagk_pcls_defaults(&c, B);
		c.reg = (tagk_pcls_reg)reg;
		c.mu = mu;
		c.theta0 = t0;
		tagk_status st = tagk_armpc_solve(&c, F, H, h, x, NULL, ws, len);
		printf("%d", (int)st);
		for (int i = 0; i < n; i++)
			printf(" %.17g", st == TAGK_OK ? x[i] : 0.0);
		printf("\n");
		free(H), free(h), free(x), free(ws), free(t0);
	}
	return 0;
}
