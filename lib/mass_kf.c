/*
 * mass_kf.c: the EKF (paper 001, eqs. 3-8) and the MSCKF (eqs. 9-14, 34)
 * over the error state of uav.h; also the start shared with the UKF.
 *
 * Both propagate the head state with eq. 3 and its covariance with
 * F = exp(J dt) (eq. 5, a true matrix exponential), and update with the
 * measurement y = (q, r, v) of the head, whose Jacobian is [I_9 0].
 *
 * The MSCKF keeps, besides the head (q, r, v, m), up to `window` clones of
 * (q, r, v) taken at the last measurement times (eq. 34). Propagation moves
 * only the head and its cross-covariance with the clones (eq. 12); each
 * measurement first clones the head (eq. 13), dropping the oldest clone,
 * and then updates the whole window (eq. 14). Each measurement is used once,
 * so the window acts as a fixed-lag smoother of the clones and the head's
 * estimate equals the EKF's up to rounding: the paper's tables show the same
 * (EKF and MSCKF RMSPE agree to 3 digits), at a cost that grows with the
 * square of the window.
 */
#include <string.h>
#include "massest_impl.h"
#include "linalg.h"
#include "so3.h"

/* Defined below; MSCKF is the EKF with clones, told apart by its ops. */
extern const tagk_state_ops tagk_mass_msckf_ops;

enum { NE = TAGK_UAV_NE, NY = TAGK_UAV_NY };

static int
ld_of(const tagk_mass_config *c)
{
	return c->method->ops == &tagk_mass_msckf_ops ? NE + NY * c->window : NE;
}

/* work layout: J F (100 each), expm scratch (200), S Sc (81 each), z (9),
 * HP KT KS (9 ld each), row (10 ld), dx (ld) */
size_t
tagk__kf_len(const tagk_mass_config *c)
{
	size_t L = (size_t)ld_of(c);
	size_t clones = c->method->ops == &tagk_mass_msckf_ops ? (size_t)(10 * c->window) : 0;
	return L * L + clones + 400 + 162 + 9 + 27 * L + 10 * L + L;
}

void
tagk__kf_wire(tagk_mass_est *e, tagk_real *ws)
{
	e->ld = ld_of(&e->cfg);
	e->P = ws;
	ws += e->ld * e->ld;
	if (e->cfg.method->ops == &tagk_mass_msckf_ops) {
		e->clones = ws;
		ws += 10 * e->cfg.window;
	}
	e->work = ws;
}

void
tagk__kf_start(tagk_mass_est *e, const tagk_uav_meas *y)
{
	(void)y;
	tagk_real P0[100];
	tagk__mass_p0(&e->cfg, P0);
	memset(e->P, 0, (size_t)e->ld * (size_t)e->ld * sizeof(tagk_real));
	for (int i = 0; i < NE; i++)
		for (int j = 0; j < NE; j++)
			e->P[i * e->ld + j] = P0[i * NE + j];
	e->n = NE;
	e->nc = 0;
}

/* Eqs. 3-5 and 11-12: propagate the head, and P's head rows and columns. */
static void
predict(tagk_mass_est *e, const tagk_uav_input *u, tagk_real dt)
{
	tagk_real *J = e->work, *F = J + 100, *scr = F + 100, *row = scr + 200 + 162 + 9 + 27 * e->ld;
	int n = e->n, L = e->ld;
	tagk_real q[NE];
	tagk_uav_jacobian(&e->x, u, J);
	for (int i = 0; i < 100; i++)
		J[i] *= dt;
	tagk_expm(NE, J, F, scr);
	tagk_uav_propagate(&e->x, u, dt);
	/* row = F P[0:10, 0:n] */
	for (int i = 0; i < NE; i++)
		for (int k = 0; k < n; k++) {
			tagk_real s = 0;
			for (int j = 0; j < NE; j++)
				s += F[i * NE + j] * e->P[j * L + k];
			row[i * n + k] = s;
		}
	tagk__mass_q(&e->cfg, q);
	/* P_II = (F P_II) F^T + Q dt; P_IC = F P_IC and its transpose */
	for (int i = 0; i < NE; i++) {
		for (int k = 0; k < NE; k++) {
			tagk_real s = 0;
			for (int j = 0; j < NE; j++)
				s += row[i * n + j] * F[k * NE + j];
			e->P[i * L + k] = s + (i == k ? q[i] * dt : 0);
		}
		for (int k = NE; k < n; k++)
			e->P[i * L + k] = e->P[k * L + i] = row[i * n + k];
	}
	for (int i = 0; i < NE; i++)
		for (int k = i + 1; k < NE; k++)
			e->P[k * L + i] = e->P[i * L + k] = (e->P[i * L + k] + e->P[k * L + i]) / 2;
}

/* Eq. 13: append a clone of the head's (q, r, v), dropping the oldest when
 * the window is full. */
