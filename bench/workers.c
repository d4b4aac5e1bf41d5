/* workers.c: wait for the benchmarks' worker processes; see workers.h. */
#include <sys/wait.h>
#include "workers.h"
#include "../cmd/common/cli.h"

void
workers_wait(const char *what, const pid_t *pids, int n)
{
	int failed = 0;
	for (int j = 0; j < n; j++) {
		int status;
		if (waitpid(pids[j], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed = 1;
	}
	if (failed)
		cli_die(EXIT_DATA, "%s: a worker failed", what);
}
