/*
 * bench_cfpend.c: tagk-bench coordinv's Fig. 4, the Crazyflie with a
 * pendulum (bench/sim/cfpend.h): six training and six test flights per seed;
 * lib/coordinv.h's methods; scored by the NCC of the predicted
 * accelerations against the measured ones.
 *
 * Not every parameter is identifiable (the paper says so too): six
 * combinations of the 30 never change Y theta, whatever the motion. They
 * also never change the mass matrix (Y theta = M qdd + h for every qdd),
 * so predictions do not see them. The unconstrained methods therefore solve
 * for the identifiable part, pi = pi0 + B beta with B an orthonormal basis of
 * the training regressor's row space and pi0 the prior, which fixes the
 * rest. The physical ones (WLS-Bregman, DM-pc, every method with
 * --physical) solve for all 30: the pseudo-inertias' barrier or divergence
 * fixes the rest.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_cfpend.h"
#include "coordinv_tables.h"
#include "../cmd/common/cli.h"
#include "../lib/tagk.h"
#include "../lib/coordinv.h"
#include "sim/cfpend.h"

enum { N = TAGK_CFP_N, P = TAGK_CFP_P, RUNS = 6, NM = TAGK_CI_NMETHODS };

static const char *const coord_names[N] = { "wx'", "wy'", "wz'", "vx'", "vy'", "vz'", "alpha1''", "alpha2''" };

typedef struct {
	tagk_real *Y, *tau, *Mj, *qd; /* per sample: N x P; N; (P + 1) x N x N (0, then the mass
	                              * matrix's part of each parameter: dmls.h's layout); N */
} dataset;

static void
collect(const tagk_mb_model *m, const tagk_cfp_sample *s, long stride, long count, dataset *d, long at)
{
	for (long c = 0; c < count; c++) {
		const tagk_cfp_sample *x = s + c * stride;
		long k = at + c;
		tagk_mb_kin kin;
		if (tagk_mb_kinematics(m, x->R, x->p, x->alpha, x->qd, x->qdd, &kin) != TAGK_OK)
			cli_die(EXIT_DATA, "coordinv: a sample that is not finite");
		tagk_mb_regressor(&kin, m, d->Y + k * N * P);
		memcpy(d->tau + k * N, x->tau, sizeof(x->tau));
		memcpy(d->qd + k * N, x->qd, sizeof(x->qd));
		memset(d->Mj + k * (P + 1) * N * N, 0, sizeof(*d->Mj) * N * N);
		for (int j = 0; j < P; j++) {
			tagk_real e[P] = { 0 };
			e[j] = 1;
			tagk_mb_mass_matrix(&kin, m, e, d->Mj + (k * (P + 1) + 1 + j) * N * N);
		}
	}
}

/* theta of each body off by up to rho: mass, centre of mass and the
 * inertia about it scaled by 1 + rho u (u uniform in [-1, 1]): physical. */
static void
prior_of(const tagk_real truth[P], double rho, tagk_rng *g, tagk_real prior[P])
{
	for (int b = 0; b < TAGK_CFP_BODIES; b++) {
		const tagk_real *t = truth + TAGK_NPARAM * b;
		tagk_real c[3], Ic[9];
		tagk_theta_to_body(t, c, Ic);
		tagk_real m = t[TAGK_P_M] * (tagk_real)(1 + rho * (2 * (double)tagk_rng_uniform(g) - 1));
		for (int i = 0; i < 3; i++)
			c[i] *= (tagk_real)(1 + rho * (2 * (double)tagk_rng_uniform(g) - 1));
		tagk_real k = (tagk_real)(1 + rho * (2 * (double)tagk_rng_uniform(g) - 1));
		for (int i = 0; i < 9; i++)
			Ic[i] *= k;
		tagk_theta_from_body(m, c, Ic, prior + TAGK_NPARAM * b);
	}
}

/* The pullback metric of the pseudo-inertias at prior: each body's block
 * (tagk_pullback_metric), 0 across bodies. */
