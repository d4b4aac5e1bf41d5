/* pcls.c: physically consistent least squares by a log barrier; see pcls.h. */
#include <string.h>
#include "pcls.h"
#include "consistency.h"
#include "inertia.h"
#include "linalg.h"

enum { P = TAGK_NPARAM };

static tagk_real
pcls_max(tagk_real a, tagk_real b)
{
	return a > b ? a : b;
}

void
tagk_pcls_defaults(tagk_pcls_config *cfg, int bodies)
{
	cfg->bodies = bodies;
	cfg->margin = 0;
	cfg->mu = 0;
	cfg->theta0 = NULL;
#ifdef TAGK_FLOAT
	cfg->tol = (tagk_real)1e-5;
#else
	cfg->tol = (tagk_real)1e-10;
#endif
	cfg->max_newton = 500;
}

size_t
tagk_pcls_workspace_len(int bodies)
{
	if (bodies < 1 || bodies > TAGK_PCLS_MAX_BODIES)
		return 0;
	size_t n = (size_t)P * (size_t)bodies;
	return n * n + 5 * n;
}

/* E[i] = dJ/dtheta_i, constant since J is linear in theta. */
static void
basis(tagk_real E[P][16])
{
	for (int i = 0; i < P; i++) {
		tagk_real u[P] = { 0 };
		u[i] = 1;
		tagk_pseudo_inertia(u, E[i]);
	}
}

/* L: the Cholesky factor of J(th) - margin I; 0 if that is not positive
 * definite (the point is outside the barrier's domain). */
static int
body_factor(const tagk_real *th, tagk_real margin, tagk_real L[16])
{
	tagk_pseudo_inertia(th, L);
	for (int i = 0; i < 4; i++)
		L[i * 4 + i] -= margin;
	return tagk_cholesky(4, L) == TAGK_OK;
}

typedef struct {
	const tagk_pcls_config *cfg;
	const tagk_real *H, *h;
	int n;
	tagk_real E[P][16];
} problem;

static tagk_real
objective(const problem *pb, const tagk_real *th)
{
	const int n = pb->n;
	tagk_real f = 0;
	for (int i = 0; i < n; i++) {
		tagk_real hi = 0;
		for (int j = 0; j < n; j++)
			hi += pb->H[i * n + j] * th[j];
		f += th[i] * (hi / 2 - pb->h[i]);
		if (pb->cfg->mu > 0) {
			tagk_real d = th[i] - (pb->cfg->theta0 ? pb->cfg->theta0[i] : 0);
			f += pb->cfg->mu * d * d / 2;
		}
	}
	return f;
}

/* The barrier objective f - tau sum log det (J_k - margin I), or 0 with
 * *ok = 0 when th is outside the domain. */
static tagk_real
barrier_objective(const problem *pb, const tagk_real *th, tagk_real tau, int *ok)
{
	tagk_real ld = 0, L[16];
	for (int k = 0; k < pb->cfg->bodies; k++) {
		if (!body_factor(th + k * P, pb->cfg->margin, L)) {
			*ok = 0;
			return 0;
		}
		for (int i = 0; i < 4; i++)
			ld += 2 * tagk_log(L[i * 4 + i]);
	}
	*ok = 1;
	return objective(pb, th) - tau * ld;
}

