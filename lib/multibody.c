/* multibody.c: kinematics, regressors, inverse dynamics, mass matrix,
 * Jacobians and momentum of a kinematic tree; see multibody.h. A joint's
 * spatial transform is kept as a rotation and a translation (3 x 3 and 3)
 * and applied in closed form; only the mass matrix's congruences form the
 * 6 x 6 matrix. The regressor's rows are closed forms in the bodies'
 * Jacobian columns, which come from the world poses. */
#include <string.h>
#include "multibody.h"
#include "regressor.h"
#include "linalg.h"

int
tagk_mb_dof(const tagk_mb_model *m)
{
	if (!m || m->nb < 1 || m->nb > TAGK_MB_MAX_BODIES)
		return 0;
	return (m->floating ? 6 : 0) + m->nb - 1;
}

/* The velocity index of body j's joint (j >= 1). */
static int
dof_of(const tagk_mb_model *m, int j)
{
	return (m->floating ? 6 : 0) + j - 1;
}

tagk_status
tagk_mb_check(const tagk_mb_model *m)
{
	if (!m || m->nb < 1 || m->nb > TAGK_MB_MAX_BODIES || (m->floating != 0 && m->floating != 1))
		return TAGK_EINVAL;
	if (!tagk_all_finite(3, m->gravity))
		return TAGK_ENONFINITE;
	for (int i = 0; i < m->nb; i++) {
		if (i == 0 ? m->parent[0] != -1 : m->parent[i] < 0 || m->parent[i] >= i)
			return TAGK_EINVAL;
		if (!tagk_all_finite(9, m->rot[i]) || !tagk_all_finite(3, m->pos[i]) || !tagk_all_finite(3, m->axis[i]))
			return TAGK_ENONFINITE;
		for (int r = 0; r < 3; r++)
			for (int c = 0; c < 3; c++) {
				tagk_real s = 0;
				for (int k = 0; k < 3; k++)
					s += m->rot[i][r * 3 + k] * m->rot[i][c * 3 + k];
				if (tagk_fabs(s - (r == c)) > (tagk_real)1e-6)
					return TAGK_EINVAL;
			}
		if (i >= 1) {
			if (m->joint[i] != TAGK_JOINT_REVOLUTE && m->joint[i] != TAGK_JOINT_PRISMATIC)
				return TAGK_EINVAL;
			if (tagk_fabs(tagk_dot(3, m->axis[i], m->axis[i]) - 1) > (tagk_real)1e-6)
				return TAGK_EINVAL;
		}
	}
	return TAGK_OK;
}

static inline void
cross3(const tagk_real a[3], const tagk_real b[3], tagk_real o[3])
{
	tagk_real x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
	o[0] = x, o[1] = y, o[2] = z;
}

