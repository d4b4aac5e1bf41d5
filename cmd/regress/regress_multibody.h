/*
 * regress_multibody.h: tagk-regress -m multibody (regress_multibody.c).
 */
#ifndef TAGK_REGRESS_MULTIBODY_H
#define TAGK_REGRESS_MULTIBODY_H

#include "../formats/table.h"
#include "arm_ident.h"

enum { MB_ROWS_FORCE, MB_ROWS_MOMENTUM, MB_ROWS_ENERGY };
enum { MB_SIG_T, MB_SIG_Q, MB_SIG_QD, MB_SIG_QDD, MB_SIG_TAU, MB_NSIG };

/* Parse --map SIGNAL=COLS for -m multibody (t, q, qd, qdd, tau) into map. */
void regress_mb_map(const char *arg, const char *map[MB_NSIG]);

typedef struct {
	const char *robot;    /* the model file */
	const char *body;     /* the body whose parameters (or held object's) are wanted */
	int held;             /* 1: an object held by body; 0: body itself */
	int rows;             /* MB_ROWS_* */
	int metric;           /* force rows: append each row of the metric (the mass matrix) and of its
	                       * part in each unknown parameter (paper 002's dual metric) */
	double tscale;        /* seconds per unit of t */
	int tscale_set;       /* --time-unit given (unitguard.h) */
	const char *map[5];   /* --map for MB_SIG_*: column lists (colspec.h), or NULL for t, q1.. */
	int angle_deg;        /* revolute joints' q, qd, qdd in degrees */
	int angle_set;        /* --angle-unit given (unitguard.h) */
	int no_fit_check;     /* --no-fit-check: the model-fit check's findings are warnings (armfit.h) */
	int no_check;         /* --no-consistency-check: q, qd and qdd not compared (consistency_guard.h) */
	double sg_window;     /* derived signals: Savitzky-Golay window (s) and degree */
	int sg_order;
	int sg_smooth;        /* the same filter on the measured q, qd and tau */
	const char *friction; /* --friction FILE: subtracted from the torques */
	int fit_kinds;        /* --fit-friction: FF_* bits (friction_fit.h); 0: rows */
	double coulomb_smooth; /* its Coulomb term's smoothing velocity (0: sign) */
	int fwl_kinds;        /* --friction-terms: FF_* bits, estimated with the payload */
	int base;             /* --base: base-parameter rows (wholearm.h) */
	const char *base_groups; /* --base-groups FILE */
	double scale_sd;      /* --scale-sd: the efforts' scale's relative sd (the note scale_sd), or -1 */
	const char *outname;
	tbl_options in;
	arm_opts arm;         /* --identify, --predict (arm_ident.h): arm.mode 0 for rows */
} regress_mb_opts;

/* Run; exits through cli_die on any failure, returns the exit status. */
int regress_multibody(const regress_mb_opts *o, const char *input);

#endif
