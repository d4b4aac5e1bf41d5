/* outfile.c: exclusive temporary, then rename; direct for streams; the
 * input registry; see outfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
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

/* The inputs recorded so far, however many (tagk-report takes any number
 * of files: a fixed table once let its 65th input be replaced). */
static struct input {
	dev_t dev;
	ino_t ino;
	char name[200];
} *inputs;
static int ninputs, ninputs_max;

/* procfs's f_type (linux/magic.h), without the kernel headers */
#define TAGK_PROC_SUPER_MAGIC 0x9fa0

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
	if (rc != 0 || !S_ISREG(st.st_mode) || ninputs_max < 0)
		return;
	for (int i = 0; i < ninputs; i++)
		if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
			return;
	if (ninputs == ninputs_max) {
		int n = ninputs_max ? 2 * ninputs_max : 16;
		struct input *t = realloc(inputs, (size_t)n * sizeof(*t));
		if (!t) {
			/* cannot record it: no output may be committed at all, since
			 * any of them could be this input (outfile_is_input) */
			ninputs_max = -1;
			return;
		}
		inputs = t;
		ninputs_max = n;
	}
	inputs[ninputs].dev = st.st_dev;
	inputs[ninputs].ino = st.st_ino;
	snprintf(inputs[ninputs].name, sizeof(inputs[0].name), "%s", name ? name : path ? path : "an input");
	ninputs++;
}

