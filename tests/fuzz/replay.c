/* replay.c: a main() for the fuzz harnesses without libFuzzer. It runs
 * LLVMFuzzerTestOneInput once on each file named, or on each file of each
 * directory named, so that `make check` replays the regression corpus
 * under ASan and UBSan with the usual compiler. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz_table.h"

static long replayed;

static void
run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(2);
	}
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf || ferror(f)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(2);
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	replayed++;
}

int
main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 2;
		}
		if (!S_ISDIR(st.st_mode)) {
			run_file(argv[i]);
			continue;
		}
		struct dirent **ents;
		int n = scandir(argv[i], &ents, NULL, alphasort);
		if (n < 0) {
			perror(argv[i]);
			return 2;
		}
		for (int k = 0; k < n; k++) {
			if (ents[k]->d_name[0] != '.') {
				char p[4096];
				snprintf(p, sizeof(p), "%s/%s", argv[i], ents[k]->d_name);
				run_file(p);
			}
			free(ents[k]);
		}
		free(ents);
	}
	printf("%s: %ld inputs replayed, no contract violation\n", argv[0], replayed);
	return 0;
}
