/*
 * estimate_state.h: tagk-estimate's state-space path, the mass estimators
 * of paper 001 (lib/massest.h), which read the state stream of
 * tagk-regress -m state (time, thrust, gyro, attitude, position, velocity,
 * SI units) instead of regressor rows and write the same stream as the
 * regressor methods: t, m, then the true_* columns.
 */
#ifndef TAGK_ESTIMATE_STATE_H
#define TAGK_ESTIMATE_STATE_H
#include "../formats/table.h"
#include "../lib/tagk.h"

typedef struct {
	const tagk_method *mt;
	double m0;               /* <= 0: the first sample's thrust / g */
	double mass_sd;          /* <= 0: the library's default */
	double proc[4];          /* att, pos, vel, mass; all set when proc_set */
	double meas[3];          /* att, pos, vel; all set when meas_set */
	int proc_set, meas_set;
	int window, iters;       /* 0: defaults */
	int gauss_newton;
	long every;              /* write every k-th estimate */
	double max_gap;          /* s */
	int verbose;
	const char *outname;
	tbl_options in;
} state_opts;

/* Run; exits through cli_die on any failure, returns the exit status. */
int estimate_state(const state_opts *o, const char *path);

#endif
