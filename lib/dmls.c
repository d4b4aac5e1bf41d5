/* dmls.c: dual-metric least squares; see dmls.h. */
#include <string.h>
#include "dmls.h"
#include "inertia.h"
#include "linalg.h"

void
tagk_dmls_defaults(tagk_dmls_problem *pb)
{
#ifdef TAGK_FLOAT
	pb->tol = (tagk_real)1e-5;
#else
	pb->tol = (tagk_real)1e-10;
#endif
	pb->max_newton = 500;
	pb->nonneg = 0;
}

size_t
tagk_dmls_workspace_len(int n, int p)
{
	if (n < 1 || p < 1)
		return 0;
	return (size_t)p * (size_t)p + 5 * (size_t)p + (size_t)n * (size_t)n + 2 * (size_t)n
	    + 2 * (size_t)n * (size_t)p;
}

typedef struct {
	tagk_real *H, *g, *dx, *trial, *th, *L, *r, *z, *G, *W, *keep;
} view;

static view
wire(const tagk_dmls_problem *pb, tagk_real *ws)
{
	const size_t n = (size_t)pb->n, p = (size_t)pb->p;
	view v;
	v.H = ws;
	v.g = v.H + p * p;
	v.dx = v.g + p;
	v.trial = v.dx + p;
	v.th = v.trial + p;
	v.L = v.th + p;
	v.r = v.L + n * n;
	v.z = v.r + n;
	v.G = v.z + n;
	v.W = v.G + n * p;
	v.keep = v.W + n * p;
	return v;
}

/* Sample k's f term r^T M^-1 r, and (if g) its gradient and (if H) its
 * Hessian added in; 0 if M_k(pi) is not positive definite. */
static int
sample(const tagk_dmls_problem *pb, const view *v, int k, const tagk_real *pi, tagk_real *f, tagk_real *g,
    tagk_real *H)
{
	const int n = pb->n, p = pb->p;
	const size_t nn = (size_t)n * (size_t)n;
	const tagk_real *Y = pb->Y + (size_t)k * (size_t)n * (size_t)p, *Mk = pb->M + (size_t)k * (size_t)(p + 1) * nn;
	memcpy(v->L, Mk, sizeof(*v->L) * nn);
	for (int j = 0; j < p; j++)
		if (pi[j] != 0)
			for (size_t a = 0; a < nn; a++)
				v->L[a] += pi[j] * Mk[(size_t)(1 + j) * nn + a];
	if (tagk_cholesky(n, v->L) != TAGK_OK)
		return 0;
	for (int a = 0; a < n; a++)
		v->r[a] = v->z[a] = tagk_dot(p, Y + (size_t)a * (size_t)p, pi) - pb->tau[(size_t)k * (size_t)n + (size_t)a];
	tagk_cholesky_solve(n, 1, v->L, v->z);
	*f += tagk_dot(n, v->r, v->z);
	if (!g)
		return 1;
	for (int j = 0; j < p; j++) {
		const tagk_real *Mj = Mk + (size_t)(1 + j) * nn;
		tagk_real zy = 0, zmz = 0;
		for (int a = 0; a < n; a++) {
			tagk_real mz = tagk_dot(n, Mj + (size_t)a * (size_t)n, v->z);
			zy += v->z[a] * Y[(size_t)a * (size_t)p + (size_t)j];
			zmz += v->z[a] * mz;
			v->G[(size_t)a * (size_t)p + (size_t)j] = Y[(size_t)a * (size_t)p + (size_t)j] - mz;
		}
		g[j] += 2 * zy - zmz;
	}
	if (!H)
		return 1;
	memcpy(v->W, v->G, sizeof(*v->W) * (size_t)n * (size_t)p);
	tagk_cholesky_solve(n, p, v->L, v->W);
	for (int i = 0; i < p; i++)
		for (int j = 0; j <= i; j++) {
			tagk_real s = 0;
			for (int a = 0; a < n; a++)
				s += v->G[(size_t)a * (size_t)p + (size_t)i] * v->W[(size_t)a * (size_t)p + (size_t)j];
			H[(size_t)i * (size_t)p + (size_t)j] += 2 * s;
		}
	return 1;
}

/* log det J_b - and, when g, tau times its negative gradient and Hessian
 * added in (the barrier -tau sum log det J_b); 0 if some J_b is not
 * positive definite. */
