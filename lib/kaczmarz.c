/* kaczmarz.c: rk, grk, tark and tagk; see kaczmarz.h for the contracts. */
#include <string.h>
#include "kaczmarz.h"
#include "estimator.h"
#include "linalg.h"

void
tagk_kz_defaults(tagk_kz_config *cfg, tagk_kz_variant v)
{
	cfg->variant = v;
	cfg->iters = 0;
	cfg->burnin = 6;
	cfg->tol = (tagk_real)1e-12;
	cfg->seed = 1;
	cfg->warm_start = 1;
}

size_t
tagk_kz_workspace_len(int n, int m_max)
{
	if (n < 1 || m_max < 1)
		return 0;
	return 4 * (size_t)n + (size_t)m_max * ((size_t)m_max + 6);
}

tagk_status
tagk_kz_init(tagk_kz *k, const tagk_kz_config *cfg, int n, int m_max,
    const tagk_real *theta0, tagk_real *ws, size_t len)
{
	if (!k || !cfg || !ws || n < 1 || m_max < 1)
		return TAGK_EINVAL;
	if ((unsigned)cfg->variant > TAGK_KZ_TAGK ||
	    cfg->iters < 0 || cfg->burnin < 0 || !(cfg->tol >= 0))
		return TAGK_EINVAL;
	if (theta0 && !tagk_all_finite(n, theta0))
		return TAGK_ENONFINITE;
	if (len < tagk_kz_workspace_len(n, m_max))
		return TAGK_ESPACE;
	k->cfg = *cfg;
	k->n = n;
	k->m_max = m_max;
	k->theta = ws; ws += n;
	k->theta0 = ws; ws += n;
	k->x = ws; ws += n;
	k->xsum = ws; ws += n;
	k->r = ws; ws += m_max;
	k->s = ws; ws += m_max;
	k->w = ws; ws += m_max;
	k->y = ws; ws += m_max;
	k->ysum = ws; ws += m_max;
	k->inv = ws; ws += m_max;
	k->G = ws;
	for (int j = 0; j < n; j++)
		k->theta0[j] = theta0 ? theta0[j] : 0;
	tagk_kz_reset(k);
	return TAGK_OK;
}

void
tagk_kz_reset(tagk_kz *k)
{
	memcpy(k->theta, k->theta0, sizeof(*k->theta) * (size_t)k->n);
	tagk_rng_seed(&k->rng, k->cfg.seed);
	k->columns = 0;
}

static int
is_averaged(tagk_kz_variant v)
{
	return v == TAGK_KZ_TARK || v == TAGK_KZ_TAGK;
}

/*
 * Greedy selection of eqs. (11)-(13) with squared residuals, as in the
 * authors' code: eps = (max_i r_i^2/s_i / R^2 + 1/||A||_F^2) / 2, candidates
 * r_i^2 >= eps R^2 s_i, one drawn with probability r_i^2 over the set. The row
 * maximising r_i^2/s_i (criterion maxc, argmax_row) always qualifies, because
 * R^2 <= max(r_i^2/s_i) ||A||_F^2, so the set is never empty while R > 0.
 * Consumes exactly one uniform draw.
 */
/* The first row whose r_i^2/s_i is maxc (0 if none is): residual_step's
 * running maximum keeps no index, since the row is needed only when no
 * weight is positive. The criterion is recomputed as residual_step formed
 * it, so the row is the one a running argmax would have kept. */
static int
argmax_row(int m, const tagk_real *r, const tagk_real *inv, tagk_real maxc)
{
	for (int j = 0; j < m; j++)
		if (r[j] * r[j] * inv[j] == maxc)
			return j;
	return 0;
}

static int
greedy_pick(tagk_rng *g, int m, const tagk_real *r, const tagk_real *s, const tagk_real *inv,
    tagk_real fro, tagk_real R2, tagk_real maxc, tagk_real *w)
{
	tagk_real thr = (tagk_real)0.5 * (maxc + R2 / fro);
	tagk_real sum = 0;
	int k = 0;
#if defined(TAGK_M7_VMLA)
	/* the loop below in assembly, four rows per pass, the choice of q or 0
	 * by VSEL after the comparison (no IT block): 29 instructions where the
	 * compiler's loop takes 56; sum added row after row, as below */
	if (m >= 4) {
		int q = m >> 2;
		const tagk_real *pr = r, *ps = s, zero = 0;
		tagk_real *pw = w;
		__asm__("1:\n\t"
			"vldmia %[r]!, " M7_X "\n\t"
			"vmul." M7_T " " M7_X0 ", " M7_X0 ", " M7_X0 "\n\t"
			"vmul." M7_T " " M7_X1 ", " M7_X1 ", " M7_X1 "\n\t"
			"vmul." M7_T " " M7_X2 ", " M7_X2 ", " M7_X2 "\n\t"
			"vmul." M7_T " " M7_X3 ", " M7_X3 ", " M7_X3 "\n\t"
			"vldmia %[s]!, " M7_Y "\n\t"
			"vmul." M7_T " " M7_Y0 ", " M7_ARG(t) ", " M7_Y0 "\n\t"
			"vmul." M7_T " " M7_Y1 ", " M7_ARG(t) ", " M7_Y1 "\n\t"
			"vmul." M7_T " " M7_Y2 ", " M7_ARG(t) ", " M7_Y2 "\n\t"
			"vmul." M7_T " " M7_Y3 ", " M7_ARG(t) ", " M7_Y3 "\n\t"
			"vcmpe." M7_T " " M7_X0 ", " M7_Y0 "\n\t"
			"vmrs APSR_nzcv, fpscr\n\t"
			"vselge." M7_T " " M7_X0 ", " M7_X0 ", " M7_ARG(z) "\n\t"
			"vcmpe." M7_T " " M7_X1 ", " M7_Y1 "\n\t"
			"vmrs APSR_nzcv, fpscr\n\t"
			"vselge." M7_T " " M7_X1 ", " M7_X1 ", " M7_ARG(z) "\n\t"
			"vcmpe." M7_T " " M7_X2 ", " M7_Y2 "\n\t"
			"vmrs APSR_nzcv, fpscr\n\t"
			"vselge." M7_T " " M7_X2 ", " M7_X2 ", " M7_ARG(z) "\n\t"
			"vcmpe." M7_T " " M7_X3 ", " M7_Y3 "\n\t"
			"vmrs APSR_nzcv, fpscr\n\t"
			"vselge." M7_T " " M7_X3 ", " M7_X3 ", " M7_ARG(z) "\n\t"
			"vadd." M7_T " " M7_ARG(sum) ", " M7_ARG(sum) ", " M7_X0 "\n\t"
			"vadd." M7_T " " M7_ARG(sum) ", " M7_ARG(sum) ", " M7_X1 "\n\t"
			"vadd." M7_T " " M7_ARG(sum) ", " M7_ARG(sum) ", " M7_X2 "\n\t"
			"vadd." M7_T " " M7_ARG(sum) ", " M7_ARG(sum) ", " M7_X3 "\n\t"
			"vstmia %[w]!, " M7_X "\n\t"
			"subs %[q], %[q], #1\n\t"
			"bne 1b"
			: [sum] "+" M7_REG(sum), [r] "+r"(pr), [s] "+r"(ps), [w] "+r"(pw), [q] "+r"(q), M7_INOUT(w)
			: [t] M7_REG(thr), [z] M7_REG(zero), M7_IN(r), M7_IN(s)
			: M7_CLOBBER);
		k = m & ~3;
	}
#endif
	for (; k < m; k++) {
		tagk_real q = r[k] * r[k];
		w[k] = q >= thr * s[k] ? q : 0;
		sum += w[k];
	}
	tagk_real u = tagk_rng_uniform(g) * sum;
	if (!(sum > 0))
		return argmax_row(m, r, inv, maxc);
	int last = -1;
	for (int i = 0; i < m; i++) {
		if (w[i] == 0)
			continue;
		if (u < w[i])
			return i;
		u -= w[i];
		last = i;
	}
	return last >= 0 ? last : argmax_row(m, r, inv, maxc); /* rounding left u past the last weight */
}

