/*
 * mass_swls.c: sliding-window least squares with pre-integration (paper 001,
 * eqs. 18-23, 35-39), solved by Levenberg-Marquardt or Gauss-Newton.
 *
 * The window holds the states x_k = (q_k, r_k, v_k, m_k) at the last
 * `window` measurement times (eq. 35). Between neighbours the inputs are
 * pre-integrated once (eqs. 36-37), with the covariance of eq. 20 from the
 * gyro noise (q_att) and a thrust noise of m q_vel (so that the weights
 * match the Kalman filters' process noise), plus q_pos. The cost (eq. 21) is
 *
 *   1/2 sum_k |y_k [-] h(x_k)|^2_{R^-1}                       (eq. 22)
 * + 1/2 sum_k |r_D(x_k, x_k+1)|^2_{W_k}                       (eqs. 23, 39)
 * + the prior on the oldest state: 1/2 e^T H_p e + g_p^T e, e = x_0 [-] x_p,
 *
 * where r_D = (alpha / m_k+1 - R_k^T (r_k+1 - r_k - v_k dt - g dt^2 / 2),
 *              beta / m_k+1 - R_k^T (v_k+1 - v_k - g dt),
 *              Log(gamma^-1 q_k^-1 q_k+1), m_k+1 - m_k)
 * and the mass term's weight is 1 / (q_mass^2 dt), a random walk, as in the
 * filters. Eq. 39 multiplies the kinematic terms by m_k+1 instead of
 * dividing the pre-integrated thrust by it; with the weight computed at a
 * frozen mass that is an errors-in-variables form, and it biased the mass
 * about 0.45 % low at constant mass (tests/test_mass.c). Divided, the
 * residual is in position and velocity units, and its weight is the
 * pre-integration's information scaled by m^2 at the mass the gap was
 * closed with (a constant of the cost, not a variable). The normal equations are block tridiagonal (10 x 10 blocks) and
 * are solved by block Cholesky in O(window). When the window is full the
 * oldest state is marginalised by a Schur complement into the prior on the
 * next one, with its gradient, so no information is thrown away.
 */
#include <string.h>
#include "massest_impl.h"
#include "linalg.h"
#include "so3.h"

enum { NE = TAGK_UAV_NE, NY = TAGK_UAV_NY, PRE = 11 + 100, ACC = 11 + 81 };

/* Scratch for the linearisation of one gap: Ja Jb (100 each), WJ (200),
 * blocks (400); of one block solve: 100 + 10. */
enum { TMP = 100 + 100 + 200 + 400 + 200 };

size_t
tagk__swls_len(const tagk_mass_config *c)
{
	size_t W = (size_t)c->window;
	return 11 * W + 10 * W + PRE * (W - 1) + ACC + 100 + 10 + 100 * W + 100 * (W - 1) + 10 * W + 10 * W
	    + 11 * W + TMP;
}

void
tagk__swls_wire(tagk_mass_est *e, tagk_real *ws)
{
	_Static_assert(sizeof(tagk_uav_state) == 11 * sizeof(tagk_real), "state is 11 packed reals");
	_Static_assert(sizeof(tagk_uav_meas) == 10 * sizeof(tagk_real), "measurement is 10 packed reals");
	tagk_swls *s = &e->sw;
	int W = e->cfg.window;
	s->cap = W;
	s->st = (tagk_uav_state *)(void *)ws;
	ws += 11 * W;
	s->y = (tagk_uav_meas *)(void *)ws;
	ws += 10 * W;
	s->pre = ws;
	ws += PRE * (W - 1);
	s->acc = ws;
	ws += ACC;
	s->prior_H = ws;
	ws += 100;
	s->prior_g = ws;
	ws += 10;
	s->D = ws;
	ws += 100 * W;
	s->B = ws;
	ws += 100 * (W - 1);
	s->g = ws;
	ws += 10 * W;
	s->dx = ws;
	ws += 10 * W;
	s->save = (tagk_uav_state *)(void *)ws;
	ws += 11 * W;
	s->tmp = ws;
	e->P = NULL;
	e->ld = 0;
}