static inline tagk_real
dot3(const tagk_real a[3], const tagk_real b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void
mat3_mul(const tagk_real A[9], const tagk_real B[9], tagk_real C[9])
{
	tagk_real T[9];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			T[i * 3 + j] = A[i * 3] * B[j] + A[i * 3 + 1] * B[3 + j] + A[i * 3 + 2] * B[6 + j];
	memcpy(C, T, sizeof(T));
}

static void
mat3_vec(const tagk_real A[9], const tagk_real x[3], tagk_real y[3])
{
	tagk_real t[3];
	for (int i = 0; i < 3; i++)
		t[i] = A[i * 3] * x[0] + A[i * 3 + 1] * x[1] + A[i * 3 + 2] * x[2];
	memcpy(y, t, sizeof(t));
}

static void
mat3_tvec(const tagk_real A[9], const tagk_real x[3], tagk_real y[3])
{
	tagk_real t[3];
	for (int i = 0; i < 3; i++)
		t[i] = A[i] * x[0] + A[3 + i] * x[1] + A[6 + i] * x[2];
	memcpy(y, t, sizeof(t));
}

/* Body i's motion transform X_i (body <- parent) is kept as its rotation
 * Q = k->Q[i] (parent <- body) and origin r = k->r[i] (parent frame):
 * X_i = [[Q^T, 0], [-Q^T S(r), Q^T]], applied below in closed form (24
 * products where the 6 x 6 matrix takes 36). */

/* y = X_i x: a motion vector (parent frame) in body i's frame,
 * [Q^T w; Q^T (v - r x w)]. */
static void
motion_in(const tagk_mb_kin *k, int i, const tagk_real x[6], tagk_real y[6])
{
	tagk_real t[3], w[3];
	cross3(k->r[i], x, t);
	for (int j = 0; j < 3; j++)
		t[j] = x[3 + j] - t[j];
	mat3_tvec(k->Q[i], x, w);
	mat3_tvec(k->Q[i], t, y + 3);
	memcpy(y, w, sizeof(w));
}

/* y = X_i^T f: a force [n; f] (body i's frame) in its parent's frame,
 * [Q n + r x (Q f); Q f]; y may be f. */
static void
force_out(const tagk_mb_kin *k, int i, const tagk_real f[6], tagk_real y[6])
{
	tagk_real n[3], fl[3], c[3];
	mat3_vec(k->Q[i], f, n);
	mat3_vec(k->Q[i], f + 3, fl);
	cross3(k->r[i], fl, c);
	for (int j = 0; j < 3; j++) {
		y[j] = n[j] + c[j];
		y[3 + j] = fl[j];
	}
}

/* X_i as a 6 x 6 matrix, for the mass matrix's congruences. */
static void
make_X(const tagk_mb_kin *k, int i, tagk_real X[36])
{
	memset(X, 0, 36 * sizeof(*X));
	for (int a = 0; a < 3; a++) {
		/* row a of Q^T is Q's column a; row a of -Q^T S(r) is r x that */
		tagk_real e[3] = { k->Q[i][a], k->Q[i][3 + a], k->Q[i][6 + a] }, low[3];
		cross3(k->r[i], e, low);
		for (int b = 0; b < 3; b++) {
			X[a * 6 + b] = X[(a + 3) * 6 + b + 3] = e[b];
			X[(a + 3) * 6 + b] = low[b];
		}
	}
}

/* y = X x (6) for any 6 x 6 X, e.g. a spatial inertia */
static void
mv6(const tagk_real X[36], const tagk_real x[6], tagk_real y[6])
{
	tagk_real t[6];
	for (int i = 0; i < 6; i++)
		t[i] = tagk_dot(6, X + i * 6, x);
	memcpy(y, t, sizeof(t));
}

/* The spatial inertia [[I_O, S(h)], [S(h)^T, m 1]] of theta (10). */
static void
spatial_inertia(const tagk_real *th, tagk_real I6[36])
{
	tagk_real I[9];
	tagk_theta_inertia(th, I);
	const tagk_real *h = th + TAGK_P_MCX;
	memset(I6, 0, 36 * sizeof(*I6));
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			I6[i * 6 + j] = I[i * 3 + j];
	/* S(h) = [[0, -hz, hy], [hz, 0, -hx], [-hy, hx, 0]] top right */
	tagk_real S[9] = { 0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0 };
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			I6[i * 6 + 3 + j] = S[i * 3 + j];
			I6[(3 + i) * 6 + j] = S[j * 3 + i];
		}
	for (int i = 3; i < 6; i++)
		I6[i * 7] = th[TAGK_P_M];
}

/* y = I x for theta's spatial inertia without forming it:
 * [I_O w + h x v; m v + w x h]. */
static void
inertia_mul(const tagk_real *th, const tagk_real x[6], tagk_real y[6])
{
	const tagk_real *w = x, *v = x + 3, *h = th + TAGK_P_MCX, m = th[TAGK_P_M];
	const tagk_real xx = th[TAGK_P_IXX], xy = th[TAGK_P_IXY], yy = th[TAGK_P_IYY], xz = th[TAGK_P_IXZ],
	    yz = th[TAGK_P_IYZ], zz = th[TAGK_P_IZZ];
	tagk_real hv[3], wh[3];
	cross3(h, v, hv);
	cross3(w, h, wh);
	y[0] = xx * w[0] + xy * w[1] + xz * w[2] + hv[0];
	y[1] = xy * w[0] + yy * w[1] + yz * w[2] + hv[1];
	y[2] = xz * w[0] + yz * w[1] + zz * w[2] + hv[2];
	for (int j = 0; j < 3; j++)
		y[3 + j] = m * v[j] + wh[j];
}

/* Q = rot Rot(u, q). Rot by Rodrigues, R = c 1 + s S(u) + (1 - c) u u^T;
 * for u a coordinate axis (most arms' joints) two of rot's columns turn
 * and the third stays, 12 products instead of 27 plus Rot's. */
