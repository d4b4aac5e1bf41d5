/*
 * multibody.h: rigid multi-body dynamics of a kinematic tree, linear in the
 * bodies' inertial parameters, without allocation (papers 002, 003 and 004).
 *
 * The tree: bodies 0 .. nb-1, body 0 the base, parent[i] < i. Body i >= 1
 * hangs from its parent by one revolute or prismatic joint; the base is
 * either welded to the world (pose rot[0], pos[0]) or floating with six
 * degrees of freedom. Body i's frame sits on its joint: at q_i = 0 it is
 * rot[i], pos[i] in its parent's frame, and the joint turns it about (or
 * slides it along) axis[i], a unit vector in body i's own frame. Body i's
 * ten parameters theta_i (inertia.h order: m, mc, inertia about the frame's
 * origin) are in that frame, so theta = [theta_0, ..., theta_nb-1] (10 nb).
 *
 * Generalized coordinates: nv = nb - 1 joint velocities, preceded for a
 * floating base by the base's six body-velocity coordinates [omega; v]
 * (angular first, in the base frame, v the velocity of its origin), whose
 * derivative is the base's spatial acceleration in its own frame. The base
 * pose (world <- base rotation and origin) is not a coordinate here: the
 * caller integrates it (R' = R S(omega), p' = R v). Every 6-vector in this
 * module is angular first: motions [omega; v], forces [torque; force]
 * (Featherstone's convention). Gravity is a world vector in m/s^2.
 *
 * Computed from one state (tagk_mb_kinematics, then any of the rest):
 *   tagk_mb_regressor     Y (nv x 10 nb) with Y theta = M(q) qdd + h(q, qd),
 *                         h the Coriolis, centrifugal and gravity forces:
 *                         the generalized forces (joint torques; for a
 *                         floating base first the base wrench [n; f] in the
 *                         base frame, which is 0 for a floating system)
 *   tagk_mb_inverse_dynamics  the same forces by recursive Newton-Euler with
 *                         the bodies' spatial inertias (not the regressor)
 *   tagk_mb_mass_matrix   M(q) by the composite rigid-body algorithm
 *   tagk_mb_jacobian      body i's Jacobian in its own frame: v_i = J_i qd
 *   tagk_mb_momentum_regressor  the whole system's spatial momentum in the
 *                         world frame, about the world origin, [L; p] =
 *                         Y_h theta (6 x 10 nb); it needs no acceleration
 *                         and no force, and with no external force (a floating
 *                         system without gravity) it is constant, so
 *                         (Y_h(t2) - Y_h(t1)) theta = 0 gives rows
 *   tagk_mb_momentum, tagk_mb_kinetic_energy  the same from the inertias
 * Why the world frame: the base-frame momentum the paper writes (eq. 12) is
 * conserved only when it is zero, since the base frame rotates.
 */
#ifndef TAGK_MULTIBODY_H
#define TAGK_MULTIBODY_H

#include "inertia.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest tree, a compile-time constant since the library allocates
 * nothing: 64 bodies on a host (a humanoid's 30-odd links and their
 * fingers), 16 on a bare-metal ARM target, where a kinematics workspace of
 * 64 bodies (about 40 KB) would crowd the stack. -DTAGK_MB_MAX_BODIES=N
 * overrides both. */
#ifndef TAGK_MB_MAX_BODIES
#if defined(__arm__) && !defined(__linux__)
#define TAGK_MB_MAX_BODIES 16
#else
#define TAGK_MB_MAX_BODIES 64
#endif
#endif
#define TAGK_MB_MAX_DOF (TAGK_MB_MAX_BODIES + 5)

typedef enum { TAGK_JOINT_REVOLUTE, TAGK_JOINT_PRISMATIC } tagk_joint_kind;

typedef struct {
	int nb;                                   /* bodies, 1 .. TAGK_MB_MAX_BODIES */
	int floating;                             /* 1: the base floats (6 DoF) */
	int parent[TAGK_MB_MAX_BODIES];           /* parent[0] = -1, parent[i] < i */
	tagk_joint_kind joint[TAGK_MB_MAX_BODIES];
	tagk_real axis[TAGK_MB_MAX_BODIES][3];    /* unit, in body i's frame */
	tagk_real rot[TAGK_MB_MAX_BODIES][9];     /* parent <- body at q = 0, 3 x 3 */
	tagk_real pos[TAGK_MB_MAX_BODIES][3];     /* body origin in parent frame */
	tagk_real gravity[3];                     /* world, m/s^2 */
} tagk_mb_model;

/* One state's kinematics, filled by tagk_mb_kinematics. */
typedef struct {
	int nb, nv;
	tagk_real R[TAGK_MB_MAX_BODIES][9];   /* world <- body */
	tagk_real p[TAGK_MB_MAX_BODIES][3];   /* body origin, world */
	tagk_real Q[TAGK_MB_MAX_BODIES][9];   /* parent <- body rotation at q (3 x 3) */
	tagk_real r[TAGK_MB_MAX_BODIES][3];   /* body origin, parent frame: Q, r are the
	                                         joint's transform (base: world's) */
	tagk_real S[TAGK_MB_MAX_BODIES][6];   /* joint motion axis, body frame */
	tagk_real v[TAGK_MB_MAX_BODIES][6];   /* spatial velocity, body frame */
	tagk_real a[TAGK_MB_MAX_BODIES][6];   /* spatial acceleration minus gravity's */
} tagk_mb_kin;