static void
acc_reset(tagk_real *acc)
{
	memset(acc, 0, ACC * sizeof(tagk_real));
	acc[6] = 1; /* gamma = identity */
}

void
tagk__swls_start(tagk_mass_est *e, const tagk_uav_meas *y)
{
	tagk_swls *s = &e->sw;
	tagk_real P0[100];
	s->st[0] = e->x;
	s->y[0] = *y;
	s->ns = 1;
	acc_reset(s->acc);
	tagk__mass_p0(&e->cfg, P0);
	memset(s->prior_H, 0, 100 * sizeof(tagk_real));
	for (int i = 0; i < NE; i++)
		s->prior_H[i * 11] = 1 / P0[i * 11];
	memset(s->prior_g, 0, 10 * sizeof(tagk_real));
	s->prior_x = e->x;
	s->lambda = (tagk_real)1e-4;
	s->last_iters = 0;
}

/* Eq. 37 and the covariance of eq. 20 for one input sample held for dt. */
static void
preintegrate(tagk_mass_est *e, const tagk_uav_input *u, tagk_real dt)
{
	tagk_real *A = e->sw.acc, *al = A, *be = A + 3, *ga = A + 6, *P = A + 11;
	tagk_real R[9], S[9], RS[9], f[3] = { 0, 0, u->thrust }, a[3], wd[3], ex[4], Rw[9];
	tagk_real F[81], T[81];
	tagk_real m = e->sw.st[e->sw.ns - 1].m;
	tagk_real sf2 = m * e->cfg.q_vel * m * e->cfg.q_vel, sp2 = m * e->cfg.q_pos * m * e->cfg.q_pos;
	tagk_qmatrix(ga, R);
	tagk_skew(f, S);
	tagk_matmul(3, 3, 3, R, S, RS);
	for (int i = 0; i < 3; i++)
		wd[i] = u->w[i] * dt;
	tagk_qexp(wd, ex);
	tagk_qmatrix(ex, Rw);
	/* F over (dalpha, dbeta, dtheta) */
	memset(F, 0, sizeof(F));
	for (int i = 0; i < 9; i++)
		F[i * 10] = 1;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			F[i * 9 + 3 + j] += i == j ? dt : 0;
			F[i * 9 + 6 + j] = -RS[i * 3 + j] * dt * dt / 2;
			F[(3 + i) * 9 + 6 + j] = -RS[i * 3 + j] * dt;
			F[(6 + i) * 9 + 6 + j] = Rw[j * 3 + i];
		}
	tagk_matmul(9, 9, 9, F, P, T);
	tagk_matmul_nt(9, 9, 9, T, F, P);
	for (int i = 0; i < 3; i++) {
		P[i * 10] += sf2 * dt * dt * dt / 3 + sp2 * dt;
		P[i * 9 + 3 + i] += sf2 * dt * dt / 2;
		P[(3 + i) * 9 + i] += sf2 * dt * dt / 2;
		P[(3 + i) * 10] += sf2 * dt;
		P[(6 + i) * 10] += e->cfg.q_att * e->cfg.q_att * dt;
	}
	tagk_qrotate(ga, f, a);
	for (int i = 0; i < 3; i++) {
		al[i] += be[i] * dt + a[i] * dt * dt / 2;
		be[i] += a[i] * dt;
	}
	tagk_qplus(ga, wd);
	A[10] += dt;
}

/* Close the pre-integration into gap k: alpha, beta, gamma, dt and the
 * information of r_D (the inverse of the pre-integration covariance and
 * the mass random walk's 1 / (q_mass^2 dt)). */
