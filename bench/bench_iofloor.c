/*
 * bench_iofloor.c: tagk-bench io-floor, the yardstick under issue 36's
 * reading targets: the least work any command does that reads a log
 * through the libraries tagk-regress uses and writes the bytes its binary
 * stream carries, and nothing else: no check of the input, no arithmetic,
 * no error path but the first failure. tagk-bench pipeline runs it beside
 * cat and awk: what no implementation over the same libraries and stream
 * can beat.
 *
 *   CSV:  the file in 1 MiB reads, '#' lines, blank lines and the first
 *         other line (the header) skipped, each data line read in one pass
 *         by fast_float's from_chars (num_fields_from_chars), the library
 *         tagk's parser is built on: each field where the last stopped, at
 *         its comma, with no search for the commas or the line end first
 *         (issue 57: a memchr for each comma, then from_chars, was 1.1x
 *         this). Every field: a cache of the row above's text (tagk's
 *         reader has one) made such a loop slower on the synthetic log
 *         (596 against 492 CPU ms a million rows): from_chars reads a
 *         constant "0" faster than a compare.
 *   HDF5: every 1-D dataset of the root group, in creation order, through
 *         libhdf5 (h5_load), in the reader's 4096-row hyperslabs into
 *         column buffers, each row then gathered from them.
 *   Out:  --bytes N a row (default 8 a value): the row's values, then
 *         zeros, each byte stored, hashed by the binary stream's XXH3
 *         (streamsum.h) and written to stdout about 64 rows a write.
 *         --regress: tagk-regress --stream binary's own stream, byte
 *         for byte, for a log with its default column names and alpha
 *         logged (tagk-bench synth's): the floor under tagk-regress's
 *         reading that does the same job, tagk's regressor included.
 *         From HDF5 (issue 57), one process: the datasets it needs, each
 *         chunk read once by H5Dread_chunk (tagk's reader's direct path,
 *         without its child, its slots or its checks) straight into a
 *         buffer, or inflated there by zlib when deflated.
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
#include <zlib.h>
#include "bench_commands.h"
#include "../cmd/common/cli.h"
#include "../formats/h5load.h"
#include "../formats/binary.h"
#include "../formats/numconv.h"
#include "../formats/streamsum.h"
#include "../formats/table.h"
#include "../lib/tagk.h"

enum { MAXCOLS = 256, BLOCK_ROWS = 4096, OUT_ROWS = 64, READ = 1 << 20, MAX_LINE = 1 << 16 };

/* The output side: rows of `bytes` bytes, OUT_ROWS a write. */
typedef struct {
	size_t bytes, room, used; /* bytes a row (0: 8 a value); room: the most a row takes */
	unsigned char *buf;
	size_t hashed; /* buf[0..hashed) hashed already (--regress) */
	bsum *sum;
	long rows;
} floor_out;

