/* h5sandbox.c: Landlock and a seccomp filter for the HDF5 reader's child;
 * see h5sandbox.h. Both through the kernel's own interfaces (no library),
 * so that a command that never reads HDF5 maps nothing more. */
#define _GNU_SOURCE /* REG_RAX, syscall */
#include "h5sandbox.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <ucontext.h>
#if defined(__has_include)
#if __has_include(<linux/landlock.h>) /* Linux 5.13's headers and later */
#include <linux/landlock.h>
#endif
#endif
#endif

static void
add_why(h5sb_state *st, const char *fmt, const char *detail)
{
	size_t used = strlen(st->why);
	snprintf(st->why + used, sizeof(st->why) - used, "%s", used ? "; " : "");
	used = strlen(st->why);
	snprintf(st->why + used, sizeof(st->why) - used, fmt, detail);
}

#if defined(__linux__) && defined(SYS_landlock_create_ruleset) && defined(LANDLOCK_ACCESS_FS_MAKE_SYM)

/* The access rights of each Landlock ABI version: a ruleset must handle
 * only rights its kernel knows (1..3 filesystem, 4 adds TCP, 5 ioctl on
 * devices). Written as numbers: Debian 12's headers stop at ABI 2. */
static uint64_t
fs_rights(long abi)
{
	uint64_t fs = (1ULL << 13) - 1; /* ABI 1: EXECUTE .. MAKE_SYM */
	if (abi >= 2)
		fs |= 1ULL << 13; /* REFER */
	if (abi >= 3)
		fs |= 1ULL << 14; /* TRUNCATE */
	if (abi >= 5)
		fs |= 1ULL << 15; /* IOCTL_DEV */
	return fs;
}

void
h5sb_landlock(h5sb_state *st, const char *path)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 1) {
		add_why(st, "Landlock: %s", errno == ENOSYS ? "not in this kernel"
		    : errno == EOPNOTSUPP ? "disabled in this kernel" : strerror(errno));
		return;
	}
	/* handled_access_fs, then (ABI 4) handled_access_net: bind and
	 * connect on TCP, neither of which is then allowed anywhere */
	struct {
		uint64_t fs, net;
	} attr = { fs_rights(abi), 3 };
	int rs = (int)syscall(SYS_landlock_create_ruleset, &attr, abi >= 4 ? sizeof(attr) : sizeof(uint64_t), 0);
	if (rs < 0) {
		add_why(st, "Landlock: %s", strerror(errno));
		return;
	}
	/* the input's inode, as its name resolves now: read, and nothing
	 * else. An input on an internal filesystem (a memfd through
	 * /proc/self/fd/N, as the fuzz harness gives) takes no rule (EBADFD):
	 * Landlock never restricts those, and every other file stays closed */
	struct landlock_path_beneath_attr pb = { .allowed_access = LANDLOCK_ACCESS_FS_READ_FILE };
	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	int ok = pb.parent_fd >= 0 &&
	    (syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) == 0 || errno == EBADFD) &&
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && syscall(SYS_landlock_restrict_self, rs, 0) == 0;
	if (!ok)
		add_why(st, "Landlock: %s", strerror(errno));
	if (pb.parent_fd >= 0)
		close(pb.parent_fd);
	close(rs);
	st->landlock = ok;
}

#else

void
h5sb_landlock(h5sb_state *st, const char *path)
{
	(void)path;
	add_why(st, "%s", "Landlock: not built in (no Linux Landlock headers)");
}

#endif

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#if defined(__x86_64__)
#define SB_ARCH AUDIT_ARCH_X86_64
#else
#define SB_ARCH AUDIT_ARCH_AARCH64
#endif

static char denied[256];

const char *
h5sb_denied(void)
{
	return denied;
}

/* SIGSYS from the filter's SECCOMP_RET_TRAP on an open: make the call
 * fail with EACCES, as the library would see a file it may not read, and
 * keep the path of the first such call (libhdf5 opens /etc/localtime
 * after a failed open). Async-signal-safe: copies bytes. */
