/* cli.c: shared command-line plumbing; see cli.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "../formats/keyval.h"
#include "../formats/table.h"
#include "../lib/tagk.h"

static const char *prog = "tagk";
static void (*die_hook)(const char *msg);

void
cli_on_die(void (*fn)(const char *msg))
{
	die_hook = fn;
}

/* "prog: msg" among the warnings the command's output streams carry
 * (table.h's tbl_carry). */
static void
carry(const char *msg)
{
	char line[TBL_WARNING_MAX];
	snprintf(line, sizeof(line), "%.60s: %.530s", prog, msg);
	tbl_carry(line);
}

/* A reader's note (a cut last line...), prefixed with the command's name
 * as a warning is, and carried with the output as one. */
static void
reader_note(const char *msg)
{
	fprintf(stderr, "%s: %s\n", prog, msg);
	carry(msg);
}

void
cli_init(const char *argv0)
{
	if (argv0 && *argv0) {
		const char *slash = strrchr(argv0, '/');
		prog = slash ? slash + 1 : argv0;
	}
	tbl_on_note(reader_note);
}

int
cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	char spec[128];
	snprintf(spec, sizeof(spec), ":%s", shortopts);
	opterr = 0; /* getopt's own messages carry the path, not the name */
	int c = getopt_long(argc, argv, spec, longopts, NULL);
	if (c != '?' && c != ':')
		return c;
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	int is_long = arg && strncmp(arg, "--", 2) == 0;
	char opt[64];
	if (is_long || !optopt)
		snprintf(opt, sizeof(opt), "%.*s", (int)strcspn(arg, "="), arg);
	else
		snprintf(opt, sizeof(opt), "-%c", optopt);
	if (c == ':')
		cli_die(EXIT_USAGE, "option '%s' needs an argument (%s --help)", opt, prog);
	cli_die(EXIT_USAGE, "unknown option '%s' (%s --help lists the options)", opt, prog);
}

const char *
cli_prog(void)
{
	return prog;
}

/* Format a message into out (at most outlen bytes, NUL included) as one
 * line: control characters, which a file name or a column name from a
 * hostile file may carry, are written as \n, \r, \t or \xHH. */
static void
vformat_line(char *out, size_t outlen, const char *fmt, va_list ap)
{
	char raw[1024];
	vsnprintf(raw, sizeof(raw), fmt, ap);
	tbl_one_line(out, outlen, raw);
}

static void
vwarn(const char *fmt, va_list ap)
{
	char msg[1400];
	vformat_line(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "%s: %s\n", prog, msg);
}

void
cli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
cli_caution(const char *fmt, ...)
{
	char msg[1400];
	va_list ap;
	va_start(ap, fmt);
	vformat_line(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", prog, msg);
	carry(msg);
}

void
cli_die(int code, const char *fmt, ...)
{
	char msg[1400];
	va_list ap;
	va_start(ap, fmt);
	vformat_line(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", prog, msg);
	if (die_hook) {
		void (*fn)(const char *) = die_hook;
		die_hook = NULL;
		fn(msg);
	}
	exit(code);
}

int
cli_split(const char *opt, const char *s, char *buf, size_t buflen, char **items, int max)
{
	size_t l = strlen(s);
	if (l >= buflen)
		cli_die(EXIT_USAGE, "%s: the list is longer than %zu characters", opt, buflen - 1);
	memcpy(buf, s, l + 1);
	int n = 0;
	for (char *p = buf;;) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		if (!*p)
			cli_die(EXIT_USAGE, "%s: an empty item in '%s'", opt, s);
		if (n == max)
			cli_die(EXIT_USAGE, "%s: at most %d items, got more", opt, max);
		items[n++] = p;
		if (!comma)
			return n;
		p = comma + 1;
	}
}

long
cli_long(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || *end || errno)
		cli_die(EXIT_USAGE, "%s: '%s' is not an integer", opt, s);
	if (v < lo || v > hi)
		cli_die(EXIT_USAGE, "%s: %ld is outside [%ld, %ld]", opt, v, lo, hi);
	return v;
}

int
cli_long_pair(const char *s, char sep, long *a, long *b)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*a = strtol(s, &end, 10);
	if (errno || *end != sep || end[1] < '0' || end[1] > '9')
		return -1;
	const char *t = end + 1;
	*b = strtol(t, &end, 10);
	return errno || *end ? -1 : 0;
}

int
cli_choose(const char *opt, const char *s, const char *const *names, const char *list)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	cli_die(EXIT_USAGE, "%s: '%s' is not %s", opt, s, list);
}

double
cli_double(const char *opt, const char *s, double lo, double hi)
{
	/* the files' rule (keyval.h): a whole decimal, no hex, no spaces */
	double v;
	if (kv_parse_number(s, &v) != 0)
		cli_die(EXIT_USAGE, "%s: '%s' is not a finite decimal number", opt, s);
	if (v < lo || v > hi)
		cli_die(EXIT_USAGE, "%s: %g is outside [%g, %g]", opt, v, lo, hi);
	return v;
}

uint64_t
cli_u64(const char *opt, const char *s)
{
	char *end;
	errno = 0;
	if (*s == '-')
		cli_die(EXIT_USAGE, "%s: '%s' is not a non-negative integer", opt, s);
	unsigned long long v = strtoull(s, &end, 0);
	if (end == s || *end || errno)
		cli_die(EXIT_USAGE, "%s: '%s' is not a non-negative integer", opt, s);
	return (uint64_t)v;
}

FILE *
cli_tmpfile(const char *what)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	char path[4096];
	snprintf(path, sizeof(path), "%s/tagk.XXXXXX", dir);
	int fd = mkstemp(path);
	if (fd < 0)
		cli_die(EXIT_DATA, "cannot create a temporary file in %s for %s: %s (set TMPDIR)", dir, what,
		    strerror(errno));
	unlink(path);
	FILE *f = fdopen(fd, "w+b");
	if (!f)
		cli_die(EXIT_DATA, "out of memory");
	return f;
}

void
cli_close(FILE *f, const char *name)
{
	if (fflush(f) != 0 || ferror(f))
		cli_die(EXIT_DATA, "%s: write error: %s", name, strerror(errno));
	if (f != stdout && fclose(f) != 0)
		cli_die(EXIT_DATA, "%s: close error: %s", name, strerror(errno));
}

void
cli_help(void (*usage)(FILE *))
{
	usage(stdout);
	cli_close(stdout, "stdout");
	exit(0);
}

void
cli_version(void)
{
	printf("%s %s (%s)\n", prog, TAGK_VERSION, TAGK_REAL_NAME);
	cli_close(stdout, "stdout");
	exit(0);
}

uint64_t
cli_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double
cli_seconds(void)
{
	return (double)cli_now_ns() * 1e-9;
}

const char *
cli_approx(double x)
{
	static char buf[4][32];
	static unsigned k;
	char *b = buf[k++ & 3];
	snprintf(b, sizeof(buf[0]), fabs(x) < 1e6 ? "%.0f" : "%.3g", x);
	return b;
}

int
cli_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

const char *
cli_span(char *buf, size_t len, double t0, double t1)
{
	if (t0 == t1) /* one time: "t 9.976 s", not "t 9.976 to 9.976 s" */
		snprintf(buf, len, fabs(t0) < 1e5 ? "%.6g s" : "%.3f s", t0);
	else if (fabs(t0) < 1e5 && fabs(t1) < 1e5)
		snprintf(buf, len, "%.6g to %.6g s", t0, t1);
	else
		snprintf(buf, len, "%.3f to %.3f s (%.6g s)", t0, t1, t1 - t0);
	return buf;
}