/* Gradient g and Hessian K of the barrier objective at th (inside). */
static void
derivatives(const problem *pb, const tagk_real *th, tagk_real tau, tagk_real *g, tagk_real *K)
{
	const int n = pb->n;
	const tagk_pcls_config *c = pb->cfg;
	for (int i = 0; i < n; i++) {
		tagk_real s = -pb->h[i];
		for (int j = 0; j < n; j++) {
			s += pb->H[i * n + j] * th[j];
			K[i * n + j] = pb->H[i * n + j];
		}
		if (c->mu > 0) {
			s += c->mu * (th[i] - (c->theta0 ? c->theta0[i] : 0));
			K[i * n + i] += c->mu;
		}
		g[i] = s;
	}
	for (int k = 0; k < c->bodies; k++) {
		tagk_real L[16], Ji[16], M[P][16];
		body_factor(th + k * P, c->margin, L);
		for (int i = 0; i < 16; i++)
			Ji[i] = (i % 5 == 0); /* identity */
		tagk_cholesky_solve(4, 4, L, Ji); /* (J - margin I)^-1 */
		for (int a = 0; a < P; a++)
			tagk_matmul(4, 4, 4, Ji, pb->E[a], M[a]);
		for (int a = 0; a < P; a++) {
			tagk_real tr = 0;
			for (int i = 0; i < 4; i++)
				tr += M[a][i * 4 + i];
			g[k * P + a] -= tau * tr;
			for (int b = a; b < P; b++) {
				tagk_real t2 = 0; /* tr(M_a M_b) */
				for (int i = 0; i < 4; i++)
					for (int j = 0; j < 4; j++)
						t2 += M[a][i * 4 + j] * M[b][j * 4 + i];
				K[(k * P + a) * n + k * P + b] += tau * t2;
				if (b != a)
					K[(k * P + b) * n + k * P + a] += tau * t2;
			}
		}
	}
}

/* A strictly feasible start: the regularised unconstrained solution, each
 * body moved inside the margin by the projection of consistency.h. */
static tagk_status
start(const problem *pb, tagk_real *th, tagk_real *K)
{
	const int n = pb->n;
	const tagk_pcls_config *c = pb->cfg;
	tagk_real dmax = 0;
	for (int i = 0; i < n; i++)
		dmax = pcls_max(dmax, tagk_fabs(pb->H[i * n + i]));
	tagk_real eps = (dmax > 0 ? dmax : 1) * (tagk_real)1e-8;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			K[i * n + j] = pb->H[i * n + j];
		K[i * n + i] += c->mu + eps;
		th[i] = pb->h[i] + c->mu * (c->theta0 ? c->theta0[i] : 0);
	}
	tagk_status st = tagk_cholesky(n, K);
	if (st != TAGK_OK)
		return st;
	tagk_cholesky_solve(n, 1, K, th);
	for (int k = 0; k < c->bodies; k++) {
		tagk_real L[16], J[16], *b = th + k * P;
		tagk_pseudo_inertia(b, J);
		tagk_real scale = 0;
		for (int i = 0; i < 16; i++)
			scale = pcls_max(scale, tagk_fabs(J[i]));
		/* inside by a small fraction of the body's own size, or of 1 for a
		 * body the data did not size at all */
		tagk_real floor = c->margin + (tagk_real)1e-3 * (scale > 0 ? scale : 1);
		if (!body_factor(b, floor / 2 + c->margin / 2, L)) {
			st = tagk_project(b, floor, b);
			if (st != TAGK_OK)
				return st;
			if (!body_factor(b, c->margin, L))
				return TAGK_ENOTPD;
		}
	}
	return TAGK_OK;
}

