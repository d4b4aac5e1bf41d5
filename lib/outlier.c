/* outlier.c: the innovation gate; see outlier.h. */
#include "outlier.h"

void
tagk_outlier_init(tagk_outlier *gt, tagk_real limit)
{
	gt->limit = limit;
	gt->scale = 1;
	gt->run = 0;
}

tagk_real
tagk_outlier_nis(int m, int n, const tagk_real *A, const tagk_real *e, const tagk_real *g,
    tagk_real r)
{
	tagk_real d2 = 0;
	for (int i = 0; i < m; i++) {
		tagk_real ag = 0;
		for (int j = 0; j < n; j++)
			ag += A[i * n + j] * g[j];
		d2 += e[i] * (e[i] - ag);
	}
	return d2 / (r * (tagk_real)m);
}

tagk_status
tagk_outlier_check(tagk_outlier *gt, tagk_real nis)
{
	if (!(gt->limit > 0))
		return TAGK_OK;
	if (!tagk_isfinite(nis))
		return TAGK_EOUTLIER;
	tagk_real s = gt->scale > 1 ? gt->scale : 1;
	if (nis <= gt->limit * s || gt->run >= TAGK_OUTLIER_RUN)
		return TAGK_OK;
	gt->run++;
	return TAGK_EOUTLIER;
}

void
tagk_outlier_accept(tagk_outlier *gt, tagk_real nis)
{
	if (gt->run >= TAGK_OUTLIER_RUN)
		gt->scale = nis > 0 ? nis : 1;
	else if (nis >= 0)
		gt->scale += (nis - gt->scale) / 16;
	gt->run = 0;
}
