/*
 * bench_changes.c: tagk-bench changes, change detection scored over a
 * seeded Monte Carlo (issue 54). Each run is a simulated log with known
 * changes of the inertial parameters, sent through the real pipeline a
 * user runs:
 *
 *   tagk-regress LOG -o REG
 *   tagk-estimate --batch -a wls --segment auto REG     (offline)
 *   tagk-estimate -a kf-low REG, thresholded            (naive)
 *   tagk-estimate -a rls-low --detect REG                (online, when the
 *                                                        build has it)
 *
 * Runs: half quadrotor (the Crazyflie body of tagk-bench synth, its
 * prescribed flight-like motion, 100 Hz), half arm (a gripper of 0.73 kg
 * on a wrist force-torque sensor, slower motion, 200 Hz), at three noise
 * levels; a quarter of constant parameters, a quarter with one abrupt
 * event, a quarter with two, a quarter with a fuel-like ramp. An abrupt
 * event is a pick-up or a drop of a point mass of 5-50 % of the body's
 * mass, or a shift of the held mass's position (the centre of mass moves,
 * the mass does not). The wrench is exact for the parameters in force
 * (Newton-Euler), then every signal gets Gaussian noise.
 *
 * Scored: detections within the tolerance of a true event are hits
 * (offline: |dt| <= tol; a causal detector: -tol <= dt <= tol + 1 s,
 * its delay); the rest false alarms, except those inside a ramp, which are
 * the ramp's; F1 = 2 hits / (2 hits + false alarms + misses); false alarms
 * per hour over the constant runs; the offline segments' m +- 1.96 sd_m
 * against the truth (segments holding no true change and no ramp); the
 * change-time interval [t_start_lo, t_start_hi] against the first sample
 * after the true change (a hit's).
 */
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench_commands.h"
#include "../cmd/common/cli.h"
#include "../lib/inertia.h"
#include "../lib/regressor.h"
#include "../lib/rng.h"
#include "sim/synth.h"
#include "spawn.h"
#include "workers.h"

enum { CB_MAX_JOBS = 16, CB_LEVELS = 3, CB_FAMS = 2, CB_METHODS = 3, CB_MAXDET = 256 };
enum { EV_PICKUP, EV_DROP, EV_SHIFT, EV_KINDS };
enum { M_OFFLINE, M_NAIVE, M_ONLINE };
static const char *const fam_name[CB_FAMS] = { "quad", "arm" };
static const double level_scale[CB_LEVELS] = { 0.5, 1, 2 };
static const char *const ev_name[EV_KINDS] = { "pick-up", "drop", "com-shift" };

typedef struct {
	long runs;
	uint64_t seed;
	double duration, tol, naive, min_shift;
	int jobs, online; /* online: tagk-estimate has --detect */
	char dir[4200], tmp[4200];
} cb_opts;

/* One run's truth: the body, its payload before, between and after the
 * events, and a fuel-like ramp. */
typedef struct {
	int fam, level, kind; /* kind: 0 constant, 1 and 2 events, 3 ramp */
	double rate;
	tagk_real base[TAGK_NPARAM];
	int nev, evkind[2];
	double tev[2], pm[3], pp[3][3];
	double r0, r1, fuel, fpos[3]; /* ramp: fuel from r0 to r1 burnt to 0 */
	double sd_acc, sd_gyro, sd_f, sd_tau;
	tagk_synth_config motion;
} cb_run;

static double
unif(tagk_rng *g, double a, double b)
{
	return a + (b - a) * (double)tagk_rng_uniform(g);
}

/* A payload position: quad, 20-30 % of the arm length in a random
 * horizontal direction, below by half that; arm, 5-15 cm along the
 * gripper's z and up to 3 cm aside. */
static void
payload_pos(tagk_rng *g, int fam, double p[3])
{
	if (fam == 0) {
		double r = 0.046 / sqrt(2) * unif(g, 0.2, 0.3), phi = unif(g, 0, 2 * M_PI);
		p[0] = r * cos(phi), p[1] = r * sin(phi), p[2] = -r / 2;
	} else {
		p[0] = unif(g, -0.03, 0.03), p[1] = unif(g, -0.03, 0.03), p[2] = unif(g, 0.05, 0.15);
	}
}

/* The events: attached at the start with probability 1/2; a held payload
 * is dropped or shifted, a free hand picks one up. */
