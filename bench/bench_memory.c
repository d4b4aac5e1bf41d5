/*
 * bench_memory.c: tagk-bench memory, the peak resident memory of the
 * commands that read a whole stream, as the stream grows: tagk-report's
 * summary (exact quantiles, quantile.h) and its scores against the truth,
 * tagk-estimate --batch (normal equations) and tagk-filter (a reader and a
 * writer), each fed a synthetic stream of N rows through a pipe by a child
 * of this process. The peer, measured in the same run on the same rows as
 * CSV, is awk summing a column: the memory of a program that keeps nothing.
 * Peak memory comes from the kernel (wait4's ru_maxrss).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench_commands.h"
#include "../cmd/common/cli.h"
#include "../formats/sink.h"
#include "../lib/tagk.h"

enum { K_ESTIMATES, K_TRUTH, K_REGRESSOR };

/* Write n rows of kind k to fd as a stream (binary, or CSV when csv), then
 * exit: the child's whole life. Estimates wander as a random walk about a
 * Crazyflie's parameters; the regressor is one mass row per sample. */
static _Noreturn void
write_rows(int fd, long n, int k, int csv)
{
	static const char *const est[] = { "t", "m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz",
		"true_m", "true_mcx", "true_mcy", "true_mcz", "true_Ixx", "true_Ixy", "true_Iyy", "true_Ixz",
		"true_Iyz", "true_Izz" };
	static const char *const reg[] = { "t", "row", "Y_m", "b" };
	if (dup2(fd, 1) < 0)
		_exit(1);
	char err[512];
	sink *s = sink_open(NULL, csv ? TBL_CSV : TBL_BINARY, err, sizeof(err));
	int nc = k == K_REGRESSOR ? 4 : k == K_TRUTH ? 21 : 11;
	if (!s || sink_header(s, nc, k == K_REGRESSOR ? reg : est) != 0)
		_exit(1);
	static const double nominal[TAGK_NPARAM] = { 0.035, 0, 0, 0, 1.66e-5, 8.3e-7, 1.66e-5, 7.2e-7, 1.8e-6, 2.93e-5 };
	tagk_rng g;
	tagk_rng_seed(&g, 7);
	double row[21], walk[TAGK_NPARAM] = { 0 };
	for (long i = 0; i < n; i++) {
		row[0] = 0.01 * (double)i;
		if (k == K_REGRESSOR) {
			double a = 9.8 + (double)tagk_rng_gaussian(&g);
			row[1] = 0;
			row[2] = a;
			row[3] = 0.035 * a + 1e-3 * (double)tagk_rng_gaussian(&g);
		} else {
			for (int j = 0; j < TAGK_NPARAM; j++) {
				double sc = nominal[j] != 0 ? fabs(nominal[j]) : 1e-5;
				walk[j] = 0.999 * walk[j] + 0.01 * sc * (double)tagk_rng_gaussian(&g);
				row[1 + j] = nominal[j] + walk[j];
				row[11 + j] = nominal[j];
			}
		}
		if (sink_row(s, row) != 0)
			_exit(1);
	}
	_exit(sink_close(s, 1, NULL, err, sizeof(err)) == 0 ? 0 : 1);
}

/* Run argv reading a stream of n rows of kind k from a pipe fed by a
 * child; the peak resident memory of argv's process in KiB. */