/* Gram columns two rows at a time (dot2) pay on an in-order core with
 * scalar floating point, the Cortex-M7: 8 to 13 % fewer instructions per
 * TAG-K update under QEMU, where tagk_dot4's sixteen sums would not fit its
 * registers. Elsewhere four rows at a time (tagk_dot4: TAG-K at n = 120
 * from 14.5 to 12.9 us per update on x86-64, make bench-eigen). All give
 * tagk_dot's bits, which tests/m7_test.sh checks (the M7 build pairs, the
 * host does not). */
#ifndef TAGK_GRAM_PAIRS
#if defined(__ARM_ARCH_7EM__)
#define TAGK_GRAM_PAIRS 1
#else
#define TAGK_GRAM_PAIRS 0
#endif
#endif

/* *px = tagk_dot(n, x, z) and *py = tagk_dot(n, y, z) together: each load
 * of z serves both rows, and each product keeps tagk_dot's four partial
 * sums in its order, so the results are its bits. */
#if defined(TAGK_M7_VMLA)
static const tagk_real zeros8[8];

/* On the M7 all of it in assembly, the sums in fixed registers: zeroed by
 * one VLDM, then four entries of z, x and y in one VLDM each and eight
 * VMLA per pass (13 instructions per 8 multiply-adds; the compiler's loop
 * took 22), the tail into a0 and b0, and the final sums, in the order of
 * the C below: the same bits. */
static void
dot2(int n, const tagk_real *x, const tagk_real *y, const tagk_real *z, tagk_real *px, tagk_real *py)
{
	int q = n >> 2, t = n & 3;
	__asm__("vldmia %[zeros], " M7_ACC "\n\t"
		"cmp %[q], #0\n\t"
		"beq 2f\n"
		"1:\n\t"
		"vldmia %[z]!, " M7_Y "\n\t"
		"vldmia %[x]!, " M7_X "\n\t"
		"vmla." M7_T " " M7_A0 ", " M7_X0 ", " M7_Y0 "\n\t"
		"vmla." M7_T " " M7_A1 ", " M7_X1 ", " M7_Y1 "\n\t"
		"vmla." M7_T " " M7_A2 ", " M7_X2 ", " M7_Y2 "\n\t"
		"vmla." M7_T " " M7_A3 ", " M7_X3 ", " M7_Y3 "\n\t"
		"vldmia %[y]!, " M7_X "\n\t"
		"vmla." M7_T " " M7_B0 ", " M7_X0 ", " M7_Y0 "\n\t"
		"vmla." M7_T " " M7_B1 ", " M7_X1 ", " M7_Y1 "\n\t"
		"vmla." M7_T " " M7_B2 ", " M7_X2 ", " M7_Y2 "\n\t"
		"vmla." M7_T " " M7_B3 ", " M7_X3 ", " M7_Y3 "\n\t"
		"subs %[q], %[q], #1\n\t"
		"bne 1b\n"
		"2:\n\t"
		"cmp %[t], #0\n\t"
		"beq 4f\n"
		"3:\n\t"
		"vldmia %[z]!, {" M7_Y0 "}\n\t"
		"vldmia %[x]!, {" M7_X0 "}\n\t"
		"vldmia %[y]!, {" M7_X1 "}\n\t"
		"vmla." M7_T " " M7_A0 ", " M7_X0 ", " M7_Y0 "\n\t"
		"vmla." M7_T " " M7_B0 ", " M7_X1 ", " M7_Y0 "\n\t"
		"subs %[t], %[t], #1\n\t"
		"bne 3b\n"
		"4:\n\t"
		"vadd." M7_T " " M7_A0 ", " M7_A0 ", " M7_A1 "\n\t"
		"vadd." M7_T " " M7_A2 ", " M7_A2 ", " M7_A3 "\n\t"
		"vadd." M7_T " " M7_A0 ", " M7_A0 ", " M7_A2 "\n\t"
		"vadd." M7_T " " M7_B0 ", " M7_B0 ", " M7_B1 "\n\t"
		"vadd." M7_T " " M7_B2 ", " M7_B2 ", " M7_B3 "\n\t"
		"vadd." M7_T " " M7_B0 ", " M7_B0 ", " M7_B2 "\n\t"
		"vstmia %[px], {" M7_A0 "}\n\t"
		"vstmia %[py], {" M7_B0 "}"
		: [x] "+r"(x), [y] "+r"(y), [z] "+r"(z), [q] "+r"(q), [t] "+r"(t), "=m"(*px), "=m"(*py)
		: [zeros] "r"(zeros8), [px] "r"(px), [py] "r"(py), M7_IN(x), M7_IN(y), M7_IN(z), M7_IN(zeros8)
		: M7_CLOBBER, M7_ACC_CLOBBER);
}
#else
static void
dot2(int n, const tagk_real *x, const tagk_real *y, const tagk_real *z, tagk_real *px, tagk_real *py)
{
	tagk_real a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
	int k = 0;
	for (; k + 4 <= n; k += 4) {
		const tagk_real z0 = z[k], z1 = z[k + 1], z2 = z[k + 2], z3 = z[k + 3];
		a0 = tagk_mla(a0, x[k], z0);
		b0 = tagk_mla(b0, y[k], z0);
		a1 = tagk_mla(a1, x[k + 1], z1);
		b1 = tagk_mla(b1, y[k + 1], z1);
		a2 = tagk_mla(a2, x[k + 2], z2);
		b2 = tagk_mla(b2, y[k + 2], z2);
		a3 = tagk_mla(a3, x[k + 3], z3);
		b3 = tagk_mla(b3, y[k + 3], z3);
	}
	for (; k < n; k++) {
		a0 = tagk_mla(a0, x[k], z[k]);
		b0 = tagk_mla(b0, y[k], z[k]);
	}
	*px = (a0 + a1) + (a2 + a3);
	*py = (b0 + b1) + (b2 + b3);
}
#endif

/* Index of the lowest set bit of a non-zero x. */
static inline int
low_bit(uint32_t x)
{
#if defined(__GNUC__)
	return __builtin_ctz(x);
#else
	int k = 0;
	while (!(x >> k & 1))
		k++;
	return k;
#endif
}

