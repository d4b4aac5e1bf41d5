/* detect.c: CUSUM on the scale of windows' mean residuals; see detect.h. */
#include <string.h>
#include "detect.h"

tagk_real
tagk_detect_threshold(double arl)
{
	return arl > 1 ? (tagk_real)log(arl) : 0;
}

void
tagk_detect_defaults(tagk_detect_config *cfg, double arl)
{
	cfg->h = tagk_detect_threshold(arl);
	cfg->ratio = 4;
	cfg->cap = 50;
	cfg->skip = 3;
	cfg->learn = 20;
	cfg->memory = 100;
}

tagk_status
tagk_detect_init(tagk_detect *d, const tagk_detect_config *cfg, int kinds)
{
	if (!(cfg->h > 0) || !(cfg->ratio > 1) || !(cfg->cap > 0) || cfg->skip < 0 || cfg->learn < 1 ||
	    cfg->memory < 1 || kinds < 1 || kinds > TAGK_DETECT_KINDS)
		return TAGK_EINVAL;
	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->kinds = kinds;
	d->onset = -1;
	return TAGK_OK;
}

/* V's floor for kind j: residual means below 1e-6 of the rows' RMS b are
 * rounding and unconverged iterations, not a change (a noise-free
 * simulation's residuals); no sensor is that quiet. */
static tagk_real
floor_of(const tagk_detect *d, int j)
{
	return (tagk_real)1e-12 * d->B[j] + FLT_MIN;
}

/* Learn V and B from one window (plain mean while learning, then the
 * exponential memory with mu^2 clipped at 9 V). */
static void
learn(tagk_detect *d, const tagk_real *mu, const int *cnt, const tagk_real *bsq)
{
	long k = d->learnt + 1;
	tagk_real a = k <= d->cfg.learn ? (tagk_real)1 / (tagk_real)k : (tagk_real)1 / (tagk_real)d->cfg.memory;
	for (int j = 0; j < d->kinds; j++) {
		if (!cnt[j])
			continue;
		tagk_real q = mu[j] * mu[j];
		if (k > d->cfg.learn && q > 9 * d->V[j])
			q = 9 * d->V[j];
		d->V[j] += a * (q - d->V[j]);
		d->B[j] += a * (bsq[j] - d->B[j]);
	}
	d->learnt = k;
}

tagk_status
tagk_detect_means(tagk_detect *d, const tagk_real *mu, const int *cnt, const tagk_real *bsq, int *alarm)
{
	*alarm = 0;
	for (int j = 0; j < d->kinds; j++)
		if (cnt[j] && !(tagk_isfinite(mu[j]) && tagk_isfinite(bsq[j])))
			return TAGK_ENONFINITE;
	d->updates++;
	d->since++;
	d->l = 0;
	if (d->since <= d->cfg.skip)
		return TAGK_OK;
	if (d->learnt < d->cfg.learn) {
		learn(d, mu, cnt, bsq);
		return TAGK_OK;
	}
	tagk_real s = 0, lr = tagk_log(d->cfg.ratio);
	int K = 0;
	for (int j = 0; j < d->kinds; j++) {
		if (!cnt[j])
			continue;
		tagk_real z2 = mu[j] * mu[j] / (d->V[j] + floor_of(d, j));
		s += z2 < d->cfg.cap ? z2 : d->cfg.cap;
		K++;
	}
	d->l = (1 - 1 / d->cfg.ratio) * s / 2 - (tagk_real)K * lr / 2;
	if (d->g == 0 && d->l > 0)
		d->onset = d->updates - 1;
	d->g = d->g + d->l > 0 ? d->g + d->l : 0;
	if (d->g > d->cfg.h) {
		*alarm = 1;
		d->alarms++;
		d->g = 0;
		d->since = 0;
		return TAGK_OK;
	}
	learn(d, mu, cnt, bsq);
	return TAGK_OK;
}

tagk_status
tagk_detect_update(tagk_detect *d, int n, int m, const tagk_real *A, const tagk_real *b, const int *kind,
    const tagk_real *theta, int *alarm)
{
	tagk_real mu[TAGK_DETECT_KINDS], bsq[TAGK_DETECT_KINDS];
	int cnt[TAGK_DETECT_KINDS];
	*alarm = 0;
	for (int j = 0; j < d->kinds; j++) {
		mu[j] = bsq[j] = 0;
		cnt[j] = 0;
	}
	for (int i = 0; i < m; i++) {
		int j = kind[i];
		if (j < 0 || j >= d->kinds)
			return TAGK_EINVAL;
		tagk_real r = b[i];
		for (int c = 0; c < n; c++)
			r -= A[(long)i * n + c] * theta[c];
		mu[j] += r;
		bsq[j] += b[i] * b[i];
		cnt[j]++;
	}
	for (int j = 0; j < d->kinds; j++)
		if (cnt[j]) {
			mu[j] /= (tagk_real)cnt[j];
			bsq[j] /= (tagk_real)cnt[j];
		}
	return tagk_detect_means(d, mu, cnt, bsq, alarm);
}
