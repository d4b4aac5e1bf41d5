/* bench_sim.c: tagk-bench simulate, table2, merge and ablation; see bench_sim.h. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "bench_sim.h"
#include "bench_commands.h"
#include "bench_protocol.h"
#include "bench_ulog.h"
#include "../cmd/common/cli.h"
#include "../cmd/common/cmdio.h"
#include "progress.h"
#include "../formats/outfile.h"
#include "workers.h"
#include "sim/tagk_sim.h"

static const char *const noise_names[4] = { "none", "low", "medium", "high" };
static const char *const default_methods = "rls-low,rls-high,kf-low,kf-high,tagk";

/* The paper's Table II, for printing beside ours. */
static const struct {
	int noise;
	const char *method;
	double pos, est, est1, success, aborted, med, p95;
} paper[] = {
	{ 0, "rls-low", 2.13, 8.47e-03, 1.10e-02, 0.0, 11.8, 63.1, 92.1 },
	{ 0, "rls-high", 2.18, 8.10e-03, 1.00e-02, 0.0, 22.2, 64.4, 90.0 },
	{ 0, "kf-low", 1.79, 1.10e-03, 1.42e-03, 20.2, 4.4, 74.1, 94.0 },
	{ 0, "kf-high", 1.40, 4.62e-04, 5.99e-04, 48.2, 3.6, 73.9, 97.8 },
	{ 0, "tagk", 0.84, 3.92e-04, 7.11e-05, 87.8, 3.6, 40.4, 59.6 },
	{ 1, "rls-low", 2.13, 8.45e-03, 1.10e-02, 0.0, 12.0, 62.5, 94.5 },
	{ 1, "rls-high", 2.18, 8.08e-03, 1.00e-02, 0.0, 22.0, 64.2, 91.4 },
	{ 1, "kf-low", 1.78, 1.09e-03, 1.39e-03, 21.6, 3.6, 74.3, 96.2 },
	{ 1, "kf-high", 1.40, 4.61e-04, 5.97e-04, 49.2, 3.2, 74.9, 101 },
	{ 1, "tagk", 0.83, 3.14e-04, 7.06e-05, 87.8, 3.6, 43.0, 60.3 },
	{ 2, "rls-low", 2.18, 7.47e-03, 8.99e-03, 0.2, 17.8, 63.7, 94.0 },
	{ 2, "rls-high", 2.30, 6.63e-03, 8.14e-03, 0.2, 39.4, 66.2, 93.7 },
	{ 2, "kf-low", 1.76, 7.70e-04, 9.26e-04, 28.4, 5.4, 75.1, 113 },
	{ 2, "kf-high", 1.56, 4.42e-04, 5.60e-04, 43.6, 3.8, 75.6, 118 },
	{ 2, "tagk", 0.84, 3.12e-04, 9.89e-05, 87.4, 4.0, 43.7, 60.9 },
	{ 3, "rls-low", 2.25, 5.75e-03, 6.24e-03, 0.6, 23.0, 63.5, 94.4 },
	{ 3, "rls-high", 2.47, 5.00e-03, 5.46e-03, 0.4, 49.4, 63.2, 90.8 },
	{ 3, "kf-low", 2.05, 4.47e-04, 4.84e-04, 17.4, 15.0, 73.9, 96.5 },
	{ 3, "kf-high", 2.05, 3.72e-04, 4.06e-04, 22.0, 17.0, 73.5, 97.8 },
	{ 3, "tagk", 1.03, 2.86e-04, 8.46e-05, 58.4, 31.4, 42.5, 58.2 },
};

/* Trial seed from the run seed, the noise level and the trial number only:
 * every method flies the same trials, whatever the sharding. */
static uint64_t
trial_seed(uint64_t run, int noise, int trial)
{
	uint64_t x = run ^ ((uint64_t)noise << 40) ^ (uint64_t)trial;
	return tagk_splitmix64(&x);
}

/* Fly one trial with a fresh estimator of method mt; kf_form >= 0 sets the
 * form of a KF method (an index into its forms), iters > 0 the iterations
 * per update of a Kaczmarz method. */
static tagk_status
fly(const tagk_method *mt, const tagk_trial_config *tc, tagk_trial_result *r,
    tagk_trial_log log, void *ctx, int kf_form, int iters)
{
	static tagk_real ws[8192];
	tagk_config cfg;
	tagk_real th0[TAGK_NPARAM];
	tagk_trial_vehicle(th0);
	tagk_config_defaults(&cfg, mt, TAGK_NPARAM, 30);
	cfg.theta0 = th0;
	if (kf_form >= 0 && strcmp(mt->family, "KF") == 0 && tagk_config_set(&cfg, "form", kf_form) != TAGK_OK)
		return TAGK_EINVAL;
	if (iters > 0 && tagk_method_accepts(mt, "iters") && tagk_config_set(&cfg, "iters", iters) != TAGK_OK)
		return TAGK_EINVAL;
	tagk_estimator est;
	tagk_status st = tagk_est_init(&est, &cfg, ws, sizeof(ws) / sizeof(ws[0]));
	if (st != TAGK_OK)
		return st;
	return tagk_trial_run(tc, &est, r, log, ctx);
}

/* levels holds 4: each level at most once */
static int
parse_noise(const char *s, int *levels)
{
	char buf[128], *items[4];
	int n = cli_split("--noise", s, buf, sizeof(buf), items, 4);
	for (int j = 0; j < n; j++) {
		const char *t = items[j];
		int k = -1;
		for (int i = 0; i < 4; i++)
			if (strcmp(t, noise_names[i]) == 0)
				k = i;
		if (k < 0)
			cli_die(EXIT_USAGE, "--noise: '%s' is not none, low, medium or high", t);
		for (int i = 0; i < j; i++)
			if (levels[i] == k)
				cli_die(EXIT_USAGE, "--noise: '%s' is given twice", t);
		levels[j] = k;
	}
	return n;
}

static int
parse_methods(const char *s, const tagk_method **out)
{
	char buf[512], *items[16];
	int n = cli_split("--methods", s, buf, sizeof(buf), items, 16);
	for (int j = 0; j < n; j++) {
		out[j] = tagk_window_method(items[j]);
		if (!out[j])
			cli_die(EXIT_USAGE, "--methods: unknown method '%s'", items[j]);
		for (int i = 0; i < j; i++)
			if (out[i] == out[j])
				cli_die(EXIT_USAGE, "--methods: '%s' is given twice", items[j]);
	}
	return n;
}

