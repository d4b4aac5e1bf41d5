/*
 * quad.h: a quadrotor as a rigid body with a possibly offset centre of
 * mass, four rotors, and an LQR about hover; the closed-loop simulator of
 * the TAG-K paper's experiments is built from these (see trial.h).
 *
 * State: position p and velocity v of the body origin O (world frame, z up),
 * attitude q (unit quaternion w, x, y, z, body to world), body angular
 * velocity w. The rotors push along body z at (+-d, +-d, 0) in an X, with
 * reaction torques +-kappa T about body z. Dynamics about O, with the ten
 * parameters theta (inertia.h):
 *   [ m I      -S(mc) ] [ a     ]   [ f   - w x (w x mc) ]
 *   [ S(mc)    I_O    ] [ alpha ] = [ tau - w x (I_O w)  ]
 * (a the specific force at O, body frame), v' = R a + g, q' = q (0, w) / 2.
 */
#ifndef TAGK_QUAD_H
#define TAGK_QUAD_H

#include "../../lib/inertia.h"
#include "../../lib/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	tagk_real p[3], v[3], q[4], w[3];
} tagk_quad_state;

typedef struct {
	tagk_real d;      /* rotor offset along body x and y, m */
	tagk_real kappa;  /* reaction torque per newton of thrust, m */
	tagk_real umax;   /* thrust limit per rotor, N */
	tagk_real dt;     /* control period, s */
	int authors_dynamics; /* 1: the authors' approximate model (quad.c, authors_accel) */
} tagk_quad_config;

/* Crazyflie 2.1: d = 0.046 / sqrt(2), kappa = 0.006, umax = 0.25 N, 50 Hz. */
void tagk_quad_defaults(tagk_quad_config *c);
/* Body force and torque about O of rotor thrusts u[4]. */
void tagk_quad_wrench(const tagk_quad_config *c, const tagk_real u[4], tagk_real f[3], tagk_real tau[3]);
/* Specific force and angular acceleration (body) for a wrench; TAGK_ENOTPD
 * when theta's spatial inertia is not positive definite. */
tagk_status tagk_quad_accel(const tagk_real theta[TAGK_NPARAM], const tagk_real f[3],
    const tagk_real tau[3], const tagk_real w[3], tagk_real a[3], tagk_real alpha[3]);
/* One RK4 step of c->dt with thrusts u held; u is clipped to [0, umax]. */
tagk_status tagk_quad_step(const tagk_quad_config *c, const tagk_real theta[TAGK_NPARAM],
    tagk_quad_state *x, const tagk_real u[4]);
/* Rotor thrusts that hover level for theta (zero yaw torque). */
void tagk_quad_hover(const tagk_quad_config *c, const tagk_real theta[TAGK_NPARAM], tagk_real u[4]);

/* LQR about level hover, error state [dp dv dphi dw] (12), input du (4). */
typedef struct {
	tagk_real K[4 * 12];   /* du = -K e */
	tagk_real P[12 * 12];  /* Riccati solution, kept to warm-start the next solve */
	tagk_real u0[4];       /* hover thrusts for the model */
	int have_p;
} tagk_lqr;

/* Linearize one step about hover for theta and solve the discrete Riccati
 * equation by iteration (from the previous P when there is one). Q and R
 * are diagonal (12 and 4 entries). Returns TAGK_EDIVERGED if it does not
 * converge; K is then unchanged. */
tagk_status tagk_lqr_design(tagk_lqr *l, const tagk_quad_config *c, const tagk_real theta[TAGK_NPARAM],
    const tagk_real Q[12], const tagk_real R[4]);
/* Thrusts for state x tracking reference position pr and velocity vr. */
void tagk_lqr_control(const tagk_lqr *l, const tagk_quad_config *c, const tagk_quad_state *x,
    const tagk_real pr[3], const tagk_real vr[3], tagk_real u[4]);

#ifdef __cplusplus
}
#endif

#endif
