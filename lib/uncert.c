/* uncert.c: the error covariance of a recursive estimate; see uncert.h. */
#include <math.h>
#include <string.h>
#include "uncert.h"
#include "linalg.h"

size_t
tagk_uncert_workspace_len(int n, int m_max)
{
	if (n < 1 || m_max < 1)
		return 0;
	return (size_t)n * (size_t)n * 5 + (size_t)n * (size_t)m_max + (size_t)m_max + 2 * (size_t)n;
}

tagk_status
tagk_uncert_init(tagk_uncert *u, int n, int m_max, const tagk_real *P0, tagk_real p0, tagk_real *ws, size_t len)
{
	if (!u || !ws || n < 1 || m_max < 1)
		return TAGK_EINVAL;
	if (len < tagk_uncert_workspace_len(n, m_max))
		return TAGK_ESPACE;
	memset(u, 0, sizeof(*u));
	u->n = n;
	u->m_max = m_max;
	u->E = ws;
	ws += n * n;
	u->M = ws;
	ws += n * n;
	u->T = ws;
	ws += n * n;
	u->K = ws;
	ws += n * m_max;
	u->e = ws;
	ws += m_max;
	u->Hr = ws;
	ws += n * n;
	u->L = ws;
	ws += n * n;
	u->hr = ws;
	ws += n;
	u->tr = ws;
	memset(u->Hr, 0, sizeof(*ws) * (size_t)(2 * n * n + 2 * n));
	for (int i = 0; i < n * n; i++)
		u->M[i] = i % (n + 1) == 0; /* I until the first update */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			u->E[i * n + j] = P0 ? P0[i * n + j] : i == j ? p0 : 0;
	return TAGK_OK;
}

/* (A E A^T)_ii for row a of A. */
static tagk_real
quad(const tagk_uncert *u, const tagk_real *a)
{
	const int n = u->n;
	tagk_real s = 0;
	for (int j = 0; j < n; j++) {
		tagk_real r = 0;
		for (int k = 0; k < n; k++)
			r += u->E[j * n + k] * a[k];
		s += a[j] * r;
	}
	return s;
}

/* The reference fit's residuals of the window (the noise's correlation,
 * uncert.h), then the window into the fit. */
static void
observe_ref(tagk_uncert *u, int m, const tagk_real *A, const tagk_real *b, const int *kind)
{
	const int n = u->n;
	double xs[TAGK_UNCERT_KINDS] = { 0 };
	int xn[TAGK_UNCERT_KINDS] = { 0 };
	for (int i = 0; u->have_ref && i < m; i++) {
		int c = kind ? kind[i] : 0;
		if (c < 0 || c >= TAGK_UNCERT_KINDS)
			c = 0;
		tagk_real p = 0;
		for (int j = 0; j < n; j++)
			p += A[i * n + j] * u->tr[j];
		double r = (double)(b[i] - p), lim = 5 * sqrt(u->s2[c]);
		if (!isfinite(r))
			continue;
		/* an outlier or a change of the truth: clipped, not followed */
		if (u->cnt[c] && u->s2[c] > 0 && fabs(r) > lim)
			r = r > 0 ? lim : -lim;
		xs[c] += r;
		xn[c]++;
		u->rsum[c] += r;
		u->r2sum[c] += r * r;
		u->rows[c]++;
	}
	for (int c = 0; c < TAGK_UNCERT_KINDS; c++)
		if (xn[c])
			tagk_lrv_add(&u->lrv[c], xs[c] / xn[c]);
	/* the window into the fit, the older ones forgotten by 1/1024 */
	const tagk_real keep = (tagk_real)(1 - 1.0 / 1024);
	for (int j = 0; j < n; j++) {
		u->hr[j] *= keep;
		for (int l = 0; l < n; l++)
			u->Hr[j * n + l] *= keep;
	}
	for (int i = 0; i < m; i++) {
		if (!isfinite((double)b[i]))
			continue;
		for (int j = 0; j < n; j++) {
			u->hr[j] += A[i * n + j] * b[i];
			for (int l = 0; l < n; l++)
				u->Hr[j * n + l] += A[i * n + j] * A[i * n + l];
		}
	}
	memcpy(u->L, u->Hr, sizeof(*u->L) * (size_t)(n * n));
	memcpy(u->tr, u->hr, sizeof(*u->tr) * (size_t)n);
	u->have_ref = tagk_cholesky(n, u->L) == TAGK_OK;
	if (u->have_ref)
		tagk_cholesky_solve(n, 1, u->L, u->tr);
	for (int j = 0; u->have_ref && j < n; j++)
		u->have_ref = tagk_isfinite(u->tr[j]);
}

