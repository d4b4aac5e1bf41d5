/* grasp.c: paper 003's grasped-cube experiment; see grasp.h. */
#include <string.h>
#include "grasp.h"
#include "../../lib/linalg.h"
#include "../../lib/consistency.h"

#define PI_R ((tagk_real)3.14159265358979323846)

#define R_(x) ((tagk_real)(x))
/* the Panda's home posture (Menagerie's keyframe), amplitudes (rad) and
 * mutually non-harmonic frequencies (Hz) */
static const tagk_real home[7] = { 0, 0, 0, R_(-1.57079), 0, R_(1.57079), R_(-0.7853) };
static const tagk_real amp[7] = { R_(0.5), R_(0.5), R_(0.5), R_(0.5), R_(0.8), R_(0.8), R_(0.8) };
static const tagk_real freq[7] = { R_(0.11), R_(0.17), R_(0.23), R_(0.29), R_(0.37), R_(0.43), R_(0.53) };
/* the task-space motion (eq. 28's structure): amplitudes of the cube's
 * linear (m/s) and angular (rad/s) velocities and their frequencies (Hz);
 * the damping of the least squares and the null-space pull (1/s) */
#define LIN_A R_(0.05)
#define ANG_A R_(0.75)
static const tagk_real lin_f[3] = { R_(0.13), R_(0.19), R_(0.23) };
static const tagk_real ang_f[3] = { R_(0.29), R_(0.37), R_(0.43) };
#define IK_LAMBDA R_(0.01)
#define IK_PULL R_(1)
#define IK_GAIN R_(5)

void
tagk_grasp_defaults(tagk_grasp_config *c)
{
	memset(c, 0, sizeof(*c));
	c->target_mass = 5;
	c->target_side = (tagk_real)0.2;
	c->target_offset = (tagk_real)0.207;
	c->torque_noise = (tagk_real)0.05;
	c->base_mass = 100;
	c->base_inertia = 4;
	c->duration = 20;
	c->dt = (tagk_real)0.001;
	c->seed = 1;
}

/* Joint positions, velocities and accelerations at t. */
static void
joints(int nj, tagk_real t, tagk_real *q, tagk_real *qd, tagk_real *qdd)
{
	for (int j = 0; j < nj; j++) {
		tagk_real w = 2 * PI_R * freq[j], s = tagk_sin(w * t), c = tagk_cos(w * t);
		q[j] = home[j] + amp[j] * s;
		qd[j] = amp[j] * w * c;
		qdd[j] = 0 - amp[j] * w * w * s; /* 0 - x: no -0 in logs */
	}
}

/* The cube's pose in the base frame at posture q (R: base <- cube, whose
 * axes are the end effector's; p: its centre), and the end effector's
 * Jacobian J (6 x nv, its frame) if J is not NULL. */
static tagk_status
cube_pose(const tagk_grasp *g, const tagk_real *q, tagk_real R[9], tagk_real p[3], tagk_real *J)
{
	tagk_real zero[TAGK_MB_MAX_DOF] = { 0 }, I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, o[3] = { 0 };
	tagk_mb_kin kin;
	tagk_status st = tagk_mb_kinematics(&g->model, I3, o, q, zero, NULL, &kin);
	if (st != TAGK_OK)
		return st;
	const tagk_real *R0 = kin.R[0], *Re = kin.R[g->ee], c = g->cfg.target_offset;
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++)
			R[i * 3 + j] = R0[i] * Re[j] + R0[3 + i] * Re[3 + j] + R0[6 + i] * Re[6 + j];
		tagk_real d = 0;
		for (int k = 0; k < 3; k++)
			d += R0[k * 3 + i] * (kin.p[g->ee][k] - kin.p[0][k]);
		p[i] = d;
	}
	for (int i = 0; i < 3; i++)
		p[i] += R[i * 3 + 2] * c;
	if (J)
		tagk_mb_jacobian(&kin, &g->model, g->ee, J);
	return TAGK_OK;
}