/* col[j] = a_j . ai for the nr rows j of rows[]: two rows at a time on the
 * M7 (dot2), four elsewhere (tagk_dot4); tagk_dot's bits either way. */
static void
products(int n, const tagk_real *A, const tagk_real *ai, tagk_real *col, const int *rows, int nr)
{
	int q = 0;
#if TAGK_GRAM_PAIRS
	for (; q + 2 <= nr; q += 2)
		dot2(n, A + (long)rows[q] * n, A + (long)rows[q + 1] * n, ai, col + rows[q], col + rows[q + 1]);
#else
	for (; q + 4 <= nr; q += 4) {
		const tagk_real *x[4] = { A + (long)rows[q] * n, A + (long)rows[q + 1] * n, A + (long)rows[q + 2] * n,
			A + (long)rows[q + 3] * n };
		tagk_real out[4];
		tagk_dot4(n, x, ai, out);
		for (int t = 0; t < 4; t++)
			col[rows[q + t]] = out[t];
	}
#endif
	for (; q < nr; q++)
		col[rows[q]] = tagk_dot(n, A + (long)rows[q] * n, ai);
}

/* Column i of G = A A^T, stored contiguously at G + i m, unless it exists.
 * Entries already known from formed columns are copied by symmetry instead
 * of recomputed. Which columns exist: for windows of up to 32 rows a bit
 * per row in *formed, so that each loop visits only the rows it concerns;
 * for larger ones the diagonal entry G[j m + j], negative until column j
 * has been formed. Returns 1 if the column had to be formed. */
static int
gram_column(int m, int n, const tagk_real *A, const tagk_real *s, tagk_real *G, int i, uint32_t *formed)
{
	tagk_real *col = G + (long)i * m;
	const tagk_real *ai = A + (long)i * n;
	int rows[32], nr = 0;
	if (m <= 32) {
		uint32_t done = *formed;
		if (done >> i & 1)
			return 0;
		for (uint32_t f = done; f; f &= f - 1) {
			int j = low_bit(f);
			col[j] = G[(long)j * m + i];
		}
		for (uint32_t open = ~done & (0xffffffffu >> (32 - m)) & ~(1u << i); open; open &= open - 1)
			rows[nr++] = low_bit(open);
		*formed = done | 1u << i;
	} else {
		if (col[i] >= 0)
			return 0;
		for (int j = 0; j < m; j++) {
			const tagk_real *cj = G + (long)j * m;
			if (cj[j] >= 0) {
				col[j] = cj[i];
			} else if (j != i) {
				rows[nr++] = j;
				if (nr == 32) {
					products(n, A, ai, col, rows, nr);
					nr = 0;
				}
			}
		}
	}
	products(n, A, ai, col, rows, nr);
	col[i] = s[i];
	return 1;
}

#if defined(TAGK_M7_VMLA)
/* x[0..4q) += c0 a0 then c1 a1, entry by entry in that order (the plain
 * loop's, one row after the other): four entries of x, a0 and a1 in one
 * VLDM each, 14 instructions per 8 multiply-adds where the compiler's two
 * passes take 40. */
static void
axpy2(int q, tagk_real *x, tagk_real c0, const tagk_real *a0, tagk_real c1, const tagk_real *a1)
{
	__asm__("1:\n\t"
		"vldmia %[x], " M7_X "\n\t"
		"vldmia %[a]!, " M7_Y "\n\t"
		"vmla." M7_T " " M7_X0 ", " M7_Y0 ", " M7_ARG(c0) "\n\t"
		"vmla." M7_T " " M7_X1 ", " M7_Y1 ", " M7_ARG(c0) "\n\t"
		"vmla." M7_T " " M7_X2 ", " M7_Y2 ", " M7_ARG(c0) "\n\t"
		"vmla." M7_T " " M7_X3 ", " M7_Y3 ", " M7_ARG(c0) "\n\t"
		"vldmia %[b]!, " M7_Y "\n\t"
		"vmla." M7_T " " M7_X0 ", " M7_Y0 ", " M7_ARG(c1) "\n\t"
		"vmla." M7_T " " M7_X1 ", " M7_Y1 ", " M7_ARG(c1) "\n\t"
		"vmla." M7_T " " M7_X2 ", " M7_Y2 ", " M7_ARG(c1) "\n\t"
		"vmla." M7_T " " M7_X3 ", " M7_Y3 ", " M7_ARG(c1) "\n\t"
		"vstmia %[x]!, " M7_X "\n\t"
		"subs %[q], %[q], #1\n\t"
		"bne 1b"
		: [x] "+r"(x), [a] "+r"(a0), [b] "+r"(a1), [q] "+r"(q), M7_INOUT(x)
		: [c0] M7_REG(c0), [c1] M7_REG(c1), M7_IN(a0), M7_IN(a1)
		: M7_CLOBBER);
}
#endif

#if defined(__x86_64__) && defined(__GNUC__) && !defined(TAGK_FLOAT)
/* AVX2 on x86-64 CPUs that have it, chosen at run time (kz_avx2): the
 * same C compiled for 32-byte registers. Target "avx2" alone, no FMA, so
 * nothing is contracted and every result keeps the default code's bits.
 * TAG-K's row norms and rebuild then load each entry once per four where
 * the 16-byte code's SLP shuffled pairs. */
#define KZ_AVX2 1
typedef double kz_vec4 __attribute__((vector_size(32)));

static int
kz_avx2(int n)
{
	return n >= 8 && __builtin_cpu_supports("avx2");
}

/* s[i] = a_i . a_i and r[i] = a_i . x0 for the m rows: dot2(n, a_i, x0,
 * a_i, ...), lane l of each sum its a_l or b_l, the tail into lane 0 and
 * the lanes added in its order: its bits. */
__attribute__((target("avx2"))) static void
norms_avx2(int m, int n, const double *A, const double *x0, double *s, double *r)
{
	for (int i = 0; i < m; i++) {
		const double *a = A + (long)i * n;
		kz_vec4 va = { 0 }, vb = { 0 };
		int k = 0;
		for (; k + 4 <= n; k += 4) {
			kz_vec4 av, xv;
			memcpy(&av, a + k, sizeof(av));
			memcpy(&xv, x0 + k, sizeof(xv));
			va += av * av;
			vb += av * xv;
		}
		double a0 = va[0], b0 = vb[0];
		for (; k < n; k++) {
			a0 += a[k] * a[k];
			b0 += x0[k] * a[k];
		}
		s[i] = (a0 + va[1]) + (va[2] + va[3]);
		r[i] = (b0 + vb[1]) + (vb[2] + vb[3]);
	}
}

/* rebuild's loop over the rows, each entry's operations as there */
__attribute__((target("avx2"))) static void
rebuild_rows_avx2(int m, int n, const double *A, const double *v, double scale, double *x)
{
	for (int i = 0; i < m; i++) {
		if (v[i] == 0)
			continue;
		double c = v[i] * scale;
		const double *a = A + (long)i * n;
		for (int j = 0; j < n; j++)
			x[j] = x[j] + c * a[j];
	}
}
#endif

