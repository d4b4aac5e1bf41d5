/*
 * bench_commands.h: tagk-bench's subcommands, one table row each: the name,
 * the function that runs it, and its --help (a line of purpose, the
 * synopsis, one line per option; tests/options_test.sh compares them with
 * the getopt tables). tagk-bench's main dispatches from the same table.
 */
#ifndef TAGK_BENCH_COMMANDS_H
#define TAGK_BENCH_COMMANDS_H

#include <stdio.h>

typedef struct {
	const char *name, *summary, *synopsis, *options;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
} bench_command;

/* The table, in bench_table.c. */
extern const bench_command bench_subcommands[];
extern const size_t bench_nsubcommands;

/* The subcommand called name, or NULL. */
const bench_command *bench_find(const char *name);
/* Its usage, purpose and options. */
void bench_help(FILE *f, const char *sub);
/* The list of subcommands. */
void bench_help_all(FILE *f);

/* The subcommands of tagk-bench.c; the others are in bench_sim.h and
 * bench_mass.h. */
int cmd_timing(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_pipeline(int argc, char **argv);
int cmd_iofloor(int argc, char **argv); /* bench_iofloor.c */
int cmd_memory(int argc, char **argv);
int cmd_coverage(int argc, char **argv); /* bench_coverage.c */
int cmd_changes(int argc, char **argv); /* bench_changes.c */
int cmd_device(int argc, char **argv);

#endif
