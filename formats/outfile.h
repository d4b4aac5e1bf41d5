/*
 * outfile.h: where a command's output file goes, so that nothing
 * half-written ever passes for a whole result and nothing but the named
 * path is touched.
 *
 * - A path that does not exist yet, or names a regular file, is written
 *   under a temporary name beside it (PATH.tmpPID) and renamed into place
 *   by outfile_commit(); outfile_abandon() removes the temporary, and so
 *   does a SIGINT, SIGTERM, SIGHUP or SIGPIPE that arrives meanwhile.
 * - A path that exists and is anything else (a character device such as
 *   /dev/null, a FIFO, a socket) is written in place: renaming over it
 *   would replace the node with a regular file. Such an output is a stream,
 *   and the caller treats it as it treats standard output.
 */
#ifndef TAGK_OUTFILE_H
#define TAGK_OUTFILE_H

#include <stddef.h>

typedef struct {
	char *path;     /* the user's path */
	char *tmp;      /* the temporary, or NULL when direct */
	int direct;     /* 1: write path itself (not a regular file) */
	int slot;       /* index in the signal handler's list, or -1 */
} outfile;

/* Decide how path is written. Returns 0 and fills o, or -1 with a
 * one-line message in err (out of memory, or the path's directory cannot
 * be inspected). */
int outfile_begin(outfile *o, const char *path, char *err, size_t errlen);
/* The name to open for writing: the temporary or, when direct, the path. */
const char *outfile_target(const outfile *o);
/* Rename the temporary into place (nothing when direct). Returns 0, or -1
 * with a message; the temporary is removed either way. Frees o's names. */
int outfile_commit(outfile *o, char *err, size_t errlen);
/* Remove the temporary (nothing when direct). Frees o's names. */
void outfile_abandon(outfile *o);

#endif
