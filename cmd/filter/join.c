/* join.c: per-topic logs on one time base; see join.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "join.h"
#include "cli.h"
#include "cmdio.h"

/* The joined file is read as the stream goes, not whole: a ring of rows
 * read ahead (JOIN_AHEAD at the start, for the default gap; from then on
 * the two around the last time asked, and one more), so that joining a
 * log of any length takes the memory of a few thousand rows. */
enum { JOIN_AHEAD = 4097 };

struct join_src {
	char *path, *prefix;
	int ncols;
	char **names;  /* output names */
	tbl_reader *r;
	int ta, tb, *src; /* its time column(s), and the source of each value */
	double *row;      /* a row as read */
	double *t, *v;    /* the ring: JOIN_AHEAD times and rows of ncols */
	long head, len;   /* its first row and how many it holds */
	int eof;
	double first;     /* the file's first time */
	double max_gap;
	int hold;
	long outside, gaps;
};

void
join_time_cols(tbl_reader *r, const join_time *jt, int *a, int *b)
{
	*b = -1;
	if (!jt->stamp) {
		*a = tbl_find(r, jt->tcol);
		if (*a < 0)
			cli_die(EXIT_DATA, "%s: no time column '%s' (name it with --time-col, or combine "
			    "seconds and nanoseconds with --stamp SEC,NSEC)", tbl_name(r), jt->tcol);
		return;
	}
	char buf[256], *items[2];
	if (cli_split("--stamp", jt->stamp, buf, sizeof(buf), items, 2) != 2)
		cli_die(EXIT_USAGE, "--stamp: '%s' is not SEC,NSEC", jt->stamp);
	*a = tbl_find(r, items[0]);
	*b = tbl_find(r, items[1]);
	if (*a < 0 || *b < 0)
		cli_die(EXIT_DATA, "%s: no column '%s' for --stamp%s", tbl_name(r), *a < 0 ? items[0] : items[1],
		    cmdio_unread_hint(r, *a < 0 ? items[0] : items[1]));
}

/* Read the joined file's next row into the ring's end; 0 at its end.
 * Dies on a read error or a time that does not increase. */
static int
read_row(join_src *j)
{
	int rc = tbl_next(j->r, j->row);
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(j->r));
	if (rc == 0) {
		j->eof = 1;
		return 0;
	}
	double t = j->row[j->ta] + (j->tb >= 0 ? 1e-9 * j->row[j->tb] : 0);
	long k = (j->head + j->len) % JOIN_AHEAD, last = (j->head + j->len - 1) % JOIN_AHEAD;
	if (j->len > 0 && !(t > j->t[last])) {
		char a[32], b[32];
		fmt_double(a, t);
		fmt_double(b, j->t[last]);
		cli_die(EXIT_DATA, "%s: time %s does not increase (previous %s)", tbl_where(j->r), a, b);
	}
	j->t[k] = t;
	for (int c = 0; c < j->ncols; c++)
		j->v[k * j->ncols + c] = j->row[j->src[c]];
	j->len++;
	return 1;
}

/* The columns (the numeric ones but the time, as the first row says) and
 * their output names. */
static void
join_columns(join_src *j, int nc)
{
	for (int i = 0; i < nc; i++)
		if (!tbl_is_text(j->r, i) && i != j->ta && i != j->tb)
			j->src[j->ncols++] = i;
	if (j->ncols == 0)
		cli_die(EXIT_DATA, "%s: no numeric column to join besides the time", j->path);
	j->names = malloc((size_t)j->ncols * sizeof(char *));
	j->t = malloc(JOIN_AHEAD * sizeof(double));
	j->v = malloc((size_t)JOIN_AHEAD * (size_t)j->ncols * sizeof(double));
	if (!j->names || !j->t || !j->v)
		cli_die(EXIT_DATA, "out of memory");
	for (int k = 0; k < j->ncols; k++) {
		const char *base = tbl_col(j->r, j->src[k]);
		size_t len = strlen(j->prefix) + strlen(base) + 1;
		if (!(j->names[k] = malloc(len)))
			cli_die(EXIT_DATA, "out of memory");
		snprintf(j->names[k], len, "%s%s", j->prefix, base);
	}
}