/* The cube's wanted velocity [w; v] in the base frame at t from its pose R,
 * p: the sinusoids of eq. 28 (feed-forward) plus a pull of IK_GAIN toward
 * the pose they integrate to from the start (R = Exp(phi(t)) R0, p = p0 +
 * x(t)), which keeps the orientation from drifting, as rotations about
 * changing axes do not integrate back. */
static void
task_velocity(const tagk_grasp *g, tagk_real t, const tagk_real R[9], const tagk_real p[3], tagk_real V[6])
{
	tagk_real phi[3], E[9], Rd[9];
	for (int i = 0; i < 3; i++) {
		tagk_real wa = 2 * PI_R * ang_f[i], wl = 2 * PI_R * lin_f[i];
		phi[i] = ANG_A / wa * tagk_sin(wa * t);
		V[i] = ANG_A * tagk_cos(wa * t);
		V[3 + i] = LIN_A * tagk_cos(wl * t) + IK_GAIN * (g->cube_p0[i] + LIN_A / wl * tagk_sin(wl * t) - p[i]);
	}
	tagk_real th = tagk_sqrt(phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2]);
	tagk_real a = th > 0 ? tagk_sin(th) / th : 1, b = th > 0 ? (1 - tagk_cos(th)) / (th * th) : (tagk_real)0.5;
	tagk_real K[9] = { 0, -phi[2], phi[1], phi[2], 0, -phi[0], -phi[1], phi[0], 0 };
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			E[i * 3 + j] = (tagk_real)(i == j) + a * K[i * 3 + j]
			    + b * (K[i * 3] * K[j] + K[i * 3 + 1] * K[3 + j] + K[i * 3 + 2] * K[6 + j]);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			Rd[i * 3 + j] = E[i * 3] * g->cube_R0[j] + E[i * 3 + 1] * g->cube_R0[3 + j]
			    + E[i * 3 + 2] * g->cube_R0[6 + j];
	/* the orientation error Rd R^T, to first order its rotation vector */
	tagk_real D[9];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			D[i * 3 + j] = Rd[i * 3] * R[j * 3] + Rd[i * 3 + 1] * R[j * 3 + 1] + Rd[i * 3 + 2] * R[j * 3 + 2];
	V[0] += IK_GAIN * (D[7] - D[5]) / 2;
	V[1] += IK_GAIN * (D[2] - D[6]) / 2;
	V[2] += IK_GAIN * (D[3] - D[1]) / 2;
}

/* The joints' velocities (nj) that move the cube as task_velocity says at
 * t from the posture q: qd = J^T (J J^T + lambda^2 I)^-1 (V - J z) + z,
 * J the end effector's body Jacobian relative to the base (its joint
 * columns), V the wanted velocity in the end effector's frame, z the pull
 * toward the home posture. */
static tagk_status
task_rates(const tagk_grasp *g, tagk_real t, const tagk_real *q, tagk_real *qd)
{
	const int nv = g->nv, nj = g->nj, off = nv - nj;
	tagk_real J[6 * TAGK_MB_MAX_DOF], Rbe[9], pc[3], Vb[6], V[6], S[36], z[TAGK_MB_MAX_BODIES];
	tagk_status st = cube_pose(g, q, Rbe, pc, J);
	if (st != TAGK_OK)
		return st;
	task_velocity(g, t, Rbe, pc, Vb);
	/* in the end effector's frame; v of its origin = v of the centre - w x c */
	for (int i = 0; i < 3; i++) {
		V[i] = Rbe[i] * Vb[0] + Rbe[3 + i] * Vb[1] + Rbe[6 + i] * Vb[2];
		V[3 + i] = Rbe[i] * Vb[3] + Rbe[3 + i] * Vb[4] + Rbe[6 + i] * Vb[5];
	}
	const tagk_real c = g->cfg.target_offset;
	V[3] -= V[1] * c; /* w x (0, 0, c) = (w1 c, -w0 c, 0) */
	V[4] += V[0] * c;
	for (int j = 0; j < nj; j++)
		z[j] = IK_PULL * (home[j] - q[j]);
	for (int a = 0; a < 6; a++) {
		for (int j = 0; j < nj; j++)
			V[a] -= J[a * nv + off + j] * z[j];
		for (int b = 0; b < 6; b++) {
			tagk_real x = a == b ? IK_LAMBDA * IK_LAMBDA : 0;
			for (int j = 0; j < nj; j++)
				x += J[a * nv + off + j] * J[b * nv + off + j];
			S[a * 6 + b] = x;
		}
	}
	if (tagk_cholesky(6, S) != TAGK_OK)
		return TAGK_ENOTPD;
	tagk_cholesky_solve(6, 1, S, V);
	for (int j = 0; j < nj; j++) {
		qd[j] = z[j];
		for (int a = 0; a < 6; a++)
			qd[j] += J[a * nv + off + j] * V[a];
	}
	return TAGK_OK;
}

