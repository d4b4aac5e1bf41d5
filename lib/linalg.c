/* linalg.c: dense kernels for the estimators; see linalg.h for contracts. */
#include <string.h>
#include "linalg.h"

/* Columns per pass of the triangular solves (trsm_row): as many partial
 * results as the registers hold, twelve doubles in six SSE2 registers;
 * on the M7's sixteen double registers a pass of four. */
#if defined(__ARM_ARCH_7EM__)
#define TRSM_W 4
#define TRSM_CASES TRSM_CASE(1) TRSM_CASE(2) TRSM_CASE(3) TRSM_CASE(4)
#else
#define TRSM_W 12
#define TRSM_CASES TRSM_CASE(1) TRSM_CASE(2) TRSM_CASE(3) TRSM_CASE(4) TRSM_CASE(5) TRSM_CASE(6) \
	TRSM_CASE(7) TRSM_CASE(8) TRSM_CASE(9) TRSM_CASE(10) TRSM_CASE(11) TRSM_CASE(12)
#endif

void
tagk_gemv(int m, int n, const tagk_real *A, const tagk_real *x, tagk_real *y)
{
	for (int i = 0; i < m; i++)
		y[i] = tagk_dot(n, A + (long)i * n, x);
}

#if defined(__GNUC__) && !defined(__ARM_ARCH_7EM__)
/* sixteen bytes, the SSE2 and NEON width: two doubles or four floats. Lane
 * l of row j's sums is tagk_dot's s_l, the tail goes to s_0 as there, and
 * the lanes are added in its order: tagk_dot's bits (test_linalg checks,
 * tests/m7_test.sh against the M7's scalar code). The lanes are read by
 * subscript: taking the vectors' addresses kept them in memory through the
 * loop, 1.3x slower than tagk_dot. */
typedef tagk_real la_vec __attribute__((vector_size(16)));