#if defined(KZ_AVX2)
/* Lanes picked from two vectors (0-3 the first's, 4-7 the second's). */
#if defined(__clang__)
#define KZ_SHUF(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
typedef long kz_sel4 __attribute__((vector_size(32)));
#define KZ_SHUF(a, b, i, j, k, l) __builtin_shuffle(a, b, (kz_sel4){ i, j, k, l })
#endif

/* l_c[r] = v_r[c]: the 4 x 4 transpose in eight shuffles (four within
 * 16-byte halves, four across), where lane-by-lane initialisers took
 * GCC about twice as many operations. Moves only: the same bits. */
__attribute__((target("avx2"))) static inline void
kz_transpose4(kz_vec4 v0, kz_vec4 v1, kz_vec4 v2, kz_vec4 v3, kz_vec4 *l0, kz_vec4 *l1, kz_vec4 *l2, kz_vec4 *l3)
{
	kz_vec4 t0 = KZ_SHUF(v0, v1, 0, 4, 2, 6), t1 = KZ_SHUF(v0, v1, 1, 5, 3, 7);
	kz_vec4 t2 = KZ_SHUF(v2, v3, 0, 4, 2, 6), t3 = KZ_SHUF(v2, v3, 1, 5, 3, 7);
	*l0 = KZ_SHUF(t0, t2, 0, 1, 4, 5);
	*l1 = KZ_SHUF(t1, t3, 0, 1, 4, 5);
	*l2 = KZ_SHUF(t0, t2, 2, 3, 6, 7);
	*l3 = KZ_SHUF(t1, t3, 2, 3, 6, 7);
}

/* Four dot products' sums added as tagk_dot's are, out[t] that of v_t
 * with row y[t]: the tail into lane 0, then (s0 + s1) + (s2 + s3). The
 * lanes transposed, so that each operation is one entry's on four side
 * by side (the same bits), where one entry at a time took a
 * tenth of the update at n = 40 (4x4 blocks: n = 40 5.23 to 4.71 us,
 * 80 6.62 to 6.40, 120 8.52 to 8.30). */
__attribute__((target("avx2"))) static inline kz_vec4
kz_finish4(kz_vec4 v0, kz_vec4 v1, kz_vec4 v2, kz_vec4 v3, int k, int n, const double *const y[4], const double *x)
{
	kz_vec4 l0, l1, l2, l3;
	kz_transpose4(v0, v1, v2, v3, &l0, &l1, &l2, &l3);
	for (; k < n; k++) {
		kz_vec4 yk = { y[0][k], y[1][k], y[2][k], y[3][k] }, xk = { x[k], x[k], x[k], x[k] };
		l0 += yk * xk;
	}
	return (l0 + l1) + (l2 + l3);
}

/* The dot products of rows i, i + 1 with rows j to j + 3 (rows past m are
 * row m - 1 again, their sums dropped), stored in G both ways. Each loaded
 * vector serves two or four products, where the lazy columns' tagk_dot4
 * loads five vectors for four; every sum is tagk_dot's in its order (lane
 * l the entries k = l mod 4, then kz_finish4), and x y is y x, so each
 * entry is the bits gram_column would give it. */
__attribute__((target("avx2"))) static void
gram_block_avx2(int m, int n, const double *A, double *G, int i, int j)
{
	const double *u0 = A + (long)i * n, *u1 = i + 1 < m ? u0 + n : u0, *y[4];
	for (int t = 0; t < 4; t++)
		y[t] = A + (long)(j + t < m ? j + t : m - 1) * n;
	kz_vec4 a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 }, b0 = { 0 }, b1 = { 0 }, b2 = { 0 }, b3 = { 0 };
	int k = 0;
	for (; k + 4 <= n; k += 4) {
		kz_vec4 p, q, w0, w1, w2, w3;
		memcpy(&p, u0 + k, sizeof(p));
		memcpy(&q, u1 + k, sizeof(q));
		memcpy(&w0, y[0] + k, sizeof(w0));
		memcpy(&w1, y[1] + k, sizeof(w1));
		memcpy(&w2, y[2] + k, sizeof(w2));
		memcpy(&w3, y[3] + k, sizeof(w3));
		a0 += w0 * p;
		a1 += w1 * p;
		a2 += w2 * p;
		a3 += w3 * p;
		b0 += w0 * q;
		b1 += w1 * q;
		b2 += w2 * q;
		b3 += w3 * q;
	}
	double g[2][4];
	kz_vec4 g0 = kz_finish4(a0, a1, a2, a3, k, n, y, u0), g1 = kz_finish4(b0, b1, b2, b3, k, n, y, u1);
	memcpy(g[0], &g0, sizeof(g0));
	memcpy(g[1], &g1, sizeof(g1));
	for (int h = 0; h < 2 && i + h < m; h++)
		for (int t = 0; t < 4 && j + t < m; t++)
			if (i + h != j + t)
				G[(long)(i + h) * m + j + t] = G[(long)(j + t) * m + i + h] = g[h][t];
}

#define KZ_ROW4(a, p) \
	do { \
		a##0 += w0 * (p); \
		a##1 += w1 * (p); \
		a##2 += w2 * (p); \
		a##3 += w3 * (p); \
	} while (0)
/* gram_block_avx2 for rows i to i + 3 against j to j + 3: sixteen sums,
 * which AVX-512VL's thirty-two registers hold beside the eight rows'
 * vectors (32-byte instructions only; 8 loads for 16 products, and half
 * the passes over the window); each entry as there, the same bits. From
 * n = 40 on CPUs that have it (gram_full_avx2): n = 40 5.32 to 5.15 us,
 * 80 7.41 to 6.80, 120 9.72 to 8.55; at n = 20 slower (4.28 to 4.50). */