static void
draw_events(cb_run *w, tagk_rng *g, double D, double mass)
{
	int held = tagk_rng_uniform(g) < 0.5;
	w->pm[0] = held ? mass * unif(g, 0.05, 0.5) : 0;
	payload_pos(g, w->fam, w->pp[0]);
	w->nev = w->kind == 1 ? 1 : w->kind == 2 ? 2 : 0;
	if (w->nev == 1)
		w->tev[0] = unif(g, 5, D - 5);
	else if (w->nev == 2)
		w->tev[0] = unif(g, 4, D / 2 - 2), w->tev[1] = unif(g, D / 2 + 2, D - 4);
	for (int e = 0; e < w->nev; e++) {
		int k = !held ? EV_PICKUP : tagk_rng_uniform(g) < 0.5 ? EV_DROP : EV_SHIFT;
		w->evkind[e] = k;
		w->pm[e + 1] = k == EV_PICKUP ? mass * unif(g, 0.05, 0.5) : k == EV_DROP ? 0 : w->pm[e];
		if (k == EV_DROP)
			memcpy(w->pp[e + 1], w->pp[e], sizeof(w->pp[e]));
		else
			payload_pos(g, w->fam, w->pp[e + 1]);
		held = k != EV_DROP;
	}
	for (int e = w->nev + 1; e < 3; e++)
		w->pm[e] = w->pm[w->nev], memcpy(w->pp[e], w->pp[w->nev], sizeof(w->pp[e]));
}

/* Run i of the bench, from the seed alone. */
static void
draw_run(const cb_opts *o, long i, cb_run *w)
{
	tagk_rng g;
	tagk_rng_seed(&g, o->seed * UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)i);
	memset(w, 0, sizeof(*w));
	w->fam = (int)(i % 2);
	w->level = (int)(i / 2 % CB_LEVELS);
	w->kind = (int)(i / (2 * CB_LEVELS) % 4);
	tagk_synth_defaults(&w->motion, o->seed * 1000003 + (uint64_t)i);
	w->motion.payload_mass = 0;
	double s = level_scale[w->level], mass;
	if (w->fam == 0) {
		w->rate = 100;
		memcpy(w->base, w->motion.base, sizeof(w->base));
		mass = (double)w->base[0];
		w->sd_acc = 0.05 * s, w->sd_gyro = 0.005 * s, w->sd_f = 0.002 * s, w->sd_tau = 2e-5 * s;
	} else {
		static const tagk_real c[3] = { 0, 0, (tagk_real)0.06 };
		static const tagk_real Ic[9] = { (tagk_real)1e-3, 0, 0, 0, (tagk_real)2.5e-3, 0, 0, 0, (tagk_real)1.7e-3 };
		w->rate = 200;
		mass = 0.73;
		tagk_theta_from_body((tagk_real)mass, c, Ic, w->base);
		w->motion.omega_amp = (tagk_real)0.6;
		w->motion.accel_amp = (tagk_real)0.5;
		w->sd_acc = 0.05 * s, w->sd_gyro = 0.002 * s, w->sd_f = 0.05 * s, w->sd_tau = 0.005 * s;
	}
	w->motion.rate = (tagk_real)w->rate;
	draw_events(w, &g, o->duration, mass);
	if (w->kind == 3) {
		w->r0 = unif(&g, 3, 7);
		w->r1 = w->r0 + unif(&g, 4, 10);
		w->fuel = mass * unif(&g, 0.1, 0.3);
		w->fpos[2] = w->fam == 0 ? -0.005 : 0.02;
	} else
		w->r0 = w->r1 = INFINITY;
}

/* The parameters in force at t. */
static void
theta_at(const cb_run *w, double t, tagk_real th[TAGK_NPARAM])
{
	static const tagk_real zero[9] = { 0 };
	int k = 0;
	while (k < w->nev && t >= w->tev[k])
		k++;
	tagk_real p[TAGK_NPARAM], pos[3] = { (tagk_real)w->pp[k][0], (tagk_real)w->pp[k][1], (tagk_real)w->pp[k][2] };
	tagk_theta_from_body((tagk_real)w->pm[k], pos, zero, p);
	for (int j = 0; j < TAGK_NPARAM; j++)
		th[j] = w->base[j] + p[j];
	if (w->kind == 3) {
		double f = t < w->r0 ? w->fuel : t >= w->r1 ? 0 : w->fuel * (w->r1 - t) / (w->r1 - w->r0);
		tagk_real fp[3] = { (tagk_real)w->fpos[0], (tagk_real)w->fpos[1], (tagk_real)w->fpos[2] };
		tagk_theta_from_body((tagk_real)f, fp, zero, p);
		for (int j = 0; j < TAGK_NPARAM; j++)
			th[j] += p[j];
	}
}

