/*
 * streampeer.c: whether the process reading a pipe is a tagk command, so
 * that standard output can be the binary stream between tagk commands and
 * CSV for anything else (awk, head, pandas, a terminal); see streampeer.h.
 *
 * Linux only, through /proc: the readers of the pipe are the processes of
 * this process group, or children of this process's parent, that hold the
 * pipe open for reading; each must be a tagk-* executable. A shell forks
 * every member of a pipeline before they exec, so a reader that is still
 * the shell is waited for, briefly. Anything unexpected answers "no": CSV
 * is always a correct choice, the binary stream only a faster one.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "streampeer.h"

enum { PEER_YES, PEER_NO, PEER_WAIT };

/* /proc/PID/exe's target, or "" */
static void
exe_of(int pid, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	ssize_t n = readlink(path, buf, len - 1);
	buf[n > 0 ? n : 0] = 0;
}

/* 1 if PID belongs to this pipeline: our process group or our siblings. */
static int
in_pipeline(int pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')'); /* the name may hold spaces and ')' */
	int ppid, pgrp;
	if (!p || sscanf(p + 1, " %*c %d %d", &ppid, &pgrp) != 2)
		return 0;
	return pgrp == (int)getpgrp() || ppid == (int)getppid();
}

/* 1 if PID holds the pipe whose link text is want open for reading. */
static int
reads_pipe(int pid, const char *want)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int found = 0;
	struct dirent *e;
	while (!found && (e = readdir(d)) != NULL) {
		char path[600], link[64];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (strcmp(link, want) != 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		char line[128];
		while (fgets(line, sizeof(line), f))
			if (strncmp(line, "flags:", 6) == 0)
				found = (strtol(line + 6, NULL, 8) & O_ACCMODE) == O_RDONLY;
		fclose(f);
	}
	closedir(d);
	return found;
}

static int
look(const char *want, const char *shell)
{
	DIR *d = opendir("/proc");
	if (!d)
		return PEER_NO;
	int readers = 0, answer = PEER_YES;
	struct dirent *e;
	while (answer != PEER_NO && (e = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || pid > INT_MAX || pid == (long)getpid())
			continue;
		if (!in_pipeline((int)pid) || !reads_pipe((int)pid, want))
			continue;
		readers++;
		char exe[4096];
		exe_of((int)pid, exe, sizeof(exe));
		const char *base = strrchr(exe, '/');
		base = base ? base + 1 : exe;
		if (strncmp(base, "tagk-", 5) == 0)
			continue;
		answer = shell[0] && strcmp(exe, shell) == 0 ? PEER_WAIT : PEER_NO;
	}
	closedir(d);
	return readers ? answer : PEER_NO;
}

int
stream_reader_is_tagk(int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
		return 0;
	char want[64], shell[4096];
	snprintf(want, sizeof(want), "pipe:[%llu]", (unsigned long long)st.st_ino);
	exe_of((int)getppid(), shell, sizeof(shell));
	/* up to 50 ms for a reader that has not yet exec'd */
	for (int i = 0; i < 50; i++) {
		int a = look(want, shell);
		if (a != PEER_WAIT)
			return a == PEER_YES;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	return 0;
}
