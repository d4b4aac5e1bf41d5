/* batch.c: batch least squares from normal equations; see batch.h. */
#include <string.h>
#include "batch.h"
#include "hac.h"
#include "linalg.h"
#include "pcls.h"

tagk_status
tagk_batch_init(tagk_batch *q, const tagk_method *mt, int n)
{
	if (!q || !mt || mt->kind != TAGK_KIND_BATCH || n < 1 || n > TAGK_NPARAM)
		return TAGK_EINVAL;
	memset(q, 0, sizeof(*q));
	q->method = mt;
	q->n = n;
	return TAGK_OK;
}

void
tagk_batch_clear(tagk_batch *q)
{
	const tagk_method *mt = q->method;
	int n = q->n, have = q->have_prior;
	tagk_real prior[TAGK_NPARAM], lambda = q->lambda;
	memcpy(prior, q->prior, sizeof(prior));
	memset(q, 0, sizeof(*q));
	q->method = mt;
	q->n = n;
	q->have_prior = have;
	q->lambda = lambda;
	memcpy(q->prior, prior, sizeof(prior));
}

tagk_status
tagk_batch_set_prior(tagk_batch *q, const tagk_real *theta0, tagk_real lambda)
{
	if (!q || !theta0 || !(lambda >= 0) || (q->method->preset[2] != 0 && !(lambda > 0)))
		return TAGK_EINVAL;
	if (!tagk_all_finite(q->n, theta0) || !tagk_isfinite(lambda))
		return TAGK_ENONFINITE;
	memcpy(q->prior, theta0, sizeof(*theta0) * (size_t)q->n);
	q->lambda = lambda;
	q->have_prior = 1;
	return TAGK_OK;
}

static tagk_status
add(tagk_batch *q, int k, const double *y, double b, double w)
{
	const int n = q->n;
	if (k < 0 || k >= TAGK_BATCH_ROWS)
		return TAGK_EINVAL;
	double s = b + w;
	for (int i = 0; i < n; i++)
		s += y[i];
	if (s - s != 0) /* NaN or an infinity among them */
		return TAGK_ENONFINITE;
	if (!(w >= 0))
		return TAGK_EINVAL;
	if (k >= q->nrows)
		q->nrows = k + 1;
	for (int i = 0; i < n; i++) {
		q->h[k][i] += w * y[i] * b;
		for (int j = 0; j < n; j++)
			q->H[k][i * n + j] += w * y[i] * y[j];
	}
	q->c[k] += w * b * b;
	q->count[k]++;
	return TAGK_OK;
}

/* Whether this batch has weights is fixed by its first row. */
static int
first_row(const tagk_batch *q)
{
	for (int r = 0; r < q->nrows; r++)
		if (q->count[r])
			return 0;
	return 1;
}

tagk_status
tagk_batch_add(tagk_batch *q, int k, const double *y, double b)
{
	if (q->given_weights && !first_row(q))
		return TAGK_EINVAL;
	q->given_weights = 0;
	return add(q, k, y, b, 1);
}

tagk_status
tagk_batch_add_weighted(tagk_batch *q, int k, const double *y, double b, double w)
{
	if ((!q->given_weights && !first_row(q)) || q->method->preset[0] == 0)
		return TAGK_EINVAL;
	q->given_weights = 1;
	return add(q, k, y, b, w);
}

long
tagk_batch_samples(const tagk_batch *q)
{
	return q->count[0];
}