static void
out_flush(floor_out *o)
{
	bsum_bytes(o->sum, o->buf + o->hashed, o->used - o->hashed);
	o->hashed = 0;
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

/* --regress: where the rigid-body signals and the truth are in a row
 * (tagk-regress's default names, alpha logged: tagk-bench synth's log),
 * and the stream's names. */
enum { NSIGCOL = 16, NOUT_MAX = 13 + MAXCOLS };
typedef struct {
	int on, col[NSIGCOL], ntrue, tcol[MAXCOLS];
	uint64_t prev[NOUT_MAX];  /* the row before's words, as tagk's writer keeps them */
	binary_encode_fn *encode; /* the writer's own encoder (binary_encoder) */
} floor_rigid;

static const char *const sig_names[NSIGCOL] = { "t", "ax", "ay", "az", "gx", "gy", "gz", "alx", "aly", "alz", "fx",
	"fy", "fz", "tx", "ty", "tz" };

/* A sample's six rows of t, row, Y, b and the truth, as tagk-regress
 * --stream binary writes them, with no check of anything: the rows
 * encoded as version 4 records by the writer's own encoder (the stream's
 * bytes are its job too), hashed every 4 KiB while in L1 (as tagk's
 * writer hashes), written at out_flush. */
static void
out_rigid(floor_out *o, floor_rigid *g, const double *v)
{
	double in[NSIGCOL];
	for (int i = 0; i < NSIGCOL; i++)
		in[i] = v[g->col[i]];
	tagk_real Y[6 * TAGK_NPARAM];
	tagk_regressor_rigid(in + 1, in + 4, in + 7, Y);
	int m = 3 + TAGK_NPARAM + g->ntrue;
	double rows[6 * NOUT_MAX];
	for (int r = 0; r < 6; r++) {
		double *x = rows + r * m;
		x[0] = in[0];
		x[1] = r;
		for (int j = 0; j < TAGK_NPARAM; j++)
			x[2 + j] = Y[r * TAGK_NPARAM + j];
		x[2 + TAGK_NPARAM] = in[10 + r];
		for (int j = 0; j < g->ntrue; j++)
			x[3 + TAGK_NPARAM + j] = v[g->tcol[j]];
	}
	o->used += g->encode(o->buf + o->used, g->prev, rows, m, 6, 3 + TAGK_NPARAM); /* the truth alike, as tagk-regress promises */
	o->rows += 6;
	if (o->used - o->hashed >= 4096) {
		bsum_bytes(o->sum, o->buf + o->hashed, o->used - o->hashed);
		o->hashed = o->used;
	}
	if (o->used > (OUT_ROWS - 1) * o->room)
		out_flush(o);
}

/* The log's column names for --regress: the signals' and the truth's
 * columns found. */
static void
rigid_find(floor_rigid *g, const char *const *names, int nc)
{
	for (int i = 0; i < NSIGCOL; i++) {
		g->col[i] = -1;
		for (int k = 0; k < nc; k++)
			if (strcmp(names[k], sig_names[i]) == 0)
				g->col[i] = k;
		if (g->col[i] < 0)
			cli_die(EXIT_DATA, "io-floor: --regress: no column '%s' (it reads tagk-bench synth's logs)", sig_names[i]);
	}
	for (int k = 0; k < nc && g->ntrue < NOUT_MAX - 13; k++)
		if (strncmp(names[k], "true_", 5) == 0)
			g->tcol[g->ntrue++] = k;
}

/* The stream's magic line, names and units written (the names and units
 * hashed, as tagk's writer does), for the columns rigid_find found in
 * names. */
static void
rigid_write(floor_out *o, floor_rigid *g, const char *const *names)
{
	const char *out[NOUT_MAX];
	int m = 0;
	static char yname[TAGK_NPARAM][16];
	out[m++] = "t";
	out[m++] = "row";
	for (int j = 0; j < TAGK_NPARAM; j++) {
		snprintf(yname[j], sizeof(yname[j]), "Y_%s", tagk_param_names[j]);
		out[m++] = yname[j];
	}
	out[m++] = "b";
	for (int j = 0; j < g->ntrue; j++)
		out[m++] = names[g->tcol[j]];
	for (int k = 0; k < NOUT_MAX; k++)
		g->prev[k] = BINARY_NONE;
	g->encode = binary_encoder();
	char text[2 * 64 * NOUT_MAX] = "";
	size_t t = 0;
	for (int u = 0; u < 2; u++)
		for (int k = 0; k < m; k++)
			t += (size_t)snprintf(text + t, sizeof(text) - t, "%s%c", u ? binary_unit(out[k]) : out[k],
			    k + 1 < m ? ',' : '\n');
	char magic[BINARY_MAGIC_MAX + 8];
	int mn = snprintf(magic, sizeof(magic), "%s %d f64le %d", BINARY_MAGIC, BINARY_VERSION, m);
	while ((t + (size_t)mn + 1) % 8) /* the records start at a multiple of 8 bytes */
		magic[mn++] = ' ';
	magic[mn++] = '\n';
	if (write(1, magic, (size_t)mn) != mn)
		cli_die(EXIT_DATA, "io-floor: write error: %s", strerror(errno));
	memcpy(o->buf, text, t);
	o->used = t;
	out_flush(o);
}

/* The header line s[0..n) of a CSV log for --regress: its names, split at
 * the commas, to rigid_names. */
static void
rigid_header(floor_out *o, floor_rigid *g, const char *line, size_t n)
{
	static char s[MAX_LINE + 1];
	const char *names[MAXCOLS];
	int nc = 0;
	memcpy(s, line, n);
	s[n] = 0;
	for (char *p = s, *e = s + n; nc < MAXCOLS; p++) {
		char *c = memchr(p, ',', (size_t)(e - p));
		names[nc++] = p;
		if (!c)
			break;
		*c = 0;
		p = c;
	}
	rigid_find(g, names, nc);
	rigid_write(o, g, names);
}

/* The log at path, CSV: '#' lines and blank lines skipped, the first
 * other line the header, then each data line read in one pass by
 * num_fields_from_chars (each field where the last stopped: no search for
 * the commas or the line end first) with a line's bytes always in the
 * buffer (at least MAX_LINE of them ahead, or the file's end). */
static void
floor_csv(floor_out *o, floor_rigid *g, const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		cli_die(EXIT_DATA, "io-floor: %s: %s", path, strerror(errno));
	char *buf = malloc(READ + MAX_LINE);
	if (!buf)
		cli_die(EXIT_DATA, "io-floor: out of memory");
	size_t have = 0;
	int header = 1, eof = 0;
	double v[MAXCOLS];
	char *p = buf, *e = buf;
	for (;;) {
		if (!eof && (size_t)(e - p) < MAX_LINE) {
			have = (size_t)(e - p);
			memmove(buf, p, have);
			ssize_t r = 1;
			while (have < READ + MAX_LINE && (r = read(fd, buf + have, READ + MAX_LINE - have)) > 0)
				have += (size_t)r;
			if (r < 0)
				cli_die(EXIT_DATA, "io-floor: %s: %s", path, strerror(errno));
			eof = r == 0;
			p = buf, e = buf + have;
		}
		if (p == e)
			break;
		if (*p == '#' || *p == '\n' || *p == '\r' || header) {
			char *nl = memchr(p, '\n', (size_t)(e - p));
			char *end = nl ? nl : e;
			if (*p != '#' && *p != '\n' && *p != '\r' && header) {
				header = 0;
				if (g->on)
					rigid_header(o, g, p, (size_t)(end - p - (end > p && end[-1] == '\r')));
			}
			p = nl ? nl + 1 : e;
			continue;
		}
		int n;
		p = (char *)num_fields_from_chars(p, e, v, MAXCOLS, &n);
		if (g->on)
			out_rigid(o, g, v);
		else
			out_row(o, v, n);
		if (p != e && *p == '\r')
			p++;
		if (p != e && *p == '\n')
			p++;
		else if (p != e) { /* not a number: the rest of the line skipped */
			char *nl = memchr(p, '\n', (size_t)(e - p));
			p = nl ? nl + 1 : e;
		}
	}
	free(buf);
	close(fd);
}

/* The root group's 1-D datasets, as H5Ovisit2 finds them, and their names. */
typedef struct {
	hid_t file, ds[MAXCOLS];
	char *name[MAXCOLS];
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
		if (!(h->name[h->n] = strdup(name)))
			cli_die(EXIT_DATA, "io-floor: out of memory");
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

/* The file at path opened by libhdf5 (loaded here) and its root group's
 * 1-D datasets listed into h, in creation order when the file tracks it,
 * else by name (as tagk's reader lists them). */
static void
h5_open_cols(h5cols *h, const char *path)
{
	char why[400];
	if (h5_load(why, sizeof(why)) != 0)
		cli_die(EXIT_DATA, "io-floor: %s", why);
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	h->n = 0;
	if ((h->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
		cli_die(EXIT_DATA, "io-floor: %s: not an HDF5 file libhdf5 opens", path);
	if (H5Ovisit2(h->file, H5_INDEX_CRT_ORDER, H5_ITER_INC, visit, h, H5O_INFO_BASIC) < 0 &&
	    (h->n = 0, H5Ovisit2(h->file, H5_INDEX_NAME, H5_ITER_INC, visit, h, H5O_INFO_BASIC) < 0))
		cli_die(EXIT_DATA, "io-floor: %s: cannot list its datasets", path);
	if (h->n == 0)
		cli_die(EXIT_DATA, "io-floor: %s: no 1-D dataset in its root group", path);
}

static void
h5_close_cols(h5cols *h)
{
	for (int i = 0; i < h->n; i++) {
		H5Dclose(h->ds[i]);
		free(h->name[i]);
	}
	H5Fclose(h->file);
}

static void
floor_hdf5(floor_out *o, const char *path)
{
	h5cols h;
	h5_open_cols(&h, path);
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
	h5_close_cols(&h);
}

/* --regress on HDF5: a dataset the stream needs, read a chunk at a time
 * by H5Dread_chunk (tagk's reader's direct path, h5chunk.h, without its
 * checks): the stored chunk straight into chunk when unfiltered, else
 * inflated there from raw. */
typedef struct {
	hid_t ds;
	int deflate;
	hsize_t crows, at; /* rows a chunk; the first row of the one in chunk (-1: none) */
	double *chunk;
} h5floor_col;

static void
h5floor_setup(h5floor_col *c, hid_t ds, const char *name)
{
	hid_t dcpl = H5Dget_create_plist(ds);
	hsize_t cd = 0;
	unsigned flags = 0, vals[8], cfg = 0;
	size_t nv = 8;
	int nf = H5Pget_nfilters(dcpl);
	if (H5Pget_layout(dcpl) != H5D_CHUNKED || H5Pget_chunk(dcpl, 1, &cd) != 1 || cd == 0 || nf < 0 || nf > 1 ||
	    (nf == 1 && H5Pget_filter2(dcpl, 0, &flags, &nv, vals, 0, NULL, &cfg) != H5Z_FILTER_DEFLATE))
		cli_die(EXIT_DATA, "io-floor: --regress: dataset '%s' is not stored in unfiltered or deflated chunks", name);
	H5Pclose(dcpl);
	*c = (h5floor_col){ .ds = ds, .deflate = nf == 1, .crows = cd, .at = (hsize_t)-1,
		.chunk = malloc((size_t)cd * sizeof(double)) };
	if (!c->chunk)
		cli_die(EXIT_DATA, "io-floor: out of memory");
}

/* The chunk of c at row c0 into c->chunk; raw (*cap bytes) and z the
 * deflated chunk's room and zlib stream. */
static void
h5floor_chunk(h5floor_col *c, hsize_t c0, unsigned char **raw, size_t *cap, z_stream *z)
{
	hsize_t size = 0;
	uint32_t mask = 0;
	if (!c->deflate) {
		if (H5Dread_chunk(c->ds, H5P_DEFAULT, &c0, &mask, c->chunk) < 0)
			cli_die(EXIT_DATA, "io-floor: reading a chunk failed");
		c->at = c0;
		return;
	}
	if (H5Dget_chunk_storage_size(c->ds, &c0, &size) < 0)
		cli_die(EXIT_DATA, "io-floor: reading a chunk failed");
	if (size > *cap) {
		free(*raw);
		if (!(*raw = malloc(*cap = (size_t)size)))
			cli_die(EXIT_DATA, "io-floor: out of memory");
	}
	if (H5Dread_chunk(c->ds, H5P_DEFAULT, &c0, &mask, *raw) < 0 || inflateReset(z) != Z_OK)
		cli_die(EXIT_DATA, "io-floor: reading a chunk failed");
	z->next_in = *raw;
	z->avail_in = (uInt)size;
	z->next_out = (unsigned char *)c->chunk;
	z->avail_out = (uInt)(c->crows * sizeof(double));
	inflate(z, Z_FINISH);
	c->at = c0;
}

/* --regress on an HDF5 log (tagk-bench synth's, or it repacked with
 * deflate): the datasets of the signals and the truth only, each chunk
 * read once, the rows of each stretch that lies within one chunk of
 * every one of them gathered from the chunks and written by out_rigid. */
static void
floor_hdf5_regress(floor_out *o, floor_rigid *g, const char *path)
{
	h5cols h;
	h5_open_cols(&h, path);
	rigid_find(g, (const char *const *)h.name, h.n);
	int nu = NSIGCOL + g->ntrue;
	h5floor_col c[NSIGCOL + MAXCOLS];
	for (int i = 0; i < nu; i++) { /* the columns used, in the order out_rigid reads them */
		int k = i < NSIGCOL ? g->col[i] : g->tcol[i - NSIGCOL];
		h5floor_setup(&c[i], h.ds[k], h.name[k]);
	}
	rigid_write(o, g, (const char *const *)h.name);
	for (int i = 0; i < nu; i++)
		*(i < NSIGCOL ? &g->col[i] : &g->tcol[i - NSIGCOL]) = i;
	z_stream z = { .zalloc = Z_NULL };
	unsigned char *raw = NULL;
	size_t cap = 0;
	if (inflateInit(&z) != Z_OK)
		cli_die(EXIT_DATA, "io-floor: out of memory");
	for (hsize_t b = 0, end; b < h.rows; b = end) {
		end = h.rows;
		for (int i = 0; i < nu; i++) {
			hsize_t c0 = b / c[i].crows * c[i].crows;
			if (c[i].at != c0)
				h5floor_chunk(&c[i], c0, &raw, &cap, &z);
			if (c0 + c[i].crows < end)
				end = c0 + c[i].crows;
		}
		for (hsize_t r = b; r < end; r++) {
			double v[NSIGCOL + MAXCOLS];
			for (int i = 0; i < nu; i++)
				v[i] = c[i].chunk[r - c[i].at];
			out_rigid(o, g, v);
		}
	}
	inflateEnd(&z);
	free(raw);
	for (int i = 0; i < nu; i++)
		free(c[i].chunk);
	h5_close_cols(&h);
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
		{ "regress", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long bytes = 0;
	floor_rigid g = { .on = 0 };
	int c;
	optind = 1;
	while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'b': bytes = cli_long("--bytes", optarg, 1, 1 << 20); break;
		case 'r': g.on = 1; break;
		case 'h': bench_help(stdout, "io-floor"); cli_close(stdout, "stdout"); return 0;
		default: bench_help(stderr, "io-floor"); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		cli_die(EXIT_USAGE, "io-floor: one FILE, a CSV or an HDF5 log");
	if (g.on && bytes)
		cli_die(EXIT_USAGE, "io-floor: --regress writes tagk-regress's stream: no --bytes with it");
	const char *path = argv[optind];
	bsum *sum = XXH3_createState();
	floor_out o = { .bytes = (size_t)bytes, .room = g.on ? 6 * binary_record_max(NOUT_MAX) : bytes ? (size_t)bytes : 8 * MAXCOLS,
		.sum = sum };
	int h5 = is_hdf5(path);
	if (!sum || !(o.buf = malloc(OUT_ROWS * o.room)))
		cli_die(EXIT_DATA, "io-floor: out of memory");
	bsum_init(sum);
	if (h5 && g.on)
		floor_hdf5_regress(&o, &g, path);
	else if (h5)
		floor_hdf5(&o, path);
	else
		floor_csv(&o, &g, path);
	out_flush(&o);
	if (g.on) { /* the stream's trailer and end marker, unhashed */
		char end[128];
		memcpy(end, BINARY_TRAILER, sizeof(BINARY_TRAILER));
		int n = snprintf(end + 8, sizeof(end) - 8, "%s %ld %s; check %016llx\n", TBL_END_MARK, o.rows,
		    o.rows == 1 ? "row" : "rows", (unsigned long long)bsum_value(sum));
		if (write(1, end, 8 + (size_t)n) != 8 + n)
			cli_die(EXIT_DATA, "io-floor: write error: %s", strerror(errno));
	}
	fprintf(stderr, "io-floor: %ld rows, check %016llx\n", o.rows,
	    (unsigned long long)bsum_value(sum));
	free(o.buf);
	XXH3_freeState(sum);
	return 0;
}