static inline la_vec
la_load(const tagk_real *p)
{
	la_vec v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline tagk_real
la_finish(tagk_real s0, tagk_real s1, tagk_real s2, tagk_real s3, int k, int n, const tagk_real *x,
    const tagk_real *z)
{
	for (; k < n; k++)
		s0 += x[k] * z[k];
	return (s0 + s1) + (s2 + s3);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(TAGK_FLOAT)
/* On an x86-64 CPU with AVX2, chosen at run time (tagk_dot4): the four
 * partial sums of a row in one 32-byte register, lane l tagk_dot's s_l,
 * so that each pass loads z and each row once where the 16-byte code
 * loads each twice. Multiplies and adds stay separate (target "avx2"
 * alone, no FMA: nothing can be contracted), so the bits are the 16-byte
 * code's and tagk_dot's (test_linalg). TAG-K at n = 120 from 12.9 to
 * 12.1 us per update (make bench-eigen, paired runs); with kaczmarz.c's
 * AVX2 row norms and rebuild, 10.8 us. */
typedef double la_vec4 __attribute__((vector_size(32)));

__attribute__((target("avx2"))) static inline la_vec4
la_load4(const double *p)
{
	la_vec4 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

__attribute__((target("avx2"))) static void
dot4_avx2(int n, const double *x0, const double *x1, const double *x2, const double *x3, const double *z,
    double out[4])
{
	la_vec4 a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 };
	int k = 0;
	for (; k + 4 <= n; k += 4) {
		la_vec4 zv = la_load4(z + k);
		a0 += la_load4(x0 + k) * zv;
		a1 += la_load4(x1 + k) * zv;
		a2 += la_load4(x2 + k) * zv;
		a3 += la_load4(x3 + k) * zv;
	}
	/* la_finish on the four rows side by side, the lanes transposed:
	 * each operation is one row's, so the same bits (TAG-K at n = 10
	 * from 4.2 to 4.1 us per update) */
	la_vec4 l0 = { a0[0], a1[0], a2[0], a3[0] }, l1 = { a0[1], a1[1], a2[1], a3[1] };
	la_vec4 l2 = { a0[2], a1[2], a2[2], a3[2] }, l3 = { a0[3], a1[3], a2[3], a3[3] };
	for (; k < n; k++) {
		la_vec4 xk = { x0[k], x1[k], x2[k], x3[k] }, zk = { z[k], z[k], z[k], z[k] };
		l0 += xk * zk;
	}
	la_vec4 t = (l0 + l1) + (l2 + l3);
	memcpy(out, &t, sizeof(t));
}
#define LA_AVX2 1
#endif

void
tagk_dot4(int n, const tagk_real *const x[4], const tagk_real *z, tagk_real out[4])
{
	const tagk_real *x0 = x[0], *x1 = x[1], *x2 = x[2], *x3 = x[3];
	const la_vec zero = { 0 };
	int k = 0;
#if defined(LA_AVX2)
	if (n >= 8 && __builtin_cpu_supports("avx2")) {
		dot4_avx2(n, x0, x1, x2, x3, z, out);
		return;
	}
#endif
#ifdef TAGK_FLOAT
	la_vec a0 = zero, a1 = zero, a2 = zero, a3 = zero;
	for (; k + 4 <= n; k += 4) {
		la_vec zv = la_load(z + k);
		a0 += la_load(x0 + k) * zv;
		a1 += la_load(x1 + k) * zv;
		a2 += la_load(x2 + k) * zv;
		a3 += la_load(x3 + k) * zv;
	}
	out[0] = la_finish(a0[0], a0[1], a0[2], a0[3], k, n, x0, z);
	out[1] = la_finish(a1[0], a1[1], a1[2], a1[3], k, n, x1, z);
	out[2] = la_finish(a2[0], a2[1], a2[2], a2[3], k, n, x2, z);
	out[3] = la_finish(a3[0], a3[1], a3[2], a3[3], k, n, x3, z);
#else
	la_vec l0 = zero, l1 = zero, l2 = zero, l3 = zero, h0 = zero, h1 = zero, h2 = zero, h3 = zero;
	for (; k + 4 <= n; k += 4) {
		la_vec zl = la_load(z + k), zh = la_load(z + k + 2);
		l0 += la_load(x0 + k) * zl;
		h0 += la_load(x0 + k + 2) * zh;
		l1 += la_load(x1 + k) * zl;
		h1 += la_load(x1 + k + 2) * zh;
		l2 += la_load(x2 + k) * zl;
		h2 += la_load(x2 + k + 2) * zh;
		l3 += la_load(x3 + k) * zl;
		h3 += la_load(x3 + k + 2) * zh;
	}
	out[0] = la_finish(l0[0], l0[1], h0[0], h0[1], k, n, x0, z);
	out[1] = la_finish(l1[0], l1[1], h1[0], h1[1], k, n, x1, z);
	out[2] = la_finish(l2[0], l2[1], h2[0], h2[1], k, n, x2, z);
	out[3] = la_finish(l3[0], l3[1], h3[0], h3[1], k, n, x3, z);
#endif
}
#else
void
tagk_dot4(int n, const tagk_real *const x[4], const tagk_real *z, tagk_real out[4])
{
	for (int j = 0; j < 4; j++)
		out[j] = tagk_dot(n, x[j], z);
}
#endif

void
tagk_residual(int m, int n, const tagk_real *A, const tagk_real *x,
    const tagk_real *b, tagk_real *r)
{
	for (int i = 0; i < m; i++)
		r[i] = b[i] - tagk_dot(n, A + (long)i * n, x);
}

void
tagk_gemv_t(int m, int n, const tagk_real *A, const tagk_real *x, tagk_real *y)
{
	for (int j = 0; j < n; j++)
		y[j] = 0;
	for (int i = 0; i < m; i++) {
		const tagk_real *a = A + (long)i * n;
		tagk_real xi = x[i];
		if (xi == 0)
			continue;
		for (int j = 0; j < n; j++)
			y[j] = tagk_mla(y[j], xi, a[j]);
	}
}

/* Rows i0 and i0 + 1 of C = A B (two when two is non-zero) for a C of w
 * columns, w a constant after inlining: the 2 w sums stay in registers
 * through the loop over p, 2 w independent chains, each entry's additions
 * in the plain loop's order (from 0, p ascending): the same bits. */
static inline __attribute__((always_inline)) void
matmul_narrow(int w, int two, int k, const tagk_real *restrict a0, const tagk_real *restrict B, tagk_real *restrict c0)
{
	tagk_real s0[TRSM_W], s1[TRSM_W];
	for (int c = 0; c < w; c++)
		s0[c] = s1[c] = 0;
	const tagk_real *a1 = a0 + k;
	for (int p = 0; p < k; p++) {
		const tagk_real *b = B + (long)p * w, x0 = a0[p], x1 = two ? a1[p] : 0;
		for (int c = 0; c < w; c++) {
			s0[c] = tagk_mla(s0[c], x0, b[c]);
			if (two)
				s1[c] = tagk_mla(s1[c], x1, b[c]);
		}
	}
	for (int c = 0; c < w; c++) {
		c0[c] = s0[c];
		if (two)
			c0[w + c] = s1[c];
	}
}

/* C = A B with at most TRSM_W columns (the 3 x 3, 9 x 9 and 10 x 10
 * products of the state-space filters): two rows at a time in registers. */
static void
matmul_narrow_all(int m, int k, int n, const tagk_real *A, const tagk_real *B, tagk_real *C)
{
	for (int i = 0; i < m; i += 2) {
		const tagk_real *a = A + (long)i * k;
		tagk_real *c = C + (long)i * n;
		int two = i + 1 < m;
		switch (n) {
#define TRSM_CASE(W) case W: if (two) matmul_narrow(W, 1, k, a, B, c); else matmul_narrow(W, 0, k, a, B, c); break;
		TRSM_CASES
#undef TRSM_CASE
		default:
			break;
		}
	}
}

/* Four rows of C at a time, so that each row of B loaded serves four
 * (the product is bound by loading B, not by arithmetic); every entry's
 * operations stay in the order of the plain loop below (p ascending from
 * 0), so the results are the same bits. */
void
tagk_matmul(int m, int k, int n, const tagk_real *A, const tagk_real *B, tagk_real *C)
{
	if (n <= TRSM_W) {
		matmul_narrow_all(m, k, n, A, B, C);
		return;
	}
	int i0 = 0;
	for (; i0 + 4 <= m; i0 += 4) {
		tagk_real *restrict c0 = C + (long)i0 * n, *restrict c1 = c0 + n, *restrict c2 = c1 + n,
		    *restrict c3 = c2 + n;
		const tagk_real *a = A + (long)i0 * k;
		for (int j = 0; j < n; j++)
			c0[j] = c1[j] = c2[j] = c3[j] = 0;
		for (int p = 0; p < k; p++) {
			const tagk_real a0 = a[p], a1 = a[k + p], a2 = a[2 * k + p], a3 = a[3 * k + p];
			const tagk_real *restrict b = B + (long)p * n;
			for (int j = 0; j < n; j++) {
				tagk_real bj = b[j];
				c0[j] = tagk_mla(c0[j], a0, bj);
				c1[j] = tagk_mla(c1[j], a1, bj);
				c2[j] = tagk_mla(c2[j], a2, bj);
				c3[j] = tagk_mla(c3[j], a3, bj);
			}
		}
	}
	for (int i = i0; i < m; i++) {
		tagk_real *c = C + (long)i * n;
		for (int j = 0; j < n; j++)
			c[j] = 0;
		for (int p = 0; p < k; p++) {
			tagk_real a = A[(long)i * k + p];
			const tagk_real *b = B + (long)p * n;
			for (int j = 0; j < n; j++)
				c[j] = tagk_mla(c[j], a, b[j]);
		}
	}
}

/* C[i][j0..j1) = A_i . B_j, four j at a time (tagk_dot4: tagk_dot's bits) */
static void
row_dots(int k, const tagk_real *ai, const tagk_real *B, int j0, int j1, tagk_real *ci)
{
	int j = j0;
	for (; j + 4 <= j1; j += 4) {
		const tagk_real *rows[4] = { B + (long)j * k, B + (long)(j + 1) * k, B + (long)(j + 2) * k,
			B + (long)(j + 3) * k };
		tagk_dot4(k, rows, ai, ci + j);
	}
	for (; j < j1; j++)
		ci[j] = tagk_dot(k, ai, B + (long)j * k);
}

void
tagk_matmul_nt(int m, int k, int n, const tagk_real *A, const tagk_real *B, tagk_real *C)
{
	for (int i = 0; i < m; i++)
		row_dots(k, A + (long)i * k, B, 0, n, C + (long)i * n);
}

void
tagk_matmul_nt_sym(int m, int k, const tagk_real *A, const tagk_real *B, tagk_real *C)
{
	for (int i = 0; i < m; i++)
		row_dots(k, A + (long)i * k, B, i, m, C + (long)i * m);
	tagk_symmetrize(m, C);
}

void
tagk_syrk_t(int m, int n, const tagk_real *A, tagk_real beta, tagk_real *C)
{
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++)
			C[(long)i * n + j] *= beta;
	/* Four rows of A at a time: each entry of C is loaded and stored once
	 * per four, its additions still in the order p = 0, 1, ... and the rows
	 * with a_pi = 0 still skipped, so the bits are the plain loop's
	 * (test_blocked_kernels_keep_bits). */
	int p = 0;
	for (; p + 4 <= m; p += 4) {
		const tagk_real *a[4] = { A + (long)p * n, A + (long)(p + 1) * n, A + (long)(p + 2) * n,
			A + (long)(p + 3) * n };
		for (int i = 0; i < n; i++) {
			const tagk_real *act[4];
			tagk_real w[4];
			int na = 0;
			for (int q = 0; q < 4; q++)
				if (a[q][i] != 0) {
					act[na] = a[q];
					w[na++] = a[q][i];
				}
			tagk_real *c = C + (long)i * n;
			switch (na) {
			case 4:
				for (int j = i; j < n; j++)
					c[j] = tagk_mla(tagk_mla(tagk_mla(tagk_mla(c[j], w[0], act[0][j]), w[1], act[1][j]), w[2],
					    act[2][j]), w[3], act[3][j]);
				break;
			case 3:
				for (int j = i; j < n; j++)
					c[j] = tagk_mla(tagk_mla(tagk_mla(c[j], w[0], act[0][j]), w[1], act[1][j]), w[2], act[2][j]);
				break;
			case 2:
				for (int j = i; j < n; j++)
					c[j] = tagk_mla(tagk_mla(c[j], w[0], act[0][j]), w[1], act[1][j]);
				break;
			case 1:
				for (int j = i; j < n; j++)
					c[j] = tagk_mla(c[j], w[0], act[0][j]);
				break;
			default:
				break;
			}
		}
	}
	for (; p < m; p++) {
		const tagk_real *a = A + (long)p * n;
		for (int i = 0; i < n; i++) {
			tagk_real ai = a[i];
			if (ai == 0)
				continue;
			tagk_real *c = C + (long)i * n;
			for (int j = i; j < n; j++)
				c[j] = tagk_mla(c[j], ai, a[j]);
		}
	}
	tagk_symmetrize(n, C);
}

/* Four rows of A and B at a time, as in tagk_syrk_t: each entry of C loaded
 * and stored once per four products, not once per product, the four
 * subtractions chained in p order. */
void
tagk_sub_tn(int m, int n, const tagk_real *A, const tagk_real *B, int upper, tagk_real *C)
{
	int p = 0;
	for (; p + 4 <= m; p += 4) {
		const tagk_real *a = A + (long)p * n, *restrict b0 = B + (long)p * n, *restrict b1 = b0 + n,
		    *restrict b2 = b1 + n, *restrict b3 = b2 + n;
		for (int i = 0; i < n; i++) {
			const tagk_real w0 = a[i], w1 = a[n + i], w2 = a[2 * n + i], w3 = a[3 * n + i];
			tagk_real *restrict c = C + (long)i * n;
			for (int j = upper ? i : 0; j < n; j++)
				c[j] = tagk_mls(tagk_mls(tagk_mls(tagk_mls(c[j], w0, b0[j]), w1, b1[j]), w2, b2[j]), w3, b3[j]);
		}
	}
	for (; p < m; p++) {
		const tagk_real *a = A + (long)p * n, *b = B + (long)p * n;
		for (int i = 0; i < n; i++) {
			tagk_real w = a[i], *c = C + (long)i * n;
			for (int j = upper ? i : 0; j < n; j++)
				c[j] = tagk_mls(c[j], w, b[j]);
		}
	}
}

void
tagk_symmetrize(int n, tagk_real *S)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			S[(long)j * n + i] = S[(long)i * n + j];
}