__attribute__((target("avx2,avx512f,avx512vl"))) static void
gram_block44(int m, int n, const double *A, double *G, int i, int j)
{
	const double *x[4], *y[4];
	for (int t = 0; t < 4; t++) {
		x[t] = A + (long)(i + t < m ? i + t : m - 1) * n;
		y[t] = A + (long)(j + t < m ? j + t : m - 1) * n;
	}
	kz_vec4 a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 }, b0 = { 0 }, b1 = { 0 }, b2 = { 0 }, b3 = { 0 };
	kz_vec4 c0 = { 0 }, c1 = { 0 }, c2 = { 0 }, c3 = { 0 }, d0 = { 0 }, d1 = { 0 }, d2 = { 0 }, d3 = { 0 };
	int k = 0;
	for (; k + 4 <= n; k += 4) {
		kz_vec4 p0, p1, p2, p3, w0, w1, w2, w3;
		memcpy(&p0, x[0] + k, sizeof(p0));
		memcpy(&p1, x[1] + k, sizeof(p1));
		memcpy(&p2, x[2] + k, sizeof(p2));
		memcpy(&p3, x[3] + k, sizeof(p3));
		memcpy(&w0, y[0] + k, sizeof(w0));
		memcpy(&w1, y[1] + k, sizeof(w1));
		memcpy(&w2, y[2] + k, sizeof(w2));
		memcpy(&w3, y[3] + k, sizeof(w3));
		KZ_ROW4(a, p0);
		KZ_ROW4(b, p1);
		KZ_ROW4(c, p2);
		KZ_ROW4(d, p3);
	}
	kz_vec4 g0 = kz_finish4(a0, a1, a2, a3, k, n, y, x[0]), g1 = kz_finish4(b0, b1, b2, b3, k, n, y, x[1]);
	kz_vec4 g2 = kz_finish4(c0, c1, c2, c3, k, n, y, x[2]), g3 = kz_finish4(d0, d1, d2, d3, k, n, y, x[3]);
	if (i + 4 <= m && j + 4 <= m) {
		/* rows i to i + 3 and, transposed, j to j + 3 by whole vectors
		 * (in a block on the diagonal both write the same bits: x y is
		 * y x; its diagonal is then gram_full_avx2's s) */
		kz_vec4 c[4];
		kz_transpose4(g0, g1, g2, g3, &c[0], &c[1], &c[2], &c[3]);
		memcpy(G + (long)i * m + j, &g0, sizeof(g0));
		memcpy(G + (long)(i + 1) * m + j, &g1, sizeof(g1));
		memcpy(G + (long)(i + 2) * m + j, &g2, sizeof(g2));
		memcpy(G + (long)(i + 3) * m + j, &g3, sizeof(g3));
		for (int t = 0; t < 4; t++)
			memcpy(G + (long)(j + t) * m + i, &c[t], sizeof(c[t]));
		return;
	}
	double g[4][4];
	memcpy(g[0], &g0, sizeof(g0));
	memcpy(g[1], &g1, sizeof(g1));
	memcpy(g[2], &g2, sizeof(g2));
	memcpy(g[3], &g3, sizeof(g3));
	for (int h = 0; h < 4 && i + h < m; h++)
		for (int t = 0; t < 4 && j + t < m; t++)
			if (i + h != j + t)
				G[(long)(i + h) * m + j + t] = G[(long)(j + t) * m + i + h] = g[h][t];
}
#undef KZ_ROW4

/* The whole Gram matrix of a window of at most 32 rows, its diagonal the
 * row norms s, two rows against four a pass (four by four from n = 40
 * where the CPU has AVX-512VL): m (m - 1) / 2 products where
 * the lazy columns form 14 to 24 columns of m - 1 less the known ones, but
 * at a higher rate (6 loads for 8 products), and the iterations then form
 * nothing. At every n since the sums are finished four at a time
 * (kz_finish4; before it, only from n = 16): 300 windows of m = 30, the
 * same bits, n = 4 3.50 to 3.26 us, n = 10 3.92 to 3.57. */
__attribute__((target("avx2"))) static void
gram_full_avx2(int m, int n, const double *A, const double *s, double *G)
{
	if (n >= 40 && __builtin_cpu_supports("avx512vl")) {
		for (int i = 0; i < m; i += 4)
			for (int j = i; j < m; j += 4)
				gram_block44(m, n, A, G, i, j);
	} else {
		for (int i = 0; i < m; i += 2)
			for (int j = i; j < m; j += 4)
				gram_block_avx2(m, n, A, G, i, j);
	}
	for (int i = 0; i < m; i++)
		G[(long)i * m + i] = s[i];
}

static int
kz_full(int m)
{
	return m <= 32 && __builtin_cpu_supports("avx2");
}
#endif

/* x = x0 + scale A^T v over the rows where v is non-zero, row by row. */
static void
rebuild(int m, int n, const tagk_real *A, const tagk_real *x0, const tagk_real *v,
    tagk_real scale, tagk_real *x)
{
#if defined(KZ_AVX2)
	if (kz_avx2(n)) {
		memcpy(x, x0, sizeof(*x) * (size_t)n);
		rebuild_rows_avx2(m, n, A, v, scale, x);
		return;
	}
#endif
	for (int j = 0; j < n; j++)
		x[j] = x0[j];
	int i = 0;
#if defined(TAGK_M7_VMLA)
	/* two rows at a time through axpy2 (the entries past its last block of
	 * four in C), then an unpaired last row alone */
	int pend = -1;
	for (; i < m && n >= 4; i++) {
		if (v[i] == 0)
			continue;
		if (pend < 0) {
			pend = i;
			continue;
		}
		const tagk_real c0 = v[pend] * scale, c1 = v[i] * scale;
		const tagk_real *a0 = A + (long)pend * n, *a1 = A + (long)i * n;
		axpy2(n >> 2, x, c0, a0, c1, a1);
		for (int j = n & ~3; j < n; j++)
			x[j] = tagk_mla(tagk_mla(x[j], c0, a0[j]), c1, a1[j]);
		pend = -1;
	}
	if (pend >= 0) {
		tagk_real c = v[pend] * scale;
		const tagk_real *a = A + (long)pend * n;
		for (int j = 0; j < n; j++)
			x[j] = tagk_mla(x[j], c, a[j]);
	}
#endif
	for (; i < m; i++) {
		if (v[i] == 0)
			continue;
		tagk_real c = v[i] * scale;
		const tagk_real *a = A + (long)i * n;
		for (int j = 0; j < n; j++)
			x[j] = tagk_mla(x[j], c, a[j]);
	}
}

/* The larger of a running maximum mc >= -1 and c >= 0 or NaN, a NaN c
 * ignored: on the M7 one VMAXNM (IEEE maxNum), which treats NaN so and
 * otherwise gives the same value as the comparison. */
static inline tagk_real
run_max(tagk_real mc, tagk_real c)
{
#if defined(TAGK_M7_VMLA) && defined(TAGK_FLOAT)
	__asm__("vmaxnm.f32 %0, %0, %1" : "+t"(mc) : "t"(c));
	return mc;
#elif defined(TAGK_M7_VMLA)
	__asm__("vmaxnm.f64 %P0, %P0, %P1" : "+w"(mc) : "w"(c));
	return mc;
#else
	return c > mc ? c : mc;
#endif
}

/* r -= gamma col, returning in the same pass the squared norm of the new r
 * and its largest r_i^2 / s_i (maxc; argmax_row finds the row when it is
 * needed). With gamma = 0 and col = r it only computes the statistics:
 * 0 * r_i is exactly 0. */
