/* outfile.c: exclusive temporary, then rename; direct for streams; the
 * input registry; see outfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "outfile.h"

/* The temporaries alive now, for the signal handler. A command writes at
 * most a few outputs at once; past the table's size a temporary is simply
 * not removed on a signal (it is still removed on every other path). */
enum { NSLOT = 16 };
static char *volatile live[NSLOT];
static int handlers_set;
static int durable;

/* The inputs recorded so far (a command reads a handful). */
enum { NINPUT = 64 };
static struct {
	dev_t dev;
	ino_t ino;
	char name[200];
} inputs[NINPUT];
static int ninputs;

void
outfile_durable(int on)
{
	durable = on;
}

void
outfile_note_input(int fd, const char *path, const char *name)
{
	struct stat st;
	int rc = fd >= 0 ? fstat(fd, &st) : path ? stat(path, &st) : -1;
	if (rc != 0 || !S_ISREG(st.st_mode) || ninputs == NINPUT)
		return;
	for (int i = 0; i < ninputs; i++)
		if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
			return;
	inputs[ninputs].dev = st.st_dev;
	inputs[ninputs].ino = st.st_ino;
	snprintf(inputs[ninputs].name, sizeof(inputs[0].name), "%s", name ? name : path ? path : "an input");
	ninputs++;
}

int
outfile_is_input(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	for (int i = 0; i < ninputs; i++)
		if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) {
			if (strcmp(inputs[i].name, path) == 0)
				snprintf(err, errlen, "%s: is also an input: tagk does not overwrite its own input "
				    "(write the output elsewhere)", path);
			else
				snprintf(err, errlen, "%s: is the same file as the input %s: tagk does not overwrite "
				    "its own input (write the output elsewhere)", path, inputs[i].name);
			return 1;
		}
	return 0;
}

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

static void
release(outfile *o)
{
	unregister(o);
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
}

/* Six characters from [a-zA-Z0-9], from the kernel's random bytes; a
 * mixture of time, pid and a counter where those are unavailable. */
static void
random_suffix(char out[7])
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static uint64_t counter;
	unsigned char b[6];
	if (getentropy(b, sizeof(b)) != 0) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15u ^ (uint64_t)getpid() << 20 ^ ++counter;
		for (int i = 0; i < 6; i++, x >>= 8)
			b[i] = (unsigned char)x;
	}
	for (int i = 0; i < 6; i++)
		out[i] = set[b[i] % 62];
	out[6] = 0;
}

/* Create the temporary beside path, exclusively: O_EXCL never opens what
 * exists at the name, a planted link included; a name taken is replaced
 * by another draw. Returns the descriptor or -1 with errno. */
static int
create_temporary(outfile *o, const struct stat *old)
{
	size_t tl = strlen(o->path) + 16;
	o->tmp = malloc(tl);
	if (!o->tmp)
		return errno = ENOMEM, -1;
	for (int tries = 0; tries < 100; tries++) {
		char sfx[7];
		random_suffix(sfx);
		snprintf(o->tmp, tl, "%s.tmp%s", o->path, sfx);
		/* 0666 less the umask for a new file; a replaced file's mode is
		 * set below, once the descriptor is ours */
		int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
		    old ? 0600 : 0666);
		if (fd >= 0) {
			if (old) {
				/* the owner where the process may set it (root), then the
				 * permission bits, never set-id bits */
				if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
				    fchown(fd, old->st_uid, old->st_gid) != 0)
					(void)!fchown(fd, (uid_t)-1, old->st_gid);
				(void)fchmod(fd, old->st_mode & 0777);
			}
			return fd;
		}
		if (errno != EEXIST && errno != ELOOP)
			return -1;
	}
	return errno = EEXIST, -1;
}

