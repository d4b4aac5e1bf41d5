/*
 * tagk-bench: benchmarks and experiments for tagk.
 *
 *   tagk-bench timing   median and 95th-percentile time per update of every
 *                       method, allocation count during updates, and TAG-K's
 *                       speed against the straightforward implementation.
 *   tagk-bench synth    a synthetic rigid-body log with payload events and
 *                       true_* columns, for the pipeline.
 *   tagk-bench pipeline samples per second through tagk-regress | tagk-estimate
 *                       and the peak memory of each (bench_pipeline.c).
 *   tagk-bench device   the microcontroller benchmark (bench/device.c) run on
 *                       this host, to compare its estimates with a device's.
 *   tagk-bench simulate, table2, merge, ablation: the TAG-K paper's closed-loop
 *                       experiments (bench_sim.c).
 *   tagk-bench massflight, rmspe: paper 001's time-varying mass benchmark
 *                       (bench_mass.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_mass.h"
#include "bench_sim.h"
#include "bench_commands.h"
#include "../cmd/common/cli.h"
#include "../cmd/common/cmdio.h"
#include "../formats/outfile.h"
#include "alloc_count.h"
#include "device.h"
#include "harness.h"

#define DEFAULT_METHODS "rk,grk,tark,tagk,tagk-naive,rls,rls-low,rls-low:paper," \
	"rls-low:info,rls-high,kf,kf-low,kf-low:joseph,kf-low:info,kf-low:downdate,kf-high"
#define DEFAULT_SIZES "10,40,60,80,100,120"
#define MAX_ROWS 512

enum fmt { FMT_TEXT, FMT_MD, FMT_CSV };

typedef struct {
	FILE *out;
	enum fmt fmt;
	int nrows;
	tagk_bench_row rows[MAX_ROWS];
	char names[MAX_ROWS][32];
} report;

static void
usage(FILE *f)
{
	bench_help_all(f);
}

static void
collect(const tagk_bench_row *row, void *ctx)
{
	report *r = ctx;
	if (r->nrows >= MAX_ROWS)
		cli_die(EXIT_USAGE, "too many rows (at most %d method x size pairs)", MAX_ROWS);
	r->rows[r->nrows] = *row;
	snprintf(r->names[r->nrows], sizeof(r->names[0]), "%s", row->method);
	r->rows[r->nrows].method = r->names[r->nrows];
	r->nrows++;
}

static void
print_rows(const report *r, int updates, int iters, uint64_t seed)
{
	FILE *o = r->out;
	if (r->fmt == FMT_CSV) {
		fprintf(o, "method,form,m,n,updates,median_us,p95_us,allocs,failures,rel_err,columns\n");
		for (int i = 0; i < r->nrows; i++) {
			const tagk_bench_row *w = &r->rows[i];
			fprintf(o, "%s,%s,%d,%d,%d,%.4f,%.4f,%ld,%d,%.3e,", w->method, w->form,
			    w->m, w->n, w->updates, w->median / 1e3, w->p95 / 1e3, w->allocs,
			    w->failures, w->rel_err);
			if (w->columns >= 0)
				fprintf(o, "%.2f\n", w->columns);
			else
				fprintf(o, "\n");
		}
		return;
	}
	const char *sep = r->fmt == FMT_MD ? " | " : "  ";
	const char *lead = r->fmt == FMT_MD ? "| " : "";
	const char *trail = r->fmt == FMT_MD ? " |" : "";
	char tbuf[32];
	if (iters)
		snprintf(tbuf, sizeof(tbuf), "%d", iters);
	else
		snprintf(tbuf, sizeof(tbuf), "m");
	fprintf(o, "%stagk-bench timing: %d updates per row, %s, seed %llu, Kaczmarz T = %s,\n"
	    "%sa fresh Gaussian window per update (b = A theta* + noise)\n\n",
	    r->fmt == FMT_MD ? "" : "# ", updates, TAGK_REAL_NAME, (unsigned long long)seed, tbuf,
	    r->fmt == FMT_MD ? "" : "# ");
	fprintf(o, "%s%-15s%s%-15s%s%3s%s%4s%s%10s%s%10s%s%6s%s%5s%s%9s%s%7s%s\n", lead, "method",
	    sep, "form", sep, "m", sep, "n", sep, "median_us", sep, "p95_us", sep, "allocs", sep,
	    "fails", sep, "rel_err", sep, "columns", trail);
	if (r->fmt == FMT_MD)
		fprintf(o, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
	for (int i = 0; i < r->nrows; i++) {
		const tagk_bench_row *w = &r->rows[i];
		char cols[16];
		if (w->columns >= 0)
			snprintf(cols, sizeof(cols), "%.1f", w->columns);
		else
			snprintf(cols, sizeof(cols), "-");
		fprintf(o, "%s%-15s%s%-15s%s%3d%s%4d%s%10.3f%s%10.3f%s%6ld%s%5d%s%9.2e%s%7s%s\n", lead,
		    w->method, sep, w->form, sep, w->m, sep, w->n, sep, w->median / 1e3, sep,
		    w->p95 / 1e3, sep, w->allocs, sep, w->failures, sep, w->rel_err, sep, cols, trail);
	}
	/* TAG-K against its straightforward yardstick, per size. */
	int header = 0;
	for (int i = 0; i < r->nrows; i++) {
		if (strcmp(r->rows[i].method, "tagk") != 0)
			continue;
		for (int j = 0; j < r->nrows; j++) {
			if (strcmp(r->rows[j].method, "tagk-naive") != 0 ||
			    r->rows[j].n != r->rows[i].n || r->rows[j].m != r->rows[i].m)
				continue;
			if (!header) {
				fprintf(o, "\n%sTAG-K (Gram matrix, O(m) per iteration) against the straightforward\n"
				    "%simplementation (residual recomputed every iteration), same windows and seed:\n\n",
				    r->fmt == FMT_MD ? "" : "# ", r->fmt == FMT_MD ? "" : "# ");
				fprintf(o, "%s%3s%s%4s%s%9s%s%18s%s%8s%s\n", lead, "m", sep, "n", sep,
				    "tagk_us", sep, "straightforward_us", sep, "speedup", trail);
				if (r->fmt == FMT_MD)
					fprintf(o, "|--:|--:|--:|--:|--:|\n");
				header = 1;
			}
			fprintf(o, "%s%3d%s%4d%s%9.3f%s%18.3f%s%7.2fx%s\n", lead, r->rows[i].m, sep,
			    r->rows[i].n, sep, r->rows[i].median / 1e3, sep, r->rows[j].median / 1e3,
			    sep, r->rows[j].median / r->rows[i].median, trail);
		}
	}
	long allocs = 0;
	int known = 0;
	for (int i = 0; i < r->nrows; i++)
		if (r->rows[i].allocs >= 0) {
			allocs += r->rows[i].allocs;
			known = 1;
		}
	if (known)
		fprintf(o, "\n%sallocations during all timed updates: %ld\n",
		    r->fmt == FMT_MD ? "" : "# ", allocs);
}

