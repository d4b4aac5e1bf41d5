/* coordinv.c: paper 002's batch identifications; see coordinv.h. */
#include <string.h>
#include "coordinv.h"
#include "inertia.h"
#include "linalg.h"
#include "pcls.h"

/* WLS-Bregman stops at a Newton decrement of STOP (1 + |F|) */
#define STOP (TAGK_EPS > (tagk_real)1e-10 ? 100 * TAGK_EPS * TAGK_EPS : (tagk_real)1e-14)

const char *
tagk_ci_name(tagk_ci_method m)
{
	static const char *const names[TAGK_CI_NMETHODS] = { "OLS", "WLS", "energy", "WLS-pullback", "WLS-Bregman",
		"DM", "DM-frozen", "DM-pc" };
	return (unsigned)m < (unsigned)TAGK_CI_NMETHODS ? names[m] : "?";
}

/* The quadratic methods' layout: H (p p), g (p), w, var (n each), then
 * the larger of the frozen metric's scratch (n n + n p + n), the
 * constrained solve's K (p p) and grad, trial, wl, saved (p each), and
 * pcls.h's workspace for bodies. */
size_t
tagk_ci_workspace_len(int n, int p)
{
	size_t rest = (size_t)n * n + (size_t)n * p + (size_t)n, k = (size_t)p * p + (size_t)4 * p;
	size_t pc = p >= TAGK_NPARAM ? tagk_pcls_workspace_len(p / TAGK_NPARAM) : 0;
	rest = rest > k ? rest : k;
	rest = rest > pc ? rest : pc;
	size_t own = (size_t)p * p + (size_t)p + (size_t)2 * n + rest, dm = tagk_dmls_workspace_len(n, p);
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
 * the first fit pi, floored so that an exact fit gives finite weights. */
static void
weights(const tagk_dmls_problem *pb, const tagk_real *pi, tagk_real *w, tagk_real *var)
{
	const int n = pb->n, p = pb->p;
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
}

/* The normal equations of min sum r^T M_k(pi0)^-1 r: H = sum Y^T W Y, g =
 * sum Y^T W tau with W = M_k(pi0)^-1 by each sample's Cholesky factor;
 * scratch holds n n + n p + p reals. */
static tagk_status
frozen(const tagk_dmls_problem *pb, const tagk_real *pi0, tagk_real *H, tagk_real *g, tagk_real *scratch)
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
	return TAGK_OK;
}

/* The power rows' normal equations (eq. 9): one row qd^T Y per sample. */
static void
energy(const tagk_dmls_problem *pb, const tagk_real *qd, tagk_real *H, tagk_real *g, tagk_real *row)
{
	const int n = pb->n, p = pb->p;
	memset(H, 0, sizeof(*H) * (size_t)p * (size_t)p);
	memset(g, 0, sizeof(*g) * (size_t)p);
	for (int k = 0; k < pb->N; k++) {
		const tagk_real *Y = pb->Y + (size_t)k * n * p, *tau = pb->tau + (size_t)k * n, *v = qd + (size_t)k * n;
		tagk_real b = 0;
		for (int a = 0; a < p; a++) {
			row[a] = 0;
			for (int i = 0; i < n; i++)
				row[a] += v[i] * Y[i * p + a];
		}
		for (int i = 0; i < n; i++)
			b += v[i] * tau[i];
		for (int a = 0; a < p; a++) {
			g[a] += row[a] * b;
			for (int c = 0; c < p; c++)
				H[a * p + c] += row[a] * row[c];
		}
	}
}

/* F(x) = x^T H x - 2 g^T x + lin^T x - sum wl_a log x_a (lin NULL: 0); 0 if
 * some x_a with wl_a > 0 is not positive. */
