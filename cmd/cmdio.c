/* cmdio.c: shared input and output handling; see cmdio.h. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdio.h"
#include "../lib/tagk.h"

static sink *active;

static void
abandon(const char *msg)
{
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
	sink *s = sink_open(path, fmt, err, sizeof(err));
	if (!s)
		cli_die(EXIT_DATA, "%s", err);
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
cmdio_commit(sink *s)
{
	char err[1024];
	active = NULL;
	cli_on_die(NULL);
	if (sink_close(s, 1, NULL, err, sizeof(err)) != 0)
		cli_die(EXIT_DATA, "%s", err);
}

void
cmdio_input_help(FILE *f)
{
	fprintf(f,
	    "  -f, --input-format F   csv, hdf5 or cfusd (default: by the file's first bytes)\n"
	    "      --skip-bad         skip rows whose wanted cells are empty, NaN or Inf\n"
	    "      --ignore-crc       Crazyflie uSD: read a log whose CRC-32 does not match\n"
	    "      --group G          HDF5: the group holding the datasets (default /)\n"
	    "      --event E          Crazyflie uSD: the event type to read, by name or id\n"
	    "  -h, --help             this help\n"
	    "  -V, --version          the version\n");
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
	return n;
}
