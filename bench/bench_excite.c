/*
 * bench_excite.c: tagk-bench excite; see bench_excite.h.
 *
 * Joint j follows, with w = 2 pi / period and harmonics l = 1 .. K,
 *   q_j(t)   = c_j + s_j sum_l [a_jl sin(l w t) - b_jl (cos(l w t) - 1)] / (l w)
 *   qd_j(t)  = s_j sum_l [a_jl cos(l w t) + b_jl sin(l w t)]
 *   qdd_j(t) = s_j sum_l l w [-a_jl sin(l w t) + b_jl cos(l w t)]
 * periodic, starting at the range's centre c_j at rest: a_j1 = -sum_{l>1}
 * a_jl makes qd(0) = 0 and b_j1 = -sum_{l>1} l b_jl makes qdd(0) = 0, so
 * the free coefficients are those of l = 2 .. K. The scale s_j puts the
 * joint at 95 % of its tightest limit (position about c_j, velocity or
 * acceleration) on a grid of 400 points a period, so every candidate is
 * feasible and the search is unconstrained. The cost is the condition
 * number of the base regressor (the columns lib/baseparam.h keeps, of the
 * inertial parameters of every moving body) stacked at 60 points of a
 * period; the search is a (1+1) evolution strategy with the 1/5 success
 * rule, seeded, from a random start.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_commands.h"
#include "bench_excite.h"
#include "../cmd/common/cli.h"
#include "../cmd/common/cmdio.h"
#include "../formats/mbmodel.h"

enum { MAXJ = TAGK_MB_MAX_BODIES, KMAX = 20, GRID = 400, NS = 60 };

typedef struct {
	const char *robot, *outname;
	int K, periods, nlim[4];
	double period, rate, lim[4][MAXJ]; /* q_min, q_max, qd_max, qdd_max */
	long iters;
	unsigned long seed;
} excite_opts;

typedef struct {
	const excite_opts *o;
	const tagk_mb_model *m;
	int nj, nv, n, r, *base; /* inertial columns 10 (nb - 1), rank, base columns */
	double w, c[MAXJ], hw[MAXJ], vmax[MAXJ], amax[MAXJ];
	tagk_real *Y, *G, *V, *ev, *scratch;
} excite;

/* Joint j's scale: 95 % of its tightest limit; x holds K a's then K b's. */
static double
joint_scale(const excite *e, int j, const double *x)
{
	const int K = e->o->K;
	double mq = 0, mv = 0, ma = 0;
	for (int g = 0; g < GRID; g++) {
		double t = e->o->period * g / GRID, q = 0, v = 0, a = 0;
		for (int l = 1; l <= K; l++) {
			double sn = sin(l * e->w * t), cs = cos(l * e->w * t), A = x[l - 1], B = x[K + l - 1];
			q += (A * sn - B * (cs - 1)) / (l * e->w);
			v += A * cs + B * sn;
			a += l * e->w * (-A * sn + B * cs);
		}
		mq = fmax(mq, fabs(q)), mv = fmax(mv, fabs(v)), ma = fmax(ma, fabs(a));
	}
	double worst = fmax(mq / e->hw[j], fmax(mv / e->vmax[j], ma / e->amax[j]));
	return worst > 0 ? 0.95 / worst : 0;
}

/* The free coefficients z (2 (K - 1) per joint) to all of them (2 K), scaled. */
static void
coefficients(const excite *e, const double *z, double *x, double *s)
{
	const int K = e->o->K;
	for (int j = 0; j < e->nj; j++) {
		double *xj = x + 2 * K * j, sa = 0, sb = 0;
		const double *zj = z + 2 * (K - 1) * j;
		for (int l = 2; l <= K; l++) {
			xj[l - 1] = zj[l - 2];
			xj[K + l - 1] = zj[K - 1 + l - 2];
			sa += xj[l - 1];
			sb += l * xj[K + l - 1];
		}
		xj[0] = -sa;
		xj[K] = -sb;
		s[j] = joint_scale(e, j, xj);
	}
}

/* The state at t. */
static void
state(const excite *e, const double *x, const double *s, double t, double *q, double *qd, double *qdd)
{
	const int K = e->o->K;
	for (int j = 0; j < e->nj; j++) {
		const double *xj = x + 2 * K * j;
		double p = 0, v = 0, a = 0;
		for (int l = 1; l <= K; l++) {
			double sn = sin(l * e->w * t), cs = cos(l * e->w * t), A = xj[l - 1], B = xj[K + l - 1];
			p += (A * sn - B * (cs - 1)) / (l * e->w);
			v += A * cs + B * sn;
			a += l * e->w * (-A * sn + B * cs);
		}
		q[j] = e->c[j] + s[j] * p, qd[j] = s[j] * v, qdd[j] = s[j] * a;
	}
}

