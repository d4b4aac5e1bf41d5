/*
 * inertia.h: the ten inertial parameters of a rigid body and their conversions.
 *
 * Order (Pinocchio's): theta = [m, mcx, mcy, mcz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz],
 * where mc = m c is the first moment and I is the inertia about the body-frame
 * origin O: I_O = I_C + m S(c)^T S(c) (parallel axis theorem).
 */
#ifndef TAGK_INERTIA_H
#define TAGK_INERTIA_H

#include "scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TAGK_NPARAM 10

enum {
	TAGK_P_M, TAGK_P_MCX, TAGK_P_MCY, TAGK_P_MCZ,
	TAGK_P_IXX, TAGK_P_IXY, TAGK_P_IYY, TAGK_P_IXZ, TAGK_P_IYZ, TAGK_P_IZZ
};

/* Column names of the ten parameters, in order: "m", "mcx", ..., "Izz". */
extern const char *const tagk_param_names[TAGK_NPARAM];

/* theta from mass m, centre of mass c (3) and the inertia about the centre of
 * mass Ic (3 x 3 symmetric, row-major). */
void tagk_theta_from_body(tagk_real m, const tagk_real c[3], const tagk_real Ic[9],
    tagk_real theta[TAGK_NPARAM]);
/* Inertia about O as a 3 x 3 matrix. */
void tagk_theta_inertia(const tagk_real theta[TAGK_NPARAM], tagk_real I[9]);
/* The inverse: theta's six inertia entries from the (upper triangle of the)
 * 3 x 3 matrix I; the mass and first moment are left as they are. */
void tagk_theta_set_inertia(tagk_real theta[TAGK_NPARAM], const tagk_real I[9]);
/* Centre of mass c = mc / m and the inertia about it; m must be non-zero.
 * Returns 0 if m is zero or not finite (outputs untouched), else 1. */
int tagk_theta_to_body(const tagk_real theta[TAGK_NPARAM], tagk_real c[3], tagk_real Ic[9]);
/* 4 x 4 pseudo-inertia J = [[S, mc], [mc^T, m]] with S = tr(I)/2 1 - I; it is
 * positive semidefinite exactly when theta is physically consistent. */
void tagk_pseudo_inertia(const tagk_real theta[TAGK_NPARAM], tagk_real J[16]);
/* The inverse map: theta from a symmetric 4 x 4 J (I = tr(S) 1 - S). */
void tagk_theta_from_pseudo(const tagk_real J[16], tagk_real theta[TAGK_NPARAM]);

#ifdef __cplusplus
}
#endif

#endif
