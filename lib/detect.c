/* detect.c: CUSUMs on the scale of windows' mean residuals; see detect.h. */
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
	cfg->ratio = 1000;
	cfg->nu = 4;
	cfg->skip = 3;
	cfg->learn = 20;
	cfg->memory = 50;
}

tagk_status
tagk_detect_init(tagk_detect *d, const tagk_detect_config *cfg, int kinds)
{
	if (!(cfg->h > 0) || !(cfg->ratio > 1) || !(cfg->nu > 0) || cfg->skip < 0 || cfg->learn < 1 ||
	    cfg->memory < 1 || kinds < 1 || kinds > TAGK_DETECT_KINDS)
		return TAGK_EINVAL;
	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->kinds = kinds;
	d->onset = -1;
	d->kind = -1;
	return TAGK_OK;
}

/* V's floor for kind j: residual means below 1e-6 of the rows' RMS b are
 * rounding and unconverged iterations, not a change (a noise-free
 * simulation's residuals); no sensor is that quiet. */
static tagk_real
floor_of(const tagk_detect *d, int j)
{
	return (tagk_real)1e-12 * d->B[j] + (tagk_real)FLT_MIN;
}

/* Learn V and B from one window (plain mean while learning, then the
 * exponential memory). */
static void
learn(tagk_detect *d, const tagk_real *mu, const int *cnt, const tagk_real *bsq)
{
	long k = d->learnt + 1;
	tagk_real a = k <= d->cfg.learn ? (tagk_real)1 / (tagk_real)k : (tagk_real)1 / (tagk_real)d->cfg.memory;
	for (int j = 0; j < d->kinds; j++) {
		if (!cnt[j])
			continue;
		d->V[j] += a * (mu[j] * mu[j] - d->V[j]);
		d->B[j] += a * (bsq[j] - d->B[j]);
	}
	d->learnt = k;
}

/* Kind j's log-likelihood ratio for the standardised mean z^2 (detect.h). */
static tagk_real
llr(const tagk_detect_config *c, tagk_real z2)
{
	tagk_real nu = c->nu;
	return (nu + 1) / 2 * (tagk_log(1 + z2 / nu) - tagk_log(1 + z2 / (c->ratio * nu))) - tagk_log(c->ratio) / 2;
}

/* The CUSUMs of one window; 1 on an alarm (onset and kind set). */
static int
test(tagk_detect *d, const tagk_real *mu, const int *cnt)
{
	int K = 0, top = -1;
	for (int j = 0; j < d->kinds; j++)
		K += cnt[j] != 0;
	tagk_real hk = d->cfg.h + tagk_log((tagk_real)(K > 0 ? K : 1));
	d->gmax = 0;
	for (int j = 0; j < d->kinds; j++) {
		if (!cnt[j])
			continue;
		tagk_real g = d->g[j] + llr(&d->cfg, mu[j] * mu[j] / (d->V[j] + floor_of(d, j)));
		if (g > 0 && d->g[j] == 0) {
			d->start[j] = d->updates - 1;
			d->Vsave[j] = d->V[j];
			d->Bsave[j] = d->B[j];
		}
		d->g[j] = g > 0 ? g : 0;
		if (d->g[j] > d->gmax) {
			d->gmax = d->g[j];
			top = j;
		}
	}
	d->tested = 1;
	if (!(d->gmax > hk))
		return 0;
	d->onset = d->start[top];
	d->kind = top;
	/* the windows of an excursion that ended in an alarm were the change,
	 * not noise: V forgets them */
	for (int j = 0; j < d->kinds; j++) {
		if (d->g[j] > 0) {
			d->V[j] = d->Vsave[j];
			d->B[j] = d->Bsave[j];
		}
		d->g[j] = 0;
	}
	return 1;
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
	d->tested = 0;
	if (d->since <= d->cfg.skip + (d->alarms ? d->cfg.learn : 0))
		return TAGK_OK;
	if (d->learnt >= d->cfg.learn && test(d, mu, cnt)) {
		*alarm = 1;
		d->alarms++;
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
		int zero = b[i] == 0;
		for (int c = 0; c < n; c++) {
			r -= A[(long)i * n + c] * theta[c];
			zero &= A[(long)i * n + c] == 0;
		}
		if (zero)
			continue; /* a row that says nothing (a torque row of -m mass) */
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
