/*
 * linalg.h: small dense linear algebra on row-major views.
 *
 * A matrix is a pointer to its first element plus its shape; element (i, j) of
 * an r x c matrix M is M[i * c + j]. Nothing here allocates: every output and
 * scratch buffer belongs to the caller and must not alias an input unless the
 * comment says so. Sizes are ints and must be >= 0.
 */
#ifndef TAGK_LINALG_H
#define TAGK_LINALG_H

#include <stddef.h>
#include "scalar.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* acc + x y with the product rounded before the sum, never fused: the
 * same bits on every target. On the Cortex-M7 one VMLA instruction (a
 * chained, not fused, multiply-accumulate), which GCC 12 does not emit
 * there: a multiply and an add otherwise, one instruction in four of a dot
 * product. Elsewhere the plain expression (ISO C mode does not contract
 * it). */
#if defined(__ARM_ARCH_7EM__) && defined(__ARM_FP) && defined(__GNUC__) && !defined(TAGK_NO_VMLA) && \
    ((defined(TAGK_FLOAT) && (__ARM_FP & 4)) || (!defined(TAGK_FLOAT) && (__ARM_FP & 8)))
static inline tagk_real
tagk_mla(tagk_real acc, tagk_real x, tagk_real y)
{
#ifdef TAGK_FLOAT
	__asm__("vmla.f32 %0, %1, %2" : "+t"(acc) : "t"(x), "t"(y));
#else
	__asm__("vmla.f64 %P0, %P1, %P2" : "+w"(acc) : "w"(x), "w"(y));
#endif
	return acc;
}
/* acc - x y, likewise (VMLS) */
static inline tagk_real
tagk_mls(tagk_real acc, tagk_real x, tagk_real y)
{
#ifdef TAGK_FLOAT
	__asm__("vmls.f32 %0, %1, %2" : "+t"(acc) : "t"(x), "t"(y));
#else
	__asm__("vmls.f64 %P0, %P1, %P2" : "+w"(acc) : "w"(x), "w"(y));
#endif
	return acc;
}
#else
static inline tagk_real
tagk_mla(tagk_real acc, tagk_real x, tagk_real y)
{
	return acc + x * y;
}
static inline tagk_real
tagk_mls(tagk_real acc, tagk_real x, tagk_real y)
{
	return acc - x * y;
}
#endif

/* x . y over n entries. Inline: it is the innermost loop of every method.
 * Four independent partial sums cut the loop overhead and the dependency
 * chain of the additions; the order of the sums is fixed, so the result is
 * the same on every run. */
static inline tagk_real
tagk_dot(int n, const tagk_real *x, const tagk_real *y)
{
	tagk_real s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	int i = 0;
	for (; i + 4 <= n; i += 4) {
		s0 = tagk_mla(s0, x[i], y[i]);
		s1 = tagk_mla(s1, x[i + 1], y[i + 1]);
		s2 = tagk_mla(s2, x[i + 2], y[i + 2]);
		s3 = tagk_mla(s3, x[i + 3], y[i + 3]);
	}
	for (; i < n; i++)
		s0 = tagk_mla(s0, x[i], y[i]);
	return (s0 + s1) + (s2 + s3);
}
/* out[j] = tagk_dot(n, x[j], z) for j = 0..3, the same bits, faster: each
 * load of z serves four rows and the sixteen partial sums hide the adds'
 * latency (GCC's generic vectors where the compiler has them; four
 * tagk_dot calls elsewhere and on the Cortex-M7, whose sixteen double
 * registers would not hold the sums). */
void tagk_dot4(int n, const tagk_real *const x[4], const tagk_real *z, tagk_real out[4]);
/* y = A x, A m x n. */
void tagk_gemv(int m, int n, const tagk_real *A, const tagk_real *x, tagk_real *y);
/* r = b - A x, A m x n. r may alias b. */
void tagk_residual(int m, int n, const tagk_real *A, const tagk_real *x,
    const tagk_real *b, tagk_real *r);