/* The joints' motion at t: q, qd, qdd (nj each; qdd may be NULL). For the
 * task-space motion q is the integrated posture (given) and qdd the
 * derivative of task_rates along the motion, by central differences with
 * Richardson's extrapolation (error ~ h^4, 1e-12 here). */
static tagk_status
arm_motion(const tagk_grasp *g, tagk_real t, tagk_real *q, tagk_real *qd, tagk_real *qdd)
{
	if (g->cfg.motion == TAGK_GRASP_JOINT) {
		tagk_real scratch[TAGK_MB_MAX_BODIES];
		joints(g->nj, t, q, qd, qdd ? qdd : scratch);
		return TAGK_OK;
	}
	tagk_status st = task_rates(g, t, q, qd);
	if (st != TAGK_OK || !qdd)
		return st;
	const int nj = g->nj;
	const tagk_real h = (tagk_real)1e-3;
	tagk_real d[2][TAGK_MB_MAX_BODIES];
	for (int k = 0; k < 2; k++) {
		tagk_real hk = h * (tagk_real)(k + 1), qp[TAGK_MB_MAX_BODIES], qm[TAGK_MB_MAX_BODIES];
		tagk_real fp[TAGK_MB_MAX_BODIES], fm[TAGK_MB_MAX_BODIES];
		for (int j = 0; j < nj; j++) {
			qp[j] = q[j] + hk * qd[j];
			qm[j] = q[j] - hk * qd[j];
		}
		if ((st = task_rates(g, t + hk, qp, fp)) != TAGK_OK || (st = task_rates(g, t - hk, qm, fm)) != TAGK_OK)
			return st;
		for (int j = 0; j < nj; j++)
			d[k][j] = (fp[j] - fm[j]) / (2 * hk);
	}
	for (int j = 0; j < nj; j++)
		qdd[j] = (4 * d[0][j] - d[1][j]) / 3;
	return TAGK_OK;
}

/* theta of body th perturbed by rho (grasp.h): mass, centre of mass and
 * principal moments scaled by 1 + rho u, principal axes turned by rho u pi;
 * redrawn until physical. */
static void
perturb(tagk_rng *g, tagk_real rho, tagk_real th[TAGK_NPARAM])
{
	tagk_real c[3], Ic[9], w[3], V[9], scratch[16];
	if (rho == 0 || !tagk_theta_to_body(th, c, Ic) || tagk_symeig(3, Ic, w, V, scratch) != TAGK_OK)
		return;
	for (int tries = 0; tries < 1000; tries++) {
		tagk_real m = th[TAGK_P_M] * (1 + rho * (2 * tagk_rng_uniform(g) - 1)), c2[3], d[3], axis[3], n2 = 0;
		for (int i = 0; i < 3; i++) {
			c2[i] = c[i] * (1 + rho * (2 * tagk_rng_uniform(g) - 1));
			d[i] = w[i] * (1 + rho * (2 * tagk_rng_uniform(g) - 1));
			axis[i] = tagk_rng_gaussian(g);
			n2 += axis[i] * axis[i];
		}
		tagk_real ang = rho * (2 * tagk_rng_uniform(g) - 1) * PI_R, n = tagk_sqrt(n2);
		tagk_real K[9] = { 0, -axis[2] / n, axis[1] / n, axis[2] / n, 0, -axis[0] / n, -axis[1] / n, axis[0] / n, 0 };
		tagk_real Rr[9], s = tagk_sin(ang), cc = 1 - tagk_cos(ang);
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++) {
				tagk_real k2 = 0;
				for (int k = 0; k < 3; k++)
					k2 += K[i * 3 + k] * K[k * 3 + j];
				Rr[i * 3 + j] = (tagk_real)(i == j) + s * K[i * 3 + j] + cc * k2;
			}
		/* Ic2 = (Rr V) diag(d) (Rr V)^T, V's columns the principal axes */
		tagk_real U[9], Ic2[9];
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				U[i * 3 + j] = Rr[i * 3] * V[j] + Rr[i * 3 + 1] * V[3 + j] + Rr[i * 3 + 2] * V[6 + j];
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				Ic2[i * 3 + j] = U[i * 3] * d[0] * U[j * 3] + U[i * 3 + 1] * d[1] * U[j * 3 + 1]
				    + U[i * 3 + 2] * d[2] * U[j * 3 + 2];
		tagk_real out[TAGK_NPARAM];
		tagk_theta_from_body(m, c2, Ic2, out);
		if (m > 0 && tagk_triangle(out, 0)) {
			memcpy(th, out, sizeof(out));
			return;
		}
	}
}

