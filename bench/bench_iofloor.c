/*
 * bench_iofloor.c: tagk-bench io-floor, the yardstick under issue 36's
 * reading targets: the least work any command does that reads a log
 * through the libraries tagk-regress uses and writes the bytes its binary
 * stream carries, and nothing else: no check of the input, no arithmetic,
 * no error path but the first failure. tagk-bench pipeline runs it beside
 * cat and awk: what no implementation over the same libraries and stream
 * can beat.
 *
 *   CSV:  the file in 1 MiB reads, lines found by memchr, '#' lines and
 *         the first other line (the header) skipped, each field of each
 *         data line read by fast_float's from_chars (num_from_chars), the
 *         library tagk's parser is built on, which stops at the comma.
 *         Every field: a cache of the row above's text (tagk's reader has
 *         one) made this loop slower on the synthetic log (596 against
 *         492 CPU ms a million rows): from_chars reads a constant "0"
 *         faster than a compare.
 *   HDF5: every 1-D dataset of the root group, in creation order, through
 *         libhdf5 (h5_load), in the reader's 4096-row hyperslabs into
 *         column buffers, each row then gathered from them.
 *   Out:  --bytes N a row (default 8 a value): the row's values, then
 *         zeros, each byte stored, hashed by the binary stream's XXH3
 *         (streamsum.h) and written to stdout about 64 rows a write.
 * On stderr: the rows and the check. The values reach write(), so no
 * read can be left out by the compiler; a sum of them was a chain of
 * dependent additions that cost a third of the HDF5 floor.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench_commands.h"
#include "../cmd/common/cli.h"
#include "../formats/h5load.h"
#include "../formats/numconv.h"
#include "../formats/streamsum.h"

enum { MAXCOLS = 256, BLOCK_ROWS = 4096, OUT_ROWS = 64, READ = 1 << 20, MAX_LINE = 1 << 16 };

/* The output side: rows of `bytes` bytes, OUT_ROWS a write. */
typedef struct {
	size_t bytes, room, used; /* bytes a row (0: 8 a value); room: the most a row takes */
	unsigned char *buf;
	bsum *sum;
	long rows;
} floor_out;

static void
out_flush(floor_out *o)
{
	bsum_bytes(o->sum, o->buf, o->used);
	for (size_t k = 0; k < o->used;) {
		ssize_t w = write(1, o->buf + k, o->used - k);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			cli_die(EXIT_DATA, "io-floor: write error: %s", strerror(errno));
		k += (size_t)w;
	}
	o->used = 0;
}

/* One row of n values: as many as fit in o->bytes (0: 8 n), then zeros,
 * each byte stored, as a writer of the stream stores each. */
static void
out_row(floor_out *o, const double *v, int n)
{
	size_t want = o->bytes ? o->bytes : 8 * (size_t)n, m = 8 * (size_t)n < want ? 8 * (size_t)n : want;
	memcpy(o->buf + o->used, v, m);
	memset(o->buf + o->used + m, 0, want - m);
	o->used += want;
	o->rows++;
	if (o->used > (OUT_ROWS - 1) * o->room)
		out_flush(o);
}

/* The data line s[0..n): every field by from_chars. */
static void
csv_line(floor_out *o, const char *s, size_t n)
{
	double v[MAXCOLS];
	const char *p = s, *e = s + n;
	int c = 0;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(e - p));
		const char *end = comma ? comma : e;
		v[c] = 0;
		num_from_chars(p, end, &v[c]);
		if (++c == MAXCOLS || !comma)
			break;
		p = comma + 1;
	}
	out_row(o, v, c);
}

static void
floor_csv(floor_out *o, const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		cli_die(EXIT_DATA, "io-floor: %s: %s", path, strerror(errno));
	char *buf = malloc(READ + MAX_LINE);
	if (!buf)
		cli_die(EXIT_DATA, "io-floor: out of memory");
	size_t have = 0;
	int header = 1;
	ssize_t r;
	while ((r = read(fd, buf + have, READ + MAX_LINE - have)) > 0) {
		have += (size_t)r;
		char *p = buf, *nl;
		while ((nl = memchr(p, '\n', have - (size_t)(p - buf)))) {
			if (*p != '#' && !header)
				csv_line(o, p, (size_t)(nl - p));
			header &= *p == '#';
			p = nl + 1;
		}
		have -= (size_t)(p - buf);
		if (have == READ + MAX_LINE)
			cli_die(EXIT_DATA, "io-floor: %s: a line longer than %d bytes", path, MAX_LINE);
		memmove(buf, p, have);
	}
	if (r < 0)
		cli_die(EXIT_DATA, "io-floor: %s: %s", path, strerror(errno));
	if (have && *buf != '#' && !header)
		csv_line(o, buf, have);
	free(buf);
	close(fd);
}

/* The root group's 1-D datasets, as H5Ovisit2 finds them. */
typedef struct {
	hid_t file, ds[MAXCOLS];
	int n;
	hsize_t rows;
} h5cols;

