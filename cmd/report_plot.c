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
#include "cli.h"
#include "cmdio.h"
#include "../formats/outfile.h"
#include "../lib/tagk.h"

enum { MAX_SERIES = 8 };

typedef struct {
	char label[64];
	long n, cap;
	double *t;
	double *v[TAGK_NPARAM];  /* per chosen parameter */
	double *tr[TAGK_NPARAM]; /* its truth, or NULL */
} series;

struct plot {
	int k;                  /* chosen parameters */
	int par[TAGK_NPARAM];   /* their indexes in tagk_param_names */
	int ns;
	series s[MAX_SERIES];
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
		p->par[p->k++] = j;
	}
	return p;
}

static void
grow(plot *p, series *s)
{
	long cap = s->cap ? 2 * s->cap : 1024;
	if (!(s->t = realloc(s->t, (size_t)cap * sizeof(double))))
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < p->k; i++) {
		if (!(s->v[i] = realloc(s->v[i], (size_t)cap * sizeof(double))))
			cli_die(EXIT_DATA, "out of memory");
		if (s->tr[i] && !(s->tr[i] = realloc(s->tr[i], (size_t)cap * sizeof(double))))
			cli_die(EXIT_DATA, "out of memory");
	}
	s->cap = cap;
}

void
plot_read(plot *p, const char *path, const tbl_options *in)
{
	if (p->ns == MAX_SERIES)
		cli_die(EXIT_USAGE, "--plot: at most %d streams on one figure", MAX_SERIES);
	series *s = &p->s[p->ns++];
	tbl_reader *r = cmdio_open_input(path, in);
	const char *name = tbl_name(r), *slash = strrchr(name, '/');
	snprintf(s->label, sizeof(s->label), "%s", slash ? slash + 1 : name);
	char *dot = strchr(s->label, '.');
	if (dot && dot != s->label)
		*dot = 0;
	int it = tbl_find(r, "t"), iv[TAGK_NPARAM], itr[TAGK_NPARAM];
	if (it < 0)
		cli_die(EXIT_DATA, "%s: not an estimate stream: no column t", name);
	tbl_want(r, it);
	for (int i = 0; i < p->k; i++) {
		char tn[40];
		iv[i] = tbl_find(r, tagk_param_names[p->par[i]]);
		if (iv[i] < 0)
			cli_die(EXIT_DATA, "%s: no column %s to plot (--plot-params)", name, tagk_param_names[p->par[i]]);
		tbl_want(r, iv[i]);
		snprintf(tn, sizeof(tn), "true_%s", tagk_param_names[p->par[i]]);
		itr[i] = tbl_find(r, tn);
		if (itr[i] >= 0) {
			tbl_want(r, itr[i]);
			s->tr[i] = malloc(sizeof(double)); /* marks "has truth"; grown below */
			if (!s->tr[i])
				cli_die(EXIT_DATA, "out of memory");
		}
	}
	double *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	if (!row)
		cli_die(EXIT_DATA, "out of memory");
	int rc;
	while ((rc = tbl_next(r, row)) == 1) {
		if (s->n == s->cap)
			grow(p, s);
		s->t[s->n] = row[it];
		for (int i = 0; i < p->k; i++) {
			s->v[i][s->n] = row[iv[i]];
			if (s->tr[i])
				s->tr[i][s->n] = row[itr[i]];
		}
		s->n++;
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (s->n == 0)
		cli_die(EXIT_DATA, "%s: no estimates to plot", name);
	free(row);
	tbl_close(r);
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

static void
draw(plot *p, cairo_t *cr, int W, int H)
{
	const double left = 86, right = 18, top = 34, bottom = 48, gap = 26;
	double ph = (H - top - bottom - gap * (p->k - 1)) / p->k, pw = W - left - right;
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
	cairo_set_font_size(cr, 12);
	/* payload events: where the first stream with truth sees it change */
	const series *ts = NULL;
	for (int si = 0; si < p->ns && !ts; si++)
		for (int i = 0; i < p->k && !ts; i++)
			if (p->s[si].tr[i])
				ts = &p->s[si];
	for (int i = 0; i < p->k; i++) {
		double y0 = top + i * (ph + gap), lo = INFINITY, hi = -INFINITY;
		for (int si = 0; si < p->ns; si++)
			for (long n = 0; n < p->s[si].n; n++) {
				double v = p->s[si].v[i][n];
				if (isfinite(v))
					lo = fmin(lo, v), hi = fmax(hi, v);
				if (p->s[si].tr[i] && isfinite(p->s[si].tr[i][n]))
					lo = fmin(lo, p->s[si].tr[i][n]), hi = fmax(hi, p->s[si].tr[i][n]);
			}
		if (!(hi > lo)) {
			double d = fabs(lo) > 0 ? 0.05 * fabs(lo) : 1;
			lo -= d, hi += d;
		}
		double pad = 0.05 * (hi - lo);
		lo -= pad, hi += pad;
#define X(t) (left + ((t) - t0) / (t1 - t0) * pw)
#define Y(v) (y0 + ph - ((v) - lo) / (hi - lo) * ph)
		/* grid and tick labels */
		cairo_set_line_width(cr, 1);
		double ys = tick_step(lo, hi, 4), xs = tick_step(t0, t1, 8);
		char lab[32];
		for (double v = ceil(lo / ys) * ys; v <= hi; v += ys) {
			cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
			cairo_move_to(cr, left, Y(v));
			cairo_line_to(cr, left + pw, Y(v));
			cairo_stroke(cr);
			cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
			snprintf(lab, sizeof(lab), "%.4g", fabs(v) < 1e-12 * ys ? 0 : v);
			text_at(cr, left - 6, Y(v), lab, 1, 0.5);
		}
		for (double t = ceil(t0 / xs) * xs; t <= t1; t += xs) {
			cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
			cairo_move_to(cr, X(t), y0);
			cairo_line_to(cr, X(t), y0 + ph);
			cairo_stroke(cr);
			if (i == p->k - 1) {
				cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
				snprintf(lab, sizeof(lab), "%.4g", fabs(t) < 1e-12 * xs ? 0 : t);
				text_at(cr, X(t), y0 + ph + 6, lab, 0.5, 1);
			}
		}
		/* events */
		if (ts && ts->tr[i]) {
			double dash[] = { 2, 3 };
			cairo_set_dash(cr, dash, 2, 0);
			cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
			for (long n = 1; n < ts->n; n++)
				if (ts->tr[i][n] != ts->tr[i][n - 1]) {
					cairo_move_to(cr, X(ts->t[n]), y0);
					cairo_line_to(cr, X(ts->t[n]), y0 + ph);
					cairo_stroke(cr);
				}
			cairo_set_dash(cr, NULL, 0, 0);
		}
		/* the lines, clipped to the panel */
		cairo_save(cr);
		cairo_rectangle(cr, left, y0, pw, ph);
		cairo_clip(cr);
		for (int si = 0; si < p->ns; si++) {
			const series *s = &p->s[si];
			if (s->tr[i]) {
				double dash[] = { 6, 4 };
				cairo_set_dash(cr, dash, 2, 0);
				cairo_set_source_rgb(cr, 0, 0, 0);
				cairo_set_line_width(cr, 1.2);
				for (long n = 0; n < s->n; n++)
					(n ? cairo_line_to : cairo_move_to)(cr, X(s->t[n]), Y(s->tr[i][n]));
				cairo_stroke(cr);
				cairo_set_dash(cr, NULL, 0, 0);
			}
			cairo_set_source_rgb(cr, palette[si][0], palette[si][1], palette[si][2]);
			cairo_set_line_width(cr, 1.6);
			int pen = 0;
			for (long n = 0; n < s->n; n++) {
				double v = s->v[i][n];
				if (!isfinite(v)) {
					pen = 0;
					continue;
				}
				(pen ? cairo_line_to : cairo_move_to)(cr, X(s->t[n]), Y(v));
				pen = 1;
			}
			cairo_stroke(cr);
		}
		cairo_restore(cr);
		/* frame and the parameter's name */
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		cairo_set_line_width(cr, 1);
		cairo_rectangle(cr, left, y0, pw, ph);
		cairo_stroke(cr);
		cairo_save(cr);
		cairo_translate(cr, 16, y0 + ph / 2);
		cairo_rotate(cr, -M_PI / 2);
		int j = p->par[i];
		snprintf(lab, sizeof(lab), "%s (%s)", tagk_param_names[j], j == 0 ? "kg" : j <= 3 ? "kg m" : "kg m^2");
		text_at(cr, 0, 0, lab, 0.5, 0.5);
		cairo_restore(cr);
#undef X
#undef Y
	}
	text_at(cr, left + pw / 2, H - 8, "t (s)", 0.5, 0);
	/* legend, on top, left to right */
	double x = left;
	for (int si = 0; si <= p->ns; si++) {
		const char *name = si < p->ns ? p->s[si].label : ts ? "truth" : NULL;
		if (!name)
			break;
		if (si < p->ns)
			cairo_set_source_rgb(cr, palette[si][0], palette[si][1], palette[si][2]);
		else
			cairo_set_source_rgb(cr, 0, 0, 0);
		if (si == p->ns) {
			double dash[] = { 6, 4 };
			cairo_set_dash(cr, dash, 2, 0);
		}
		cairo_set_line_width(cr, 2);
		cairo_move_to(cr, x, 16);
		cairo_line_to(cr, x + 22, 16);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_text_extents_t e;
		cairo_text_extents(cr, name, &e);
		text_at(cr, x + 28, 16, name, 0, 0.5);
		x += 28 + e.x_advance + 18;
	}
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

void
plot_free(plot *p)
{
	for (int si = 0; si < p->ns; si++) {
		free(p->s[si].t);
		for (int i = 0; i < p->k; i++) {
			free(p->s[si].v[i]);
			free(p->s[si].tr[i]);
		}
	}
	free(p);
}
