/* shake.c: paper 004's excitation and damped-least-squares step; see shake.h. */
#include <string.h>
#include "shake.h"
#include "linalg.h"

#define TWO_PI_R ((tagk_real)6.28318530717958647692)

const tagk_shake_axis tagk_shake_paper[2] = {
	{ 5, 1, (tagk_real)-0.01 },
	{ 3, 1, (tagk_real)0.05 },
};

void
tagk_shake(const tagk_shake_axis *ax, tagk_real T, tagk_real dt, int n, tagk_real *X)
{
	tagk_real phi = 0;
	for (int k = 0; k < n; k++) {
		tagk_real t = (tagk_real)k * dt;
		phi += dt * (ax->h - (ax->h - ax->l) * t / T);
		tagk_real w = (1 - tagk_cos(TWO_PI_R * t / T)) / 2;
		X[k] = ax->alpha * tagk_sin(TWO_PI_R * phi) * w;
	}
}

tagk_status
tagk_dls_step(int m, int n, const tagk_real *J, const tagk_real *e, tagk_real lambda, tagk_real gain,
    tagk_real *dq, tagk_real *ws)
{
	if (m < 1 || n < 1 || !J || !e || !dq || !ws || !(lambda >= 0))
		return TAGK_EINVAL;
	if (!tagk_all_finite(m * n, J) || !tagk_all_finite(m, e) || !tagk_isfinite(gain))
		return TAGK_ENONFINITE;
	tagk_real *S = ws, *v = ws + n * n;
	memset(S, 0, sizeof(*S) * (size_t)n * (size_t)n);
	tagk_syrk_t(m, n, J, 1, S);
	for (int i = 0; i < n; i++)
		S[i * n + i] += lambda * lambda;
	tagk_gemv_t(m, n, J, e, v);
	if (tagk_cholesky(n, S) != TAGK_OK)
		return TAGK_EINVAL;
	tagk_cholesky_solve(n, 1, S, v);
	for (int i = 0; i < n; i++)
		dq[i] = gain * v[i];
	return TAGK_OK;
}
