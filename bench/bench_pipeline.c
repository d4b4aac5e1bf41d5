/*
 * bench_pipeline.c: tagk-bench pipeline, the throughput of
 * tagk-regress LOG | tagk-estimate on synthetic logs, with the stream
 * between them as CSV and as tagk's binary stream, then each stage alone;
 * wall time from this process, peak memory from the kernel (wait4); then
 * each stage's CPU time per log row beside cat's and awk's on the same
 * file (the yardsticks of issue 36), CPU from wait4 too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench_commands.h"
#include "spawn.h"
#include "../cmd/common/cli.h"
#include "../formats/binary.h"
#include "../lib/tagk.h"

/* "regress --stream STREAM IN | estimate -a METHOD > /dev/null": wall
 * time and each process's peak resident set. */
static void
run_pipeline(const char *dir, const char *in, const char *stream, const char *method, double *secs,
    long *rss_r, long *rss_e)
{
	char reg[4200], est[4200];
	snprintf(reg, sizeof(reg), "%s/tagk-regress", dir);
	snprintf(est, sizeof(est), "%s/tagk-estimate", dir);
	char *ra[] = { reg, "--stream", (char *)stream, (char *)in, NULL };
	char *ea[] = { est, "-a", (char *)method, "-q", NULL }; /* -q: the benchmark's output, not the fit's notes */
	int fd[2];
	if (pipe(fd) != 0)
		cli_die(EXIT_DATA, "pipe: %s", strerror(errno));
	/* neither child may keep the other end open: the reader would never
	 * see the end of its input */
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	double t0 = cli_seconds();
	pid_t a = spawn_cmd(ra, -1, fd[1], 0);
	pid_t b = spawn_cmd(ea, fd[0], -1, 0);
	close(fd[0]);
	close(fd[1]);
	*rss_r = spawn_reap(a, "tagk-regress");
	*rss_e = spawn_reap(b, "tagk-estimate");
	*secs = cli_seconds() - t0;
}

/* One command alone, stdin from in (NULL: none), stdout to /dev/null. */
static double
run_alone(char *const *argv, const char *in)
{
	int fd = -1;
	if (in && (fd = open(in, O_RDONLY)) < 0)
		cli_die(EXIT_DATA, "%s: %s", in, strerror(errno));
	double t0 = cli_seconds();
	spawn_reap(spawn_cmd(argv, fd, -1, 0), argv[0]);
	double t = cli_seconds() - t0;
	if (fd >= 0)
		close(fd);
	return t;
}

/* One command alone, stdin none, stdout to /dev/null: its CPU seconds. */
static double
cpu_alone(char *const *argv)
{
	double cpu;
	spawn_reap_cpu(spawn_cmd(argv, -1, -1, 1), argv[0], &cpu);
	return cpu;
}

/* The first of /usr/bin/NAME and /bin/NAME that exists, into out. */
static void
tool_path(const char *name, char *out, size_t len)
{
	snprintf(out, len, "/usr/bin/%s", name);
	if (access(out, X_OK) != 0)
		snprintf(out, len, "/bin/%s", name);
}

/* The CPU table's lines, printed after the others: at most 10 stages for
 * each of 2 formats of each of 16 sizes (--samples' limit), so none is
 * left out; the stage table's, at most 3 a size. */
enum { MAX_SIZES = 16, CPU_LINES = MAX_SIZES * 2 * 10, STAGE_LINES = MAX_SIZES * 3 };
static char cpu_text[CPU_LINES][128];
static int cpu_n;
static char floor_text[MAX_SIZES * 3][128]; /* issue 57's ratios: a line a CSV size, two an HDF5 size */
static int floor_n;

/* One line of the CPU table: the stage's CPU per log row and its ratios
 * to cat's and awk's of the same file (awk 0: none measured). */
static void
cpu_line(const char *input, const char *stage, long n, double cpu, double cat, double awk)
{
	if (cpu_n == CPU_LINES) /* a stage added to cpu_stages without raising the limit */
		cli_die(EXIT_DATA, "pipeline: more than %d lines in the CPU table", CPU_LINES);
	char ra[16];
	snprintf(ra, sizeof(ra), awk > 0 ? "%.3f" : "-", cpu / awk);
	snprintf(cpu_text[cpu_n++], sizeof(cpu_text[0]), "%-6s %-24s %10ld %8.2f %10.3f %8.1f %8s", input, stage, n, cpu,
	    1e6 * cpu / (double)n, cpu / cat, ra);
}

