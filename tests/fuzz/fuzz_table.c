/* fuzz_table.c: the table-reader contract under arbitrary input; see fuzz_table.h. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz_table.h"

/* A NaN with a payload no reader produces: a cell still holding it after
 * tbl_next returned a row was never written. */
static const uint64_t SENTINEL = 0x7ff4deadbeef1234ull;

static void
violation(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_table: contract violation: %s%s%s\n", what, detail ? ": " : "",
	    detail ? detail : "");
	abort();
}

static void
check_message(const char *m)
{
	if (!m || !m[0])
		violation("an empty error message", NULL);
	if (strpbrk(m, "\n\r"))
		violation("an error message spans lines", m);
}

/* A reader's note: one line, like an error; not printed (libFuzzer's
 * output is for findings). */
static void
on_note(const char *m)
{
	check_message(m);
}

static int
stream_column(const char *name)
{
	return strcmp(name, "t") == 0 || strcmp(name, "row") == 0 || strcmp(name, "b") == 0 ||
	    strcmp(name, "m") == 0 || strncmp(name, "Y_", 2) == 0 || strncmp(name, "true_", 5) == 0;
}

/* FNV-1a of everything a reader said: names, cells, places, messages */
static void
digest(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		*h = (*h ^ b[i]) * 0x100000001b3ull;
}

static void
digest_str(uint64_t *h, const char *s)
{
	digest(h, s, strlen(s) + 1);
}

/* The input's carried warnings (table.h): at most TBL_WARNINGS and the
 * one that counts the rest, each one line of printable bytes (a report
 * prints them), shorter than TBL_WARNING_MAX. */
static void
check_warnings(tbl_reader *r, uint64_t *h)
{
	int n = tbl_nwarnings(r);
	if (n < 0 || n > TBL_WARNINGS + 1)
		violation("more warnings kept than TBL_WARNINGS and the count", NULL);
	for (int i = 0; i < n; i++) {
		const char *w = tbl_warning(r, i);
		if (!w)
			violation("a warning below tbl_nwarnings is NULL", NULL);
		if (strlen(w) >= TBL_WARNING_MAX)
			violation("a warning longer than TBL_WARNING_MAX", w);
		for (const unsigned char *p = (const unsigned char *)w; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				violation("a warning holds a control byte", w);
		digest_str(h, w);
	}
	if (tbl_warning(r, n))
		violation("a warning past tbl_nwarnings", NULL);
}

int fuzz_old_stream;

void
fuzz_table(const uint8_t *data, size_t size, tbl_format fmt, fuzz_want want, int skip_bad,
    int ignore_crc)
{
	(void)fuzz_table_digest(data, size, fmt, want, skip_bad, ignore_crc);
}

uint64_t
fuzz_table_digest(const uint8_t *data, size_t size, tbl_format fmt, fuzz_want want, int skip_bad,
    int ignore_crc)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int fd = memfd_create("tagk-fuzz", 0);
	if (fd < 0)
		abort();
	for (size_t done = 0; done < size;) {
		ssize_t w = write(fd, data + done, size - done);
		if (w <= 0)
			abort();
		done += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	char path[64], err[1024];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	tbl_on_note(on_note);
	tbl_options o;
	memset(&o, 0, sizeof(o));
	o.format = fmt;
	o.skip_bad = skip_bad;
	o.ignore_crc = ignore_crc;
	o.old_stream = fuzz_old_stream;
	tbl_reader *r = tbl_open(path, &o, err, sizeof(err));
	if (!r) {
		check_message(err);
		digest_str(&h, err);
		close(fd);
		return h;
	}
	int nc = tbl_ncols(r);
	if (nc <= 0)
		violation("a reader opened with no columns", NULL);
	char *wanted = calloc((size_t)nc, 1);
	double *row = malloc((size_t)nc * sizeof(*row));
	if (!wanted || !row)
		abort();
	for (int i = 0; i < nc; i++) {
		const char *name = tbl_col(r, i);
		if (!name)
			violation("a column without a name", NULL);
		digest_str(&h, name);
		wanted[i] = want == WANT_ALL || (want == WANT_ALTERNATE && i % 2 == 0) ||
		    (want == WANT_STREAM && stream_column(name));
		if (wanted[i])
			tbl_want(r, i);
	}
	for (long rows = 0;; rows++) {
		for (int i = 0; i < nc; i++)
			memcpy(&row[i], &SENTINEL, sizeof(SENTINEL));
		int rc = tbl_next(r, row);
		if (rc < 0) {
			check_message(tbl_error(r));
			digest_str(&h, tbl_error(r));
			break;
		}
		if (rc == 0)
			break;
		if (rc != 1)
			violation("tbl_next returned neither 1, 0 nor -1", NULL);
		for (int i = 0; i < nc; i++) {
			if (memcmp(&row[i], &SENTINEL, sizeof(SENTINEL)) == 0)
				violation("a cell left unwritten", tbl_col(r, i));
			if (wanted[i] && !isfinite(row[i]))
				violation("a wanted cell is not finite", tbl_col(r, i));
			if (!wanted[i] && !isnan(row[i]))
				violation("an unwanted cell is not NaN", tbl_col(r, i));
		}
		check_message(tbl_where(r));
		digest(&h, row, (size_t)nc * sizeof(*row));
		digest_str(&h, tbl_where(r));
	}
	for (int i = 0; i < nc; i++)
		digest(&h, (int[]){ tbl_is_text(r, i) }, sizeof(int));
	check_warnings(r, &h);
	tbl_close(r);
	free(wanted);
	free(row);
	close(fd);
	return h;
}
