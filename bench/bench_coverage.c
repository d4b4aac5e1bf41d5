/*
 * bench_coverage.c: tagk-bench coverage, the calibration of tagk-estimate's
 * intervals. Over N simulated flights of known noise and constant mass
 * (tagk-bench massflight, seeds 1..N), every method runs through the real
 * pipeline a user runs,
 *
 *   tagk-regress -m mass --wrench thrust FLIGHT | tagk-estimate -a METHOD
 *
 * and its final estimate's 95 % interval, m +- 1.96 sd_m, either holds the
 * true mass or not. An honest interval holds it in about 95 % of the
 * flights; the table prints the share, with its own binomial uncertainty,
 * beside the mean sd and the root mean square error, whose ratio says
 * whether the sd is the error's size.
 *
 * The state-space methods (ekf, msckf, msckf-stack, ukf, swls) read the
 * flight's state instead, through tagk-regress -m state FLIGHT.
 *
 * --noise-ar1 colours the sensors' noise (massflight's AR(1)) and the
 * logged state's (massflight --state-noise-ar1, which the regressor
 * methods do not read), and
 * --thrust-map-sd X makes each flight's logged thrust off by a factor
 * 1 + d, d ~ N(0, X) drawn per flight, while tagk-regress is told
 * --scale-sd X: the interval is then the total one, sqrt(sd_m^2 +
 * sd_sys_m^2) (tagk-report's report_total_sd), and the noise's part alone
 * is scored beside it (noise95).
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
#include "spawn.h"
#include "workers.h"

enum { COV_MAX_METHODS = 8, COV_MAX_JOBS = 16 };

typedef struct {
	long seeds;
	double duration, noise, thrust_sd, ar1, map_sd;
	int nm;
	char *methods[COV_MAX_METHODS];
	int batch[COV_MAX_METHODS]; /* ols, wls: tagk-estimate --batch */
	int state[COV_MAX_METHODS]; /* ekf, msckf, ukf, swls: tagk-regress -m state */
	char dir[4200];             /* the commands' directory */
	char tmp[4200];             /* a private scratch directory */
} cov_opts;

/* The last estimate of an estimate stream file: m, sd_m, sd_sys_m and
 * true_m by name (sd_m NaN when its cell is empty, sd_sys_m NaN without
 * the column); 0, or -1 if the file has none. */
static int
last_estimate(const char *path, double *m, double *sd, double *sys, double *truth)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[8192], last[8192] = "";
	int im = -1, isd = -1, isys = -1, it = -1, header = 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (!header) {
			header = 1;
			char *save = NULL;
			int k = 0;
			for (char *tok = strtok_r(line, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save), k++) {
				if (strcmp(tok, "m") == 0) im = k;
				if (strcmp(tok, "sd_m") == 0) isd = k;
				if (strcmp(tok, "sd_sys_m") == 0) isys = k;
				if (strcmp(tok, "true_m") == 0) it = k;
			}
			continue;
		}
		snprintf(last, sizeof(last), "%s", line);
	}
	fclose(f);
	if (im < 0 || isd < 0 || it < 0 || !last[0])
		return -1;
	/* cells by position: an empty cell is kept (strsep, not strtok) */
	char *p = last, *cell;
	*m = *sd = *sys = *truth = (double)NAN;
	for (int k = 0; (cell = strsep(&p, ",\n")) != NULL; k++) {
		double v = *cell ? strtod(cell, NULL) : (double)NAN;
		if (k == im) *m = v;
		if (k == isd) *sd = v;
		if (k == isys) *sys = v;
		if (k == it) *truth = v;
	}
	return 0;
}

/* One flight: simulate it, run every method, one line per method into out:
 * "method_index,m,sd,sd_sys,true". */