static tagk_real
residual_step(int m, tagk_real *r, const tagk_real *col, tagk_real gamma,
    const tagk_real *inv, tagk_real *maxc)
{
	tagk_real R2 = 0, mc = -1;
	int j = 0;
#if defined(TAGK_M7_VMLA)
	/* the loop below in assembly, four rows per pass: 26 instructions
	 * where the compiler's loop takes 48, each operation the C's, in its
	 * order (R2 summed row after row) */
	if (m >= 4) {
		int q = m >> 2;
		tagk_real *pr = r;
		const tagk_real *pc = col, *pi = inv;
		__asm__("1:\n\t"
			"vldmia %[r], " M7_X "\n\t"
			"vldmia %[c]!, " M7_Y "\n\t"
			"vmls." M7_T " " M7_X0 ", " M7_Y0 ", " M7_ARG(g) "\n\t"
			"vmls." M7_T " " M7_X1 ", " M7_Y1 ", " M7_ARG(g) "\n\t"
			"vmls." M7_T " " M7_X2 ", " M7_Y2 ", " M7_ARG(g) "\n\t"
			"vmls." M7_T " " M7_X3 ", " M7_Y3 ", " M7_ARG(g) "\n\t"
			"vstmia %[r]!, " M7_X "\n\t"
			"vmul." M7_T " " M7_X0 ", " M7_X0 ", " M7_X0 "\n\t"
			"vmul." M7_T " " M7_X1 ", " M7_X1 ", " M7_X1 "\n\t"
			"vmul." M7_T " " M7_X2 ", " M7_X2 ", " M7_X2 "\n\t"
			"vmul." M7_T " " M7_X3 ", " M7_X3 ", " M7_X3 "\n\t"
			"vadd." M7_T " " M7_ARG(R2) ", " M7_ARG(R2) ", " M7_X0 "\n\t"
			"vadd." M7_T " " M7_ARG(R2) ", " M7_ARG(R2) ", " M7_X1 "\n\t"
			"vadd." M7_T " " M7_ARG(R2) ", " M7_ARG(R2) ", " M7_X2 "\n\t"
			"vadd." M7_T " " M7_ARG(R2) ", " M7_ARG(R2) ", " M7_X3 "\n\t"
			"vldmia %[i]!, " M7_Y "\n\t"
			"vmul." M7_T " " M7_Y0 ", " M7_X0 ", " M7_Y0 "\n\t"
			"vmul." M7_T " " M7_Y1 ", " M7_X1 ", " M7_Y1 "\n\t"
			"vmul." M7_T " " M7_Y2 ", " M7_X2 ", " M7_Y2 "\n\t"
			"vmul." M7_T " " M7_Y3 ", " M7_X3 ", " M7_Y3 "\n\t"
			"vmaxnm." M7_T " " M7_ARG(mc) ", " M7_ARG(mc) ", " M7_Y0 "\n\t"
			"vmaxnm." M7_T " " M7_ARG(mc) ", " M7_ARG(mc) ", " M7_Y1 "\n\t"
			"vmaxnm." M7_T " " M7_ARG(mc) ", " M7_ARG(mc) ", " M7_Y2 "\n\t"
			"vmaxnm." M7_T " " M7_ARG(mc) ", " M7_ARG(mc) ", " M7_Y3 "\n\t"
			"subs %[q], %[q], #1\n\t"
			"bne 1b"
			: [R2] "+" M7_REG(R2), [mc] "+" M7_REG(mc), [r] "+r"(pr), [c] "+r"(pc), [i] "+r"(pi), [q] "+r"(q),
			  M7_INOUT(r)
			: [g] M7_REG(gamma), M7_IN(col), M7_IN(inv)
			: M7_CLOBBER);
		j = m & ~3;
	}
#endif
	for (; j < m; j++) {
		tagk_real v = r[j] - gamma * col[j];
		r[j] = v;
		tagk_real q = v * v;
		R2 += q;
		mc = run_max(mc, q * inv[j]);
	}
	*maxc = mc;
	return R2;
}

#if defined(KZ_AVX2)
/*
 * greedy_update's iterations when G is whole (kz_full), the same rows
 * chosen and the same bits, without the two sums that set the generic
 * loop's pace: residual_step's R2, added row after row, and greedy_pick's
 * weights, added row after row over every row and then walked row by row
 * (about 3 us of an update of m = 30 at every n, a dependent add per row).
 *
 * R2 serves only the stop test and the threshold thr = 0.5 (maxc + R2 /
 * fro), and both are monotone in it (each rounding is). So R2 is summed in
 * lanes (R2v) and bracketed: the row-after-row sum and R2v are each within
 * gamma_{m-1} = (m - 1) u / (1 - (m - 1) u) of the exact sum of the same
 * squares (non-negative terms), so within (m - 1) 2^-52 R2v (1 + tiny) of
 * each other; lo and hi below, and ql and qh bracketing the quotient
 * R2 / fro (formed as products with 1 / fro, off the iteration's path),
 * leave d = (m + 2) 2^-50, at least four times that, their own roundings
 * included (all of them normal numbers: the range checks). When the stop
 * test and every row's comparison come out the same at both ends they are
 * the generic loop's; otherwise (a tie: on noisy windows never seen, 0 of
 * 45,000 iterations at n = 4 to 120) R2 is summed row after row as there
 * and used. The rows with a non-zero weight are a bit mask (m <= 32), so
 * the weights' sum and the walk visit only them (about 3 rows where m =
 * 30): adding a zero weight leaves a sum as it was. maxc is a maximum, the
 * same in any order.
 */
typedef long kz_mask4 __attribute__((vector_size(32)));

/* r -= gamma col as residual_step does it row by row (target avx2 alone:
 * nothing contracted), maxc as there (maxpd (c, mc) is run_max: mc kept
 * when c is NaN), and R2 summed in lanes: R2v, not residual_step's bits. */
__attribute__((target("avx2"))) static inline double
residual_lanes_avx2(int m, double *r, const double *col, double gamma, const double *inv, double *maxc)
{
	const kz_vec4 g = { gamma, gamma, gamma, gamma };
	kz_vec4 s0 = { 0 }, s1 = { 0 }, mc = { -1, -1, -1, -1 };
	int j = 0;
	for (; j + 4 <= m; j += 4) {
		kz_vec4 rv, cv, iv;
		memcpy(&rv, r + j, sizeof(rv));
		memcpy(&cv, col + j, sizeof(cv));
		memcpy(&iv, inv + j, sizeof(iv));
		rv = rv - g * cv;
		memcpy(r + j, &rv, sizeof(rv));
		kz_vec4 q = rv * rv;
		if (j & 4)
			s1 += q;
		else
			s0 += q;
		mc = __builtin_ia32_maxpd256(q * iv, mc);
	}
	s0 += s1;
	double R2 = (s0[0] + s0[1]) + (s0[2] + s0[3]), c = -1;
	for (int l = 0; l < 4; l++)
		c = run_max(c, mc[l]);
	for (; j < m; j++) {
		double v = r[j] - gamma * col[j];
		r[j] = v;
		double q = v * v;
		R2 += q;
		c = run_max(c, q * inv[j]);
	}
	*maxc = c;
	return R2;
}

/* residual_step's R2: the squares of r added row after row. */
static double
r2_rows(int m, const double *r)
{
	double R2 = 0;
	for (int j = 0; j < m; j++)
		R2 += r[j] * r[j];
	return R2;
}

/* Bit i set where greedy_pick's weight of row i is non-zero at the
 * threshold 0.5 (maxc + R2 / fro) (r_i^2 >= thr s_i and r_i^2 > 0): for
 * R2 / fro = qh returned, for ql in *at_lo, in one pass. */
__attribute__((target("avx2"))) static inline uint32_t
weight_bits(int m, const double *r, const double *s, double maxc, double qh, double ql, uint32_t *at_lo)
{
	const double th = 0.5 * (maxc + qh), tl = 0.5 * (maxc + ql);
	const kz_vec4 vh = { th, th, th, th }, vl = { tl, tl, tl, tl }, zero = { 0 };
	uint32_t bh = 0, bl = 0;
	int j = 0;
	for (; j + 4 <= m; j += 4) {
		kz_vec4 rv, sv;
		memcpy(&rv, r + j, sizeof(rv));
		memcpy(&sv, s + j, sizeof(sv));
		kz_vec4 q = rv * rv;
		kz_mask4 pos = q > zero, ch = (q >= vh * sv) & pos, cl = (q >= vl * sv) & pos;
		bh |= (uint32_t)__builtin_ia32_movmskpd256((kz_vec4)ch) << j;
		bl |= (uint32_t)__builtin_ia32_movmskpd256((kz_vec4)cl) << j;
	}
	for (; j < m; j++) {
		double q = r[j] * r[j];
		if (q >= th * s[j] && q > 0)
			bh |= 1u << j;
		if (q >= tl * s[j] && q > 0)
			bl |= 1u << j;
	}
	*at_lo = bl;
	return bh;
}

