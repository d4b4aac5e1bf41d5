/* cmdio.c: shared input and output handling; see cmdio.h. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cmdio.h"
#include "streampeer.h"
#include "../lib/tagk.h"

static sink *active;
static cmdio_file *active_file;
static enum { STREAM_AUTO, STREAM_CSV, STREAM_BINARY } stream_mode;

static void
abandon(const char *msg)
{
	if (active_file) {
		cmdio_file *w = active_file;
		active_file = NULL;
		if (w->f)
			fclose(w->f);
		w->f = NULL;
		outfile_abandon(&w->of);
	}
	if (active) {
		sink *s = active;
		active = NULL;
		sink_close(s, 0, msg, NULL, 0);
	}
}

int
cmdio_input_option(tbl_options *o, int c, const char *arg)
{
	switch (c) {
	case 'f': {
		int f = tbl_format_parse(arg);
		if (f < 0)
			cli_die(EXIT_USAGE, "-f: '%s' is not one of csv, hdf5, cfusd", arg);
		o->format = (tbl_format)f;
		return 1;
	}
	case 1001: o->skip_bad = 1; return 1;
	case 1002: o->ignore_crc = 1; return 1;
	case 1003: o->group = arg; return 1;
	case 1004: o->event = arg; return 1;
	}
	return 0;
}

int
cmdio_output_option(int c, const char *arg)
{
	if (c == CMDIO_FSYNC_OPT) {
		outfile_durable(1);
		return 1;
	}
	if (c != CMDIO_STREAM_OPT)
		return 0;
	if (strcmp(arg, "auto") == 0)
		stream_mode = STREAM_AUTO;
	else if (strcmp(arg, "csv") == 0)
		stream_mode = STREAM_CSV;
	else if (strcmp(arg, "binary") == 0)
		stream_mode = STREAM_BINARY;
	else
		cli_die(EXIT_USAGE, "--stream: '%s' is not one of auto, csv, binary", arg);
	return 1;
}

void
cmdio_stream_help(FILE *f)
{
	fprintf(f, "      --stream S         auto (default: tagk's binary stream to a pipe into tagk,\n"
	    "                         else CSV), csv or binary (tagk-formats(5))\n"
	    "      --fsync            -o FILE: sync the file and its directory before exiting\n");
}

/* 1 if path names a terminal (-o /dev/tty, -o /dev/stdout on one). */
static int
is_terminal(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISCHR(st.st_mode))
		return 0;
	int fd = open(path, O_WRONLY | O_NOCTTY);
	int tty = fd >= 0 && isatty(fd);
	if (fd >= 0)
		close(fd);
	return tty;
}

/* Set by stream_format: every reader of standard output is a tagk command. */
static int reader_is_tagk;

/* The format --stream asks for on path (NULL or "-": standard output). */
static tbl_format
stream_format(const char *path)
{
	int is_stdout = !path || strcmp(path, "-") == 0;
	switch (stream_mode) {
	case STREAM_CSV:
		return TBL_AUTO;
	case STREAM_BINARY:
		if (is_stdout ? isatty(1) : is_terminal(path))
			cli_die(EXIT_USAGE, "--stream binary: %s is a terminal (redirect it, or pipe it into a "
			    "tagk command)", is_stdout ? "standard output" : path);
		if (!is_stdout && tbl_format_from_name(path) != TBL_AUTO)
			cli_die(EXIT_USAGE, "--stream binary: %s is named as %s", path,
			    tbl_format_from_name(path) == TBL_HDF5 ? "HDF5" : "CSV");
		reader_is_tagk = is_stdout && stream_reader_is_tagk(1);
		return TBL_BINARY;
	default:
		reader_is_tagk = is_stdout && stream_reader_is_tagk(1);
		return reader_is_tagk ? TBL_BINARY : TBL_AUTO;
	}
}

tbl_reader *
cmdio_open_input(const char *path, const tbl_options *o)
{
	char err[1024];
	tbl_reader *r = tbl_open(path, o, err, sizeof(err));
	if (!r)
		cli_die(EXIT_DATA, "%s", err);
	return r;
}

sink *
cmdio_open_output(const char *path, tbl_format fmt)
{
	char err[1024];
	if (fmt == TBL_AUTO)
		fmt = stream_format(path);
	sink *s = sink_open(path, fmt, err, sizeof(err));
	if (!s)
		cli_die(EXIT_DATA, "%s", err);
	if (reader_is_tagk && fmt == TBL_BINARY)
		sink_by_reference(s);
	active = s;
	cli_on_die(abandon);
	return s;
}

