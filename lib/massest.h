/*
 * massest.h: online estimators of a UAV's time-varying mass from its state
 * (paper 001): EKF (eqs. 3-8), MSCKF (eqs. 9-14, 34), UKF (eqs. 15-17) and
 * sliding-window least squares with pre-integration (eqs. 18-23, 35-39),
 * all over the 4-DoF model of uav.h.
 *
 * Unlike the regressor methods of estimator.h, these consume the log's
 * signals directly: per sample the input held since the previous sample
 * (thrust, gyro), the time step, and the measurement (q, r, v). Use:
 *
 *   const tagk_method *mt = tagk_method_find_kind("ekf", TAGK_KIND_STATE);
 *   tagk_mass_config cfg;
 *   tagk_mass_defaults(&cfg, mt, m0);             // then adjust noise etc.
 *   size_t len = tagk_mass_workspace_len(&cfg);   // tagk_real elements
 *   tagk_mass_init(&est, &cfg, ws, len);
 *   tagk_mass_start(&est, &y0);                   // the first measurement
 *   tagk_mass_update(&est, &u, dt, &y, &m);       // every later sample
 *
 * Nothing allocates. Divergence (a mass that is not finite or leaves
 * (m0 / m_ratio, m0 * m_ratio), a covariance that stops being positive
 * definite) returns TAGK_EDIVERGED and is sticky: the estimator refuses every
 * later update with TAGK_EDIVERGED until tagk_mass_start is called again. Every
 * other failure (a measurement with NaN, dt <= 0) leaves the state unchanged.
 */
#ifndef TAGK_MASSEST_H
#define TAGK_MASSEST_H
#include <stddef.h>
#include "status.h"
#include "uav.h"
#include "method.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_MASS_WINDOW_MAX = 64 };

typedef struct {
	const tagk_method *method; /* of kind TAGK_KIND_STATE */
	tagk_real m0;         /* initial mass estimate, kg, > 0 */
	tagk_real sd_m0;      /* its standard deviation, kg */
	/* Process noise as standard deviations per sqrt(second): Q dt (eq. 5)
	 * has q^2 dt on its diagonal. */
	tagk_real q_att;      /* rad/sqrt(s), gyro noise */
	tagk_real q_pos;      /* m/sqrt(s) */
	tagk_real q_vel;      /* m/s/sqrt(s), thrust and model error */
	tagk_real q_mass;     /* kg/sqrt(s), how fast the mass may wander */
	/* Measurement noise standard deviations (R of eq. 8). */
	tagk_real r_att;      /* rad */
	tagk_real r_pos;      /* m */
	tagk_real r_vel;      /* m/s */
	int window;           /* MSCKF clones, SWLS states; 2 .. TAGK_MASS_WINDOW_MAX */
	int iters;            /* SWLS iterations per update, >= 1 */
	int lm;               /* SWLS: 1 Levenberg-Marquardt, 0 Gauss-Newton */
	tagk_real ukf_alpha, ukf_beta, ukf_kappa; /* UKF sigma-point spread and weights */
	tagk_real m_ratio;    /* divergence bound, > 1 */
} tagk_mass_config;

/* SWLS state (mass_swls.c); pointers into the workspace. */
typedef struct {
	tagk_uav_state *st;   /* window states, oldest first: ns of cap */
	tagk_uav_meas *y;     /* their measurements */
	tagk_real *pre;       /* per gap k (cap - 1): alpha[3] beta[3] gamma[4] dt, then
	                       * the 10 x 10 information of r_D (eq. 39) */
	tagk_real *acc;       /* pre-integration since the newest state: as pre's first
	                       * 11, then its 9 x 9 covariance (eq. 20) */
	tagk_real *prior_H;   /* 10 x 10: marginalised information on st[0] */
	tagk_real *prior_g;   /* 10: its gradient at prior_x */
	tagk_uav_state prior_x;
	tagk_real *D, *B, *g, *dx; /* normal equations: diagonal blocks cap x 10 x 10,
	                            * sub-diagonal (cap - 1) x 10 x 10, gradient, step */
	tagk_uav_state *save; /* states before a step, for LM's rejections */
	tagk_real *tmp;       /* scratch */
	int ns, cap;
	tagk_real lambda;     /* LM damping, kept between updates */
	int last_iters;       /* iterations the last update ran */
} tagk_swls;

