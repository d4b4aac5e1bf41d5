/* coordinv.c: paper 002's batch identifications; see coordinv.h. */
#include <string.h>
#include "coordinv.h"
#include "linalg.h"

/* WLS-Bregman stops at a Newton decrement of STOP (1 + |F|) */
#define STOP (TAGK_EPS > (tagk_real)1e-10 ? 100 * TAGK_EPS * TAGK_EPS : (tagk_real)1e-14)

const char *
tagk_ci_name(tagk_ci_method m)
{
	static const char *const names[TAGK_CI_NMETHODS] = { "OLS", "WLS", "energy", "WLS-pullback", "WLS-Bregman",
		"DM", "DM-frozen", "DM-pc" };
	return (unsigned)m < (unsigned)TAGK_CI_NMETHODS ? names[m] : "?";
}

size_t
tagk_ci_workspace_len(int n, int p)
{
	size_t own = (size_t)4 * p * p + (size_t)6 * p + (size_t)4 * n + (size_t)n * n + (size_t)n * p;
	size_t dm = tagk_dmls_workspace_len(n, p);
	return own > dm ? own : dm;
}

/* H = sum Y^T W Y and g = sum Y^T W tau (W = diag(w), or 1 for w NULL). */
static void
normal(const tagk_dmls_problem *pb, const tagk_real *w, tagk_real *H, tagk_real *g)
{
	const int n = pb->n, p = pb->p;
	memset(H, 0, sizeof(*H) * (size_t)p * (size_t)p);
	memset(g, 0, sizeof(*g) * (size_t)p);
	for (int k = 0; k < pb->N; k++) {
		const tagk_real *Y = pb->Y + (size_t)k * n * p, *tau = pb->tau + (size_t)k * n;
		for (int i = 0; i < n; i++) {
			const tagk_real wi = w ? w[i] : 1, *y = Y + (size_t)i * p;
			for (int a = 0; a < p; a++) {
				g[a] += wi * y[a] * tau[i];
				for (int b = 0; b <= a; b++)
					H[a * p + b] += wi * y[a] * y[b];
			}
		}
	}
	for (int a = 0; a < p; a++)
		for (int b = 0; b < a; b++)
			H[b * p + a] = H[a * p + b];
}

/* x = H^-1 g (H is destroyed). */
static tagk_status
solve(int p, tagk_real *H, const tagk_real *g, tagk_real *x)
{
	if (tagk_cholesky(p, H) != TAGK_OK)
		return TAGK_ENOTPD;
	memcpy(x, g, sizeof(*x) * (size_t)p);
	tagk_cholesky_solve(p, 1, H, x);
	return tagk_all_finite(p, x) ? TAGK_OK : TAGK_ENOTPD;
}

/* WLS's weights: the inverse residual variance of each coordinate after
 * OLS, floored so that an exact fit gives finite weights. */
static tagk_status
weights(const tagk_dmls_problem *pb, tagk_real *H, tagk_real *g, tagk_real *pi, tagk_real *w, tagk_real *var)
{
	const int n = pb->n, p = pb->p;
	normal(pb, NULL, H, g);
	tagk_status st = solve(p, H, g, pi);
	if (st != TAGK_OK)
		return st;
	memset(var, 0, sizeof(*var) * (size_t)n);
	memset(w, 0, sizeof(*w) * (size_t)n);
	for (int k = 0; k < pb->N; k++) {
		const tagk_real *Y = pb->Y + (size_t)k * n * p, *tau = pb->tau + (size_t)k * n;
		for (int i = 0; i < n; i++) {
			tagk_real r = -tau[i];
			for (int a = 0; a < p; a++)
				r += Y[i * p + a] * pi[a];
			var[i] += r * r / (tagk_real)pb->N;
			w[i] += tau[i] * tau[i] / (tagk_real)pb->N; /* the signal's power, for the floor */
		}
	}
	tagk_real top = 0;
	for (int i = 0; i < n; i++)
		top = w[i] > top ? w[i] : top;
	for (int i = 0; i < n; i++) {
		tagk_real floor = (tagk_real)1e-24 * top + TAGK_EPS * TAGK_EPS;
		w[i] = 1 / (var[i] > floor ? var[i] : floor);
	}
	return TAGK_OK;
}

/* min sum r^T M_k(pi0)^-1 r: H = sum Y^T W Y, g = sum Y^T W tau with W =
 * M_k(pi0)^-1 by each sample's Cholesky factor; scratch holds n n + n p + p
 * p reals. */
