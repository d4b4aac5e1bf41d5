/* batch_dm.c: dm and dm-pc, paper 002's dual-metric least squares as batch
 * methods (batch.h): minimise sum_k r_k^T M_k(theta)^-1 r_k over every sample
 * kept, M_k affine in theta (the stream's metric columns), by dmls.h's
 * Newton; dm-pc keeps the body's pseudo-inertia physical. The start theta0
 * must make every M_k positive definite (and, for dm-pc, be physical). */
#include "batch.h"

static tagk_status
dm(const tagk_method *mt, const tagk_dmls_problem *pb, const tagk_real *theta0, tagk_real *theta, tagk_real *ws,
    size_t len)
{
	if (!mt || !pb || pb->p != TAGK_NPARAM)
		return TAGK_EINVAL;
	tagk_dmls_problem q = *pb;
	q.bodies = mt->preset[1] != 0 ? 1 : 0;
	return tagk_dmls_solve(&q, theta0, theta, NULL, ws, len);
}

static const char *const keys[] = { "segment", "theta0", NULL };
const tagk_batch_ops tagk_batch_dm_ops = { { keys }, NULL, dm };
