/* report_plot.c: estimates against time, drawn with cairo; see report_plot.h. */
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_plot.h"
#include "report_interval.h"
#include "cli.h"
#include "cmdio.h"
#include "../formats/outfile.h"
#include "../lib/tagk.h"

enum { MAX_SERIES = 8, MAX_POINTS = 8192 };

/* One stream's points. Memory is bounded: at 2 MAX_POINTS points every
 * other one is dropped and from then on only every stride-th row is kept,
 * so a stream of any length keeps between MAX_POINTS and 2 MAX_POINTS. */
typedef struct {
	char label[96];
	long n, rows, stride;
	double *t;
	double *v[TAGK_NPARAM];  /* per chosen parameter */
	double *sd[TAGK_NPARAM]; /* its sd, or NULL (no sd_ column): the total
	                          * (report_total_sd) with sd_sys_ columns */
	char sys_of[48];         /* what their systematic part is of ("": none) */
	double *tr[TAGK_NPARAM]; /* its truth, or NULL */
	int steps;               /* truth from a file: a step function (else lines) */
} series;

struct plot {
	int k;                  /* chosen parameters */
	int par[TAGK_NPARAM];   /* their indexes in tagk_param_names */
	int ns;
	series s[MAX_SERIES];
	series truth;           /* --truth FILE: t and tr[] only (n = 0: none) */
	char title[256];
};

plot *
plot_new(const char *params)
{
	plot *p = calloc(1, sizeof(*p));
	if (!p)
		cli_die(EXIT_DATA, "out of memory");
	if (strcmp(params, "all") == 0) {
		for (int j = 0; j < TAGK_NPARAM; j++)
			p->par[p->k++] = j;
		return p;
	}
	char buf[256], *items[TAGK_NPARAM];
	int n = cli_split("--plot-params", params, buf, sizeof(buf), items, TAGK_NPARAM);
	for (int i = 0; i < n; i++) {
		int j = 0;
		while (j < TAGK_NPARAM && strcmp(items[i], tagk_param_names[j]) != 0)
			j++;
		if (j == TAGK_NPARAM)
			cli_die(EXIT_USAGE, "--plot-params: '%s' is not a parameter (m, mcx, mcy, mcz, Ixx, Ixy, "
			    "Iyy, Ixz, Iyz, Izz, or all)", items[i]);
		for (int q = 0; q < p->k; q++)
			if (p->par[q] == j)
				cli_die(EXIT_USAGE, "--plot-params: '%s' is named twice", items[i]);
		p->par[p->k++] = j;
	}
	return p;
}

static double *
alloc_points(void)
{
	double *a = malloc(2 * MAX_POINTS * sizeof(double));
	if (!a)
		cli_die(EXIT_DATA, "out of memory");
	return a;
}

static void
series_init(series *s, int k, const int *has_sd, const int *has_tr)
{
	s->t = alloc_points();
	s->stride = 1;
	for (int i = 0; i < k; i++) {
		s->v[i] = alloc_points();
		s->sd[i] = has_sd && has_sd[i] ? alloc_points() : NULL;
		s->tr[i] = has_tr[i] ? alloc_points() : NULL;
	}
}

/* Keep every other point (the series is full). */
static void
halve(series *s, int k)
{
	for (long a = 0, b = 0; b < s->n; a++, b += 2) {
		s->t[a] = s->t[b];
		for (int i = 0; i < k; i++) {
			s->v[i][a] = s->v[i][b];
			if (s->sd[i]) s->sd[i][a] = s->sd[i][b];
			if (s->tr[i]) s->tr[i][a] = s->tr[i][b];
		}
	}
	s->n = (s->n + 1) / 2;
	s->stride *= 2;
}

/* One row: t, the values, their sd and truth (columns iv, isd, itr of row;
 * with isys, the sd is the total of sd and sd_sys). */
