/* spawn.c: the benchmarks' child processes; see spawn.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../cmd/common/cli.h"
#include "spawn.h"

void
spawn_bindir(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);
	if (n <= 0)
		cli_die(EXIT_DATA, "cannot find my own directory");
	out[n] = 0;
	char *slash = strrchr(out, '/');
	if (slash)
		*slash = 0;
}

pid_t
spawn_cmd(char *const *argv, int in, int out, int quiet)
{
	pid_t p = fork();
	if (p < 0)
		cli_die(EXIT_DATA, "fork: %s", strerror(errno));
	if (p == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(in >= 0 ? in : null, 0);
		dup2(out >= 0 ? out : null, 1);
		if (quiet)
			dup2(null, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	return p;
}

long
spawn_reap(pid_t p, const char *what)
{
	return spawn_reap_cpu(p, what, NULL);
}

long
spawn_reap_cpu(pid_t p, const char *what, double *cpu)
{
	int st;
	struct rusage ru;
	if (wait4(p, &st, 0, &ru) < 0)
		cli_die(EXIT_DATA, "wait: %s", strerror(errno));
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		cli_die(EXIT_DATA, "%s failed", what);
	if (cpu)
		*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec
		    + (double)ru.ru_stime.tv_usec / 1e6;
	return ru.ru_maxrss;
}