int
outfile_begin(outfile *o, const char *path, char *err, size_t errlen)
{
	const char *env = getenv("TAGK_FSYNC");
	if (env && *env && strcmp(env, "0") != 0)
		durable = 1;
	memset(o, 0, sizeof(*o));
	o->slot = -1;
	o->fd = -1;
	struct stat lst, st;
	int exists = lstat(path, &lst) == 0;
	int link = exists && S_ISLNK(lst.st_mode);
	int target = link ? stat(path, &st) == 0 : exists;
	if (!link)
		st = lst;
	if (target && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory", path);
		return -1;
	}
	if (target && S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s: is a block device: tagk writes regular files and streams", path);
		return -1;
	}
	if (outfile_is_input(path, err, errlen))
		return -1;
	o->direct = target && !S_ISREG(st.st_mode);
	o->path = strdup(path);
	if (!o->path) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (o->direct)
		return 0; /* opened by outfile_fd: opening a FIFO waits for its reader */
	set_handlers();
	o->fd = create_temporary(o, exists && !link ? &lst : NULL);
	if (o->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		release(o);
		return -1;
	}
	struct stat ts;
	if (fstat(o->fd, &ts) == 0) {
		o->dev = ts.st_dev;
		o->ino = ts.st_ino;
	}
	snprintf(o->fdpath, sizeof(o->fdpath), "/proc/self/fd/%d", o->fd);
	if (access(o->fdpath, F_OK) != 0)
		o->fdpath[0] = 0;
	for (int i = 0; i < NSLOT; i++)
		if (!live[i]) {
			live[i] = o->tmp;
			o->slot = i;
			break;
		}
	return 0;
}

int
outfile_fd(outfile *o)
{
	/* a character device, a FIFO or a socket, through a link or not */
	if (o->fd < 0 && o->direct)
		o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	return o->fd;
}

FILE *
outfile_stream(outfile *o)
{
	int fd = outfile_fd(o);
	if (fd < 0 || (fd = dup(fd)) < 0)
		return NULL;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

const char *
outfile_open_name(const outfile *o)
{
	if (o->direct)
		return o->path;
	return o->fdpath[0] ? o->fdpath : o->tmp;
}

/* fsync the directory holding path, so that a rename survives a crash. */
static int
sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

int
outfile_commit(outfile *o, char *err, size_t errlen)
{
	int rc = 0;
	if (o->direct) {
		if (durable && o->fd >= 0 && fsync(o->fd) != 0 && errno != EINVAL && errno != EROFS) {
			snprintf(err, errlen, "%s: %s", o->path, strerror(errno));
			rc = -1;
		}
		release(o);
		return rc;
	}
	struct stat st;
	if (durable && fsync(o->fd) != 0) {
		snprintf(err, errlen, "%s: %s", o->path, strerror(errno));
		rc = -1;
	} else if (outfile_is_input(o->path, err, errlen)) {
		rc = -1;
	} else if (lstat(o->tmp, &st) != 0 || st.st_dev != o->dev || st.st_ino != o->ino) {
		/* someone replaced the temporary's name: never rename what is
		 * there now into the output */
		snprintf(err, errlen, "%s: the temporary file %s was replaced while it was written; nothing "
		    "was written", o->path, o->tmp);
		unregister(o);
		release(o);
		return -1;
	} else if (rename(o->tmp, o->path) != 0) {
		snprintf(err, errlen, "%s: %s", o->path, strerror(errno));
		rc = -1;
	} else if (durable && sync_dir(o->path) != 0) {
		snprintf(err, errlen, "%s: cannot sync its directory: %s", o->path, strerror(errno));
		release(o);
		return -1;
	} else {
		release(o);
		return 0;
	}
	unlink(o->tmp);
	release(o);
	return rc;
}

void
outfile_abandon(outfile *o)
{
	if (!o->direct && o->tmp) {
		/* only our own file: the name may have been taken over */
		struct stat st;
		if (lstat(o->tmp, &st) == 0 && st.st_dev == o->dev && st.st_ino == o->ino)
			unlink(o->tmp);
	}
	release(o);
}
