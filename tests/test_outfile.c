/* test_outfile.c: formats/outfile.c, the one way every command writes a
 * file. The randomness of the temporary's name comes from getentropy(),
 * which this program defines itself (the executable's definition wins over
 * libc's), so that the test knows every name outfile_begin will try and can
 * plant a link or a file at each of them. Everything happens in a fresh
 * temporary directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "../formats/outfile.h"

static char dir[256];
static uint64_t draws;   /* the sequence outfile's names are drawn from */

/* Deterministic "entropy": a counter, so the names are known in advance. */
int
getentropy(void *buf, size_t len)
{
	unsigned char *b = buf;
	uint64_t x = ++draws * 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < len; i++, x >>= 8)
		b[i] = (unsigned char)(x ? x : i);
	return 0;
}

/* The k-th name (k from 1) outfile would draw for path, as outfile.c
 * builds it. */
static void
nth_name(const char *path, uint64_t k, char *out, size_t len)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char b[6];
	uint64_t x = k * 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < 6; i++, x >>= 8)
		b[i] = (unsigned char)(x ? x : i);
	char sfx[7];
	for (int i = 0; i < 6; i++)
		sfx[i] = set[b[i] % 62];
	sfx[6] = 0;
	snprintf(out, len, "%s.tmp%s", path, sfx);
}

static void
put(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	chmod(path, mode);
}

static void
expect_content(const char *path, const char *text)
{
	char buf[256] = "";
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = 0;
	assert_string_equal(buf, text);
}

static void
path_in(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
}

/* Write text through outfile to path; returns outfile_commit's result. */
static int
write_through(const char *path, const char *text, char *err, size_t errlen)
{
	outfile o;
	if (outfile_begin(&o, path, err, errlen) != 0)
		return -1;
	int fd = outfile_fd(&o);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	return outfile_commit(&o, err, errlen);
}

/* A symbolic link (or a file) planted at every name outfile will try
 * first, pointing at a file that must not change: never followed, never
 * opened; the output is written under the next free name. */
