/* outlier.c: the innovation gate; see outlier.h. */
#include "outlier.h"

void
tagk_outlier_init(tagk_outlier *gt, tagk_real limit)
{
	gt->limit = limit;
	gt->scale = 1;
	gt->rows = 0;
	gt->run = 0;
	gt->accepted = 0;
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

tagk_real
tagk_outlier_rows(int m, const tagk_real *b, tagk_real r)
{
	tagk_real s = 0;
	for (int i = 0; i < m; i++)
		s += b[i] * b[i];
	return s / (r * (tagk_real)m);
}

tagk_status
tagk_outlier_check(tagk_outlier *gt, tagk_real nis)
{
	if (!(gt->limit > 0))
		return TAGK_OK;
	if (!tagk_isfinite(nis))
		return TAGK_EOUTLIER;
	if (gt->accepted < TAGK_OUTLIER_WARMUP)
		return TAGK_OK; /* the scale is still being learnt from the data */
	/* 1e-4: residuals of 1 % of the rows' RMS size */
	tagk_real floor = gt->rows * (tagk_real)1e-4;
	tagk_real s = gt->scale > floor ? gt->scale : floor;
	if (nis <= gt->limit * s || gt->run >= TAGK_OUTLIER_RUN)
		return TAGK_OK;
	gt->run++;
	return TAGK_EOUTLIER;
}

void
tagk_outlier_accept(tagk_outlier *gt, tagk_real nis, tagk_real rows)
{
	if (nis < 0)
		nis = 0;
	if (!tagk_isfinite(rows) || rows < 0)
		rows = gt->rows;
	if (gt->accepted < TAGK_OUTLIER_WARMUP) {
		tagk_real w = 1 / (tagk_real)(gt->accepted + 1);
		gt->scale = gt->accepted ? gt->scale + (nis - gt->scale) * w : nis;
		gt->rows = gt->accepted ? gt->rows + (rows - gt->rows) * w : rows;
	} else if (gt->run >= TAGK_OUTLIER_RUN) {
		gt->scale = nis;
		gt->rows = rows;
	} else {
		gt->scale += (nis - gt->scale) / 16;
		gt->rows += (rows - gt->rows) / 16;
	}
	gt->run = 0;
	gt->accepted++;
}

tagk_real
tagk_outlier_scale(const tagk_outlier *gt)
{
	return gt->accepted ? gt->scale : (tagk_real)NAN;
}