/* The paper's Table III shape: per n, the median per update of the paper's
 * forms, the cheaper forms and TAG-K, and TAG-K's speedups over each. */
static void
print_table3(const report *r)
{
	static const char *const cols[] = { "rls-low:paper", "rls-high:paper", "kf-low:joseph",
		"kf-high:joseph", "rls-low:info", "kf-low:info", "tagk" };
	FILE *o = r->out;
	fprintf(o, "\n# Table III shape on this host: median us per update at m = 30, and TAG-K's speedups\n"
	    "# (paper's Teensy 4.1 speedups over RLS and KF: 4.7x at n = 40 to 20.7x at n = 120)\n\n");
	fprintf(o, "%4s %9s %9s %9s %9s %9s %9s %8s | %8s %8s %8s %8s\n", "n", "rls-lo/p", "rls-hi/p",
	    "kf-lo/J", "kf-hi/J", "rls/info", "kf/info", "tagk", "x rls/p", "x kf/J", "x rls/i", "x kf/i");
	for (int i = 0; i < r->nrows; i++) {
		if (strcmp(r->rows[i].method, "tagk") != 0)
			continue;
		int n = r->rows[i].n;
		double v[7] = { 0 };
		for (int k = 0; k < 7; k++)
			for (int j = 0; j < r->nrows; j++)
				if (r->rows[j].n == n && strcmp(r->rows[j].method, cols[k]) == 0)
					v[k] = r->rows[j].median / 1e3;
		fprintf(o, "%4d %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %8.2f | %7.1fx %7.1fx %7.1fx %7.1fx\n", n,
		    v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[0] / v[6], v[2] / v[6], v[4] / v[6], v[5] / v[6]);
	}
}