/* Solve H theta = h, subject to consistency or not. */
static tagk_status
solve(int n, const double *H, const double *h, int consistent, tagk_real *x)
{
	tagk_real K[TAGK_NPARAM * TAGK_NPARAM];
	for (int i = 0; i < n * n; i++)
		K[i] = (tagk_real)H[i];
	for (int i = 0; i < n; i++)
		x[i] = (tagk_real)h[i];
	if (consistent && n == TAGK_NPARAM) {
		tagk_pcls_config cfg;
		tagk_pcls_defaults(&cfg, 1);
		tagk_real ws[TAGK_PCLS_WORKSPACE_LEN(1)], rhs[TAGK_NPARAM], K0[TAGK_NPARAM * TAGK_NPARAM];
		memcpy(rhs, x, sizeof(rhs));
		memcpy(K0, K, sizeof(K0));
		/* Without a prior, the constraints alone hold the directions no
		 * data determine, anywhere inside the physical set: the answer
		 * there is the solver's path, not the data's (1e6 kg from one
		 * sample). A singular H is refused as the data's rank. */
		if (tagk_cholesky(n, K0) != TAGK_OK)
			return TAGK_ENOTPD;
		return tagk_pcls_solve(&cfg, K, rhs, x, NULL, ws, sizeof(ws) / sizeof(ws[0]));
	}
	if (tagk_cholesky(n, K) != TAGK_OK)
		return TAGK_ENOTPD;
	tagk_cholesky_solve(n, 1, K, x);
	if (consistent && x[0] < 0) /* the mass model: consistent means m >= 0 */
		x[0] = 0;
	return TAGK_OK;
}

/* The residual variance of each row index at theta: the mean square
 * residual, times N / (N - n) for the degrees of freedom of N rows and n
 * parameters when dof is set. (The weights of wls are the plain means'
 * inverses: the regularised methods weigh them against their prior.) */
static void
row_variances(const tagk_batch *q, const tagk_real *theta, int with_dof, double *var)
{
	const int n = q->n;
	long N = 0;
	for (int r = 0; r < q->nrows; r++)
		N += q->count[r];
	double dof = with_dof && N > n ? (double)N / (double)(N - n) : 1;
	for (int r = 0; r < q->nrows; r++) {
		double s = q->c[r];
		for (int i = 0; i < n; i++) {
			double hi = 0;
			for (int j = 0; j < n; j++)
				hi += q->H[r][i * n + j] * (double)theta[j];
			s += (double)theta[i] * (hi - 2 * q->h[r][i]);
		}
		var[r] = s > 0 && q->count[r] ? dof * s / (double)q->count[r] : 0;
	}
}

/* The (weighted) normal equations into H, h; theta holds the first fit's
 * solution, consistent as the flag says, when weights were computed. */
static tagk_status
normal(const tagk_batch *q, int consistent, double *H, double *h, tagk_real *theta)
{
	const int n = q->n, weighted = q->method->preset[0] != 0;
	memset(H, 0, sizeof(*H) * (size_t)n * (size_t)n);
	memset(h, 0, sizeof(*h) * (size_t)n);
	if (q->nrows == 0)
		return TAGK_EZERO;
	for (int r = 0; r < q->nrows; r++) {
		for (int i = 0; i < n * n; i++)
			H[i] += q->H[r][i];
		for (int i = 0; i < n; i++)
			h[i] += q->h[r][i];
	}
	if (!weighted || q->given_weights)
		return TAGK_OK;
	tagk_status st = solve(n, H, h, consistent, theta);
	if (st != TAGK_OK)
		return st;
	/* residual variance of each row index, from the first fit */
	double var[TAGK_BATCH_ROWS], vmax = 0;
	row_variances(q, theta, 0, var);
	for (int r = 0; r < q->nrows; r++)
		if (var[r] > vmax)
			vmax = var[r];
	memset(H, 0, sizeof(*H) * (size_t)n * (size_t)n);
	memset(h, 0, sizeof(*h) * (size_t)n);
	for (int r = 0; r < q->nrows; r++) {
		/* a row that fits exactly would take all the weight: floor it */
		double lo = vmax > 0 ? 1e-12 * vmax : 1;
		double w = 1 / (var[r] > lo ? var[r] : lo);
		for (int i = 0; i < n * n; i++)
			H[i] += w * q->H[r][i];
		for (int i = 0; i < n; i++)
			h[i] += w * q->h[r][i];
	}
	return TAGK_OK;
}

