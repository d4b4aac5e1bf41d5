/*
 * baseparam.h: the base parameters of a regressor (Gautier 1991, "Numerical
 * calculation of the base inertial parameters of robots"), by QR with
 * column pivoting of the regressor stacked over random states.
 *
 * W (rows x n) is the stack; its rank r is the number of identifiable
 * combinations. QR with column pivoting (Businger-Golub, the largest
 * remaining column first) gives W P = Q [R11 R12; 0 R22] with R22 ~ 0; the
 * columns P[0 .. r-1] are independent (the base columns), the others are
 * W_2 = W_1 beta with beta = R11^-1 R12 (r x (n - r)). Then
 *   W theta = W_1 (theta_1 + beta theta_2),
 * so base parameter k is theta_{perm[k]} + sum_j beta[k][j] theta_{perm[r+j]},
 * the base regressor is W's columns perm[0 .. r-1], and the n - r directions
 * e_{perm[r+j]} - sum_k beta[k][j] e_{perm[k]} are the null space: moving
 * theta along them changes no torque (unidentifiable). A dependent column
 * whose beta column is all zero is a parameter that never enters the rows.
 */
#ifndef TAGK_BASEPARAM_H
#define TAGK_BASEPARAM_H

#include "scalar.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* W (rows x n, row-major) is overwritten (its R factor, columns permuted).
 * Column k is taken as dependent once the largest remaining column norm is
 * at most tol times the first one's (the largest column's): tol 1e-9 for a
 * double regressor of random states. Returns the rank in *rank, the column
 * order in perm (n), beta (rank x (n - rank), row-major; room for n x n is
 * enough) and uses work (n). TAGK_EINVAL for rows < 1, n < 1 or tol
 * outside (0, 1); TAGK_ENONFINITE for a NaN or Inf in W. */
tagk_status tagk_base_qr(int rows, int n, tagk_real *W, tagk_real tol, int *perm, int *rank, tagk_real *beta,
    tagk_real *work);

#ifdef __cplusplus
}
#endif

#endif