/* greedy_pick over the rows of bits, its uniform draw u01 made: the same
 * sum and walk. */
static inline int
pick_bits(double u01, int m, const double *r, const double *inv, double maxc, uint32_t bits)
{
	double sum = 0;
	for (uint32_t f = bits; f; f &= f - 1) {
		int i = low_bit(f);
		sum += r[i] * r[i];
	}
	double u = u01 * sum;
	if (!(sum > 0))
		return argmax_row(m, r, inv, maxc);
	int last = -1;
	for (uint32_t f = bits; f; f &= f - 1) {
		int i = low_bit(f);
		double w = r[i] * r[i];
		if (u < w)
			return i;
		u -= w;
		last = i;
	}
	return last >= 0 ? last : argmax_row(m, r, inv, maxc);
}

/* The stop test and the weights' bits of one iteration from R2v (see
 * above): 0 to stop, else 1 and *bits. */
__attribute__((target("avx2"))) static inline int
settle(int m, const double *r, const double *s, double maxc, double fro, double stop2, double R2v, double cl,
    double ch, uint32_t *bits)
{
	const double d = (double)(m + 2) * 0x1p-50;
	const double lo = R2v - R2v * d, hi = R2v + R2v * d, ql = R2v * cl, qh = R2v * ch;
	uint32_t at_lo;
	if (R2v >= 0x1p-900 && R2v <= 0x1p900 && ql >= 0x1p-900 && qh <= 0x1p900 && (hi <= stop2 || lo > stop2)) {
		if (hi <= stop2)
			return 0;
		*bits = weight_bits(m, r, s, maxc, qh, ql, &at_lo);
		if (*bits == at_lo)
			return 1;
	}
	double R2 = r2_rows(m, r);
	if (R2 <= stop2)
		return 0;
	*bits = weight_bits(m, r, s, maxc, R2 / fro, R2 / fro, &at_lo);
	return 1;
}

/* The iterations from the first residual r, its R2 (residual_step's) and
 * maxc; returns the number of averaged iterates. */
__attribute__((target("avx2"))) static int
greedy_whole_avx2(tagk_kz *k, int m, int T, double fro, double stop2, double R2v, double maxc, int avg)
{
	double *r = k->r, *s = k->s, *y = k->y, *z = k->ysum, *inv = k->inv;
	const double d = (double)(m + 2) * 0x1p-50, fi = 1 / fro;
	/* 1 / fro bracketed as R2 is; fro far from the range's ends, or the
	 * quotient always formed as the generic loop forms it */
	const int ok = fro >= 0x1p-500 && fro <= 0x1p500;
	const double cl = ok ? fi - fi * d : 0, ch = ok ? fi + fi * d : 0x1p1000;
	uint32_t formed = 0, bits;
	int count = 0;
	for (int t = 0; t < T; t++) {
		if (!settle(m, r, s, maxc, fro, stop2, R2v, cl, ch, &bits))
			break;
		int i = pick_bits(tagk_rng_uniform(&k->rng), m, r, inv, maxc, bits);
		double gamma = r[i] * inv[i];
		k->columns += !(formed >> i & 1);
		formed |= 1u << i;
		R2v = residual_lanes_avx2(m, r, k->G + (long)i * m, gamma, inv, &maxc);
		y[i] += gamma;
		if (avg && t >= k->cfg.burnin) {
			z[i] += gamma * (double)count;
			count++;
		}
	}
	return count;
}
#endif
/*
 * Greedy variants: the result goes to k->x.
 *
 * Tail averaging without an O(m) pass per iteration: the averaged iterates
 * are x0 + A^T y(t) for t >= burnin, so their sum is x0 C + A^T sum_t y(t),
 * and sum_t y(t)_i = y_i C - z_i, where C is the number of averaged iterates
 * and z_i accumulates gamma times the number of averaged iterates that came
 * before the step (they did not yet contain it).
 */
static void
greedy_update(tagk_kz *k, const tagk_real *A, const tagk_real *b, int m,
    tagk_real fro, tagk_real stop2, const tagk_real *x0)
{
	const int n = k->n, T = k->cfg.iters ? k->cfg.iters : m;
	const int avg = is_averaged(k->cfg.variant);
	tagk_real *r = k->r, *s = k->s, *y = k->y, *z = k->ysum, *G = k->G, *inv = k->inv;
	int count = 0;

	/* Zero rows keep r = 0 and weight 0, so they are never chosen. */
	for (int i = 0; i < m; i++) {
		r[i] = s[i] > 0 ? b[i] - r[i] : 0; /* r[i] held a_i . x0 (tagk_kz_update) */
		inv[i] = s[i] > 0 ? (tagk_real)1 / s[i] : 0;
		y[i] = z[i] = 0;
		G[(long)i * m + i] = -1;
	}
	k->columns = 0;
	uint32_t formed = 0; /* gram_column's record, for m <= 32 */
	tagk_real maxc;
	tagk_real R2 = residual_step(m, r, r, 0, inv, &maxc);
	int full = 0;
#if defined(KZ_AVX2)
	full = R2 > stop2 && kz_full(m);
	if (full) {
		gram_full_avx2(m, n, A, s, G);
		count = greedy_whole_avx2(k, m, T, fro, stop2, R2, maxc, avg);
	}
#endif
	for (int t = 0; t < T && !full; t++) {
		if (R2 <= stop2)
			break;
		int i = greedy_pick(&k->rng, m, r, s, inv, fro, R2, maxc, k->w);
		tagk_real gamma = r[i] * inv[i];
		k->columns += gram_column(m, n, A, s, G, i, &formed);
		R2 = residual_step(m, r, G + (long)i * m, gamma, inv, &maxc);
		y[i] += gamma;
		if (avg && t >= k->cfg.burnin) {
			z[i] += gamma * (tagk_real)count;
			count++;
		}
	}
	if (count > 0) {
		for (int i = 0; i < m; i++)
			z[i] = y[i] * (tagk_real)count - z[i];
		rebuild(m, n, A, x0, z, (tagk_real)1 / (tagk_real)count, k->x);
	} else {
		rebuild(m, n, A, x0, y, 1, k->x);
	}
}