/* The record bytes a sample of the n in the binary stream at path (of
 * version 4, tagk-formats(5)): from the end of its three header lines to
 * its trailer, the last eight 0xff bytes (the notes after it are text),
 * over n. */
static long
stream_bytes(const char *path, long n)
{
	unsigned char tail[4097];
	FILE *f = fopen(path, "rb");
	if (!f)
		cli_die(EXIT_DATA, "%s: %s", path, strerror(errno));
	int c, lines = 0, v4 = 1;
	for (long k = 0; lines < 3 && (c = getc(f)) != EOF; k++) {
		lines += c == '\n';
		if (k < 7)
			v4 &= c == (unsigned char)(BINARY_MAGIC " 4 ")[k];
	}
	long head = ftell(f), trailer = -1;
	if (fseek(f, 0, SEEK_END) != 0)
		cli_die(EXIT_DATA, "%s: %s", path, strerror(errno));
	long size = ftell(f), from = size - (long)(sizeof(tail) - 1) > head ? size - (long)(sizeof(tail) - 1) : head;
	size_t tn = fseek(f, from, SEEK_SET) == 0 ? fread(tail, 1, (size_t)(size - from), f) : 0;
	fclose(f);
	for (size_t i = 0; i + 8 <= tn; i++)
		if (memcmp(tail + i, BINARY_TRAILER, 8) == 0)
			trailer = from + (long)i;
	if (lines < 3 || !v4 || trailer < head || n <= 0)
		cli_die(EXIT_DATA, "%s: not a whole binary stream of version 4", path);
	return (long)((double)(trailer - head) / (double)n + 0.5);
}

/* The CPU table's rows for one log (CSV, or HDF5 if h5): cat and awk
 * reading it, tagk-bench io-floor reading it through the library tagk's
 * reader is built on (fast_float or libhdf5) and writing its values, then
 * the bytes a sample tagk-regress's stream has (what no reader over those
 * libraries writing that stream can beat), tagk-regress to the binary
 * stream and to CSV, tagk-filter copying it to the binary stream (the reader alone, with no regressor),
 * tagk-regress from the same rows as a binary stream (its own work with
 * the cheapest reader tagk has: a bound under any reader's figure), and
 * for CSV the CSV writer alone (tagk-filter turning regress's binary
 * stream into CSV) and tagk-estimate on that stream, each per log row.
 * Every command runs `repeat` times, the commands taking turns, and its
 * least CPU time counts: a busy or throttled moment only ever adds time,
 * and taking turns gives the yardsticks the same moments. */