tagk_status
tagk_batch_normal(const tagk_batch *q, double *H, double *h)
{
	tagk_real theta[TAGK_NPARAM];
	if (!q || !q->method || !H || !h)
		return TAGK_EINVAL;
	return normal(q, 0, H, h, theta);
}

static tagk_status
fit(const tagk_batch *q, tagk_real *theta)
{
	const int n = q->n, consistent = q->method->preset[1] != 0;
	double H[TAGK_NPARAM * TAGK_NPARAM], h[TAGK_NPARAM];
	if (consistent && n != TAGK_NPARAM && n != 1)
		return TAGK_EINVAL;
	tagk_status st = normal(q, consistent, H, h, theta);
	return st != TAGK_OK ? st : solve(n, H, h, consistent, theta);
}

tagk_status
tagk_batch_solve(const tagk_batch *q, tagk_real *theta)
{
	if (!q || !q->method || !theta)
		return TAGK_EINVAL;
	const tagk_batch_ops *ops = (const tagk_batch_ops *)q->method->ops;
	return ops->solve ? ops->solve(q, theta) : TAGK_EINVAL; /* a method that needs every sample */
}


/* The weights of the method's own fit into w (q->nrows): 1 for ols and
 * rows with their own weights, 1 / s_r^2 of the ordinary fit for wls. */
static tagk_status
sd_weights(const tagk_batch *q, double *w)
{
	const int n = q->n, consistent = q->method->preset[1] != 0;
	double var[TAGK_BATCH_ROWS];
	for (int r = 0; r < q->nrows; r++)
		w[r] = 1;
	if (q->method->preset[0] == 0 || q->given_weights)
		return TAGK_OK;
	tagk_real th0[TAGK_NPARAM];
	double H0[TAGK_NPARAM * TAGK_NPARAM], h0[TAGK_NPARAM];
	memset(H0, 0, sizeof(H0));
	memset(h0, 0, sizeof(h0));
	for (int r = 0; r < q->nrows; r++) {
		for (int i = 0; i < n * n; i++)
			H0[i] += q->H[r][i];
		for (int i = 0; i < n; i++)
			h0[i] += q->h[r][i];
	}
	tagk_status st = solve(n, H0, h0, consistent, th0);
	if (st != TAGK_OK)
		return st;
	row_variances(q, th0, 0, var);
	double vmax = 0;
	for (int r = 0; r < q->nrows; r++)
		vmax = var[r] > vmax ? var[r] : vmax;
	for (int r = 0; r < q->nrows; r++) {
		double lo = vmax > 0 ? 1e-12 * vmax : 1;
		w[r] = 1 / (var[r] > lo ? var[r] : lo);
	}
	return TAGK_OK;
}

/* sd (n) from Hw (n x n, destroyed) and the meat (n x n): the diagonal of
 * Hw^-1 meat Hw^-1. */
static tagk_status
sandwich_sd(int n, tagk_real *Hw, const tagk_real *meat, tagk_real *sd)
{
	tagk_real X[TAGK_NPARAM * TAGK_NPARAM], Y[TAGK_NPARAM * TAGK_NPARAM];
	if (tagk_cholesky(n, Hw) != TAGK_OK)
		return TAGK_ENOTPD;
	/* X = Hw^-1 meat, then the diagonal of X Hw^-1 = (Hw^-1 X^T)^T */
	memcpy(X, meat, sizeof(*X) * (size_t)n * (size_t)n);
	tagk_cholesky_solve(n, n, Hw, X);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			Y[i * n + j] = X[j * n + i];
	tagk_cholesky_solve(n, n, Hw, Y);
	for (int j = 0; j < n; j++)
		sd[j] = Y[j * n + j] > 0 ? tagk_sqrt(Y[j * n + j]) : 0;
	return TAGK_OK;
}

