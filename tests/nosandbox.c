/*
 * nosandbox.c: run a command as on a kernel without Landlock and seccomp,
 * for tests/hdf5_safety_test.sh: a seccomp filter of its own (inherited
 * across exec, and kept by every child) makes landlock_create_ruleset,
 * seccomp(2) and prctl(PR_SET_SECCOMP) fail with ENOSYS. With
 * NOSANDBOX_KEEP_LANDLOCK=1 in the environment, Landlock is left working.
 *
 *   build/nosandbox COMMAND [ARG...]
 *
 * Exits 125 if it cannot install its filter (then the tests skip).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RET_ENOSYS BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS)

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: nosandbox COMMAND [ARG...]\n");
		return 125;
	}
	const char *keep = getenv("NOSANDBOX_KEEP_LANDLOCK");
	unsigned ll = keep && strcmp(keep, "1") == 0 ? 0xffffffffu : (unsigned)SYS_landlock_create_ruleset;
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ll, 0, 1),
		RET_ENOSYS,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_seccomp, 0, 1),
		RET_ENOSYS,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_SECCOMP, 0, 1),
		RET_ENOSYS,
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
		fprintf(stderr, "nosandbox: cannot install a seccomp filter: %s\n", strerror(errno));
		return 125;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nosandbox: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