void
cmdio_header(sink *s, int n, const char *const *names)
{
	if (sink_header(s, n, names) != 0)
		cli_die(EXIT_DATA, "%s", sink_error(s));
}

void
cmdio_row(sink *s, const double *v)
{
	if (sink_row(s, v) != 0)
		cli_die(EXIT_DATA, "%s", sink_error(s));
}

void
cmdio_rows(sink *s, const double *v, int k)
{
	if (sink_rows(s, v, k) != 0)
		cli_die(EXIT_DATA, "%s", sink_error(s));
}

/* Branch-free and in integer lanes the compiler vectorises (regress
 * checks every sample's 66 values): an exponent field of all ones (Inf,
 * NaN) plus one carries into the sign bit, any other does not. */
int
cmdio_all_finite(const double *v, int n)
{
	const uint64_t exp = UINT64_C(0x7ff0000000000000), one = UINT64_C(1) << 52;
	uint64_t carry = 0;
	for (int i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &v[i], 8);
		carry |= (u & exp) + one;
	}
	return !(carry >> 63);
}

const char *
cmdio_unread_hint(const tbl_reader *r, const char *name)
{
	static char hint[512];
	char why[128];
	if (!tbl_unread(r, name, why, sizeof(why)))
		return "";
	snprintf(hint, sizeof(hint), ": the file has a dataset '%.200s', but it %s, not numbers", name, why);
	return hint;
}

void
cmdio_pass_notes(sink *s, const tbl_reader *r)
{
	for (int i = 0; i < tbl_nnotes(r); i++) {
		const char *n = tbl_note_line(r, i);
		char key[48];
		size_t k = strcspn(n, " ");
		if (k == 0 || n[k] != ' ' || k >= sizeof(key))
			continue; /* not KEY VALUE: no reader of tagk's can use it */
		memcpy(key, n, k);
		key[k] = 0;
		sink_note(s, key, n + k + 1);
	}
}

