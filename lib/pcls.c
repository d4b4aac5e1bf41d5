/* pcls.c: physically consistent least squares by a log barrier; see pcls.h. */
#include <string.h>
#include "pcls.h"
#include "consistency.h"
#include "inertia.h"
#include "linalg.h"
#include "metrics.h"

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
	cfg->reg = TAGK_PCLS_EUCLID;
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
	/* K, and th, g, dx, trial and the last completed stage's theta; then
	 * per body the prior's G (P x P), J0^-1, L0 (16 each), t0 and scratch
	 * (P each) */
	return TAGK_PCLS_WORKSPACE_LEN(bodies);
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

/* Per body, for the PULLBACK and LOGDET regularisers (workspace):
 * G (P x P, the metric at the prior), J0^-1 (16), the factor of J0 (16),
 * t0_a = tr(J0^-1 E_a) (P) and scratch (P). */
typedef struct {
	tagk_real *G, *J0i, *L0, *t0;
} prior_body;

typedef struct {
	const tagk_pcls_config *cfg;
	const tagk_real *H, *h;
	int n;
	tagk_real E[P][16];
	prior_body pr[TAGK_PCLS_MAX_BODIES];
} problem;

static tagk_real
prior_at(const problem *pb, int i)
{
	return pb->cfg->theta0 ? pb->cfg->theta0[i] : 0;
}

/* M_a = A E_a for a symmetric 4 x 4 A, and the traces tr(M_a M_b) into the
 * P x P block K (row stride ld), scaled by w; tr(M_a) into t (if not NULL). */
static void
trace_products(const problem *pb, const tagk_real A[16], tagk_real w, tagk_real *K, int ld, tagk_real *t)
{
	tagk_real M[P][16];
	for (int a = 0; a < P; a++)
		tagk_matmul(4, 4, 4, A, pb->E[a], M[a]);
	for (int a = 0; a < P; a++) {
		if (t) {
			t[a] = 0;
			for (int i = 0; i < 4; i++)
				t[a] += M[a][i * 4 + i];
		}
		for (int b = a; b < P; b++) {
			tagk_real t2 = 0;
			for (int i = 0; i < 4; i++)
				for (int j = 0; j < 4; j++)
					t2 += M[a][i * 4 + j] * M[b][j * 4 + i];
			K[a * ld + b] += w * t2;
			if (b != a)
				K[b * ld + a] += w * t2;
		}
	}
}

/* The inverse of a 4 x 4 matrix from its Cholesky factor L. */
static void
inverse4(const tagk_real L[16], tagk_real Ji[16])
{
	for (int i = 0; i < 16; i++)
		Ji[i] = (tagk_real)(i % 5 == 0);
	tagk_cholesky_solve(4, 4, L, Ji);
}

/* Wire the prior's per-body data into ws and fill it; TAGK_ENOTPD if a
 * prior body's J0 is not positive definite. */
static tagk_status
prior_setup(problem *pb, tagk_real *ws)
{
	for (int k = 0; k < pb->cfg->bodies; k++) {
		prior_body *q = &pb->pr[k];
		q->G = ws;
		q->J0i = q->G + P * P;
		q->L0 = q->J0i + 16;
		q->t0 = q->L0 + 16;
		ws = q->t0 + 2 * P;
		if (pb->cfg->reg == TAGK_PCLS_EUCLID)
			continue;
		tagk_real th0[P];
		for (int a = 0; a < P; a++)
			th0[a] = prior_at(pb, k * P + a);
		if (!body_factor(th0, 0, q->L0))
			return TAGK_ENOTPD;
		inverse4(q->L0, q->J0i);
		memset(q->G, 0, sizeof(*q->G) * P * P);
		trace_products(pb, q->J0i, 1, q->G, P, q->t0);
	}
	return TAGK_OK;
}

/* mu R(th), and with K not NULL its gradient added to g and Hessian to K
 * (row stride n). *ok = 0 where LOGDET is undefined (a J not positive
 * definite). */