static herr_t
visit(hid_t obj, const char *name, const H5O_info_t *info, void *data)
{
	h5cols *h = data;
	if (info->type != H5O_TYPE_DATASET || strchr(name, '/') || h->n == MAXCOLS)
		return 0;
	hid_t d = H5Dopen2(obj, name, H5P_DEFAULT), sp = H5Dget_space(d);
	hsize_t len = 0;
	if (H5Sget_simple_extent_ndims(sp) == 1 && H5Sget_simple_extent_dims(sp, &len, NULL) == 1 &&
	    (h->n == 0 || len == h->rows)) {
		h->rows = len;
		h->ds[h->n++] = d;
	} else {
		H5Dclose(d);
	}
	H5Sclose(sp);
	return 0;
}

static void
h5_block(h5cols *h, double (*col)[BLOCK_ROWS], hsize_t at, hsize_t cnt)
{
	hid_t ms = H5Screate_simple(1, &cnt, NULL);
	for (int i = 0; i < h->n; i++) {
		hid_t fs = H5Dget_space(h->ds[i]);
		if (H5Sselect_hyperslab(fs, H5S_SELECT_SET, &at, NULL, &cnt, NULL) < 0 ||
		    H5Dread(h->ds[i], H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, col[i]) < 0)
			cli_die(EXIT_DATA, "io-floor: reading dataset %d failed", i + 1);
		H5Sclose(fs);
	}
	H5Sclose(ms);
}

static void
floor_hdf5(floor_out *o, const char *path)
{
	char why[400];
	if (h5_load(why, sizeof(why)) != 0)
		cli_die(EXIT_DATA, "io-floor: %s", why);
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	h5cols h = { .n = 0 };
	if ((h.file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
		cli_die(EXIT_DATA, "io-floor: %s: not an HDF5 file libhdf5 opens", path);
	if (H5Ovisit2(h.file, H5_INDEX_CRT_ORDER, H5_ITER_INC, visit, &h, H5O_INFO_BASIC) < 0 &&
	    (h.n = 0, H5Ovisit2(h.file, H5_INDEX_NAME, H5_ITER_INC, visit, &h, H5O_INFO_BASIC) < 0))
		cli_die(EXIT_DATA, "io-floor: %s: cannot list its datasets", path);
	if (h.n == 0)
		cli_die(EXIT_DATA, "io-floor: %s: no 1-D dataset in its root group", path);
	double (*col)[BLOCK_ROWS] = malloc(sizeof(*col) * (size_t)h.n);
	if (!col)
		cli_die(EXIT_DATA, "io-floor: out of memory");
	for (hsize_t at = 0; at < h.rows; at += BLOCK_ROWS) {
		hsize_t cnt = h.rows - at < BLOCK_ROWS ? h.rows - at : BLOCK_ROWS;
		h5_block(&h, col, at, cnt);
		for (hsize_t k = 0; k < cnt; k++) {
			double v[MAXCOLS];
			for (int i = 0; i < h.n; i++)
				v[i] = col[i][k];
			out_row(o, v, h.n);
		}
	}
	free(col);
	for (int i = 0; i < h.n; i++)
		H5Dclose(h.ds[i]);
	H5Fclose(h.file);
}

/* Whether path starts with HDF5's signature (at offset 0: the files
 * tagk-bench synth writes; a user block is not looked for). */
static int
is_hdf5(const char *path)
{
	unsigned char sig[8] = { 0 };
	struct stat sb;
	FILE *f = fopen(path, "rb");
	if (!f)
		cli_die(EXIT_DATA, "io-floor: %s: %s", path, strerror(errno));
	if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) /* a pipe's start would be read here, and lost */
		cli_die(EXIT_USAGE, "io-floor: %s: not a regular file (the yardstick of a file's reading)", path);
	size_t n = fread(sig, 1, 8, f);
	fclose(f);
	return n == 8 && memcmp(sig, "\x89HDF\r\n\x1a\n", 8) == 0;
}

int
cmd_iofloor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "bytes", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long bytes = 0;
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'b': bytes = cli_long("--bytes", optarg, 1, 1 << 20); break;
		case 'h': bench_help(stdout, "io-floor"); cli_close(stdout, "stdout"); return 0;
		default: bench_help(stderr, "io-floor"); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		cli_die(EXIT_USAGE, "io-floor: one FILE, a CSV or an HDF5 log");
	const char *path = argv[optind];
	bsum *sum = XXH3_createState();
	floor_out o = { .bytes = (size_t)bytes, .room = bytes ? (size_t)bytes : 8 * MAXCOLS, .sum = sum };
	int h5 = is_hdf5(path);
	if (!sum || !(o.buf = malloc(OUT_ROWS * o.room)))
		cli_die(EXIT_DATA, "io-floor: out of memory");
	bsum_init(sum);
	if (h5)
		floor_hdf5(&o, path);
	else
		floor_csv(&o, path);
	out_flush(&o);
	fprintf(stderr, "io-floor: %ld rows, check %016llx\n", o.rows,
	    (unsigned long long)bsum_value(sum));
	free(o.buf);
	XXH3_freeState(sum);
	return 0;
}