static int
barrier(const tagk_dmls_problem *pb, const tagk_real *pi, tagk_real tau, tagk_real *logdet, tagk_real *g,
    tagk_real *H)
{
	const int p = pb->p;
	*logdet = 0;
	for (int b = 0; b < pb->bodies; b++) {
		tagk_real L[16], Ji[16] = { 0 }, M[TAGK_NPARAM][16];
		tagk_pseudo_inertia(pi + TAGK_NPARAM * b, L);
		if (tagk_cholesky(4, L) != TAGK_OK)
			return 0;
		for (int i = 0; i < 4; i++)
			*logdet += 2 * tagk_log(L[i * 5]);
		if (!g)
			continue;
		for (int i = 0; i < 4; i++)
			Ji[i * 5] = 1;
		tagk_cholesky_solve(4, 4, L, Ji);
		for (int i = 0; i < TAGK_NPARAM; i++) {
			tagk_real e[TAGK_NPARAM] = { 0 }, E[16];
			e[i] = 1;
			tagk_pseudo_inertia(e, E);
			tagk_matmul(4, 4, 4, Ji, E, M[i]);
		}
		for (int i = 0; i < TAGK_NPARAM; i++) {
			const int gi = TAGK_NPARAM * b + i;
			g[gi] -= tau * (M[i][0] + M[i][5] + M[i][10] + M[i][15]);
			for (int j = 0; j <= i; j++) {
				tagk_real s = 0;
				for (int a = 0; a < 4; a++)
					for (int c = 0; c < 4; c++)
						s += M[i][a * 4 + c] * M[j][c * 4 + a];
				H[(size_t)gi * (size_t)p + (size_t)(TAGK_NPARAM * b + j)] += tau * s;
			}
		}
	}
	for (int j = TAGK_NPARAM * pb->bodies; j < TAGK_NPARAM * pb->bodies + pb->nonneg; j++) {
		if (!(pi[j] > 0))
			return 0;
		*logdet += tagk_log(pi[j]);
		if (g) {
			g[j] -= tau / pi[j];
			H[(size_t)j * (size_t)p + (size_t)j] += tau / (pi[j] * pi[j]);
		}
	}
	return 1;
}

/* f - tau sum log det J at pi; 0 in *ok outside the domain. */
static tagk_real
phi_at(const tagk_dmls_problem *pb, const view *v, const tagk_real *pi, tagk_real tau, int *ok)
{
	tagk_real f = 0, ld = 0;
	*ok = 0;
	for (int k = 0; k < pb->N; k++)
		if (!sample(pb, v, k, pi, &f, NULL, NULL))
			return 0;
	if ((pb->bodies || pb->nonneg) && !barrier(pb, pi, tau, &ld, NULL, NULL))
		return 0;
	*ok = 1;
	return f - tau * ld;
}

tagk_real
tagk_dmls_objective(const tagk_dmls_problem *pb, const tagk_real *pi, tagk_real *ws, size_t len)
{
	if (!pb || !pi || !ws || len < tagk_dmls_workspace_len(pb->n, pb->p))
		return -1;
	view v = wire(pb, ws);
	int ok;
	tagk_real f = phi_at(pb, &v, pi, 0, &ok);
	return ok ? f : -1;
}

/* Newton from v->th (inside the domain) on pb, with the barrier when
 * pb->bodies or pb->nonneg > 0; the solution in v->th. */
