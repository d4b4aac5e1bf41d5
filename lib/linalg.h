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
	 * below, so the bits are the same. d8-d15 (s16-s23) are the loads. */
	if (n >= 4) {
		int k = n >> 2;
		const tagk_real *px = x, *py = y;
#ifdef TAGK_FLOAT
		__asm__("1:\n\t"
			"vldmia %[x]!, {s16-s19}\n\t"
			"vldmia %[y]!, {s20-s23}\n\t"
			"vmla.f32 %[a], s16, s20\n\t"
			"vmla.f32 %[b], s17, s21\n\t"
			"vmla.f32 %[c], s18, s22\n\t"
			"vmla.f32 %[d], s19, s23\n\t"
			"subs %[k], %[k], #1\n\t"
			"bne 1b"
			: [a] "+t"(s0), [b] "+t"(s1), [c] "+t"(s2), [d] "+t"(s3), [x] "+r"(px), [y] "+r"(py), [k] "+r"(k)
			: "m"(*(const tagk_real(*)[])x), "m"(*(const tagk_real(*)[])y)
			: "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "cc");
#else
		__asm__("1:\n\t"
			"vldmia %[x]!, {d8-d11}\n\t"
			"vldmia %[y]!, {d12-d15}\n\t"
			"vmla.f64 %P[a], d8, d12\n\t"
			"vmla.f64 %P[b], d9, d13\n\t"
			"vmla.f64 %P[c], d10, d14\n\t"
			"vmla.f64 %P[d], d11, d15\n\t"
			"subs %[k], %[k], #1\n\t"
			"bne 1b"
			: [a] "+w"(s0), [b] "+w"(s1), [c] "+w"(s2), [d] "+w"(s3), [x] "+r"(px), [y] "+r"(py), [k] "+r"(k)
			: "m"(*(const tagk_real(*)[])x), "m"(*(const tagk_real(*)[])y)
			: "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "cc");
#endif
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