static void
joint_rotation(const tagk_real rot[9], const tagk_real u[3], tagk_real q, tagk_real Q[9])
{
	tagk_real s = tagk_sin(q), c = tagk_cos(q);
	for (int ax = 0; ax < 3; ax++) {
		int a = (ax + 1) % 3, b = (ax + 2) % 3;
		if (u[a] != 0 || u[b] != 0 || tagk_fabs(u[ax]) != 1)
			continue;
		/* Rot's column a is c e_a + s e_b, its column b -s e_a + c e_b */
		tagk_real sg = u[ax] * s;
		memcpy(Q, rot, 9 * sizeof(*Q));
		for (int r = 0; r < 3; r++) {
			tagk_real ca = rot[r * 3 + a], cb = rot[r * 3 + b];
			Q[r * 3 + a] = c * ca + sg * cb;
			Q[r * 3 + b] = c * cb - sg * ca;
		}
		return;
	}
	tagk_real C = 1 - c, R[9] = {
		c + C * u[0] * u[0], C * u[0] * u[1] - s * u[2], C * u[0] * u[2] + s * u[1],
		C * u[0] * u[1] + s * u[2], c + C * u[1] * u[1], C * u[1] * u[2] - s * u[0],
		C * u[0] * u[2] - s * u[1], C * u[1] * u[2] + s * u[0], c + C * u[2] * u[2] };
	mat3_mul(rot, R, Q);
}

/* Body i's transform, pose, axis, velocity and acceleration from its
 * parent's (i >= 1): v_i = X_i v_p + S qd, a_i = X_i a_p + v_i x S qd +
 * S qdd, the cross product written out for S's one nonzero half. */
static void
joint_step(const tagk_mb_model *m, int i, tagk_real q, tagk_real qd, tagk_real qdd, tagk_mb_kin *k)
{
	const int par = m->parent[i], rev = m->joint[i] == TAGK_JOINT_REVOLUTE;
	const tagk_real *u = m->axis[i];
	tagk_real t[3];
	memcpy(k->r[i], m->pos[i], sizeof(k->r[i]));
	if (rev)
		joint_rotation(m->rot[i], u, q, k->Q[i]);
	else {
		memcpy(k->Q[i], m->rot[i], sizeof(k->Q[i]));
		mat3_vec(m->rot[i], u, t);
		for (int j = 0; j < 3; j++)
			k->r[i][j] += t[j] * q;
	}
	mat3_mul(k->R[par], k->Q[i], k->R[i]);
	mat3_vec(k->R[par], k->r[i], t);
	for (int j = 0; j < 3; j++)
		k->p[i][j] = k->p[par][j] + t[j];
	memset(k->S[i], 0, sizeof(k->S[i]));
	memcpy(k->S[i] + (rev ? 0 : 3), u, 3 * sizeof(tagk_real));
	tagk_real *v = k->v[i], *a = k->a[i], cw[3], cv[3];
	motion_in(k, i, k->v[par], v);
	motion_in(k, i, k->a[par], a);
	/* revolute: v x [u qd; 0] = [w x u; v x u] qd; prismatic: v x [0; u qd] = [0; w x u] qd */
	if (rev)
		for (int j = 0; j < 3; j++)
			v[j] += u[j] * qd;
	else
		for (int j = 0; j < 3; j++)
			v[3 + j] += u[j] * qd;
	cross3(v, u, cw);
	cross3(v + 3, u, cv);
	tagk_real *ang = rev ? a : a + 3;
	for (int j = 0; j < 3; j++) {
		ang[j] += u[j] * qdd;
		a[j] += rev ? cw[j] * qd : 0;
		a[3 + j] += (rev ? cv[j] : cw[j]) * qd;
	}
}