tagk_status
tagk_batch_sd(const tagk_batch *q, const tagk_real *theta, tagk_real *sd)
{
	if (!q || !q->method || !theta || !sd)
		return TAGK_EINVAL;
	const tagk_batch_ops *ops = (const tagk_batch_ops *)q->method->ops;
	if (ops->solve != fit)
		return TAGK_EINVAL;
	const int n = q->n;
	/* the weights: those of the method's own fit (wls), else 1 */
	double w[TAGK_BATCH_ROWS], var[TAGK_BATCH_ROWS];
	tagk_status st = sd_weights(q, w);
	if (st != TAGK_OK)
		return st;
	row_variances(q, theta, 1, var);
	tagk_real Hw[TAGK_NPARAM * TAGK_NPARAM], meat[TAGK_NPARAM * TAGK_NPARAM];
	for (int i = 0; i < n * n; i++) {
		double a = 0, b = 0;
		for (int r = 0; r < q->nrows; r++) {
			a += w[r] * q->H[r][i];
			b += w[r] * w[r] * var[r] * q->H[r][i];
		}
		Hw[i] = (tagk_real)a;
		meat[i] = (tagk_real)b;
	}
	return sandwich_sd(n, Hw, meat, sd);
}

void
tagk_batch_block_add(double *block, int n, int k, const double *y, double b, double w)
{
	if (k < 0 || k >= TAGK_BATCH_ROWS)
		return;
	double *H = block + (size_t)k * (size_t)(n * n + n), *h = H + n * n;
	for (int i = 0; i < n; i++) {
		h[i] += w * y[i] * b;
		for (int j = 0; j < n; j++)
			H[i * n + j] += w * y[i] * y[j];
	}
}

tagk_status
tagk_batch_sd_hac(const tagk_batch *q, const tagk_real *theta, const double *blocks, int nblocks, double *G,
    tagk_real *sd, int *bandwidth)
{
	if (!q || !q->method || !theta || !blocks || nblocks < 1 || !G || !sd)
		return TAGK_EINVAL;
	const tagk_batch_ops *ops = (const tagk_batch_ops *)q->method->ops;
	if (ops->solve != fit)
		return TAGK_EINVAL;
	const int n = q->n, len = TAGK_BATCH_BLOCK_LEN(n);
	double w[TAGK_BATCH_ROWS], Om[TAGK_NPARAM * TAGK_NPARAM];
	tagk_status st = sd_weights(q, w);
	if (st != TAGK_OK)
		return st;
	/* each block's score sum_r w_r (h_br - H_br theta) */
	for (int b = 0; b < nblocks; b++)
		for (int i = 0; i < n; i++) {
			double g = 0;
			for (int r = 0; r < q->nrows; r++) {
				const double *H = blocks + (size_t)b * len + (size_t)r * (size_t)(n * n + n), *h = H + n * n;
				double e = h[i];
				for (int j = 0; j < n; j++)
					e -= H[i * n + j] * (double)theta[j];
				g += w[r] * e;
			}
			G[(size_t)b * n + i] = g;
		}
	int B = tagk_hac_bandwidth_vec(nblocks, n, G, nblocks - 1);
	tagk_hac_cov(nblocks, n, G, B, Om);
	long N = tagk_batch_samples(q);
	double dof = N > n ? (double)N / (double)(N - n) : 1, wid = tagk_hac_widen(B, nblocks);
	tagk_real Hw[TAGK_NPARAM * TAGK_NPARAM], meat[TAGK_NPARAM * TAGK_NPARAM];
	for (int i = 0; i < n * n; i++) {
		double a = 0;
		for (int r = 0; r < q->nrows; r++)
			a += w[r] * q->H[r][i];
		Hw[i] = (tagk_real)a;
		meat[i] = (tagk_real)(dof * wid * wid * Om[i]);
	}
	if (bandwidth)
		*bandwidth = B;
	return sandwich_sd(n, Hw, meat, sd);
}

/* The presets of methods.def share fit; the weighted ones also take a
 * weight column. */
static const char *const ols_keys[] = { "segment", NULL };
static const char *const wls_keys[] = { "segment", "weight", NULL };

const tagk_batch_ops tagk_batch_ols_ops = { { ols_keys }, fit, NULL };
const tagk_batch_ops tagk_batch_wls_ops = { { wls_keys }, fit, NULL };