/* 1 and a message if st (a regular file) is a recorded input. */
static int
stat_is_input(const char *path, const struct stat *st, char *err, size_t errlen)
{
	if (!S_ISREG(st->st_mode))
		return 0;
	if (ninputs_max < 0) {
		snprintf(err, errlen, "%s: out of memory while recording the inputs", path);
		return 1;
	}
	for (int i = 0; i < ninputs; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino) {
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

int
outfile_is_input(const char *path, char *err, size_t errlen)
{
	struct stat st;
	return lstat(path, &st) == 0 && stat_is_input(path, &st, err, errlen);
}

/* The descriptor a name stands for by its text, as bash's redirections
 * read it: /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N, /proc/thread-self/fd/N; else -1. */
static int
fd_by_text(const char *p)
{
	static const char *const std[] = { "/dev/stdin", "/dev/stdout", "/dev/stderr" };
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/" };
	for (int i = 0; i < 3; i++)
		if (strcmp(p, std[i]) == 0)
			return i;
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(dirs[i]);
		if (strncmp(p, dirs[i], n) != 0 || !p[n])
			continue;
		long v = 0;
		for (p += n; *p >= '0' && *p <= '9' && v < INT_MAX / 10; p++)
			v = v * 10 + (*p - '0');
		return *p ? -1 : (int)v;
	}
	return -1;
}

/* The descriptor N if dir (resolved) is this process's /proc/PID/fd or
 * /proc/PID/task/TID/fd and base is N; else -1. */
static int
own_fd(const char *dir, const char *base)
{
	int pid = -1, tid, end = -1;
	if (sscanf(dir, "/proc/%d/fd%n", &pid, &end) != 1 || end < 0 || dir[end]) {
		end = -1;
		if (sscanf(dir, "/proc/%d/task/%d/fd%n", &pid, &tid, &end) != 2 || end < 0 || dir[end])
			return -1;
	}
	if (pid != (int)getpid() || !*base)
		return -1;
	char *e;
	long v = strtol(base, &e, 10);
	return *e || v < 0 || v > INT_MAX || base[0] == '+' || base[0] == '-' ? -1 : (int)v;
}

enum { NAME_PLAIN, NAME_FD, NAME_PROC };

/* Replace the directory part of cur (up to slash) by the text of the link
 * it is: 0, or -1 when it is not a link or the result is too long. */
static int
dir_link_text(char *cur, char *slash)
{
	char target[PATH_MAX], out[PATH_MAX];
	*slash = 0;
	ssize_t k = readlink(cur, target, sizeof(target) - 1);
	*slash = '/';
	if (k <= 0)
		return -1;
	target[k] = 0;
	const char *up = NULL; /* the directory holding the link */
	for (const char *p = cur; p < slash; p++)
		if (*p == '/')
			up = p;
	int len = target[0] == '/' || !up ? snprintf(out, sizeof(out), "%s%s", target, slash)
	    : snprintf(out, sizeof(out), "%.*s/%s%s", (int)(up - cur), cur, target, slash);
	if (len < 0 || (size_t)len >= sizeof(out))
		return -1;
	memcpy(cur, out, (size_t)len + 1);
	return 0;
}

/* What path names, following its chain of symbolic links one at a time:
 * NAME_FD and *fdn when a name on the way stands for one of this
 * process's descriptors (by its text, or a link of /proc/PID/fd, which
 * /dev/stdout and /dev/fd/N lead to), NAME_PROC for any other link that
 * lives in /proc (another process's descriptor: its target is not a
 * name that could be replaced), else NAME_PLAIN. Following the links by
 * hand matters: stat() would answer with the file behind /proc's link,
 * and a regular file there would be replaced by rename over the link.
 * At most hops links are followed. */
static int
classify(const char *path, int *fdn, int hops)
{
	char cur[PATH_MAX], next[PATH_MAX];
	if (strlen(path) >= sizeof(cur))
		return NAME_PLAIN;
	strcpy(cur, path);
	for (int hop = 0; hop < hops; hop++) {
		struct stat st;
		if ((*fdn = fd_by_text(cur)) >= 0)
			return NAME_FD;
		/* the directory holding the name, resolved: /dev/fd/7 is in
		 * /proc/PID/fd whether or not descriptor 7 is open */
		char *slash = strrchr(cur, '/'), *dir;
		const char *base = slash ? slash + 1 : cur;
		if (!slash)
			dir = realpath(".", NULL);
		else if (slash == cur)
			dir = realpath("/", NULL);
		else {
			*slash = 0;
			dir = realpath(cur, NULL);
			*slash = '/';
		}
		if (!dir)
			/* a directory that leads nowhere, as /dev/fd -> /proc/self/fd
			 * without /proc: follow its link's text */
			return slash && slash != cur && dir_link_text(cur, slash) == 0
			    ? classify(cur, fdn, hops - hop - 1) : NAME_PLAIN;
		struct statfs sf;
		if (statfs(dir, &sf) == 0 && sf.f_type == TAGK_PROC_SUPER_MAGIC) {
			*fdn = own_fd(dir, base);
			free(dir);
			if (*fdn >= 0)
				return NAME_FD;
			return lstat(cur, &st) == 0 && S_ISLNK(st.st_mode) ? NAME_PROC : NAME_PLAIN;
		}
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
			free(dir);
			return NAME_PLAIN;
		}
		ssize_t n = readlink(cur, next, sizeof(next) - 1);
		if (n < 0) {
			free(dir);
			return NAME_PLAIN;
		}
		next[n] = 0;
		int len = next[0] == '/' ? snprintf(cur, sizeof(cur), "%s", next)
		    : snprintf(cur, sizeof(cur), "%s/%s", dir, next);
		free(dir);
		if (len < 0 || (size_t)len >= sizeof(cur))
			return NAME_PLAIN;
	}
	return NAME_PLAIN;
}

/* The message for a name the system finds too long (ENAMETOOLONG): the
 * whole path past PATH_MAX, or one part past the file system's NAME_MAX. */