static tagk_status
close_gap(tagk_mass_est *e, int k)
{
	tagk_real *p = e->sw.pre + PRE * k, *A = e->sw.acc, *W = p + 11, L[81], I9[81];
	memcpy(p, A, 11 * sizeof(tagk_real));
	memcpy(L, A + 11, sizeof(L));
	tagk_status st = tagk_cholesky(9, L);
	if (st != TAGK_OK)
		return st;
	memset(I9, 0, sizeof(I9));
	for (int i = 0; i < 9; i++)
		I9[i * 10] = 1;
	tagk_cholesky_solve(9, 9, L, I9);
	memset(W, 0, 100 * sizeof(tagk_real));
	for (int i = 0; i < 9; i++)
		for (int j = 0; j < 9; j++)
			W[i * 10 + j] = (I9[i * 9 + j] + I9[j * 9 + i]) / 2;
	/* alpha and beta are divided by the mass in r_D: their information
	 * scales by m^2 (rows and columns 0-5), by m against the rotation */
	tagk_real m = e->sw.st[e->sw.ns - 1].m;
	for (int i = 0; i < 9; i++)
		for (int j = 0; j < 9; j++)
			W[i * 10 + j] *= (i < 6 ? m : 1) * (j < 6 ? m : 1);
	tagk_real vm = e->cfg.q_mass * e->cfg.q_mass * A[10], floor = e->cfg.m0 * (tagk_real)1e-9;
	W[99] = 1 / (vm > floor * floor ? vm : floor * floor);
	return TAGK_OK;
}

/* The state at the end of the pre-integrated interval, from x0 (eq. 39 solved
 * for x_k+1 with the residual zero); the new state's starting point. */
static void
predict_state(const tagk_uav_state *x0, const tagk_real *A, tagk_uav_state *x1)
{
	tagk_real ra[3], rb[3], dt = A[10];
	tagk_qrotate(x0->q, A, ra);
	tagk_qrotate(x0->q, A + 3, rb);
	*x1 = *x0;
	for (int i = 0; i < 3; i++) {
		tagk_real g = i == 2 ? -TAGK_UAV_G : 0;
		x1->r[i] = x0->r[i] + x0->v[i] * dt + g * dt * dt / 2 + ra[i] / x0->m;
		x1->v[i] = x0->v[i] + g * dt + rb[i] / x0->m;
	}
	tagk_real q[4];
	tagk_qmul(x0->q, A + 6, q);
	tagk_qnormalize(q);
	memcpy(x1->q, q, sizeof(q));
}

/* r_D of gap k (eq. 39) and, if Ja is not NULL, its Jacobians with
 * respect to the error states of x_k (Ja) and x_k+1 (Jb), 10 x 10 each. */
