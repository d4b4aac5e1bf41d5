/* test_linalg.c: kernels checked against identities on random inputs. */
#include <math.h>
#include <string.h>
#include "testutil.h"

/* Random SPD matrix S = B B^T + n I (n x n). */
static void
random_spd(tagk_rng *g, int n, tagk_real *S)
{
	tagk_real B[64 * 64];
	fill_gauss(g, n * n, B);
	tagk_matmul_nt(n, n, n, B, B, S);
	for (int i = 0; i < n; i++)
		S[i * n + i] += (tagk_real)n;
}

static void
test_products_match_loops(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 1);
	enum { M = 7, K = 5, N = 4 };
	tagk_real A[M * K], B[K * N], Bt[N * K], C[M * N], C2[M * N], x[K], y[M], yt[K];
	fill_gauss(&g, M * K, A);
	fill_gauss(&g, K * N, B);
	fill_gauss(&g, K, x);
	for (int i = 0; i < K; i++)
		for (int j = 0; j < N; j++)
			Bt[j * K + i] = B[i * N + j];
	tagk_matmul(M, K, N, A, B, C);
	tagk_matmul_nt(M, K, N, A, Bt, C2);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			long double s = 0;
			for (int p = 0; p < K; p++)
				s += (long double)A[i * K + p] * B[p * N + j];
			assert_true(fabsl(C[i * N + j] - s) < TOL_TIGHT);
			assert_true(fabsl(C2[i * N + j] - s) < TOL_TIGHT);
		}
	tagk_gemv(M, K, A, x, y);
	for (int i = 0; i < M; i++) {
		long double s = 0;
		for (int p = 0; p < K; p++)
			s += (long double)A[i * K + p] * x[p];
		assert_true(fabsl(y[i] - s) < TOL_TIGHT);
	}
	/* <A^T y, x> = <y, A x> */
	tagk_gemv_t(M, K, A, y, yt);
	long double l = 0, r = 0;
	for (int i = 0; i < K; i++)
		l += (long double)yt[i] * x[i];
	for (int i = 0; i < M; i++)
		r += (long double)y[i] * y[i];
	assert_true(fabsl(l - r) < TOL_TIGHT * (1 + fabsl(r)));
	/* syrk: C = A^T A */
	tagk_real G[K * K] = { 0 };
	tagk_syrk_t(M, K, A, 0, G);
	for (int i = 0; i < K; i++)
		for (int j = 0; j < K; j++) {
			long double s = 0;
			for (int p = 0; p < M; p++)
				s += (long double)A[p * K + i] * A[p * K + j];
			assert_true(fabsl(G[i * K + j] - s) < TOL_TIGHT * 10);
		}
}

/* tagk_matmul (four rows at a time) against the row-by-row loop with p
 * ascending, at shapes with and without a remainder of rows. */
static void
matmul_keeps_bits(tagk_rng *g)
{
	static tagk_real A[33 * 21], B[21 * 19], C[33 * 19], C2[33 * 19];
	const int shapes[][3] = { { 33, 21, 19 }, { 4, 3, 5 }, { 7, 1, 2 }, { 1, 6, 6 }, { 10, 10, 10 }, { 9, 9, 12 } };
	for (int sh = 0; sh < 6; sh++) {
		int m = shapes[sh][0], k = shapes[sh][1], n = shapes[sh][2];
		fill_gauss(g, m * k, A);
		fill_gauss(g, k * n, B);
		tagk_matmul(m, k, n, A, B, C);
		for (int i = 0; i < m; i++)
			for (int j = 0; j < n; j++) {
				tagk_real c = 0;
				for (int p = 0; p < k; p++)
					c += A[i * k + p] * B[p * n + j];
				C2[i * n + j] = c;
			}
		assert_memory_equal(C, C2, sizeof(*C) * (size_t)(m * n));
	}
}

/* tagk_dot4 against tagk_dot, every length 0..41. */
static void
dot4_keeps_bits(tagk_rng *g)
{
	static tagk_real X[4 * 41], Z[41];
	for (int len = 0; len <= 41; len++) {
		fill_gauss(g, 4 * 41, X);
		fill_gauss(g, 41, Z);
		const tagk_real *rows[4] = { X, X + 41, X + 82, X + 123 };
		tagk_real out[4];
		tagk_dot4(len, rows, Z, out);
		for (int q = 0; q < 4; q++) {
			tagk_real ref = tagk_dot(len, rows[q], Z);
			assert_memory_equal(&out[q], &ref, sizeof(ref));
		}
	}
}