static void
pullback(const tagk_real prior[P], tagk_real G[P * P])
{
	memset(G, 0, sizeof(*G) * P * P);
	for (int b = 0; b < TAGK_CFP_BODIES; b++) {
		tagk_real Gb[TAGK_NPARAM * TAGK_NPARAM];
		if (tagk_pullback_metric(prior + TAGK_NPARAM * b, Gb) != TAGK_OK)
			cli_die(EXIT_DATA, "coordinv: the prior is not physical");
		for (int i = 0; i < TAGK_NPARAM; i++)
			for (int j = 0; j < TAGK_NPARAM; j++)
				G[(TAGK_NPARAM * b + i) * P + TAGK_NPARAM * b + j] = Gb[i * TAGK_NPARAM + j];
	}
}

/* One experiment: the simulator's settings, the training data and its
 * reduction, the estimates of the current seed, and the scores. */
typedef struct {
	const cfp_opts *o;
	tagk_cfp_config cc;
	long per, ntrain, max_shift;
	tagk_mb_model m;
	tagk_real truth[P], prior[P], G[P * P];
	tagk_cfp_sample *run;
	dataset d;
	/* the reduced problem: Y B, tau - Y pi0, M(pi0) and the parts M B */
	tagk_real *rY, *rtau, *rM;
	/* the low-data regime's samples of the full problem */
	tagk_real *lowY, *lowtau, *lowM, *lowqd;
	tagk_real *ws, *meas, *measured, *pred, *pcol;
	size_t wslen;
	int rank;
	int rank_low_force, rank_low_energy, rank_energy; /* the footnote's claim, measured on the first seed */
	tagk_real B[P * P], Gr[P * P];  /* the identifiable subspace, the prior's metric on it */
	tagk_real est[2][NM][P];
	int ok[2][NM];
	double sum[2][NM][N], sq[2][NM][N];
	long cnt[2][NM], failed[2][NM];
} cfprun;

static void
open_run(cfprun *x, const cfp_opts *o)
{
	memset(x, 0, sizeof(*x));
	x->o = o;
	tagk_cfp_config *cc = &x->cc;
	tagk_cfp_defaults(cc);
	cc->pos_noise = (tagk_real)o->pos_noise;
	cc->differentiate = o->differentiate;
	cc->rotor_drag = (tagk_real)o->rotor_drag;
	cc->thrust_error = (tagk_real)o->thrust_error;
	cc->joint_friction = (tagk_real)o->joint_friction;
	const long per = x->per = tagk_cfp_samples(cc), ntrain = x->ntrain = RUNS * per;
	if (o->low > ntrain)
		cli_die(EXIT_USAGE, "--low: %ld samples, but the training flights have %ld", o->low, ntrain);
	tagk_cfp_model(&x->m, x->truth);
	x->run = malloc((size_t)per * sizeof(*x->run));
	x->d.Y = malloc((size_t)ntrain * N * P * sizeof(*x->d.Y));
	x->d.tau = malloc((size_t)ntrain * N * sizeof(*x->d.tau));
	x->d.Mj = malloc((size_t)ntrain * (P + 1) * N * N * sizeof(*x->d.Mj));
	x->d.qd = malloc((size_t)ntrain * N * sizeof(*x->d.qd));
	x->rY = malloc((size_t)ntrain * N * P * sizeof(*x->rY)), x->rtau = malloc((size_t)ntrain * N * sizeof(*x->rtau));
	x->rM = malloc((size_t)ntrain * (P + 1) * N * N * sizeof(*x->rM));
	x->wslen = tagk_ci_workspace_len(N, P);
	x->ws = malloc(x->wslen * sizeof(*x->ws)), x->meas = malloc((size_t)per * sizeof(*x->meas));
	x->measured = malloc((size_t)per * N * sizeof(*x->measured));
	x->lowY = malloc((size_t)o->low * N * P * sizeof(*x->lowY));
	x->lowtau = malloc((size_t)o->low * N * sizeof(*x->lowtau));
	x->lowM = malloc((size_t)o->low * (P + 1) * N * N * sizeof(*x->lowM));
	x->lowqd = malloc((size_t)o->low * N * sizeof(*x->lowqd));
	x->pred = malloc((size_t)per * N * sizeof(*x->pred)), x->pcol = malloc((size_t)per * sizeof(*x->pcol));
	if (!x->run || !x->d.Y || !x->d.tau || !x->d.Mj || !x->d.qd || !x->rY || !x->rtau || !x->rM || !x->ws || !x->meas
	    || !x->measured || !x->pred || !x->pcol || !x->lowY || !x->lowtau || !x->lowM || !x->lowqd)
		cli_die(EXIT_DATA, "out of memory");
	x->max_shift = lround(5.0 / 360 / 0.29 * (double)cc->rate);
}

