/*
 * h5sandbox.h: the confinement of the HDF5 reader's child process
 * (hdf5_in.c), so that libhdf5 reads the file it was given and nothing
 * else, whatever the file asks of it.
 *
 * The reader refuses by name what it knows to point outside a file
 * (external storage, virtual datasets, external and user-defined links:
 * hdf5_in.c). This is the layer under those checks, for what nobody
 * listed and for libhdf5's own bugs. Two Linux mechanisms, both applied
 * by the child to itself, both irrevocable:
 *
 * - Landlock (kernel 5.13 and later, when enabled), before the file is
 *   opened: of the whole filesystem the child may only read the input
 *   (the inode its name resolves to now); no other file, directory or
 *   device can be opened, created, removed or written through a name,
 *   and (ABI 4 and later) no TCP port bound or connected.
 * - seccomp (a BPF filter; kernel 3.5 and later), once libhdf5 has opened
 *   the file: no open at all (open, openat, openat2, creat,
 *   open_by_handle_at), no socket, no exec, no io_uring, no changes to
 *   names, no ptrace. Such a call fails with EACCES and is remembered, so
 *   that the reader's error can name the file libhdf5 tried to open.
 *
 * Either can be missing (an old kernel, Landlock not in the kernel's LSM
 * list, a container's own filter refusing them): h5sb_confine says what
 * is missing, and the caller notes it on stderr, or refuses to read when
 * the environment has TAGK_REQUIRE_SANDBOX=1.
 */
#ifndef TAGK_H5SANDBOX_H
#define TAGK_H5SANDBOX_H

#include <stddef.h>

/* What h5sb_landlock and h5sb_seccomp achieved. */
typedef struct {
	int landlock;      /* 1 if in force */
	int seccomp;       /* 1 if in force */
	char why[200];     /* what is missing and why, "" when both are in force */
} h5sb_state;

/* Landlock: from now on this process may read path (the file it names
 * now) and nothing else. Sets st->landlock, or adds to st->why. Never
 * fails the process: a kernel without Landlock leaves it as it was. */
void h5sb_landlock(h5sb_state *st, const char *path);

/* seccomp: from now on this process opens nothing, creates no socket,
 * executes nothing (see above). Call it once every file the process needs
 * is open. Sets st->seccomp, or adds to st->why. */
void h5sb_seccomp(h5sb_state *st);

/* The path of the first open the seccomp filter refused (at most 255
 * bytes; "" if none, or if the system cannot tell). */
const char *h5sb_denied(void);

#endif