/* the four-row syrk and the four-row Cholesky against their plain
 * loops, written here: C = beta C + A^T A with zeros in A (skipped
 * rows), and L of an SPD matrix */
static void
syrk_cholesky_keep_bits(tagk_rng *g)
{
	for (int sh = 0; sh < 3; sh++) {
		const int mm = sh == 0 ? 30 : sh == 1 ? 7 : 3, nn = sh == 2 ? 5 : 23;
		static tagk_real AA[30 * 23], CC[23 * 23], CR[23 * 23], SP[23 * 23], LR[23 * 23];
		fill_gauss(g, mm * nn, AA);
		for (int q = 0; q < mm * nn; q += 5)
			AA[q] = 0;
		random_spd(g, nn, CC);
		memcpy(CR, CC, sizeof(*CC) * (size_t)(nn * nn));
		tagk_syrk_t(mm, nn, AA, (tagk_real)0.5, CC);
		for (int i = 0; i < nn; i++)
			for (int j = i; j < nn; j++) {
				tagk_real c = CR[i * nn + j] * (tagk_real)0.5;
				for (int p = 0; p < mm; p++)
					if (AA[p * nn + i] != 0)
						c += AA[p * nn + i] * AA[p * nn + j];
				CR[i * nn + j] = CR[j * nn + i] = c;
			}
		assert_memory_equal(CC, CR, sizeof(*CC) * (size_t)(nn * nn));
		random_spd(g, nn, SP);
		memcpy(LR, SP, sizeof(*SP) * (size_t)(nn * nn));
		assert_int_equal(tagk_cholesky(nn, SP), TAGK_OK);
		for (int j = 0; j < nn; j++) {
			tagk_real *lj = LR + j * nn;
			tagk_real d = tagk_sqrt(lj[j] - tagk_dot(j, lj, lj));
			lj[j] = d;
			for (int i = j + 1; i < nn; i++)
				LR[i * nn + j] = (LR[i * nn + j] - tagk_dot(j, LR + i * nn, lj)) / d;
			for (int c = j + 1; c < nn; c++)
				lj[c] = 0;
		}
		assert_memory_equal(SP, LR, sizeof(*SP) * (size_t)(nn * nn));
	}
}

/* the triangular solves (a pass of up to twelve columns held in
 * registers) against their plain loops, written here, with zeros in L
 * (skipped) and widths on both sides of a pass */
static void
trsm_keeps_bits(tagk_rng *g)
{
	enum { TN = 17, TK = 30 };
	static tagk_real TL[TN * TN], TX[TN * TK], TXR[TN * TK];
	const int widths[] = { 1, 2, 5, 12, 13, 25, 30 };
	for (int wi = 0; wi < 7; wi++) {
		const int k = widths[wi];
		random_spd(g, TN, TL);
		assert_int_equal(tagk_cholesky(TN, TL), TAGK_OK);
		for (int q = TN; q < TN * TN; q += 7)
			if (q / TN != q % TN)
				TL[q] = 0;
		for (int t = 0; t < 2; t++) {
			fill_gauss(g, TN * k, TX);
			memcpy(TXR, TX, sizeof(*TX) * (size_t)(TN * k));
			if (t == 0)
				tagk_trsm_lower(TN, k, TL, TX);
			else
				tagk_trsm_lower_t(TN, k, TL, TX);
			for (int s = 0; s < TN; s++) {
				int i = t == 0 ? s : TN - 1 - s;
				for (int p = 0; p < TN; p++) {
					tagk_real l = t == 0 ? (p < i ? TL[i * TN + p] : 0) : (p > i ? TL[p * TN + i] : 0);
					if (l != 0)
						for (int c = 0; c < k; c++)
							TXR[i * k + c] -= l * TXR[p * k + c];
				}
				tagk_real inv = (tagk_real)1 / TL[i * TN + i];
				for (int c = 0; c < k; c++)
					TXR[i * k + c] *= inv;
			}
			assert_memory_equal(TX, TXR, sizeof(*TX) * (size_t)(TN * k));
		}
	}
}