/* y = A^T x, A m x n, x of length m, y of length n. */
void tagk_gemv_t(int m, int n, const tagk_real *A, const tagk_real *x, tagk_real *y);
/* C = A B; A m x k, B k x n, C m x n. */
void tagk_matmul(int m, int k, int n, const tagk_real *A, const tagk_real *B, tagk_real *C);
/* C = A B^T; A m x k, B n x k, C m x n. */
void tagk_matmul_nt(int m, int k, int n, const tagk_real *A, const tagk_real *B, tagk_real *C);
/* C = A B^T for a product known to be symmetric (A P A^T as (A P) A^T): the
 * upper triangle computed as tagk_matmul_nt would, then mirrored; half
 * the work, and the bits of tagk_matmul_nt followed by tagk_symmetrize. */
void tagk_matmul_nt_sym(int m, int k, const tagk_real *A, const tagk_real *B, tagk_real *C);
/* C -= A^T B; A m x n, B m x n, C n x n; only C's upper triangle (j >= i)
 * when upper is non-zero, the lower then left alone. Each entry's
 * subtractions in the order p = 0, 1, ..., m - 1 of the plain loop, so the
 * bits do not depend on the blocking. */
void tagk_sub_tn(int m, int n, const tagk_real *A, const tagk_real *B, int upper, tagk_real *C);
/* C = beta C + A^T A; A m x n, C n x n symmetric (full storage, both halves written). */
void tagk_syrk_t(int m, int n, const tagk_real *A, tagk_real beta, tagk_real *C);
/* Copy the upper triangle of the n x n matrix S onto its lower triangle. */
void tagk_symmetrize(int n, tagk_real *S);

/*
 * In-place Cholesky S = L L^T of the n x n symmetric matrix S (only the lower
 * triangle is read). On TAGK_OK the lower triangle holds L and the strict upper
 * triangle is zeroed. Returns TAGK_ENOTPD when a pivot is not positive and
 * finite; S is then partly overwritten (callers factor a copy).
 */
tagk_status tagk_cholesky(int n, tagk_real *S);
/* Solve L X = B in place (B n x k, overwritten by X); L lower triangular n x n. */
void tagk_trsm_lower(int n, int k, const tagk_real *L, tagk_real *B);
/* Solve L^T X = B in place (B n x k, overwritten by X). */
void tagk_trsm_lower_t(int n, int k, const tagk_real *L, tagk_real *B);
/* Solve (L L^T) X = B in place, given the Cholesky factor L. */
void tagk_cholesky_solve(int n, int k, const tagk_real *L, tagk_real *B);

/*
 * Eigen-decomposition of a small symmetric n x n matrix S by cyclic Jacobi
 * rotations (accurate to working precision; meant for n <= 8). S is read only.
 * On return w[0..n-1] holds the eigenvalues in ascending order and, if V is not
 * NULL, column j of the n x n matrix V the unit eigenvector of w[j].
 * scratch must hold n * n reals. Returns TAGK_ENONFINITE if S has NaN or Inf.
 */
tagk_status tagk_symeig(int n, const tagk_real *S, tagk_real *w, tagk_real *V,
    tagk_real *scratch);
/* Eigenvalues (ascending) of a symmetric 3 x 3 matrix; no scratch needed. */
tagk_status tagk_symeig3(const tagk_real S[9], tagk_real w[3]);

/*
 * E = exp(A) for the n x n matrix A: scaling and squaring, with the Taylor
 * series of the scaled matrix summed until its terms fall below working
 * precision. A must be finite; E may not alias A. scratch: 2 n n reals.
 */
void tagk_expm(int n, const tagk_real *A, tagk_real *E, tagk_real *scratch);
/* 1 if all n entries are finite, else 0. */
int tagk_all_finite(int n, const tagk_real *x);

/* The checks every estimator makes on a window A (m x n), b (m) before it
 * touches its state: TAGK_EINVAL for a null pointer or m outside
 * [1, m_max], TAGK_ENONFINITE for NaN or Inf, TAGK_EZERO when every entry of
 * A is zero; TAGK_OK otherwise. */
tagk_status tagk_check_window(const tagk_real *A, const tagk_real *b, int m, int m_max, int n);

#ifdef __cplusplus
}
#endif

#endif