tagk_status
tagk_mb_kinematics(const tagk_mb_model *m, const tagk_real base_R[9], const tagk_real base_p[3],
    const tagk_real *q, const tagk_real *qd, const tagk_real *qdd, tagk_mb_kin *k)
{
	int nv = tagk_mb_dof(m);
	if (!k || !m || (nv == 0 && m->nb != 1))
		return TAGK_EINVAL;
	if ((nv > 0 && !qd) || (m->nb > 1 && !q) || (m->floating && (!base_R || !base_p)))
		return TAGK_EINVAL;
	if ((m->nb > 1 && !tagk_all_finite(m->nb - 1, q)) || (nv && !tagk_all_finite(nv, qd))
	    || (qdd && nv && !tagk_all_finite(nv, qdd))
	    || (m->floating && (!tagk_all_finite(9, base_R) || !tagk_all_finite(3, base_p))))
		return TAGK_ENONFINITE;
	k->nb = m->nb;
	k->nv = nv;
	/* the base */
	const tagk_real *R0 = m->floating ? base_R : m->rot[0], *p0 = m->floating ? base_p : m->pos[0];
	memcpy(k->R[0], R0, sizeof(k->R[0]));
	memcpy(k->p[0], p0, sizeof(k->p[0]));
	memcpy(k->Q[0], R0, sizeof(k->Q[0]));
	memcpy(k->r[0], p0, sizeof(k->r[0]));
	memset(k->S[0], 0, sizeof(k->S[0]));
	memset(k->v[0], 0, sizeof(k->v[0]));
	memset(k->a[0], 0, sizeof(k->a[0]));
	if (m->floating) {
		memcpy(k->v[0], qd, 6 * sizeof(*qd));
		if (qdd)
			memcpy(k->a[0], qdd, 6 * sizeof(*qdd));
	}
	/* gravity as an upward acceleration of the base (Featherstone) */
	tagk_real g[3];
	mat3_tvec(R0, m->gravity, g);
	for (int i = 0; i < 3; i++)
		k->a[0][3 + i] -= g[i];
	for (int i = 1; i < m->nb; i++) {
		int d = dof_of(m, i);
		joint_step(m, i, q[i - 1], qd[d], qdd ? qdd[d] : 0, k);
	}
	return TAGK_OK;
}

/* What one regressor row needs of body i: omega, alpha and the origin's
 * specific force ac = a_lin + omega x v_lin (gravity is in a already). */
typedef struct {
	tagk_real w[3], al[3], ac[3], ww;
} body_terms;

static void
terms_of(const tagk_mb_kin *k, int i, body_terms *t)
{
	const tagk_real *v = k->v[i], *a = k->a[i];
	cross3(v, v + 3, t->ac);
	for (int j = 0; j < 3; j++) {
		t->w[j] = v[j];
		t->al[j] = a[j];
		t->ac[j] += a[3 + j];
	}
	t->ww = dot3(t->w, t->w);
}

/* The ten entries y of a row s^T F for body i's parameters, F theta_i =
 * [n; f] its net force (its frame), s a motion axis in its frame: with
 * f = m ac + al x h + w x (w x h) and n = I al + w x I w + h x ac, the
 * mass's entry is sv . ac, h's sv x al + (sv . w) w - |w|^2 sv + ac x sw,
 * and I's those of sw^T I al + (sw x w)^T I w (sw, sv: s's halves). */
static void
row_entries(const body_terms *t, const tagk_real s[6], tagk_real y[TAGK_NPARAM])
{
	const tagk_real *sw = s, *sv = s + 3, *w = t->w, *al = t->al;
	tagk_real c1[3], c2[3], u[3], svw = dot3(sv, w);
	y[TAGK_P_M] = dot3(sv, t->ac);
	cross3(sv, al, c1);
	cross3(t->ac, sw, c2);
	for (int j = 0; j < 3; j++)
		y[TAGK_P_MCX + j] = c1[j] + c2[j] + svw * w[j] - t->ww * sv[j];
	cross3(sw, w, u);
	y[TAGK_P_IXX] = sw[0] * al[0] + u[0] * w[0];
	y[TAGK_P_IXY] = sw[0] * al[1] + sw[1] * al[0] + u[0] * w[1] + u[1] * w[0];
	y[TAGK_P_IYY] = sw[1] * al[1] + u[1] * w[1];
	y[TAGK_P_IXZ] = sw[0] * al[2] + sw[2] * al[0] + u[0] * w[2] + u[2] * w[0];
	y[TAGK_P_IYZ] = sw[1] * al[2] + sw[2] * al[1] + u[1] * w[2] + u[2] * w[1];
	y[TAGK_P_IZZ] = sw[2] * al[2] + u[2] * w[2];
}

/* A motion axis in body i's frame, s = X_{i <- world} [U; at x U] for a
 * rotation about the world line U through at (rot), else [0; U]: from the
 * world poses, so that no transform is composed along the path. */