static void
augment(tagk_mass_est *e)
{
	int L = e->ld, W = e->cfg.window;
	if (e->nc == W) {
		/* remove rows and columns NE .. NE + 8 */
		int n = e->n, keep = n - NY;
		for (int i = 0, si = 0; si < n; si++) {
			if (si >= NE && si < NE + NY)
				continue;
			for (int j = 0, sj = 0; sj < n; sj++) {
				if (sj >= NE && sj < NE + NY)
					continue;
				e->P[i * L + j] = e->P[si * L + sj];
				j++;
			}
			i++;
		}
		memmove(e->clones, e->clones + 10, (size_t)(10 * (W - 1)) * sizeof(tagk_real));
		e->nc--;
		e->n = keep;
	}
	int n = e->n;
	/* new rows and columns n .. n + 8 copy the head's rows 0 .. 8 */
	for (int i = 0; i < NY; i++) {
		for (int k = 0; k < n; k++)
			e->P[(n + i) * L + k] = e->P[k * L + (n + i)] = e->P[i * L + k];
		for (int k = 0; k < NY; k++)
			e->P[(n + i) * L + n + k] = e->P[i * L + k];
	}
	tagk_real *c = e->clones + 10 * e->nc;
	memcpy(c, e->x.q, 4 * sizeof(tagk_real));
	memcpy(c + 4, e->x.r, 3 * sizeof(tagk_real));
	memcpy(c + 7, e->x.v, 3 * sizeof(tagk_real));
	e->nc++;
	e->n = n + NY;
}

/* Eqs. 7 and 14 with H = [I_9 0]: S = P_yy + R, K = P H^T S^-1, and the
 * Joseph form P = (I - KH) P (I - KH)^T + K R K^T, expanded as
 * P - K HP - (K HP)^T + K S K^T so that it costs O(9 n^2). */
static tagk_status
update(tagk_mass_est *e, const tagk_uav_meas *y)
{
	int n = e->n, L = e->ld;
	tagk_real *S = e->work + 400, *Sc = S + 81, *z = Sc + 81, *HP = z + 9, *KT = HP + 9 * L,
	    *KS = KT + 9 * L, *dx = KS + 9 * L + 10 * L, r[NY];
	tagk__mass_r(&e->cfg, r);
	tagk_uav_innovation(y, &e->x, z);
	for (int i = 0; i < NY; i++)
		for (int j = 0; j < NY; j++) {
			S[i * NY + j] = e->P[i * L + j] + (i == j ? r[i] : 0);
			Sc[i * NY + j] = S[i * NY + j];
		}
	tagk_status st = tagk_cholesky(NY, Sc);
	if (st != TAGK_OK)
		return st;
	for (int i = 0; i < NY; i++)
		for (int k = 0; k < n; k++)
			HP[i * n + k] = KT[i * n + k] = e->P[i * L + k];
	tagk_cholesky_solve(NY, n, Sc, KT); /* KT = S^-1 H P = K^T */
	for (int i = 0; i < n; i++) {
		tagk_real s = 0;
		for (int j = 0; j < NY; j++)
			s += KT[j * n + i] * z[j];
		dx[i] = s;
	}
	/* KS = K S (n x 9) */
	for (int i = 0; i < n; i++)
		for (int l = 0; l < NY; l++) {
			tagk_real s = 0;
			for (int j = 0; j < NY; j++)
				s += KT[j * n + i] * S[j * NY + l];
			KS[i * NY + l] = s;
		}
	for (int i = 0; i < n; i++)
		for (int k = i; k < n; k++) {
			tagk_real m1 = 0, m2 = 0, nn = 0;
			for (int j = 0; j < NY; j++) {
				m1 += KT[j * n + i] * HP[j * n + k];
				m2 += KT[j * n + k] * HP[j * n + i];
				nn += KS[i * NY + j] * KT[j * n + k];
			}
			tagk_real v = e->P[i * L + k] - m1 - m2 + nn;
			e->P[i * L + k] = e->P[k * L + i] = v;
		}
	tagk_uav_plus(&e->x, dx);
	for (int c = 0; c < e->nc; c++) {
		tagk_real *cl = e->clones + 10 * c, *d = dx + NE + NY * c;
		tagk_qplus(cl, d);
		for (int i = 0; i < 3; i++) {
			cl[4 + i] += d[3 + i];
			cl[7 + i] += d[6 + i];
		}
	}
	return TAGK_OK;
}

tagk_status
tagk__kf_step(tagk_mass_est *e, const tagk_uav_input *u, tagk_real dt, const tagk_uav_meas *y)
{
	predict(e, u, dt);
	if (e->cfg.method->ops == &tagk_mass_msckf_ops)
		augment(e);
	return update(e, y);
}

const tagk_state_ops tagk_mass_ekf_ops = {
	{ tagk__mass_keys }, tagk__kf_len, tagk__kf_wire, tagk__kf_start, tagk__kf_step,
};
const tagk_state_ops tagk_mass_msckf_ops = {
	{ tagk__mass_window_keys }, tagk__kf_len, tagk__kf_wire, tagk__kf_start, tagk__kf_step,
};