tagk_status
tagk_cholesky(int n, tagk_real *S)
{
	for (int j = 0; j < n; j++) {
		tagk_real *sj = S + (long)j * n;
		tagk_real d = sj[j] - tagk_dot(j, sj, sj);
		if (!(d > 0) || !tagk_isfinite(d))
			return TAGK_ENOTPD;
		d = tagk_sqrt(d);
		sj[j] = d;
		int i = j + 1;
		for (; i + 4 <= n; i += 4) {
			const tagk_real *rows[4] = { S + (long)i * n, S + (long)(i + 1) * n, S + (long)(i + 2) * n,
				S + (long)(i + 3) * n };
			tagk_real dots[4];
			tagk_dot4(j, rows, sj, dots);
			for (int q = 0; q < 4; q++)
				S[(long)(i + q) * n + j] = (S[(long)(i + q) * n + j] - dots[q]) / d;
		}
		for (; i < n; i++) {
			tagk_real *si = S + (long)i * n;
			si[j] = (si[j] - tagk_dot(j, si, sj)) / d;
		}
		for (int c = j + 1; c < n; c++)
			sj[c] = 0;
	}
	return TAGK_OK;
}

/* One row of a triangular solve, columns [0, w) of bi and of the rows B_p
 * (row stride k): bi = (bi - sum of l_q B_p) * inv over the np rows
 * p = p0, p0 + 1, ... with l_q = l[q * step], rows with l_q = 0 skipped as
 * in the plain loop, every entry's operations in the plain loop's order:
 * the same bits. With w a constant, the w partial results stay in
 * registers through the loop over p, w independent chains of subtractions;
 * the plain loop kept them in memory, one chain per column at the latency
 * of a store and a reload per p. */