/* The identifiable subspace B (rank columns) from all of the training
 * rows, and the prior's pullback metric on it. */
static void
subspace(cfprun *x)
{
	tagk_real H[P * P] = { 0 }, w[P], V[P * P], scr[P * P];
	for (long k = 0; k < x->ntrain; k++)
		for (int i = 0; i < N; i++) {
			const tagk_real *y = x->d.Y + (k * N + i) * P;
			for (int a = 0; a < P; a++)
				for (int b = 0; b < P; b++)
					H[a * P + b] += y[a] * y[b];
		}
	if (tagk_symeig(P, H, w, V, scr) != TAGK_OK)
		cli_die(EXIT_DATA, "coordinv: the regressor is not finite");
	int rank = 0;
	for (int j = 0; j < P; j++)
		if (w[j] > (tagk_real)1e-10 * w[P - 1]) {
			for (int a = 0; a < P; a++)
				x->B[a * P + rank] = V[a * P + j];
			rank++;
		}
	x->rank = rank;
	for (int a = 0; a < rank; a++)
		for (int b = 0; b < rank; b++) {
			tagk_real s = 0;
			for (int i = 0; i < P; i++)
				for (int j = 0; j < P; j++)
					s += x->B[i * P + a] * x->G[i * P + j] * x->B[j * P + b];
			x->Gr[a * rank + b] = s;
		}
}

/* The numerical rank (eigenvalues of the Gram matrix above 1e-10 of the
 * largest, as subspace() counts) of rows r of P columns each; with qd, the
 * rows are each sample's power row qd_k^T Y_k (eq. 9's), one per sample. */
static int
rank_of(const tagk_real *Y, const tagk_real *qd, long samples, long stride)
{
	tagk_real H[P * P] = { 0 }, w[P], V[P * P], scr[P * P], e[P];
	for (long c = 0; c < samples; c++) {
		long k = c * stride;
		for (int i = 0; i < (qd ? 1 : N); i++) {
			const tagk_real *y = Y + (k * N + i) * P;
			if (qd) {
				for (int a = 0; a < P; a++) {
					e[a] = 0;
					for (int j = 0; j < N; j++)
						e[a] += qd[k * N + j] * Y[(k * N + j) * P + a];
				}
				y = e;
			}
			for (int a = 0; a < P; a++)
				for (int b = 0; b < P; b++)
					H[a * P + b] += y[a] * y[b];
		}
	}
	if (tagk_symeig(P, H, w, V, scr) != TAGK_OK)
		return -1;
	int rank = 0;
	for (int j = 0; j < P; j++)
		rank += w[j] > (tagk_real)1e-10 * w[P - 1];
	return rank;
}

/* Training sample k as the c-th of the reduced problem around the prior:
 * Y B, tau - Y pi0, M(pi0) and the parts M B. */
static void
reduce(cfprun *x, long c, long k)
{
	const int rank = x->rank;
	const tagk_real *Y = x->d.Y + k * N * P, *B = x->B, *prior = x->prior;
	tagk_real *ry = x->rY + c * N * rank, *rt = x->rtau + c * N, *rm = x->rM + c * (rank + 1) * N * N;
	for (int i = 0; i < N; i++) {
		tagk_real s = x->d.tau[k * N + i];
		for (int a = 0; a < P; a++)
			s -= Y[i * P + a] * prior[a];
		rt[i] = s;
		for (int b = 0; b < rank; b++) {
			tagk_real v = 0;
			for (int a = 0; a < P; a++)
				v += Y[i * P + a] * B[a * P + b];
			ry[i * rank + b] = v;
		}
	}
	const tagk_real *Mk = x->d.Mj + k * (P + 1) * N * N;
	for (int e = 0; e < N * N; e++) {
		tagk_real m0 = 0;
		for (int a = 0; a < P; a++)
			m0 += prior[a] * Mk[(1 + a) * N * N + e];
		rm[e] = m0;
		for (int b = 0; b < rank; b++) {
			tagk_real v = 0;
			for (int a = 0; a < P; a++)
				v += B[a * P + b] * Mk[(1 + a) * N * N + e];
			rm[(1 + b) * N * N + e] = v;
		}
	}
}