/* --- simulate ---------------------------------------------------------- */

typedef struct {
	sink *out;
} log_ctx;

static void
log_row(void *vc, tagk_real t, const tagk_real acc[3], const tagk_real gyro[3], const tagk_real al[3],
    const tagk_real f[3], const tagk_real tau[3], const tagk_real truth[TAGK_NPARAM],
    const tagk_real pos[3], const tagk_real ref[3])
{
	log_ctx *c = vc;
	double row[1 + 15 + TAGK_NPARAM + 6];
	int i = 0;
	row[i++] = (double)t;
	const tagk_real *parts[5] = { acc, gyro, al, f, tau };
	for (int p = 0; p < 5; p++)
		for (int j = 0; j < 3; j++)
			row[i++] = (double)parts[p][j];
	for (int j = 0; j < TAGK_NPARAM; j++)
		row[i++] = (double)truth[j];
	for (int j = 0; j < 3; j++)
		row[i++] = (double)pos[j];
	for (int j = 0; j < 3; j++)
		row[i++] = (double)ref[j];
	cmdio_row(c->out, row);
}

/* The flight as a PX4-like ULog (bench_ulog.h), written to a temporary
 * file renamed onto path at the end, so that a failure leaves nothing. */
static tagk_status
simulate_ulog(const char *path, const tagk_method *mt, const tagk_trial_config *tc, tagk_trial_result *r,
    int kf_form, double ground)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	if (!tmp)
		cli_die(EXIT_DATA, "out of memory");
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	mode_t mask = umask(0);
	umask(mask);
	FILE *f = fd < 0 || fchmod(fd, 0666 & ~mask) != 0 ? NULL : fdopen(fd, "wb");
	if (!f)
		cli_die(EXIT_DATA, "%s: %s", path, strerror(errno));
	tagk_real th0[TAGK_NPARAM];
	tagk_trial_vehicle(th0);
	bench_ulog *b = bench_ulog_begin(f, (double)th0[0], ground);
	if (!b)
		cli_die(EXIT_DATA, "out of memory");
	tagk_status st = fly(mt, tc, r, bench_ulog_row, b, kf_form, 0);
	int bad = bench_ulog_end(b);
	bad |= fclose(f) != 0;
	if (st != TAGK_OK || bad || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		if (st == TAGK_OK)
			cli_die(EXIT_DATA, "%s: %s", path, strerror(e));
	}
	free(tmp);
	return st;
}

int
bench_simulate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "traj", required_argument, NULL, 't' },
		{ "noise", required_argument, NULL, 'n' },
		{ "method", required_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 'd' },
		{ "no-gate", no_argument, NULL, 'g' },
		{ "protocol", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "ground", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t seed = 1;
	double ground = 0;
	int traj = -1, gate = -1, c, levels[4];
	const char *outname = NULL, *method = "tagk", *proto_name = "tagk";
	double duration = 20;
	int noise = 0;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "s:a:o:h", opts)) != -1) {
		switch (c) {
		case 's': seed = cli_u64("--seed", optarg); break;
		case 't':
			for (int i = 0; i < TAGK_TRAJ_COUNT; i++)
				if (strcmp(optarg, tagk_traj_names[i]) == 0)
					traj = i;
			if (traj < 0)
				cli_die(EXIT_USAGE, "--traj: '%s' is not figure-8, circle, spiral, helix, ellipse "
				    "or random", optarg);
			break;
		case 'n':
			if (parse_noise(optarg, levels) != 1)
				cli_die(EXIT_USAGE, "--noise: one level");
			noise = levels[0];
			break;
		case 'a': method = optarg; break;
		case 'd': duration = cli_double("--duration", optarg, 1, 3600); break;
		case 'g': gate = 0; break;
		case 'p': proto_name = optarg; break;
		case 'o': outname = optarg; break;
		case 'G': ground = cli_double("--ground", optarg, 0, 4.9); break;
		case 'h': bench_help(stdout, "simulate"); cli_close(stdout, "stdout"); return 0;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "simulate: unexpected argument '%s'", argv[optind]);
	const tagk_method *mt = tagk_window_method(method);
	if (!mt)
		cli_die(EXIT_USAGE, "--method: unknown method '%s'", method);
	tagk_trial_config tc;
	tagk_trial_defaults(&tc, seed);
	tc.traj = traj;
	tc.duration = (tagk_real)duration;
	bench_protocol pr;
	protocol_named(&pr, proto_name);
	protocol_apply(&pr, mt, noise, &tc);
	if (gate == 0)
		tc.gate = TAGK_TRIAL_GATE_NONE;
	const char *names[] = { "t", "ax", "ay", "az", "gx", "gy", "gz", "alx", "aly", "alz", "fx", "fy", "fz",
		"tx", "ty", "tz", "true_m", "true_mcx", "true_mcy", "true_mcz", "true_Ixx", "true_Ixy",
		"true_Iyy", "true_Ixz", "true_Iyz", "true_Izz", "px", "py", "pz", "ref_x", "ref_y", "ref_z" };
	size_t on = outname ? strlen(outname) : 0;
	tagk_trial_result r;
	tagk_status st;
	int ulg = on > 4 && strcmp(outname + on - 4, ".ulg") == 0;
	if (ground > 0 && !ulg)
		cli_die(EXIT_USAGE, "--ground applies to a ULog (-o FILE.ulg)");
	if (ulg) {
		st = simulate_ulog(outname, mt, &tc, &r, pr.kf_form, ground);
	} else {
		log_ctx lc = { cmdio_open_output(outname, TBL_AUTO) };
		cmdio_header(lc.out, (int)(sizeof(names) / sizeof(names[0])), names);
		st = fly(mt, &tc, &r, log_row, &lc, pr.kf_form, 0);
		if (st != TAGK_OK)
			cli_die(EXIT_DATA, "simulate: %s", tagk_strerror(st));
		cmdio_commit(lc.out);
	}
	if (st != TAGK_OK)
		cli_die(EXIT_DATA, "simulate: %s", tagk_strerror(st));
	cli_warn("%s, %s: payload %.4g kg on at %.2f s, off at %.2f s; position error %.2f cm%s%s",
	    tagk_traj_names[r.traj], method, (double)r.payload_mass, (double)r.t_on, (double)r.t_off,
	    100 * (double)r.pos_err_mean, pr.success ? " (mean absolute per axis)" : "", r.aborted ? "; aborted" : "");
	return 0;
}