static inline __attribute__((always_inline)) void
trsm_cols(int w, int k, tagk_real *restrict bi, const tagk_real *restrict B, const tagk_real *l, long step, int p0,
    int np, tagk_real inv)
{
	tagk_real acc[TRSM_W];
	for (int c = 0; c < w; c++)
		acc[c] = bi[c];
	for (int q = 0; q < np; q++) {
		tagk_real lq = l[q * step];
		if (lq == 0)
			continue;
		const tagk_real *bp = B + (long)(p0 + q) * k;
		for (int c = 0; c < w; c++)
			acc[c] = tagk_mls(acc[c], lq, bp[c]);
	}
	for (int c = 0; c < w; c++)
		bi[c] = acc[c] * inv;
}

static void
trsm_row(int k, tagk_real *bi, const tagk_real *B, const tagk_real *l, long step, int p0, int np, tagk_real inv)
{
	for (int c0 = 0; c0 < k; c0 += TRSM_W) {
		int w = k - c0 < TRSM_W ? k - c0 : TRSM_W;
		switch (w) {
#define TRSM_CASE(W) case W: trsm_cols(W, k, bi + c0, B + c0, l, step, p0, np, inv); break;
		TRSM_CASES
#undef TRSM_CASE
		default:
			break;
		}
	}
}

