/*
 * armpc.h: physically consistent identification of a whole arm: every
 * link's ten parameters and the joints' friction terms from one set of
 * normal equations,
 *
 *   minimise   1/2 x^T H x - h^T x + mu R(theta)
 *   subject to J_k(theta) >= margin I   for every body k,
 *
 * x = [theta; phi]: theta the B bodies' parameters (10 B, body by body,
 * inertia.h's order), phi F further parameters that no constraint or prior
 * touches (joint friction: viscous, Coulomb, offset). R and its options
 * are pcls.h's (EUCLID, PULLBACK, LOGDET toward the prior theta0). An arm's
 * regressor never determines every standard parameter (only the base
 * parameters, Gautier 1991): the data fix the identifiable combinations,
 * the prior (mu > 0) the rest, and the constraint keeps every link
 * physical (Wensing, Kim, Slotine, RA-L 2018).
 *
 * Method: phi enters unconstrained and quadratically, so it is minimised
 * out in closed form (the Schur complement of H_phiphi, positive definite
 * when every free parameter is excited), the consistent problem in theta
 * alone is tagk_pcls_solve's, and phi = H_phiphi^-1 (h_phi - H_phitheta
 * theta). The optimum is the joint problem's: for any theta the best phi
 * is that one.
 *
 * Without allocation: the caller passes tagk_armpc_workspace_len reals.
 */
#ifndef TAGK_ARMPC_H
#define TAGK_ARMPC_H

#include <stddef.h>
#include "pcls.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TAGK_ARMPC_MAX_FREE = 3 * TAGK_PCLS_MAX_BODIES }; /* three friction terms a joint */

/* Reals of workspace for B bodies and F free parameters (0 if out of range). */
size_t tagk_armpc_workspace_len(int bodies, int nfree);
/* Solve with H (n x n, symmetric, n = 10 B + F, B = cfg->bodies) and h (n);
 * x (n) receives theta then phi. TAGK_ENOTPD if H_phiphi is not positive
 * definite (a free parameter the data do not excite); otherwise
 * tagk_pcls_solve's statuses, info its report on theta's problem (f then
 * excludes the constant the elimination drops). */
tagk_status tagk_armpc_solve(const tagk_pcls_config *cfg, int nfree, const tagk_real *H, const tagk_real *h,
    tagk_real *x, tagk_pcls_info *info, tagk_real *ws, size_t len);

#ifdef __cplusplus
}
#endif

#endif