void
tagk_uncert_observe(tagk_uncert *u, int m, const tagk_real *A, const tagk_real *b, const int *kind,
    const tagk_real *theta)
{
	const int n = u->n;
	if (m > u->m_max)
		m = u->m_max;
	observe_ref(u, m, A, b, kind);
	for (int i = 0; i < m; i++) {
		int c = kind ? kind[i] : 0;
		if (c < 0 || c >= TAGK_UNCERT_KINDS)
			c = 0;
		if (!u->cnt[c])
			continue; /* not started: the first window's residuals start it */
		tagk_real p = 0;
		for (int j = 0; j < n; j++)
			p += A[i * n + j] * theta[j];
		double e = (double)(b[i] - p), q = (double)quad(u, A + i * n), s2 = u->s2[c];
		if (!isfinite(e) || q > 100 * s2 || e * e > 25 * (s2 + q))
			continue;
		/* the mean of the rows so far, then a running mean that follows
		 * a noise that changes */
		long k = ++u->cnt[c];
		double w = k < 4096 ? 1.0 / (double)k : 1.0 / 4096;
		/* one row's e^2 - q can be far below 0 (a large q, a small e):
		 * the variance never falls below a tenth of what it was */
		double next = s2 + w * (e * e - q - s2);
		u->s2[c] = next > 0.1 * s2 ? next : 0.1 * s2;
	}
}

/* Start the noise variance of a kind not started yet from the first window
 * with more rows than parameters, its residuals after its update: sum r^2
 * over the kind's share of the m - n degrees of freedom (the window's own
 * fit; later windows' estimates lean on the earlier ones, so their
 * residuals have other degrees of freedom, and the prediction errors take
 * over). */
static void
start_noise(tagk_uncert *u, int m, const tagk_real *A, const tagk_real *b, const int *kind,
    const tagk_real *theta)
{
	const int n = u->n;
	if (m <= n)
		return;
	double ss[TAGK_UNCERT_KINDS] = { 0 };
	int rows[TAGK_UNCERT_KINDS] = { 0 };
	for (int i = 0; i < m; i++) {
		int c = kind ? kind[i] : 0;
		if (c < 0 || c >= TAGK_UNCERT_KINDS)
			c = 0;
		tagk_real p = 0;
		for (int j = 0; j < n; j++)
			p += A[i * n + j] * theta[j];
		double r = (double)(b[i] - p);
		if (isfinite(r)) {
			ss[c] += r * r;
			rows[c]++;
		}
	}
	for (int c = 0; c < TAGK_UNCERT_KINDS; c++)
		if (!u->cnt[c] && rows[c]) {
			/* the start weighs as its degrees of freedom in the mean */
			double dof = (double)rows[c] * (double)(m - n) / (double)m;
			u->s2[c] = ss[c] / dof;
			u->cnt[c] = dof >= 1 ? (long)dof : 1;
		}
}