static void
cpu_stages(const char *me, const char *path, int h5, long n, const char *tmpdir, const char *method, int repeat)
{
	char cat[64], awk[64], reg[4200], fil[4200], est[4200], bin[4200], log[4200];
	snprintf(reg, sizeof(reg), "%s/tagk-regress", me);
	snprintf(fil, sizeof(fil), "%s/tagk-filter", me);
	snprintf(est, sizeof(est), "%s/tagk-estimate", me);
	snprintf(bin, sizeof(bin), "%s/cpu-%ld.bin", tmpdir, n);
	snprintf(log, sizeof(log), "%s/log-%ld.bin", tmpdir, n);
	tool_path("cat", cat, sizeof(cat));
	tool_path("awk", awk, sizeof(awk));
	char *ca[] = { cat, (char *)path, NULL };
	char *aa[] = { awk, "-F,", "NR > 1 { for (i = 1; i <= NF; i++) s += $i } END { print s }", (char *)path, NULL };
	char *rb[] = { reg, "--stream", "binary", (char *)path, NULL };
	char *rc[] = { reg, "--stream", "csv", (char *)path, NULL };
	char *fb[] = { fil, "--stream", "binary", (char *)path, NULL };
	char *lb[] = { reg, "--stream", "binary", log, NULL };
	char *wb[] = { reg, "--stream", "binary", "-o", bin, (char *)path, NULL };
	char *wl[] = { fil, "--stream", "binary", "-o", log, (char *)path, NULL };
	char *fc[] = { fil, "--stream", "csv", bin, NULL };
	char *ea[] = { est, "-a", (char *)method, "-q", bin, NULL };
	char bench[4200], bytes[24], label[48];
	snprintf(bench, sizeof(bench), "%s/tagk-bench", me);
	cpu_alone(wl); /* the log as a binary stream */
	cpu_alone(wb); /* the stream the CSV writer and tagk-estimate read, and the floor's size */
	snprintf(bytes, sizeof(bytes), "%ld", stream_bytes(bin, n));
	snprintf(label, sizeof(label), "io-floor -> %s B/row", bytes);
	char *fv[] = { bench, "io-floor", (char *)path, NULL };
	char *fr[] = { bench, "io-floor", "--bytes", bytes, (char *)path, NULL };
	char *fg[] = { bench, "io-floor", "--regress", (char *)path, NULL };
	/* which inputs each stage is measured for: 1 CSV, 2 HDF5 */
	struct { const char *in, *label; char **argv; int on; double cpu; } st[] = {
		{ "", "cat", ca, 3, 0 },
		{ "", "awk (sum of every field)", aa, 1, 0 },
		{ "", "io-floor -> values", fv, 3, 0 },
		{ "", label, fr, 3, 0 },
		{ "", "io-floor -> regress", fg, 3, 0 },
		{ "", "tagk-regress -> binary", rb, 3, 0 },
		{ "", "tagk-regress -> csv", rc, 3, 0 },
		{ "", "tagk-filter -> binary", fb, 3, 0 },
		{ "binlog", "tagk-regress -> binary", lb, 3, 0 },
		{ "binary", "tagk-filter -> csv", fc, 1, 0 },
		{ "binary", "tagk-estimate", ea, 1, 0 },
	};
	int nst = (int)(sizeof(st) / sizeof(st[0])), on = h5 ? 2 : 1;
	for (int r = 0; r < repeat; r++)
		for (int i = 0; i < nst; i++) {
			if (!(st[i].on & on))
				continue;
			double t = cpu_alone(st[i].argv);
			if (r == 0 || t < st[i].cpu)
				st[i].cpu = t;
		}
	double tc = st[0].cpu, ta = h5 ? 0 : st[1].cpu;
	for (int i = 0; i < nst; i++)
		if (st[i].on & on)
			cpu_line(st[i].in[0] ? st[i].in : h5 ? "hdf5" : "csv", st[i].label, n, st[i].cpu, tc, ta);
	/* issue 57's ratios: tagk-regress over the floor that writes its
	 * stream; from HDF5, that floor over cat (what 4x cat asks of it) */
	if (floor_n < MAX_SIZES * 3)
		snprintf(floor_text[floor_n++], sizeof(floor_text[0]), "%-6s %10ld  tagk-regress -> binary / io-floor -> "
		    "regress: %.3f", h5 ? "hdf5" : "csv", n, st[5].cpu / st[4].cpu);
	if (h5 && floor_n < MAX_SIZES * 3)
		snprintf(floor_text[floor_n++], sizeof(floor_text[0]), "hdf5   %10ld  io-floor -> regress / cat: %.3f", n,
		    st[4].cpu / tc);
	remove(bin);
	remove(log);
}

/* The paired table's lines (issue 57): at most 3 for each size. */
enum { PAIR_LINES = MAX_SIZES * 3 };
static char pair_text[PAIR_LINES][200];
static int pair_n, pair_runs;

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* "median min max" of the n values v (sorted here). */
static void
spread(double *v, int n, char *out, size_t len)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	snprintf(out, len, "%7.2f %5.2f-%-5.2f", med, v[0], v[n - 1]);
}

/* CPU seconds of argv, with TAGK_HDF5_TEST_NO_CHUNK_READS=1 when h5dread
 * (libhdf5's own H5Dread in tagk's reader, tagk-formats(5)). */
static double
cpu_env(char *const *argv, int h5dread)
{
	if (h5dread)
		setenv("TAGK_HDF5_TEST_NO_CHUNK_READS", "1", 1);
	double t = cpu_alone(argv);
	unsetenv("TAGK_HDF5_TEST_NO_CHUNK_READS");
	return t;
}

/* Issue 57's HDF5 -> binary stream in paired runs: for the log as written
 * (unfiltered 4096-row chunks), a deflated copy (h5repack -f GZIP=1, when
 * hdf5-tools is installed) and the same rows as a binary stream (binlog:
 * tagk-regress's own work), each round runs cat on the HDF5 log, then
 * tagk-regress --stream binary on each input, then on each HDF5 input again
 * with libhdf5's H5Dread; each command's CPU over cat's of its round, and
 * the chunk reads' over H5Dread's, as medians and ranges of the rounds. */