static tagk_real
regulariser(const problem *pb, const tagk_real *th, tagk_real *g, tagk_real *K, int *ok)
{
	const tagk_pcls_config *c = pb->cfg;
	const int n = pb->n;
	tagk_real r = 0;
	*ok = 1;
	if (!(c->mu > 0))
		return 0;
	for (int k = 0; k < c->bodies; k++) {
		const prior_body *q = &pb->pr[k];
		const tagk_real *b = th + k * P;
		tagk_real d[P];
		for (int a = 0; a < P; a++)
			d[a] = b[a] - prior_at(pb, k * P + a);
		if (c->reg == TAGK_PCLS_EUCLID) {
			for (int a = 0; a < P; a++) {
				r += d[a] * d[a] / 2;
				if (K) {
					g[k * P + a] += c->mu * d[a];
					K[(k * P + a) * n + k * P + a] += c->mu;
				}
			}
		} else if (c->reg == TAGK_PCLS_PULLBACK) {
			for (int a = 0; a < P; a++) {
				tagk_real Gd = 0;
				for (int e = 0; e < P; e++)
					Gd += q->G[a * P + e] * d[e];
				r += d[a] * Gd / 2;
				if (K) {
					g[k * P + a] += c->mu * Gd;
					for (int e = 0; e < P; e++)
						K[(k * P + a) * n + k * P + e] += c->mu * q->G[a * P + e];
				}
			}
		} else {
			/* -log det J + log det J0 + tr(J0^-1 J) - 4 */
			tagk_real L[16], b0[P];
			for (int a = 0; a < P; a++)
				b0[a] = prior_at(pb, k * P + a);
			tagk_real D = tagk_logdet_divergence(b, b0);
			if (D < (tagk_real)-0.5 || !body_factor(b, 0, L)) { /* -1: not positive definite */
				*ok = 0;
				return 0;
			}
			r += D;
			if (K) {
				tagk_real Ji[16], t[P];
				inverse4(L, Ji);
				trace_products(pb, Ji, c->mu, K + (k * P) * n + k * P, n, t);
				for (int a = 0; a < P; a++)
					g[k * P + a] += c->mu * (q->t0[a] - t[a]);
			}
		}
	}
	return c->mu * r;
}

static tagk_real
objective(const problem *pb, const tagk_real *th, int *ok)
{
	const int n = pb->n;
	tagk_real f = 0;
	for (int i = 0; i < n; i++) {
		tagk_real hi = 0;
		for (int j = 0; j < n; j++)
			hi += pb->H[i * n + j] * th[j];
		f += th[i] * (hi / 2 - pb->h[i]);
	}
	return f + regulariser(pb, th, NULL, NULL, ok);
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
	tagk_real f = objective(pb, th, ok);
	return *ok ? f - tau * ld : 0;
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
		g[i] = s;
	}
	int ok;
	regulariser(pb, th, g, K, &ok);
	for (int k = 0; k < c->bodies; k++) {
		tagk_real L[16], Ji[16], t[P];
		body_factor(th + k * P, c->margin, L);
		inverse4(L, Ji); /* (J - margin I)^-1 */
		trace_products(pb, Ji, tau, K + (k * P) * n + k * P, n, t);
		for (int a = 0; a < P; a++)
			g[k * P + a] -= tau * t[a];
	}
}

/* The Newton system at th, factored: g the gradient, K the Cholesky factor
 * of the equilibrated Hessian D H D + ridge I with D = diag(H)^-1/2 in d
 * (so that parameters from 1e-5 kg m^2 to kilograms factor alike); the
 * step is then -D K^-1 D g. */
static tagk_status
newton_system(const problem *pb, const tagk_real *th, tagk_real tau, tagk_real ridge, tagk_real *g, tagk_real *K,
    tagk_real *d)
{
	const int n = pb->n;
	derivatives(pb, th, tau, g, K);
	for (int i = 0; i < n; i++)
		d[i] = K[i * n + i] > 0 ? 1 / tagk_sqrt(K[i * n + i]) : 1;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			K[i * n + j] *= d[i] * d[j];
		K[i * n + i] += ridge;
	}
	return tagk_cholesky(n, K);
}

