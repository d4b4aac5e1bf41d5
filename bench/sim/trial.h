/*
 * trial.h: one closed-loop flight of the TAG-K paper's quadrotor experiment
 * (section V-A): a Crazyflie 2.1 tracks a reference with an LQR at 50 Hz,
 * a payload is attached and released, and an estimator running at 2.5 Hz on
 * the last 5 control steps (30 x 10 rows) updates the model the LQR is
 * designed from. Deterministic: everything random comes from the seed.
 *
 * Protocol (the paper's): payload 30-50 % of the vehicle mass at 20-30 % of
 * the arm length, attached in [4, 6] s and released in [12, 14] s of 20 s;
 * references figure-8, circle, spiral, helix, ellipse (or random), peak
 * speed 0.5 m/s, random start; Gaussian noise on the velocity the controller
 * sees and on the specific force the estimator sees; abort when the position
 * error exceeds 30 cm; success when it is under 5 cm 10 steps after each
 * payload event, without abort. The estimator starts from the vehicle
 * without payload; its estimates pass the eq. (15) gate (when gate is set)
 * before the LQR is redesigned with them.
 *
 * The authors' code (A2R-Lab/TAG-K, python/exp_1:ours_vs_baselines/
 * run_exp1_parallel_cpp.py with online_estimators/) differs from that text
 * in the places below; each is one switch, all off by default:
 *   b_oracle   b = Y(measured rows) theta_true, their get_force_vector: every
 *              row consistent whatever the noise (else the rotor wrench).
 *   state_noise  Gaussian noise sigma_p on the position and sigma_v on the
 *              velocity of the state both controller and estimator see; the
 *              estimator's specific force is the forward difference of the
 *              measured velocity, its angular acceleration that of the
 *              gyro without noise (else sigma_v on the controller's velocity
 *              and sigma_a on the exact specific force).
 *   gate       TAGK_TRIAL_GATE_AUTHORS: Ixx and Iyy averaged, the inertia
 *              clipped to eigenvalues >= 1e-6, then accepted only with m in
 *              [0.02, 0.08] kg, ||m c|| <= 0.02, eigenvalues in [1e-7, 1e-4]
 *              and ||A theta - b|| / ||b|| <= 0.1; the clipped estimate is
 *              what the LQR uses and what the errors are measured on.
 *   success_authors  scoring as their script: success is no abort and
 *              under 5 cm 10 steps before the payload is dropped (else 10
 *              steps after each event), and the position error is the mean
 *              absolute error per axis, (|ex| + |ey| + |ez|) / 3, about half
 *              the Euclidean norm tagk reports.
 *   payload_authors  a point mass of m/3 to m/2 at an offset uniform in
 *              +-1 mm per axis, attached in [6, 8] s, dropped in [14, 16] s.
 *   reference_authors  their five generators (periods about 15-20 s, peak
 *              speeds about 0.1-0.35 m/s) and their start (5 cm, 0.02 rad,
 *              0.01 m/s and 0.01 rad/s Gaussian perturbations).
 *   rotors_authors  thrust limit 0.147 N per rotor (kt of their model),
 *              reaction torque 0.0008 m per newton, and their LQR weights
 *              (Bryson on 0.1 m, 0.5 m/s, 0.5/0.5/0.05 rad, 0.7/0.7/0.2
 *              rad/s and half the thrust range).
 *   dynamics_authors  their equations of motion (quad.h, authors_dynamics):
 *              the offset centre of mass crossed with the world-frame
 *              acceleration instead of the specific force, which near hover
 *              drops gravity's moment of the payload about the body origin.
 *   regressor_authors  their regressor and oracle b: four entries of the
 *              torque rows' first-moment block with the wrong sign, and an
 *              extra factor m in the oracle b's first-moment torque.
 */
#ifndef TAGK_TRIAL_H
#define TAGK_TRIAL_H

#include <stdint.h>
#include "../../lib/estimator.h"
#include "quad.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_TRAJ_FIG8, TAGK_TRAJ_CIRCLE, TAGK_TRAJ_SPIRAL, TAGK_TRAJ_HELIX, TAGK_TRAJ_ELLIPSE,
	TAGK_TRAJ_RANDOM, TAGK_TRAJ_COUNT };
extern const char *const tagk_traj_names[TAGK_TRAJ_COUNT];

enum { TAGK_TRIAL_GATE_NONE, TAGK_TRIAL_GATE_EQ15, TAGK_TRIAL_GATE_AUTHORS };

typedef struct {
	uint64_t seed;        /* the trial: trajectory, start, payload, events, noise */
	int traj;             /* TAGK_TRAJ_*, or -1: one of the paper's five by seed */
	tagk_real sigma_v;    /* velocity noise, m/s (paper max 0.025) */
	tagk_real sigma_a;    /* specific-force noise, m/s^2 (paper max 0.0025) */
	tagk_real duration;   /* s */
	int every, window;    /* estimate every 20 steps from the last 5 */
	int gate;             /* TAGK_TRIAL_GATE_*: what estimates pass before use */
	tagk_real l_arm, alpha; /* eq. (15) bounds */
	/* the authors' protocol, setting by setting (see above) */
	int b_oracle, state_noise, success_authors, payload_authors, reference_authors, rotors_authors,
	    dynamics_authors, regressor_authors;
	tagk_real sigma_p;    /* position noise with state_noise, m (authors' max 5e-4) */
	uint64_t (*ticks)(void); /* optional clock for the update times */
} tagk_trial_config;

void tagk_trial_defaults(tagk_trial_config *c, uint64_t seed);

typedef struct {
	int traj;
	tagk_real pos_err_mean;   /* m, over the flight until it aborts: the norm,
	                           * or the per-axis mean with success_authors */
	tagk_real res_mean;       /* ||A theta^ - b|| / ||b|| over updates */
	tagk_real res_t1;         /* ... at the first update after each event */
	tagk_real par_mean;       /* ||theta^ - theta|| / ||theta|| over updates */
	tagk_real par_t1;
	/* over the estimates: relative mass error, centre-of-mass error
	 * ||h^ - h|| / m (m), relative inertia error (metrics.h), and the mean
	 * log-det divergence of pseudo-inertias over the physical ones (-1 if
	 * there are none) */
	tagk_real blk_mean[3], ld_mean;
	int ok_updates, nonphysical; /* estimates, and those not physical */
	int success, aborted;
	int updates, accepted;
	uint64_t times[64];       /* ticks per update, when ticks is set */
	tagk_real upd_t[64];      /* time of each update (first 64) */
	tagk_real upd_par[64];    /* its relative parameter error (-1 if refused) */
	tagk_real upd_ierr[64];   /* its relative inertia error (-1 if refused) */
	tagk_real t_on, t_off, payload_mass;
} tagk_trial_result;

/* Called once per control step with the measurements a log would hold. */
typedef void (*tagk_trial_log)(void *ctx, tagk_real t, const tagk_real acc[3],
    const tagk_real gyro[3], const tagk_real alpha[3], const tagk_real force[3],
    const tagk_real torque[3], const tagk_real truth[TAGK_NPARAM], const tagk_real pos[3],
    const tagk_real ref[3]);

/* Fly one trial with est (initialised by the caller, with theta0 the vehicle
 * without payload: tagk_trial_vehicle). log may be NULL. */
tagk_status tagk_trial_run(const tagk_trial_config *c, tagk_estimator *est,
    tagk_trial_result *out, tagk_trial_log log, void *ctx);
/* The vehicle's parameters without payload. */
void tagk_trial_vehicle(tagk_real theta[TAGK_NPARAM]);

#ifdef __cplusplus
}
#endif

#endif
