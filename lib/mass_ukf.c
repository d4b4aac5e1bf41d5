/*
 * mass_ukf.c: the unscented Kalman filter of paper 001 (eqs. 15-17) on the
 * 10-number error state of uav.h.
 *
 * Sigma points are x [+] (+-gamma L_i) with L the Cholesky factor of P
 * (eq. 15); each is propagated with eq. 3, and the mean is taken in the
 * tangent space of the propagated centre point (one step of the usual
 * manifold mean, exact for r, v and m). The update (eq. 17) draws a fresh set
 * from the predicted mean and covariance and maps each through h. Weights
 * are the scaled set of van der Merwe: lambda = alpha^2 (l + kappa) - l,
 * gamma = sqrt(l + lambda), wm0 = lambda / (l + lambda),
 * wc0 = wm0 + 1 - alpha^2 + beta, the others 1 / (2 (l + lambda)).
 */
#include <string.h>
#include "massest_impl.h"
#include "linalg.h"
#include "so3.h"

enum { NE = TAGK_UAV_NE, NY = TAGK_UAV_NY, NS = 2 * TAGK_UAV_NE + 1 };

/* work: L (100), sigma states (NS x 11), deltas (NS x 10), Z (NS x 9),
 * S Sc (81 each), C (90), K (90), mean (10), z (9) */
size_t
tagk__ukf_len(const tagk_mass_config *c)
{
	(void)c;
	return 100 + 100 + NS * 11 + NS * 10 + NS * 9 + 162 + 180 + 19;
}

void
tagk__ukf_wire(tagk_mass_est *e, tagk_real *ws)
{
	e->ld = NE;
	e->P = ws;
	e->work = ws + 100;
}

typedef struct {
	tagk_real lam, gamma, wm0, wc0, wi;
} weights;

static void
get_weights(const tagk_mass_config *c, weights *w)
{
	tagk_real l = NE, a2 = c->ukf_alpha * c->ukf_alpha;
	w->lam = a2 * (l + c->ukf_kappa) - l;
	w->gamma = tagk_sqrt(l + w->lam);
	w->wm0 = w->lam / (l + w->lam);
	w->wc0 = w->wm0 + 1 - a2 + c->ukf_beta;
	w->wi = 1 / (2 * (l + w->lam));
}

/* Sigma points of (x, P) into X (NS states); TAGK_ENOTPD if P does not factor. */
static tagk_status
sigma(const tagk_uav_state *x, const tagk_real *P, tagk_real gamma, tagk_real *Lw, tagk_uav_state *X)
{
	memcpy(Lw, P, 100 * sizeof(tagk_real));
	tagk_status st = tagk_cholesky(NE, Lw);
	if (st != TAGK_OK)
		return st;
	X[0] = *x;
	for (int i = 0; i < NE; i++) {
		tagk_real d[NE];
		for (int k = 0; k < NE; k++)
			d[k] = gamma * Lw[k * NE + i];
		X[1 + i] = *x;
		tagk_uav_plus(&X[1 + i], d);
		for (int k = 0; k < NE; k++)
			d[k] = -d[k];
		X[1 + NE + i] = *x;
		tagk_uav_plus(&X[1 + NE + i], d);
	}
	return TAGK_OK;
}

