/* dmls_solve.c: tagk_dmls_solve as a filter, for the SDP oracle test
 * (tests/dmls_oracle_test.sh). Reads problems "N n p bodies, then Y
 * (N x n x p), tau (N x n), M (N x (p + 1) x n x n) and the start (p)" from
 * stdin; writes per problem one line: the status, the objective, then pi
 * (p values, %.17g). */
#include <stdio.h>
#include <stdlib.h>
#include "../lib/tagk.h"

static int
read_all(size_t k, double *x)
{
	for (size_t i = 0; i < k; i++)
		if (scanf("%lf", &x[i]) != 1)
			return 0;
	return 1;
}

int
main(void)
{
	int N, n, p, bodies;
	while (scanf("%d %d %d %d", &N, &n, &p, &bodies) == 4) {
		if (N < 1 || n < 1 || p < 1 || N > 10000 || n > 64 || p > 200)
			return 2;
		size_t ny = (size_t)N * n * p, nt = (size_t)N * n, nm = (size_t)N * (p + 1) * n * n;
		double *Y = malloc(ny * sizeof(double)), *tau = malloc(nt * sizeof(double));
		double *M = malloc(nm * sizeof(double)), *pi0 = malloc((size_t)p * sizeof(double));
		double *pi = malloc((size_t)p * sizeof(double));
		size_t len = tagk_dmls_workspace_len(n, p);
		double *ws = malloc(len * sizeof(double));
		if (!Y || !tau || !M || !pi0 || !pi || !ws)
			return 2;
		if (!read_all(ny, Y) || !read_all(nt, tau) || !read_all(nm, M) || !read_all((size_t)p, pi0))
			return 2;
		tagk_dmls_problem pb = { N, n, p, bodies, Y, tau, M, 0, 0, 0 };
		tagk_dmls_defaults(&pb);
		tagk_dmls_info info = { 0, 0, 0 };
		tagk_status st = tagk_dmls_solve(&pb, pi0, pi, &info, ws, len);
		printf("%d %.17g", (int)st, (double)info.f);
		for (int i = 0; i < p; i++)
			printf(" %.17g", st == TAGK_OK ? pi[i] : 0.0);
		printf("\n");
		free(Y), free(tau), free(M), free(pi0), free(pi), free(ws);
	}
	return 0;
}