/* tagk_sub_tn (four rows at a time) against its plain loop, lower and
 * upper. */
static void
sub_tn_keeps_bits(tagk_rng *g)
{
	static tagk_real SA[9 * 11], SB[9 * 11], SC[11 * 11], SR[11 * 11];
	for (int t = 0; t < 4; t++) {
		const int mm = t < 2 ? 9 : 3, nn = 11, upper = t % 2;
		fill_gauss(g, mm * nn, SA);
		fill_gauss(g, mm * nn, SB);
		fill_gauss(g, nn * nn, SC);
		memcpy(SR, SC, sizeof(SC));
		tagk_sub_tn(mm, nn, SA, upper ? SA : SB, upper, SC);
		for (int i = 0; i < nn; i++)
			for (int j = upper ? i : 0; j < nn; j++)
				for (int p = 0; p < mm; p++)
					SR[i * nn + j] -= SA[p * nn + i] * (upper ? SA : SB)[p * nn + j];
		assert_memory_equal(SC, SR, sizeof(SC));
	}
}

/* tagk_matmul_nt_sym against tagk_matmul_nt then tagk_symmetrize, on a
 * symmetric product (A P) A^T. */
static void
matmul_nt_keeps_bits(tagk_rng *g)
{
	enum { M = 9, N = 13 };
	tagk_real A[M * N], P[N * N], AP[M * N], S[M * M], S2[M * M];
	random_spd(g, N, P);
	fill_gauss(g, M * N, A);
	tagk_matmul(M, N, N, A, P, AP);
	tagk_matmul_nt_sym(M, N, AP, A, S);
	for (int i = 0; i < M; i++)
		for (int j = i; j < M; j++)
			S2[i * M + j] = S2[j * M + i] = tagk_dot(N, AP + i * N, A + j * N);
	assert_memory_equal(S, S2, sizeof(S));
	tagk_matmul_nt(M, N, M, AP, A, S);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < M; j++)
			S2[i * M + j] = tagk_dot(N, AP + i * N, A + j * N);
	assert_memory_equal(S, S2, sizeof(S));
}

/* The blocked kernels keep each entry's order of operations, so their
 * results are the plain loops' bits: each kernel above against its plain
 * loop, on one generator's draws in turn. */
static void
test_blocked_kernels_keep_bits(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 9);
	matmul_keeps_bits(&g);
	dot4_keeps_bits(&g);
	syrk_cholesky_keep_bits(&g);
	trsm_keeps_bits(&g);
	sub_tn_keeps_bits(&g);
	matmul_nt_keeps_bits(&g);
}

static void
test_cholesky_reconstructs_and_solves(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 2);
	for (int n = 1; n <= 12; n++) {
		tagk_real S[144], L[144], X[144], B[144];
		random_spd(&g, n, S);
		memcpy(L, S, sizeof(S[0]) * (size_t)(n * n));
		assert_int_equal(tagk_cholesky(n, L), TAGK_OK);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				if (j > i)
					assert_true(L[i * n + j] == 0);
				long double s = 0;
				for (int p = 0; p < n; p++)
					s += (long double)L[i * n + p] * L[j * n + p];
				assert_true(fabsl(s - S[i * n + j]) < TOL_TIGHT * 10 * n);
			}
		/* Solve S X = B for 3 right-hand sides, check S X - B. */
		fill_gauss(&g, n * 3, B);
		memcpy(X, B, sizeof(B[0]) * (size_t)(n * 3));
		tagk_cholesky_solve(n, 3, L, X);
		for (int i = 0; i < n; i++)
			for (int c = 0; c < 3; c++) {
				long double s = 0;
				for (int p = 0; p < n; p++)
					s += (long double)S[i * n + p] * X[p * 3 + c];
				assert_true(fabsl(s - B[i * 3 + c]) < TOL_TIGHT * 10 * n);
			}
	}
}

static void
test_cholesky_detects_failure(void **state)
{
	(void)state;
	tagk_real indef[4] = { 1, 2, 2, 1 };       /* eigenvalues 3, -1 */
	tagk_real singular[4] = { 1, 1, 1, 1 };
	tagk_real nanm[4] = { 1, 0, 0, NAN };
	tagk_real zero[1] = { 0 };
	assert_int_equal(tagk_cholesky(2, indef), TAGK_ENOTPD);
	assert_int_equal(tagk_cholesky(2, singular), TAGK_ENOTPD);
	assert_int_equal(tagk_cholesky(2, nanm), TAGK_ENOTPD);
	assert_int_equal(tagk_cholesky(1, zero), TAGK_ENOTPD);
}

