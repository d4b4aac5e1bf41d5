/*
 * bench_cfpend.h: tagk-bench coordinv's second half, paper 002's Fig. 4:
 * a Crazyflie carrying a pendulum (bench/sim/cfpend.h), identified by each
 * method of lib/coordinv.h.
 */
#ifndef TAGK_BENCH_CFPEND_H
#define TAGK_BENCH_CFPEND_H

/* The Crazyflie-with-pendulum half (Fig. 4), bench_cfpend.c. */
typedef struct {
	int seeds;
	long low;
	double lambda, prior_error;
	double pos_noise, rotor_drag, thrust_error, joint_friction;
	int differentiate;
	int physical;  /* every method with the pseudo-inertias kept physical */
	int claims_only; /* print the claims, not the tables (a second prior) */
} cfp_opts;
void coordinv_crazyflie(const cfp_opts *o);

#endif