/* --- table2 and merge --------------------------------------------------- */

/* A shard file (table2 --shard or --format trials) starts with
 * "#tagk-shard: I/N SETTINGS" and ends with "#tagk-end: K trials". */
#define SHARD_MARK "#tagk-shard:"
#define SHARD_END_MARK "#tagk-end:"

/* one trial line: trial,protocol,noise,method,seed,traj,pos,res,res1,par,par1,m_err,com_err,I_err,
 * ld,unphys,success,aborted,times */
static void
print_trial(FILE *o, const char *proto, int noise, const char *method, int trial, uint64_t seed,
    const tagk_trial_result *r)
{
	fprintf(o, "trial,%s,%s,%s,%d,%llu,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%d,", proto,
	    noise_names[noise], method, trial, (unsigned long long)seed, tagk_traj_names[r->traj],
	    (double)r->pos_err_mean, (double)r->res_mean, (double)r->res_t1, (double)r->par_mean, (double)r->par_t1,
	    (double)r->blk_mean[0], (double)r->blk_mean[1], (double)r->blk_mean[2], (double)r->ld_mean,
	    r->ok_updates ? (double)r->nonphysical / r->ok_updates : 0.0, r->success, r->aborted);
	for (int i = 0; i < r->updates && i < 64; i++)
		fprintf(o, "%s%llu", i ? ";" : "", (unsigned long long)r->times[i]);
	fprintf(o, "\n");
}

typedef struct {
	int noise;
	char method[32], proto[16];
	long n, success, aborted;
	double pos, res, res1, par, par1, unphys;
	double *blk;          /* per trial: mass, c.o.m., inertia errors, log-det divergence */
	long nb, cb;
	uint64_t *times;
	long nt, ct;
} agg;

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

enum { MAX_AGGS = 256 };

/* The aggregate of (protocol, noise, method) in a[MAX_AGGS], added if new. */
static agg *
find_agg(agg *a, int *na, const char *proto, int noise, const char *method)
{
	for (int i = 0; i < *na; i++)
		if (a[i].noise == noise && strcmp(a[i].method, method) == 0 && strcmp(a[i].proto, proto) == 0)
			return &a[i];
	if (*na == MAX_AGGS)
		cli_die(EXIT_DATA, "more than %d (protocol, noise, method) triples", MAX_AGGS);
	agg *g = &a[(*na)++];
	memset(g, 0, sizeof(*g));
	g->noise = noise;
	snprintf(g->method, sizeof(g->method), "%s", method);
	snprintf(g->proto, sizeof(g->proto), "%s", proto);
	return g;
}

static void
add_times(agg *g, const char *list)
{
	for (const char *p = list; *p;) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		if (end == p)
			break;
		if (g->nt == g->ct) {
			g->ct = g->ct ? 2 * g->ct : 1024;
			g->times = realloc(g->times, (size_t)g->ct * sizeof(uint64_t));
			if (!g->times)
				cli_die(EXIT_DATA, "out of memory");
		}
		g->times[g->nt++] = v;
		p = *end == ';' ? end + 1 : end;
	}
}

/* The median over g's trials of block error k (0-3); the divergence (3)
 * over the trials that had a physical estimate (negative otherwise). NaN
 * when no trial counts. */
static double
median_of(const agg *g, int k)
{
	double *v = malloc((size_t)(g->nb ? g->nb : 1) * sizeof(double));
	if (!v)
		cli_die(EXIT_DATA, "out of memory");
	long n = 0;
	for (long i = 0; i < g->nb; i++)
		if (g->blk[4 * i + k] >= 0)
			v[n++] = g->blk[4 * i + k];
	qsort(v, (size_t)n, sizeof(double), cli_cmp_double);
	double m = n == 0 ? (double)NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	return m;
}

/* "1.23x", or "-" where the paper's figure is 0 (no ratio). */
static const char *
ratio_str(double ours, double theirs, char *buf, size_t len)
{
	if (theirs == 0 || !isfinite(ours / theirs))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3gx", ours / theirs);
	return buf;
}

/* Ours over the paper's for each protocol's row of one (noise, method)
 * group, rows a[first .. last], under the paper's row: position error,
 * estimation error (and at t+1), success, aborted, median and p95 time. */
static void
print_ratios(agg *a, int first, int last, int pi, int md)
{
	for (int j = first; j <= last; j++) {
		const agg *g = &a[j];
		double n = (double)g->n;
		double med = g->nt ? (double)g->times[g->nt / 2] / 1e3 : 0;
		double p95 = g->nt ? (double)g->times[(long)(0.95 * (double)(g->nt - 1))] / 1e3 : 0;
		double ours[7] = { 100 * g->pos / n, g->res / n, g->res1 / n, 100.0 * (double)g->success / n,
			100.0 * (double)g->aborted / n, med, p95 };
		double theirs[7] = { paper[pi].pos, paper[pi].est, paper[pi].est1, paper[pi].success, paper[pi].aborted,
			paper[pi].med, paper[pi].p95 };
		char r[7][24], name[24];
		for (int k = 0; k < 7; k++)
			ratio_str(ours[k], theirs[k], r[k], sizeof(r[k]));
		snprintf(name, sizeof(name), "/%s", g->proto);
		if (md)
			printf("| | | *ratio %s* | | %s | %s | %s | | | | | | | | %s | %s | %s | %s |\n", g->proto, r[0], r[1],
			    r[2], r[3], r[4], r[5], r[6]);
		else
			printf("%-6s %-11s %-7s %6s %7s %9s %9s %8s %7s %8s %8s %7s %7s %7s %7s %7s\n", "", "ratio", name, "",
			    r[0], r[1], r[2], "", "", "", "", "", r[3], r[4], r[5], r[6]);
	}
}