static enum fmt
parse_fmt(const char *s)
{
	if (strcmp(s, "text") == 0) return FMT_TEXT;
	if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0) return FMT_MD;
	if (strcmp(s, "csv") == 0) return FMT_CSV;
	cli_die(EXIT_USAGE, "--format: '%s' is not one of text, md, csv", s);
}

static enum fmt
fmt_from_name(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (dot && strcmp(dot, ".csv") == 0) return FMT_CSV;
	if (dot && strcmp(dot, ".md") == 0) return FMT_MD;
	return FMT_TEXT;
}

int
cmd_timing(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rows", required_argument, NULL, 'm' },
		{ "sizes", required_argument, NULL, 'n' },
		{ "methods", required_argument, NULL, 'M' },
		{ "updates", required_argument, NULL, 'u' },
		{ "seed", required_argument, NULL, 's' },
		{ "noise", required_argument, NULL, 'z' },
		{ "iters", required_argument, NULL, 'T' },
		{ "paper", no_argument, NULL, 'P' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int m = 30, updates = 1000, have_fmt = 0, iters = 0, paper = 0;
	uint64_t seed = 1;
	double noise = 0.01;
	const char *sizes = DEFAULT_SIZES, *methods = DEFAULT_METHODS, *outname = NULL;
	static report rep;
	rep.fmt = FMT_TEXT;
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "m:n:u:s:f:o:h", opts)) != -1) {
		switch (c) {
		case 'm': m = (int)cli_long("-m", optarg, 1, 512); break;
		case 'n': sizes = optarg; break;
		case 'M': methods = optarg; break;
		case 'u': updates = (int)cli_long("--updates", optarg, 1, 1000000); break;
		case 's': seed = cli_u64("--seed", optarg); break;
		case 'z': noise = cli_double("--noise", optarg, 0, 1e6); break;
		case 'T': iters = (int)cli_long("--iters", optarg, 0, 100000); break;
		case 'P':
			paper = 1;
			sizes = "40,60,80,100,120";
			methods = "rls-low:paper,rls-high:paper,kf-low:joseph,kf-high:joseph,rls-low:info,"
			    "kf-low:info,tagk";
			break;
		case 'f': rep.fmt = parse_fmt(optarg); have_fmt = 1; break;
		case 'o': outname = optarg; break;
		case 'h': bench_help(stdout, "timing"); cli_close(stdout, "stdout"); return 0;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "timing: unexpected argument '%s'", argv[optind]);

	/* Parse and check every list entry before any timing starts. */
	int ns[64];
	char buf[1024], *sitems[64];
	int nn = cli_split("-n", sizes, buf, sizeof(buf), sitems, 64);
	for (int i = 0; i < nn; i++)
		ns[i] = (int)cli_long("-n", sitems[i], 1, 512);
	char mbuf[1024], *mlist[64];
	char *mitems[64];
	int nmi = cli_split("--methods", methods, mbuf, sizeof(mbuf), mitems, 64), nm = 0;
	for (int mi = 0; mi < nmi; mi++) {
		char *tok = mitems[mi];
		char base[64];
		snprintf(base, sizeof(base), "%s", tok);
		char *colon = strchr(base, ':');
		if (colon)
			*colon = 0;
		if (strcmp(base, "tagk-naive") != 0 && !tagk_window_method(base))
			cli_die(EXIT_USAGE, "--methods: unknown method '%s' (see tagk-bench --list)", tok);
		if (colon) {
			const tagk_method *mt = tagk_window_method(base);
			const char *f = colon + 1;
			const char *const *fl = mt ? tagk_window_ops_of(mt)->forms : NULL;
			if (!fl)
				cli_die(EXIT_USAGE, "--methods: '%s': %s takes no form", tok, base);
			int ok = 0;
			for (int i = 1; fl[i]; i++) /* fl[0] is auto: a suffix names a form */
				ok |= strcmp(f, fl[i]) == 0;
			if (!ok)
				cli_die(EXIT_USAGE, "--methods: '%s': a%s %s form is %s or %s", tok,
				    mt->family[0] == 'R' ? "n" : "", mt->family, fl[1], fl[2]);
		}
		mlist[nm++] = tok;
	}
	if (nm == 0)
		cli_die(EXIT_USAGE, "--methods: no methods given");

	static cmdio_file out;
	cmdio_file_open(&out, outname);
	if (out.to_file && !have_fmt)
		rep.fmt = fmt_from_name(outname);
	rep.out = out.f;

	tagk_bench_setup su = {
		.ticks = cli_now_ns, .alloc_count = tagk_alloc_count, .emit = collect, .ctx = &rep,
		.seed = seed, .updates = updates, .noise = (tagk_real)noise, .iters = iters,
	};
	for (int in = 0; in < nn; in++) {
		int n = ns[in];
		size_t wlen = tagk_bench_workspace_len(m, n), slen = tagk_bench_scratch_len(m, n);
		tagk_real *ws = malloc(wlen * sizeof(*ws)), *scratch = malloc(slen * sizeof(*scratch));
		double *times = malloc((size_t)updates * sizeof(*times));
		if (!ws || !scratch || !times)
			cli_die(EXIT_DATA, "out of memory for n = %d", n);
		for (int im = 0; im < nm; im++) {
			tagk_status st = tagk_bench_run(&su, mlist[im], m, n, ws, wlen, scratch, slen, times);
			if (st != TAGK_OK)
				cli_die(st == TAGK_EINVAL ? EXIT_USAGE : EXIT_DATA, "%s at n = %d: %s",
				    mlist[im], n, tagk_strerror(st));
		}
		free(ws);
		free(scratch);
		free(times);
	}
	print_rows(&rep, updates, iters, seed);
	if (paper)
		print_table3(&rep);
	cmdio_file_commit(&out);
	return 0;
}