/* The run's log: prescribed motion, exact wrench, then noise. */
static void
write_log(const cb_opts *o, const cb_run *w, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		cli_die(EXIT_DATA, "changes: cannot write %s", path);
	fprintf(f, "t,ax,ay,az,gx,gy,gz,alx,aly,alz,fx,fy,fz,tx,ty,tz");
	for (int j = 0; j < TAGK_NPARAM; j++)
		fprintf(f, ",true_%s", tagk_param_names[j]);
	fprintf(f, "\n");
	tagk_rng g;
	tagk_rng_seed(&g, w->motion.seed ^ UINT64_C(0xc4a9e5));
	long n = (long)(o->duration * w->rate + 0.5);
	for (long k = 0; k < n; k++) {
		tagk_synth_sample s;
		tagk_synth_at(&w->motion, k, &s);
		tagk_real th[TAGK_NPARAM], Y[6 * TAGK_NPARAM];
		theta_at(w, (double)s.t, th);
		tagk_regressor_rigid(s.acc, s.gyro, s.alpha, Y);
		double v[15];
		for (int r = 0; r < 6; r++) {
			double b = 0;
			for (int j = 0; j < TAGK_NPARAM; j++)
				b += (double)Y[r * TAGK_NPARAM + j] * (double)th[j];
			v[9 + r] = b + (r < 3 ? w->sd_f : w->sd_tau) * (double)tagk_rng_gaussian(&g);
		}
		for (int a = 0; a < 3; a++) {
			v[a] = (double)s.acc[a] + w->sd_acc * (double)tagk_rng_gaussian(&g);
			v[3 + a] = (double)s.gyro[a] + w->sd_gyro * (double)tagk_rng_gaussian(&g);
			v[6 + a] = (double)s.alpha[a] + w->sd_gyro * w->rate * (double)tagk_rng_gaussian(&g);
		}
		fprintf(f, "%.17g", (double)s.t);
		for (int q = 0; q < 15; q++)
			fprintf(f, ",%.17g", v[q]);
		for (int j = 0; j < TAGK_NPARAM; j++)
			fprintf(f, ",%.17g", (double)th[j]);
		fprintf(f, "\n");
	}
	if (fclose(f) != 0)
		cli_die(EXIT_DATA, "changes: cannot write %s", path);
}

/* A table a command wrote: the columns named in want (NaN where a cell
 * is empty, -1 index where a column is missing) into cols[k] (malloc'd,
 * *n rows). */
static void
load_cols(const char *path, int k, const char *const *want, double **cols, long *n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		cli_die(EXIT_DATA, "changes: cannot read %s", path);
	static char line[1 << 16];
	int idx[8], header = 0;
	long cap = 1024;
	*n = 0;
	for (int q = 0; q < k; q++)
		if (idx[q] = -1, !(cols[q] = malloc((size_t)cap * sizeof(double))))
			cli_die(EXIT_DATA, "changes: out of memory");
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		char *p = line, *cell;
		if (!header) {
			header = 1;
			for (int c = 0; (cell = strsep(&p, ",\n")) != NULL; c++)
				for (int q = 0; q < k; q++)
					if (strcmp(cell, want[q]) == 0)
						idx[q] = c;
			continue;
		}
		if (*n == cap) {
			cap *= 2;
			for (int q = 0; q < k; q++)
				if (!(cols[q] = realloc(cols[q], (size_t)cap * sizeof(double))))
					cli_die(EXIT_DATA, "changes: out of memory");
		}
		for (int q = 0; q < k; q++)
			cols[q][*n] = (double)NAN;
		for (int c = 0; (cell = strsep(&p, ",\n")) != NULL; c++)
			for (int q = 0; q < k; q++)
				if (idx[q] == c && *cell)
					cols[q][*n] = strtod(cell, NULL);
		(*n)++;
	}
	fclose(f);
}

static void
run_cmd(char **argv, const char *what)
{
	spawn_reap(spawn_cmd(argv, -1, -1, 1), what);
}

