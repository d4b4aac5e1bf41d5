/* metrics.c: block errors and the log-det divergence; see metrics.h. */
#include <string.h>
#include "metrics.h"
#include "inertia.h"
#include "linalg.h"

static tagk_real
rel(tagk_real num2, tagk_real den2)
{
	return den2 > 0 ? tagk_sqrt(num2 / den2) : tagk_sqrt(num2);
}

void
tagk_block_errors(const tagk_real est[TAGK_NPARAM], const tagk_real truth[TAGK_NPARAM], tagk_real err[TAGK_NERR])
{
	tagk_real dm = est[0] - truth[0];
	err[TAGK_ERR_MASS] = rel(dm * dm, truth[0] * truth[0]);
	tagk_real n = 0, d = 0;
	for (int i = 1; i < 4; i++) {
		n += (est[i] - truth[i]) * (est[i] - truth[i]);
		d += truth[i] * truth[i];
	}
	err[TAGK_ERR_MOMENT] = rel(n, d);
	tagk_real Ie[9], It[9];
	tagk_theta_inertia(est, Ie);
	tagk_theta_inertia(truth, It);
	n = d = 0;
	for (int i = 0; i < 9; i++) {
		n += (Ie[i] - It[i]) * (Ie[i] - It[i]);
		d += It[i] * It[i];
	}
	err[TAGK_ERR_INERTIA] = rel(n, d);
}

/* x - log(1 + x) for x > -1, without the cancellation near 0: the series
 * x^2/2 - x^3/3 + ... there. */
static tagk_real
gap_log1p(tagk_real x)
{
	if (tagk_fabs(x) >= (tagk_real)0.1)
		return x - tagk_log(1 + x);
	tagk_real s = 0, p = x;
	for (int k = 2; k < 40; k++) {
		p *= -x;
		tagk_real t = -p / (tagk_real)k;
		s += t;
		if (tagk_fabs(t) <= (tagk_real)TAGK_EPS * tagk_fabs(s))
			break;
	}
	return s;
}

tagk_real
tagk_logdet_divergence(const tagk_real theta[TAGK_NPARAM], const tagk_real theta0[TAGK_NPARAM])
{
	tagk_real L0[16], d[TAGK_NPARAM], Y[16], X[16], w[4], scratch[16];
	tagk_pseudo_inertia(theta0, L0);
	if (tagk_cholesky(4, L0) != TAGK_OK)
		return -2;
	for (int a = 0; a < TAGK_NPARAM; a++)
		d[a] = theta[a] - theta0[a];
	tagk_pseudo_inertia(d, Y);
	/* Y <- L0^-1 Y, twice with a transpose between: X = L0^-1 J(d) L0^-T */
	for (int pass = 0; pass < 2; pass++) {
		for (int c = 0; c < 4; c++)
			for (int i = 0; i < 4; i++) {
				tagk_real v = Y[i * 4 + c];
				for (int j = 0; j < i; j++)
					v -= L0[i * 4 + j] * Y[j * 4 + c];
				Y[i * 4 + c] = v / L0[i * 4 + i];
			}
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++)
				X[j * 4 + i] = Y[i * 4 + j];
		memcpy(Y, X, sizeof(Y));
	}
	for (int i = 0; i < 4; i++) /* symmetric up to rounding: make it exactly so */
		for (int j = 0; j < i; j++)
			X[i * 4 + j] = X[j * 4 + i] = (X[i * 4 + j] + X[j * 4 + i]) / 2;
	if (tagk_symeig(4, X, w, NULL, scratch) != TAGK_OK || !(w[0] > -1))
		return -1;
	tagk_real D = 0;
	for (int i = 0; i < 4; i++)
		D += gap_log1p(w[i]);
	return D;
}

tagk_real
tagk_ncc(const tagk_real *a, const tagk_real *b, long n, long max_shift)
{
	tagk_real best = (tagk_real)NAN;
	if (!a || !b || n < 2 || max_shift < 0 || !tagk_all_finite((int)n, a) || !tagk_all_finite((int)n, b))
		return best;
	for (long s = -max_shift; s <= max_shift; s++) {
		/* a_t against b_{t+s} for t in [lo, hi) */
		long lo = s < 0 ? -s : 0, hi = s > 0 ? n - s : n;
		if (hi - lo < 2)
			continue;
		tagk_real ma = 0, mb = 0, saa = 0, sbb = 0, sab = 0;
		for (long t = lo; t < hi; t++) {
			ma += a[t];
			mb += b[t + s];
		}
		ma /= (tagk_real)(hi - lo);
		mb /= (tagk_real)(hi - lo);
		for (long t = lo; t < hi; t++) {
			tagk_real da = a[t] - ma, db = b[t + s] - mb;
			saa += da * da;
			sbb += db * db;
			sab += da * db;
		}
		if (!(saa > 0) || !(sbb > 0))
			continue;
		tagk_real r = sab / tagk_sqrt(saa * sbb);
		if (!(r <= best))
			best = r > 1 ? 1 : r < -1 ? -1 : r;
	}
	return best;
}

tagk_status
tagk_pullback_metric(const tagk_real theta0[TAGK_NPARAM], tagk_real G[TAGK_NPARAM * TAGK_NPARAM])
{
	tagk_real L[16], W[TAGK_NPARAM][16];
	tagk_pseudo_inertia(theta0, L);
	if (tagk_cholesky(4, L) != TAGK_OK)
		return TAGK_EINVAL;
	for (int i = 0; i < TAGK_NPARAM; i++) {
		tagk_real e[TAGK_NPARAM] = { 0 };
		e[i] = 1;
		tagk_pseudo_inertia(e, W[i]);
		tagk_cholesky_solve(4, 4, L, W[i]); /* J0^-1 V_i */
	}
	for (int i = 0; i < TAGK_NPARAM; i++)
		for (int j = 0; j < TAGK_NPARAM; j++) {
			tagk_real t = 0;
			for (int a = 0; a < 4; a++)
				for (int c = 0; c < 4; c++)
					t += W[i][a * 4 + c] * W[j][c * 4 + a];
			G[i * TAGK_NPARAM + j] = t;
		}
	return TAGK_OK;
}
