/* fitcheck.c: the median relative prediction error of a stream of windows;
 * see fitcheck.h. */
#include <string.h>
#include "fitcheck.h"

void
tagk_fitcheck_init(tagk_fitcheck *f)
{
	memset(f, 0, sizeof(*f));
}

void
tagk_fitcheck_add(tagk_fitcheck *f, int m, int n, const tagk_real *A, const tagk_real *b, const tagk_real *theta)
{
	tagk_real ee = 0, bb = 0;
	for (int i = 0; i < m; i++) {
		tagk_real p = 0;
		for (int j = 0; j < n; j++)
			p += A[i * n + j] * theta[j];
		tagk_real e = b[i] - p;
		ee += e * e;
		bb += b[i] * b[i];
	}
	if (!(bb > 0) || !tagk_isfinite(ee) || !tagk_isfinite(bb))
		return;
	tagk_real r = ee / bb;
	int k = r > 0 ? (int)((tagk_log(r) / tagk_log((tagk_real)10) + 12) * 10) : 0;
	if (k < 0)
		k = 0;
	if (k >= TAGK_FITCHECK_BINS)
		k = TAGK_FITCHECK_BINS - 1;
	f->bin[k]++;
	f->n++;
}

tagk_real
tagk_fitcheck_median(const tagk_fitcheck *f)
{
	if (f->n == 0)
		return (tagk_real)NAN;
	long half = (f->n + 1) / 2, seen = 0;
	int k = 0;
	while (k < TAGK_FITCHECK_BINS - 1 && (seen += f->bin[k]) < half)
		k++;
	/* the bin's geometric centre: 10^(k/10 - 12) times 10^0.05 */
	static const double tenths[10] = { 1.1220184543019633, 1.4125375446227544, 1.7782794100389228,
		2.2387211385683394, 2.8183829312644537, 3.5481338923357546, 4.4668359215096318,
		5.6234132519034912, 7.0794578438413795, 8.9125093813374561 };
	tagk_real r = (tagk_real)tenths[k % 10];
	for (int d = k / 10 - 12; d < 0; d++)
		r /= 10;
	for (int d = k / 10 - 12; d > 0; d--)
		r *= 10;
	return r;
}
