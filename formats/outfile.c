/* outfile.c: temporary-and-rename output, direct for non-regular files;
 * see outfile.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "outfile.h"

/* The temporaries alive now, for the signal handler. A command writes at
 * most a few outputs at once; past the table's size a temporary is simply
 * not removed on a signal (it is still removed on every other path). */
enum { NSLOT = 16 };
static char *volatile live[NSLOT];
static int handlers_set;

static void
on_signal(int sig)
{
	for (int i = 0; i < NSLOT; i++)
		if (live[i])
			unlink(live[i]); /* async-signal-safe */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
set_handlers(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	if (handlers_set)
		return;
	handlers_set = 1;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa, old;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		/* keep a signal the caller chose to ignore ignored (nohup) */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

static void
unregister(outfile *o)
{
	if (o->slot >= 0)
		live[o->slot] = NULL;
	o->slot = -1;
}

int
outfile_begin(outfile *o, const char *path, char *err, size_t errlen)
{
	memset(o, 0, sizeof(*o));
	o->slot = -1;
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: is a directory", path);
			return -1;
		}
		o->direct = 1;
	}
	o->path = strdup(path);
	if (!o->path) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (o->direct)
		return 0;
	size_t tl = strlen(path) + 24;
	o->tmp = malloc(tl);
	if (!o->tmp) {
		free(o->path);
		o->path = NULL;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(o->tmp, tl, "%s.tmp%ld", path, (long)getpid());
	set_handlers();
	for (int i = 0; i < NSLOT; i++)
		if (!live[i]) {
			live[i] = o->tmp;
			o->slot = i;
			break;
		}
	return 0;
}

const char *
outfile_target(const outfile *o)
{
	return o->direct ? o->path : o->tmp;
}

static void
release(outfile *o)
{
	unregister(o);
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
}

int
outfile_commit(outfile *o, char *err, size_t errlen)
{
	int rc = 0;
	if (!o->direct && rename(o->tmp, o->path) != 0) {
		snprintf(err, errlen, "%s: %s", o->path, strerror(errno));
		remove(o->tmp);
		rc = -1;
	}
	release(o);
	return rc;
}

void
outfile_abandon(outfile *o)
{
	if (!o->direct && o->tmp)
		remove(o->tmp);
	release(o);
}