/* One estimator. Fields are private; pointers refer into the caller's
 * workspace. */
typedef struct {
	tagk_mass_config cfg;
	tagk_uav_state x;     /* the current (head) state */
	int started, diverged;
	int n;                /* current error-state dimension (MSCKF grows it) */
	int ld;               /* row stride of P: n's largest value */
	tagk_real *P;         /* covariance, n x n in rows of ld (EKF, MSCKF, UKF) */
	tagk_real *work;      /* scratch */
	tagk_real *clones;    /* MSCKF: nc clones, each q[4] r[3] v[3], oldest first */
	int nc;
	tagk_swls sw;
} tagk_mass_est;

/* What a state-space method provides (the registry's ops for kind
 * TAGK_KIND_STATE): its workspace length, wiring to the workspace, a start
 * after est->x is set from the first measurement, and one sample, which may
 * return TAGK_OK, TAGK_ENOTPD (taken as divergence) or TAGK_EDIVERGED. Keys
 * every state method accepts: m0, mass-sd, proc-sd, meas-sd; window, iters
 * and gauss-newton where the method lists them. */
typedef struct {
	tagk_ops_head head;
	size_t (*len)(const tagk_mass_config *c);
	void (*wire)(tagk_mass_est *e, tagk_real *ws);
	void (*start)(tagk_mass_est *e, const tagk_uav_meas *y);
	tagk_status (*step)(tagk_mass_est *e, const tagk_uav_input *u, tagk_real dt, const tagk_uav_meas *y);
} tagk_state_ops;

/* Defaults for mt with the initial mass m0 (kg): noise figures matched to
 * tagk-bench massflight's default sensors, window 10, 3 LM iterations. The
 * mass terms scale with m0 (sd_m0 = 0.25 m0, q_mass = 0.05 m0). */
void tagk_mass_defaults(tagk_mass_config *cfg, const tagk_method *mt, tagk_real m0);
/* Workspace, in tagk_real elements, that tagk_mass_init needs (0 if cfg is bad). */
size_t tagk_mass_workspace_len(const tagk_mass_config *cfg);
/* Check cfg and wire est to ws; TAGK_EINVAL for a bad configuration,
 * TAGK_ESPACE for a short workspace. */
tagk_status tagk_mass_init(tagk_mass_est *est, const tagk_mass_config *cfg, tagk_real *ws, size_t len);
/* Start (or restart) from the first measurement y: q, r, v from y, mass m0,
 * covariance from R and sd_m0. TAGK_ENONFINITE if y is not a valid
 * measurement (tagk_uav_meas_ok). */
tagk_status tagk_mass_start(tagk_mass_est *est, const tagk_uav_meas *y);
/*
 * One sample: propagate over dt (> 0) with the input u held since the
 * previous sample, then update with the measurement y. On TAGK_OK the mass
 * estimate is stored in *m (if m is not NULL). TAGK_EINVAL before a start or
 * for dt <= 0; TAGK_ENONFINITE for a bad u or y (state unchanged);
 * TAGK_ENOTPD when the innovation covariance cannot be factored (the
 * measurement is skipped, the propagation kept); TAGK_EDIVERGED as above.
 */
tagk_status tagk_mass_update(tagk_mass_est *est, const tagk_uav_input *u, tagk_real dt,
    const tagk_uav_meas *y, tagk_real *m);
/* The current mass estimate, and its standard deviation from the
 * covariance (NAN for SWLS, which keeps no marginal covariance). */
tagk_real tagk_mass_value(const tagk_mass_est *est);
tagk_real tagk_mass_sd(const tagk_mass_est *est);

#ifdef __cplusplus
}
#endif

#endif
