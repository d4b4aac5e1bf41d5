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
#include "../cmd/cli.h"
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

void
coordinv_crazyflie(const cfp_opts *o)
{
	double t0 = cli_seconds();
	tagk_cfp_config cc;
	tagk_cfp_defaults(&cc);
	cc.pos_noise = (tagk_real)o->pos_noise;
	cc.differentiate = o->differentiate;
	cc.rotor_drag = (tagk_real)o->rotor_drag;
	cc.thrust_error = (tagk_real)o->thrust_error;
	cc.joint_friction = (tagk_real)o->joint_friction;
	const long per = tagk_cfp_samples(&cc), ntrain = RUNS * per;
	if (o->low > ntrain)
		cli_die(EXIT_USAGE, "--low: %ld samples, but the training flights have %ld", o->low, ntrain);
	tagk_mb_model m;
	tagk_real truth[P];
	tagk_cfp_model(&m, truth);
	tagk_cfp_sample *run = malloc((size_t)per * sizeof(*run));
	dataset d = { NULL, NULL, NULL, NULL };
	d.Y = malloc((size_t)ntrain * N * P * sizeof(*d.Y));
	d.tau = malloc((size_t)ntrain * N * sizeof(*d.tau));
	d.Mj = malloc((size_t)ntrain * (P + 1) * N * N * sizeof(*d.Mj));
	d.qd = malloc((size_t)ntrain * N * sizeof(*d.qd));
	/* the reduced problem: Y B, tau - Y pi0, M(pi0) and the parts M B */
	tagk_real *rY = malloc((size_t)ntrain * N * P * sizeof(*rY)), *rtau = malloc((size_t)ntrain * N * sizeof(*rtau));
	tagk_real *rM = malloc((size_t)ntrain * (P + 1) * N * N * sizeof(*rM));
	size_t wslen = tagk_ci_workspace_len(N, P);
	tagk_real *ws = malloc(wslen * sizeof(*ws)), *meas = malloc((size_t)per * sizeof(*meas));
	tagk_real *measured = malloc((size_t)per * N * sizeof(*measured));
	tagk_real *lowY = malloc((size_t)o->low * N * P * sizeof(*lowY)), *lowtau = malloc((size_t)o->low * N * sizeof(*lowtau));
	tagk_real *lowM = malloc((size_t)o->low * (P + 1) * N * N * sizeof(*lowM));
	tagk_real *lowqd = malloc((size_t)o->low * N * sizeof(*lowqd));
	tagk_real *pred = malloc((size_t)per * N * sizeof(*pred)), *pcol = malloc((size_t)per * sizeof(*pcol));
	if (!run || !d.Y || !d.tau || !d.Mj || !d.qd || !rY || !rtau || !rM || !ws || !meas || !measured || !pred || !pcol || !lowY
	    || !lowtau || !lowM || !lowqd)
		cli_die(EXIT_DATA, "out of memory");
	double sum[2][NM][N] = { { { 0 } } }, sq[2][NM][N] = { { { 0 } } };
	long cnt[2][NM] = { { 0 } }, failed[2][NM] = { { 0 } };
	int rank = 0;
	const long max_shift = lround(5.0 / 360 / 0.29 * (double)cc.rate);
	for (int seed = 1; seed <= o->seeds; seed++) {
		tagk_rng g;
		tagk_rng_seed(&g, (uint64_t)seed * 104729u + 3u);
		tagk_real prior[P], G[P * P];
		prior_of(truth, o->prior_error, &g, prior);
		pullback(prior, G);
		for (int r = 0; r < RUNS; r++) {
			cc.seed = (uint64_t)seed * 100u + (uint64_t)r;
			tagk_status st = tagk_cfp_run(&cc, run, per);
			if (st != TAGK_OK)
				cli_die(EXIT_DATA, "coordinv: a training flight failed: %s", tagk_strerror(st));
			collect(&m, run, 1, per, &d, r * per);
		}
		/* the identifiable subspace, from all of the training rows */
		tagk_real H[P * P] = { 0 }, w[P], V[P * P], scr[P * P];
		for (long k = 0; k < ntrain; k++)
			for (int i = 0; i < N; i++) {
				const tagk_real *y = d.Y + (k * N + i) * P;
				for (int a = 0; a < P; a++)
					for (int b = 0; b < P; b++)
						H[a * P + b] += y[a] * y[b];
			}
		if (tagk_symeig(P, H, w, V, scr) != TAGK_OK)
			cli_die(EXIT_DATA, "coordinv: the regressor is not finite");
		tagk_real B[P * P];
		rank = 0;
		for (int j = 0; j < P; j++)
			if (w[j] > (tagk_real)1e-10 * w[P - 1]) {
				for (int a = 0; a < P; a++)
					B[a * P + rank] = V[a * P + j];
				rank++;
			}
		tagk_real Gr[P * P], zero[P] = { 0 };
		for (int a = 0; a < rank; a++) {
			for (int b = 0; b < rank; b++) {
				tagk_real s = 0;
				for (int i = 0; i < P; i++)
					for (int j = 0; j < P; j++)
						s += B[i * P + a] * G[i * P + j] * B[j * P + b];
				Gr[a * rank + b] = s;
			}
		}
		tagk_real est[2][NM][P];
		int ok[2][NM];
		for (int reg = 0; reg < 2; reg++) {
			long count = reg == 0 ? o->low : ntrain, stride = reg == 0 ? ntrain / o->low : 1;
			for (long c = 0; c < count; c++) {
				long k = c * stride;
				const tagk_real *Y = d.Y + k * N * P;
				tagk_real *ry = rY + c * N * rank, *rt = rtau + c * N, *rm = rM + c * (rank + 1) * N * N;
				for (int i = 0; i < N; i++) {
					tagk_real s = d.tau[k * N + i];
					for (int a = 0; a < P; a++)
						s -= Y[i * P + a] * prior[a];
					rt[i] = s;
					for (int b = 0; b < rank; b++) {
						tagk_real x = 0;
						for (int a = 0; a < P; a++)
							x += Y[i * P + a] * B[a * P + b];
						ry[i * rank + b] = x;
					}
				}
				for (int e = 0; e < N * N; e++) {
					tagk_real m0 = 0;
					for (int a = 0; a < P; a++)
						m0 += prior[a] * d.Mj[(k * (P + 1) + 1 + a) * N * N + e];
					rm[e] = m0;
					for (int b = 0; b < rank; b++) {
						tagk_real x = 0;
						for (int a = 0; a < P; a++)
							x += B[a * P + b] * d.Mj[(k * (P + 1) + 1 + a) * N * N + e];
						rm[(1 + b) * N * N + e] = x;
					}
				}
			}
			/* the full problem (every parameter), for the methods that keep the
			 * pseudo-inertias physical: their barrier or divergence also fixes
			 * what the data leave free */
			tagk_real *gY = d.Y, *gt = d.tau, *gM = d.Mj, *gqd = d.qd;
			if (stride != 1) {
				gY = lowY, gt = lowtau, gM = lowM, gqd = lowqd;
				for (long c = 0; c < count; c++) {
					memcpy(gY + c * N * P, d.Y + c * stride * N * P, sizeof(*gY) * N * P);
					memcpy(gt + c * N, d.tau + c * stride * N, sizeof(*gt) * N);
					memcpy(gqd + c * N, d.qd + c * stride * N, sizeof(*gqd) * N);
					memcpy(gM + c * (P + 1) * N * N, d.Mj + c * stride * (P + 1) * N * N,
					    sizeof(*gM) * (P + 1) * N * N);
				}
			}
			tagk_dmls_problem pb, full;
			tagk_dmls_defaults(&pb);
			pb.N = (int)count;
			pb.n = N;
			pb.p = rank;
			pb.bodies = 0;
			pb.Y = rY;
			pb.tau = rtau;
			pb.M = rM;
			full = pb;
			full.p = P;
			full.bodies = TAGK_CFP_BODIES;
			full.Y = gY;
			full.tau = gt;
			full.M = gM;
			for (int k = 0; k < NM; k++) {
				tagk_real beta[P];
				tagk_status st;
				if (o->physical && k == TAGK_CI_DUAL_PC) {
					ok[reg][k] = 0; /* DM itself is DM-pc here; the row is not printed */
					continue;
				}
				if (o->physical || k == TAGK_CI_BREGMAN || k == TAGK_CI_DUAL_PC) {
					st = tagk_ci_solve((tagk_ci_method)k, &full, gqd, prior, (tagk_real)o->lambda, est[reg][k], ws,
					    wslen);
					ok[reg][k] = st == TAGK_OK;
					continue;
				}
				/* the reduced problem: pi = pi0 + B beta */
				if (k == TAGK_CI_PULLBACK)
					st = tagk_ci_solve_metric(&pb, Gr, zero, (tagk_real)o->lambda, beta, ws, wslen);
				else
					st = tagk_ci_solve((tagk_ci_method)k, &pb, gqd, zero, 0, beta, ws, wslen);
				ok[reg][k] = st == TAGK_OK;
				for (int a = 0; a < P; a++) {
					tagk_real x = prior[a];
					for (int b = 0; b < rank; b++)
						x += B[a * P + b] * beta[b];
					est[reg][k][a] = x;
				}
			}
		}
		/* the test flights */
		for (int r = 0; r < RUNS; r++) {
			cc.seed = (uint64_t)seed * 100u + 50u + (uint64_t)r;
			tagk_status st = tagk_cfp_run(&cc, run, per);
			if (st != TAGK_OK)
				cli_die(EXIT_DATA, "coordinv: a test flight failed: %s", tagk_strerror(st));
			for (long t = 0; t < per; t++)
				memcpy(measured + t * N, run[t].qdd, sizeof(*measured) * N);
			for (int reg = 0; reg < 2; reg++)
				for (int k = 0; k < NM; k++) {
					cnt[reg][k]++;
					int good = ok[reg][k];
					for (long t = 0; good && t < per; t++) {
						/* qdd = M(pi)^-1 (tau - h(pi)), h from the regressor at qdd = 0 */
						tagk_mb_kin kin;
						tagk_real Mt[N * N], Y0[N * P], rhs[N];
						tagk_mb_kinematics(&m, run[t].R, run[t].p, run[t].alpha, run[t].qd, NULL, &kin);
						tagk_mb_regressor(&kin, &m, Y0);
						tagk_mb_mass_matrix(&kin, &m, est[reg][k], Mt);
						for (int i = 0; i < N; i++) {
							tagk_real s = run[t].tau[i];
							for (int a = 0; a < P; a++)
								s -= Y0[i * P + a] * est[reg][k][a];
							rhs[i] = s;
						}
						good = coordinv_solve(N, Mt, rhs, pred + t * N);
					}
					if (!good) {
						failed[reg][k]++;
						continue;
					}
					coordinv_score(N, per, measured, pred, max_shift, sum[reg][k], sq[reg][k], meas, pcol);
				}
		}
	}
	printf("\n# Fig. 4: the Crazyflie with a pendulum (bench/sim/cfpend.h), inertia-dominated: %d x %ld samples of\n"
	    "# training flights at %g Hz (low data: %ld of them, evenly spaced), 6 test flights; scored by the NCC of the\n"
	    "# predicted accelerations M(pi^)^-1 (tau - h) against the measured ones (shifts of up to %ld samples: 5\n"
	    "# degrees of the 3.4 s yaw period). %d of the 30 parameters identifiable; %s\n"
	    "# (the prior: the truth off by up to %g %%; lambda %g). Mean (standard deviation) over %d\n"
	    "# seeds x 6 flights; a method that fails counts as NCC 0. Mismatch: position noise %g, velocities and accelerations %s, rotor drag %g N s/m,\n"
	    "# thrust-map error %g, joint friction %g N m s/rad. %.1f s.\n", RUNS, per, (double)cc.rate, o->low, max_shift,
	    rank, o->physical ? "every method solves for all 30 with the\n# pseudo-inertias kept physical (--physical)"
	    : "the unconstrained methods solve for those around\n# the prior, WLS-Bregman and DM-pc for all 30 with the pseudo-inertias kept physical", 100 * o->prior_error, o->lambda, o->seeds, o->pos_noise, o->differentiate ? "by central differences"
	    : "exact", o->rotor_drag, o->thrust_error, o->joint_friction, cli_seconds() - t0);
	double mean[2][NM][N];
	for (int reg = 0; reg < 2; reg++) {
		printf("\n%s data (%ld samples)\n%-15s", reg == 0 ? "low" : "high", reg == 0 ? o->low : ntrain, "method");
		for (int i = 0; i < N; i++)
			printf(" %14s", coord_names[i]);
		printf(" %7s\n", "failed");
		for (int k = 0; k < NM; k++) {
			if (o->physical && k == TAGK_CI_DUAL_PC)
				continue; /* DM itself is kept physical */
			printf("%-15s", coordinv_name(k, o->physical));
			for (int i = 0; i < N; i++) {
				double n_ = (double)cnt[reg][k], mu = sum[reg][k][i] / n_;
				mean[reg][k][i] = mu;
				printf(" %6.3f (%5.3f)", mu, sqrt(fmax(0, sq[reg][k][i] / n_ - mu * mu)));
			}
			printf(" %3ld/%ld\n", failed[reg][k], cnt[reg][k]);
		}
	}
	printf("\nThe paper's claims (Sec. IV-A), on these numbers:\n");
	for (int reg = 0; reg < 2; reg++)
		for (int i = 6; i < 8; i++) {
			/* against the paper's competitors: OLS, WLS, energy, pullback, Bregman */
			int best = 1, best_pc = 1;
			for (int k = 0; k < TAGK_CI_DUAL; k++) {
				best &= mean[reg][k][i] < mean[reg][TAGK_CI_DUAL][i];
				best_pc &= mean[reg][k][i] < mean[reg][TAGK_CI_DUAL_PC][i];
			}
			printf("  %s data, %s: %s best: %s (%.3f)", reg == 0 ? "low" : "high", coord_names[i],
			    coordinv_name(TAGK_CI_DUAL, o->physical), best ? "yes" : "no", mean[reg][TAGK_CI_DUAL][i]);
			if (!o->physical)
				printf("; DM-pc: %s (%.3f)", best_pc ? "yes" : "no", mean[reg][TAGK_CI_DUAL_PC][i]);
			printf("\n");
		}
	free(run);
	free(d.Y);
	free(d.tau);
	free(d.Mj);
	free(lowY);
	free(lowtau);
	free(lowM);
	free(lowqd);
	free(d.qd);
	free(rY);
	free(rtau);
	free(rM);
	free(ws);
	free(meas);
	free(measured);
	free(pred);
	free(pcol);
}