static void
series_add(series *s, int k, const double *row, int it, const int *iv, const int *isd, const int *isys,
    const int *itr)
{
	if (s->rows++ % s->stride)
		return;
	if (s->n == 2 * MAX_POINTS)
		halve(s, k);
	s->t[s->n] = row[it];
	for (int i = 0; i < k; i++) {
		if (iv) s->v[i][s->n] = row[iv[i]];
		if (s->sd[i]) s->sd[i][s->n] = isys ? report_total_sd(row[isd[i]], row[isys[i]]) : row[isd[i]];
		if (s->tr[i]) s->tr[i][s->n] = row[itr[i]];
	}
	s->n++;
}

/* The column named prefix + the i-th chosen parameter's name, or -1. */
static int
col_of(const plot *p, tbl_reader *r, const char *prefix, int i)
{
	char name[48];
	snprintf(name, sizeof(name), "%s%s", prefix, tagk_param_names[p->par[i]]);
	return tbl_find(r, name);
}

void
plot_read(plot *p, const char *path, const tbl_options *in)
{
	if (p->ns == MAX_SERIES)
		cli_die(EXIT_USAGE, "--plot: at most %d streams on one figure", MAX_SERIES);
	series *s = &p->s[p->ns++];
	tbl_reader *r = cmdio_open_input(path, in);
	const char *name = tbl_name(r);
	int it = tbl_find(r, "t"), iv[TAGK_NPARAM], isd[TAGK_NPARAM], itr[TAGK_NPARAM], isys[TAGK_NPARAM], sys = 1;
	int has_sd[TAGK_NPARAM], has_tr[TAGK_NPARAM];
	if (it < 0)
		cli_die(EXIT_DATA, "%s: not an estimate stream: no column t", name);
	tbl_want(r, it);
	for (int i = 0; i < p->k; i++) {
		if ((iv[i] = col_of(p, r, "", i)) < 0)
			cli_die(EXIT_DATA, "%s: no column %s to plot (--plot-params)", name, tagk_param_names[p->par[i]]);
		tbl_want(r, iv[i]);
		isd[i] = col_of(p, r, "sd_", i);
		tbl_want_nullable(r, isd[i]);
		isys[i] = col_of(p, r, "sd_sys_", i);
		tbl_want_nullable(r, isys[i]);
		sys &= isys[i] >= 0 && isd[i] >= 0;
		itr[i] = col_of(p, r, "true_", i);
		tbl_want(r, itr[i]);
		has_sd[i] = isd[i] >= 0;
		has_tr[i] = itr[i] >= 0 && !p->truth.n;
	}
	series_init(s, p->k, has_sd, has_tr);
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!row)
		cli_die(EXIT_DATA, "out of memory");
	int rc;
	while ((rc = tbl_next(r, row)) == 1)
		series_add(s, p->k, row, it, iv, isd, sys ? isys : NULL, itr);
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (s->n == 0)
		cli_die(EXIT_DATA, "%s: no estimates to plot", name);
	/* the label: the method the stream names (its #tagk-note), else the
	 * file's name without directory and extension */
	const char *method = tbl_note(r, "method"), *slash = strrchr(name, '/');
	char base[64];
	snprintf(base, sizeof(base), "%s", slash ? slash + 1 : name);
	char *dot = strchr(base, '.');
	if (dot && dot != base)
		*dot = 0;
	if (method)
		snprintf(s->label, sizeof(s->label), "%s", method);
	else
		snprintf(s->label, sizeof(s->label), "%s", base);
	/* two streams of one method: their files tell them apart */
	for (int si = 0; si < p->ns - 1; si++)
		if (strcmp(p->s[si].label, s->label) == 0)
			snprintf(s->label, sizeof(s->label), "%.40s (%.40s)", method ? method : "", base);
	if (sys)
		snprintf(s->sys_of, sizeof(s->sys_of), "%s", report_sys_label(r));
	free(row);
	tbl_close(r);
}