/* Detections (times; lo, hi the offline intervals, or NULL) scored
 * against the run's truth: one "D" line, one "E" line per hit. */
static void
score(const cb_opts *o, const cb_run *w, int method, const double *t, const double *lo, const double *hi, long nd,
    FILE *out)
{
	int used[CB_MAXDET] = { 0 }, tp = 0, fn = 0, fp = 0, ramp = 0;
	double after = method == M_OFFLINE ? o->tol : o->tol + 1;
	if (nd > CB_MAXDET)
		nd = CB_MAXDET;
	for (int e = 0; e < w->nev; e++) {
		long best = -1;
		for (long d = 0; d < nd; d++) {
			double dt = t[d] - w->tev[e];
			if (!used[d] && dt >= -o->tol && dt <= after && (best < 0 || fabs(dt) < fabs(t[best] - w->tev[e])))
				best = d;
		}
		if (best < 0) {
			fn++;
			fprintf(out, "M %d %d %d %d\n", w->fam, w->level, method, w->evkind[e]);
			continue;
		}
		used[best] = 1;
		tp++;
		/* the first sample at or after the change: the new segment's start */
		double ts = ceil(w->tev[e] * w->rate - 1e-9) / w->rate;
		int cov = lo ? lo[best] <= ts + 1e-9 && ts <= hi[best] + 1e-9 : -1;
		fprintf(out, "E %d %d %d %d %.9g %d\n", w->fam, w->level, method, w->evkind[e], t[best] - ts, cov);
	}
	for (long d = 0; d < nd; d++)
		if (!used[d]) {
			if (t[d] >= w->r0 - o->tol && t[d] <= w->r1 + o->tol)
				ramp++;
			else
				fp++;
		}
	fprintf(out, "D %d %d %d %d %d %d %d %d\n", w->fam, w->level, w->kind, method, tp, fp, fn, ramp);
}

/* The offline segments: changes scored, each segment's m interval
 * against the truth where the truth is constant over it ("C" lines), a
 * ramp's drift said ("R" line). */
static void
offline(const cb_opts *o, const cb_run *w, const char *seg, FILE *out)
{
	static const char *const want[] = { "t_start", "t_end", "t_start_lo", "t_start_hi", "m", "sd_m", "dm_dt" };
	double *c[7];
	long n;
	load_cols(seg, 7, want, c, &n);
	if (n < 1)
		cli_die(EXIT_DATA, "changes: %s: no segment", seg);
	score(o, w, M_OFFLINE, c[0] + 1, c[2] + 1, c[3] + 1, n - 1, out);
	int drift = 0;
	for (long s = 0; s < n; s++) {
		double ts = c[0][s], te = c[1][s];
		int pure = !(ts < w->r1 + 1e-9 && te >= w->r0 - 1e-9);
		for (int e = 0; e < w->nev; e++)
			if (ts < w->tev[e] && w->tev[e] <= te)
				pure = 0;
		drift |= !pure && c[6][s] == c[6][s];
		if (!pure || !(c[5][s] > 0))
			continue;
		tagk_real th[TAGK_NPARAM];
		theta_at(w, ts, th);
		fprintf(out, "C %d %d %d %.9g\n", w->fam, w->level, fabs(c[4][s] - (double)th[0]) <= 1.96 * c[5][s],
		    (c[4][s] - (double)th[0]) / c[5][s]);
	}
	if (w->kind == 3)
		fprintf(out, "R %d %d %d\n", w->fam, w->level, drift);
	for (int q = 0; q < 7; q++)
		free(c[q]);
}

/* The naive detector on kf-low's estimate: its m averaged over the last
 * 0.5 s, flagged where that moved by more than o->naive of itself within
 * 1 s, after 2 s of warm-up and 2 s after the last flag. */
static void
naive(const cb_opts *o, const cb_run *w, const char *est, FILE *out)
{
	static const char *const want[] = { "t", "m" };
	double *c[2], flags[CB_MAXDET], last = -INFINITY;
	long n, nf = 0;
	load_cols(est, 2, want, c, &n);
	double *ms = malloc((size_t)(n ? n : 1) * sizeof(double));
	if (!ms)
		cli_die(EXIT_DATA, "changes: out of memory");
	for (long i = 0, a = 0, j = 0; i < n; i++) {
		double sum = 0;
		while (c[0][a] < c[0][i] - 0.5)
			a++;
		for (long k = a; k <= i; k++)
			sum += c[1][k];
		ms[i] = sum / (double)(i - a + 1);
		while (c[0][j] < c[0][i] - 1)
			j++;
		if (c[0][i] - c[0][0] < 2 || c[0][i] - last < 2 || nf == CB_MAXDET)
			continue;
		if (fabs(ms[i] - ms[j]) > o->naive * fabs(ms[j]))
			flags[nf++] = last = c[0][i];
	}
	score(o, w, M_NAIVE, flags, NULL, NULL, nf, out);
	free(ms);
	free(c[0]);
	free(c[1]);
}

