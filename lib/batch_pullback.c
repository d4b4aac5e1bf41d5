/* batch_pullback.c: wls-pullback, weighted least squares regularised toward a
 * prior by the pullback metric of the pseudo-inertia (paper 002, eq. 8); see
 * batch.h. Minimises the weighted residuals plus
 * lambda (theta - theta0)^T G (theta - theta0), G_ij = tr(J0^-1 V_i J0^-1 V_j)
 * with J0 = J(theta0) and V_i = J(e_i): the metric that makes the regulariser
 * a quadratic approximation of the log-det divergence at the prior, so that
 * it weighs the mass, the first moment and the inertia in the body's own
 * units rather than the coordinates'. */
#include <string.h>
#include "batch.h"
#include "metrics.h"
#include "linalg.h"

static tagk_status
pullback(const tagk_batch *q, tagk_real *theta)
{
	if (q->n != TAGK_NPARAM || !q->have_prior)
		return TAGK_EINVAL;
	tagk_real G[TAGK_NPARAM * TAGK_NPARAM];
	if (tagk_pullback_metric(q->prior, G) != TAGK_OK)
		return TAGK_EINVAL; /* a prior that is not physical has no metric */
	double H[TAGK_NPARAM * TAGK_NPARAM], h[TAGK_NPARAM];
	tagk_status st = tagk_batch_normal(q, H, h);
	if (st != TAGK_OK)
		return st;
	for (int i = 0; i < TAGK_NPARAM; i++)
		for (int j = 0; j < TAGK_NPARAM; j++) {
			double g = (double)G[i * TAGK_NPARAM + j];
			H[i * TAGK_NPARAM + j] += (double)q->lambda * g;
			h[i] += (double)q->lambda * g * (double)q->prior[j];
		}
	tagk_real K[TAGK_NPARAM * TAGK_NPARAM];
	for (int i = 0; i < TAGK_NPARAM * TAGK_NPARAM; i++)
		K[i] = (tagk_real)H[i];
	for (int i = 0; i < TAGK_NPARAM; i++)
		theta[i] = (tagk_real)h[i];
	if (tagk_cholesky(TAGK_NPARAM, K) != TAGK_OK)
		return TAGK_ENOTPD;
	tagk_cholesky_solve(TAGK_NPARAM, 1, K, theta);
	return tagk_all_finite(TAGK_NPARAM, theta) ? TAGK_OK : TAGK_ENONFINITE;
}

static const char *const keys[] = { "segment", "weight", "theta0", "prior-weight", NULL };
const tagk_batch_ops tagk_batch_pullback_ops = { { keys }, pullback, NULL };