static void
world_axis_in(const tagk_mb_kin *k, int i, const tagk_real U[3], int rot, const tagk_real at[3], tagk_real s[6])
{
	if (!rot) {
		s[0] = s[1] = s[2] = 0;
		mat3_tvec(k->R[i], U, s + 3);
		return;
	}
	/* the velocity of i's origin: U x (p_i - at) */
	tagk_real d[3], c[3];
	for (int j = 0; j < 3; j++)
		d[j] = k->p[i][j] - at[j];
	cross3(U, d, c);
	mat3_tvec(k->R[i], U, s);
	mat3_tvec(k->R[i], c, s + 3);
}

/* Column d of body i's Jacobian (i in the subtree of the coordinate's
 * joint): joint j's axis (d = its dof) or a floating base's coordinate
 * d < 6 (angular about the base origin, then linear, base frame). */
static void
jacobian_column(const tagk_mb_kin *k, const tagk_mb_model *m, int i, int j, int d, tagk_real s[6])
{
	tagk_real U[3];
	if (j == i) { /* its own joint's axis, or the base's coordinate d */
		if (i >= 1)
			memcpy(s, k->S[i], 6 * sizeof(*s));
		else
			for (int r = 0; r < 6; r++)
				s[r] = r == d;
		return;
	}
	if (j >= 1) {
		int rev = m->joint[j] == TAGK_JOINT_REVOLUTE;
		mat3_vec(k->R[j], k->S[j] + (rev ? 0 : 3), U);
		world_axis_in(k, i, U, rev, k->p[j], s);
		return;
	}
	for (int r = 0; r < 3; r++)
		U[r] = k->R[0][r * 3 + d % 3];
	world_axis_in(k, i, U, d < 3, k->p[0], s);
}

/* Body i's ten columns of Y (rows cols long, from column c0): one row per
 * joint on its path, and a floating base's six; other rows untouched. */
static void
body_columns(const tagk_mb_kin *k, const tagk_mb_model *m, int i, tagk_real *Y, int cols, int c0)
{
	body_terms t;
	tagk_real s[6];
	terms_of(k, i, &t);
	for (int j = i; j >= 1; j = m->parent[j]) {
		int d = dof_of(m, j);
		jacobian_column(k, m, i, j, d, s);
		row_entries(&t, s, Y + (size_t)d * (size_t)cols + c0);
	}
	if (m->floating)
		for (int d = 0; d < 6; d++) {
			jacobian_column(k, m, i, 0, d, s);
			row_entries(&t, s, Y + (size_t)d * (size_t)cols + c0);
		}
}

/* Why rows and not forces carried down the path (X^T F for F's ten
 * columns at each joint): Y's entry for joint j and body i's theta is
 * s^T F_i theta_i with s = X_{i <- j} S_j, body i's Jacobian column, which
 * the world poses give in 24 products; the ten entries are then closed
 * forms in s. */
void
tagk_mb_regressor(const tagk_mb_kin *k, const tagk_mb_model *m, tagk_real *Y)
{
	const int nv = k->nv, cols = TAGK_NPARAM * k->nb;
	memset(Y, 0, sizeof(*Y) * (size_t)nv * (size_t)cols);
	for (int i = 0; i < k->nb; i++)
		body_columns(k, m, i, Y, cols, TAGK_NPARAM * i);
}

void
tagk_mb_inverse_dynamics(const tagk_mb_kin *k, const tagk_mb_model *m, const tagk_real *theta, tagk_real *tau)
{
	tagk_real f[TAGK_MB_MAX_BODIES][6];
	for (int i = 0; i < k->nb; i++) {
		/* I a + v x* I v, v x* f = [w x n + v x f; w x f] */
		const tagk_real *v = k->v[i];
		tagk_real Iv[6], c1[3], c2[3], c3[3];
		inertia_mul(theta + TAGK_NPARAM * i, k->a[i], f[i]);
		inertia_mul(theta + TAGK_NPARAM * i, v, Iv);
		cross3(v, Iv, c1);
		cross3(v + 3, Iv + 3, c2);
		cross3(v, Iv + 3, c3);
		for (int j = 0; j < 3; j++) {
			f[i][j] += c1[j] + c2[j];
			f[i][3 + j] += c3[j];
		}
	}
	for (int i = k->nb - 1; i >= 1; i--) {
		tau[dof_of(m, i)] = tagk_dot(6, k->S[i], f[i]);
		tagk_real fp[6];
		force_out(k, i, f[i], fp);
		for (int j = 0; j < 6; j++)
			f[m->parent[i]][j] += fp[j];
	}
	if (m->floating)
		memcpy(tau, f[0], 6 * sizeof(*tau));
}

