/*
 * massest_impl.h: what the mass estimators (mass_kf.c, mass_ukf.c,
 * mass_swls.c) share with their front end massest.c. Not installed.
 */
#ifndef TAGK_MASSEST_IMPL_H
#define TAGK_MASSEST_IMPL_H
#include "massest.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per method, the operations of tagk_state_ops (massest.h). */
size_t tagk__kf_len(const tagk_mass_config *c);
void tagk__kf_wire(tagk_mass_est *e, tagk_real *ws);
void tagk__kf_start(tagk_mass_est *e, const tagk_uav_meas *y);
tagk_status tagk__kf_step(tagk_mass_est *e, const tagk_uav_input *u, tagk_real dt, const tagk_uav_meas *y);

size_t tagk__ukf_len(const tagk_mass_config *c);
void tagk__ukf_wire(tagk_mass_est *e, tagk_real *ws);
tagk_status tagk__ukf_step(tagk_mass_est *e, const tagk_uav_input *u, tagk_real dt, const tagk_uav_meas *y);

size_t tagk__swls_len(const tagk_mass_config *c);
void tagk__swls_wire(tagk_mass_est *e, tagk_real *ws);
void tagk__swls_start(tagk_mass_est *e, const tagk_uav_meas *y);
tagk_status tagk__swls_step(tagk_mass_est *e, const tagk_uav_input *u, tagk_real dt, const tagk_uav_meas *y);

/* The option keys of every state method, and of those with a window. */
extern const char *const tagk__mass_keys[];
extern const char *const tagk__mass_window_keys[];

/* The diagonal of R (9) and of Q per second (10), from the configuration. */
void tagk__mass_r(const tagk_mass_config *c, tagk_real r[9]);
void tagk__mass_q(const tagk_mass_config *c, tagk_real q[10]);
/* The start covariance of the head state (10 x 10, diagonal): R for q, r, v
 * and sd_m0^2 for the mass. */
void tagk__mass_p0(const tagk_mass_config *c, tagk_real P[100]);

#ifdef __cplusplus
}
#endif

#endif