tagk_status
tagk_pcls_solve(const tagk_pcls_config *cfg, const tagk_real *H, const tagk_real *h, tagk_real *theta,
    tagk_pcls_info *info, tagk_real *ws, size_t len)
{
	if (!cfg || !H || !h || !theta || !ws || cfg->bodies < 1 || cfg->bodies > TAGK_PCLS_MAX_BODIES ||
	    !(cfg->margin >= 0) || !(cfg->mu >= 0) || !(cfg->tol > 0) || cfg->max_newton < 1)
		return TAGK_EINVAL;
	if (len < tagk_pcls_workspace_len(cfg->bodies))
		return TAGK_ESPACE;
	const int n = P * cfg->bodies, B = cfg->bodies;
	const tagk_real dims = (tagk_real)(4 * B); /* the LMIs' total size: gap = dims tau */
	if (!tagk_all_finite(n * n, H) || !tagk_all_finite(n, h) ||
	    (cfg->theta0 && !tagk_all_finite(n, cfg->theta0)))
		return TAGK_ENONFINITE;
	problem pb = { cfg, H, h, n, { { 0 } } };
	basis(pb.E);
	tagk_real *K = ws, *th = K + n * n, *g = th + n, *dx = g + n, *trial = dx + n;
	tagk_status st = start(&pb, th, K);
	if (st != TAGK_OK)
		return st;
	int newton = 0, outer = 0, ok, last = 0;
	/* the unconstrained minimiser, when it exists and is physical, is the
	 * solution: the problem is convex (and the barrier would only bias it) */
	memcpy(K, H, sizeof(*K) * (size_t)n * (size_t)n);
	for (int i = 0; i < n; i++) {
		K[i * n + i] += cfg->mu;
		trial[i] = h[i] + cfg->mu * (cfg->theta0 ? cfg->theta0[i] : 0);
	}
	if (tagk_cholesky(n, K) == TAGK_OK) {
		tagk_cholesky_solve(n, 1, K, trial);
		int inside = tagk_all_finite(n, trial);
		tagk_real L[16];
		for (int k = 0; k < B && inside; k++)
			inside = body_factor(trial + k * P, cfg->margin, L);
		if (inside) {
			memcpy(theta, trial, sizeof(*theta) * (size_t)n);
			if (info)
				*info = (tagk_pcls_info){ objective(&pb, trial), 0, 0, 0, 0 };
			return TAGK_OK;
		}
	}
	tagk_real f = objective(&pb, th);
	tagk_real tau = (1 + tagk_fabs(f)) / dims;
	for (;;) {
		outer++;
		/* centering: damped Newton on the barrier objective */
		tagk_real phi = barrier_objective(&pb, th, tau, &ok), prev = -1;
		for (;;) {
			if (newton >= cfg->max_newton)
				return TAGK_EDIVERGED;
			derivatives(&pb, th, tau, g, K);
			st = tagk_cholesky(n, K);
			if (st != TAGK_OK)
				return TAGK_EDIVERGED;
			for (int i = 0; i < n; i++)
				dx[i] = -g[i];
			tagk_cholesky_solve(n, 1, K, dx);
			tagk_real lambda2 = 0; /* Newton decrement squared: -g^T dx */
			for (int i = 0; i < n; i++)
				lambda2 -= g[i] * dx[i];
			if (!(lambda2 >= 0))
				return TAGK_EDIVERGED;
			/* centred enough for the next weight; at the last one, as far
			 * as the precision allows (the dual Z = tau J^-1 is then exact) */
			if (lambda2 / 2 <= (last ? (tagk_real)1e-8 : (tagk_real)1e-2) * dims * tau)
				break;
			/* near the centre Newton converges quadratically; once the
			 * decrement stops falling, rounding has the last word */
			if (last && prev >= 0 && !(lambda2 < prev / 4))
				break;
			prev = lambda2;
			newton++;
			tagk_real a = 1, phit = 0;
			for (; a > (tagk_real)1e-20; a /= 2) {
				for (int i = 0; i < n; i++)
					trial[i] = th[i] + a * dx[i];
				phit = barrier_objective(&pb, trial, tau, &ok);
				if (ok && phit <= phi - (tagk_real)0.25 * a * lambda2)
					break;
			}
			if (!(a > (tagk_real)1e-20))
				break; /* no decrease left at this precision: centred */
			memcpy(th, trial, sizeof(*th) * (size_t)n);
			phi = phit;
		}
		f = objective(&pb, th);
		if (last)
			break;
		if (dims * tau <= cfg->tol * (1 + tagk_fabs(f)))
			last = 1; /* one more centering, a tight one, at this weight */
		else
			tau /= 10;
	}
	memcpy(theta, th, sizeof(*theta) * (size_t)n);
	if (info) {
		info->f = f;
		info->tau = tau;
		info->gap = dims * tau;
		info->newton = newton;
		info->outer = outer;
	}
	return TAGK_OK;
}