/* The inertial regressor (nv x 10 (nb - 1), the moving bodies) at a state. */
static void
inertial_rows(const excite *e, const double *q, const double *qd, const double *qdd, tagk_real *A)
{
	tagk_real tq[MAXJ], tqd[MAXJ], tqdd[MAXJ];
	for (int j = 0; j < e->nj; j++)
		tq[j] = (tagk_real)q[j], tqd[j] = (tagk_real)qd[j], tqdd[j] = (tagk_real)qdd[j];
	tagk_mb_kin kin;
	tagk_mb_kinematics(e->m, NULL, NULL, tq, tqd, tqdd, &kin);
	tagk_mb_regressor(&kin, e->m, e->Y);
	const int nbc = TAGK_NPARAM * e->m->nb;
	for (int r = 0; r < e->nv; r++)
		memcpy(A + (size_t)r * e->n, e->Y + (size_t)r * nbc + TAGK_NPARAM, (size_t)e->n * sizeof(*A));
}

/* cond(W_b) of the trajectory z; INFINITY for a singular one. */
static double
cost(excite *e, const double *z)
{
	const int r = e->r;
	double x[2 * KMAX * MAXJ], s[MAXJ], q[MAXJ], qd[MAXJ], qdd[MAXJ];
	coefficients(e, z, x, s);
	tagk_real *A = e->scratch; /* nv x n */
	memset(e->G, 0, (size_t)r * (size_t)r * sizeof(*e->G));
	for (int k = 0; k < NS; k++) {
		state(e, x, s, e->o->period * k / NS, q, qd, qdd);
		inertial_rows(e, q, qd, qdd, A);
		for (int row = 0; row < e->nv; row++) {
			const tagk_real *a = A + (size_t)row * e->n;
			for (int i = 0; i < r; i++)
				for (int j = i; j < r; j++)
					e->G[i * r + j] += a[e->base[i]] * a[e->base[j]];
		}
	}
	for (int i = 0; i < r; i++)
		for (int j = 0; j < i; j++)
			e->G[i * r + j] = e->G[j * r + i];
	if (tagk_symeig(r, e->G, e->ev, NULL, e->scratch) != TAGK_OK || !(e->ev[0] > 0))
		return INFINITY;
	return sqrt((double)(e->ev[r - 1] / e->ev[0]));
}

/* The base columns of the inertial regressor: lib/baseparam.h on random states. */
static void
base_columns(excite *e)
{
	const int n = e->n, nv = e->nv, ns = (3 * n + nv - 1) / nv + 20;
	tagk_real *W = malloc((size_t)ns * nv * (size_t)n * sizeof(*W)), *beta = malloc((size_t)n * n * sizeof(*beta));
	tagk_real *work = malloc((size_t)n * sizeof(*work));
	int *perm = malloc((size_t)n * sizeof(int));
	if (!W || !beta || !work || !perm)
		cli_die(EXIT_DATA, "out of memory");
	tagk_rng g;
	tagk_rng_seed(&g, 1);
	for (int k = 0; k < ns; k++) {
		double q[MAXJ], qd[MAXJ], qdd[MAXJ];
		for (int j = 0; j < e->nj; j++) {
			q[j] = M_PI * (2 * (double)tagk_rng_uniform(&g) - 1);
			qd[j] = (double)tagk_rng_gaussian(&g);
			qdd[j] = (double)tagk_rng_gaussian(&g);
		}
		inertial_rows(e, q, qd, qdd, W + (size_t)k * nv * n);
	}
	if (tagk_base_qr(ns * nv, n, W, (tagk_real)1e-9, perm, &e->r, beta, work) != TAGK_OK || e->r == 0)
		cli_die(EXIT_DATA, "excite: %s: no identifiable parameter", e->o->robot);
	e->base = perm; /* the first r */
	free(W);
	free(beta);
	free(work);
}

/* (1+1) evolution strategy on z (nz) from its start; returns the best cost. */
static double
search(excite *e, double *z, int nz, double *first)
{
	tagk_rng g;
	tagk_rng_seed(&g, e->o->seed);
	for (int i = 0; i < nz; i++)
		z[i] = (double)tagk_rng_gaussian(&g);
	double best = *first = cost(e, z), step = 0.3;
	double *trial = malloc((size_t)nz * sizeof(double));
	if (!trial)
		cli_die(EXIT_DATA, "out of memory");
	for (long it = 0; it < e->o->iters; it++) {
		for (int i = 0; i < nz; i++)
			trial[i] = z[i] + step * (double)tagk_rng_gaussian(&g);
		double c = cost(e, trial);
		if (c < best) {
			best = c;
			memcpy(z, trial, (size_t)nz * sizeof(double));
			step *= 1.5; /* 1/5 rule: up on a success, down a little on each failure */
		} else
			step *= pow(1.5, -0.25);
		step = fmin(fmax(step, 1e-4), 3);
	}
	free(trial);
	return best;
}