static void
gap_residual(const tagk_swls *s, int k, tagk_real r[10], tagk_real *Ja, tagk_real *Jb)
{
	const tagk_uav_state *x0 = &s->st[k], *x1 = &s->st[k + 1];
	const tagk_real *p = s->pre + PRE * k, dt = p[10];
	tagk_real da[3], db[3], ta[3], tb[3], gi[4], q0i[4], t1[4], t2[4], e0[3];
	for (int i = 0; i < 3; i++) {
		tagk_real g = i == 2 ? -TAGK_UAV_G : 0;
		da[i] = x1->r[i] - x0->r[i] - x0->v[i] * dt - g * dt * dt / 2;
		db[i] = x1->v[i] - x0->v[i] - g * dt;
	}
	tagk_qrotate_t(x0->q, da, ta);
	tagk_qrotate_t(x0->q, db, tb);
	tagk_real m1 = x1->m;
	for (int i = 0; i < 3; i++) {
		r[i] = p[i] / m1 - ta[i];
		r[3 + i] = p[3 + i] / m1 - tb[i];
	}
	tagk_qconj(p + 6, gi);
	tagk_qconj(x0->q, q0i);
	tagk_qmul(gi, q0i, t1);
	tagk_qmul(t1, x1->q, t2);
	tagk_qlog(t2, e0);
	for (int i = 0; i < 3; i++)
		r[6 + i] = e0[i];
	r[9] = x1->m - x0->m;
	if (!Ja)
		return;
	tagk_real R0[9], R1[9], Sa[9], Sb[9], Jr[9], R10[9], M[9];
	memset(Ja, 0, 100 * sizeof(tagk_real));
	memset(Jb, 0, 100 * sizeof(tagk_real));
	tagk_qmatrix(x0->q, R0);
	tagk_qmatrix(x1->q, R1);
	tagk_skew(ta, Sa);
	tagk_skew(tb, Sb);
	tagk_so3_jr_inv(e0, Jr);
	/* R10 = R1^T R0 */
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			R10[i * 3 + j] = R1[i] * R0[j] + R1[3 + i] * R0[3 + j] + R1[6 + i] * R0[6 + j];
	tagk_matmul(3, 3, 3, Jr, R10, M);
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			tagk_real rt = R0[j * 3 + i]; /* R0^T */
			Ja[i * 10 + j] = -Sa[i * 3 + j];
			Ja[i * 10 + 3 + j] = rt;
			Ja[i * 10 + 6 + j] = rt * dt;
			Jb[i * 10 + 3 + j] = -rt;
			Ja[(3 + i) * 10 + j] = -Sb[i * 3 + j];
			Ja[(3 + i) * 10 + 6 + j] = rt;
			Jb[(3 + i) * 10 + 6 + j] = -rt;
			Ja[(6 + i) * 10 + j] = -M[i * 3 + j];
			Jb[(6 + i) * 10 + j] = Jr[i * 3 + j];
		}
		Jb[i * 10 + 9] = -p[i] / (m1 * m1);
		Jb[(3 + i) * 10 + 9] = -p[3 + i] / (m1 * m1);
	}
	Ja[99] = -1;
	Jb[99] = 1;
}

/* y [-] h(x) (eq. 22) and, if J is not NULL, its 9 x 10 Jacobian. */
static void
meas_residual(const tagk_uav_state *x, const tagk_uav_meas *y, tagk_real r[9], tagk_real *J)
{
	tagk_uav_innovation(y, x, r);
	if (!J)
		return;
	tagk_real Jr[9], Re[9], ex[4], M[9];
	memset(J, 0, 90 * sizeof(tagk_real));
	tagk_so3_jr_inv(r, Jr);
	tagk_qexp(r, ex);
	tagk_qmatrix(ex, Re);
	/* -Jr^-1(e) R(e)^T */
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			M[i * 3 + j] = -(Jr[i * 3] * Re[j * 3] + Jr[i * 3 + 1] * Re[j * 3 + 1] + Jr[i * 3 + 2] * Re[j * 3 + 2]);
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++)
			J[i * 10 + j] = M[i * 3 + j];
		J[(3 + i) * 10 + 3 + i] = -1;
		J[(6 + i) * 10 + 6 + i] = -1;
	}
}

/* The prior's error e = x [-] x_p and the Jacobian's rotation block. */
static void
prior_residual(const tagk_swls *s, tagk_real e[10], tagk_real Jr[9])
{
	tagk_uav_minus(&s->st[0], &s->prior_x, e);
	tagk_so3_jr_inv(e, Jr);
}

/* C = A^T B: A k x m, B k x n, C m x n; added to C when acc. */
static void
atb(int k, int m, int n, const tagk_real *A, const tagk_real *B, tagk_real *C, int acc)
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			tagk_real s = 0;
			for (int l = 0; l < k; l++)
				s += A[l * m + i] * B[l * n + j];
			C[i * n + j] = acc ? C[i * n + j] + s : s;
		}
}

/*
 * Linearise the cost over states lo .. hi - 1 (gaps lo .. hi - 2, the prior
 * only when lo is 0): return the cost and, when D is not NULL, add the
 * normal equations' blocks: D (hi - lo diagonal blocks), B (hi - lo - 1
 * blocks H_k+1,k), g (gradients J^T W r).
 */