static void
cover_one(const cov_opts *c, long seed, FILE *out)
{
	char flight[4400], est[4400], sim[4300], reg[4300], tge[4300], sseed[32], sdur[32], snoise[32], ssd[32];
	char sar[32], smap[32];
	snprintf(flight, sizeof(flight), "%s/f%ld.csv", c->tmp, seed);
	snprintf(sim, sizeof(sim), "%s/tagk-bench", c->dir);
	snprintf(reg, sizeof(reg), "%s/tagk-regress", c->dir);
	snprintf(tge, sizeof(tge), "%s/tagk-estimate", c->dir);
	snprintf(sseed, sizeof(sseed), "%ld", seed);
	snprintf(sdur, sizeof(sdur), "%g", c->duration);
	snprintf(snoise, sizeof(snoise), "%g", c->noise);
	snprintf(ssd, sizeof(ssd), "%g", c->thrust_sd);
	snprintf(sar, sizeof(sar), "%g", c->ar1);
	snprintf(smap, sizeof(smap), "%g", c->map_sd);
	char *sa[] = { sim, "massflight", "--mass", "constant", "--seed", sseed, "--duration", sdur, "--noise", snoise,
		"--thrust-sd", ssd, "--noise-ar1", sar, "--state-noise-ar1", sar, "--thrust-map-sd", smap, "-o", flight,
		NULL };
	spawn_reap(spawn_cmd(sa, -1, -1, 1), "tagk-bench massflight");
	for (int i = 0; i < c->nm; i++) {
		snprintf(est, sizeof(est), "%s/e%ld.csv", c->tmp, seed);
		char *ra[] = { reg, "-m", "mass", "--wrench", "thrust", flight, NULL, NULL, NULL };
		if (c->state[i]) {
			ra[2] = "state";
			ra[3] = flight;
			ra[4] = NULL;
		}
		if (c->map_sd > 0) {
			int k = c->state[i] ? 3 : 5;
			ra[k] = "--scale-sd";
			ra[k + 1] = smap;
			ra[k + 2] = flight;
		}
		char *ea[] = { tge, "-q", "-a", c->methods[i], "--stream", "csv", "-o", est, NULL };
		char *eb[] = { tge, "-q", "--batch", "-a", c->methods[i], "--stream", "csv", "-o", est, NULL };
		int fd[2];
		if (pipe(fd) != 0)
			cli_die(EXIT_DATA, "coverage: pipe failed");
		fcntl(fd[0], F_SETFD, FD_CLOEXEC);
		fcntl(fd[1], F_SETFD, FD_CLOEXEC);
		pid_t a = spawn_cmd(ra, -1, fd[1], 0);
		pid_t b = spawn_cmd(c->batch[i] ? eb : ea, fd[0], -1, 0);
		close(fd[0]);
		close(fd[1]);
		spawn_reap(a, "tagk-regress");
		spawn_reap(b, "tagk-estimate");
		double m, sd, sys, truth;
		if (last_estimate(est, &m, &sd, &sys, &truth) != 0)
			cli_die(EXIT_DATA, "coverage: seed %ld, %s: no estimate with m, sd_m and true_m", seed, c->methods[i]);
		fprintf(out, "%d,%.17g,%.17g,%.17g,%.17g\n", i, m, sd, sys, truth);
		unlink(est);
	}
	unlink(flight);
}

typedef struct {
	long runs, held, held_noise, no_sd;
	double sd_sum, se_sum;
} cov_cell;

static void
print_table(const cov_opts *c, const cov_cell *cell, int jobs)
{
	printf("# tagk-bench coverage: %ld flights of %g s (massflight --mass constant, 1 kg, loop, seeds 1 to %ld, "
	    "noise x%g, thrust sd %g, noise AR(1) %g, thrust map sd %g), %d job%s\n", c->seeds, c->duration, c->seeds,
	    c->noise, c->thrust_sd, c->ar1, c->map_sd, jobs, jobs == 1 ? "" : "s");
	printf("# each: tagk-regress -m mass --wrench thrust%s (-m state for ekf, msckf, ukf, swls) | tagk-estimate -a "
	    "METHOD;\n# the final estimate's interval m +- 1.96 sd\n", c->map_sd > 0 ? " --scale-sd X" : "");
	printf("# holds the true mass in cover95 %% of the flights (+- its binomial 95 %% margin; target 90 to 99), sd "
	    "the total\n# sqrt(sd_m^2 + sd_sys_m^2); noise95 %% with sd_m alone\n\n");
	printf("%-8s %6s %10s %8s %8s %10s %12s %12s %10s\n", "method", "runs", "cover95_%", "+-", "target", "noise95_%",
	    "mean_sd_kg", "rms_err_kg", "err/sd");
	for (int i = 0; i < c->nm; i++) {
		const cov_cell *g = &cell[i];
		long n = g->runs - g->no_sd;
		double p = n ? (double)g->held / (double)n : (double)NAN;
		double margin = n ? 196 * sqrt(p * (1 - p) / (double)n) : (double)NAN;
		double msd = n ? g->sd_sum / (double)n : (double)NAN, rms = n ? sqrt(g->se_sum / (double)n) : (double)NAN;
		int ok = n && 100 * p >= 90 && 100 * p <= 99;
		double pn = n ? 100.0 * (double)g->held_noise / (double)n : (double)NAN;
		printf("%-8s %6ld %10.1f %8.1f %8s %10.1f %12.4g %12.4g %10.3f", c->methods[i], g->runs, 100 * p, margin,
		    ok ? "ok" : "MISSED", pn, msd, rms, rms / msd);
		if (g->no_sd)
			printf("  (%ld without an sd)", g->no_sd);
		printf("\n");
	}
}

