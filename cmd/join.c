/* join.c: per-topic logs on one time base; see join.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "join.h"
#include "cli.h"
#include "cmdio.h"

struct join_src {
	char *path, *prefix;
	int ncols;
	char **names;  /* output names */
	long n;
	double *t;     /* n */
	double *v;     /* n x ncols */
	long cur;      /* t[cur] <= the last time asked */
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
	tbl_reader *r = cmdio_open_input(j->path, &o);
	int ta, tb;
	join_time_cols(r, jt, &ta, &tb);
	tbl_want_numeric(r);
	int nc = tbl_ncols(r);
	double *row = malloc((size_t)nc * sizeof(double));
	int *src = malloc((size_t)nc * sizeof(int));
	if (!row || !src)
		cli_die(EXIT_DATA, "out of memory");
	long cap = 0;
	int rc;
	while ((rc = tbl_next(r, row)) == 1) {
		if (j->n == 0) {
			/* columns: the numeric ones but the time */
			for (int i = 0; i < nc; i++)
				if (!tbl_is_text(r, i) && i != ta && i != tb)
					src[j->ncols++] = i;
			if (j->ncols == 0)
				cli_die(EXIT_DATA, "%s: no numeric column to join besides the time", j->path);
		}
		if (j->n == cap) {
			cap = cap ? 2 * cap : 4096;
			j->t = realloc(j->t, (size_t)cap * sizeof(double));
			j->v = realloc(j->v, (size_t)cap * (size_t)j->ncols * sizeof(double));
			if (!j->t || !j->v)
				cli_die(EXIT_DATA, "out of memory");
		}
		double t = row[ta] + (tb >= 0 ? 1e-9 * row[tb] : 0);
		if (j->n > 0 && !(t > j->t[j->n - 1])) {
			char a[32], b[32];
			fmt_double(a, t);
			fmt_double(b, j->t[j->n - 1]);
			cli_die(EXIT_DATA, "%s: time %s does not increase (previous %s)", tbl_where(r), a, b);
		}
		j->t[j->n] = t;
		for (int k = 0; k < j->ncols; k++)
			j->v[j->n * j->ncols + k] = row[src[k]];
		j->n++;
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (j->n < 2)
		cli_die(EXIT_DATA, "%s: %ld rows: a joined file needs two or more", j->path, j->n);
	j->names = malloc((size_t)j->ncols * sizeof(char *));
	if (!j->names)
		cli_die(EXIT_DATA, "out of memory");
	for (int k = 0; k < j->ncols; k++) {
		const char *base = tbl_col(r, src[k]);
		size_t len = strlen(j->prefix) + strlen(base) + 1;
		if (!(j->names[k] = malloc(len)))
			cli_die(EXIT_DATA, "out of memory");
		snprintf(j->names[k], len, "%s%s", j->prefix, base);
	}
	if (max_gap > 0) {
		j->max_gap = max_gap;
	} else {
		double *d = malloc((size_t)(j->n - 1) * sizeof(double));
		if (!d)
			cli_die(EXIT_DATA, "out of memory");
		for (long i = 1; i < j->n; i++)
			d[i - 1] = j->t[i] - j->t[i - 1];
		qsort(d, (size_t)(j->n - 1), sizeof(double), cli_cmp_double);
		j->max_gap = 5 * d[(j->n - 1) / 2];
		free(d);
	}
	j->hold = hold;
	free(row);
	free(src);
	tbl_close(r);
	return j;
}

int
join_at(join_src *j, double t, double *out)
{
	if (t < j->t[0] || t > j->t[j->n - 1]) {
		j->outside++;
		return 0;
	}
	while (j->cur + 1 < j->n && j->t[j->cur + 1] <= t)
		j->cur++;
	long k = j->cur;
	const double *a = j->v + k * j->ncols;
	if (k + 1 == j->n || j->t[k] == t) { /* on a sample */
		memcpy(out, a, (size_t)j->ncols * sizeof(double));
		return 1;
	}
	double t0 = j->t[k], t1 = j->t[k + 1];
	if (t1 - t0 > j->max_gap) {
		j->gaps++;
		return 0;
	}
	const double *b = a + j->ncols, w = (t - t0) / (t1 - t0);
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
	free(j->path);
	free(j);
}