static tagk_real
linearise(tagk_mass_est *e, int lo, int hi, tagk_real *D, tagk_real *B, tagk_real *g)
{
	tagk_swls *s = &e->sw;
	tagk_real *Ja = s->tmp, *Jb = Ja + 100, *WJ = Jb + 100, r[10], Wr[10], rdiag[9], cost = 0;
	tagk__mass_r(&e->cfg, rdiag);
	if (lo == 0) {
		tagk_real ev[10], Jr[9], He[10], Jp[100];
		prior_residual(s, ev, Jr);
		tagk_gemv(10, 10, s->prior_H, ev, He);
		for (int i = 0; i < 10; i++)
			cost += ev[i] * (He[i] / 2 + s->prior_g[i]);
		if (D) {
			memset(Jp, 0, sizeof(Jp));
			for (int i = 0; i < 10; i++)
				Jp[i * 11] = 1;
			for (int i = 0; i < 3; i++)
				for (int j = 0; j < 3; j++)
					Jp[i * 10 + j] = Jr[i * 3 + j];
			tagk_matmul(10, 10, 10, s->prior_H, Jp, WJ);
			atb(10, 10, 10, Jp, WJ, D, 1);
			for (int i = 0; i < 10; i++)
				He[i] += s->prior_g[i];
			atb(10, 10, 1, Jp, He, g, 1);
		}
	}
	for (int k = lo; k < hi; k++) {
		tagk_real *J9 = D ? Ja : NULL;
		meas_residual(&s->st[k], &s->y[k], r, J9);
		for (int i = 0; i < 9; i++) {
			Wr[i] = r[i] / rdiag[i];
			cost += r[i] * Wr[i] / 2;
		}
		if (D) {
			for (int i = 0; i < 9; i++)
				for (int j = 0; j < 10; j++)
					WJ[i * 10 + j] = Ja[i * 10 + j] / rdiag[i];
			atb(9, 10, 10, Ja, WJ, D + 100 * (k - lo), 1);
			atb(9, 10, 1, Ja, Wr, g + 10 * (k - lo), 1);
		}
	}
	for (int k = lo; k + 1 < hi; k++) {
		const tagk_real *W = s->pre + PRE * k + 11;
		gap_residual(s, k, r, D ? Ja : NULL, Jb);
		tagk_gemv(10, 10, W, r, Wr);
		cost += tagk_dot(10, r, Wr) / 2;
		if (D) {
			int b = k - lo;
			tagk_matmul(10, 10, 10, W, Ja, WJ);
			atb(10, 10, 10, Ja, WJ, D + 100 * b, 1);
			atb(10, 10, 10, Jb, WJ, B + 100 * b, 1);
			tagk_matmul(10, 10, 10, W, Jb, WJ);
			atb(10, 10, 10, Jb, WJ, D + 100 * (b + 1), 1);
			atb(10, 10, 1, Ja, Wr, g + 10 * b, 1);
			atb(10, 10, 1, Jb, Wr, g + 10 * (b + 1), 1);
		}
	}
	return cost;
}

/* Solve the block-tridiagonal system H dx = -g (ns blocks) by block
 * Cholesky; D and B are overwritten by the factor. */
