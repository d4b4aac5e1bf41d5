/*
 * wholearm.h: tagk-regress -m multibody --unknown all (or BODY,BODY,...):
 * rows for every listed body's ten parameters at once, the joint torque
 * regressor (Pinocchio's computeJointTorqueRegressor), with optional
 * friction columns per joint, and (--base) the base parameters (Gautier):
 * the regressor reduced to its identifiable combinations.
 *
 * Columns, in this order: for each listed body in the model's order its ten
 * parameters (m mcx mcy mcz Ixx Ixy Iyy Ixz Iyz Izz, about the body frame's
 * origin), named PARAM_BODY; then for each joint j (1 ..) the chosen
 * friction terms fv_j (qd), fc_j (s(qd): sign, or tanh(qd / V)), fs_j
 * (tanh^2(qd / V), the asymmetric part of Gaz et al.'s sigmoid) and fo_j
 * (1). Joint j's terms enter its own row only.
 */
#ifndef TAGK_WHOLEARM_H
#define TAGK_WHOLEARM_H

#include "../formats/mbmodel.h"
#include "../formats/sink.h"

enum { WA_FV = 1, WA_FC = 2, WA_FO = 4, WA_FS = 8 }; /* FF_* bits, and the sigmoid's */
enum { WA_NAME = 48 };

typedef struct {
	int nu, body[TAGK_MB_MAX_BODIES]; /* the listed bodies, model order */
	int nj, off, kinds, nfr;          /* joints, base rows, friction terms per joint */
	double smooth;                    /* the sigmoid's velocity V (0: sign) */
	int n;                            /* standard columns: 10 nu + nfr nj */
	/* --base: rank, the column order and beta (rank x (n - rank)) */
	int base, rank, *perm, nstates;
	double *beta, gap[2];             /* the smallest kept and largest dropped |R_kk| / |R_00| */
} wholearm;

/* Parse TERMS of --friction-terms: viscous, coulomb, offset, sigmoid (WA_*). */
int wa_kinds(const char *opt, const char *arg);
/* 1 if arg lists bodies for the whole-arm rows: "all", or a comma in it. */
int wa_wanted(const char *arg);
/* Set up for list ("all" or names) on mm, friction kinds (WA_* bits) with
 * velocity smooth; exits on an unknown or repeated body or a fixed base. */
void wa_init(wholearm *w, const mbmodel *mm, const char *list, int kinds, double smooth);
/* Output parameter columns (n, or rank with --base). */
int wa_ncols(const wholearm *w);
/* Column k's name (without Y_), standard (PARAM_BODY, fv_J ...) or base (bK). */
void wa_std_name(const wholearm *w, const mbmodel *mm, int k, char name[WA_NAME]);
void wa_name(const wholearm *w, const mbmodel *mm, int k, char name[WA_NAME]);
/* The nv standard rows (nv x n, row-major) from Y (nv x 10 nb) and qd. */
void wa_std_rows(const wholearm *w, int nv, int nb, const tagk_real *Y, const tagk_real *qd, double *A);
/* The output rows: A (nv x n) to out (nv x wa_ncols). */
void wa_out_rows(const wholearm *w, int nv, const double *A, double *out);
/* --base: find the base parameters from states random within [-pi, pi]
 * (q), N(0, 1) (qd, qdd) with seed; the joints' limits are not used: the
 * base structure is the kinematics', the same for almost every state. */
void wa_base(wholearm *w, const mbmodel *mm, unsigned long seed);
/* The base parameters (rank) of the standard ones row[idx[0 .. n-1]]. */
void wa_base_values(const wholearm *w, const double *row, const int *idx, double *out);
/* Say the rank, the unidentifiable parameters and each grouping on stderr. */
void wa_say_base(const wholearm *w, const mbmodel *mm);
/* Write the grouping (one line per base parameter, then the null space) to f. */
int wa_write_groups(const wholearm *w, const mbmodel *mm, FILE *f);

#endif