static void
test_planted_names_never_opened(void **state)
{
	(void)state;
	char out[512], target[512], name[600], err[512];
	path_in(out, sizeof(out), "out.csv");
	path_in(target, sizeof(target), "secret");
	put(target, "secret\n", 0644);
	uint64_t first = draws + 1;
	for (uint64_t k = first; k < first + 40; k++) {
		nth_name(out, k, name, sizeof(name));
		if (k % 4 == 0)
			put(name, "planted\n", 0644);
		else
			assert_int_equal(symlink(k % 4 == 1 ? target : "/nonexistent/x", name), 0);
	}
	assert_int_equal(write_through(out, "new\n", err, sizeof(err)), 0);
	expect_content(target, "secret\n");
	expect_content(out, "new\n");
	struct stat st;
	assert_int_equal(lstat(out, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	for (uint64_t k = first; k < first + 40; k++) {
		nth_name(out, k, name, sizeof(name));
		assert_int_equal(lstat(name, &st), 0);
		assert_true(k % 4 == 0 ? S_ISREG(st.st_mode) : S_ISLNK(st.st_mode));
		if (k % 4 == 0)
			expect_content(name, "planted\n");
		unlink(name);
	}
}

/* A link planted at the output's own name is replaced, not followed. */
static void
test_link_at_output_replaced(void **state)
{
	(void)state;
	char out[512], target[512], err[512];
	path_in(out, sizeof(out), "linked.csv");
	path_in(target, sizeof(target), "secret2");
	put(target, "secret\n", 0644);
	assert_int_equal(symlink(target, out), 0);
	assert_int_equal(write_through(out, "new\n", err, sizeof(err)), 0);
	expect_content(target, "secret\n");
	struct stat st;
	assert_int_equal(lstat(out, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	expect_content(out, "new\n");
}

/* The temporary's name taken over while it was written (renamed away, a
 * link put in its place): the commit refuses, and renames nothing. */
static void
test_replaced_temporary_refused(void **state)
{
	(void)state;
	char out[512], target[512], moved[700], err[512];
	path_in(out, sizeof(out), "race.csv");
	path_in(target, sizeof(target), "secret3");
	put(target, "secret\n", 0644);
	outfile o;
	assert_int_equal(outfile_begin(&o, out, err, sizeof(err)), 0);
	char tmp[600];
	snprintf(tmp, sizeof(tmp), "%s", o.tmp);
	assert_int_equal(write(outfile_fd(&o), "new\n", 4), 4);
	snprintf(moved, sizeof(moved), "%s.moved", tmp);
	assert_int_equal(rename(tmp, moved), 0);
	assert_int_equal(symlink(target, tmp), 0);
	assert_int_equal(outfile_commit(&o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "was replaced while it was written"));
	struct stat st;
	assert_int_equal(lstat(out, &st), -1);
	expect_content(target, "secret\n");
	assert_int_equal(lstat(tmp, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	unlink(tmp);
	unlink(moved);
}

/* A replaced file keeps its permission bits (never set-id bits); other
 * hard links keep the old contents; a new file gets 0666 less the umask. */
static void
test_modes_and_links(void **state)
{
	(void)state;
	char out[512], other[512], fresh[512], err[512];
	path_in(out, sizeof(out), "priv.csv");
	path_in(other, sizeof(other), "priv-link.csv");
	put(out, "old\n", 0600);
	assert_int_equal(link(out, other), 0);
	assert_int_equal(write_through(out, "new\n", err, sizeof(err)), 0);
	struct stat st;
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	expect_content(out, "new\n");
	expect_content(other, "old\n");
	put(out, "old\n", 04755);
	assert_int_equal(write_through(out, "new\n", err, sizeof(err)), 0);
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	mode_t old = umask(027);
	path_in(fresh, sizeof(fresh), "fresh.csv");
	assert_int_equal(write_through(fresh, "x\n", err, sizeof(err)), 0);
	umask(old);
	assert_int_equal(stat(fresh, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
}

/* An output that is the same file as an input is refused, by any name,
 * before and at the commit; a link at the output's name is not that file
 * (it is replaced, the input left alone). */
static void
test_input_never_replaced(void **state)
{
	(void)state;
	char in[512], hard[512], soft[512], late[512], err[512];
	path_in(in, sizeof(in), "log.csv");
	path_in(hard, sizeof(hard), "log-hard.csv");
	path_in(soft, sizeof(soft), "log-soft.csv");
	path_in(late, sizeof(late), "late.csv");
	put(in, "raw log\n", 0644);
	assert_int_equal(link(in, hard), 0);
	assert_int_equal(symlink(in, soft), 0);
	int fd = open(in, O_RDONLY);
	outfile_note_input(fd, in, in);
	close(fd);
	outfile o;
	assert_int_equal(outfile_begin(&o, in, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is also an input"));
	assert_int_equal(outfile_begin(&o, hard, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is the same file as the input"));
	assert_int_equal(write_through(soft, "out\n", err, sizeof(err)), 0);
	expect_content(in, "raw log\n");
	/* an input opened after the output began is checked at the commit */
	put(late, "late input\n", 0644);
	assert_int_equal(outfile_begin(&o, late, err, sizeof(err)), 0);
	assert_int_equal(write(outfile_fd(&o), "out\n", 4), 4);
	outfile_note_input(-1, late, late);
	assert_int_equal(outfile_commit(&o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is also an input"));
	expect_content(late, "late input\n");
	expect_content(in, "raw log\n");
}

/* outfile_abandon removes the temporary and leaves no output. */
static void
test_abandon(void **state)
{
	(void)state;
	char out[512], err[512];
	path_in(out, sizeof(out), "abandoned.csv");
	outfile o;
	assert_int_equal(outfile_begin(&o, out, err, sizeof(err)), 0);
	char tmp[600];
	snprintf(tmp, sizeof(tmp), "%s", o.tmp);
	outfile_abandon(&o);
	struct stat st;
	assert_int_equal(lstat(tmp, &st), -1);
	assert_int_equal(lstat(out, &st), -1);
}

/* A directory is refused; a FIFO is written in place, opened only when
 * written (opening a FIFO waits for its reader). */
static void
test_nodes(void **state)
{
	(void)state;
	char fifo[512], err[512];
	outfile o;
	assert_int_equal(outfile_begin(&o, dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is a directory"));
	path_in(fifo, sizeof(fifo), "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(outfile_begin(&o, fifo, err, sizeof(err)), 0);
	assert_true(o.direct);
	assert_int_equal(o.fd, -1);
	outfile_abandon(&o);
	struct stat st;
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

/* A name that stands for one of the process's descriptors is written
 * through a copy of it, never replaced: /dev/fd/N, /proc/self/fd/N by
 * their text, and a link to /proc/self/fd/N; a link elsewhere to it stays
 * a link. A descriptor not open, or open only for reading, is named. */
static void
test_descriptor_names(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	char names[3][512], err[512], got[64];
	snprintf(names[0], sizeof(names[0]), "/dev/fd/%d", p[1]);
	snprintf(names[1], sizeof(names[1]), "/proc/self/fd/%d", p[1]);
	path_in(names[2], sizeof(names[2]), "to-pipe");
	char target[64];
	snprintf(target, sizeof(target), "/proc/self/fd/%d", p[1]);
	assert_int_equal(symlink(target, names[2]), 0);
	for (int i = 0; i < 3; i++) {
		outfile o;
		assert_int_equal(outfile_begin(&o, names[i], err, sizeof(err)), 0);
		assert_true(o.direct);
		assert_true(outfile_fd(&o) != p[1]);
		assert_int_equal(write(outfile_fd(&o), "abc", 3), 3);
		assert_int_equal(outfile_commit(&o, err, sizeof(err)), 0);
		assert_int_equal(read(p[0], got, sizeof(got)), 3);
		assert_memory_equal(got, "abc", 3);
	}
	struct stat st;
	assert_int_equal(lstat(names[2], &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	outfile o;
	char closed[64];
	snprintf(closed, sizeof(closed), "/proc/self/fd/%d", p[1] + 100);
	assert_int_equal(outfile_begin(&o, closed, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "which is not open"));
	snprintf(closed, sizeof(closed), "/dev/fd/%d", p[0]);
	assert_int_equal(outfile_begin(&o, closed, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "open for reading only"));
	close(p[0]);
	close(p[1]);
}

/* A file name of 250 bytes is legal; its temporary (NAME.tmpXXXXXX would
 * be 260) takes the short form. A name past NAME_MAX is named as such. */
static void
test_long_names(void **state)
{
	(void)state;
	char base[251], out[1024], err[1024];
	memset(base, 'n', 250);
	base[250] = 0;
	path_in(out, sizeof(out), base);
	outfile o;
	assert_int_equal(outfile_begin(&o, out, err, sizeof(err)), 0);
	const char *slash = strrchr(o.tmp, '/');
	assert_non_null(slash);
	assert_int_equal(strncmp(slash + 1, ".tagk.tmp", 9), 0);
	assert_int_equal(strlen(slash + 1), 15);
	assert_int_equal(write(outfile_fd(&o), "long\n", 5), 5);
	assert_int_equal(outfile_commit(&o, err, sizeof(err)), 0);
	expect_content(out, "long\n");
	char longer[400];
	memset(longer, 'n', 300);
	longer[300] = 0;
	path_in(out, sizeof(out), longer);
	assert_int_equal(outfile_begin(&o, out, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the name is too long: a part of it has 300 bytes"));
}

/* However many inputs are recorded, each is protected (a table of 64
 * once let the 65th be replaced). */
static void
test_many_inputs(void **state)
{
	(void)state;
	char in[512], err[512];
	for (int i = 0; i < 1000; i++) {
		char name[32];
		snprintf(name, sizeof(name), "in%d.csv", i);
		path_in(in, sizeof(in), name);
		put(in, "input\n", 0644);
		outfile_note_input(-1, in, in);
	}
	for (int i = 0; i < 1000; i += 37) {
		char name[32];
		snprintf(name, sizeof(name), "in%d.csv", i);
		path_in(in, sizeof(in), name);
		outfile o;
		assert_int_equal(outfile_begin(&o, in, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "is also an input"));
	}
}

static int
setup(void **state)
{
	(void)state;
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/tagk-outfile.XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_planted_names_never_opened),
		cmocka_unit_test(test_link_at_output_replaced),
		cmocka_unit_test(test_replaced_temporary_refused),
		cmocka_unit_test(test_modes_and_links),
		cmocka_unit_test(test_input_never_replaced),
		cmocka_unit_test(test_abandon),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_descriptor_names),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_many_inputs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