tagk_status
tagk__ukf_step(tagk_mass_est *e, const tagk_uav_input *u, tagk_real dt, const tagk_uav_meas *y)
{
	_Static_assert(sizeof(tagk_uav_state) == 11 * sizeof(tagk_real), "state is 11 packed reals");
	weights w;
	get_weights(&e->cfg, &w);
	tagk_real *Lw = e->work, *Xr = Lw + 100, *D = Xr + NS * 11, *Z = D + NS * 10, *S = Z + NS * 9,
	    *Sc = S + 81, *C = Sc + 81, *K = C + 90, *mean = K + 90, *z = mean + 10, q[NE], r[NY];
	tagk_uav_state *X = (tagk_uav_state *)(void *)Xr;
	tagk__mass_q(&e->cfg, q);
	tagk__mass_r(&e->cfg, r);

	/* eq. 16: propagate the sigma points; mean and covariance */
	tagk_status st = sigma(&e->x, e->P, w.gamma, Lw, X);
	if (st != TAGK_OK)
		return st;
	for (int i = 0; i < NS; i++)
		tagk_uav_propagate(&X[i], u, dt);
	memset(mean, 0, NE * sizeof(tagk_real));
	for (int i = 0; i < NS; i++) {
		tagk_uav_minus(&X[i], &X[0], D + i * NE);
		for (int k = 0; k < NE; k++)
			mean[k] += (i ? w.wi : w.wm0) * D[i * NE + k];
	}
	tagk_uav_state xm = X[0];
	tagk_uav_plus(&xm, mean);
	memset(e->P, 0, 100 * sizeof(tagk_real));
	for (int i = 0; i < NS; i++) {
		tagk_real wc = i ? w.wi : w.wc0, *d = D + i * NE;
		for (int k = 0; k < NE; k++)
			d[k] -= mean[k];
		for (int a = 0; a < NE; a++)
			for (int b = a; b < NE; b++)
				e->P[a * NE + b] += wc * d[a] * d[b];
	}
	for (int a = 0; a < NE; a++) {
		e->P[a * NE + a] += q[a] * dt;
		for (int b = 0; b < a; b++)
			e->P[a * NE + b] = e->P[b * NE + a];
	}
	e->x = xm;

	/* eq. 17: fresh sigma points, through h, and the update */
	st = sigma(&e->x, e->P, w.gamma, Lw, X);
	if (st != TAGK_OK)
		return st;
	tagk_real my[NY] = { 0 };
	for (int i = 0; i < NS; i++) {
		tagk_uav_minus(&X[i], &e->x, D + i * NE);  /* x_i - mu */
		for (int k = 0; k < NY; k++) {
			Z[i * NY + k] = D[i * NE + k];         /* h(x_i) [-] h(mu) */
			my[k] += (i ? w.wi : w.wm0) * Z[i * NY + k];
		}
	}
	memset(S, 0, 81 * sizeof(tagk_real));
	memset(C, 0, 90 * sizeof(tagk_real));
	for (int i = 0; i < NS; i++) {
		tagk_real wc = i ? w.wi : w.wc0, dz[NY];
		for (int k = 0; k < NY; k++)
			dz[k] = Z[i * NY + k] - my[k];
		for (int a = 0; a < NY; a++)
			for (int b = 0; b < NY; b++)
				S[a * NY + b] += wc * dz[a] * dz[b];
		for (int a = 0; a < NE; a++)
			for (int b = 0; b < NY; b++)
				C[a * NY + b] += wc * D[i * NE + a] * dz[b];
	}
	for (int a = 0; a < NY; a++)
		S[a * NY + a] += r[a];
	memcpy(Sc, S, 81 * sizeof(tagk_real));
	st = tagk_cholesky(NY, Sc);
	if (st != TAGK_OK)
		return st;
	/* K^T = S^-1 C^T (9 x 10) */
	for (int a = 0; a < NE; a++)
		for (int b = 0; b < NY; b++)
			K[b * NE + a] = C[a * NY + b];
	tagk_cholesky_solve(NY, NE, Sc, K);
	tagk_uav_innovation(y, &e->x, z);
	for (int k = 0; k < NY; k++)
		z[k] -= my[k];
	tagk_real dx[NE];
	for (int a = 0; a < NE; a++) {
		tagk_real s = 0;
		for (int b = 0; b < NY; b++)
			s += K[b * NE + a] * z[b];
		dx[a] = s;
	}
	/* P -= K S K^T = C K^T (C = K S) */
	for (int a = 0; a < NE; a++)
		for (int b = a; b < NE; b++) {
			tagk_real s = 0;
			for (int k = 0; k < NY; k++)
				s += C[a * NY + k] * K[k * NE + b];
			e->P[a * NE + b] -= s;
			e->P[b * NE + a] = e->P[a * NE + b];
		}
	tagk_uav_plus(&e->x, dx);
	return TAGK_OK;
}

const tagk_state_ops tagk_mass_ukf_ops = {
	{ tagk__mass_keys }, tagk__ukf_len, tagk__ukf_wire, tagk__kf_start, tagk__ukf_step,
};
