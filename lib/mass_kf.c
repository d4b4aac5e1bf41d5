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
 *
 * msckf-stack reads eq. 14 the other way: at every update it stacks the
 * measurements of the whole window, each compared with its own clone
 * (H = [0 I_9] per clone), so each measurement enters up to `window` times.
 * That treats repeated data as independent and makes the filter over
 * confident, but it is a reading of the equation as printed, and it is one
 * in which the MSCKF differs from the EKF.
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

/* msckf-stack: the MSCKF row with preset[0] set */
static int
stacked(const tagk_mass_config *c)
{
	return c->method->ops == &tagk_mass_msckf_ops && c->method->preset[0] != 0;
}

/* Measurement rows per update, at most. */
static int
rows_of(const tagk_mass_config *c)
{
	return stacked(c) ? NY * c->window : NY;
}

/* Per clone: its (q, r, v), and for msckf-stack the measurement taken with it. */
static int
clone_len(const tagk_mass_config *c)
{
	return stacked(c) ? 20 : 10;
}

/* work layout (R rows, L = ld): J F (100 each), expm scratch (200), S Sc
 * (R^2 each), z (R), HP KT KS (R L each), row (10 L: predict's F P, then the
 * update's three runs of joseph_row), dx (L) */
typedef struct {
	tagk_real *J, *F, *scr, *S, *Sc, *z, *HP, *KT, *KS, *row, *dx;
} kf_work;

static void
work_of(const tagk_mass_est *e, kf_work *w)
{
	size_t R = (size_t)rows_of(&e->cfg), L = (size_t)e->ld;
	w->J = e->work;
	w->F = w->J + 100;
	w->scr = w->F + 100;
	w->S = w->scr + 200;
	w->Sc = w->S + R * R;
	w->z = w->Sc + R * R;
	w->HP = w->z + R;
	w->KT = w->HP + R * L;
	w->KS = w->KT + R * L;
	w->row = w->KS + R * L;
	w->dx = w->row + 10 * L;
}

size_t
tagk__kf_len(const tagk_mass_config *c)
{
	size_t L = (size_t)ld_of(c), R = (size_t)rows_of(c);
	size_t clones = c->method->ops == &tagk_mass_msckf_ops ? (size_t)(clone_len(c) * c->window) : 0;
	return L * L + clones + 400 + 2 * R * R + R + 3 * R * L + 10 * L + L;
}