void
tagk_mb_mass_matrix(const tagk_mb_kin *k, const tagk_mb_model *m, const tagk_real *theta, tagk_real *M)
{
	const int nv = k->nv;
	tagk_real Ic[TAGK_MB_MAX_BODIES][36];
	for (int i = 0; i < k->nb; i++)
		spatial_inertia(theta + TAGK_NPARAM * i, Ic[i]);
	for (int i = k->nb - 1; i >= 1; i--) {
		/* Ic_parent += X^T Ic X */
		tagk_real X[36], T[36], U[36];
		make_X(k, i, X);
		tagk_matmul(6, 6, 6, Ic[i], X, T);
		for (int a = 0; a < 6; a++)
			for (int b = 0; b < 6; b++) {
				tagk_real s = 0;
				for (int c = 0; c < 6; c++)
					s += X[c * 6 + a] * T[c * 6 + b];
				U[a * 6 + b] = s;
			}
		for (int a = 0; a < 36; a++)
			Ic[m->parent[i]][a] += U[a];
	}
	memset(M, 0, sizeof(*M) * (size_t)nv * (size_t)nv);
	if (m->floating)
		for (int a = 0; a < 6; a++)
			for (int b = 0; b < 6; b++)
				M[a * nv + b] = Ic[0][a * 6 + b];
	for (int i = 1; i < k->nb; i++) {
		int di = dof_of(m, i);
		tagk_real F[6];
		mv6(Ic[i], k->S[i], F);
		M[di * nv + di] = tagk_dot(6, k->S[i], F);
		for (int j = i; j != 0;) {
			force_out(k, j, F, F);
			j = m->parent[j];
			if (j >= 1) {
				int dj = dof_of(m, j);
				M[di * nv + dj] = M[dj * nv + di] = tagk_dot(6, k->S[j], F);
			} else if (m->floating) {
				for (int a = 0; a < 6; a++)
					M[di * nv + a] = M[a * nv + di] = F[a];
			}
		}
	}
}

void
tagk_mb_jacobian(const tagk_mb_kin *k, const tagk_mb_model *m, int body, tagk_real *J)
{
	const int nv = k->nv;
	memset(J, 0, sizeof(*J) * 6 * (size_t)nv);
	tagk_real s[6];
	for (int j = body; j >= 1; j = m->parent[j]) {
		int d = dof_of(m, j);
		jacobian_column(k, m, body, j, d, s);
		for (int r = 0; r < 6; r++)
			J[r * nv + d] = s[r];
	}
	if (m->floating)
		for (int d = 0; d < 6; d++) {
			jacobian_column(k, m, body, 0, d, s);
			for (int r = 0; r < 6; r++)
				J[r * nv + d] = s[r];
		}
}
/* The spatial acceleration's linear part is the acceleration of the body
 * point passing through the origin; the origin's own (classical) one adds
 * omega x v. Gravity is already in a (the base's fictitious upward
 * acceleration), so the sum is the specific force. */
void
tagk_mb_body_sensor(const tagk_mb_kin *k, int body, tagk_real a[3], tagk_real omega[3], tagk_real alpha[3])
{
	const tagk_real *v = k->v[body], *sa = k->a[body];
	for (int i = 0; i < 3; i++) {
		omega[i] = v[i];
		alpha[i] = sa[i];
	}
	a[0] = sa[3] + v[1] * v[5] - v[2] * v[4];
	a[1] = sa[4] + v[2] * v[3] - v[0] * v[5];
	a[2] = sa[5] + v[0] * v[4] - v[1] * v[3];
}

/* f (6, body i's frame, [n; f]) to the world frame about the world origin. */
static void
force_to_world(const tagk_mb_kin *k, int i, const tagk_real f[6], tagk_real out[6])
{
	tagk_real n[3], fl[3], c[3];
	mat3_vec(k->R[i], f, n);
	mat3_vec(k->R[i], f + 3, fl);
	cross3(k->p[i], fl, c);
	for (int j = 0; j < 3; j++) {
		out[j] = n[j] + c[j];
		out[3 + j] = fl[j];
	}
}