static void
name_too_long(const char *path, char *err, size_t errlen)
{
	size_t longest = 0, n = 0, len = strlen(path);
	for (const char *p = path;; p++) {
		if (*p && *p != '/') {
			n++;
			continue;
		}
		if (n > longest)
			longest = n;
		n = 0;
		if (!*p)
			break;
	}
	if (len >= PATH_MAX) {
		snprintf(err, errlen, "%.60s...: the name is too long: %zu bytes, and a path may have at most %d",
		    path, len, PATH_MAX - 1);
		return;
	}
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path + 1) : 1, slash ? path : ".");
	long max = pathconf(dir, _PC_NAME_MAX);
	if (max <= 0)
		max = NAME_MAX;
	snprintf(err, errlen, "%s: the name is too long: a part of it has %zu bytes, and a file name here may "
	    "have at most %ld", path, longest, max);
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
	/* PATH.tmpXXXXXX, or .tagk.tmpXXXXXX beside it when the file's own
	 * name leaves no room for the 10 more bytes (a name of 250 bytes is
	 * legal; its temporary must be too) */
	const char *slash = strrchr(o->path, '/');
	int dirlen = slash ? (int)(slash - o->path + 1) : 0;
	char *dir = strndup(dirlen ? o->path : ".", dirlen ? (size_t)dirlen : 1);
	long max = dir ? pathconf(dir, _PC_NAME_MAX) : -1;
	free(dir);
	if (max <= 0)
		max = NAME_MAX;
	int shortname = (long)strlen(o->path + dirlen) + 10 > max;
	for (int tries = 0; tries < 100; tries++) {
		char sfx[7];
		random_suffix(sfx);
		if (shortname)
			snprintf(o->tmp, tl, "%.*s.tagk.tmp%s", dirlen, o->path, sfx);
		else
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

/* Begin an output through one of this process's descriptors (NAME_FD):
 * a copy of it, written from where it stands, never truncated, never
 * renamed over, like a shell's >&N. */
static int
begin_fd(outfile *o, const char *path, int n, char *err, size_t errlen)
{
	struct stat st;
	int fl = fcntl(n, F_GETFL);
	if (fl < 0 || fstat(n, &st) != 0) {
		snprintf(err, errlen, "%s: names descriptor %d, which is not open", path, n);
		return -1;
	}
	if ((fl & O_ACCMODE) == O_RDONLY) {
		snprintf(err, errlen, "%s: names descriptor %d, which is open for reading only", path, n);
		return -1;
	}
	if (S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s: names descriptor %d, a %s: tagk writes regular files and streams",
		    path, n, S_ISDIR(st.st_mode) ? "directory" : "block device");
		return -1;
	}
	if (stat_is_input(path, &st, err, errlen))
		return -1;
	o->direct = 1;
	o->path = strdup(path);
	o->fd = fcntl(n, F_DUPFD_CLOEXEC, 3);
	if (!o->path || o->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, o->path ? strerror(errno) : "out of memory");
		release(o);
		return -1;
	}
	return 0;
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
	if (!*path) {
		snprintf(err, errlen, "an empty name is not an output file");
		return -1;
	}
	int n, kind = classify(path, &n, 40); /* 40 links, as Linux follows */
	if (kind == NAME_FD)
		return begin_fd(o, path, n, err, errlen);
	struct stat lst, st;
	int exists = lstat(path, &lst) == 0;
	if (!exists && errno == ENAMETOOLONG) {
		name_too_long(path, err, errlen);
		return -1;
	}
	if (!exists && errno == ELOOP) {
		/* a loop of links in the directory part: said here, since the
		 * temporary's O_NOFOLLOW would take ELOOP for a planted link */
		snprintf(err, errlen, "%s: %s", path, strerror(ELOOP));
		return -1;
	}
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
	/* a link in /proc is written through: its target is a descriptor's
	 * file, not a name that renaming could replace */
	o->direct = (target && !S_ISREG(st.st_mode)) || kind == NAME_PROC;
	o->append = kind == NAME_PROC && target && S_ISREG(st.st_mode);
	if (kind == NAME_PROC && target && stat_is_input(path, &st, err, errlen))
		return -1;
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
		if (errno == ENAMETOOLONG)
			name_too_long(path, err, errlen);
		else
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
		o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (o->append ? O_APPEND : 0));
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

/* Close o's descriptor, the last one on its file when the caller closed
 * its copies first: 0, or -1 with errno (EINTR is not a failure: Linux
 * has closed the descriptor then). */
static int
close_checked(outfile *o)
{
	if (o->fd < 0)
		return 0;
	int rc = close(o->fd);
	o->fd = -1;
	return rc != 0 && errno != EINTR ? -1 : 0;
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
		if (close_checked(o) != 0 && rc == 0) {
			snprintf(err, errlen, "%s: write error: %s", o->path, strerror(errno));
			rc = -1;
		}
		release(o);
		return rc;
	}
	struct stat st;
	if (durable && fsync(o->fd) != 0) {
		snprintf(err, errlen, "%s: %s", o->path, strerror(errno));
		rc = -1;
	} else if (close_checked(o) != 0) {
		/* the last close reports what a file system kept back (NFS, a
		 * quota): the file is not whole */
		snprintf(err, errlen, "%s: write error: %s", o->path, strerror(errno));
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