void
tagk__kf_wire(tagk_mass_est *e, tagk_real *ws)
{
	e->ld = ld_of(&e->cfg);
	e->P = ws;
	ws += e->ld * e->ld;
	if (e->cfg.method->ops == &tagk_mass_msckf_ops) {
		e->clones = ws;
		ws += clone_len(&e->cfg) * e->cfg.window;
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
	kf_work w;
	work_of(e, &w);
	tagk_real *J = w.J, *F = w.F, *scr = w.scr, *row = w.row;
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

/* Eq. 13: append a clone of the head's (q, r, v), and for msckf-stack the
 * measurement y, dropping the oldest when the window is full. */
static void
augment(tagk_mass_est *e, const tagk_uav_meas *y)
{
	int L = e->ld, W = e->cfg.window, cl = clone_len(&e->cfg);
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
		memmove(e->clones, e->clones + cl, (size_t)(cl * (W - 1)) * sizeof(tagk_real));
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
	tagk_real *c = e->clones + cl * e->nc;
	memcpy(c, e->x.q, 4 * sizeof(tagk_real));
	memcpy(c + 4, e->x.r, 3 * sizeof(tagk_real));
	memcpy(c + 7, e->x.v, 3 * sizeof(tagk_real));
	if (cl == 20) {
		memcpy(c + 10, y->q, 4 * sizeof(tagk_real));
		memcpy(c + 14, y->r, 3 * sizeof(tagk_real));
		memcpy(c + 17, y->v, 3 * sizeof(tagk_real));
	}
	e->nc++;
	e->n = n + NY;
}

/* Row i of P - K HP - (K HP)^T + K S K^T for k >= i, written over p (row i
 * of P): each of the three sums runs over j in order, as the dot products
 * down the columns of K^T (m1, m2) and KS's row (nn) would, but as scaled
 * rows of HP and K^T added into contiguous runs over k, three j at a time;
 * those vectorise, the dot products (stride n) did not. buf holds 3 n. */
static void
joseph_row(int n, int R, int i, const tagk_real *restrict KT, const tagk_real *restrict HP,
    const tagk_real *restrict ks, tagk_real *restrict buf, tagk_real *restrict p)
{
	tagk_real *restrict m1 = buf, *restrict m2 = buf + n, *restrict nn = buf + 2 * n;
	for (int k = i; k < n; k++)
		m1[k] = m2[k] = nn[k] = 0;
	int j = 0;
	for (; j + 3 <= R; j += 3) {
		const tagk_real *t0 = KT + j * n, *t1 = t0 + n, *t2 = t1 + n;
		const tagk_real *h0 = HP + j * n, *h1 = h0 + n, *h2 = h1 + n;
		const tagk_real a0 = t0[i], a1 = t1[i], a2 = t2[i], b0 = h0[i], b1 = h1[i], b2 = h2[i];
		const tagk_real c0 = ks[j], c1 = ks[j + 1], c2 = ks[j + 2];
		for (int k = i; k < n; k++) {
			m1[k] = ((m1[k] + a0 * h0[k]) + a1 * h1[k]) + a2 * h2[k];
			m2[k] = ((m2[k] + t0[k] * b0) + t1[k] * b1) + t2[k] * b2;
			nn[k] = ((nn[k] + c0 * t0[k]) + c1 * t1[k]) + c2 * t2[k];
		}
	}
	for (; j < R; j++) {
		const tagk_real *kt = KT + j * n, *hp = HP + j * n;
		const tagk_real a = kt[i], b = hp[i], c = ks[j];
		for (int k = i; k < n; k++) {
			m1[k] += a * hp[k];
			m2[k] += kt[k] * b;
			nn[k] += c * kt[k];
		}
	}
	for (int k = i; k < n; k++)
		p[k] = p[k] - m1[k] - m2[k] + nn[k];
}

/* Eqs. 7 and 14: S = H P H^T + R, K = P H^T S^-1, and the Joseph form
 * P = (I - KH) P (I - KH)^T + K R K^T, expanded as P - K HP - (K HP)^T +
 * K S K^T so that it costs O(R n^2). H = [I_9 0] (the head), or for
 * msckf-stack one [0 I_9] block per clone, against the measurement taken
 * with it. */
static tagk_status
update(tagk_mass_est *e, const tagk_uav_meas *y)
{
	int n = e->n, L = e->ld, stack = stacked(&e->cfg), R = stack ? NY * e->nc : NY;
	kf_work w;
	work_of(e, &w);
	tagk_real *S = w.S, *Sc = w.Sc, *z = w.z, *HP = w.HP, *KT = w.KT, *KS = w.KS, *dx = w.dx, r[NY];
	tagk__mass_r(&e->cfg, r);
	/* the state index where block b's rows start, and its innovation */
	int first[TAGK_MASS_WINDOW_MAX];
	if (!stack) {
		first[0] = 0;
		tagk_uav_innovation(y, &e->x, z);
	} else {
		for (int b = 0; b < e->nc; b++) {
			const tagk_real *cl = e->clones + 20 * b;
			tagk_uav_state xs = e->x;
			tagk_uav_meas ys;
			memcpy(xs.q, cl, 4 * sizeof(tagk_real));
			memcpy(xs.r, cl + 4, 3 * sizeof(tagk_real));
			memcpy(xs.v, cl + 7, 3 * sizeof(tagk_real));
			memcpy(ys.q, cl + 10, 4 * sizeof(tagk_real));
			memcpy(ys.r, cl + 14, 3 * sizeof(tagk_real));
			memcpy(ys.v, cl + 17, 3 * sizeof(tagk_real));
			first[b] = NE + NY * b;
			tagk_uav_innovation(&ys, &xs, z + NY * b);
		}
	}
	for (int i = 0; i < R; i++) {
		int si = first[i / NY] + i % NY;
		for (int j = 0; j < R; j++) {
			int sj = first[j / NY] + j % NY;
			S[i * R + j] = e->P[si * L + sj] + (i == j ? r[i % NY] : 0);
			Sc[i * R + j] = S[i * R + j];
		}
		for (int k = 0; k < n; k++)
			HP[i * n + k] = KT[i * n + k] = e->P[si * L + k];
	}
	tagk_status st = tagk_cholesky(R, Sc);
	if (st != TAGK_OK)
		return st;
	tagk_cholesky_solve(R, n, Sc, KT); /* KT = S^-1 H P = K^T */
	for (int i = 0; i < n; i++) {
		tagk_real s = 0;
		for (int j = 0; j < R; j++)
			s += KT[j * n + i] * z[j];
		dx[i] = s;
	}
	/* KS = K S (n x R) */
	for (int i = 0; i < n; i++)
		for (int l = 0; l < R; l++) {
			tagk_real s = 0;
			for (int j = 0; j < R; j++)
				s += KT[j * n + i] * S[j * R + l];
			KS[i * R + l] = s;
		}
	for (int i = 0; i < n; i++)
		joseph_row(n, R, i, KT, HP, KS + i * R, w.row, e->P + i * L);
	for (int i = 0; i < n; i++)
		for (int k = i + 1; k < n; k++)
			e->P[k * L + i] = e->P[i * L + k];
	tagk_uav_plus(&e->x, dx);
	for (int c = 0; c < e->nc; c++) {
		tagk_real *cl = e->clones + clone_len(&e->cfg) * c, *d = dx + NE + NY * c;
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
		augment(e, y);
	return update(e, y);
}

const tagk_state_ops tagk_mass_ekf_ops = {
	{ tagk__mass_keys }, tagk__kf_len, tagk__kf_wire, tagk__kf_start, tagk__kf_step,
};
const tagk_state_ops tagk_mass_msckf_ops = {
	{ tagk__mass_window_keys }, tagk__kf_len, tagk__kf_wire, tagk__kf_start, tagk__kf_step,
};