/* The trajectory at --rate over --periods, as a joint log. */
static void
write_log(const excite *e, const double *z, double c0, double c1)
{
	const int nj = e->nj;
	double x[2 * KMAX * MAXJ], s[MAXJ], v[1 + 3 * MAXJ];
	coefficients(e, z, x, s);
	static char names[1 + 3 * MAXJ][16];
	const char *np[1 + 3 * MAXJ];
	static const char *const sig[] = { "q", "qd", "qdd" };
	snprintf(names[0], sizeof(names[0]), "t");
	for (int k = 0; k < 3; k++)
		for (int j = 0; j < nj; j++)
			snprintf(names[1 + k * nj + j], sizeof(names[0]), "%s%d", sig[k], j + 1);
	for (int i = 0; i < 1 + 3 * nj; i++)
		np[i] = names[i];
	sink *out = cmdio_open_output(e->o->outname, TBL_AUTO);
	cmdio_header(out, 1 + 3 * nj, np);
	long N = (long)floor(e->o->period * e->o->periods * e->o->rate + 0.5);
	for (long i = 0; i <= N; i++) {
		double t = (double)i / e->o->rate;
		v[0] = t;
		state(e, x, s, t, v + 1, v + 1 + nj, v + 1 + 2 * nj);
		cmdio_row(out, v);
	}
	char note[64];
	snprintf(note, sizeof(note), "%.6g", c1);
	sink_note(out, "excite_cond", note);
	cmdio_commit(out);
	cli_warn("excite: the base regressor's condition number %.4g from %.4g (random start), %d base parameters of "
	    "%d, %d harmonics, %ld iterations", c1, c0, e->r, e->n, e->o->K, e->o->iters);
}

/* A list of one value (every joint) or one per joint, into lim; its count. */
static int
limit_list(const char *opt, const char *arg, double lo, double hi, double *lim)
{
	char buf[4096], *items[MAXJ];
	int n = cli_split(opt, arg, buf, sizeof(buf), items, MAXJ);
	for (int i = 0; i < n; i++)
		lim[i] = cli_double(opt, items[i], lo, hi);
	return n;
}

/* The joints' limits: the options', else the defaults (tagk's model files
 * carry no limits): q within +-1 rad (+-0.1 m), qd 1 rad/s (0.1 m/s),
 * qdd 5 rad/s^2 (0.5 m/s^2). */
static void
limits(excite *e)
{
	static const char *const names[] = { "--q-min", "--q-max", "--qd-max", "--qdd-max" };
	const excite_opts *o = e->o;
	for (int k = 0; k < 4; k++)
		if (o->nlim[k] > 1 && o->nlim[k] != e->nj)
			cli_die(EXIT_USAGE, "%s: %d values, but %s has %d joints (one value, or one per joint)", names[k],
			    o->nlim[k], o->robot, e->nj);
	for (int j = 0; j < e->nj; j++) {
		int rev = e->m->joint[j + 1] == TAGK_JOINT_REVOLUTE;
		double d[4] = { rev ? -1 : -0.1, rev ? 1 : 0.1, rev ? 1 : 0.1, rev ? 5 : 0.5 }, v[4];
		for (int k = 0; k < 4; k++)
			v[k] = o->nlim[k] ? o->lim[k][o->nlim[k] > 1 ? j : 0] : d[k];
		if (!(v[1] > v[0]))
			cli_die(EXIT_USAGE, "joint %d: --q-max %g is not above --q-min %g", j + 1, v[1], v[0]);
		e->c[j] = 0.5 * (v[0] + v[1]), e->hw[j] = 0.5 * (v[1] - v[0]), e->vmax[j] = v[2], e->amax[j] = v[3];
	}
	/* a trajectory for a real robot: one that leaves its joint range is a
	 * collision, so assumed limits are said, not taken quietly */
	for (int k = 0; k < 4; k++)
		if (!o->nlim[k])
			cli_warn("excite: %s not given: %s assumed for every joint (tagk's descriptions carry no joint "
			    "limits): give your robot's before it replays this trajectory", names[k],
			    k == 0 ? "-1 rad (-0.1 m)" : k == 1 ? "+1 rad (0.1 m)" : k == 2 ? "1 rad/s (0.1 m/s)" :
			    "5 rad/s^2 (0.5 m/s^2)");
}

