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
#define TAGK_M7_VMLA 1
/* For the loops written in assembly on the M7 (here and in kaczmarz.c),
 * one text for both precisions: the type suffix, two banks of four
 * scratch registers (d8-d15, or s16-s23: callee-saved, so the compiler
 * saves them once per function), the operand syntax and its constraint. */
#ifdef TAGK_FLOAT
#define M7_T "f32"
#define M7_X "{s16-s19}"
#define M7_Y "{s20-s23}"
#define M7_X0 "s16"
#define M7_X1 "s17"
#define M7_X2 "s18"
#define M7_X3 "s19"
#define M7_Y0 "s20"
#define M7_Y1 "s21"
#define M7_Y2 "s22"
#define M7_Y3 "s23"
#define M7_ARG(n) "%[" #n "]"
#define M7_REG "t"
#define M7_CLOBBER "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "cc"
/* eight accumulators, for kernels that keep their sums in fixed registers */
#define M7_ACC "{s0-s7}"
#define M7_A0 "s0"
#define M7_A1 "s1"
#define M7_A2 "s2"
#define M7_A3 "s3"
#define M7_B0 "s4"
#define M7_B1 "s5"
#define M7_B2 "s6"
#define M7_B3 "s7"
#define M7_ACC_CLOBBER "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"
#else
#define M7_T "f64"
#define M7_X "{d8-d11}"
#define M7_Y "{d12-d15}"
#define M7_X0 "d8"
#define M7_X1 "d9"
#define M7_X2 "d10"
#define M7_X3 "d11"
#define M7_Y0 "d12"
#define M7_Y1 "d13"
#define M7_Y2 "d14"
#define M7_Y3 "d15"
#define M7_ARG(n) "%P[" #n "]"
#define M7_REG "w"
#define M7_CLOBBER "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "cc"
#define M7_ACC "{d0-d7}"
#define M7_A0 "d0"
#define M7_A1 "d1"
#define M7_A2 "d2"
#define M7_A3 "d3"
#define M7_B0 "d4"
#define M7_B1 "d5"
#define M7_B2 "d6"
#define M7_B3 "d7"
#define M7_ACC_CLOBBER "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"
#endif
/* read-only and read-write memory operands for an array of unknown length */
#define M7_IN(p) "m"(*(const tagk_real(*)[])(p))
#define M7_INOUT(p) "+m"(*(tagk_real(*)[])(p))
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
#if defined(TAGK_M7_VMLA)
	/* On the M7: four entries of each vector in one VLDM each and four
	 * VMLA, the loop in assembly (8 instructions per 4 multiply-adds
	 * where the compiler's loop takes 14); s_l takes entries i + l as
	 * below, so the bits are the same. */
	if (n >= 4) {
		int k = n >> 2;
		const tagk_real *px = x, *py = y;
		__asm__("1:\n\t"
			"vldmia %[x]!, " M7_X "\n\t"
			"vldmia %[y]!, " M7_Y "\n\t"
			"vmla." M7_T " " M7_ARG(a) ", " M7_X0 ", " M7_Y0 "\n\t"
			"vmla." M7_T " " M7_ARG(b) ", " M7_X1 ", " M7_Y1 "\n\t"
			"vmla." M7_T " " M7_ARG(c) ", " M7_X2 ", " M7_Y2 "\n\t"
			"vmla." M7_T " " M7_ARG(d) ", " M7_X3 ", " M7_Y3 "\n\t"
			"subs %[k], %[k], #1\n\t"
			"bne 1b"
			: [a] "+" M7_REG(s0), [b] "+" M7_REG(s1), [c] "+" M7_REG(s2), [d] "+" M7_REG(s3), [x] "+r"(px),
			  [y] "+r"(py), [k] "+r"(k)
			: M7_IN(x), M7_IN(y)
			: M7_CLOBBER);
		i = n & ~3;
	}
#endif
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