/* The low-data regime's full problem: every stride-th training sample. */
static void
low_copy(cfprun *x, long count, long stride)
{
	const dataset *d = &x->d;
	for (long c = 0; c < count; c++) {
		memcpy(x->lowY + c * N * P, d->Y + c * stride * N * P, sizeof(*x->lowY) * N * P);
		memcpy(x->lowtau + c * N, d->tau + c * stride * N, sizeof(*x->lowtau) * N);
		memcpy(x->lowqd + c * N, d->qd + c * stride * N, sizeof(*x->lowqd) * N);
		memcpy(x->lowM + c * (P + 1) * N * N, d->Mj + c * stride * (P + 1) * N * N, sizeof(*x->lowM) * (P + 1) * N * N);
	}
}

/* Every method's estimate in regime reg (0 low data, 1 high). The
 * unconstrained ones solve the reduced problem (pi = pi0 + B beta); the
 * ones that keep the pseudo-inertias physical solve the full problem, as
 * their barrier or divergence also fixes what the data leave free. */
static void
estimate(cfprun *x, int reg)
{
	const cfp_opts *o = x->o;
	long count = reg == 0 ? o->low : x->ntrain, stride = reg == 0 ? x->ntrain / o->low : 1;
	for (long c = 0; c < count; c++)
		reduce(x, c, c * stride);
	tagk_real *gY = x->d.Y, *gt = x->d.tau, *gM = x->d.Mj, *gqd = x->d.qd;
	if (stride != 1) {
		low_copy(x, count, stride);
		gY = x->lowY, gt = x->lowtau, gM = x->lowM, gqd = x->lowqd;
	}
	tagk_dmls_problem pb, full;
	tagk_dmls_defaults(&pb);
	pb.N = (int)count;
	pb.n = N;
	pb.p = x->rank;
	pb.bodies = 0;
	pb.Y = x->rY;
	pb.tau = x->rtau;
	pb.M = x->rM;
	full = pb;
	full.p = P;
	full.bodies = TAGK_CFP_BODIES;
	full.Y = gY;
	full.tau = gt;
	full.M = gM;
	tagk_real zero[P] = { 0 };
	for (int k = 0; k < NM; k++) {
		tagk_real beta[P];
		tagk_status st;
		if (o->physical && k == TAGK_CI_DUAL_PC) {
			x->ok[reg][k] = 0; /* DM itself is DM-pc here; the row is not printed */
			continue;
		}
		if (o->physical || k == TAGK_CI_BREGMAN || k == TAGK_CI_DUAL_PC) {
			st = tagk_ci_solve((tagk_ci_method)k, &full, gqd, x->prior, (tagk_real)o->lambda, x->est[reg][k], x->ws,
			    x->wslen);
			x->ok[reg][k] = st == TAGK_OK;
			continue;
		}
		if (k == TAGK_CI_PULLBACK)
			st = tagk_ci_solve_metric(&pb, x->Gr, zero, (tagk_real)o->lambda, beta, x->ws, x->wslen);
		else
			st = tagk_ci_solve((tagk_ci_method)k, &pb, gqd, zero, 0, beta, x->ws, x->wslen);
		x->ok[reg][k] = st == TAGK_OK;
		for (int a = 0; a < P; a++) {
			tagk_real v = x->prior[a];
			for (int b = 0; b < x->rank; b++)
				v += x->B[a * P + b] * beta[b];
			x->est[reg][k][a] = v;
		}
	}
}

/* theta's predicted accelerations over the test flight in x->run, into
 * x->pred: qdd = M(pi)^-1 (tau - h(pi)), h from the regressor at qdd = 0.
 * 0 if a mass matrix is singular. */
