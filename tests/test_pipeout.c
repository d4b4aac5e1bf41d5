/* test_pipeout.c: records handed to a pipe by reference arrive unchanged,
 * however slowly the reader reads (formats/pipeout.h). The writer sends a
 * counter sequence whose every 8 bytes are known; a child reads it back
 * through read(2), pausing now and then so that the pipe fills and the
 * ring's slots are refilled while earlier ones may still be in the pipe.
 * A refilled slot that the reader had not yet copied shows as a wrong
 * counter. */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../formats/pipeout.h"

enum { REC = 184 }; /* 23 columns of 8 bytes, tagk-regress's rigid-body rows */

/* Read the pipe to its end; exit 0 when the n words are 0, 1, ..., n - 1,
 * 1 when a word is wrong, 2 when the count is. Pauses 1 ms every 4 reads (256 KiB at most), so that the writer waits on
 * a full pipe. */
static void
reader(int fd, uint64_t n)
{
	static unsigned char buf[1 << 16];
	uint64_t want = 0;
	size_t have = 0;
	int reads = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof(buf) - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		have += (size_t)r;
		size_t k = 0;
		for (; k + 8 <= have; k += 8, want++) {
			uint64_t w;
			memcpy(&w, buf + k, 8);
			if (w != want)
				_exit(1);
		}
		memmove(buf, buf + k, have - k);
		have -= k;
		if (++reads % 4 == 0) {
			struct timespec ts = { 0, 1000000 };
			nanosleep(&ts, NULL);
		}
	}
	_exit(want == n && have == 0 ? 0 : 2);
}

/* Write n counter words through pipeout, REC bytes per record; mid_send:
 * send a partial slot halfway (the ring then copies); grow: enlarge the
 * pipe halfway past what the ring covers. Returns the reader's status. */
/* A pipe of 1 MiB whose read end goes to a child running body(fd, arg),
 * which must _exit; returns the child, the write end in *wfd. */
static pid_t
fork_reader(int *wfd, void (*body)(int, uint64_t), uint64_t arg)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	(void)fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[1]);
		body(p[0], arg);
	}
	close(p[0]);
	*wfd = p[1];
	return pid;
}

static int
run(uint64_t n, int mid_send, int grow)
{
	int wfd;
	pid_t pid = fork_reader(&wfd, reader, n);
	pipeout *po = pipeout_open(wfd);
	assert_non_null(po);
	uint64_t w = 0;
	while (w < n) {
		size_t words = REC / 8;
		if (words > n - w)
			words = (size_t)(n - w);
		unsigned char *dst = pipeout_room(po, words * 8);
		assert_non_null(dst);
		for (size_t i = 0; i < words; i++, w++)
			memcpy(dst + 8 * i, &w, 8);
		pipeout_commit(po, words * 8);
		if (w >= n / 2 && w < n / 2 + words) {
			if (mid_send)
				assert_int_equal(pipeout_send(po), 0);
			if (grow)
				(void)fcntl(wfd, F_SETPIPE_SZ, 1 << 22);
		}
	}
	assert_int_equal(pipeout_send(po), 0);
	pipeout_close(po);
	close(wfd);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void
test_slow_reader_reads_every_word(void **state)
{
	(void)state;
	assert_int_equal(run(4000000, 0, 0), 0); /* 32 MB, 120 slots through a ring of 6 */
}

static void
test_partial_slot_and_growth_fall_back_to_copies(void **state)
{
	(void)state;
	assert_int_equal(run(2000000, 1, 0), 0);
	assert_int_equal(run(2000000, 0, 1), 0);
}

/* a reader that leaves: the send fails with EPIPE, as a write would */
static void
leaving_reader(int fd, uint64_t bytes)
{
	static unsigned char buf[1 << 16];
	for (uint64_t got = 0; got < bytes;) {
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r <= 0)
			_exit(1);
		got += (uint64_t)r;
	}
	_exit(0);
}

static void
test_reader_leaves(void **state)
{
	(void)state;
	int wfd;
	pid_t pid = fork_reader(&wfd, leaving_reader, 2u << 20);
	pipeout *po = pipeout_open(wfd);
	assert_non_null(po);
	int failed = 0, err = 0;
	for (int k = 0; k < 40000 && !failed; k++) { /* up to 328 MB, far past the 2 MiB read */
		unsigned char *dst = pipeout_room(po, 8192);
		if (!dst) {
			failed = 1;
			err = errno;
			break;
		}
		memset(dst, k, 8192);
		pipeout_commit(po, 8192);
		if (k % 32 == 31 && pipeout_send(po) != 0) {
			failed = 1;
			err = errno;
		}
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(failed);
	assert_int_equal(err, EPIPE);
	pipeout_close(po);
	close(wfd);
}

/* a socket is not a pipe: NULL, and the caller writes */
static void
test_not_a_pipe(void **state)
{
	(void)state;
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_null(pipeout_open(sv[1]));
	close(sv[0]);
	close(sv[1]);
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slow_reader_reads_every_word),
		cmocka_unit_test(test_partial_slot_and_growth_fall_back_to_copies),
		cmocka_unit_test(test_reader_leaves),
		cmocka_unit_test(test_not_a_pipe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