void
plot_truth(plot *p, const char *path, int interp)
{
	tbl_reader *r = cmdio_open_input(path, &(tbl_options){ 0 });
	int it = tbl_find(r, "t"), itr[TAGK_NPARAM], has[TAGK_NPARAM];
	if (it < 0)
		cli_die(EXIT_DATA, "%s: the truth file needs a column t", path);
	tbl_want(r, it);
	for (int i = 0; i < p->k; i++) {
		if ((itr[i] = col_of(p, r, "true_", i)) < 0)
			itr[i] = col_of(p, r, "", i);
		tbl_want(r, itr[i]);
		has[i] = itr[i] >= 0;
	}
	series_init(&p->truth, p->k, NULL, has);
	p->truth.steps = !interp;
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!row)
		cli_die(EXIT_DATA, "out of memory");
	int rc;
	while ((rc = tbl_next(r, row)) == 1)
		series_add(&p->truth, p->k, row, it, NULL, NULL, NULL, itr);
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	free(row);
	tbl_close(r);
}

void
plot_title(plot *p, const char *title)
{
	snprintf(p->title, sizeof(p->title), "%s", title);
}

int
plot_height(const plot *p)
{
	int cols = p->k > 4 ? 2 : 1, rows = (p->k + cols - 1) / cols;
	return rows <= 2 ? 540 : 90 + 170 * rows;
}

/* Ticks at 1, 2 or 5 times a power of ten, about n of them over [lo, hi]. */
static double
tick_step(double lo, double hi, int n)
{
	double raw = (hi - lo) / n, p = pow(10, floor(log10(raw))), f = raw / p;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

static const double palette[MAX_SERIES][3] = {
	{ 0.12, 0.47, 0.71 }, { 1.00, 0.50, 0.05 }, { 0.17, 0.63, 0.17 }, { 0.84, 0.15, 0.16 },
	{ 0.58, 0.40, 0.74 }, { 0.55, 0.34, 0.29 }, { 0.89, 0.47, 0.76 }, { 0.50, 0.50, 0.50 },
};

static void
text_at(cairo_t *cr, double x, double y, const char *s, double ax, double ay)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - ax * e.width - e.x_bearing, y + ay * e.height);
	cairo_show_text(cr, s);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Panel i's y range: the estimates' 1st to 99th percentile (all of them
 * below 100 points), so that one method's spikes do not flatten the rest,
 * widened to hold the whole truth; then padded. */
static void
y_range(const plot *p, int i, double *lo, double *hi)
{
	long total = 0;
	for (int si = 0; si < p->ns; si++)
		total += p->s[si].n;
	double *all = malloc((size_t)(total ? total : 1) * sizeof(double));
	if (!all)
		cli_die(EXIT_DATA, "out of memory");
	long n = 0;
	for (int si = 0; si < p->ns; si++)
		for (long k = 0; k < p->s[si].n; k++)
			if (isfinite(p->s[si].v[i][k]))
				all[n++] = p->s[si].v[i][k];
	*lo = INFINITY;
	*hi = -INFINITY;
	if (n) {
		qsort(all, (size_t)n, sizeof(double), cmp_double);
		long cut = n >= 100 ? n / 100 : 0;
		*lo = all[cut];
		*hi = all[n - 1 - cut];
	}
	free(all);
	const series *tl[MAX_SERIES + 1];
	int nt = 0;
	for (int si = 0; si < p->ns; si++)
		tl[nt++] = &p->s[si];
	tl[nt++] = &p->truth;
	for (int a = 0; a < nt; a++)
		for (long k = 0; tl[a]->tr[i] && k < tl[a]->n; k++)
			if (isfinite(tl[a]->tr[i][k]))
				*lo = fmin(*lo, tl[a]->tr[i][k]), *hi = fmax(*hi, tl[a]->tr[i][k]);
	if (!(*hi > *lo)) {
		double d = isfinite(*lo) && fabs(*lo) > 0 ? 0.05 * fabs(*lo) : 1;
		*lo = (isfinite(*lo) ? *lo : 0) - d;
		*hi = (isfinite(*hi) ? *hi : 0) + d;
	}
	double pad = 0.08 * (*hi - *lo);
	*lo -= pad;
	*hi += pad;
}

typedef struct {
	double left, top, w, h; /* the panel's frame */
	double t0, t1, lo, hi;  /* its axes */
} panel;

