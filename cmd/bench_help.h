/*
 * bench_help.h: tagk-bench's --help: per subcommand its synopsis, one line
 * of purpose and one line per option (tests/options_test.sh compares them
 * with the getopt tables); without a subcommand, the list of subcommands.
 */
#ifndef TAGK_BENCH_HELP_H
#define TAGK_BENCH_HELP_H

#include <stdio.h>

void bench_help(FILE *f, const char *sub);
void bench_help_all(FILE *f);

#endif
