/*
 * so3.h: unit quaternions and rotation vectors, shared by the quadrotor of
 * quad.c, the mass estimators and their simulator (paper 001, eqs. 24-25).
 *
 * A quaternion is (w, x, y, z), Hamilton product, and q maps body vectors to
 * the world: v_world = R(q) v_body. Perturbations are on the right, in the
 * body frame, as eq. 25 defines them:
 *   q [+] d = q (x) Exp(d),       q1 [-] q2 = Log(q2^-1 (x) q1),
 * where Exp(d) is the rotation by the angle |d| about d (the paper's
 * exp(d / 2) of a pure quaternion) and Log is its inverse, with the angle in
 * [0, pi]. Nothing here allocates or fails; inputs are assumed finite.
 */
#ifndef TAGK_SO3_H
#define TAGK_SO3_H
#include "scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

/* o = a x b. o may not alias a or b. */
void tagk_cross(const tagk_real a[3], const tagk_real b[3], tagk_real o[3]);
/* The 3 x 3 matrix [a]x with [a]x b = a x b. */
void tagk_skew(const tagk_real a[3], tagk_real S[9]);
/* o = a (x) b. o may not alias a or b. */
void tagk_qmul(const tagk_real a[4], const tagk_real b[4], tagk_real o[4]);
/* The conjugate (the inverse of a unit quaternion). */
void tagk_qconj(const tagk_real q[4], tagk_real o[4]);
/* Scale q to unit length, with w >= 0 (the same rotation). */
void tagk_qnormalize(tagk_real q[4]);
/* o = R(q) v and o = R(q)^T v. o may not alias v. */
void tagk_qrotate(const tagk_real q[4], const tagk_real v[3], tagk_real o[3]);
void tagk_qrotate_t(const tagk_real q[4], const tagk_real v[3], tagk_real o[3]);
/* The rotation matrix R(q), row-major. */
void tagk_qmatrix(const tagk_real q[4], tagk_real R[9]);
/* The unit quaternion (w >= 0) of the rotation matrix R (row-major). */
void tagk_qfrommatrix(const tagk_real R[9], tagk_real q[4]);
/* q = Rz(yaw) Ry(pitch) Rx(roll), body to world, from rpy = (roll, pitch,
 * yaw) in rad (the aerospace z-y-x convention, as the Crazyflie logs it). */
void tagk_qfromrpy(const tagk_real rpy[3], tagk_real q[4]);
/* Exp(d): the unit quaternion of the rotation vector d. */
void tagk_qexp(const tagk_real d[3], tagk_real q[4]);
/* Log(q): the rotation vector of the unit quaternion q, angle in [0, pi]. */
void tagk_qlog(const tagk_real q[4], tagk_real d[3]);
/* q [+] d, in place. */
void tagk_qplus(tagk_real q[4], const tagk_real d[3]);
/* q1 [-] q2 = Log(q2^-1 (x) q1). */
void tagk_qminus(const tagk_real q1[4], const tagk_real q2[4], tagk_real d[3]);
/*
 * The inverse of the right Jacobian of SO(3) at e: to first order,
 * Log(Exp(e) Exp(d)) = e + Jr^-1(e) d. Used by the Gauss-Newton Jacobians
 * of rotation residuals. Exact in closed form.
 */
void tagk_so3_jr_inv(const tagk_real e[3], tagk_real J[9]);

#ifdef __cplusplus
}
#endif

#endif