/* 5 times the median spacing of the rows read ahead. */
static double
default_gap(const join_src *j)
{
	double *d = malloc((size_t)(j->len - 1) * sizeof(double));
	if (!d)
		cli_die(EXIT_DATA, "out of memory");
	for (long i = 1; i < j->len; i++)
		d[i - 1] = j->t[i] - j->t[i - 1];
	qsort(d, (size_t)(j->len - 1), sizeof(double), cli_cmp_double);
	double g = 5 * d[(j->len - 1) / 2];
	free(d);
	return g;
}

join_src *
join_load(const char *spec, const join_time *jt, const tbl_options *in, double max_gap, int hold)
{
	join_src *j = calloc(1, sizeof(*j));
	if (!j || !(j->path = strdup(spec)))
		cli_die(EXIT_DATA, "out of memory");
	/* FILE:PREFIX, the last colon; a path with a colon and no prefix
	 * ends in ':' */
	char *colon = strrchr(j->path, ':');
	j->prefix = "";
	if (colon) {
		*colon = 0;
		j->prefix = colon + 1;
	}
	if (!j->path[0])
		cli_die(EXIT_USAGE, "--join: '%s' names no file", spec);
	tbl_options o = *in;
	o.format = TBL_AUTO;
	j->r = cmdio_open_input(j->path, &o);
	join_time_cols(j->r, jt, &j->ta, &j->tb);
	tbl_want_numeric(j->r);
	int nc = tbl_ncols(j->r);
	j->row = malloc((size_t)nc * sizeof(double));
	j->src = malloc((size_t)nc * sizeof(int));
	if (!j->row || !j->src)
		cli_die(EXIT_DATA, "out of memory");
	int rc = tbl_next(j->r, j->row);
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(j->r));
	if (rc == 1) {
		join_columns(j, nc);
		/* the first row again, through read_row, then the rows ahead */
		j->t[0] = j->row[j->ta] + (j->tb >= 0 ? 1e-9 * j->row[j->tb] : 0);
		for (int c = 0; c < j->ncols; c++)
			j->v[c] = j->row[j->src[c]];
		j->len = 1;
		while (j->len < JOIN_AHEAD && read_row(j))
			;
	}
	if (j->len < 2)
		cli_die(EXIT_DATA, "%s: %ld rows: a joined file needs two or more", j->path, j->len);
	j->first = j->t[0];
	j->max_gap = max_gap > 0 ? max_gap : default_gap(j);
	j->hold = hold;
	return j;
}

int
join_at(join_src *j, double t, double *out)
{
	/* the ring from the row at or before t: drop what lies behind it */
	for (;;) {
		if (j->len < 2 && !j->eof)
			read_row(j);
		if (j->len < 2 || !(j->t[(j->head + 1) % JOIN_AHEAD] <= t))
			break;
		j->head = (j->head + 1) % JOIN_AHEAD;
		j->len--;
	}
	const long k = j->head, k1 = (k + 1) % JOIN_AHEAD;
	if (t < j->first || (j->len == 1 && t > j->t[k])) {
		j->outside++;
		return 0;
	}
	const double *a = j->v + k * j->ncols;
	if (j->len == 1 || j->t[k] == t) { /* on a sample */
		memcpy(out, a, (size_t)j->ncols * sizeof(double));
		return 1;
	}
	double t0 = j->t[k], t1 = j->t[k1];
	if (t1 - t0 > j->max_gap) {
		j->gaps++;
		return 0;
	}
	const double *b = j->v + k1 * j->ncols, w = (t - t0) / (t1 - t0);
	for (int c = 0; c < j->ncols; c++)
		out[c] = j->hold ? a[c] : a[c] + w * (b[c] - a[c]);
	return 1;
}

int join_ncols(const join_src *j) { return j->ncols; }
const char *join_name(const join_src *j, int k) { return j->names[k]; }
const char *join_path(const join_src *j) { return j->path; }
double join_max_gap(const join_src *j) { return j->max_gap; }

void
join_dropped(const join_src *j, long *outside, long *gaps)
{
	*outside = j->outside;
	*gaps = j->gaps;
}

void
join_free(join_src *j)
{
	for (int k = 0; k < j->ncols; k++)
		free(j->names[k]);
	free(j->names);
	free(j->t);
	free(j->v);
	free(j->row);
	free(j->src);
	tbl_close(j->r);
	free(j->path);
	free(j);
}
