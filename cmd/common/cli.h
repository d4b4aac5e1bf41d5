/*
 * cli.h: what every tagk command shares: its name in messages, the exit
 * codes (0 success, 1 bad data or runtime failure, 2 bad usage), strict
 * number parsing, and a checked close of the output stream.
 */
#ifndef TAGK_CLI_H
#define TAGK_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

/* Set once from argv[0]'s base name; used as the prefix of every message. */
void cli_init(const char *argv0);
const char *cli_prog(void);
/* A function cli_die calls, with its message, before exiting: a command
 * uses it to abandon its output cleanly. */
void cli_on_die(void (*fn)(const char *msg));
/* "prog: message" on stderr, then exit(code). */
_Noreturn void cli_die(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "prog: message" on stderr: what the command did (information). */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: message" on stderr, and carried with every stream the command
 * writes after it (tagk-formats(5)): a warning that the answer may be
 * wrong, which tagk-report repeats and its --strict fails on. */
void cli_caution(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* getopt_long with tagk's messages: an unknown option or a missing
 * argument dies with exit 2 and one line starting with the command's name
 * ("tagk-estimate: unknown option '--bogus' (tagk-estimate --help lists
 * the options)"), not getopt's, which starts with the path it was run by. */
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);

/* Parse the whole string as a number in [lo, hi]; on failure die with exit 2
 * naming the option: "prog: --updates: 'abc' is not an integer". */
long cli_long(const char *opt, const char *s, long lo, long hi);
double cli_double(const char *opt, const char *s, double lo, double hi);
uint64_t cli_u64(const char *opt, const char *s);
/* The position of s among names (NULL-terminated), or die with exit 2:
 * "prog: OPT: 'S' is not LIST". */
int cli_choose(const char *opt, const char *s, const char *const *names, const char *list);
/* The whole of s as two decimal integers joined by sep ("960x540", "2/4"):
 * 0 and *a, *b, or -1 (nothing said) for anything else, signs, spaces,
 * trailing text and values beyond a long included; the caller names the
 * option and its ranges. (sscanf's "%dx%d" took "640x480x3" and "640x480
 * px", and its overflow is undefined.) */
int cli_long_pair(const char *s, char sep, long *a, long *b);

/* Split a comma-separated option value into at most max items, which point
 * into buf (a copy of s, buflen bytes). Dies with exit 2 naming the option
 * on an empty item, more than max items or a value too long for buf:
 * nothing is dropped silently. Returns the number of items (at least 1). */
int cli_split(const char *opt, const char *s, char *buf, size_t buflen, char **items, int max);

/* --help and --version, the same in every command: print the usage (to
 * stdout) or "NAME VERSION (scalar type)" and exit 0. */
_Noreturn void cli_help(void (*usage)(FILE *));
_Noreturn void cli_version(void);

/* An unnamed temporary file (created and unlinked at once) in $TMPDIR, or
 * /tmp without it, open for reading and writing; dies (exit 1) naming why
 * for what. */
FILE *cli_tmpfile(const char *what);

/* Flush and close f (named name in messages); a write error exits 1. */
void cli_close(FILE *f, const char *name);

/* The monotonic clock, in nanoseconds and in seconds: the one clock of every
 * command's timings. */
uint64_t cli_now_ns(void);
double cli_seconds(void);
/* A ratio or a size for a message: whole below 1e6 ("129919"), else three
 * significant digits ("1.94e+98"), where "%.0f" would print 99 digits.
 * One of four static buffers in turn: a message may hold four. */
const char *cli_approx(double x);
/* "t0 to t1 s" for a message: %.6g where that tells the two apart (times
 * since start or boot); for times as large as Unix epoch stamps, whose
 * %.6g is "1.71077e+09" at both ends, milliseconds and the span's length:
 * "1710770000.123 to 1710770100.456 s (100.333 s)"; "t0 s" when t0 == t1.
 * In buf (len bytes). */
const char *cli_span(char *buf, size_t len, double t0, double t1);
/* qsort's comparison of doubles, ascending (NaN compares equal to all). */
int cli_cmp_double(const void *a, const void *b);

#endif