static void
excite_parse(int argc, char **argv, excite_opts *o)
{
	static const struct option opts[] = {
		{ "robot", required_argument, NULL, 'R' },
		{ "harmonics", required_argument, NULL, 'K' },
		{ "period", required_argument, NULL, 'P' },
		{ "periods", required_argument, NULL, 'N' },
		{ "rate", required_argument, NULL, 'r' },
		{ "iters", required_argument, NULL, 'i' },
		{ "seed", required_argument, NULL, 's' },
		{ "q-min", required_argument, NULL, 1 },
		{ "q-max", required_argument, NULL, 2 },
		{ "qd-max", required_argument, NULL, 3 },
		{ "qdd-max", required_argument, NULL, 4 },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	*o = (excite_opts){ .K = 5, .periods = 1, .period = 10, .rate = 1000, .iters = 1000, .seed = 1 };
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "o:h", opts)) != -1) {
		switch (c) {
		case 'R': o->robot = optarg; break;
		case 'K': o->K = (int)cli_long("--harmonics", optarg, 1, KMAX); break;
		case 'P': o->period = cli_double("--period", optarg, 0.1, 3600); break;
		case 'N': o->periods = (int)cli_long("--periods", optarg, 1, 1000); break;
		case 'r': o->rate = cli_double("--rate", optarg, 1, 1e5); break;
		case 'i': o->iters = cli_long("--iters", optarg, 0, 100000000); break;
		case 's': o->seed = (unsigned long)cli_long("--seed", optarg, 0, 2147483647); break;
		case 1: o->nlim[0] = limit_list("--q-min", optarg, -1e3, 1e3, o->lim[0]); break;
		case 2: o->nlim[1] = limit_list("--q-max", optarg, -1e3, 1e3, o->lim[1]); break;
		case 3: o->nlim[2] = limit_list("--qd-max", optarg, 1e-9, 1e3, o->lim[2]); break;
		case 4: o->nlim[3] = limit_list("--qdd-max", optarg, 1e-9, 1e4, o->lim[3]); break;
		case 'o': o->outname = optarg; break;
		case 'h':
			bench_help(stdout, "excite");
			cli_close(stdout, "stdout");
			exit(0);
		default: exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "excite: unexpected argument '%s'", argv[optind]);
	if (!o->robot)
		cli_die(EXIT_USAGE, "excite: --robot FILE is required");
	if (o->period * o->periods * o->rate > 1e8)
		cli_die(EXIT_USAGE, "excite: over 1e8 samples (--period x --periods x --rate)");
}

int
bench_excite(int argc, char **argv)
{
	excite_opts o;
	excite_parse(argc, argv, &o);
	static mbmodel mm;
	char err[512], where[4200];
	if (mbmodel_read(cmdio_robot_path(o.robot, where, sizeof(where)), &mm, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
	if (mm.m.floating || mm.m.nb < 2)
		cli_die(EXIT_USAGE, "excite: %s: a fixed base and at least one joint", o.robot);
	static excite e;
	e = (excite){ .o = &o, .m = &mm.m, .nj = mm.m.nb - 1, .nv = mm.m.nb - 1, .n = TAGK_NPARAM * (mm.m.nb - 1) };
	e.w = 2 * M_PI / o.period;
	limits(&e);
	size_t sc = (size_t)e.nv * e.n > (size_t)e.n * e.n ? (size_t)e.nv * e.n : (size_t)e.n * e.n;
	e.Y = malloc((size_t)e.nv * TAGK_NPARAM * mm.m.nb * sizeof(*e.Y));
	e.G = malloc((size_t)e.n * e.n * sizeof(*e.G));
	e.ev = malloc((size_t)e.n * sizeof(*e.ev));
	e.scratch = malloc(sc * sizeof(*e.scratch));
	if (!e.Y || !e.G || !e.ev || !e.scratch)
		cli_die(EXIT_DATA, "out of memory");
	base_columns(&e);
	const int nz = 2 * (o.K - 1) * e.nj;
	double *z = calloc((size_t)(nz ? nz : 1), sizeof(double)), c0;
	if (!z)
		cli_die(EXIT_DATA, "out of memory");
	if (o.K < 2)
		cli_die(EXIT_USAGE, "excite: --harmonics 2 at least (the first harmonic's coefficients start the arm at rest)");
	double c1 = search(&e, z, nz, &c0);
	if (!isfinite(c1))
		cli_die(EXIT_DATA, "excite: no trajectory found whose base regressor has full rank (more --harmonics?)");
	write_log(&e, z, c0, c1);
	free(z);
	free(e.Y);
	free(e.G);
	free(e.ev);
	free(e.scratch);
	free(e.base);
	return 0;
}