static int
predict(cfprun *x, const tagk_real *theta)
{
	for (long t = 0; t < x->per; t++) {
		const tagk_cfp_sample *s = &x->run[t];
		tagk_mb_kin kin;
		tagk_real Mt[N * N], Y0[N * P], rhs[N];
		tagk_mb_kinematics(&x->m, s->R, s->p, s->alpha, s->qd, NULL, &kin);
		tagk_mb_regressor(&kin, &x->m, Y0);
		tagk_mb_mass_matrix(&kin, &x->m, theta, Mt);
		for (int i = 0; i < N; i++) {
			tagk_real v = s->tau[i];
			for (int a = 0; a < P; a++)
				v -= Y0[i * P + a] * theta[a];
			rhs[i] = v;
		}
		if (!coordinv_solve(N, Mt, rhs, x->pred + t * N))
			return 0;
	}
	return 1;
}

/* The seed's six test flights, each method scored by NCC. */
static void
score_tests(cfprun *x, int seed)
{
	for (int r = 0; r < RUNS; r++) {
		x->cc.seed = (uint64_t)seed * 100u + 50u + (uint64_t)r;
		tagk_status st = tagk_cfp_run(&x->cc, x->run, x->per);
		if (st != TAGK_OK)
			cli_die(EXIT_DATA, "coordinv: a test flight failed: %s", tagk_strerror(st));
		for (long t = 0; t < x->per; t++)
			memcpy(x->measured + t * N, x->run[t].qdd, sizeof(*x->measured) * N);
		for (int reg = 0; reg < 2; reg++)
			for (int k = 0; k < NM; k++) {
				x->cnt[reg][k]++;
				if (!x->ok[reg][k] || !predict(x, x->est[reg][k])) {
					x->failed[reg][k]++;
					continue;
				}
				coordinv_score(N, x->per, x->measured, x->pred, x->max_shift, x->sum[reg][k], x->sq[reg][k],
				    x->meas, x->pcol);
			}
	}
}

/* One seed: its prior, training flights, subspace, estimates and scores. */
static void
run_seed(cfprun *x, int seed)
{
	tagk_rng g;
	tagk_rng_seed(&g, (uint64_t)seed * 104729u + 3u);
	prior_of(x->truth, x->o->prior_error, &g, x->prior);
	pullback(x->prior, x->G);
	for (int r = 0; r < RUNS; r++) {
		x->cc.seed = (uint64_t)seed * 100u + (uint64_t)r;
		tagk_status st = tagk_cfp_run(&x->cc, x->run, x->per);
		if (st != TAGK_OK)
			cli_die(EXIT_DATA, "coordinv: a training flight failed: %s", tagk_strerror(st));
		collect(&x->m, x->run, 1, x->per, &x->d, r * x->per);
	}
	subspace(x);
	if (seed == 1) {
		long stride = x->ntrain / x->o->low;
		x->rank_low_force = rank_of(x->d.Y, NULL, x->o->low, stride);
		x->rank_low_energy = rank_of(x->d.Y, x->d.qd, x->o->low, stride);
		x->rank_energy = rank_of(x->d.Y, x->d.qd, x->ntrain, 1);
	}
	for (int reg = 0; reg < 2; reg++)
		estimate(x, reg);
	score_tests(x, seed);
}

/* The paper's claims (Sec. IV-A) on the means: its DM (constrained) best
 * of OLS, WLS, energy and the two regularised WLS on the shape
 * coordinates, the unconstrained DM-unc beside it. */
static void
print_claims(const cfprun *x, double mean[2][NM][N])
{
	const cfp_opts *o = x->o;
	const int dm = coordinv_paper_dm(o->physical);
	printf("\nThe paper's claims (Sec. IV-A), on these numbers (the prior off by up to %g %%):\n", 100 * o->prior_error);
	for (int reg = 0; reg < 2; reg++)
		for (int i = 6; i < 8; i++) {
			int best = 1, best_unc = 1;
			for (int k = 0; k < TAGK_CI_DUAL; k++) {
				best &= mean[reg][k][i] < mean[reg][dm][i];
				best_unc &= mean[reg][k][i] < mean[reg][TAGK_CI_DUAL][i];
			}
			coordinv_print_claim(reg == 0, coord_names[i], "DM best", best, mean[reg][dm][i], o->physical,
			    best_unc, mean[reg][TAGK_CI_DUAL][i]);
		}
}

/* The footnote (Sec. IV): "the downsampled identification regression
 * remains the same rank as the full-data regression", measured for the
 * force rows and for the energy method's own rows. */