/* The online detector's flags: the rows whose event column is not 0. */
static void
online(const cb_opts *o, const cb_run *w, const char *est, FILE *out)
{
	static const char *const want[] = { "t", "event" };
	double *c[2], flags[CB_MAXDET];
	long n, nf = 0;
	load_cols(est, 2, want, c, &n);
	for (long i = 0; i < n && nf < CB_MAXDET; i++)
		if (c[1][i] == c[1][i] && c[1][i] != 0)
			flags[nf++] = c[0][i];
	score(o, w, M_ONLINE, flags, NULL, NULL, nf, out);
	free(c[0]);
	free(c[1]);
}

/* Run i: its log, the pipeline, the scores into out. */
static void
one_run(const cb_opts *o, long i, FILE *out)
{
	cb_run w;
	draw_run(o, i, &w);
	char log[4400], reg[4400], seg[4400], kf[4400], det[4400], rx[4300], ex[4300];
	snprintf(log, sizeof(log), "%s/r%ld.csv", o->tmp, i);
	snprintf(reg, sizeof(reg), "%s/r%ld.reg", o->tmp, i);
	snprintf(seg, sizeof(seg), "%s/r%ld.seg", o->tmp, i);
	snprintf(kf, sizeof(kf), "%s/r%ld.kf", o->tmp, i);
	snprintf(det, sizeof(det), "%s/r%ld.det", o->tmp, i);
	snprintf(rx, sizeof(rx), "%s/tagk-regress", o->dir);
	snprintf(ex, sizeof(ex), "%s/tagk-estimate", o->dir);
	write_log(o, &w, log);
	char *ra[] = { rx, "--stream", "csv", "-o", reg, log, NULL };
	char shift[32];
	snprintf(shift, sizeof(shift), "%.17g", o->min_shift);
	char *sa[] = { ex, "-q", "--batch", "-a", "wls", "--segment", "auto", "--stream", "csv", "-o", seg, reg,
		o->min_shift > 0 ? "--min-shift" : NULL, shift, NULL };
	char *ka[] = { ex, "-q", "-a", "kf-low", "--stream", "csv", "-o", kf, reg, NULL };
	char *da[] = { ex, "-q", "-a", "rls-low", "--detect", "--stream", "csv", "-o", det, reg, NULL };
	run_cmd(ra, "tagk-regress");
	run_cmd(sa, "tagk-estimate --segment auto");
	run_cmd(ka, "tagk-estimate -a kf-low");
	fprintf(out, "N %d %d %d %d\n", w.fam, w.level, w.kind, w.nev);
	offline(o, &w, seg, out);
	naive(o, &w, kf, out);
	if (o->online) {
		run_cmd(da, "tagk-estimate -a rls-low --detect");
		online(o, &w, det, out);
		unlink(det);
	}
	unlink(log);
	unlink(reg);
	unlink(seg);
	unlink(kf);
}