static tagk_status
run(const tagk_dmls_problem *pb, const view *v, tagk_dmls_info *out)
{
	const int p = pb->p;
	int ok;
	tagk_real f = phi_at(pb, v, v->th, 0, &ok);
	if (!ok)
		return TAGK_ENOTPD;
	const int constrained = pb->bodies || pb->nonneg;
	const tagk_real dims = (tagk_real)(4 * pb->bodies + pb->nonneg);
	tagk_real tau = constrained ? (1 + tagk_fabs(f)) / dims : 0, decrement = 0, tau_done = 0;
	int last = !constrained, newton = 0, stages = 0;
	for (;;) {
		tagk_real phi = phi_at(pb, v, v->th, tau, &ok), prev = -1;
		for (;;) {
			if (newton >= pb->max_newton)
				return TAGK_EDIVERGED;
			memset(v->H, 0, sizeof(*v->H) * (size_t)p * (size_t)p);
			memset(v->g, 0, sizeof(*v->g) * (size_t)p);
			tagk_real fk = 0, ld;
			for (int k = 0; k < pb->N; k++)
				sample(pb, v, k, v->th, &fk, v->g, v->H);
			if (constrained)
				barrier(pb, v->th, tau, &ld, v->g, v->H);
			for (int i = 0; i < p; i++)
				for (int j = 0; j < i; j++)
					v->H[(size_t)j * (size_t)p + (size_t)i] = v->H[(size_t)i * (size_t)p + (size_t)j];
			/* equilibrated: the Hessian's diagonal spans decades when the
			 * parameters' scales do (a 6 g pendulum's inertia beside a
			 * body's mass), so D H D, D = diag(H)^-1/2, is factored (trial
			 * holds D until the line search needs it) */
			for (int i = 0; i < p; i++) {
				tagk_real hii = v->H[(size_t)i * (size_t)p + (size_t)i];
				v->trial[i] = hii > 0 ? 1 / tagk_sqrt(hii) : 1;
			}
			for (int i = 0; i < p; i++)
				for (int j = 0; j < p; j++)
					v->H[(size_t)i * (size_t)p + (size_t)j] *= v->trial[i] * v->trial[j];
			if (tagk_cholesky(p, v->H) != TAGK_OK) {
				if (!stages)
					return TAGK_EDIVERGED; /* the data leave some parameter undetermined */
				/* parameters the data leave free are held by the barrier
				 * alone, whose curvature fades with tau: at a small enough
				 * tau the Hessian is singular to working precision. The
				 * last completed stage is the answer, to its gap. */
				memcpy(v->th, v->keep, sizeof(*v->th) * (size_t)p);
				out->f = phi_at(pb, v, v->th, 0, &ok);
				out->gap = dims * tau_done;
				out->newton = newton;
				return TAGK_OK;
			}
			for (int i = 0; i < p; i++)
				v->dx[i] = -v->g[i] * v->trial[i];
			tagk_cholesky_solve(p, 1, v->H, v->dx);
			for (int i = 0; i < p; i++)
				v->dx[i] *= v->trial[i];
			tagk_real lambda2 = -tagk_dot(p, v->g, v->dx);
			if (!tagk_isfinite(lambda2))
				return TAGK_EDIVERGED;
			if (lambda2 <= 0)
				break;
			decrement = lambda2 / 2;
			if (constrained ? lambda2 / 2 <= (last ? (tagk_real)1e-8 : (tagk_real)1e-2) * dims * tau
			    : lambda2 / 2 <= (pb->tol * pb->tol > 100 * TAGK_EPS ? pb->tol * pb->tol : 100 * TAGK_EPS)
			    * (1 + tagk_fabs(phi)))
				break;
			if (constrained && last && prev >= 0 && !(lambda2 < prev / 4))
				break; /* quadratic convergence has stopped: rounding */
			prev = lambda2;
			newton++;
			tagk_real a = 1, phit = 0;
			for (; a > (tagk_real)1e-20; a /= 2) {
				for (int i = 0; i < p; i++)
					v->trial[i] = v->th[i] + a * v->dx[i];
				phit = phi_at(pb, v, v->trial, tau, &ok);
				if (ok && phit <= phi - (tagk_real)0.25 * a * lambda2)
					break;
			}
			if (!(a > (tagk_real)1e-20))
				break; /* no decrease left at this precision */
			memcpy(v->th, v->trial, sizeof(*v->th) * (size_t)p);
			phi = phit;
		}
		f = phi_at(pb, v, v->th, 0, &ok);
		memcpy(v->keep, v->th, sizeof(*v->th) * (size_t)p);
		tau_done = tau;
		stages++;
		if (last)
			break;
		if (dims * tau <= pb->tol * (1 + tagk_fabs(f)))
			last = 1;
		else
			tau /= 10;
	}
	out->f = f;
	out->gap = constrained ? dims * tau : decrement;
	out->newton = newton;
	return TAGK_OK;
}

tagk_status
tagk_dmls_solve(const tagk_dmls_problem *pb, const tagk_real *pi0, tagk_real *pi, tagk_dmls_info *info,
    tagk_real *ws, size_t len)
{
	if (!pb || !pi0 || !pi || !ws || pb->N < 1 || pb->n < 1 || pb->p < 1 || pb->bodies < 0 || pb->nonneg < 0 ||
	    TAGK_NPARAM * pb->bodies + pb->nonneg > pb->p || !pb->Y || !pb->tau || !pb->M || !(pb->tol > 0) || pb->max_newton < 1)
		return TAGK_EINVAL;
	if (len < tagk_dmls_workspace_len(pb->n, pb->p))
		return TAGK_ESPACE;
	const int p = pb->p;
	const size_t nn = (size_t)pb->n * (size_t)pb->n;
	if (!tagk_all_finite(pb->N * pb->n * p, pb->Y) || !tagk_all_finite(pb->N * pb->n, pb->tau) ||
	    !tagk_all_finite((int)((size_t)pb->N * (size_t)(p + 1) * nn), pb->M) || !tagk_all_finite(p, pi0))
		return TAGK_ENONFINITE;
	view v = wire(pb, ws);
	int ok;
	memcpy(v.th, pi0, sizeof(*v.th) * (size_t)p);
	phi_at(pb, &v, v.th, 0, &ok); /* the start must be inside, constraints included */
	if (!ok)
		return TAGK_ENOTPD;
	tagk_dmls_info res;
	tagk_status st = TAGK_EDIVERGED;
	if (pb->bodies || pb->nonneg) {
		/* the problem is convex: when the unconstrained minimiser exists
		 * and is physical it is the solution, which the barrier would only
		 * approach to its tolerance */
		tagk_dmls_problem open = *pb; /* without the constraint */
		open.bodies = 0;
		open.nonneg = 0;
		st = run(&open, &v, &res);
		tagk_real ld;
		if (st == TAGK_OK && !barrier(pb, v.th, 0, &ld, NULL, NULL))
			st = TAGK_EDIVERGED;
		if (st == TAGK_OK)
			res.gap = 0;
		else
			memcpy(v.th, pi0, sizeof(*v.th) * (size_t)p);
	}
	if (st != TAGK_OK && (st = run(pb, &v, &res)) != TAGK_OK)
		return st;
	memcpy(pi, v.th, sizeof(*pi) * (size_t)p);
	if (info)
		*info = res;
	return TAGK_OK;
}