static int
logquad(int p, const tagk_real *H, const tagk_real *g, const tagk_real *lin, const tagk_real *wl,
    const tagk_real *x, tagk_real *F)
{
	tagk_real f = 0;
	for (int a = 0; a < p; a++) {
		if (wl[a] > 0 && !(x[a] > 0))
			return 0;
		tagk_real Hx = 0;
		for (int b = 0; b < p; b++)
			Hx += H[a * p + b] * x[b];
		f += x[a] * (Hx - 2 * g[a]) + (lin ? lin[a] * x[a] : 0) - (wl[a] > 0 ? wl[a] * tagk_log(x[a]) : 0);
	}
	*F = f;
	return 1;
}

/* Minimise logquad's F by damped Newton from pi (inside), until the Newton
 * decrement squared over 2 is at most stop + STOP (1 + |F|), or no step
 * lowers F beyond rounding. TAGK_ENOTPD if the Newton system is singular. */
static tagk_status
newton(int p, const tagk_real *H, const tagk_real *g, const tagk_real *lin, const tagk_real *wl, tagk_real stop,
    tagk_real *pi, tagk_real *K, tagk_real *grad, tagk_real *trial)
{
	for (int it = 0; it < 200; it++) {
		tagk_real F;
		if (!logquad(p, H, g, lin, wl, pi, &F))
			return TAGK_EINVAL;
		for (int a = 0; a < p; a++) {
			tagk_real Hp = 0;
			for (int b = 0; b < p; b++)
				Hp += H[a * p + b] * pi[b];
			grad[a] = 2 * (Hp - g[a]) + (lin ? lin[a] : 0) - (wl[a] > 0 ? wl[a] / pi[a] : 0);
			for (int b = 0; b < p; b++)
				K[a * p + b] = 2 * H[a * p + b] + (a == b && wl[a] > 0 ? wl[a] / (pi[a] * pi[a]) : 0);
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
		if (dec / 2 <= stop + STOP * (1 + tagk_fabs(F)))
			return TAGK_OK;
		tagk_real t = 1, F2;
		for (int ls = 0;; ls++) {
			for (int a = 0; a < p; a++)
				K[a] = pi[a] - t * trial[a]; /* K's factor is spent: its first row holds the trial point */
			if (logquad(p, H, g, lin, wl, K, &F2) && F2 <= F - (tagk_real)0.25 * t * dec)
				break;
			t /= 2;
			if (ls == 60)
				return TAGK_OK; /* no step lowers F beyond rounding: at the minimum */
		}
		memcpy(pi, K, sizeof(*pi) * (size_t)p);
	}
	return TAGK_EDIVERGED;
}

/* min x^T H x - 2 g^T x with x_a > 0 for a < nonneg, from start (inside):
 * the unconstrained minimiser when it is inside, else a log-barrier
 * interior point, tau falling by 10 until the duality gap nonneg tau <=
 * tol (1 + |F|) (tol <= 0: 1e-10, or 1e-5 in float). Parameters no data determine are held by the barrier
 * alone, whose curvature fades with tau: when the Newton system becomes
 * singular, the last completed stage is the answer. */
static tagk_status
positive(int p, int nonneg, tagk_real tol, const tagk_real *H, const tagk_real *g, const tagk_real *start,
    tagk_real *pi, tagk_real *K, tagk_real *grad, tagk_real *trial, tagk_real *wl, tagk_real *saved)
{
	const tagk_real TOL = tol > 0 ? tol : TAGK_EPS > (tagk_real)1e-10 ? (tagk_real)1e-5 : (tagk_real)1e-10;
	memcpy(K, H, sizeof(*K) * (size_t)p * (size_t)p);
	if (tagk_cholesky(p, K) == TAGK_OK) {
		memcpy(pi, g, sizeof(*pi) * (size_t)p);
		tagk_cholesky_solve(p, 1, K, pi);
		int inside = tagk_all_finite(p, pi);
		for (int a = 0; a < nonneg && inside; a++)
			inside = pi[a] > 0;
		if (inside)
			return TAGK_OK;
	}
	for (int a = 0; a < p; a++)
		wl[a] = 0;
	tagk_real F;
	memcpy(pi, start, sizeof(*pi) * (size_t)p);
	if (!logquad(p, H, g, NULL, wl, pi, &F))
		return TAGK_EINVAL;
	for (int a = 0; a < nonneg; a++)
		if (!(pi[a] > 0))
			return TAGK_EINVAL;
	tagk_real tau = (1 + tagk_fabs(F)) / (tagk_real)nonneg;
	for (int stage = 0;; stage++) {
		for (int a = 0; a < nonneg; a++)
			wl[a] = tau;
		tagk_status st = newton(p, H, g, NULL, wl, (tagk_real)1e-3 * (tagk_real)nonneg * tau, pi, K, grad, trial);
		if (st != TAGK_OK) {
			if (stage == 0)
				return st;
			memcpy(pi, saved, sizeof(*pi) * (size_t)p);
			return TAGK_OK;
		}
		memcpy(saved, pi, sizeof(*saved) * (size_t)p);
		for (int a = 0; a < p; a++)
			wl[a] = 0;
		logquad(p, H, g, NULL, wl, pi, &F);
		if ((tagk_real)nonneg * tau <= TOL * (1 + tagk_fabs(F)))
			return TAGK_OK;
		tau /= 10;
	}
}

typedef enum { REG_NONE, REG_PULLBACK, REG_BREGMAN } regulariser;

/* min pi^T H pi - 2 g^T pi + lambda R(pi) within pb's constraints, H and g
 * (destroyed) a method's normal equations. R: the pullback metric or the
 * Bregman divergence toward the prior, of the diagonal matrix of the
 * parameters without bodies, of the pseudo-inertias (pcls.h) with them. */
static tagk_status
constrained(const tagk_dmls_problem *pb, regulariser reg, const tagk_real *prior, tagk_real lambda, tagk_real *H,
    tagk_real *g, tagk_real *pi, tagk_real *ws)
{
	const int p = pb->p;
	tagk_real *K = ws, *grad = K + p * p, *trial = grad + p, *wl = trial + p, *saved = wl + p;
	if (pb->bodies > 0) {
		tagk_pcls_config cfg;
		tagk_pcls_defaults(&cfg, pb->bodies);
		cfg.theta0 = prior;
		if (pb->tol > 0)
			cfg.tol = pb->tol;
		/* pcls minimises half of this objective: 1/2 pi^T H pi - g^T pi + mu R,
		 * R = 1/2 d^T G d for the pullback, D for the divergence */
		cfg.reg = reg == REG_PULLBACK ? TAGK_PCLS_PULLBACK : reg == REG_BREGMAN ? TAGK_PCLS_LOGDET : TAGK_PCLS_EUCLID;
		cfg.mu = reg == REG_PULLBACK ? lambda : reg == REG_BREGMAN ? lambda / 2 : 0;
		tagk_status st = tagk_pcls_solve(&cfg, H, g, pi, NULL, ws, tagk_pcls_workspace_len(pb->bodies));
		return st == TAGK_OK && !tagk_all_finite(p, pi) ? TAGK_ENOTPD : st;
	}
	if (reg == REG_BREGMAN) {
		/* lambda sum (pi/pi0 - log(pi/pi0) - 1), less constants: positive by itself */
		for (int a = 0; a < p; a++) {
			wl[a] = lambda;
			saved[a] = lambda / prior[a];
		}
		memcpy(pi, prior, sizeof(*pi) * (size_t)p);
		return newton(p, H, g, saved, wl, 0, pi, K, grad, trial);
	}
	if (reg == REG_PULLBACK)
		for (int a = 0; a < p; a++) {
			H[a * p + a] += lambda / (prior[a] * prior[a]);
			g[a] += lambda / prior[a];
		}
	if (pb->nonneg > 0)
		return positive(p, pb->nonneg, pb->tol, H, g, prior, pi, K, grad, trial, wl, saved);
	return solve(p, H, g, pi);
}

tagk_status
tagk_ci_solve(tagk_ci_method m, const tagk_dmls_problem *pb, const tagk_real *qd, const tagk_real *prior,
    tagk_real lambda, tagk_real *pi, tagk_real *ws, size_t len)
{
	if (!pb || !pi || !ws || !prior || pb->N < 1 || pb->n < 1 || pb->n > TAGK_CI_MAX_N || pb->p < 1
	    || pb->p > TAGK_CI_MAX_P || !pb->Y || !pb->tau || len < tagk_ci_workspace_len(pb->n, pb->p)
	    || !(lambda >= 0) || (unsigned)m >= (unsigned)TAGK_CI_NMETHODS || (m == TAGK_CI_ENERGY && !qd)
	    || ((m == TAGK_CI_DUAL || m == TAGK_CI_FROZEN || m == TAGK_CI_DUAL_PC) && !pb->M)
	    || pb->bodies < 0 || pb->nonneg < 0 || TAGK_NPARAM * pb->bodies + pb->nonneg > pb->p
	    || (pb->bodies > 0 && (pb->nonneg > 0 || TAGK_NPARAM * pb->bodies != pb->p)))
		return TAGK_EINVAL;
	const int n = pb->n, p = pb->p;
	/* the prior of a diagonal regulariser, and the start of a positivity
	 * barrier, must be positive */
	const int positive_prior = pb->bodies == 0
	    && (m == TAGK_CI_PULLBACK || m == TAGK_CI_BREGMAN || m == TAGK_CI_DUAL_PC || pb->nonneg > 0);
	for (int a = 0; a < p; a++)
		if (!tagk_isfinite(prior[a]) || (positive_prior && !(prior[a] > 0)))
			return TAGK_EINVAL;
	if (m == TAGK_CI_DUAL || m == TAGK_CI_DUAL_PC) {
		tagk_dmls_info info;
		tagk_dmls_problem q = *pb;
		if (m == TAGK_CI_DUAL_PC && q.bodies == 0)
			q.nonneg = p;
		return tagk_dmls_solve(&q, prior, pi, &info, ws, len);
	}
	tagk_real *H = ws, *g = H + p * p, *w = g + p, *var = w + n, *rest = var + n;
	tagk_status st;
	switch (m) {
	case TAGK_CI_FROZEN:
		if ((st = frozen(pb, prior, H, g, rest)) != TAGK_OK)
			return st;
		return constrained(pb, REG_NONE, prior, 0, H, g, pi, rest);
	case TAGK_CI_ENERGY:
		energy(pb, qd, H, g, rest);
		return constrained(pb, REG_NONE, prior, 0, H, g, pi, rest);
	default:
		break;
	}
	normal(pb, NULL, H, g);
	st = constrained(pb, REG_NONE, prior, 0, H, g, pi, rest);
	if (m == TAGK_CI_OLS || st != TAGK_OK)
		return st;
	/* the weighted methods: weights from the (constrained) first fit */
	weights(pb, pi, w, var);
	normal(pb, w, H, g);
	return constrained(pb, m == TAGK_CI_PULLBACK ? REG_PULLBACK : m == TAGK_CI_BREGMAN ? REG_BREGMAN : REG_NONE,
	    prior, lambda, H, g, pi, rest);
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
	tagk_real *H = ws, *g = H + p * p, *w = g + p, *var = w + n;
	normal(pb, NULL, H, g);
	tagk_status st = solve(p, H, g, pi);
	if (st != TAGK_OK)
		return st;
	weights(pb, pi, w, var);
	normal(pb, w, H, g);
	for (int a = 0; a < p; a++)
		for (int b = 0; b < p; b++) {
			H[a * p + b] += lambda * G[a * p + b];
			g[a] += lambda * G[a * p + b] * center[b];
		}
	return solve(p, H, g, pi);
}