static void
on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	ucontext_t *uc = ctx;
	const char *p = NULL;
#if defined(__x86_64__)
	greg_t *g = uc->uc_mcontext.gregs;
	if (si->si_syscall == __NR_open || si->si_syscall == __NR_creat)
		p = (const char *)g[REG_RDI];
	else if (si->si_syscall != __NR_open_by_handle_at)
		p = (const char *)g[REG_RSI];
	g[REG_RAX] = -EACCES;
#else
	if (si->si_syscall != __NR_open_by_handle_at)
		p = (const char *)uc->uc_mcontext.regs[1];
	uc->uc_mcontext.regs[0] = (unsigned long long)-EACCES;
#endif
	if (denied[0]) /* the first refused open is the one that matters */
		return;
	size_t i = 0;
	for (; p && i + 1 < sizeof(denied) && p[i]; i++)
		denied[i] = p[i];
	if (!p)
		memcpy(denied, "(a file handle)", (i = 15));
	denied[i] = 0;
}

/* Calls that open a file: trapped, so that the path is known. */
static const int opens[] = {
#ifdef __NR_open
	__NR_open,
#endif
#ifdef __NR_creat
	__NR_creat,
#endif
#ifdef __NR_openat2
	__NR_openat2,
#endif
	__NR_openat, __NR_open_by_handle_at,
};

/* Calls that reach the network, run another program, change a name or
 * another process, or open files past the filter (io_uring): EACCES. */
static const int denies[] = {
	__NR_socket, __NR_socketpair, __NR_connect, __NR_bind, __NR_listen, __NR_accept, __NR_accept4,
	__NR_execve, __NR_execveat, __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_mount,
	__NR_umount2, __NR_pivot_root, __NR_chroot, __NR_unshare, __NR_setns, __NR_bpf, __NR_perf_event_open,
	__NR_mknodat, __NR_linkat, __NR_symlinkat, __NR_unlinkat, __NR_renameat, __NR_renameat2, __NR_mkdirat,
	__NR_truncate, __NR_fchmodat, __NR_fchownat, __NR_name_to_handle_at, __NR_userfaultfd,
#ifdef __NR_io_uring_setup
	__NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
#endif
#ifdef __NR_fsopen
	__NR_fsopen, __NR_fsmount, __NR_fspick, __NR_open_tree, __NR_move_mount,
#endif
#ifdef __NR_mknod
	__NR_mknod, __NR_link, __NR_symlink, __NR_unlink, __NR_rename, __NR_mkdir, __NR_rmdir, __NR_chmod,
	__NR_chown, __NR_lchown,
#endif
};

#define NOPENS (sizeof(opens) / sizeof(opens[0]))
#define NDENIES (sizeof(denies) / sizeof(denies[0]))

void
h5sb_seccomp(h5sb_state *st)
{
	/* the architecture first (a 32-bit call on x86-64 has other numbers:
	 * killed), then on x86-64 the x32 numbers (bit 30: refused), then
	 * each listed call, two instructions each; everything else allowed */
	struct sock_filter f[8 + 2 * (NOPENS + NDENIES)];
	size_t n = 0;
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SB_ARCH, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES);
#endif
	for (size_t i = 0; i < NOPENS + NDENIES; i++) {
		int open_call = i < NOPENS;
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
		    (uint32_t)(open_call ? opens[i] : denies[i - NOPENS]), 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
		    open_call ? SECCOMP_RET_TRAP : SECCOMP_RET_ERRNO | EACCES);
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { (unsigned short)n, f };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) != 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
		add_why(st, "seccomp: %s", strerror(errno));
		return;
	}
	st->seccomp = 1;
}

#else

const char *
h5sb_denied(void)
{
	return "";
}

void
h5sb_seccomp(h5sb_state *st)
{
	add_why(st, "%s", "seccomp: not built for this system (Linux on x86-64 or arm64 only)");
}

#endif