tagk_status
tagk_grasp_init(tagk_grasp *g, const tagk_grasp_config *cfg, const tagk_mb_model *robot,
    const tagk_real *theta_robot)
{
	if (!g || !cfg || !robot || !theta_robot || tagk_mb_check(robot) != TAGK_OK || robot->nb != 8)
		return TAGK_EINVAL;
	for (int i = 1; i < robot->nb; i++)
		if (robot->parent[i] != i - 1)
			return TAGK_EINVAL;
	if (!(cfg->target_mass > 0) || !(cfg->target_side > 0) || !(cfg->dt > 0) || !(cfg->duration >= cfg->dt)
	    || !(cfg->robot_error >= 0 && cfg->robot_error < 1) || !(cfg->torque_noise >= 0)
	    || !(cfg->qd_noise >= 0) || !(cfg->base_noise >= 0) || (cfg->motion != TAGK_GRASP_TASK && cfg->motion != TAGK_GRASP_JOINT)
	    || (cfg->floating && (!(cfg->base_mass > 0) || !(cfg->base_inertia > 0))))
		return TAGK_EINVAL;
	memset(g, 0, sizeof(*g));
	g->cfg = *cfg;
	g->model = *robot;
	g->model.floating = cfg->floating != 0;
	if (cfg->floating)
		memset(g->model.gravity, 0, sizeof(g->model.gravity));
	g->ee = robot->nb - 1;
	g->nj = robot->nb - 1;
	g->nv = tagk_mb_dof(&g->model);
	memcpy(g->theta_true, theta_robot, sizeof(*theta_robot) * TAGK_NPARAM * (size_t)robot->nb);
	if (cfg->floating) {
		tagk_real sat[TAGK_NPARAM] = { 0 };
		sat[TAGK_P_M] = cfg->base_mass;
		sat[TAGK_P_IXX] = sat[TAGK_P_IYY] = sat[TAGK_P_IZZ] = cfg->base_inertia;
		for (int i = 0; i < TAGK_NPARAM; i++)
			g->theta_true[i] += sat[i];
	}
	tagk_rng_seed(&g->rng, cfg->seed);
	memcpy(g->theta_known, g->theta_true, sizeof(g->theta_known));
	for (int b = 0; b < robot->nb; b++)
		perturb(&g->rng, cfg->robot_error, g->theta_known + TAGK_NPARAM * b);
	tagk_real c[3] = { 0, 0, cfg->target_offset }, s2 = cfg->target_side * cfg->target_side;
	tagk_real Ic[9] = { 0 };
	Ic[0] = Ic[4] = Ic[8] = cfg->target_mass * s2 / 6;
	tagk_theta_from_body(cfg->target_mass, c, Ic, g->target);
	for (int i = 0; i < TAGK_NPARAM; i++)
		g->theta_true[TAGK_NPARAM * g->ee + i] += g->target[i];
	memcpy(g->R, robot->rot[0], sizeof(g->R));
	memcpy(g->p, robot->pos[0], sizeof(g->p));
	memcpy(g->q, home, sizeof(home));
	if (cube_pose(g, g->q, g->cube_R0, g->cube_p0, NULL) != TAGK_OK)
		return TAGK_EINVAL;
	g->steps = (long)(cfg->duration / cfg->dt + (tagk_real)0.5);
	return TAGK_OK;
}