static double px(const panel *g, double t) { return g->left + (t - g->t0) / (g->t1 - g->t0) * g->w; }
static double py(const panel *g, double v) { return g->top + g->h - (v - g->lo) / (g->hi - g->lo) * g->h; }

static void
draw_grid(cairo_t *cr, const panel *g, int xlabels)
{
	char lab[32];
	double ys = tick_step(g->lo, g->hi, 4), xs = tick_step(g->t0, g->t1, 6);
	cairo_set_line_width(cr, 1);
	for (double v = ceil(g->lo / ys) * ys; v <= g->hi; v += ys) {
		cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
		cairo_move_to(cr, g->left, py(g, v));
		cairo_line_to(cr, g->left + g->w, py(g, v));
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		snprintf(lab, sizeof(lab), "%.4g", fabs(v) < 1e-12 * ys ? 0 : v);
		text_at(cr, g->left - 6, py(g, v), lab, 1, 0.5);
	}
	for (double t = ceil(g->t0 / xs) * xs; t <= g->t1; t += xs) {
		cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
		cairo_move_to(cr, px(g, t), g->top);
		cairo_line_to(cr, px(g, t), g->top + g->h);
		cairo_stroke(cr);
		if (xlabels) {
			cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
			snprintf(lab, sizeof(lab), "%.4g", fabs(t) < 1e-12 * xs ? 0 : t);
			text_at(cr, px(g, t), g->top + g->h + 6, lab, 0.5, 1);
		}
	}
}

/* The truth of panel i: dotted verticals at its changes, then the line
 * (dashed black; a step function when it comes from a truth file). */
static void
draw_truth(cairo_t *cr, const panel *g, const series *s, int i)
{
	double dots[] = { 2, 3 }, dash[] = { 6, 4 };
	cairo_set_dash(cr, dots, 2, 0);
	cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
	cairo_set_line_width(cr, 1);
	for (long n = 1; n < s->n; n++)
		if (s->tr[i][n] != s->tr[i][n - 1]) {
			cairo_move_to(cr, px(g, s->t[n]), g->top);
			cairo_line_to(cr, px(g, s->t[n]), g->top + g->h);
			cairo_stroke(cr);
		}
	cairo_set_dash(cr, dash, 2, 0);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 1.2);
	for (long n = 0; n < s->n; n++) {
		double y = py(g, s->tr[i][n]);
		if (n == 0)
			cairo_move_to(cr, px(g, s->t[n]), y);
		else if (s->steps)
			cairo_line_to(cr, px(g, s->t[n]), py(g, s->tr[i][n - 1])), cairo_line_to(cr, px(g, s->t[n]), y);
		else
			cairo_line_to(cr, px(g, s->t[n]), y);
	}
	if (s->steps && s->n)
		cairo_line_to(cr, px(g, g->t1), py(g, s->tr[i][s->n - 1]));
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
}

/* The 95 % band, estimate +- 1.96 sd, where the sd is known. */
static void
draw_band(cairo_t *cr, const panel *g, const series *s, int i, const double *rgb)
{
	long a = 0;
	while (a < s->n) {
		while (a < s->n && !(isfinite(s->sd[i][a]) && isfinite(s->v[i][a])))
			a++;
		long b = a;
		while (b < s->n && isfinite(s->sd[i][b]) && isfinite(s->v[i][b]))
			b++;
		if (b - a >= 2) {
			for (long n = a; n < b; n++)
				(n == a ? cairo_move_to : cairo_line_to)(cr, px(g, s->t[n]), py(g, s->v[i][n] + 1.96 * s->sd[i][n]));
			for (long n = b - 1; n >= a; n--)
				cairo_line_to(cr, px(g, s->t[n]), py(g, s->v[i][n] - 1.96 * s->sd[i][n]));
			cairo_close_path(cr);
			cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.18);
			cairo_fill(cr);
		}
		a = b;
	}
}

/* The estimates of one stream; those off the panel's range are drawn as
 * ticks on its edge, and counted. */