static void
print_ranks(const cfprun *x)
{
	printf("\nRanks on the first seed's training flights (the paper's footnote 2 says downsampling keeps it):\n"
	    "  force rows, all %ld samples: %d; the %ld low-data samples: %d\n"
	    "  energy rows (one power row per sample, eq. 9), all: %d; low data: %d of the %d it needs%s\n",
	    x->ntrain, x->rank, x->o->low, x->rank_low_force, x->rank_energy, x->rank_low_energy, x->rank,
	    x->rank_low_energy < x->rank ? ": fewer rows than unknowns, so energy fails or\n  is held by the prior alone"
	                                  : "");
}

/* The tables of Fig. 4 and the paper's claims checked on them. */
static void
print_tables(const cfprun *x, double t0)
{
	const cfp_opts *o = x->o;
	double mean[2][NM][N];
	for (int reg = 0; reg < 2; reg++)
		for (int k = 0; k < NM; k++)
			for (int i = 0; i < N; i++)
				mean[reg][k][i] = x->sum[reg][k][i] / (double)x->cnt[reg][k];
	if (o->claims_only) {
		print_claims(x, mean);
		return;
	}
	printf("\n# Fig. 4: the Crazyflie with a pendulum (bench/sim/cfpend.h), inertia-dominated: %d x %ld samples of\n"
	    "# training flights at %g Hz (low data: %ld of them, evenly spaced), 6 test flights; scored by the NCC of the\n"
	    "# predicted accelerations M(pi^)^-1 (tau - h) against the measured ones (shifts of up to %ld samples: 5\n"
	    "# degrees of the 3.4 s yaw period). %d of the 30 parameters identifiable; %s\n"
	    "# (the prior: the truth off by up to %g %%; lambda %g). Mean (standard deviation) over %d\n"
	    "# seeds x 6 flights; a method that fails counts as NCC 0. Mismatch: position noise %g, velocities and accelerations %s, rotor drag %g N s/m,\n"
	    "# thrust-map error %g, joint friction %g N m s/rad. DM is the paper's, kept physical (eq. 29); DM-unc without. %.1f s.\n",
	    RUNS, x->per, (double)x->cc.rate, o->low,
	    x->max_shift, x->rank, o->physical ? "every method solves for all 30 with the\n# pseudo-inertias kept physical (--physical)"
	    : "the unconstrained methods solve for those around\n# the prior, WLS-Bregman and DM for all 30 with the pseudo-inertias kept physical", 100 * o->prior_error, o->lambda, o->seeds, o->pos_noise, o->differentiate ? "by central differences"
	    : "exact", o->rotor_drag, o->thrust_error, o->joint_friction, cli_seconds() - t0);
	for (int reg = 0; reg < 2; reg++) {
		printf("\n%s data (%ld samples)\n%-15s", reg == 0 ? "low" : "high", reg == 0 ? o->low : x->ntrain, "method");
		for (int i = 0; i < N; i++)
			printf(" %14s", coord_names[i]);
		printf(" %7s\n", "failed");
		for (int k = 0; k < NM; k++) {
			if (o->physical && k == TAGK_CI_DUAL_PC)
				continue; /* DM itself is kept physical */
			printf("%-15s", coordinv_name(k, o->physical));
			for (int i = 0; i < N; i++) {
				double mu = mean[reg][k][i];
				printf(" %6.3f (%5.3f)", mu, sqrt(fmax(0, x->sq[reg][k][i] / (double)x->cnt[reg][k] - mu * mu)));
			}
			printf(" %3ld/%ld\n", x->failed[reg][k], x->cnt[reg][k]);
		}
	}
	print_ranks(x);
	print_claims(x, mean);
}

void
coordinv_crazyflie(const cfp_opts *o)
{
	double t0 = cli_seconds();
	static cfprun x;
	open_run(&x, o);
	for (int seed = 1; seed <= o->seeds; seed++)
		run_seed(&x, seed);
	print_tables(&x, t0);
	free(x.run);
	free(x.d.Y);
	free(x.d.tau);
	free(x.d.Mj);
	free(x.d.qd);
	free(x.lowY);
	free(x.lowtau);
	free(x.lowM);
	free(x.lowqd);
	free(x.rY);
	free(x.rtau);
	free(x.rM);
	free(x.ws);
	free(x.meas);
	free(x.measured);
	free(x.pred);
	free(x.pcol);
}