void
tagk_trsm_lower(int n, int k, const tagk_real *L, tagk_real *B)
{
	for (int i = 0; i < n; i++) {
		const tagk_real *li = L + (long)i * n;
		trsm_row(k, B + (long)i * k, B, li, 1, 0, i, (tagk_real)1 / li[i]);
	}
}

void
tagk_trsm_lower_t(int n, int k, const tagk_real *L, tagk_real *B)
{
	for (int i = n - 1; i >= 0; i--)
		trsm_row(k, B + (long)i * k, B, L + (long)(i + 1) * n + i, n, i + 1, n - 1 - i,
		    (tagk_real)1 / L[(long)i * n + i]);
}

void
tagk_cholesky_solve(int n, int k, const tagk_real *L, tagk_real *B)
{
	tagk_trsm_lower(n, k, L, B);
	tagk_trsm_lower_t(n, k, L, B);
}

int
tagk_all_finite(int n, const tagk_real *x)
{
	for (int i = 0; i < n; i++)
		if (!tagk_isfinite(x[i]))
			return 0;
	return 1;
}

tagk_status
tagk_check_window(const tagk_real *A, const tagk_real *b, int m, int m_max, int n)
{
	if (!A || !b || m < 1 || m > m_max)
		return TAGK_EINVAL;
	if (!tagk_all_finite(m * n, A) || !tagk_all_finite(m, b))
		return TAGK_ENONFINITE;
	for (int i = 0; i < m * n; i++)
		if (A[i] != 0)
			return TAGK_OK;
	return TAGK_EZERO;
}