/* The figures of a set of runs. */
typedef struct {
	long runs, events, constant, ramps, drift;
	long tp[CB_METHODS], fp[CB_METHODS], fn[CB_METHODS], fpc[CB_METHODS], steps[CB_METHODS];
	long hit[CB_METHODS][EV_KINDS], miss[CB_METHODS][EV_KINDS];
	long mcov, mn, tcov, tn;
	long ndt[CB_METHODS];
	double *dt[CB_METHODS]; /* timing errors of the hits (offline |dt|, else the delay) */
	double *z;              /* the segments' (m - truth) / sd_m */
	long nz;
} cb_cell;

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double
median(double *v, long n)
{
	if (n == 0)
		return (double)NAN;
	qsort(v, (size_t)n, sizeof(double), cmp_dbl);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One result line into the cell of its family and level and into all. */
static void
take(cb_cell *cell, cb_cell *all, const char *line)
{
	int f, l, a, b, c, d, e, g;
	double x;
	cb_cell *to[2];
	if (sscanf(line + 2, "%d %d", &f, &l) != 2 || f < 0 || f >= CB_FAMS || l < 0 || l >= CB_LEVELS)
		cli_die(EXIT_DATA, "changes: a worker wrote a malformed result");
	to[0] = &cell[f * CB_LEVELS + l], to[1] = all;
	for (int k = 0; k < 2; k++) {
		cb_cell *q = to[k];
		if (line[0] == 'N' && sscanf(line + 2, "%*d %*d %d %d", &a, &b) == 2)
			q->runs++, q->events += b, q->constant += a == 0, q->ramps += a == 3;
		else if (line[0] == 'D' && sscanf(line + 2, "%*d %*d %d %d %d %d %d %d", &a, &b, &c, &d, &e, &g) == 6 &&
		    b >= 0 && b < CB_METHODS)
			q->tp[b] += c, q->fp[b] += d, q->fn[b] += e, q->steps[b] += g, q->fpc[b] += a == 0 ? d : 0;
		else if (line[0] == 'E' && sscanf(line + 2, "%*d %*d %d %d %lf %d", &a, &b, &x, &c) == 4 && a >= 0 &&
		    a < CB_METHODS && b >= 0 && b < EV_KINDS) {
			q->hit[a][b]++;
			q->dt[a][q->ndt[a]++] = a == M_OFFLINE ? fabs(x) : x;
			if (c >= 0)
				q->tn++, q->tcov += c;
		} else if (line[0] == 'M' && sscanf(line + 2, "%*d %*d %d %d", &a, &b) == 2 && a >= 0 && a < CB_METHODS &&
		    b >= 0 && b < EV_KINDS)
			q->miss[a][b]++;
		else if (line[0] == 'C' && sscanf(line + 2, "%*d %*d %d %lf", &a, &x) == 2 && q->nz < 4 * q->runs + 8)
			q->mn++, q->mcov += a, q->z[q->nz++] = x;
		else if (line[0] == 'R' && sscanf(line + 2, "%*d %*d %d", &a) == 1)
			q->drift += a;
		else if (!strchr("NDEMCR", line[0]))
			cli_die(EXIT_DATA, "changes: a worker wrote a malformed result");
	}
}

static double
pct(long a, long n)
{
	return n ? 100.0 * (double)a / (double)n : (double)NAN;
}

/* One row of the main table. */
static void
print_row(const cb_opts *o, const char *fam, const char *lvl, cb_cell *q)
{
	double hours = (double)q->constant * o->duration / 3600;
	printf("%-5s %-6s %5ld %6ld", fam, lvl, q->runs, q->events);
	for (int m = 0; m < CB_METHODS; m++) {
		if (m == M_ONLINE && !o->online) {
			printf(" | %6s %8s %7s", "-", "-", "-");
			continue;
		}
		long den = 2 * q->tp[m] + q->fp[m] + q->fn[m];
		printf(" | %6.3f %8.3f %7.1f", den ? 2.0 * (double)q->tp[m] / (double)den : (double)NAN,
		    median(q->dt[m], q->ndt[m]), hours > 0 ? (double)q->fpc[m] / hours : (double)NAN);
		if (m == M_OFFLINE)
			printf(" %6.1f %6.1f", pct(q->mcov, q->mn), pct(q->tcov, q->tn));
	}
	printf("\n");
}

/* The tables: per family and noise, then recall per kind of event and
 * what became of the ramps. */
static void
print_tables(const cb_opts *o, cb_cell *cell, cb_cell *all)
{
	static const char *const lvl[CB_LEVELS] = { "x0.5", "x1", "x2" };
	printf("# tagk-bench changes: %ld runs of %g s, seed %llu; half quadrotor (Crazyflie body, prescribed motion,\n"
	    "# 100 Hz), half arm (0.73 kg gripper on a wrist force-torque sensor, 200 Hz); a quarter each constant, one\n"
	    "# event, two events (pick-up or drop of 5-50 %% of the mass, or a shift of the held mass), a fuel-like ramp\n"
	    "# (10-30 %% of the mass over 4-10 s); noise x0.5, x1, x2 of (quad) 0.05 m/s^2, 0.005 rad/s, 0.002 N,\n"
	    "# 2e-5 N m; (arm) 0.05 m/s^2, 0.002 rad/s, 0.05 N, 0.005 N m\n", o->runs, o->duration,
	    (unsigned long long)o->seed);
	char shift[64] = "";
	if (o->min_shift > 0)
		snprintf(shift, sizeof(shift), " --min-shift %g", o->min_shift);
	printf("# offline: tagk-regress | tagk-estimate --batch -a wls --segment auto%s; hit within +-%g s\n", shift,
	    o->tol);
	printf("# naive: tagk-estimate -a kf-low, its m averaged over 0.5 s moving by > %g %% within 1 s; hit within\n"
	    "# -%g .. +%g s\n", 100 * o->naive, o->tol, o->tol + 1);
	printf("# online: tagk-estimate -a rls-low --detect (its event column)%s\n",
	    o->online ? "" : ": not in this build");
	printf("# F1 over events and false alarms; dt_s: median |timing error| (offline), median delay (naive, online);\n"
	    "# FA/h: false alarms per hour on the constant runs; m95/t95: %% of segments whose m +- 1.96 sd_m holds\n"
	    "# the truth / of hits whose [t_start_lo, t_start_hi] holds the true start (target 90-99)\n\n");
	printf("%-5s %-6s %5s %6s | %6s %8s %7s %6s %6s | %6s %8s %7s | %6s %8s %7s\n", "", "", "", "", "offline",
	    "", "", "", "", "naive", "", "", "online", "", "");
	printf("%-5s %-6s %5s %6s | %6s %8s %7s %6s %6s | %6s %8s %7s | %6s %8s %7s\n", "fam", "noise", "runs",
	    "events", "F1", "dt_s", "FA/h", "m95", "t95", "F1", "dt_s", "FA/h", "F1", "dt_s", "FA/h");
	for (int f = 0; f < CB_FAMS; f++)
		for (int l = 0; l < CB_LEVELS; l++)
			print_row(o, fam_name[f], lvl[l], &cell[f * CB_LEVELS + l]);
	print_row(o, "all", "", all);
	printf("\n# the offline segments' m: median (m - truth) / sd_m (a bias in sd units), by family and noise\n");
	for (int f = 0; f < CB_FAMS; f++) {
		printf("%-5s", fam_name[f]);
		for (int l = 0; l < CB_LEVELS; l++)
			printf("  %s %+.2f", lvl[l], median(cell[f * CB_LEVELS + l].z, cell[f * CB_LEVELS + l].nz));
		printf("\n");
	}
	printf("\n# recall by event (hits / events)\n%-10s %10s %10s %10s\n", "event", "offline", "naive", "online");
	for (int k = 0; k < EV_KINDS; k++) {
		printf("%-10s", ev_name[k]);
		for (int m = 0; m < CB_METHODS; m++) {
			char b[32];
			snprintf(b, sizeof(b), "%ld/%ld", all->hit[m][k], all->hit[m][k] + all->miss[m][k]);
			printf(" %10s", m == M_ONLINE && !o->online ? "-" : b);
		}
		printf("\n");
	}
	printf("\n# ramps: %ld; offline said a drift (dm_dt) on %ld; changes inside a ramp: offline %ld, naive %ld",
	    all->ramps, all->drift, all->steps[M_OFFLINE], all->steps[M_NAIVE]);
	if (o->online)
		printf(", online %ld", all->steps[M_ONLINE]);
	printf("\n# the TAG-K paper (Sha et al.) gives no recovery time in numbers (Figs. 2, 3b: \"rapidly adapts\");\n"
	    "# it estimates at 2.5 Hz, so its first post-event estimate comes 0-0.4 s after the event; on the bundled\n"
	    "# flight (tagk-papers(7) demo) tagk and kf-low are within 5 %% at their first estimate after each event\n");
}

/* Whether this build's tagk-estimate takes --detect: its --help says so. */
static int
has_detect(const cb_opts *o)
{
	char ex[4300], help[4400];
	snprintf(ex, sizeof(ex), "%s/tagk-estimate", o->dir);
	snprintf(help, sizeof(help), "%s/help.txt", o->tmp);
	int fd = open(help, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		cli_die(EXIT_DATA, "changes: cannot write %s", help);
	char *ha[] = { ex, "--help", NULL };
	spawn_reap(spawn_cmd(ha, -1, fd, 1), "tagk-estimate --help");
	close(fd);
	FILE *f = fopen(help, "r");
	char line[1024];
	int found = 0;
	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, "--detect") != NULL;
	if (f)
		fclose(f);
	unlink(help);
	return found;
}

static void
changes_parse(int argc, char **argv, cb_opts *o)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'n' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "seed", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "tolerance", required_argument, NULL, 't' },
		{ "naive", required_argument, NULL, 'x' },
		{ "min-shift", required_argument, NULL, 'c' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	o->runs = 240;
	o->seed = 1;
	o->duration = 20;
	o->tol = 1;
	o->naive = 0.1;
	o->jobs = 2;
	int ch;
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "s:j:h", opts)) != -1) {
		switch (ch) {
		case 'n': o->runs = cli_long("--runs", optarg, 1, 1000000); break;
		case 'Q': o->runs = 24; break;
		case 's': o->seed = (uint64_t)cli_long("--seed", optarg, 0, 0x7fffffffL); break;
		case 'd': o->duration = cli_double("--duration", optarg, 12, 3600); break;
		case 't': o->tol = cli_double("--tolerance", optarg, 0.01, 10); break;
		case 'x': o->naive = cli_double("--naive", optarg, 0.001, 10); break;
		case 'c': o->min_shift = cli_double("--min-shift", optarg, 0, 1); break;
		case 'j': o->jobs = (int)cli_long("--jobs", optarg, 1, CB_MAX_JOBS); break;
		case 'h': bench_help(stdout, "changes"); cli_close(stdout, "stdout"); exit(0);
		default: bench_help(stderr, "changes"); exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "changes: unexpected argument '%s'", argv[optind]);
	if (o->jobs > o->runs)
		o->jobs = (int)o->runs;
}