static void
h5_pairs(const char *me, const char *path, long n, const char *tmpdir, int rounds)
{
	char cat[64], rp[64], reg[4200], fil[4200], gz[4200], log[4200];
	snprintf(reg, sizeof(reg), "%s/tagk-regress", me);
	snprintf(fil, sizeof(fil), "%s/tagk-filter", me);
	snprintf(gz, sizeof(gz), "%s/gzip-%ld.h5", tmpdir, n);
	snprintf(log, sizeof(log), "%s/pairlog-%ld.bin", tmpdir, n);
	tool_path("cat", cat, sizeof(cat));
	tool_path("h5repack", rp, sizeof(rp));
	char *wl[] = { fil, "--stream", "binary", "-o", log, (char *)path, NULL };
	char *rz[] = { rp, "-f", "GZIP=1", (char *)path, gz, NULL };
	cpu_alone(wl);
	int has_gz = access(rp, X_OK) == 0;
	if (has_gz)
		cpu_alone(rz);
	char *ca[] = { cat, (char *)path, NULL };
	char *in[3] = { (char *)path, gz, log };
	const char *label[3] = { "unfiltered", "deflate", "binlog" };
	char bench[4200];
	snprintf(bench, sizeof(bench), "%s/tagk-bench", me);
	double x_cat[3][100], x_rd[2][100], x_fl[2][100];
	for (int r = 0; r < rounds; r++) {
		double tc = cpu_alone(ca), direct[3];
		for (int i = 0; i < 3; i++) {
			char *ra[] = { reg, "--stream", "binary", in[i], NULL };
			direct[i] = i == 1 && !has_gz ? 0 : cpu_alone(ra);
			x_cat[i][r] = direct[i] / tc;
		}
		for (int i = 0; i < 2; i++) {
			char *ra[] = { reg, "--stream", "binary", in[i], NULL };
			char *fa[] = { bench, "io-floor", "--regress", in[i], NULL };
			x_rd[i][r] = i == 1 && !has_gz ? 0 : direct[i] / cpu_env(ra, 1);
			x_fl[i][r] = i == 1 && !has_gz ? 0 : direct[i] / cpu_alone(fa);
		}
	}
	for (int i = 0; i < 3; i++) {
		char a[48], b[48] = "      -           -", f[48] = "      -           -";
		if (i == 1 && !has_gz) {
			snprintf(pair_text[pair_n++], sizeof(pair_text[0]), "%-6s %-10s %10ld   (no h5repack: apt-get install hdf5-tools)",
			    "hdf5", label[i], n);
			continue;
		}
		spread(x_cat[i], rounds, a, sizeof(a));
		if (i < 2) {
			spread(x_rd[i], rounds, b, sizeof(b));
			spread(x_fl[i], rounds, f, sizeof(f));
		}
		snprintf(pair_text[pair_n++], sizeof(pair_text[0]), "%-6s %-10s %10ld %s %s %s", i == 2 ? "binlog" : "hdf5",
		    label[i], n, a, b, f);
	}
	pair_runs = rounds;
	remove(gz);
	remove(log);
}

/* A list option naming a, b or both; dies on anything else. */
static void
nn_items(const char *list, const char *opt, const char *a, const char *b, int *has_a, int *has_b)
{
	char buf[256], *items[4];
	int n = cli_split(opt, list, buf, sizeof(buf), items, 4);
	for (int i = 0; i < n; i++) {
		if (strcmp(items[i], a) == 0)
			*has_a = 1;
		else if (strcmp(items[i], b) == 0)
			*has_b = 1;
		else
			cli_die(EXIT_USAGE, "%s: '%s' is not %s or %s", opt, items[i], a, b);
	}
}

/* The two tables printed after the pipeline's: each stage alone, then
 * the CPU table (cpu_text). */
