/* multibody.c: kinematics, regressors, inverse dynamics, mass matrix,
 * Jacobians and momentum of a kinematic tree; see multibody.h. Spatial
 * transforms are explicit 6 x 6 matrices: the trees are small (16 bodies)
 * and plain products are easy to check. */
#include <string.h>
#include "multibody.h"
#include "regressor.h"
#include "linalg.h"
#include "so3.h"

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

/* X = [[E, 0], [-E S(r), E]]: motion vectors from a frame to one rotated by
 * E (new <- old) whose origin is at r (old coordinates). */
static void
make_X(const tagk_real E[9], const tagk_real r[3], tagk_real X[36])
{
	memset(X, 0, 36 * sizeof(*X));
	for (int i = 0; i < 3; i++) {
		const tagk_real *e = E + 3 * i;
		/* row i of -E S(r) is -(e_i^T S(r)) = (r x e_i)^T, e_i E's row i */
		tagk_real low[3];
		tagk_cross(r, e, low);
		for (int j = 0; j < 3; j++) {
			X[i * 6 + j] = X[(i + 3) * 6 + j + 3] = e[j];
			X[(i + 3) * 6 + j] = low[j];
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

/* y = X x and y = X^T x for a motion transform X (make_X's, or a product
 * of them): its top-right 3 x 3 block is zero, which these skip (27
 * products instead of 36; the arm path's hottest loops). */
static void
xmv(const tagk_real X[36], const tagk_real x[6], tagk_real y[6])
{
	tagk_real t[6];
	for (int i = 0; i < 3; i++)
		t[i] = X[i * 6] * x[0] + X[i * 6 + 1] * x[1] + X[i * 6 + 2] * x[2];
	for (int i = 3; i < 6; i++)
		t[i] = tagk_dot(6, X + i * 6, x);
	memcpy(y, t, sizeof(t));
}

static void
mtv6(const tagk_real X[36], const tagk_real x[6], tagk_real y[6])
{
	tagk_real t[6];
	for (int i = 0; i < 3; i++) {
		tagk_real s = 0;
		for (int k = 0; k < 6; k++)
			s += X[k * 6 + i] * x[k];
		t[i] = s;
	}
	for (int i = 3; i < 6; i++)
		t[i] = X[3 * 6 + i] * x[3] + X[4 * 6 + i] * x[4] + X[5 * 6 + i] * x[5];
	memcpy(y, t, sizeof(t));
}

/* motion cross product v x m */
static void
crm(const tagk_real v[6], const tagk_real m[6], tagk_real out[6])
{
	tagk_real a[3], b[3];
	tagk_cross(v, m, a);
	tagk_cross(v, m + 3, b);
	tagk_real c[3];
	tagk_cross(v + 3, m, c);
	out[0] = a[0], out[1] = a[1], out[2] = a[2];
	out[3] = b[0] + c[0], out[4] = b[1] + c[1], out[5] = b[2] + c[2];
}

/* force cross product v x* f */
static void
crf(const tagk_real v[6], const tagk_real f[6], tagk_real out[6])
{
	tagk_real a[3], b[3], c[3];
	tagk_cross(v, f, a);
	tagk_cross(v + 3, f + 3, b);
	tagk_cross(v, f + 3, c);
	out[0] = a[0] + b[0], out[1] = a[1] + b[1], out[2] = a[2] + b[2];
	out[3] = c[0], out[4] = c[1], out[5] = c[2];
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

/* R = I + sin(q) K + (1 - cos(q)) K^2, K = S(axis). */
static void
axis_rotation(const tagk_real u[3], tagk_real q, tagk_real R[9])
{
	tagk_real K[9] = { 0, -u[2], u[1], u[2], 0, -u[0], -u[1], u[0], 0 }, K2[9];
	mat3_mul(K, K, K2);
	tagk_real s = tagk_sin(q), c = 1 - tagk_cos(q);
	for (int i = 0; i < 9; i++)
		R[i] = (tagk_real)(i % 4 == 0) + s * K[i] + c * K2[i];
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
	tagk_real E[9];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			E[i * 3 + j] = R0[j * 3 + i];
	make_X(E, p0, k->X[0]);
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
		int par = m->parent[i], d = dof_of(m, i);
		tagk_real Rrel[9], r[3];
		memcpy(r, m->pos[i], sizeof(r));
		if (m->joint[i] == TAGK_JOINT_REVOLUTE) {
			tagk_real Rq[9];
			axis_rotation(m->axis[i], q[i - 1], Rq);
			mat3_mul(m->rot[i], Rq, Rrel);
		} else {
			tagk_real t[3];
			memcpy(Rrel, m->rot[i], sizeof(Rrel));
			mat3_vec(m->rot[i], m->axis[i], t);
			for (int j = 0; j < 3; j++)
				r[j] += t[j] * q[i - 1];
		}
		for (int a = 0; a < 3; a++)
			for (int b = 0; b < 3; b++)
				E[a * 3 + b] = Rrel[b * 3 + a];
		make_X(E, r, k->X[i]);
		mat3_mul(k->R[par], Rrel, k->R[i]);
		tagk_real t[3];
		mat3_vec(k->R[par], r, t);
		for (int j = 0; j < 3; j++)
			k->p[i][j] = k->p[par][j] + t[j];
		memset(k->S[i], 0, sizeof(k->S[i]));
		memcpy(k->S[i] + (m->joint[i] == TAGK_JOINT_REVOLUTE ? 0 : 3), m->axis[i], 3 * sizeof(tagk_real));
		tagk_real vJ[6], c[6];
		xmv(k->X[i], k->v[par], k->v[i]);
		for (int j = 0; j < 6; j++) {
			vJ[j] = k->S[i][j] * qd[d];
			k->v[i][j] += vJ[j];
		}
		xmv(k->X[i], k->a[par], k->a[i]);
		crm(k->v[i], vJ, c);
		for (int j = 0; j < 6; j++)
			k->a[i][j] += c[j] + (qdd ? k->S[i][j] * qdd[d] : 0);
	}
	return TAGK_OK;
}

/* The 6 x 10 block F with F theta_i = I a + v x* I v (body i's net force,
 * [n; f], its frame), from the rigid-body regressor of regressor.h: its
 * specific force is the classical acceleration of the origin minus
 * gravity's, a_lin + omega x v_lin here. */
static void
body_force_block(const tagk_mb_kin *k, int i, tagk_real F[60])
{
	tagk_real ac[3], Yr[60];
	tagk_cross(k->v[i], k->v[i] + 3, ac);
	for (int j = 0; j < 3; j++)
		ac[j] += k->a[i][3 + j];
	tagk_regressor_rigid(ac, k->v[i], k->a[i], Yr);
	memcpy(F, Yr + 30, 30 * sizeof(*F));
	memcpy(F + 30, Yr, 30 * sizeof(*F));
}

/* Body i's force block F (6 x 10, its frame; consumed) carried down its
 * path to the base, each joint's row adding S^T F: into Y (cols columns a
 * row) at column c0, and for a floating base into its six rows. */
static void
add_path(const tagk_mb_kin *k, const tagk_mb_model *m, int i, tagk_real F[60], tagk_real *Y, int cols, int c0)
{
	for (int j = i; j >= 0; j = m->parent[j]) {
		if (j >= 1) {
			tagk_real *row = Y + (size_t)dof_of(m, j) * (size_t)cols + c0;
			for (int c = 0; c < TAGK_NPARAM; c++)
				for (int r = 0; r < 6; r++)
					row[c] += k->S[j][r] * F[r * TAGK_NPARAM + c];
		} else if (m->floating) {
			for (int r = 0; r < 6; r++)
				for (int c = 0; c < TAGK_NPARAM; c++)
					Y[(size_t)r * (size_t)cols + c0 + c] += F[r * TAGK_NPARAM + c];
		}
		if (j == 0)
			break;
		/* to the parent's frame: F <- X_j^T F, column by column */
		for (int c = 0; c < TAGK_NPARAM; c++) {
			tagk_real col[6];
			for (int r = 0; r < 6; r++)
				col[r] = F[r * TAGK_NPARAM + c];
			mtv6(k->X[j], col, col);
			for (int r = 0; r < 6; r++)
				F[r * TAGK_NPARAM + c] = col[r];
		}
	}
}

void
tagk_mb_regressor(const tagk_mb_kin *k, const tagk_mb_model *m, tagk_real *Y)
{
	const int nv = k->nv, cols = TAGK_NPARAM * k->nb;
	memset(Y, 0, sizeof(*Y) * (size_t)nv * (size_t)cols);
	for (int i = 0; i < k->nb; i++) {
		tagk_real F[60];
		body_force_block(k, i, F);
		add_path(k, m, i, F, Y, cols, TAGK_NPARAM * i);
	}
}

void
tagk_mb_inverse_dynamics(const tagk_mb_kin *k, const tagk_mb_model *m, const tagk_real *theta, tagk_real *tau)
{
	tagk_real f[TAGK_MB_MAX_BODIES][6];
	for (int i = 0; i < k->nb; i++) {
		tagk_real I6[36], Iv[6], Ia[6], c[6];
		spatial_inertia(theta + TAGK_NPARAM * i, I6);
		mv6(I6, k->v[i], Iv);
		mv6(I6, k->a[i], Ia);
		crf(k->v[i], Iv, c);
		for (int j = 0; j < 6; j++)
			f[i][j] = Ia[j] + c[j];
	}
	for (int i = k->nb - 1; i >= 1; i--) {
		tau[dof_of(m, i)] = tagk_dot(6, k->S[i], f[i]);
		tagk_real fp[6];
		mtv6(k->X[i], f[i], fp);
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
		tagk_real T[36], U[36];
		tagk_matmul(6, 6, 6, Ic[i], k->X[i], T);
		for (int a = 0; a < 6; a++)
			for (int b = 0; b < 6; b++) {
				tagk_real s = 0;
				for (int c = 0; c < 6; c++)
					s += k->X[i][c * 6 + a] * T[c * 6 + b];
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
			mtv6(k->X[j], F, F);
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
	tagk_real T[36] = { 0 }, U[36];
	for (int a = 0; a < 6; a++)
		T[a * 7] = 1; /* X body <- j, from j = body */
	for (int j = body; j >= 0; j = m->parent[j]) {
		if (j >= 1) {
			tagk_real c[6];
			xmv(T, k->S[j], c);
			for (int r = 0; r < 6; r++)
				J[r * nv + dof_of(m, j)] = c[r];
			tagk_matmul(6, 6, 6, T, k->X[j], U);
			memcpy(T, U, sizeof(T));
		} else {
			if (m->floating)
				for (int r = 0; r < 6; r++)
					for (int c = 0; c < 6; c++)
						J[r * nv + c] = T[r * 6 + c];
			break;
		}
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
	tagk_cross(k->p[i], fl, c);
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

/* Body u's columns of Y (nv x 10) alone: its force block carried down its
 * path to the base, as tagk_mb_regressor does for every body. */
static void
body_columns(const tagk_mb_kin *k, const tagk_mb_model *m, int u, tagk_real *A)
{
	tagk_real F[60];
	memset(A, 0, sizeof(*A) * (size_t)k->nv * TAGK_NPARAM);
	body_force_block(k, u, F);
	add_path(k, m, u, F, A, TAGK_NPARAM, 0);
}

/* Why not tagk_mb_regressor and tagk_mb_unknown_rows: they build all 10 nb
 * columns (O(nb depth)) to keep ten; body u's columns and the known bodies'
 * torques by recursive Newton-Euler are O(nb). Y theta_known and RNEA agree
 * to rounding (tests/test_multibody.c, and KDL in make bench-kdl). Y is
 * no longer used; it stays in the signature for its callers. */
void
tagk_mb_force_rows(const tagk_mb_kin *k, const tagk_mb_model *m, const tagk_real *tau,
    const tagk_real *theta_known, int u, tagk_real *Y, tagk_real *A, tagk_real *b)
{
	(void)Y;
	body_columns(k, m, u, A);
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
