/* batch_bregman.c: wls-bregman, weighted least squares regularised toward a
 * prior by the log-det (Bregman) divergence of pseudo-inertias (paper 002,
 * eq. 8); see batch.h. Minimises the weighted residuals plus
 *   lambda D(J(theta) || J0),  D = tr(J0^-1 J) - log det(J0^-1 J) - 4,
 * which is finite only for a physical theta: the estimate is always
 * physical. Damped Newton from the prior, every step kept inside (a
 * Cholesky test of J) and lowering the objective (Armijo, 1/4):
 *   gradient  2 (H theta - h) + lambda (tr(J0^-1 V_i) - tr(J^-1 V_i))
 *   Hessian   2 H + lambda tr(J^-1 V_i J^-1 V_j),  V_i = J(e_i). */
#include <string.h>
#include "batch.h"
#include "inertia.h"
#include "linalg.h"

enum { P = TAGK_NPARAM };

/* W_i = L^-1 V_i L^-T for J = L L^T (so tr(J^-1 V_i) = tr(W_i) and
 * tr(J^-1 V_i J^-1 V_j) = tr(W_i W_j)); 0 if J is not positive definite. */
static int
whitened(const tagk_real theta[P], tagk_real W[P][16], tagk_real *logdet)
{
	tagk_real L[16];
	tagk_pseudo_inertia(theta, L);
	if (tagk_cholesky(4, L) != TAGK_OK)
		return 0;
	if (logdet) {
		*logdet = 0;
		for (int i = 0; i < 4; i++)
			*logdet += 2 * tagk_log(L[i * 5]);
	}
	for (int i = 0; i < P; i++) {
		tagk_real e[P] = { 0 }, X[16];
		e[i] = 1;
		tagk_pseudo_inertia(e, W[i]);
		tagk_trsm_lower(4, 4, L, W[i]);          /* L^-1 V */
		for (int a = 0; a < 4; a++)
			for (int b = 0; b < 4; b++)
				X[a * 4 + b] = W[i][b * 4 + a];  /* (L^-1 V)^T = V L^-T */
		tagk_trsm_lower(4, 4, L, X);             /* L^-1 V L^-T */
		memcpy(W[i], X, sizeof(X));
	}
	return 1;
}

/* The objective, less constants: theta^T H theta - 2 h^T theta + lambda
 * (tr(J0^-1 J) - log det J); 0 if theta is not physical. */
static int
objective(const double *H, const double *h, const tagk_real tr0[P], tagk_real lambda, const tagk_real theta[P],
    double *F)
{
	tagk_real J[16];
	tagk_pseudo_inertia(theta, J);
	if (tagk_cholesky(4, J) != TAGK_OK)
		return 0;
	double ld = 0, f = 0, tr = 0;
	for (int i = 0; i < 4; i++)
		ld += 2 * (double)tagk_log(J[i * 5]);
	for (int a = 0; a < P; a++) {
		double Ht = 0;
		for (int b = 0; b < P; b++)
			Ht += H[a * P + b] * (double)theta[b];
		f += (double)theta[a] * (Ht - 2 * h[a]);
		tr += (double)tr0[a] * (double)theta[a]; /* tr(J0^-1 J) is linear in theta */
	}
	*F = f + (double)lambda * (tr - ld);
	return 1;
}

static tagk_status
bregman(const tagk_batch *q, tagk_real *theta)
{
	if (q->n != P || !q->have_prior)
		return TAGK_EINVAL;
	tagk_real W0[P][16], W[P][16], tr0[P];
	if (!whitened(q->prior, W0, NULL))
		return TAGK_EINVAL; /* a prior that is not physical */
	for (int i = 0; i < P; i++)
		tr0[i] = W0[i][0] + W0[i][5] + W0[i][10] + W0[i][15];
	double H[P * P], h[P];
	tagk_status st = tagk_batch_normal(q, H, h);
	if (st != TAGK_OK)
		return st;
	const tagk_real lambda = q->lambda;
	memcpy(theta, q->prior, sizeof(*theta) * P);
	for (int it = 0; it < 200; it++) {
		double F;
		if (!whitened(theta, W, NULL) || !objective(H, h, tr0, lambda, theta, &F))
			return TAGK_EDIVERGED;
		tagk_real g[P], K[P * P], d[P];
		for (int i = 0; i < P; i++) {
			double Ht = 0;
			for (int j = 0; j < P; j++)
				Ht += H[i * P + j] * (double)theta[j];
			tagk_real tri = W[i][0] + W[i][5] + W[i][10] + W[i][15];
			g[i] = (tagk_real)(2 * (Ht - h[i])) + lambda * (tr0[i] - tri);
			for (int j = 0; j <= i; j++) {
				tagk_real t = 0;
				for (int a = 0; a < 4; a++)
					for (int b = 0; b < 4; b++)
						t += W[i][a * 4 + b] * W[j][b * 4 + a];
				K[i * P + j] = K[j * P + i] = (tagk_real)(2 * H[i * P + j]) + lambda * t;
			}
		}
		if (tagk_cholesky(P, K) != TAGK_OK)
			return TAGK_ENOTPD;
		memcpy(d, g, sizeof(d));
		tagk_cholesky_solve(P, 1, K, d); /* the Newton step is -d */
		double dec = 0;
		for (int i = 0; i < P; i++)
			dec += (double)g[i] * (double)d[i];
		if (!(dec == dec))
			return TAGK_EDIVERGED;
		if (dec / 2 <= 1e-14 * (1 + (F < 0 ? -F : F)))
			return TAGK_OK;
		double a = 1;
		for (;; a /= 2) {
			tagk_real trial[P];
			double F2;
			for (int i = 0; i < P; i++)
				trial[i] = theta[i] - (tagk_real)a * d[i];
			if (objective(H, h, tr0, lambda, trial, &F2) && F2 <= F - 0.25 * a * dec) {
				memcpy(theta, trial, sizeof(trial));
				break;
			}
			if (a < 1e-20)
				return TAGK_OK; /* no step lowers F beyond rounding: at the minimum */
		}
	}
	return TAGK_EDIVERGED;
}

static const char *const keys[] = { "segment", "weight", "theta0", "prior-weight", NULL };
const tagk_batch_ops tagk_batch_bregman_ops = { { keys }, bregman, NULL };