static tagk_status
solve(int ns, tagk_real *D, tagk_real *B, const tagk_real *g, tagk_real *dx, tagk_real *tmp)
{
	for (int k = 0; k < ns; k++) {
		tagk_real *Dk = D + 100 * k;
		if (k > 0) {
			const tagk_real *Lk = B + 100 * (k - 1);
			for (int i = 0; i < 10; i++)
				for (int j = 0; j < 10; j++)
					Dk[i * 10 + j] -= tagk_dot(10, Lk + i * 10, Lk + j * 10);
		}
		tagk_status st = tagk_cholesky(10, Dk);
		if (st != TAGK_OK)
			return st;
		if (k + 1 < ns) {
			tagk_real *Bk = B + 100 * k;
			for (int i = 0; i < 10; i++)
				for (int j = 0; j < 10; j++)
					tmp[j * 10 + i] = Bk[i * 10 + j];
			tagk_trsm_lower(10, 10, Dk, tmp);
			for (int i = 0; i < 10; i++)
				for (int j = 0; j < 10; j++)
					Bk[i * 10 + j] = tmp[j * 10 + i];
		}
	}
	for (int k = 0; k < ns; k++) {
		tagk_real *y = dx + 10 * k;
		for (int i = 0; i < 10; i++)
			y[i] = -g[10 * k + i];
		if (k > 0) {
			const tagk_real *Lk = B + 100 * (k - 1), *yp = dx + 10 * (k - 1);
			for (int i = 0; i < 10; i++)
				y[i] -= tagk_dot(10, Lk + i * 10, yp);
		}
		tagk_trsm_lower(10, 1, D + 100 * k, y);
	}
	for (int k = ns - 1; k >= 0; k--) {
		tagk_real *d = dx + 10 * k;
		if (k + 1 < ns) {
			const tagk_real *Lk = B + 100 * k, *dn = dx + 10 * (k + 1);
			for (int j = 0; j < 10; j++)
				for (int i = 0; i < 10; i++)
					d[j] -= Lk[i * 10 + j] * dn[i];
		}
		tagk_trsm_lower_t(10, 1, D + 100 * k, d);
	}
	return TAGK_OK;
}

/* Marginalise st[0] into a prior on st[1] (Schur complement of the prior,
 * measurement and gap terms that involve it), then shift the window. */
static tagk_status
marginalise(tagk_mass_est *e)
{
	tagk_swls *s = &e->sw;
	tagk_real *blk = s->tmp + 400, *D0 = blk, *D1 = blk + 100, *B0 = blk + 200, g2[20], X[100], y[10];
	memset(blk, 0, 300 * sizeof(tagk_real));
	memset(g2, 0, sizeof(g2));
	/* the terms in st[0]: the prior, its measurement and gap 0; the
	 * measurement of st[1] stays in the window */
	tagk_real *Ja = s->tmp, *Jb = Ja + 100, *WJ = Jb + 100, r[10], Wr[10];
	linearise(e, 0, 1, D0, NULL, g2);
	const tagk_real *W = s->pre + 11;
	gap_residual(s, 0, r, Ja, Jb);
	tagk_gemv(10, 10, W, r, Wr);
	tagk_matmul(10, 10, 10, W, Ja, WJ);
	atb(10, 10, 10, Ja, WJ, D0, 1);
	atb(10, 10, 10, Jb, WJ, B0, 1);
	tagk_matmul(10, 10, 10, W, Jb, WJ);
	atb(10, 10, 10, Jb, WJ, D1, 1);
	atb(10, 10, 1, Ja, Wr, g2, 1);
	atb(10, 10, 1, Jb, Wr, g2 + 10, 1);
	tagk_status st = tagk_cholesky(10, D0);
	if (st != TAGK_OK)
		return st;
	/* X = L^-1 H01 = L^-1 B0^T, y = L^-1 g0 */
	for (int i = 0; i < 10; i++) {
		for (int j = 0; j < 10; j++)
			X[i * 10 + j] = B0[j * 10 + i];
		y[i] = g2[i];
	}
	tagk_trsm_lower(10, 10, D0, X);
	tagk_trsm_lower(10, 1, D0, y);
	for (int i = 0; i < 10; i++) {
		for (int j = 0; j < 10; j++) {
			tagk_real sum = 0;
			for (int l = 0; l < 10; l++)
				sum += X[l * 10 + i] * X[l * 10 + j];
			s->prior_H[i * 10 + j] = D1[i * 10 + j] - sum;
		}
		tagk_real sg = 0;
		for (int l = 0; l < 10; l++)
			sg += X[l * 10 + i] * y[l];
		s->prior_g[i] = g2[10 + i] - sg;
	}
	for (int i = 0; i < 10; i++)
		for (int j = i + 1; j < 10; j++)
			s->prior_H[i * 10 + j] = s->prior_H[j * 10 + i] =
			    (s->prior_H[i * 10 + j] + s->prior_H[j * 10 + i]) / 2;
	s->prior_x = s->st[1];
	memmove(s->st, s->st + 1, (size_t)(s->ns - 1) * sizeof(*s->st));
	memmove(s->y, s->y + 1, (size_t)(s->ns - 1) * sizeof(*s->y));
	memmove(s->pre, s->pre + PRE, (size_t)(PRE * (s->ns - 2)) * sizeof(tagk_real));
	s->ns--;
	return TAGK_OK;
}

