/*
 * shake.h: paper 004's excitation, "shaking" a held object (eqs. 6-9).
 *
 * Per task-space axis, over T seconds sampled every dt:
 *   f(t)   = h - (h - l) t / T                 frequency falling from h to l (Hz)
 *   phi(t) = dt sum_{s = 0, dt, ..., t} f(s)   the phase, a running sum (eq. 6)
 *   w(t)   = (1 - cos(2 pi t / T)) / 2         a Hann window (eq. 7)
 *   X(t)   = alpha sin(2 pi phi(t)) w(t)       the end effector's offset (eq. 8)
 * The paper's values: T = 0.5 s; x: h 5, l 1, alpha -1; y: h 3, l 1,
 * alpha 5. It gives no unit for alpha; an offset of 5 m is out of any arm's
 * reach, so centimetres are read here (tagk_shake_paper holds metres).
 *
 * Eq. 9, the damped-least-squares step of its inverse kinematics:
 *   q_des = q + gain (J^T J + lambda^2 1)^-1 J^T e,   e = x_des - x.
 * (The paper prints lambda for both the damping and the gain and names a
 * second symbol alpha in the text: the gain is a separate argument here.)
 */
#ifndef TAGK_SHAKE_H
#define TAGK_SHAKE_H

#include "scalar.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	tagk_real h, l;     /* frequencies at the start and the end, Hz */
	tagk_real alpha;    /* amplitude, m */
} tagk_shake_axis;

#define TAGK_SHAKE_T ((tagk_real)0.5)
/* x and y of the paper, alpha in metres */
extern const tagk_shake_axis tagk_shake_paper[2];

/* X at t_k = k dt, k = 0 .. n - 1, into X (n). */
void tagk_shake(const tagk_shake_axis *ax, tagk_real T, tagk_real dt, int n, tagk_real *X);

/* dq (n) = gain (J^T J + lambda^2 1)^-1 J^T e for J m x n (row-major), e
 * (m); ws holds n * n + n reals. TAGK_EINVAL unless lambda > 0 or J^T J is
 * positive definite; TAGK_ENONFINITE for NaN or Inf input. */
tagk_status tagk_dls_step(int m, int n, const tagk_real *J, const tagk_real *e, tagk_real lambda, tagk_real gain,
    tagk_real *dq, tagk_real *ws);

#ifdef __cplusplus
}
#endif

#endif