/* A floating base's velocity and acceleration from zero momentum at pose
 * R, p with the joints at q, qdj, qddj (nj; qddj NULL: no nud):
 * M_bb nu = -M_bj qd and, differentiated, M_bb nu' = -(M_bj qdd + h_b). */
static tagk_status
base_motion(const tagk_grasp *g, const tagk_real R[9], const tagk_real p[3], const tagk_real *q,
    const tagk_real *qdj, const tagk_real *qddj, tagk_real nu[6], tagk_real nud[6])
{
	const int nv = g->nv, nj = g->nj;
	tagk_real qd[TAGK_MB_MAX_DOF] = { 0 }, qdd[TAGK_MB_MAX_DOF] = { 0 };
	tagk_real M[TAGK_MB_MAX_DOF * TAGK_MB_MAX_DOF], L[36], tau[TAGK_MB_MAX_DOF];
	memcpy(qd + 6, qdj, (size_t)nj * sizeof(*qd));
	if (qddj)
		memcpy(qdd + 6, qddj, (size_t)nj * sizeof(*qdd));
	tagk_mb_kin kin;
	tagk_status st = tagk_mb_kinematics(&g->model, R, p, q, qd, NULL, &kin);
	if (st != TAGK_OK)
		return st;
	tagk_mb_mass_matrix(&kin, &g->model, g->theta_true, M);
	for (int a = 0; a < 6; a++)
		for (int b = 0; b < 6; b++)
			L[a * 6 + b] = M[a * nv + b];
	if (tagk_cholesky(6, L) != TAGK_OK)
		return TAGK_ENOTPD;
	for (int a = 0; a < 6; a++) {
		tagk_real s = 0;
		for (int j = 0; j < nj; j++)
			s += M[a * nv + 6 + j] * qd[6 + j];
		nu[a] = -s;
	}
	tagk_cholesky_solve(6, 1, L, nu);
	if (qddj) {
		memcpy(qd, nu, 6 * sizeof(*nu));
		st = tagk_mb_kinematics(&g->model, R, p, q, qd, qdd, &kin);
		if (st != TAGK_OK)
			return st;
		tagk_mb_inverse_dynamics(&kin, &g->model, g->theta_true, tau);
		for (int a = 0; a < 6; a++)
			nud[a] = -tau[a];
		tagk_cholesky_solve(6, 1, L, nud);
	}
	return TAGK_OK;
}

/* R' = R S(w), p' = R v for nu = [w; v]. */
static void
pose_rate(const tagk_real R[9], const tagk_real nu[6], tagk_real dR[9], tagk_real dp[3])
{
	const tagk_real *w = nu, *v = nu + 3;
	tagk_real S[9] = { 0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0 };
	for (int a = 0; a < 3; a++) {
		for (int b = 0; b < 3; b++)
			dR[a * 3 + b] = R[a * 3] * S[b] + R[a * 3 + 1] * S[3 + b] + R[a * 3 + 2] * S[6 + b];
		dp[a] = R[a * 3] * v[0] + R[a * 3 + 1] * v[1] + R[a * 3 + 2] * v[2];
	}
}

/* The state (posture, base pose) from t to t + dt: RK4 in steps of 1 ms or
 * finer, the base's rate from zero momentum at each stage. */