/* The workers' lines into the cells. */
static void
gather(const cb_opts *o, FILE **parts, cb_cell *cell, cb_cell *all)
{
	cb_cell *cs[CB_FAMS * CB_LEVELS + 1];
	for (int c = 0; c <= CB_FAMS * CB_LEVELS; c++) {
		cs[c] = c < CB_FAMS * CB_LEVELS ? &cell[c] : all;
		memset(cs[c], 0, sizeof(*cs[c]));
		for (int m = 0; m < CB_METHODS; m++)
			if (!(cs[c]->dt[m] = malloc((size_t)(2 * o->runs + 1) * sizeof(double))))
				cli_die(EXIT_DATA, "changes: out of memory");
		if (!(cs[c]->z = malloc((size_t)(4 * o->runs + 8) * sizeof(double))))
			cli_die(EXIT_DATA, "changes: out of memory");
	}
	char line[256];
	for (int j = 0; j < o->jobs; j++) {
		rewind(parts[j]);
		while (fgets(line, sizeof(line), parts[j]))
			take(cell, all, line);
		fclose(parts[j]);
	}
	if (all->runs != o->runs)
		cli_die(EXIT_DATA, "changes: %ld results of %ld runs", all->runs, o->runs);
}

int
cmd_changes(int argc, char **argv)
{
	cb_opts o;
	memset(&o, 0, sizeof(o));
	changes_parse(argc, argv, &o);
	spawn_bindir(o.dir, sizeof(o.dir));
	const char *td = getenv("TMPDIR");
	snprintf(o.tmp, sizeof(o.tmp), "%s/tagk-changes-XXXXXX", td && *td ? td : "/tmp");
	if (!mkdtemp(o.tmp))
		cli_die(EXIT_DATA, "changes: cannot create a directory in %s", td && *td ? td : "/tmp");
	o.online = has_detect(&o);
	FILE *parts[CB_MAX_JOBS];
	pid_t pids[CB_MAX_JOBS];
	fflush(stdout);
	for (int j = 0; j < o.jobs; j++) {
		if (!(parts[j] = tmpfile()))
			cli_die(EXIT_DATA, "changes: cannot create a temporary file");
		if ((pids[j] = fork()) < 0)
			cli_die(EXIT_DATA, "changes: cannot fork");
		if (pids[j] == 0) {
			for (long i = j; i < o.runs; i += o.jobs)
				one_run(&o, i, parts[j]);
			_exit(fflush(parts[j]) == 0 ? 0 : EXIT_DATA);
		}
	}
	workers_wait("changes", pids, o.jobs);
	rmdir(o.tmp);
	static cb_cell cell[CB_FAMS * CB_LEVELS], all;
	gather(&o, parts, cell, &all);
	print_tables(&o, cell, &all);
	cli_close(stdout, "stdout");
	return 0;
}