static void
print_stages_and_cpu(const char *method, char (*stages)[160], int nstages, int repeat)
{
	printf("\n# each stage alone: tagk-regress --stream binary LOG > /dev/null, and tagk-estimate\n"
	    "# -a %s reading that stream from a file; on a core per process the slower of the\n"
	    "# two bounds the pipeline\n\n%-6s %-16s %10s %10s %14s\n", method, "input", "stage", "samples",
	    "seconds", "samples_per_s");
	for (int i = 0; i < nstages; i++)
		printf("%s\n", stages[i]);
	printf("\n# CPU time (user + system) of each stage alone per log row (a CSV row is about\n"
	    "# 375 bytes), and its ratio to cat's and to awk's summing every field of the same\n"
	    "# file, the least of %d runs each, the commands taking turns. tagk-filter ->\n"
	    "# binary is the reader alone (no regressor; 26 values out per row, where\n"
	    "# tagk-regress writes 6 rows of 23); binlog is the same rows as a binary stream,\n"
	    "# the cheapest input tagk reads, and its ratios are to the file above's cat and awk:\n"
	    "# tagk-regress's own work, under any reader. io-floor is the least a reader over\n"
	    "# tagk's libraries does (tagk-bench io-floor: fast_float's from_chars on every field,\n"
	    "# or libhdf5's hyperslabs, no check of anything), writing the row's values, then\n"
	    "# zeros to the bytes a sample tagk-regress's stream has. Targets (issue 36):\n"
	    "# tagk-regress -> binary at most 0.5 us per row or 0.15x awk; from HDF5 at most 4x cat.\n\n%-6s %-24s %10s %8s %10s %8s %8s\n",
	    repeat, "input", "stage", "samples", "cpu_s", "us_per_row", "x_cat", "x_awk");
	for (int i = 0; i < cpu_n; i++)
		printf("%s\n", cpu_text[i]);
	if (floor_n)
		printf("\n# tagk-regress -> binary over io-floor -> regress (tagk-bench io-floor --regress: one\n"
		    "# pass of fast_float's from_chars over each CSV line, or of H5Dread_chunk over each\n"
		    "# HDF5 chunk, tagk's regressor and stream encoder, the same stream byte for byte,\n"
		    "# nothing checked), CPU time (both of tagk-regress's processes), least of each.\n"
		    "# Targets (issue 57): CSV 1.2. HDF5: tagk-regress at most 4x cat, which no program\n"
		    "# writing this stream on the same libraries meets if io-floor -> regress / cat is\n"
		    "# above 4\n\n");
	for (int i = 0; i < floor_n; i++)
		printf("%s\n", floor_text[i]);
	if (!pair_n)
		return;
	printf("\n# HDF5 -> binary stream in paired runs (issue 57): tagk-regress --stream binary's\n"
	    "# CPU time (both its processes) over cat's of the HDF5 log in the same round,\n"
	    "# over the same command's with libhdf5's H5Dread reading the chunks (x_h5dread;\n"
	    "# TAGK_HDF5_TEST_NO_CHUNK_READS=1), and over tagk-bench io-floor --regress's on the\n"
	    "# same file (x_floor: the same stream from H5Dread_chunk, nothing checked, one\n"
	    "# process); median and range of %d rounds. x_cat / x_floor is the floor's own\n"
	    "# ratio to cat. deflate is the log repacked by h5repack -f GZIP=1; binlog its rows\n"
	    "# as a binary stream (tagk-regress's own work, under any reader). Targets:\n"
	    "# unfiltered at most 4x cat; deflate x_h5dread at most 1.\n\n"
	    "%-6s %-10s %10s %7s %11s %7s %11s %7s %11s\n", pair_runs, "input",
	    "chunks", "samples", "x_cat", "range", "x_h5dread", "range", "x_floor", "range");
	for (int i = 0; i < pair_n; i++)
		printf("%s\n", pair_text[i]);
}