static tagk_status
advance(tagk_grasp *g, tagk_real t)
{
	const int nj = g->nj, floating = g->model.floating;
	int sub = (int)(g->cfg.dt / (tagk_real)1e-3 + (tagk_real)0.5);
	sub = sub < 1 ? 1 : sub;
	tagk_real h = g->cfg.dt / (tagk_real)sub;
	tagk_status st;
	for (int k = 0; k < sub; k++) {
		tagk_real R0[9], p0[3], q0[TAGK_MB_MAX_BODIES], kR[4][9], kp[4][3], kq[4][TAGK_MB_MAX_BODIES], nu[6];
		tagk_real R[9], p[3], q[TAGK_MB_MAX_BODIES];
		memcpy(R0, g->R, sizeof(R0));
		memcpy(p0, g->p, sizeof(p0));
		memcpy(q0, g->q, sizeof(q0));
		for (int stg = 0; stg < 4; stg++) {
			tagk_real c = stg == 0 ? 0 : stg == 3 ? 1 : (tagk_real)0.5;
			for (int i = 0; i < 9; i++)
				R[i] = R0[i] + (stg ? c * h * kR[stg - 1][i] : 0);
			for (int i = 0; i < 3; i++)
				p[i] = p0[i] + (stg ? c * h * kp[stg - 1][i] : 0);
			for (int j = 0; j < nj; j++)
				q[j] = q0[j] + (stg ? c * h * kq[stg - 1][j] : 0);
			tagk_real ts = t + ((tagk_real)k + c) * h;
			if ((st = arm_motion(g, ts, q, kq[stg], NULL)) != TAGK_OK)
				return st;
			if (floating) {
				if ((st = base_motion(g, R, p, q, kq[stg], NULL, nu, NULL)) != TAGK_OK)
					return st;
				pose_rate(R, nu, kR[stg], kp[stg]);
			}
		}
		for (int j = 0; j < nj; j++)
			g->q[j] = q0[j] + h * (kq[0][j] + 2 * kq[1][j] + 2 * kq[2][j] + kq[3][j]) / 6;
		if (floating) {
			for (int i = 0; i < 9; i++)
				g->R[i] = R0[i] + h * (kR[0][i] + 2 * kR[1][i] + 2 * kR[2][i] + kR[3][i]) / 6;
			for (int i = 0; i < 3; i++)
				g->p[i] = p0[i] + h * (kp[0][i] + 2 * kp[1][i] + 2 * kp[2][i] + kp[3][i]) / 6;
		}
	}
	return TAGK_OK;
}

tagk_status
tagk_grasp_next(tagk_grasp *g, tagk_grasp_sample *s)
{
	if (g->step > g->steps)
		return TAGK_EZERO;
	const int nv = g->nv, nj = g->nj, off = g->model.floating ? 6 : 0;
	tagk_real t = (tagk_real)g->step * g->cfg.dt;
	memset(s, 0, sizeof(*s));
	s->t = t;
	memcpy(s->q, g->q, (size_t)nj * sizeof(*s->q));
	tagk_status st = arm_motion(g, t, s->q, s->qd + off, s->qdd + off);
	if (st != TAGK_OK || (off && (st = base_motion(g, g->R, g->p, s->q, s->qd + off, s->qdd + off, s->qd, s->qdd))
	    != TAGK_OK))
		return st;
	memcpy(s->R, g->R, sizeof(s->R));
	memcpy(s->p, g->p, sizeof(s->p));
	tagk_mb_kin kin;
	if ((st = tagk_mb_kinematics(&g->model, g->R, g->p, s->q, s->qd, s->qdd, &kin)) != TAGK_OK)
		return st;
	tagk_mb_inverse_dynamics(&kin, &g->model, g->theta_true, s->tau);
	for (int a = 0; a < off; a++)
		s->tau[a] = 0; /* a floating base: no external wrench (the computed one is rounding) */
	for (int j = off; j < nv; j++)
		s->tau[j] *= 1 + g->cfg.torque_noise * tagk_rng_gaussian(&g->rng);
	for (int j = 0; j < nv; j++) {
		tagk_real sd = j < off ? g->cfg.base_noise : g->cfg.qd_noise;
		s->qdm[j] = s->qd[j] + (sd > 0 ? sd * tagk_rng_gaussian(&g->rng) : 0);
	}
	if ((st = advance(g, t)) != TAGK_OK)
		return st;
	g->step++;
	return TAGK_OK;
}