int
cmd_synth(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "samples", required_argument, NULL, 'N' },
		{ "rate", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "noise-acc", required_argument, NULL, 1 },
		{ "noise-gyro", required_argument, NULL, 2 },
		{ "noise-force", required_argument, NULL, 3 },
		{ "noise-torque", required_argument, NULL, 4 },
		{ "no-payload", no_argument, NULL, 5 },
		{ "no-alpha", no_argument, NULL, 6 },
		{ "output", required_argument, NULL, 'o' },
		{ "stream", required_argument, NULL, CMDIO_STREAM_OPT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double duration = 20, rate = 100, nacc = 0, ngyro = 0, nforce = 0, ntorque = 0;
	long samples = -1;
	uint64_t seed = 1;
	int payload = 1, alpha = 1, c;
	const char *outname = NULL;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "o:h", opts)) != -1) {
		if (cmdio_output_option(c, optarg))
			continue;
		switch (c) {
		case 'd': duration = cli_double("--duration", optarg, 1e-6, 1e9); break;
		case 'N': samples = cli_long("--samples", optarg, 1, 2000000000); break;
		case 'r': rate = cli_double("--rate", optarg, 1e-3, 1e6); break;
		case 's': seed = cli_u64("--seed", optarg); break;
		case 1: nacc = cli_double("--noise-acc", optarg, 0, 1e6); break;
		case 2: ngyro = cli_double("--noise-gyro", optarg, 0, 1e6); break;
		case 3: nforce = cli_double("--noise-force", optarg, 0, 1e6); break;
		case 4: ntorque = cli_double("--noise-torque", optarg, 0, 1e6); break;
		case 5: payload = 0; break;
		case 6: alpha = 0; break;
		case 'o': outname = optarg; break;
		case 'h': bench_help(stdout, "synth"); cli_close(stdout, "stdout"); return 0;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "synth: unexpected argument '%s'", argv[optind]);
	tagk_synth_config cfg;
	tagk_synth_defaults(&cfg, seed);
	cfg.rate = (tagk_real)rate;
	cfg.noise_acc = (tagk_real)nacc;
	cfg.noise_gyro = (tagk_real)ngyro;
	cfg.noise_force = (tagk_real)nforce;
	cfg.noise_torque = (tagk_real)ntorque;
	if (!payload)
		cfg.payload_mass = 0;
	if (samples < 0)
		samples = (long)(duration * rate + 0.5);
	const char *base[] = { "t", "ax", "ay", "az", "gx", "gy", "gz", "alx", "aly", "alz",
		"fx", "fy", "fz", "tx", "ty", "tz" };
	const char *names[16 + TAGK_NPARAM];
	char tn[TAGK_NPARAM][24];
	int nc = 0;
	for (int i = 0; i < 16; i++)
		if (alpha || i < 7 || i > 9)
			names[nc++] = base[i];
	for (int j = 0; j < TAGK_NPARAM; j++) {
		snprintf(tn[j], sizeof(tn[j]), "true_%s", tagk_param_names[j]);
		names[nc++] = tn[j];
	}
	sink *out = cmdio_open_output(outname, TBL_AUTO);
	cmdio_header(out, nc, names);
	double row[16 + TAGK_NPARAM];
	for (long k = 0; k < samples; k++) {
		tagk_synth_sample s;
		tagk_synth_at(&cfg, k, &s);
		int i = 0;
		row[i++] = (double)s.t;
		for (int j = 0; j < 3; j++) row[i++] = (double)s.acc[j];
		for (int j = 0; j < 3; j++) row[i++] = (double)s.gyro[j];
		if (alpha)
			for (int j = 0; j < 3; j++) row[i++] = (double)s.alpha[j];
		for (int j = 0; j < 3; j++) row[i++] = (double)s.force[j];
		for (int j = 0; j < 3; j++) row[i++] = (double)s.torque[j];
		for (int j = 0; j < TAGK_NPARAM; j++) row[i++] = (double)s.truth[j];
		cmdio_row(out, row);
	}
	cmdio_commit(out);
	return 0;
}

