/* pcls_solve.c: tagk_pcls_solve as a filter, for the SDP oracle test
 * (tests/pcls_oracle_test.sh). Reads problems "B n*n values of H n values
 * of h" (n = 10 B) from stdin; writes per problem one line: the status,
 * then theta (n values, %.17g). */
#include <stdio.h>
#include <stdlib.h>
#include "../lib/tagk.h"

int
main(void)
{
	int B;
	while (scanf("%d", &B) == 1) {
		if (B < 1 || B > TAGK_PCLS_MAX_BODIES)
			return 2;
		int n = TAGK_NPARAM * B;
		double *H = malloc((size_t)n * n * sizeof(double)), *h = malloc((size_t)n * sizeof(double));
		double *th = malloc((size_t)n * sizeof(double));
		size_t len = tagk_pcls_workspace_len(B);
		double *ws = malloc(len * sizeof(double));
		if (!H || !h || !th || !ws)
			return 2;
		for (int i = 0; i < n * n; i++)
			if (scanf("%lf", &H[i]) != 1)
				return 2;
		for (int i = 0; i < n; i++)
			if (scanf("%lf", &h[i]) != 1)
				return 2;
		tagk_pcls_config c;
		tagk_pcls_defaults(&c, B);
		tagk_pcls_info info;
		tagk_status st = tagk_pcls_solve(&c, H, h, th, &info, ws, len);
		printf("%d", (int)st);
		for (int i = 0; i < n; i++)
			printf(" %.17g", st == TAGK_OK ? th[i] : 0.0);
		printf("\n");
		free(H), free(h), free(th), free(ws);
	}
	return 0;
}
