/*
 * outfile.h: where a command's output file goes, so that nothing
 * half-written ever passes for a whole result, nothing but the named path
 * is touched, no link planted by someone else is followed, and no input is
 * overwritten by its own output.
 *
 * - A name that stands for one of the process's descriptors is written
 *   through a copy of it (F_DUPFD_CLOEXEC), at its offset, never truncated
 *   or renamed over: /dev/stdin|stdout|stderr, /dev/fd/N,
 *   /proc/self/fd/N, /proc/thread-self/fd/N by their text, and any name
 *   whose chain of links, followed one link at a time, passes through this
 *   process's /proc/PID/fd. (stat() alone would see the regular file behind
 *   /dev/stdout -> /proc/self/fd/1 and the rename would replace the link.)
 *   Any other link living on procfs is opened and written in place (a
 *   regular file there with O_APPEND: never truncated, never written
 *   over from its start, since its owner's offset is not ours). A
 *   descriptor not open, or open only for reading, is refused by name.
 * - A path that does not exist yet, names a regular file or names a
 *   symbolic link to one is written under a temporary name beside it,
 *   PATH.tmp and six random characters (DIR/.tagk.tmp and six when PATH's
 *   last part leaves no room for 10 more bytes under NAME_MAX), created
 *   exclusively (O_EXCL and O_NOFOLLOW: a link or file planted at that
 *   name is never opened, another name is drawn), and renamed into place
 *   by outfile_commit(), which first checks the last close of the
 *   descriptor. outfile_abandon() removes the temporary, and so does a
 *   SIGINT, SIGTERM, SIGHUP or SIGPIPE that arrives meanwhile. A name too
 *   long (ENAMETOOLONG) gets a message saying which length is exceeded.
 * - The new file takes the mode (and, where the process may set it, the
 *   owner and group) of the regular file it replaces; a new file gets
 *   0666 less the umask. A symbolic link at PATH is replaced by the file,
 *   not followed. Other hard links to a replaced file keep its old contents:
 *   the name is given a new file, the old one is not written.
 * - A path that exists and is a character device (/dev/null, a terminal),
 *   a FIFO or a socket, directly or through links, is written in place:
 *   renaming over it would replace the node. Such an output, like a
 *   descriptor's, is a stream, and the caller treats it as standard
 *   output. Directories and block devices are refused.
 * - An output that is the same file as an input (same device and inode,
 *   whatever the names; the registry grows with the inputs, any number) is
 *   refused, when the output is opened and again before the rename, since
 *   some inputs are opened after the output.
 * - With outfile_durable(1), or TAGK_FSYNC set in the environment to
 *   anything but "" or "0", the file is fsync'ed before the rename and its
 *   directory after it.
 */
#ifndef TAGK_OUTFILE_H
#define TAGK_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct {
	char *path;     /* the user's path */
	char *tmp;      /* the temporary, or NULL when direct */
	int fd;         /* open for writing: the temporary, or the node when direct */
	int direct;     /* 1: write path itself (not a regular file) */
	int append;     /* direct, opened with O_APPEND: a regular file behind
	                 * another process's descriptor link in /proc */
	int slot;       /* index in the signal handler's list, or -1 */
	dev_t dev;      /* the temporary's identity, checked before the rename */
	ino_t ino;
	char fdpath[32]; /* "/proc/self/fd/N" when /proc is mounted, else "" */
} outfile;

/* Decide how path is written and open it. Returns 0 and fills o, or -1
 * with a one-line message in err (out of memory, a directory, an input,
 * a temporary that cannot be created). */
int outfile_begin(outfile *o, const char *path, char *err, size_t errlen);
/* The open descriptor to write, or -1 with errno set; it stays owned by o
 * (use dup() to wrap it in a FILE, and close that before outfile_commit).
 * A direct output is opened here, on first use: opening a FIFO waits for
 * its reader. */
int outfile_fd(outfile *o);
/* A stdio stream over a copy of that descriptor, or NULL with errno set;
 * fclose it before outfile_commit. */
FILE *outfile_stream(outfile *o);
/* A name that opens the file being written, for libraries that open by
 * name (HDF5): /proc/self/fd/N, which reaches the file itself whatever is
 * done to its name meanwhile, or the temporary's name without /proc. */
const char *outfile_open_name(const outfile *o);
/* Close o's descriptor, checking the status (the caller closes its own
 * copies first, so that this is the file's last close), then rename the
 * temporary into place (nothing more when direct). Returns 0, or -1 with
 * a message; the temporary is removed either way. Frees o. */
int outfile_commit(outfile *o, char *err, size_t errlen);
/* Remove the temporary (nothing when direct). Frees o. */
void outfile_abandon(outfile *o);

/* Ask for fsync of every committed file and of its directory. */
void outfile_durable(int on);

/* Record an input, by an open descriptor (fd >= 0) or else by path, so
 * that no output replaces it. Only regular files are recorded. */
void outfile_note_input(int fd, const char *path, const char *name);
/* If path (as it would be replaced: a link is not followed) is the same
 * file as a recorded input, a message in err and 1; else 0. */
int outfile_is_input(const char *path, char *err, size_t errlen);

#endif