static long
draw_line(cairo_t *cr, const panel *g, const series *s, int i, const double *rgb)
{
	long off = 0;
	cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
	cairo_set_line_width(cr, 1.6);
	int pen = 0;
	for (long n = 0; n < s->n; n++) {
		double v = s->v[i][n];
		if (!isfinite(v)) {
			pen = 0;
			continue;
		}
		(pen ? cairo_line_to : cairo_move_to)(cr, px(g, s->t[n]), py(g, v));
		pen = 1;
	}
	cairo_stroke(cr);
	for (long n = 0; n < s->n; n++) {
		double v = s->v[i][n];
		if (!isfinite(v) || (v >= g->lo && v <= g->hi))
			continue;
		double y = v > g->hi ? g->top + 1 : g->top + g->h - 1, d = v > g->hi ? 5 : -5;
		cairo_move_to(cr, px(g, s->t[n]) - 3, y + d);
		cairo_line_to(cr, px(g, s->t[n]), y);
		cairo_line_to(cr, px(g, s->t[n]) + 3, y + d);
		cairo_close_path(cr);
		cairo_fill(cr);
		off++;
	}
	return off;
}

static void
draw_panel(plot *p, cairo_t *cr, const panel *g, int i, int xlabels)
{
	draw_grid(cr, g, xlabels);
	cairo_save(cr);
	cairo_rectangle(cr, g->left, g->top, g->w, g->h);
	cairo_clip(cr);
	for (int si = 0; si < p->ns; si++)
		if (p->s[si].sd[i])
			draw_band(cr, g, &p->s[si], i, palette[si]);
	const series *truth = p->truth.n && p->truth.tr[i] ? &p->truth : NULL;
	for (int si = 0; si < p->ns && !truth; si++)
		if (p->s[si].tr[i])
			truth = &p->s[si];
	if (truth)
		draw_truth(cr, g, truth, i);
	long off = 0;
	for (int si = 0; si < p->ns; si++)
		off += draw_line(cr, g, &p->s[si], i, palette[si]);
	cairo_restore(cr);
	char lab[64];
	if (off) {
		snprintf(lab, sizeof(lab), "%ld off scale (edge marks)", off);
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
		text_at(cr, g->left + g->w, g->top - 4, lab, 1, 0);
	}
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, g->left, g->top, g->w, g->h);
	cairo_stroke(cr);
	cairo_save(cr);
	cairo_translate(cr, g->left - 70, g->top + g->h / 2);
	cairo_rotate(cr, -M_PI / 2);
	int j = p->par[i];
	snprintf(lab, sizeof(lab), "%s (%s)", tagk_param_names[j], j == 0 ? "kg" : j <= 3 ? "kg m" : "kg m^2");
	text_at(cr, 0, 0, lab, 0.5, 0.5);
	cairo_restore(cr);
}

/* The legend, under the title, left to right: one entry per stream, then
 * the truth and the band when drawn. */
static void
draw_legend(plot *p, cairo_t *cr, double x, double y)
{
	int truth = p->truth.n > 0, band = 0;
	const char *sys = NULL;
	for (int si = 0; si < p->ns; si++)
		for (int i = 0; i < p->k; i++) {
			truth |= p->s[si].tr[i] != NULL, band |= p->s[si].sd[i] != NULL;
			if (p->s[si].sd[i] && p->s[si].sys_of[0])
				sys = !sys || strcmp(sys, p->s[si].sys_of) == 0 ? p->s[si].sys_of : "systematic";
		}
	/* the band is the total interval where a stream has its systematic
	 * part (sd_sys_), and says so */
	char bandname[96];
	snprintf(bandname, sizeof(bandname), sys ? "95 %% interval, total (noise + %s)" : "95 %% interval", sys);
	for (int e = 0; e < p->ns + 2; e++) {
		const char *name = e < p->ns ? p->s[e].label : e == p->ns ? (truth ? "truth" : NULL)
		    : (band ? bandname : NULL);
		if (!name)
			continue;
		if (e < p->ns)
			cairo_set_source_rgb(cr, palette[e][0], palette[e][1], palette[e][2]);
		else
			cairo_set_source_rgb(cr, 0, 0, 0);
		if (e == p->ns + 1) {
			cairo_set_source_rgba(cr, 0.3, 0.3, 0.3, 0.25);
			cairo_rectangle(cr, x, y - 5, 22, 10);
			cairo_fill(cr);
		} else {
			double dash[] = { 6, 4 };
			if (e == p->ns)
				cairo_set_dash(cr, dash, 2, 0);
			cairo_set_line_width(cr, 2);
			cairo_move_to(cr, x, y);
			cairo_line_to(cr, x + 22, y);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
		}
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_text_extents_t te;
		cairo_text_extents(cr, name, &te);
		text_at(cr, x + 28, y, name, 0, 0.5);
		x += 28 + te.x_advance + 18;
	}
}