static void
print_table(agg *a, int na, const char *fmt)
{
	int md = strcmp(fmt, "md") == 0, csv = strcmp(fmt, "csv") == 0;
	if (csv)
		printf("protocol,noise,method,trials,pos_err_cm,est_err,est_err_t1,par_err,par_err_t1,m_err,com_err_mm,"
		    "I_err,logdet_div,unphysical_pct,success_pct,aborted_pct,median_us,p95_us,paper_pos_err_cm,"
		    "paper_est_err,paper_est_err_t1,paper_success_pct,paper_aborted_pct,paper_median_us,paper_p95_us\n");
	else if (md)
		printf("| noise | method | protocol | trials | pos. err. (cm) | est. err. | (t+1) est. err. | param. err. | "
		    "(t+1) param. err. | mass err. | c.o.m. err. (mm) | inertia err. | log-det div. | unphysical | "
		    "success | aborted | median (us) | p95 (us) |\n"
		    "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
	else
		printf("%-6s %-11s %-7s %6s %7s %9s %9s %8s %7s %8s %8s %7s %7s %7s %7s %7s\n", "noise", "method",
		    "proto", "trials", "pos_cm", "est_err", "est_t+1", "m_err", "com_mm", "I_err", "ld_div", "unphys",
		    "success", "aborted", "med_us", "p95_us");
	for (int i = 0; i < na; i++) {
		agg *g = &a[i];
		qsort(g->times, (size_t)g->nt, sizeof(uint64_t), cmp_u64);
		double med = g->nt ? (double)g->times[g->nt / 2] / 1e3 : 0;
		double p95 = g->nt ? (double)g->times[(long)(0.95 * (double)(g->nt - 1))] / 1e3 : 0;
		double n = (double)g->n;
		const char *nn = noise_names[g->noise];
		int pi = -1;
		for (size_t k = 0; k < sizeof(paper) / sizeof(paper[0]); k++)
			if (paper[k].noise == g->noise && strcmp(paper[k].method, g->method) == 0)
				pi = (int)k;
		/* the paper's row after the last protocol of each (noise, method) */
		if (i + 1 < na && a[i + 1].noise == g->noise && strcmp(a[i + 1].method, g->method) == 0)
			pi = -1;
		double pos = 100 * g->pos / n, res = g->res / n, res1 = g->res1 / n, par = g->par / n,
		       par1 = g->par1 / n, me = median_of(g, 0), ce = 1000 * median_of(g, 1), ie = median_of(g, 2),
		       ld = median_of(g, 3), up = 100 * g->unphys / n, suc = 100.0 * (double)g->success / n,
		       ab = 100.0 * (double)g->aborted / n;
		if (csv) {
			printf("%s,%s,%s,%ld,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.1f,%.1f,%.1f,%.2f,%.2f", g->proto,
			    nn, g->method, g->n, pos, res, res1, par, par1, me, ce, ie, ld, up, suc, ab, med, p95);
			if (pi >= 0)
				printf(",%.3g,%.3g,%.3g,%.1f,%.1f,%.1f,%.1f\n", paper[pi].pos, paper[pi].est,
				    paper[pi].est1, paper[pi].success, paper[pi].aborted, paper[pi].med, paper[pi].p95);
			else
				printf(",,,,,,,\n");
			continue;
		}
		if (md)
			printf("| %s | %s | %s | %ld | %.2f | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g | "
			    "%.1f%% | %.1f%% | %.1f%% | %.2f | %.2f |\n", nn, g->method, g->proto, g->n, pos, res, res1, par,
			    par1, me, ce, ie, ld, up, suc, ab, med, p95);
		else
			printf("%-6s %-11s %-7s %6ld %7.2f %9.3g %9.3g %8.3g %7.3g %8.3g %8.3g %6.1f%% %6.1f%% %6.1f%% "
			    "%7.2f %7.2f\n", nn, g->method, g->proto, g->n, pos, res, res1, me, ce, ie, ld, up, suc, ab,
			    med, p95);
		if (pi >= 0) {
			if (md)
				printf("| | | *paper* | 500 | *%.2f* | *%.3g* | *%.3g* | | | | | | | | *%.1f%%* | *%.1f%%* | "
				    "*%.1f* | *%.1f* |\n", paper[pi].pos, paper[pi].est, paper[pi].est1, paper[pi].success,
				    paper[pi].aborted, paper[pi].med, paper[pi].p95);
			else
				printf("%-6s %-11s %-7s %6s %7.2f %9.3g %9.3g %8s %7s %8s %8s %7s %6.1f%% %6.1f%% %7.1f "
				    "%7.1f\n", "", "", "paper", "500", paper[pi].pos, paper[pi].est, paper[pi].est1, "", "",
				    "", "", "", paper[pi].success, paper[pi].aborted, paper[pi].med, paper[pi].p95);
			int first = i;
			while (first > 0 && a[first - 1].noise == g->noise && strcmp(a[first - 1].method, g->method) == 0)
				first--;
			print_ratios(a, first, i, pi, md);
		}
	}
}

static void
add_result(agg *g, const tagk_trial_result *r)
{
	g->n++;
	g->pos += (double)r->pos_err_mean;
	g->res += (double)r->res_mean;
	g->res1 += (double)r->res_t1;
	g->par += (double)r->par_mean;
	g->par1 += (double)r->par_t1;
	if (g->nb == g->cb) {
		g->cb = g->cb ? 2 * g->cb : 256;
		g->blk = realloc(g->blk, (size_t)g->cb * 4 * sizeof(double));
		if (!g->blk)
			cli_die(EXIT_DATA, "out of memory");
	}
	for (int j = 0; j < 3; j++)
		g->blk[4 * g->nb + j] = (double)r->blk_mean[j];
	g->blk[4 * g->nb + 3] = (double)r->ld_mean;
	g->nb++;
	g->unphys += r->ok_updates ? (double)r->nonphysical / r->ok_updates : 0;
	g->success += r->success;
	g->aborted += r->aborted;
}

/* Parse one trial line of a shard into aggs; the trial number into *trial.
 * Dies naming what (the file) on a malformed line. */
static void
take_trial_line(const char *what, const char *line, agg *aggs, int *na, int *trial)
{
	char proto[16], noise[16], method[32], traj[16], times[4096] = "";
	int success, aborted, nv = -1;
	unsigned long long seed;
	tagk_trial_result r;
	double pos, res, res1, par, par1, blk[3], ld, unphys;
	int k = sscanf(line, "trial,%15[^,],%15[^,],%31[^,],%d,%llu,%15[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%d,%d,"
	    "%4095s", proto, noise, method, trial, &seed, traj, &pos, &res, &res1, &par, &par1, &blk[0], &blk[1],
	    &blk[2], &ld, &unphys, &success, &aborted, times);
	if (k < 18)
		cli_die(EXIT_DATA, "%s: not a table2 trial line: %.60s", what, line);
	for (int j = 0; j < 4; j++)
		if (strcmp(noise, noise_names[j]) == 0)
			nv = j;
	if (nv < 0)
		cli_die(EXIT_DATA, "%s: unknown noise level '%s'", what, noise);
	if (!tagk_window_method(method))
		cli_die(EXIT_DATA, "%s: unknown method '%s' (not a table2 trial line?)", what, method);
	memset(&r, 0, sizeof(r));
	r.pos_err_mean = (tagk_real)pos;
	r.res_mean = (tagk_real)res;
	r.res_t1 = (tagk_real)res1;
	r.par_mean = (tagk_real)par;
	r.par_t1 = (tagk_real)par1;
	for (int j = 0; j < 3; j++)
		r.blk_mean[j] = (tagk_real)blk[j];
	r.ld_mean = (tagk_real)ld;
	r.ok_updates = 1000000;
	r.nonphysical = (int)(unphys * 1000000 + 0.5);
	r.success = success;
	r.aborted = aborted;
	if (strcmp(proto, "tagk") != 0 && strcmp(proto, "authors") != 0)
		cli_die(EXIT_DATA, "%s: unknown protocol '%s'", what, proto);
	agg *g = find_agg(aggs, na, proto, nv, method);
	add_result(g, &r);
	add_times(g, times);
}

typedef struct {
	int nl, ntr, nm, np, shard, nshards, iters;
	const int *levels;
	const tagk_method *const *ms;
	const bench_protocol *protos;
	uint64_t seed;
} t2_run;

/* Fly units [from, to) of the run (unit = (level, trial, method, protocol),
 * in that order) and write one trial line each to o. */
static void
t2_units(const t2_run *u, long from, long to, FILE *o, progress *pg, int scale)
{
	for (long k = from; k < to; k++) {
		int p = (int)(k % u->np), i = (int)(k / u->np % u->nm), tt = (int)(k / u->np / u->nm % u->ntr);
		int l = (int)(k / u->np / u->nm / u->ntr), t = u->shard + tt * u->nshards;
		uint64_t s = trial_seed(u->seed, u->levels[l], t);
		tagk_trial_config tc;
		tagk_trial_defaults(&tc, s);
		protocol_apply(&u->protos[p], u->ms[i], u->levels[l], &tc);
		tc.ticks = cli_now_ns;
		tagk_trial_result r;
		tagk_status st = fly(u->ms[i], &tc, &r, NULL, NULL, u->protos[p].kf_form, u->iters);
		if (st != TAGK_OK)
			cli_die(EXIT_DATA, "trial %d (%s, %s): %s", t, noise_names[u->levels[l]], u->ms[i]->name,
			    tagk_strerror(st));
		print_trial(o, u->protos[p].name, u->levels[l], u->ms[i]->name, t, s, &r);
		if (pg)
			progress_step(pg, (k - from + 1) * scale);
	}
}

/* The own options of a command followed by the protocol's settings. */
static void
with_protocol_options(struct option *out, const struct option *own, size_t n_own)
{
	memcpy(out, own, n_own * sizeof(*own));
	memcpy(out + n_own, protocol_options, sizeof(protocol_options));
	memset(out + n_own + PROTO_OPT_COUNT, 0, sizeof(*out));
}

/* The protocols --protocol names (tagk, authors or both) into p[2], with
 * the settings o overrides; returns how many. */
static int
protocols_of(const char *name, const bench_protocol *o, bench_protocol *p)
{
	if (strcmp(name, "both") == 0) {
		if (protocol_overridden(o))
			cli_die(EXIT_USAGE, "--protocol both: a setting such as --b applies to one protocol; "
			    "run each protocol on its own to change one");
		protocol_named(&p[0], "tagk");
		protocol_named(&p[1], "authors");
		return 2;
	}
	protocol_named(&p[0], name);
	protocol_override(&p[0], o);
	return 1;
}

/* Workers fly contiguous ranges of the total units into temporary files
 * parts[j], read back in order: the trial lines come out as one job
 * writes them. One job runs here, without forking. */
static void
t2_fly(const t2_run *u, long total, int jobs, progress_mode pmode, FILE **parts)
{
	pid_t pids[64];
	progress pg;
	progress_init(&pg, "table2", total, pmode);
	fflush(stdout);
	for (int j = 0; j < jobs; j++) {
		parts[j] = tmpfile();
		if (!parts[j])
			cli_die(EXIT_DATA, "table2: cannot create a temporary file");
		long from = total * j / jobs, to = total * (j + 1) / jobs;
		if (jobs == 1) {
			t2_units(u, from, to, parts[j], &pg, 1);
			break;
		}
		pids[j] = fork();
		if (pids[j] < 0)
			cli_die(EXIT_DATA, "table2: cannot fork");
		if (pids[j] == 0) {
			/* the first worker speaks for all: its share times jobs */
			t2_units(u, from, to, parts[j], j == 0 ? &pg : NULL, jobs);
			if (j == 0)
				progress_end(&pg);
			_exit(fflush(parts[j]) == 0 ? 0 : EXIT_DATA);
		}
	}
	if (jobs > 1)
		workers_wait("table2", pids, jobs);
	progress_end(&pg);
}

/* The trial lines' provenance, so that merge can refuse a duplicate, a
 * missing shard or a shard of another run; then their header. */
static void
t2_provenance(const t2_run *u, int trials, const char *proto_name)
{
	printf("%s %d/%d trials=%d seed=%llu noise=", SHARD_MARK, u->shard, u->nshards, trials,
	    (unsigned long long)u->seed);
	for (int l = 0; l < u->nl; l++)
		printf("%s%s", l ? "," : "", noise_names[u->levels[l]]);
	printf(" methods=");
	for (int i = 0; i < u->nm; i++)
		printf("%s%s", i ? "," : "", u->ms[i]->name);
	char set[512];
	protocol_settings(&u->protos[0], set, sizeof(set));
	printf(" protocol=%s%s%s iters=%d\n", proto_name, u->np == 1 ? " " : "", u->np == 1 ? set : "", u->iters);
	printf("kind,protocol,noise,method,trial,seed,traj,pos_err,res_mean,res_t1,par_mean,par_t1,m_err,com_err,"
	    "I_err,logdet_div,unphysical,success,aborted,times_ns\n");
}

/* The text table's preamble. */
static void
t2_preamble(const t2_run *u, int trials)
{
	printf("# tagk-bench table2: %d trials per noise level, method and protocol, seed %llu.\n"
	    "# est. err.: the relative residual ||A theta^ - b|| / ||b|| of the window, as the\n"
	    "# authors' scripts compute it (blind to inertia); (t+1): at the first update after a\n"
	    "# payload event. Medians over the trials of each trial's mean over its estimates\n"
	    "# (a few trials go far off): m_err and I_err, the relative errors of the mass and the\n"
	    "# 3 x 3 inertia; com_mm, the centre-of-mass error ||h^ - h|| / m in mm; ld_div, the\n"
	    "# log-det divergence of pseudo-inertias over the physical estimates. unphys: the\n"
	    "# share of estimates whose pseudo-inertia is not positive definite. --format md and\n"
	    "# csv add param. err. ||theta^ - theta|| / ||theta||.\n", trials, (unsigned long long)u->seed);
	for (int p = 0; p < u->np; p++) {
		char set[512];
		protocol_settings(&u->protos[p], set, sizeof(set));
		printf("# protocol %s: %s\n", u->protos[p].name, set);
	}
	if (u->iters)
		printf("# Kaczmarz methods: %d iterations per update, not one per row\n", u->iters);
	printf("\n");
}

int
bench_table2(int argc, char **argv)
{
	static const struct option own[] = {
		{ "trials", required_argument, NULL, 'N' },
		{ "noise", required_argument, NULL, 'n' },
		{ "methods", required_argument, NULL, 'M' },
		{ "seed", required_argument, NULL, 's' },
		{ "shard", required_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'f' },
		{ "protocol", required_argument, NULL, 'p' },
		{ "iters", required_argument, NULL, 'I' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
	};
	struct option opts[sizeof(own) / sizeof(own[0]) + PROTO_OPT_COUNT + 1];
	with_protocol_options(opts, own, sizeof(own) / sizeof(own[0]));
	bench_protocol over, protos[2];
	protocol_unset(&over);
	const char *proto_name = "tagk";
	int iters = 0, trials = 500, levels[4] = { 0, 1, 2, 3 }, nl = 4, shard = 0, nshards = 1, jobs = 1, c;
	progress_mode pmode = PROGRESS_AUTO;
	uint64_t seed = 1;
	const char *methods = default_methods, *fmt = "text";
	optind = 1;
	while ((c = cli_getopt(argc, argv, "f:j:qh", opts)) != -1) {
		switch (c) {
		case 'N': trials = (int)cli_long("--trials", optarg, 1, 1000000); break;
		case 'n': nl = parse_noise(optarg, levels); break;
		case 'M': methods = optarg; break;
		case 's': seed = cli_u64("--seed", optarg); break;
		case 'S': {
			long i, n;
			if (cli_long_pair(optarg, '/', &i, &n) != 0 || n < 1 || n > 1000000 || i >= n)
				cli_die(EXIT_USAGE, "--shard: '%s' is not I/N with 0 <= I < N <= 1000000", optarg);
			shard = (int)i, nshards = (int)n;
			break;
		}
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "md") && strcmp(optarg, "csv") && strcmp(optarg, "trials"))
				cli_die(EXIT_USAGE, "--format: '%s' is not text, md, csv or trials", optarg);
			fmt = optarg;
			break;
		case 'p': proto_name = optarg; break;
		case 'I': iters = (int)cli_long("--iters", optarg, 0, 100000); break;
		case 'j': jobs = (int)cli_long("--jobs", optarg, 1, 64); break;
		case 'P': pmode = PROGRESS_LINES; break;
		case 'q': pmode = PROGRESS_QUIET; break;
		case 'h': bench_help(stdout, "table2"); cli_close(stdout, "stdout"); return 0;
		default:
			if (c < PROTO_OPT_FIRST || c >= PROTO_OPT_FIRST + PROTO_OPT_COUNT)
				return EXIT_USAGE;
			protocol_parse(&over, c, optarg);
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "table2: unexpected argument '%s'", argv[optind]);
	const tagk_method *ms[16];
	int nm = parse_methods(methods, ms);
	int np = protocols_of(proto_name, &over, protos);
	int raw = strcmp(fmt, "trials") == 0 || nshards > 1;
	double t0 = (double)cli_now_ns() / 1e9;
	int ntr = trials > shard ? (trials - shard + nshards - 1) / nshards : 0;
	long total = (long)nl * ntr * nm * np;
	if (jobs > total)
		jobs = total > 0 ? (int)total : 1;
	t2_run u = { nl, ntr, nm, np, shard, nshards, iters, levels, ms, protos, seed };
	FILE *parts[64];
	t2_fly(&u, total, jobs, pmode, parts);
	static agg aggs[MAX_AGGS];
	int na = 0;
	long nlines = 0;
	char line[8192];
	if (raw)
		t2_provenance(&u, trials, proto_name);
	for (int j = 0; j < jobs; j++) {
		rewind(parts[j]);
		while (fgets(line, sizeof(line), parts[j])) {
			if (raw) {
				fputs(line, stdout);
			} else {
				int trial;
				take_trial_line("table2", line, aggs, &na, &trial);
			}
			nlines++;
		}
		fclose(parts[j]);
	}
	if (nlines != total)
		cli_die(EXIT_DATA, "table2: %ld of %ld trials came back from the workers", nlines, total);
	if (raw) {
		printf("%s %ld trials\n", SHARD_END_MARK, nlines);
		cli_close(stdout, "stdout");
		return 0;
	}
	int csv = strcmp(fmt, "csv") == 0;
	if (!csv)
		t2_preamble(&u, trials);
	print_table(aggs, na, fmt);
	double wall = (double)cli_now_ns() / 1e9 - t0;
	/* the run of issue 17's target: the paper's 10,000 trials */
	const char *target = total == 10000 && nshards == 1 ? "; target for this run: 30 s on 2 cores, -j 2" : "";
	if (csv)
		fprintf(stderr, "table2: wall time %.1f s (%d job%s%s)\n", wall, jobs, jobs == 1 ? "" : "s", target);
	else
		printf("\n# wall time %.1f s (%d job%s%s%s)\n", wall, jobs, jobs == 1 ? "" : "s",
		    jobs > 1 ? "; the timing columns are from jobs sharing the cores" : "", target);
	cli_close(stdout, "stdout");
	return 0;
}

/* The first setting (space-separated key=value) in which a and b differ,
 * copied into wa and wb; 0 if they are equal. */
static int
first_difference(const char *a, const char *b, char *wa, char *wb, size_t len)
{
	while (*a || *b) {
		size_t la = strcspn(a, " "), lb = strcspn(b, " ");
		if (la != lb || strncmp(a, b, la) != 0) {
			snprintf(wa, len, "%.*s", (int)la, a);
			snprintf(wb, len, "%.*s", (int)lb, b);
			return 1;
		}
		a += la + (a[la] == ' ');
		b += lb + (b[lb] == ' ');
	}
	return 0;
}

int
bench_merge(int argc, char **argv)
{
	const char *fmt = "text";
	int first = 1;
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		bench_help(stdout, "merge");
		cli_close(stdout, "stdout");
		return 0;
	}
	if (argc > 2 && strcmp(argv[1], "--format") == 0) {
		fmt = argv[2];
		first = 3;
	}
	if (first >= argc)
		cli_die(EXIT_USAGE, "merge: name the shard files (tagk-bench table2 --shard I/N output)");
	static agg aggs[MAX_AGGS];
	int na = 0, nshards = 0;
	const char **given = NULL; /* given[I]: the file holding shard I */
	char settings[1024] = "", line[8192];
	const char *settings_from = NULL;
	long n = 0;
	for (int i = first; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		if (!f)
			cli_die(EXIT_DATA, "%s: %s", argv[i], strerror(errno));
		outfile_note_input(fileno(f), argv[i], argv[i]);
		int idx, cnt;
		char set[1024];
		/* a UTF-8 byte-order mark before the mark line is skipped */
		if (!fgets(line, sizeof(line), f)
		    || sscanf(line + (strncmp(line, "\xef\xbb\xbf", 3) ? 0 : 3), SHARD_MARK " %d/%d %1023[^\n]", &idx,
		           &cnt, set) != 3
		    || cnt < 1 || idx < 0 || idx >= cnt)
			cli_die(EXIT_DATA, "%s: not a shard file: it does not start with a '%s I/N ...' line "
			    "(tagk-bench table2 --shard I/N or --format trials writes one)", argv[i], SHARD_MARK);
		if (!given) {
			nshards = cnt;
			snprintf(settings, sizeof(settings), "%s", set);
			settings_from = argv[i];
			given = calloc((size_t)cnt, sizeof(*given));
			if (!given)
				cli_die(EXIT_DATA, "out of memory");
		} else {
			char wa[256], wb[256];
			if (cnt != nshards)
				cli_die(EXIT_DATA, "%s: shard %d/%d of a run split %d ways, but %s is of one split %d ways",
				    argv[i], idx, cnt, cnt, settings_from, nshards);
			if (first_difference(set, settings, wa, wb, sizeof(wa)))
				cli_die(EXIT_DATA, "%s: a shard of another run: %s where %s has %s", argv[i], wa,
				    settings_from, wb);
		}
		if (given[idx])
			cli_die(EXIT_DATA, "shard %d/%d given twice: %s and %s", idx, nshards, given[idx], argv[i]);
		given[idx] = argv[i];
		long lines = 0, declared = -1;
		while (fgets(line, sizeof(line), f)) {
			if (declared >= 0)
				cli_die(EXIT_DATA, "%s: lines after its '%s' line", argv[i], SHARD_END_MARK);
			if (strncmp(line, SHARD_END_MARK, strlen(SHARD_END_MARK)) == 0) {
				if (sscanf(line, SHARD_END_MARK " %ld trials", &declared) != 1 || declared < 0)
					cli_die(EXIT_DATA, "%s: a malformed '%s' line", argv[i], SHARD_END_MARK);
				continue;
			}
			if (strncmp(line, "trial,", 6) != 0)
				continue;
			int trial;
			take_trial_line(argv[i], line, aggs, &na, &trial);
			if (trial < 0 || trial % nshards != idx)
				cli_die(EXIT_DATA, "%s: trial %d does not belong to shard %d/%d", argv[i], trial, idx,
				    nshards);
			lines++;
			n++;
		}
		if (ferror(f))
			cli_die(EXIT_DATA, "%s: read error", argv[i]);
		fclose(f);
		if (declared < 0)
			cli_die(EXIT_DATA, "%s: cut: it has no '%s N trials' line (the run that wrote it stopped "
			    "early?)", argv[i], SHARD_END_MARK);
		if (declared != lines)
			cli_die(EXIT_DATA, "%s: %ld trial lines, but its '%s' line counts %ld", argv[i], lines,
			    SHARD_END_MARK, declared);
	}
	for (int i = 0; i < nshards; i++)
		if (!given[i]) {
			int have = 0;
			for (int j = 0; j < nshards; j++)
				have += given[j] != NULL;
			cli_die(EXIT_DATA, "shard %d/%d is missing (%d of %d given)", i, nshards, have, nshards);
		}
	free(given);
	if (n == 0)
		cli_die(EXIT_DATA, "merge: no trial lines in the files given");
	print_table(aggs, na, fmt);
	cli_close(stdout, "stdout");
	return 0;
}