void
tagk_uncert_propagate(tagk_uncert *u, int m, const tagk_real *A, const tagk_real *b, const int *kind,
    const tagk_real *P, tagk_real r, const tagk_real *theta)
{
	const int n = u->n;
	if (m > u->m_max)
		m = u->m_max;
	start_noise(u, m, A, b, kind, theta);
	tagk_real *K = u->K, *M = u->M, *T = u->T, *E = u->E;
	/* K = P A^T / r, n x m */
	for (int j = 0; j < n; j++)
		for (int i = 0; i < m; i++) {
			tagk_real s = 0;
			for (int l = 0; l < n; l++)
				s += P[j * n + l] * A[i * n + l];
			K[j * m + i] = s / r;
		}
	/* M = I - K A */
	for (int j = 0; j < n; j++)
		for (int l = 0; l < n; l++) {
			tagk_real s = j == l ? 1 : 0;
			for (int i = 0; i < m; i++)
				s -= K[j * m + i] * A[i * n + l];
			M[j * n + l] = s;
		}
	/* T = M E, E = T M^T */
	for (int j = 0; j < n; j++)
		for (int l = 0; l < n; l++) {
			tagk_real s = 0;
			for (int k = 0; k < n; k++)
				s += M[j * n + k] * E[k * n + l];
			T[j * n + l] = s;
		}
	for (int j = 0; j < n; j++)
		for (int l = 0; l <= j; l++) {
			tagk_real s = 0;
			for (int k = 0; k < n; k++)
				s += T[j * n + k] * M[l * n + k];
			/* + K D K^T, D the noise variances of the rows' kinds */
			for (int i = 0; i < m; i++) {
				int c = kind ? kind[i] : 0;
				if (c < 0 || c >= TAGK_UNCERT_KINDS)
					c = 0;
				double d = u->s2[c] > 0 ? u->s2[c] : 0;
				s += K[j * m + i] * (tagk_real)d * K[l * m + i];
			}
			E[j * n + l] = E[l * n + j] = s;
		}
}

void
tagk_uncert_sd(const tagk_uncert *u, tagk_real *sd)
{
	for (int j = 0; j < u->n; j++) {
		tagk_real v = u->E[j * u->n + j];
		sd[j] = v > 0 ? tagk_sqrt(v) : 0;
	}
}

/* f (uncert.h) for parameter j, whose estimate keeps the share keep of
 * itself at each update. */
static double
hac_factor(const tagk_uncert *u, double keep)
{
	double f = 0;
	for (int c = 0; c < TAGK_UNCERT_KINDS; c++) {
		const tagk_lrv *l = &u->lrv[c];
		if (l->T < 16 || u->rows[c] < 2)
			continue;
		/* over the noise variance E holds (the prediction errors'), which
		 * a filter of short memory on correlated noise sees small: its
		 * last estimate already followed the noise */
		double R = (double)u->rows[c], s2 = u->s2[c];
		double mc = R / (double)l->T, v = tagk_lrv_variance(l);
		if (!(s2 > 0) || !(v > 0))
			continue;
		int B;
		double fc = mc * v * tagk_lrv_factor_kept(l, keep, &B) / s2, wid = tagk_hac_widen(B, l->T);
		fc *= wid * wid;
		f = fc > f ? fc : f;
	}
	return f > 0 ? f : 1;
}

void
tagk_uncert_sd_hac(const tagk_uncert *u, tagk_real *sd, double *factor)
{
	const int n = u->n;
	double fmax = 0;
	for (int j = 0; j < n; j++) {
		/* the parameter's retention: M = I - K A of the last update */
		double f = hac_factor(u, (double)u->M[j * n + j]);
		fmax = f > fmax ? f : fmax;
		tagk_real v = u->E[j * n + j];
		sd[j] = v > 0 ? tagk_sqrt((tagk_real)f * v) : 0;
	}
	if (factor)
		*factor = fmax;
}

double
tagk_uncert_noise(const tagk_uncert *u, int c)
{
	return c >= 0 && c < TAGK_UNCERT_KINDS && u->s2[c] > 0 ? u->s2[c] : 0;
}