static tagk_status
frozen(const tagk_dmls_problem *pb, const tagk_real *pi0, tagk_real *H, tagk_real *g, tagk_real *pi,
    tagk_real *scratch)
{
	const int n = pb->n, p = pb->p;
	tagk_real *L = scratch, *X = L + n * n;
	memset(H, 0, sizeof(*H) * (size_t)p * (size_t)p);
	memset(g, 0, sizeof(*g) * (size_t)p);
	for (int k = 0; k < pb->N; k++) {
		const tagk_real *Mk = pb->M + (size_t)k * (size_t)(p + 1) * n * n;
		const tagk_real *Y = pb->Y + (size_t)k * n * p, *tau = pb->tau + (size_t)k * n;
		for (int e = 0; e < n * n; e++) {
			tagk_real v = Mk[e];
			for (int j = 0; j < p; j++)
				v += pi0[j] * Mk[(size_t)(1 + j) * n * n + e];
			L[e] = v;
		}
		if (tagk_cholesky(n, L) != TAGK_OK)
			return TAGK_ENOTPD;
		/* X = L^-1 [Y tau]: the whitened rows */
		for (int i = 0; i < n; i++) {
			for (int a = 0; a < p; a++)
				X[i * (p + 1) + a] = Y[i * p + a];
			X[i * (p + 1) + p] = tau[i];
		}
		tagk_trsm_lower(n, p + 1, L, X);
		for (int i = 0; i < n; i++) {
			const tagk_real *x = X + i * (p + 1);
			for (int a = 0; a < p; a++) {
				g[a] += x[a] * x[p];
				for (int b = 0; b <= a; b++)
					H[a * p + b] += x[a] * x[b];
			}
		}
	}
	for (int a = 0; a < p; a++)
		for (int b = 0; b < a; b++)
			H[b * p + a] = H[a * p + b];
	return solve(p, H, g, pi);
}

/* min pi^T H pi - 2 g^T pi + lambda sum (pi/pi0 - log(pi/pi0) - 1) over pi
 * > 0 by damped Newton from pi0. */
static tagk_status
bregman(int p, const tagk_real *H, const tagk_real *g, const tagk_real *pi0, tagk_real lambda, tagk_real *pi,
    tagk_real *K, tagk_real *grad, tagk_real *trial)
{
	memcpy(pi, pi0, sizeof(*pi) * (size_t)p);
	for (int it = 0; it < 200; it++) {
		tagk_real F = 0;
		for (int a = 0; a < p; a++) {
			tagk_real Hp = 0;
			for (int b = 0; b < p; b++)
				Hp += H[a * p + b] * pi[b];
			F += pi[a] * Hp - 2 * g[a] * pi[a] + lambda * (pi[a] / pi0[a] - tagk_log(pi[a] / pi0[a]) - 1);
			grad[a] = 2 * (Hp - g[a]) + lambda * (1 / pi0[a] - 1 / pi[a]);
			for (int b = 0; b < p; b++)
				K[a * p + b] = 2 * H[a * p + b] + (a == b ? lambda / (pi[a] * pi[a]) : 0);
		}
		if (tagk_cholesky(p, K) != TAGK_OK)
			return TAGK_ENOTPD;
		memcpy(trial, grad, sizeof(*trial) * (size_t)p);
		tagk_cholesky_solve(p, 1, K, trial); /* the Newton step is -trial */
		tagk_real dec = 0;
		for (int a = 0; a < p; a++)
			dec += grad[a] * trial[a];
		if (!tagk_isfinite(dec))
			return TAGK_EDIVERGED;
		/* the Newton decrement at rounding level (in either precision): done */
		if (dec / 2 <= STOP * (1 + tagk_fabs(F)))
			return TAGK_OK;
		tagk_real t = 1;
		for (int ls = 0;; ls++) {
			int inside = 1;
			for (int a = 0; a < p; a++)
				inside &= pi[a] - t * trial[a] > 0;
			if (inside) {
				tagk_real F2 = 0;
				for (int a = 0; a < p; a++) {
					tagk_real x = pi[a] - t * trial[a], Hp = 0;
					for (int b = 0; b < p; b++)
						Hp += H[a * p + b] * (pi[b] - t * trial[b]);
					F2 += x * Hp - 2 * g[a] * x + lambda * (x / pi0[a] - tagk_log(x / pi0[a]) - 1);
				}
				if (F2 <= F - (tagk_real)0.25 * t * dec)
					break;
			}
			t /= 2;
			if (ls == 60)
				return TAGK_OK; /* no step lowers F beyond rounding: at the minimum */
		}
		for (int a = 0; a < p; a++)
			pi[a] -= t * trial[a];
	}
	return TAGK_EDIVERGED;
}