void
tagk_mb_momentum_regressor(const tagk_mb_kin *k, tagk_real *Yh)
{
	const int cols = TAGK_NPARAM * k->nb;
	for (int i = 0; i < k->nb; i++) {
		/* body momentum [L; p] = [I_O w + h x v; m v + w x h]: the rigid
		 * regressor's [tau; f] with a = v, omega = 0, alpha = w */
		tagk_real zero[3] = { 0 }, Yr[60];
		tagk_regressor_rigid(k->v[i] + 3, zero, k->v[i], Yr);
		for (int c = 0; c < TAGK_NPARAM; c++) {
			tagk_real col[6], w[6];
			for (int r = 0; r < 3; r++) {
				col[r] = Yr[(3 + r) * TAGK_NPARAM + c];
				col[3 + r] = Yr[r * TAGK_NPARAM + c];
			}
			force_to_world(k, i, col, w);
			for (int r = 0; r < 6; r++)
				Yh[(size_t)r * (size_t)cols + TAGK_NPARAM * i + c] = w[r];
		}
	}
}

void
tagk_mb_momentum(const tagk_mb_kin *k, const tagk_real *theta, tagk_real h[6])
{
	memset(h, 0, 6 * sizeof(*h));
	for (int i = 0; i < k->nb; i++) {
		tagk_real I6[36], hi[6], w[6];
		spatial_inertia(theta + TAGK_NPARAM * i, I6);
		mv6(I6, k->v[i], hi);
		force_to_world(k, i, hi, w);
		for (int j = 0; j < 6; j++)
			h[j] += w[j];
	}
}

tagk_real
tagk_mb_kinetic_energy(const tagk_mb_kin *k, const tagk_real *theta)
{
	tagk_real T = 0;
	for (int i = 0; i < k->nb; i++) {
		tagk_real I6[36], Iv[6];
		spatial_inertia(theta + TAGK_NPARAM * i, I6);
		mv6(I6, k->v[i], Iv);
		T += tagk_dot(6, k->v[i], Iv) / 2;
	}
	return T;
}

void
tagk_mb_unknown_rows(int rows, int nb, const tagk_real *Y, const tagk_real *y, int u,
    const tagk_real *theta_known, tagk_real *A, tagk_real *b)
{
	const int cols = TAGK_NPARAM * nb;
	for (int r = 0; r < rows; r++) {
		const tagk_real *row = Y + (size_t)r * (size_t)cols;
		b[r] = (y ? y[r] : 0) - tagk_dot(cols, row, theta_known);
		memcpy(A + (size_t)r * TAGK_NPARAM, row + TAGK_NPARAM * u, TAGK_NPARAM * sizeof(*A));
	}
}

/* Why not tagk_mb_regressor and tagk_mb_unknown_rows: they build all 10 nb
 * columns (O(nb depth)) to keep ten; body u's columns and the known bodies'
 * torques by recursive Newton-Euler are O(depth + nb). Y theta_known and
 * RNEA agree to rounding (tests/test_multibody.c, and KDL in make
 * bench-kdl). Y is no longer used; it stays in the signature for its
 * callers. */
void
tagk_mb_force_rows(const tagk_mb_kin *k, const tagk_mb_model *m, const tagk_real *tau,
    const tagk_real *theta_known, int u, tagk_real *Y, tagk_real *A, tagk_real *b)
{
	(void)Y;
	memset(A, 0, sizeof(*A) * (size_t)k->nv * TAGK_NPARAM);
	body_columns(k, m, u, A, TAGK_NPARAM, 0);
	tagk_mb_inverse_dynamics(k, m, theta_known, b);
	for (int r = 0; r < k->nv; r++)
		b[r] = (tau ? tau[r] : 0) - b[r];
}
void
tagk_mb_momentum_rows(const tagk_mb_kin *k, const tagk_real *Yh0, const tagk_real *theta_known, int u,
    tagk_real *Yh, tagk_real *A, tagk_real *b)
{
	const int cols = TAGK_NPARAM * k->nb;
	tagk_mb_momentum_regressor(k, Yh);
	tagk_real D[6 * TAGK_NPARAM * TAGK_MB_MAX_BODIES];
	for (int i = 0; i < 6 * cols; i++)
		D[i] = Yh[i] - (Yh0 ? Yh0[i] : 0);
	tagk_mb_unknown_rows(6, k->nb, D, NULL, u, theta_known, A, b);
}