int
cmd_pipeline(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "samples", required_argument, NULL, 'N' },
		{ "formats", required_argument, NULL, 'F' },
		{ "streams", required_argument, NULL, 'S' },
		{ "method", required_argument, NULL, 'a' },
		{ "dir", required_argument, NULL, 'd' },
		{ "keep", no_argument, NULL, 'k' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *samples = "100000,1000000", *formats = "csv,hdf5", *streams = "csv,binary";
	const char *method = "tagk", *dir = NULL;
	int keep = 0, repeat = 3, c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "a:h", opts)) != -1) {
		switch (c) {
		case 'N': samples = optarg; break;
		case 'F': formats = optarg; break;
		case 'S': streams = optarg; break;
		case 'a': method = optarg; break;
		case 'd': dir = optarg; break;
		case 'k': keep = 1; break;
		case 'r': repeat = (int)cli_long("--repeat", optarg, 1, 100); break;
		case 'h': bench_help(stdout, "pipeline"); cli_close(stdout, "stdout"); return 0;
		default: bench_help(stderr, "pipeline"); return EXIT_USAGE;
		}
	}
	if (optind < argc)
		cli_die(EXIT_USAGE, "pipeline: unexpected argument '%s'", argv[optind]);
	const tagk_method *pm = tagk_method_find(method);
	if (!pm || pm->kind == TAGK_KIND_STATE || pm->kind == TAGK_KIND_LEARNED)
		cli_die(EXIT_USAGE, "-a: '%s' is not a window or batch method (tagk-estimate --list)", method);
	long ns[MAX_SIZES];
	char buf[512], *items[MAX_SIZES];
	int nn = cli_split("--samples", samples, buf, sizeof(buf), items, MAX_SIZES);
	for (int i = 0; i < nn; i++)
		ns[i] = cli_long("--samples", items[i], 1, 100000000);
	int want_f[2] = { 0, 0 }, want_s[2] = { 0, 0 };
	nn_items(formats, "--formats", "csv", "hdf5", &want_f[0], &want_f[1]);
	nn_items(streams, "--streams", "csv", "binary", &want_s[0], &want_s[1]);
	char me[4096], tmpdir[4096];
	spawn_bindir(me, sizeof(me));
	if (dir) {
		snprintf(tmpdir, sizeof(tmpdir), "%s", dir);
	} else {
		snprintf(tmpdir, sizeof(tmpdir), "%s/tagk-bench.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(tmpdir))
			cli_die(EXIT_DATA, "%s: %s", tmpdir, strerror(errno));
	}
	printf("# tagk-bench pipeline: tagk-regress --stream STREAM LOG | tagk-estimate -a %s > /dev/null\n"
	    "# synthetic rigid-body log (tagk-bench synth), generated before timing; the two\n"
	    "# commands run as separate processes on this machine's cores (tagk-regress reads\n"
	    "# HDF5 through a child process of its own). Targets (issue 17): 400k samples/s\n"
	    "# from CSV, 2M samples/s from HDF5\n\n", method);
	printf("%-6s %-7s %10s %10s %14s %8s %16s %17s\n", "input", "stream", "samples", "seconds",
	    "samples_per_s", "target", "regress_peak_KiB", "estimate_peak_KiB");
	fflush(stdout);
	char stages[STAGE_LINES][160];
	int nstages = 0;
	char reg[4200], est[4200];
	snprintf(reg, sizeof(reg), "%s/tagk-regress", me);
	snprintf(est, sizeof(est), "%s/tagk-estimate", me);
	for (int i = 0; i < nn; i++) {
		for (int f = 0; f < 2; f++) {
			if (!want_f[f])
				continue;
			char path[4200], bin[4200], cmd[8600];
			snprintf(path, sizeof(path), "%s/synth-%ld.%s", tmpdir, ns[i], f ? "h5" : "csv");
			snprintf(cmd, sizeof(cmd), "'%s/tagk-bench' synth --samples %ld -o '%s'", me, ns[i], path);
			if (system(cmd) != 0)
				cli_die(EXIT_DATA, "generating %s failed", path);
			for (int st = 0; st < 2; st++) {
				if (!want_s[st])
					continue;
				double secs;
				long rr, re;
				run_pipeline(me, path, st ? "binary" : "csv", method, &secs, &rr, &re);
				printf("%-6s %-7s %10ld %10.2f %14.0f %8s %16ld %17ld\n", f ? "hdf5" : "csv",
				    st ? "binary" : "csv", ns[i], secs, (double)ns[i] / secs, f ? "2000000" : "400000",
				    rr, re);
				fflush(stdout);
			}
			/* each stage alone, on the binary stream */
			snprintf(bin, sizeof(bin), "%s/reg-%ld.bin", tmpdir, ns[i]);
			char *ra[] = { reg, "--stream", "binary", path, NULL };
			char *wa[] = { reg, "--stream", "binary", "-o", bin, path, NULL };
			char *ea[] = { est, "-a", (char *)method, "-q", bin, NULL };
			double tr = run_alone(ra, NULL);
			snprintf(stages[nstages++], sizeof(stages[0]), "%-6s %-16s %10ld %10.2f %14.0f",
				    f ? "hdf5" : "csv", "tagk-regress", ns[i], tr, (double)ns[i] / tr);
			if (f == 1 || !want_f[1]) {
				run_alone(wa, NULL);
				double te = run_alone(ea, NULL);
				snprintf(stages[nstages++], sizeof(stages[0]), "%-6s %-16s %10ld %10.2f %14.0f",
					    "binary", "tagk-estimate", ns[i], te, (double)ns[i] / te);
				remove(bin);
			}
			cpu_stages(me, path, f, ns[i], tmpdir, method, repeat);
			if (f == 1)
				h5_pairs(me, path, ns[i], tmpdir, repeat < 5 ? 5 : repeat);
			if (!keep)
				remove(path);
		}
	}
	print_stages_and_cpu(method, stages, nstages, repeat);
	if (!dir && !keep)
		rmdir(tmpdir);
	cli_close(stdout, "stdout");
	return 0;
}