tagk_status
tagk_ci_solve(tagk_ci_method m, const tagk_dmls_problem *pb, const tagk_real *qd, const tagk_real *prior,
    tagk_real lambda, tagk_real *pi, tagk_real *ws, size_t len)
{
	if (!pb || !pi || !ws || !prior || pb->N < 1 || pb->n < 1 || pb->n > TAGK_CI_MAX_N || pb->p < 1
	    || pb->p > TAGK_CI_MAX_P || !pb->Y || !pb->tau || len < tagk_ci_workspace_len(pb->n, pb->p)
	    || !(lambda >= 0) || (unsigned)m >= (unsigned)TAGK_CI_NMETHODS || (m == TAGK_CI_ENERGY && !qd)
	    || ((m == TAGK_CI_DUAL || m == TAGK_CI_FROZEN || m == TAGK_CI_DUAL_PC) && !pb->M))
		return TAGK_EINVAL;
	const int n = pb->n, p = pb->p;
	for (int a = 0; a < p; a++)
		if (!tagk_isfinite(prior[a])
		    || (!(prior[a] > 0) && (m == TAGK_CI_PULLBACK || m == TAGK_CI_BREGMAN || m == TAGK_CI_DUAL_PC)))
			return TAGK_EINVAL;
	if (m == TAGK_CI_DUAL || m == TAGK_CI_DUAL_PC) {
		tagk_dmls_info info;
		tagk_dmls_problem q = *pb;
		if (m == TAGK_CI_DUAL_PC) {
			q.bodies = 0;
			q.nonneg = p;
		}
		return tagk_dmls_solve(&q, prior, pi, &info, ws, len);
	}
	tagk_real *H = ws, *K = H + p * p, *H2 = K + p * p, *g = H2 + p * p, *grad = g + p, *trial = grad + p;
	tagk_real *w = trial + p, *var = w + n;
	tagk_status st;
	switch (m) {
	case TAGK_CI_FROZEN:
		return frozen(pb, prior, H, g, pi, var + n);
	case TAGK_CI_OLS:
		normal(pb, NULL, H, g);
		return solve(p, H, g, pi);
	case TAGK_CI_ENERGY:
		memset(H, 0, sizeof(*H) * (size_t)p * (size_t)p);
		memset(g, 0, sizeof(*g) * (size_t)p);
		for (int k = 0; k < pb->N; k++) {
			const tagk_real *Y = pb->Y + (size_t)k * n * p, *tau = pb->tau + (size_t)k * n, *v = qd + (size_t)k * n;
			tagk_real b = 0;
			for (int a = 0; a < p; a++) {
				grad[a] = 0;
				for (int i = 0; i < n; i++)
					grad[a] += v[i] * Y[i * p + a];
			}
			for (int i = 0; i < n; i++)
				b += v[i] * tau[i];
			for (int a = 0; a < p; a++) {
				g[a] += grad[a] * b;
				for (int c = 0; c < p; c++)
					H[a * p + c] += grad[a] * grad[c];
			}
		}
		return solve(p, H, g, pi);
	default:
		break;
	}
	/* the weighted methods */
	if ((st = weights(pb, H, g, pi, w, var)) != TAGK_OK)
		return st;
	normal(pb, w, H, g);
	if (m == TAGK_CI_WLS)
		return solve(p, H, g, pi);
	if (m == TAGK_CI_PULLBACK) {
		for (int a = 0; a < p; a++) {
			H[a * p + a] += lambda / (prior[a] * prior[a]);
			g[a] += lambda / prior[a];
		}
		return solve(p, H, g, pi);
	}
	memcpy(H2, H, sizeof(*H) * (size_t)p * (size_t)p);
	return bregman(p, H2, g, prior, lambda, pi, K, grad, trial);
}

tagk_status
tagk_ci_solve_metric(const tagk_dmls_problem *pb, const tagk_real *G, const tagk_real *center, tagk_real lambda,
    tagk_real *pi, tagk_real *ws, size_t len)
{
	if (!pb || !G || !center || !pi || !ws || pb->N < 1 || pb->n < 1 || pb->n > TAGK_CI_MAX_N || pb->p < 1
	    || pb->p > TAGK_CI_MAX_P || !pb->Y || !pb->tau || len < tagk_ci_workspace_len(pb->n, pb->p)
	    || !(lambda >= 0))
		return TAGK_EINVAL;
	const int n = pb->n, p = pb->p;
	if (!tagk_all_finite(p * p, G) || !tagk_all_finite(p, center))
		return TAGK_ENONFINITE;
	tagk_real *H = ws, *g = H + 3 * p * p, *w = g + 3 * p, *var = w + n;
	tagk_status st = weights(pb, H, g, pi, w, var);
	if (st != TAGK_OK)
		return st;
	normal(pb, w, H, g);
	for (int a = 0; a < p; a++)
		for (int b = 0; b < p; b++) {
			H[a * p + b] += lambda * G[a * p + b];
			g[a] += lambda * G[a * p + b] * center[b];
		}
	return solve(p, H, g, pi);
}