tagk_status
tagk_symeig(int n, const tagk_real *S, tagk_real *w, tagk_real *V, tagk_real *a)
{
	if (!tagk_all_finite(n * n, S))
		return TAGK_ENONFINITE;
	memcpy(a, S, sizeof(*a) * (size_t)n * (size_t)n);
	if (V)
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				V[i * n + j] = (i == j);
	/* Cyclic Jacobi: each sweep zeroes every off-diagonal pair once; the
	 * off-diagonal mass falls quadratically, so 50 sweeps is never reached
	 * for finite input. */
	for (int sweep = 0; sweep < 50; sweep++) {
		tagk_real off = 0, diag = 0;
		for (int i = 0; i < n; i++) {
			diag += a[i * n + i] * a[i * n + i];
			for (int j = i + 1; j < n; j++)
				off += a[i * n + j] * a[i * n + j];
		}
		if (off == 0 || off <= TAGK_EPS * TAGK_EPS * diag)
			break;
		for (int p = 0; p < n; p++) {
			for (int q = p + 1; q < n; q++) {
				tagk_real apq = a[p * n + q];
				if (apq == 0)
					continue;
				tagk_real app = a[p * n + p], aqq = a[q * n + q];
				tagk_real theta = (aqq - app) / (2 * apq);
				tagk_real t = (theta >= 0 ? 1 : -1) /
				    (tagk_fabs(theta) + tagk_sqrt(theta * theta + 1));
				tagk_real c = 1 / tagk_sqrt(t * t + 1), s = t * c;
				for (int k = 0; k < n; k++) {
					tagk_real akp = a[k * n + p], akq = a[k * n + q];
					a[k * n + p] = c * akp - s * akq;
					a[k * n + q] = s * akp + c * akq;
				}
				for (int k = 0; k < n; k++) {
					tagk_real apk = a[p * n + k], aqk = a[q * n + k];
					a[p * n + k] = c * apk - s * aqk;
					a[q * n + k] = s * apk + c * aqk;
				}
				a[p * n + q] = a[q * n + p] = 0;
				if (V)
					for (int k = 0; k < n; k++) {
						tagk_real vkp = V[k * n + p], vkq = V[k * n + q];
						V[k * n + p] = c * vkp - s * vkq;
						V[k * n + q] = s * vkp + c * vkq;
					}
			}
		}
	}
	for (int i = 0; i < n; i++)
		w[i] = a[i * n + i];
	/* Insertion sort, carrying eigenvector columns along. */
	for (int i = 1; i < n; i++) {
		for (int j = i; j > 0 && w[j - 1] > w[j]; j--) {
			tagk_real t = w[j]; w[j] = w[j - 1]; w[j - 1] = t;
			if (V)
				for (int k = 0; k < n; k++) {
					t = V[k * n + j];
					V[k * n + j] = V[k * n + j - 1];
					V[k * n + j - 1] = t;
				}
		}
	}
	return TAGK_OK;
}

tagk_status
tagk_symeig3(const tagk_real S[9], tagk_real w[3])
{
	tagk_real scratch[9];
	return tagk_symeig(3, S, w, NULL, scratch);
}

void
tagk_expm(int n, const tagk_real *A, tagk_real *E, tagk_real *scratch)
{
	tagk_real *T = scratch, *U = scratch + n * n, norm = 0;
	for (int j = 0; j < n; j++) {
		tagk_real c = 0;
		for (int i = 0; i < n; i++)
			c += tagk_fabs(A[i * n + j]);
		if (c > norm)
			norm = c;
	}
	int s = 0;
	tagk_real scale = 1;
	while (norm * scale > (tagk_real)0.5 && s < 60) {
		scale /= 2;
		s++;
	}
	/* E = I + B, T = B; then T <- T B / k and E += T until T is negligible;
	 * with ||B|| <= 1/2 the k-th term is below 2^-k / k!, so this stops by
	 * k = 18 in double. */
	for (int i = 0; i < n * n; i++) {
		T[i] = A[i] * scale;
		E[i] = T[i] + (tagk_real)(i % (n + 1) == 0);
	}
	for (int k = 2; k < 30; k++) {
		tagk_matmul(n, n, n, T, A, U);
		tagk_real tmax = 0, emax = 0, f = scale / (tagk_real)k;
		for (int i = 0; i < n * n; i++) {
			T[i] = U[i] * f;
			E[i] += T[i];
			if (tagk_fabs(T[i]) > tmax)
				tmax = tagk_fabs(T[i]);
			if (tagk_fabs(E[i]) > emax)
				emax = tagk_fabs(E[i]);
		}
		if (tmax <= TAGK_EPS * emax)
			break;
	}
	for (int k = 0; k < s; k++) {
		tagk_matmul(n, n, n, E, E, U);
		for (int i = 0; i < n * n; i++)
			E[i] = U[i];
	}
}