/* --- ablation: Fig. 3b ---------------------------------------------------- */

static const char *const abl_names[4] = { "rk", "tark", "grk", "tagk" };

/* Fly units [from, to) (unit = method * trials + trial) and write, per
 * unit, "a M" for an aborted trial or, per event and phase (0 before, 1
 * t+1, 2 settled) with an estimate, "p M PHASE PAR IERR": the relative
 * parameter and inertia errors. */
static void
abl_units(long from, long to, int trials, int level, uint64_t seed, const bench_protocol *pr, FILE *o,
    progress *pg, int scale)
{
	for (long k = from; k < to; k++) {
		int m = (int)(k / trials), t = (int)(k % trials);
		tagk_trial_config tc;
		tagk_trial_defaults(&tc, trial_seed(seed, level, t));
		protocol_apply(pr, tagk_window_method(abl_names[m]), level, &tc);
		tagk_trial_result r;
		if (pg)
			progress_step(pg, (k - from + 1) * scale);
		if (fly(tagk_window_method(abl_names[m]), &tc, &r, NULL, NULL, pr->kf_form, 0) != TAGK_OK || r.aborted) {
			fprintf(o, "a %d\n", m);
			continue;
		}
		tagk_real ev[2] = { r.t_on, r.t_off };
		int nu = r.updates < 64 ? r.updates : 64;
		for (int e = 0; e < 2; e++) {
			int first = -1;
			for (int u = 0; u < nu && first < 0; u++)
				if (r.upd_t[u] >= ev[e])
					first = u;
			if (first < 0)
				continue;
			const int at[3] = { first - 1, first, first + 4 };
			for (int ph = 0; ph < 3; ph++)
				if (at[ph] >= 0 && at[ph] < nu && r.upd_par[at[ph]] >= 0)
					fprintf(o, "p %d %d %.17g %.17g\n", m, ph, (double)r.upd_par[at[ph]],
					    (double)r.upd_ierr[at[ph]]);
		}
	}
}