static void
draw(plot *p, cairo_t *cr, int W, int H)
{
	const double left = 96, right = 18, top = 62, bottom = 44, hgap = 34, vgap = 100;
	int cols = p->k > 4 ? 2 : 1, rows = (p->k + cols - 1) / cols;
	double pw = (W - left - right - vgap * (cols - 1)) / cols, ph = (H - top - bottom - hgap * (rows - 1)) / rows;
	double t0 = INFINITY, t1 = -INFINITY;
	for (int si = 0; si < p->ns; si++) {
		t0 = fmin(t0, p->s[si].t[0]);
		t1 = fmax(t1, p->s[si].t[p->s[si].n - 1]);
	}
	if (!(t1 > t0))
		t1 = t0 + 1;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 14);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	text_at(cr, W / 2.0, 8, p->title, 0.5, 1);
	cairo_set_font_size(cr, 12);
	draw_legend(p, cr, left, 44);
	for (int i = 0; i < p->k; i++) {
		int c = i % cols, r = i / cols;
		panel g = { left + c * (pw + vgap), top + r * (ph + hgap), pw, ph, t0, t1, 0, 0 };
		y_range(p, i, &g.lo, &g.hi);
		draw_panel(p, cr, &g, i, r == rows - 1 || i + cols >= p->k);
	}
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	text_at(cr, W / 2.0, H - 8, "t (s)", 0.5, 0);
}

/* cairo's write callback onto a stdio stream. */
static cairo_status_t
cairo_write(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

void
plot_write(plot *p, const char *path, int W, int H)
{
	const char *dot = strrchr(path, '.');
	int png = dot && strcmp(dot, ".png") == 0, svg = dot && strcmp(dot, ".svg") == 0,
	    pdf = dot && strcmp(dot, ".pdf") == 0;
	if (!png && !svg && !pdf)
		cli_die(EXIT_USAGE, "--plot: '%s' does not end in .png, .svg or .pdf", path);
	cmdio_file out;
	cmdio_file_open(&out, path);
	/* cairo writes through the output's stream, never by name */
	cairo_surface_t *sf = png ? cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H)
	    : svg ? cairo_svg_surface_create_for_stream(cairo_write, out.f, W, H)
	    : cairo_pdf_surface_create_for_stream(cairo_write, out.f, W, H);
	cairo_t *cr = cairo_create(sf);
	draw(p, cr, W, H);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	if (png && st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_write_to_png_stream(sf, cairo_write, out.f);
	cairo_surface_finish(sf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(sf);
	cairo_surface_destroy(sf);
	if (st != CAIRO_STATUS_SUCCESS)
		cli_die(EXIT_DATA, "%s: cannot write the plot: %s", path, cairo_status_to_string(st));
	cmdio_file_commit(&out);
}

static void
series_free(series *s, int k)
{
	free(s->t);
	for (int i = 0; i < k; i++) {
		free(s->v[i]);
		free(s->sd[i]);
		free(s->tr[i]);
	}
}

void
plot_free(plot *p)
{
	for (int si = 0; si < p->ns; si++)
		series_free(&p->s[si], p->k);
	series_free(&p->truth, p->k);
	free(p);
}
