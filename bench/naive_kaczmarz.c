/* naive_kaczmarz.c: straightforward greedy Kaczmarz; see naive_kaczmarz.h. */
#include <string.h>
#include "naive_kaczmarz.h"

tagk_status
tagk_naive_greedy(int m, int n, const tagk_real *A, const tagk_real *b,
    const tagk_real *x0, int T, int burnin, int average, tagk_real tol,
    tagk_rng *rng, tagk_real *work, tagk_real *out)
{
	tagk_real *r = work, *s = r + m, *w = s + m, *x = w + m, *xsum = x + n;
	tagk_real fro = 0, bnorm2 = 0;
	int count = 0;

	for (int i = 0; i < m; i++) {
		s[i] = tagk_dot(n, A + (long)i * n, A + (long)i * n);
		fro += s[i];
		if (s[i] > 0)
			bnorm2 += b[i] * b[i];
	}
	if (!(fro > 0))
		return TAGK_EZERO;
	if (T == 0)
		T = m;
	memcpy(x, x0, sizeof(*x) * (size_t)n);
	for (int j = 0; j < n; j++)
		xsum[j] = 0;
	for (int t = 0; t < T; t++) {
		tagk_real R2 = 0, maxc = 0;
		int best = -1;
		for (int i = 0; i < m; i++) {
			r[i] = s[i] > 0 ? b[i] - tagk_dot(n, A + (long)i * n, x) : 0;
			R2 += r[i] * r[i];
		}
		if (R2 <= tol * tol * bnorm2)
			break;
		for (int i = 0; i < m; i++) {
			if (s[i] <= 0)
				continue;
			tagk_real c = r[i] * r[i] / s[i];
			if (c > maxc || best < 0) {
				maxc = c;
				best = i;
			}
		}
		tagk_real thr = (tagk_real)0.5 * (maxc / R2 + (tagk_real)1 / fro) * R2, sum = 0;
		for (int i = 0; i < m; i++) {
			tagk_real q = r[i] * r[i];
			w[i] = (s[i] > 0 && q >= thr * s[i]) ? q : 0;
			sum += w[i];
		}
		tagk_real u = tagk_rng_uniform(rng) * sum;
		int pick = best;
		if (sum > 0) {
			for (int i = 0; i < m; i++) {
				if (w[i] == 0)
					continue;
				pick = i;
				if (u < w[i])
					break;
				u -= w[i];
			}
		}
		const tagk_real *a = A + (long)pick * n;
		tagk_real gamma = r[pick] / s[pick];
		for (int j = 0; j < n; j++)
			x[j] += gamma * a[j];
		if (average && t >= burnin) {
			for (int j = 0; j < n; j++)
				xsum[j] += x[j];
			count++;
		}
	}
	for (int j = 0; j < n; j++)
		out[j] = count > 0 ? xsum[j] / (tagk_real)count : x[j];
	return TAGK_OK;
}