/* Per method: the parameter errors' sums and the inertia errors, per phase. */
typedef struct {
	double par[3];
	long n[3], ab, cap[3];
	double *ierr[3];
} abl_sum;

static void
abl_take(abl_sum *sum, FILE *f)
{
	char line[256];
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		int m, ph;
		double par, ie;
		if (sscanf(line, "a %d", &m) == 1 && m >= 0 && m < 4) {
			sum[m].ab++;
			continue;
		}
		if (sscanf(line, "p %d %d %lf %lf", &m, &ph, &par, &ie) != 4 || m < 0 || m > 3 || ph < 0 || ph > 2)
			cli_die(EXIT_DATA, "ablation: a worker wrote a malformed line");
		abl_sum *a = &sum[m];
		if (a->n[ph] == a->cap[ph]) {
			a->cap[ph] = a->cap[ph] ? 2 * a->cap[ph] : 256;
			a->ierr[ph] = realloc(a->ierr[ph], (size_t)a->cap[ph] * sizeof(double));
			if (!a->ierr[ph])
				cli_die(EXIT_DATA, "out of memory");
		}
		a->par[ph] += par;
		a->ierr[ph][a->n[ph]++] = ie;
	}
	if (ferror(f))
		cli_die(EXIT_DATA, "ablation: cannot read a worker's results");
}

