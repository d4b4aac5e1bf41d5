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
	c->dt = (tagk_real)0.01;
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
	g->steps = (long)(cfg->duration / cfg->dt + (tagk_real)0.5);
	return TAGK_OK;
}

/* A floating base's velocity and acceleration at t, from zero momentum:
 * M_bb nu = -M_bj qd and, differentiated, M_bb nu' = -(M_bj qdd + h_b). */
static tagk_status
base_motion(const tagk_grasp *g, tagk_real t, tagk_real nu[6], tagk_real nud[6])
{
	const int nv = g->nv, nj = g->nj;
	tagk_real q[TAGK_MB_MAX_BODIES], qd[TAGK_MB_MAX_DOF] = { 0 }, qdd[TAGK_MB_MAX_DOF] = { 0 };
	tagk_real M[TAGK_MB_MAX_DOF * TAGK_MB_MAX_DOF], L[36], tau[TAGK_MB_MAX_DOF];
	joints(nj, t, q, qd + 6, qdd + 6);
	tagk_mb_kin kin;
	tagk_status st = tagk_mb_kinematics(&g->model, g->R, g->p, q, qd, NULL, &kin);
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
	if (nud) {
		memcpy(qd, nu, 6 * sizeof(*nu));
		st = tagk_mb_kinematics(&g->model, g->R, g->p, q, qd, qdd, &kin);
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

tagk_status
tagk_grasp_next(tagk_grasp *g, tagk_grasp_sample *s)
{
	if (g->step > g->steps)
		return TAGK_EZERO;
	const int nv = g->nv, nj = g->nj, off = g->model.floating ? 6 : 0;
	tagk_real t = (tagk_real)g->step * g->cfg.dt;
	memset(s, 0, sizeof(*s));
	s->t = t;
	joints(nj, t, s->q, s->qd + off, s->qdd + off);
	tagk_status st;
	if (off && (st = base_motion(g, t, s->qd, s->qdd)) != TAGK_OK)
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
	if (off) {
		/* the base pose to the next sample, RK4 at 1 ms or finer */
		int sub = (int)(g->cfg.dt / (tagk_real)1e-3 + (tagk_real)0.5);
		sub = sub < 1 ? 1 : sub;
		tagk_real h = g->cfg.dt / (tagk_real)sub;
		for (int k = 0; k < sub; k++) {
			tagk_real R0[9], p0[3], kR[4][9], kp[4][3], nu[6];
			memcpy(R0, g->R, sizeof(R0));
			memcpy(p0, g->p, sizeof(p0));
			for (int stg = 0; stg < 4; stg++) {
				tagk_real c = stg == 0 ? 0 : stg == 3 ? 1 : (tagk_real)0.5;
				for (int i = 0; i < 9; i++)
					g->R[i] = R0[i] + (stg ? c * h * kR[stg - 1][i] : 0);
				for (int i = 0; i < 3; i++)
					g->p[i] = p0[i] + (stg ? c * h * kp[stg - 1][i] : 0);
				if ((st = base_motion(g, t + ((tagk_real)k + c) * h, nu, NULL)) != TAGK_OK) {
					memcpy(g->R, R0, sizeof(R0));
					memcpy(g->p, p0, sizeof(p0));
					return st;
				}
				pose_rate(g->R, nu, kR[stg], kp[stg]);
			}
			for (int i = 0; i < 9; i++)
				g->R[i] = R0[i] + h * (kR[0][i] + 2 * kR[1][i] + 2 * kR[2][i] + kR[3][i]) / 6;
			for (int i = 0; i < 3; i++)
				g->p[i] = p0[i] + h * (kp[0][i] + 2 * kp[1][i] + 2 * kp[2][i] + kp[3][i]) / 6;
		}
	}
	g->step++;
	return TAGK_OK;
}