/* Random variants: the result goes to k->x. */
static void
random_update(tagk_kz *k, const tagk_real *A, const tagk_real *b, int m,
    tagk_real stop2, const tagk_real *x0)
{
	const int n = k->n, T = k->cfg.iters ? k->cfg.iters : m;
	tagk_real *x = k->x, *xsum = k->xsum, *cdf = k->w;
	int count = 0, last = 0;

	tagk_residual(m, n, A, x0, b, k->r);
	for (int i = 0; i < m; i++)
		if (k->s[i] == 0)
			k->r[i] = 0;
	memcpy(x, x0, sizeof(*x) * (size_t)n);
	if (tagk_dot(m, k->r, k->r) <= stop2)
		return;
	tagk_real acc = 0;
	for (int i = 0; i < m; i++) {
		acc += k->s[i];
		cdf[i] = acc;
		if (k->s[i] > 0)
			last = i;
	}
	for (int j = 0; j < n; j++)
		xsum[j] = 0;
	for (int t = 0; t < T; t++) {
		tagk_real u = tagk_rng_uniform(&k->rng) * acc;
		int lo = 0, hi = last;
		while (lo < hi) { /* first i with cdf[i] > u */
			int mid = (lo + hi) / 2;
			if (cdf[mid] > u)
				hi = mid;
			else
				lo = mid + 1;
		}
		const tagk_real *a = A + (long)lo * n;
		tagk_real gamma = (b[lo] - tagk_dot(n, a, x)) / k->s[lo];
		for (int j = 0; j < n; j++)
			x[j] = tagk_mla(x[j], gamma, a[j]);
		if (is_averaged(k->cfg.variant) && t >= k->cfg.burnin) {
			for (int j = 0; j < n; j++)
				xsum[j] += x[j];
			count++;
		}
	}
	if (count > 0)
		for (int j = 0; j < n; j++)
			x[j] = xsum[j] / (tagk_real)count;
}

tagk_status
tagk_kz_update(tagk_kz *k, const tagk_real *A, const tagk_real *b, int m)
{
	if (!k || !A || !b || m < 1 || m > k->m_max)
		return TAGK_EINVAL;
	const int n = k->n;

	/* The row norms are needed anyway, and they check the window: a NaN or
	 * an infinity in a row makes its norm non-finite, so tagk_check_window's
	 * scan of every entry runs only when a norm is not finite (to tell bad
	 * data from squares that overflow) or every norm is 0. */
	tagk_real fro = 0, bnorm2 = 0;
	/* Start from theta (warm start) or theta0; the result is built in the
	 * scratch k->x and copied to theta only once it is known to be finite.
	 * The greedy variants' first residuals need a_i . x0, formed with the
	 * norm in one pass over the row (dot2: tagk_dot's bits for both). */
	const tagk_real *x0 = k->cfg.warm_start ? k->theta : k->theta0;
	const int greedy = k->cfg.variant == TAGK_KZ_GRK || k->cfg.variant == TAGK_KZ_TAGK;
#if defined(KZ_AVX2)
	const int wide = greedy && kz_avx2(n);
	if (wide)
		norms_avx2(m, n, A, x0, k->s, k->r);
#else
	const int wide = 0;
#endif
	for (int i = 0; i < m; i++) {
		const tagk_real *a = A + (long)i * n;
		if (greedy && !wide)
			dot2(n, a, x0, a, &k->s[i], &k->r[i]);
		else if (!greedy)
			k->s[i] = tagk_dot(n, a, a);
		fro += k->s[i];
		if (k->s[i] > 0)
			bnorm2 += b[i] * b[i];
	}
	tagk_status st;
	if (!tagk_isfinite(fro)) {
		st = tagk_check_window(A, b, m, k->m_max, n);
		return st != TAGK_OK ? st : TAGK_EDIVERGED; /* squares overflow: rescale the data */
	}
	if (!tagk_all_finite(m, b))
		return TAGK_ENONFINITE;
	if (!tagk_isfinite(bnorm2))
		return TAGK_EDIVERGED;
	if (!(fro > 0)) {
		st = tagk_check_window(A, b, m, k->m_max, n);
		return st != TAGK_OK ? st : TAGK_EZERO; /* entries so small that their squares underflow */
	}

	tagk_rng saved = k->rng;
	tagk_real stop2 = k->cfg.tol * k->cfg.tol * bnorm2;
	if (greedy)
		greedy_update(k, A, b, m, fro, stop2, x0);
	else
		random_update(k, A, b, m, stop2, x0);
	if (!tagk_all_finite(n, k->x)) {
		k->rng = saved;
		return TAGK_EDIVERGED;
	}
	memcpy(k->theta, k->x, sizeof(*k->x) * (size_t)n);
	return TAGK_OK;
}

/* The family's operations for the registry (methods.def). preset[0] is the
 * variant. */
static const char *const kz_keys[] = { "seed", "iters", "burnin", "tol", "warm-start", NULL };

static void
kz_defaults(tagk_config *cfg)
{
	tagk_kz_defaults(&cfg->u.kz, (tagk_kz_variant)(int)cfg->method->preset[0]);
}

static tagk_status
kz_set(tagk_config *cfg, const char *key, double v)
{
	tagk_kz_config *k = &cfg->u.kz;
	if (strcmp(key, "seed") == 0 && v >= 0 && v <= 18446744073709549568.0)
		cfg->seed = (uint64_t)v;
	else if (strcmp(key, "iters") == 0 && v >= 0 && v <= 1e9)
		k->iters = (int)v;
	else if (strcmp(key, "burnin") == 0 && v >= 0 && v <= 1e9)
		k->burnin = (int)v;
	else if (strcmp(key, "tol") == 0 && v >= 0 && v <= 1)
		k->tol = (tagk_real)v;
	else if (strcmp(key, "warm-start") == 0 && (v == 0 || v == 1))
		k->warm_start = (int)v;
	else
		return TAGK_EINVAL;
	return TAGK_OK;
}

static size_t
kz_len(const tagk_config *cfg)
{
	return tagk_kz_workspace_len(cfg->n, cfg->m_max);
}

static tagk_status
kz_init(tagk_estimator *e, const tagk_config *cfg, tagk_real *ws, size_t len)
{
	tagk_kz_config k = cfg->u.kz;
	k.seed = cfg->seed;
	return tagk_kz_init(&e->s.kz, &k, cfg->n, cfg->m_max, cfg->theta0, ws, len);
}

static tagk_status
kz_update(tagk_estimator *e, const tagk_real *A, const tagk_real *b, int m)
{
	return tagk_kz_update(&e->s.kz, A, b, m);
}

static const tagk_real *
kz_theta(const tagk_estimator *e)
{
	return e->s.kz.theta;
}

static void
kz_reset(tagk_estimator *e)
{
	tagk_kz_reset(&e->s.kz);
}

static const char *
kz_form(const tagk_estimator *e)
{
	tagk_kz_variant v = e->s.kz.cfg.variant;
	return v == TAGK_KZ_GRK || v == TAGK_KZ_TAGK ? "greedy-gram" : "random";
}

static tagk_real
kz_prior(const tagk_config *cfg)
{
	(void)cfg;
	return 0;
}

const tagk_window_ops tagk_kz_ops = {
	.head = { kz_keys },
	.defaults = kz_defaults,
	.set = kz_set,
	.forms = NULL,
	.workspace_len = kz_len,
	.init = kz_init,
	.update = kz_update,
	.theta = kz_theta,
	.reset = kz_reset,
	.form = kz_form,
	.prior_information = kz_prior,
};