static double
abl_median(double *v, long n)
{
	if (n == 0)
		return (double)NAN;
	qsort(v, (size_t)n, sizeof(double), cli_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
bench_ablation(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trials", required_argument, NULL, 'N' },
		{ "noise", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "protocol", required_argument, NULL, 'p' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int trials = 100, levels[4] = { 0 }, jobs = 1, c;
	bench_protocol pr;
	protocol_named(&pr, "tagk");
	progress_mode pmode = PROGRESS_AUTO;
	uint64_t seed = 1;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "j:qh", opts)) != -1) {
		switch (c) {
		case 'N': trials = (int)cli_long("--trials", optarg, 1, 1000000); break;
		case 'n':
			if (parse_noise(optarg, levels) != 1)
				cli_die(EXIT_USAGE, "--noise: one level");
			break;
		case 's': seed = cli_u64("--seed", optarg); break;
		case 'p': protocol_named(&pr, optarg); break;
		case 'j': jobs = (int)cli_long("--jobs", optarg, 1, 64); break;
		case 'P': pmode = PROGRESS_LINES; break;
		case 'q': pmode = PROGRESS_QUIET; break;
		case 'h': bench_help(stdout, "ablation"); cli_close(stdout, "stdout"); return 0;
		default: return EXIT_USAGE;
		}
	}
	/* tagk's ablation flies ungated, the authors' code gates every method */
	if (strcmp(pr.name, "tagk") == 0)
		pr.gate = TAGK_TRIAL_GATE_NONE;
	long total = 4L * trials;
	if (jobs > total)
		jobs = (int)total;
	/* workers fly contiguous ranges of (method, trial) into temporary
	 * files, read back in the workers' order */
	abl_sum sum[4];
	memset(sum, 0, sizeof(sum));
	progress pg;
	progress_init(&pg, "ablation", total, pmode);
	FILE *parts[64];
	pid_t pids[64];
	fflush(stdout);
	for (int j = 0; j < jobs; j++) {
		if (!(parts[j] = tmpfile()))
			cli_die(EXIT_DATA, "ablation: cannot create a temporary file");
		if (jobs == 1) {
			abl_units(0, total, trials, levels[0], seed, &pr, parts[0], &pg, 1);
			if (fflush(parts[0]) != 0)
				cli_die(EXIT_DATA, "ablation: cannot write a temporary file");
			break;
		}
		pids[j] = fork();
		if (pids[j] < 0)
			cli_die(EXIT_DATA, "ablation: cannot fork");
		if (pids[j] == 0) {
			abl_units(total * j / jobs, total * (j + 1) / jobs, trials, levels[0], seed, &pr, parts[j],
			    j == 0 ? &pg : NULL, jobs);
			if (j == 0)
				progress_end(&pg);
			_exit(fflush(parts[j]) == 0 ? 0 : EXIT_DATA);
		}
	}
	if (jobs > 1)
		workers_wait("ablation", pids, jobs);
	for (int j = 0; j < jobs; j++) {
		abl_take(sum, parts[j]);
		fclose(parts[j]);
	}
	progress_end(&pg);
	char set[512];
	protocol_settings(&pr, set, sizeof(set));
	printf("# tagk-bench ablation: relative parameter error around payload events, %d trials, noise %s,\n"
	    "# protocol %s: %s\n"
	    "# before: the last update before an event; t+1: the first after it; settled: the\n"
	    "# fifth after it (2 s later); means over both events of every trial that did not abort.\n"
	    "# I_: the relative inertia error at the same updates, medians (a few go far off)\n\n",
	    trials, noise_names[levels[0]], pr.name, set);
	printf("%-6s %10s %10s %10s %10s %10s %10s %8s\n", "method", "before", "t+1", "settled", "I_before",
	    "I_t+1", "I_settled", "aborted");
	for (int m = 0; m < 4; m++) {
		abl_sum *a = &sum[m];
		printf("%-6s", abl_names[m]);
		for (int ph = 0; ph < 3; ph++)
			printf(" %10.3g", a->n[ph] ? a->par[ph] / (double)a->n[ph] : 0.0);
		for (int ph = 0; ph < 3; ph++)
			printf(" %10.3g", abl_median(a->ierr[ph], a->n[ph]));
		printf(" %8ld\n", a->ab);
		for (int ph = 0; ph < 3; ph++)
			free(a->ierr[ph]);
	}
	cli_close(stdout, "stdout");
	return 0;
}