static long
peak_of(char *const *argv, long n, int k, int csv)
{
	int fd[2];
	if (pipe(fd) != 0)
		cli_die(EXIT_DATA, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t w = fork();
	if (w < 0)
		cli_die(EXIT_DATA, "fork: %s", strerror(errno));
	if (w == 0) {
		close(fd[0]);
		write_rows(fd[1], n, k, csv);
	}
	pid_t r = fork();
	if (r < 0)
		cli_die(EXIT_DATA, "fork: %s", strerror(errno));
	if (r == 0) {
		close(fd[1]);
		int null = open("/dev/null", O_RDWR);
		dup2(fd[0], 0);
		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[0]);
	close(fd[1]);
	int st;
	struct rusage ru;
	if (wait4(r, &st, 0, &ru) < 0)
		cli_die(EXIT_DATA, "wait: %s", strerror(errno));
	int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	int wst;
	waitpid(w, &wst, 0);
	if (!ok)
		cli_die(EXIT_DATA, "memory: %s failed on %ld rows", argv[0], n);
	return ru.ru_maxrss;
}

int
cmd_memory(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rows", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *rows = "100000,1000000,10000000";
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'N': rows = optarg; break;
		case 'h': bench_help(stdout, "memory"); cli_close(stdout, "stdout"); return 0;
		default: bench_help(stderr, "memory"); return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "memory: unexpected argument '%s'", argv[optind]);
	long ns[8];
	char buf[256], *items[8];
	int nn = cli_split("--rows", rows, buf, sizeof(buf), items, 8);
	for (int i = 0; i < nn; i++)
		ns[i] = cli_long("--rows", items[i], 1000, 100000000);
	char me[4096], rep[4200], est[4200], fil[4200];
	ssize_t len = readlink("/proc/self/exe", me, sizeof(me) - 1);
	if (len <= 0)
		cli_die(EXIT_DATA, "cannot find my own directory");
	me[len] = 0;
	*strrchr(me, '/') = 0;
	snprintf(rep, sizeof(rep), "%s/tagk-report", me);
	snprintf(est, sizeof(est), "%s/tagk-estimate", me);
	snprintf(fil, sizeof(fil), "%s/tagk-filter", me);
	char *summary[] = { rep, NULL };
	char *score[] = { rep, NULL };
	char *batch[] = { est, "--batch", "-a", "ols", NULL };
	char *filter[] = { fil, NULL };
	char *awk[] = { "awk", "-F,", "!/^#/ && NR > 2 { s += $2 } END { print s }", NULL };
	const struct {
		const char *what;
		char **argv;
		int kind, csv;
	} runs[] = {
		{ "tagk-report (summary)", summary, K_ESTIMATES, 0 },
		{ "tagk-report (scores)", score, K_TRUTH, 0 },
		{ "tagk-estimate --batch -a ols", batch, K_REGRESSOR, 0 },
		{ "tagk-filter (read, write)", filter, K_TRUTH, 0 },
		{ "peer: awk summing a column", awk, K_ESTIMATES, 1 },
	};
	enum { NRUNS = sizeof(runs) / sizeof(runs[0]) };
	printf("# tagk-bench memory: peak resident memory (KiB, the kernel's ru_maxrss) of each command reading\n"
	    "# a stream of N rows from a pipe (rigid-body estimates, with true_* columns for the scores and\n"
	    "# the filter; one mass row per sample for the batch solve); the peer reads the same estimates\n"
	    "# as CSV. Target (issue 31): flat from the first N to the last; 'growth' is the peak over the\n"
	    "# first N's, 'peer' the peak over awk's at that N.\n\n");
	printf("%-30s %10s %10s %8s %8s\n", "command", "rows", "peak_KiB", "growth", "peer");
	fflush(stdout);
	long first[NRUNS], peer[8];
	for (int i = 0; i < nn; i++)
		peer[i] = peak_of(runs[NRUNS - 1].argv, ns[i], runs[NRUNS - 1].kind, 1);
	for (int k = 0; k < NRUNS; k++)
		for (int i = 0; i < nn; i++) {
			long p = k == NRUNS - 1 ? peer[i] : peak_of(runs[k].argv, ns[i], runs[k].kind, runs[k].csv);
			if (i == 0)
				first[k] = p;
			printf("%-30s %10ld %10ld %8.2f %8.2f\n", runs[k].what, ns[i], p, (double)p / (double)first[k],
			    (double)p / (double)peer[i]);
			fflush(stdout);
		}
	cli_close(stdout, "stdout");
	return 0;
}