/* K = H + mu (the regulariser's Hessian at theta0) and rhs = h + mu (that
 * Hessian) theta0: the system whose solution minimises the quadratic model
 * of the objective about theta0, exact for EUCLID and PULLBACK. */
static void
model_system(const problem *pb, tagk_real *K, tagk_real *rhs)
{
	const int n = pb->n;
	const tagk_pcls_config *c = pb->cfg;
	memcpy(K, pb->H, sizeof(*K) * (size_t)n * (size_t)n);
	memcpy(rhs, pb->h, sizeof(*rhs) * (size_t)n);
	if (!(c->mu > 0))
		return;
	for (int k = 0; k < c->bodies; k++)
		for (int a = 0; a < P; a++)
			for (int e = 0; e < P; e++) {
				tagk_real Gae = c->reg == TAGK_PCLS_EUCLID ? (tagk_real)(a == e) : pb->pr[k].G[a * P + e];
				K[(k * P + a) * n + k * P + e] += c->mu * Gae;
				rhs[k * P + a] += c->mu * Gae * prior_at(pb, k * P + e);
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
	model_system(pb, K, th);
	for (int i = 0; i < n; i++)
		dmax = pcls_max(dmax, tagk_fabs(K[i * n + i]));
	tagk_real eps = (dmax > 0 ? dmax : 1) * (tagk_real)1e-8;
	for (int i = 0; i < n; i++)
		K[i * n + i] += eps;
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

/* The unconstrained minimiser of the regularised problem, when it exists
 * and is physical, is the solution: the problem is convex (and the barrier
 * would only bias it). Not for LOGDET, whose objective is not quadratic.
 * Returns 1 with theta and info written, 0 if the barrier path must run. */
static int
physical_minimiser(const problem *pb, tagk_real *K, tagk_real *trial, tagk_real *theta, tagk_pcls_info *info)
{
	const int n = pb->n;
	int ok;
	model_system(pb, K, trial);
	if (pb->cfg->reg == TAGK_PCLS_LOGDET || tagk_cholesky(n, K) != TAGK_OK)
		return 0;
	tagk_cholesky_solve(n, 1, K, trial);
	int inside = tagk_all_finite(n, trial);
	tagk_real L[16];
	for (int k = 0; k < pb->cfg->bodies && inside; k++)
		inside = body_factor(trial + k * P, pb->cfg->margin, L);
	if (!inside)
		return 0;
	memcpy(theta, trial, sizeof(*theta) * (size_t)n);
	if (info)
		*info = (tagk_pcls_info){ objective(pb, trial, &ok), 0, 0, 0, 0 };
	return 1;
}

/* The barrier path's state: the iterate th, the workspace the Newton steps
 * use (K, g, dx, trial), the last completed stage's iterate (saved), the
 * barrier's weight tau and the counts tagk_pcls_info reports. */
typedef struct {
	tagk_real *K, *th, *g, *dx, *trial, *saved;
	tagk_real tau, decrement, dims; /* dims: the LMIs' total size, gap = dims tau */
	int barrier, last, newton, outer;
} barrier_path;

enum { CENTRED, FADED }; /* how a centering ended, when it did not fail */

/* The Newton step at the iterate: dx and the decrement squared lambda2 =
 * -g^T dx. Singular to working precision before any stage is complete
 * (directions only the regulariser holds, against weighted data 1e16
 * times larger): a ridge of a few roundings keeps the step a descent
 * direction, which barely moves those directions, as their effect on f is
 * that small. After a stage, *faded says the barrier's curvature has faded
 * (below). */
static tagk_status
newton_step(const problem *pb, barrier_path *s, tagk_real *lambda2, int *faded)
{
	const int n = pb->n;
	const int later = s->barrier && s->outer > 1;
	tagk_status st = newton_system(pb, s->th, s->tau, 0, s->g, s->K, s->trial);
	for (tagk_real ridge = 100 * TAGK_EPS; st != TAGK_OK && !later && ridge < (tagk_real)1e-2; ridge *= 100)
		st = newton_system(pb, s->th, s->tau, ridge, s->g, s->K, s->trial);
	/* Parameters the data leave free are held by the barrier alone, whose
	 * curvature fades with tau until the Newton system is singular to
	 * working precision: the last completed stage is the answer. */
	*faded = st != TAGK_OK && later;
	if (st != TAGK_OK)
		return *faded ? TAGK_OK : TAGK_EDIVERGED;
	for (int i = 0; i < n; i++)
		s->dx[i] = -s->g[i] * s->trial[i];
	tagk_cholesky_solve(n, 1, s->K, s->dx);
	for (int i = 0; i < n; i++)
		s->dx[i] *= s->trial[i];
	*lambda2 = 0;
	for (int i = 0; i < n; i++)
		*lambda2 -= s->g[i] * s->dx[i];
	return tagk_isfinite(*lambda2) ? TAGK_OK : TAGK_EDIVERGED;
}

/* Backtracking along dx from th until the barrier objective falls by a
 * quarter of the decrement's prediction: 1 with th and *phi moved, 0 if no
 * step of at least 1e-20 decreases it at this precision. */
static int
line_search(const problem *pb, barrier_path *s, tagk_real lambda2, tagk_real *phi)
{
	const int n = pb->n;
	int ok;
	tagk_real a = 1, phit = 0;
	for (; a > (tagk_real)1e-20; a /= 2) {
		for (int i = 0; i < n; i++)
			s->trial[i] = s->th[i] + a * s->dx[i];
		phit = barrier_objective(pb, s->trial, s->tau, &ok);
		if (ok && phit <= *phi - (tagk_real)0.25 * a * lambda2)
			break;
	}
	if (!(a > (tagk_real)1e-20))
		return 0;
	memcpy(s->th, s->trial, sizeof(*s->th) * (size_t)n);
	*phi = phit;
	return 1;
}

/* One centering: damped Newton on the barrier objective at weight tau,
 * from th. *how is CENTRED, or FADED when the barrier's curvature has
 * faded (th is then back at the last completed stage). */
static tagk_status
centre(const problem *pb, barrier_path *s, int *how)
{
	const tagk_pcls_config *cfg = pb->cfg;
	int ok, faded;
	tagk_real phi = barrier_objective(pb, s->th, s->tau, &ok), prev = -1, lambda2 = 0;
	*how = CENTRED;
	for (;;) {
		if (s->newton >= cfg->max_newton)
			return TAGK_EDIVERGED;
		tagk_status st = newton_step(pb, s, &lambda2, &faded);
		if (st != TAGK_OK)
			return st;
		if (faded) {
			memcpy(s->th, s->saved, sizeof(*s->th) * (size_t)pb->n);
			*how = FADED;
			return TAGK_OK;
		}
		if (lambda2 <= 0)
			return TAGK_OK; /* K is positive definite: only rounding makes it so */
		s->decrement = lambda2 / 2;
		/* centred enough for the next weight; at the last one, as far
		 * as the precision allows (the dual Z = tau J^-1 is then exact).
		 * Without a barrier: lambda^2 / 2 estimates f - f*; Newton goes
		 * on to tol^2 of |f|, or to the rounding of f (100 epsilon),
		 * or until the line search finds no decrease (below). */
		if (s->barrier ? lambda2 / 2 <= (s->last ? (tagk_real)1e-8 : (tagk_real)1e-2) * s->dims * s->tau
		    : lambda2 / 2 <= pcls_max(cfg->tol * cfg->tol, 100 * (tagk_real)TAGK_EPS) * (1 + tagk_fabs(phi)))
			return TAGK_OK;
		/* near the centre Newton converges quadratically; once the
		 * decrement stops falling, rounding has the last word. Without
		 * a barrier the damped steps far from the optimum fall slowly
		 * too: there the line search's failure ends it. */
		if (s->barrier && s->last && prev >= 0 && !(lambda2 < prev / 4))
			return TAGK_OK;
		prev = lambda2;
		s->newton++;
		if (!line_search(pb, s, lambda2, &phi))
			return TAGK_OK; /* no decrease left at this precision: centred */
	}
}

tagk_status
tagk_pcls_solve(const tagk_pcls_config *cfg, const tagk_real *H, const tagk_real *h, tagk_real *theta,
    tagk_pcls_info *info, tagk_real *ws, size_t len)
{
	if (!cfg || !H || !h || !theta || !ws || cfg->bodies < 1 || cfg->bodies > TAGK_PCLS_MAX_BODIES ||
	    !(cfg->margin >= 0) || !(cfg->mu >= 0) || !(cfg->tol > 0) || cfg->max_newton < 1 ||
	    (cfg->reg != TAGK_PCLS_EUCLID && cfg->reg != TAGK_PCLS_PULLBACK && cfg->reg != TAGK_PCLS_LOGDET))
		return TAGK_EINVAL;
	if (len < tagk_pcls_workspace_len(cfg->bodies))
		return TAGK_ESPACE;
	const int n = P * cfg->bodies;
	if (!tagk_all_finite(n * n, H) || !tagk_all_finite(n, h) ||
	    (cfg->theta0 && !tagk_all_finite(n, cfg->theta0)))
		return TAGK_ENONFINITE;
	problem pb;
	memset(&pb, 0, sizeof(pb));
	pb.cfg = cfg;
	pb.H = H;
	pb.h = h;
	pb.n = n;
	basis(pb.E);
	barrier_path s = { 0 };
	s.K = ws, s.th = s.K + n * n, s.g = s.th + n, s.dx = s.g + n, s.trial = s.dx + n, s.saved = s.trial + n;
	s.dims = (tagk_real)(4 * cfg->bodies);
	tagk_status st = prior_setup(&pb, s.saved + n);
	if (st != TAGK_OK)
		return st;
	st = start(&pb, s.th, s.K);
	if (st != TAGK_OK)
		return st;
	if (physical_minimiser(&pb, s.K, s.trial, theta, info))
		return TAGK_OK;
	int ok, how = CENTRED;
	tagk_real f = objective(&pb, s.th, &ok);
	if (!ok)
		return TAGK_ENOTPD;
	/* With LOGDET, mu > 0 and no margin the objective is itself infinite
	 * at the boundary: no barrier is needed, and one damped Newton
	 * minimisation (tau = 0) solves the problem, feasibility kept by the
	 * same Cholesky test in the line search. */
	s.barrier = !(cfg->reg == TAGK_PCLS_LOGDET && cfg->mu > 0 && cfg->margin == 0);
	s.tau = s.barrier ? (1 + tagk_fabs(f)) / s.dims : 0;
	s.last = !s.barrier;
	for (;;) {
		s.outer++;
		st = centre(&pb, &s, &how);
		if (st != TAGK_OK)
			return st;
		if (how == FADED) { /* the last completed stage, its gap reported */
			s.tau *= 10;
			f = objective(&pb, s.th, &ok);
			break;
		}
		f = objective(&pb, s.th, &ok);
		memcpy(s.saved, s.th, sizeof(*s.th) * (size_t)n);
		if (s.last)
			break;
		if (s.dims * s.tau <= cfg->tol * (1 + tagk_fabs(f)))
			s.last = 1; /* one more centering, a tight one, at this weight */
		else
			s.tau /= 10;
	}
	memcpy(theta, s.th, sizeof(*theta) * (size_t)n);
	if (info) {
		info->f = f;
		info->tau = s.tau;
		info->gap = s.barrier ? s.dims * s.tau : s.decrement;
		info->newton = s.newton;
		info->outer = s.outer;
	}
	return TAGK_OK;
}
