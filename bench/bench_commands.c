/* bench_commands.c: finding tagk-bench's subcommands and their --help; see bench_commands.h. */
#include <ctype.h>
#include <string.h>
#include "bench_commands.h"

#define subs bench_subcommands


const bench_command *
bench_find(const char *name)
{
	for (size_t i = 0; i < bench_nsubcommands; i++)
		if (strcmp(name, subs[i].name) == 0)
			return &subs[i];
	return NULL;
}

void
bench_help(FILE *f, const char *sub)
{
	for (size_t i = 0; i < bench_nsubcommands; i++)
		if (strcmp(sub, subs[i].name) == 0) {
			fprintf(f, "usage: tagk-bench %s %s\n%c%s.\n%s  -h, --help             this help\n", subs[i].name,
			    subs[i].synopsis, toupper((unsigned char)subs[i].summary[0]), subs[i].summary + 1,
			    subs[i].options);
			return;
		}
}

void
bench_help_all(FILE *f)
{
	fprintf(f, "usage: tagk-bench SUBCOMMAND [OPTION]...   (tagk-bench SUBCOMMAND --help for its options)\n"
	    "       tagk-bench --list | --help | --version\n");
	for (size_t i = 0; i < bench_nsubcommands; i++)
		fprintf(f, "  %-12s %s\n", subs[i].name, subs[i].summary);
	fprintf(f, "  --list       the methods\n  --version    the version\n");
}