static void
parse(int argc, char **argv, cov_opts *c, int *jobs)
{
	static const struct option opts[] = {
		{ "seeds", required_argument, NULL, 'n' },
		{ "methods", required_argument, NULL, 'm' },
		{ "duration", required_argument, NULL, 'd' },
		{ "noise", required_argument, NULL, 'z' },
		{ "thrust-sd", required_argument, NULL, 't' },
		{ "noise-ar1", required_argument, NULL, 'a' },
		{ "thrust-map-sd", required_argument, NULL, 'q' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char mbuf[512];
	const char *methods = "kf-low,rls-low,ols,wls";
	c->seeds = 200;
	c->duration = 20;
	c->noise = 1;
	c->thrust_sd = 0;
	*jobs = 2;
	int ch;
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "j:h", opts)) != -1) {
		switch (ch) {
		case 'n': c->seeds = cli_long("--seeds", optarg, 1, 100000); break;
		case 'm': methods = optarg; break;
		case 'd': c->duration = cli_double("--duration", optarg, 1, 600); break;
		case 'z': c->noise = cli_double("--noise", optarg, 0.01, 100); break;
		case 't': c->thrust_sd = cli_double("--thrust-sd", optarg, 0, 1); break;
		case 'a': c->ar1 = cli_double("--noise-ar1", optarg, 0, 0.999); break;
		case 'q': c->map_sd = cli_double("--thrust-map-sd", optarg, 0, 0.3); break;
		case 'j': *jobs = (int)cli_long("--jobs", optarg, 1, COV_MAX_JOBS); break;
		case 'h': bench_help(stdout, "coverage"); cli_close(stdout, "stdout"); exit(0);
		default: bench_help(stderr, "coverage"); exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "coverage: unexpected argument '%s'", argv[optind]);
	c->nm = cli_split("--methods", methods, mbuf, sizeof(mbuf), c->methods, COV_MAX_METHODS);
	for (int i = 0; i < c->nm; i++) {
		static const char *const known[] = { "ols", "wls", "kf-low", "kf", "kf-high", "rls-low", "rls", "rls-high",
			"ekf", "msckf", "msckf-stack", "ukf", "swls" };
		int k = 0;
		while (k < 13 && strcmp(known[k], c->methods[i]) != 0)
			k++;
		if (k == 13)
			cli_die(EXIT_USAGE, "--methods: '%s' is not kf-low, kf, kf-high, rls-low, rls, rls-high, ols, wls, ekf, "
			    "msckf, msckf-stack, ukf or swls (the methods whose sd the intervals come from)", c->methods[i]);
		c->batch[i] = k < 2;
		c->state[i] = k >= 8;
	}
}

int
cmd_coverage(int argc, char **argv)
{
	cov_opts c;
	memset(&c, 0, sizeof(c));
	int jobs;
	parse(argc, argv, &c, &jobs);
	if (jobs > c.seeds)
		jobs = (int)c.seeds;
	spawn_bindir(c.dir, sizeof(c.dir));
	const char *td = getenv("TMPDIR");
	snprintf(c.tmp, sizeof(c.tmp), "%s/tagk-coverage-XXXXXX", td && *td ? td : "/tmp");
	if (!mkdtemp(c.tmp))
		cli_die(EXIT_DATA, "coverage: cannot create a directory in %s", td && *td ? td : "/tmp");
	FILE *parts[COV_MAX_JOBS];
	pid_t pids[COV_MAX_JOBS];
	fflush(stdout);
	for (int j = 0; j < jobs; j++) {
		if (!(parts[j] = tmpfile()))
			cli_die(EXIT_DATA, "coverage: cannot create a temporary file");
		if ((pids[j] = fork()) < 0)
			cli_die(EXIT_DATA, "coverage: cannot fork");
		if (pids[j] == 0) {
			for (long s = 1 + j; s <= c.seeds; s += jobs)
				cover_one(&c, s, parts[j]);
			_exit(fflush(parts[j]) == 0 ? 0 : EXIT_DATA);
		}
	}
	workers_wait("coverage", pids, jobs);
	rmdir(c.tmp);
	cov_cell cell[COV_MAX_METHODS];
	memset(cell, 0, sizeof(cell));
	long lines = 0;
	for (int j = 0; j < jobs; j++) {
		rewind(parts[j]);
		int i;
		double m, sd, sys, truth;
		while (fscanf(parts[j], "%d,%lf,%lf,%lf,%lf\n", &i, &m, &sd, &sys, &truth) == 5) {
			if (i < 0 || i >= c.nm)
				cli_die(EXIT_DATA, "coverage: a worker wrote a malformed result");
			cov_cell *g = &cell[i];
			g->runs++;
			lines++;
			if (!(sd > 0)) {
				g->no_sd++;
				continue;
			}
			/* the total, as tagk-report's report_total_sd: in quadrature */
			double tot = isnan(sys) ? sd : hypot(sd, sys);
			g->held += fabs(m - truth) <= 1.96 * tot;
			g->held_noise += fabs(m - truth) <= 1.96 * sd;
			sd = tot;
			g->sd_sum += sd;
			g->se_sum += (m - truth) * (m - truth);
		}
		fclose(parts[j]);
	}
	if (lines != c.seeds * c.nm)
		cli_die(EXIT_DATA, "coverage: %ld results of %ld expected", lines, c.seeds * c.nm);
	print_table(&c, cell, jobs);
	cli_close(stdout, "stdout");
	return 0;
}