static void
device_puts(const char *line)
{
	puts(line);
}

int
cmd_device(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sizes", required_argument, NULL, 'n' },
		{ "updates", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static int sizes[17] = { 40, 60, 80, 100, 120, 0 };
	int updates = 20, c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "n:u:h", opts)) != -1) {
		switch (c) {
		case 'n': {
			char buf[256], *items[16];
			int k = cli_split("--sizes", optarg, buf, sizeof(buf), items, 16);
			for (int i = 0; i < k; i++)
				sizes[i] = (int)cli_long("--sizes", items[i], 1, 120);
			sizes[k] = 0;
			break;
		}
		case 'u': updates = (int)cli_long("--updates", optarg, 1, 256); break;
		case 'h': bench_help(stdout, "device"); cli_close(stdout, "stdout"); return 0;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	bench_device_config cfg = {
		.target = "host", .puts = device_puts, .ticks = cli_now_ns, .tick_unit = "ns",
		.updates = updates, .sizes = sizes, .seed = 1,
	};
	int st = bench_device_run(&cfg);
	cli_close(stdout, "stdout");
	if (st != 0)
		cli_die(EXIT_DATA, "device benchmark: %s", tagk_strerror((tagk_status)st));
	return 0;
}

int
main(int argc, char **argv)
{
	cli_init(argv[0]);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *sub = argv[1];
	if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0)
		cli_help(usage);
	if (strcmp(sub, "--version") == 0)
		cli_version();
	if (strcmp(sub, "--list") == 0) {
		for (int i = 0; i < tagk_method_count(); i++)
			/* the window and state-space methods: bench's experiments run no
			 * batch method, and the learned one only inside shake-table */
			if (tagk_method_at(i)->kind == TAGK_KIND_WINDOW || tagk_method_at(i)->kind == TAGK_KIND_STATE)
				printf("%-12s %s [%s]\n", tagk_method_at(i)->name, tagk_method_at(i)->summary,
				    tagk_method_at(i)->family);
		printf("%-12s %s\n", "tagk-naive", "TAG-K, straightforward implementation (benchmark yardstick)");
		cli_close(stdout, "stdout");
		return 0;
	}
	const bench_command *bc = bench_find(sub);
	if (bc)
		return bc->run(argc - 1, argv + 1);
	cli_warn("unknown command '%s'", sub);
	usage(stderr);
	return EXIT_USAGE;
}