void
cmdio_commit(sink *s)
{
	char err[1024];
	active = NULL;
	cli_on_die(NULL);
	if (sink_close(s, 1, NULL, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
}

void
cmdio_file_open(cmdio_file *w, const char *path)
{
	memset(w, 0, sizeof(*w));
	w->f = stdout;
	w->name = "stdout";
	w->to_file = path && strcmp(path, "-") != 0;
	if (!w->to_file)
		return;
	char err[1024];
	w->name = path;
	if (outfile_begin(&w->of, path, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
	w->f = outfile_stream(&w->of);
	if (!w->f) {
		int e = errno;
		outfile_abandon(&w->of);
		cli_die(EXIT_DATA, "%s: %s", path, strerror(e));
	}
	active_file = w;
	cli_on_die(abandon);
}

void
cmdio_file_commit(cmdio_file *w)
{
	if (fflush(w->f) != 0 || ferror(w->f))
		cli_die(EXIT_DATA, "%s: write error: %s", w->name, strerror(errno));
	if (!w->to_file)
		return;
	FILE *f = w->f;
	w->f = NULL;
	if (fclose(f) != 0)
		cli_die(EXIT_DATA, "%s: write error: %s", w->name, strerror(errno));
	char err[1024];
	active_file = NULL;
	if (outfile_commit(&w->of, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
}

void
cmdio_input_help(FILE *f)
{
	fprintf(f,
	    "  -f, --input-format F   csv, hdf5 or cfusd (default: by the file's first bytes)\n"
	    "      --skip-bad         skip rows whose wanted cells are empty, NaN or Inf\n"
	    "      --ignore-crc       Crazyflie uSD: read a log whose CRC-32 does not match\n"
	    "      --group G          HDF5: the group holding the datasets (default /); data kept\n"
	    "                         in other files is refused (tagk-formats(5))\n"
	    "      --event E          Crazyflie uSD: the event type to read, by name or id\n"
	    "  -h, --help             this help\n"
	    "  -V, --version          the version\n");
}

/* The sample that just ended, checked against the first one. */
static void
sample_done(cmdio_samples *c, tbl_reader *r, int have_idx, int last)
{
	char a[32];
	if (c->rows_per && c->rows != c->rows_per) {
		fmt_double(a, c->t);
		if (have_idx)
			cli_die(EXIT_DATA, "%s: the sample at t = %s has %d rows, the first had %d: the stream was cut "
			    "or rows were lost", tbl_name(r), a, c->rows, c->rows_per);
		if (last && !c->varies && c->rows < c->rows_per)
			cli_die(EXIT_DATA, "%s: the last sample, at t = %s, has %d rows where every other had %d: the "
			    "file was cut inside it (delete its rows, or add a row column numbering each sample's rows)",
			    tbl_name(r), a, c->rows, c->rows_per);
		c->varies = 1;
	}
	if (!c->rows_per)
		c->rows_per = c->rows;
	c->samples++;
}

int
cmdio_sample_row(cmdio_samples *c, tbl_reader *r, double t, double idx)
{
	int have_idx = !isnan(idx);
	int fresh = c->rows == 0 || t != c->t;
	if (fresh && c->rows) {
		sample_done(c, r, have_idx, 0);
		c->rows = 0;
	}
	if (fresh)
		c->t = t;
	if (have_idx && fresh && c->samples == 0 && idx >= 0 && idx < 64 && idx == (double)(int)idx)
		c->base = (int)idx;
	if (have_idx && fresh && c->base > 0 && idx == 0)
		cli_die(EXIT_DATA, "%s: a sample starts at row 0 where the first began at row %d: the stream starts "
		    "inside a sample (cut at its head), or rows were lost", tbl_where(r), c->base);
	if (have_idx && idx != (double)(c->base + c->rows)) {
		char a[32];
		fmt_double(a, idx);
		cli_die(EXIT_DATA, "%s: row %s of a sample where row %d belongs: the stream was cut or rows were "
		    "lost or reordered", tbl_where(r), a, c->base + c->rows);
	}
	c->rows++;
	return fresh;
}

void
cmdio_sample_end(cmdio_samples *c, tbl_reader *r, int have_idx)
{
	if (c->rows)
		sample_done(c, r, have_idx, 1);
	c->rows = 0;
}

int
cmdio_regressor_cols(tbl_reader *r, int need_row, int *it, int *ib, int *irow, int *iy)
{
	int n = 0;
	*it = tbl_find(r, "t");
	*ib = tbl_find(r, "b");
	*irow = tbl_find(r, "row");
	for (int j = 0; j < TAGK_NPARAM; j++) {
		char name[32];
		snprintf(name, sizeof(name), "Y_%s", tagk_param_names[j]);
		iy[j] = tbl_find(r, name);
	}
	while (n < TAGK_NPARAM && iy[n] >= 0)
		n++;
	if (*it < 0 || *ib < 0 || (need_row && *irow < 0) || (n != 1 && n != TAGK_NPARAM))
		cli_die(EXIT_DATA, "%s: not a regressor stream: it needs columns t, %sY_m (and Y_mcx ... "
		    "Y_Izz for the rigid body) and b, as tagk-regress writes", tbl_name(r), need_row ? "row, " : "");
	tbl_want(r, *it);
	tbl_want(r, *ib);
	if (*irow >= 0)
		tbl_want(r, *irow);
	for (int j = 0; j < n; j++)
		tbl_want(r, iy[j]);
	return n;
}

/* name, or the first of name + each of exts (NULL-terminated) in the data
 * directories: $TAGK_DATADIR, ../share/tagk and ../datasets beside the
 * program. A name with a '/' or that exists is taken as it is. */
static const char *
data_path(const char *name, const char *const *exts, char *buf, size_t len)
{
	struct stat st;
	if (strchr(name, '/') || stat(name, &st) == 0)
		return name;
	char dirs[3][4200];
	int nd = 0;
	const char *env = getenv("TAGK_DATADIR");
	if (env && *env)
		snprintf(dirs[nd++], sizeof(dirs[0]), "%s", env);
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		snprintf(dirs[nd++], sizeof(dirs[0]), "%s/../share/tagk", exe);
		snprintf(dirs[nd++], sizeof(dirs[0]), "%s/../datasets", exe);
	}
	for (int d = 0; d < nd; d++)
		for (int e = 0; exts[e]; e++) {
			snprintf(buf, len, "%s/%s%s", dirs[d], name, exts[e]);
			if (stat(buf, &st) == 0)
				return buf;
		}
	return name; /* the error names what the user wrote */
}

const char *
cmdio_robot_path(const char *name, char *buf, size_t len)
{
	static const char *const exts[] = { "", ".model", ".urdf", ".xml", NULL };
	return data_path(name, exts, buf, len);
}

void
cmdio_vehicle(const char *name, vehicle *v, int rotors)
{
	char buf[4200], err[512];
	static const char *const exts[] = { ".veh", NULL };
	if (vehicle_read(data_path(name, exts, buf, sizeof(buf)), v, rotors, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
}