static tagk_real
build(tagk_mass_est *e)
{
	tagk_swls *s = &e->sw;
	memset(s->D, 0, (size_t)(100 * s->ns) * sizeof(tagk_real));
	memset(s->B, 0, (size_t)(100 * (s->ns - 1)) * sizeof(tagk_real));
	memset(s->g, 0, (size_t)(10 * s->ns) * sizeof(tagk_real));
	return linearise(e, 0, s->ns, s->D, s->B, s->g);
}

/* Levenberg-Marquardt (or plain Gauss-Newton) over the window. */
static tagk_status
optimise(tagk_mass_est *e)
{
	tagk_swls *s = &e->sw;
	int ns = s->ns;
	tagk_real cost = build(e);
	s->last_iters = 0;
	for (int it = 0; it < e->cfg.iters; it++) {
		s->last_iters++;
		if (e->cfg.lm)
			for (int k = 0; k < ns; k++)
				for (int i = 0; i < 10; i++)
					s->D[100 * k + i * 11] *= 1 + s->lambda;
		memcpy(s->save, s->st, (size_t)ns * sizeof(*s->st));
		tagk_status st = solve(ns, s->D, s->B, s->g, s->dx, s->tmp);
		if (st != TAGK_OK) {
			if (!e->cfg.lm)
				return st;
			s->lambda *= 10;
			cost = build(e);
			continue;
		}
		tagk_real step = 0;
		for (int k = 0; k < ns; k++) {
			tagk_uav_plus(&s->st[k], s->dx + 10 * k);
			for (int i = 0; i < 10; i++)
				if (tagk_fabs(s->dx[10 * k + i]) > step)
					step = tagk_fabs(s->dx[10 * k + i]);
		}
		tagk_real c1 = linearise(e, 0, ns, NULL, NULL, NULL);
		if (!tagk_isfinite(c1))
			return TAGK_EDIVERGED;
		if (!e->cfg.lm || c1 <= cost) {
			if (e->cfg.lm && s->lambda > (tagk_real)1e-9)
				s->lambda /= 3;
			if (step < (tagk_real)1e-10)
				break;
			if (it + 1 < e->cfg.iters)
				cost = build(e);
		} else {
			memcpy(s->st, s->save, (size_t)ns * sizeof(*s->st));
			if (s->lambda < (tagk_real)1e9)
				s->lambda *= 5;
			if (it + 1 < e->cfg.iters)
				cost = build(e);
		}
	}
	return TAGK_OK;
}

tagk_status
tagk__swls_step(tagk_mass_est *e, const tagk_uav_input *u, tagk_real dt, const tagk_uav_meas *y)
{
	tagk_swls *s = &e->sw;
	preintegrate(e, u, dt);
	if (s->ns == s->cap) {
		tagk_status st = marginalise(e);
		if (st != TAGK_OK)
			return st;
	}
	tagk_status st = close_gap(e, s->ns - 1);
	if (st != TAGK_OK)
		return st;
	predict_state(&s->st[s->ns - 1], s->acc, &s->st[s->ns]);
	s->y[s->ns] = *y;
	s->ns++;
	acc_reset(s->acc);
	st = optimise(e);
	if (st != TAGK_OK)
		return st;
	e->x = s->st[s->ns - 1];
	return TAGK_OK;
}

static const char *const swls_keys[] = { "m0", "mass-sd", "proc-sd", "meas-sd", "window", "iters",
	"gauss-newton", NULL };

const tagk_state_ops tagk_mass_swls_ops = {
	{ swls_keys }, tagk__swls_len, tagk__swls_wire, tagk__swls_start, tagk__swls_step,
};
