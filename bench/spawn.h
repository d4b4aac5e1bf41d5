/*
 * spawn.h: the benchmarks that run tagk's own commands (pipeline,
 * coverage) start them as child processes, beside this program.
 */
#ifndef TAGK_SPAWN_H
#define TAGK_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

/* The directory of this program, where the other commands are. */
void spawn_bindir(char *out, size_t len);
/* Start argv (argv[0] a path) with standard input and output on in and
 * out (-1: /dev/null); standard error inherited, or /dev/null if quiet. */
pid_t spawn_cmd(char *const *argv, int in, int out, int quiet);
/* Wait for p; its peak resident set in KiB, or death naming what when it
 * did not exit 0. */
long spawn_reap(pid_t p, const char *what);
/* The same, and its CPU time (user and system, its own and its waited-for
 * children's), seconds, into *cpu if cpu is not NULL. */
long spawn_reap_cpu(pid_t p, const char *what, double *cpu);

#endif