/* Degrees of freedom nv of model (0 if the model is malformed). */
int tagk_mb_dof(const tagk_mb_model *model);
/* TAGK_OK if model is well formed: nb in range, parents before children,
 * unit axes (to 1e-6), rotations orthonormal (to 1e-6), all finite. */
tagk_status tagk_mb_check(const tagk_mb_model *model);

/* Kinematics of the state: base_R (world <- base, 3 x 3) and base_p for a
 * floating base (ignored for a fixed one: rot[0], pos[0] are used), q
 * (nb - 1 joint positions), qd and qdd (nv each; qdd may be NULL for zero,
 * e.g. for the momentum). TAGK_ENONFINITE for a NaN or Inf input. */
tagk_status tagk_mb_kinematics(const tagk_mb_model *model, const tagk_real base_R[9],
    const tagk_real base_p[3], const tagk_real *q, const tagk_real *qd, const tagk_real *qdd,
    tagk_mb_kin *kin);

/* Y (nv x 10 nb, row-major): Y theta = M qdd + h. */
void tagk_mb_regressor(const tagk_mb_kin *kin, const tagk_mb_model *model, tagk_real *Y);
/* tau (nv) = M qdd + h by recursive Newton-Euler with the inertias theta (10 nb). */
void tagk_mb_inverse_dynamics(const tagk_mb_kin *kin, const tagk_mb_model *model,
    const tagk_real *theta, tagk_real *tau);
/* M (nv x nv, symmetric, both halves) by the composite rigid-body algorithm. */
void tagk_mb_mass_matrix(const tagk_mb_kin *kin, const tagk_mb_model *model,
    const tagk_real *theta, tagk_real *M);
/* J (6 x nv): body i's spatial velocity in its frame is J qd. */
void tagk_mb_jacobian(const tagk_mb_kin *kin, const tagk_mb_model *model, int body, tagk_real *J);
/* What an inertial sensor (or a force/torque sensor's rigid-body rows,
 * regressor.h) at body i's origin sees, in body i's frame: the specific
 * force a (the origin's classical acceleration minus gravity), the angular
 * velocity omega and its derivative alpha. With these, tagk_regressor_rigid
 * (a, omega, alpha) theta_i is the wrench [f; n] the body's parent exerts
 * on it at its origin, so J_i^T [n; f] is body i's share of Y theta. */
void tagk_mb_body_sensor(const tagk_mb_kin *kin, int body, tagk_real a[3], tagk_real omega[3], tagk_real alpha[3]);
/* Y_h (6 x 10 nb): [L; p] = Y_h theta, world frame, about the world origin. */
void tagk_mb_momentum_regressor(const tagk_mb_kin *kin, tagk_real *Yh);
/* [L; p] (6) from the inertias theta. */
void tagk_mb_momentum(const tagk_mb_kin *kin, const tagk_real *theta, tagk_real h[6]);
/* Kinetic energy from the inertias theta. */
tagk_real tagk_mb_kinetic_energy(const tagk_mb_kin *kin, const tagk_real *theta);

/* Rows for one body's parameters (paper 003, eqs. 2 and 6): given Y (rows x
 * 10 nb) and y (rows; the measured forces, or NULL for 0), A = Y's columns
 * of body u (rows x 10) and b = y - Y theta_known. To estimate body u
 * itself, give theta_known with body u's block zero; to estimate an object
 * rigidly attached to body u (a grasped object, in u's frame), give body
 * u's own parameters there. */
void tagk_mb_unknown_rows(int rows, int nb, const tagk_real *Y, const tagk_real *y, int u,
    const tagk_real *theta_known, tagk_real *A, tagk_real *b);
/* Force rows (nv of them) of kin's sample with measured generalized forces
 * tau: tagk_mb_regressor, then tagk_mb_unknown_rows. Y is scratch of
 * nv x 10 nb. */
void tagk_mb_force_rows(const tagk_mb_kin *kin, const tagk_mb_model *model, const tagk_real *tau,
    const tagk_real *theta_known, int u, tagk_real *Y, tagk_real *A, tagk_real *b);
/* Momentum rows (6) of kin's sample: (Y_h - Y_h0) theta = 0 with Y_h0 the
 * momentum regressor of a reference sample (NULL: the momentum is known to
 * be zero), for a system on which no external force acts. Yh is scratch of
 * 6 x 10 nb; on return it holds this sample's Y_h. */
void tagk_mb_momentum_rows(const tagk_mb_kin *kin, const tagk_real *Yh0, const tagk_real *theta_known, int u,
    tagk_real *Yh, tagk_real *A, tagk_real *b);

#ifdef __cplusplus
}
#endif

#endif