/* Eigenvalues of Q diag(d) Q^T are d, for a random orthogonal Q. */
static void
test_symeig_recovers_spectrum(void **state)
{
	(void)state;
	tagk_rng g;
	tagk_rng_seed(&g, 3);
	for (int trial = 0; trial < 200; trial++) {
		int n = 2 + trial % 5;
		tagk_real Q[64], d[8], S[64], w[8], V[64], scratch[64];
		/* Gram-Schmidt on a Gaussian matrix gives an orthogonal Q. */
		fill_gauss(&g, n * n, Q);
		for (int j = 0; j < n; j++) {
			for (int k = 0; k < j; k++) {
				tagk_real p = 0;
				for (int i = 0; i < n; i++)
					p += Q[i * n + j] * Q[i * n + k];
				for (int i = 0; i < n; i++)
					Q[i * n + j] -= p * Q[i * n + k];
			}
			tagk_real s = 0;
			for (int i = 0; i < n; i++)
				s += Q[i * n + j] * Q[i * n + j];
			for (int i = 0; i < n; i++)
				Q[i * n + j] /= tagk_sqrt(s);
		}
		fill_gauss(&g, n, d);
		if (trial % 7 == 0)
			d[1] = d[0]; /* a repeated eigenvalue */
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				tagk_real s = 0;
				for (int k = 0; k < n; k++)
					s += Q[i * n + k] * d[k] * Q[j * n + k];
				S[i * n + j] = s;
			}
		tagk_symmetrize(n, S);
		assert_int_equal(tagk_symeig(n, S, w, V, scratch), TAGK_OK);
		/* sort d ascending */
		for (int i = 1; i < n; i++)
			for (int j = i; j > 0 && d[j - 1] > d[j]; j--) {
				tagk_real t = d[j]; d[j] = d[j - 1]; d[j - 1] = t;
			}
		for (int i = 0; i < n; i++)
			assert_true(fabs((double)(w[i] - d[i])) < TOL_TIGHT * 10);
		/* S v = w v and V orthonormal */
		for (int k = 0; k < n; k++)
			for (int i = 0; i < n; i++) {
				tagk_real sv = 0;
				for (int j = 0; j < n; j++)
					sv += S[i * n + j] * V[j * n + k];
				assert_true(fabs((double)(sv - w[k] * V[i * n + k])) < TOL_TIGHT * 10);
			}
	}
	/* A closed form: [[2,1],[1,2]] has eigenvalues 1 and 3. */
	tagk_real S2[4] = { 2, 1, 1, 2 }, w2[2], sc[4];
	assert_int_equal(tagk_symeig(2, S2, w2, NULL, sc), TAGK_OK);
	assert_true(fabs((double)w2[0] - 1) < TOL_TIGHT && fabs((double)w2[1] - 3) < TOL_TIGHT);
	/* 3 x 3 wrapper against trace and determinant identities. */
	tagk_real S3[9] = { 4, 1, 2, 1, 3, 0, 2, 0, 5 }, w3[3];
	assert_int_equal(tagk_symeig3(S3, w3), TAGK_OK);
	double det = 4 * (3 * 5 - 0) - 1 * (1 * 5 - 0) + 2 * (0 - 3 * 2);
	assert_true(fabs((double)(w3[0] + w3[1] + w3[2]) - 12) < TOL_TIGHT * 10);
	assert_true(fabs((double)(w3[0] * w3[1] * w3[2]) - det) < TOL_TIGHT * 100);
	tagk_real bad[9] = { NAN, 0, 0, 0, 1, 0, 0, 0, 1 };
	assert_int_equal(tagk_symeig3(bad, w3), TAGK_ENONFINITE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_products_match_loops),
		cmocka_unit_test(test_blocked_kernels_keep_bits),
		cmocka_unit_test(test_cholesky_reconstructs_and_solves),
		cmocka_unit_test(test_cholesky_detects_failure),
		cmocka_unit_test(test_symeig_recovers_spectrum),
	};
	return cmocka_run_group_tests_name("linalg", tests, NULL, NULL);
}
