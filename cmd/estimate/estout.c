/* estout.c: the estimate stream; see estout.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "estout.h"

int
estout_physical(int n, const tagk_real *theta)
{
	if (n % TAGK_NPARAM != 0)
		return n >= 1 && theta[0] > 0;
	for (int b = 0; b < n; b += TAGK_NPARAM)
		if (!tagk_consistent(theta + b, (tagk_real)1e-9))
			return 0;
	return 1;
}

/* estout_scale_from's column for the next estout_open (-1: none). */
static int next_col = -1;

void
estout_scale_from(tbl_reader *r)
{
	next_col = tbl_find(r, "scale_sd");
	if (next_col >= 0)
		tbl_want_nullable(r, next_col);
}

void
estout_scale_row(estout *e, tbl_reader *r, const double *row)
{
	if (!e->sys || isnan(row[e->sys - 1]))
		return;
	double x = row[e->sys - 1];
	if (!(x >= 0 && x <= 1))
		cli_die(EXIT_DATA, "%s: scale_sd %g is not a relative sd (0 to 1)", tbl_where(r), x);
	e->scale_sd = x;
}

void
estout_scale_note(estout *e, const tbl_reader *r)
{
	if (e->sys)
		estout_pass_note(e, r, "scale_sd_of");
}

void
estout_open(estout *e, const char *outname, int n, int sd, int ntrue, const char *const *truth_names)
{
	estout_open_extra(e, outname, n, sd, ntrue, truth_names, 0, NULL);
}

void
estout_open_extra(estout *e, const char *outname, int n, int sd, int ntrue, const char *const *truth_names,
    int nextra, const char *const *extra)
{
	memset(e, 0, sizeof(*e));
	e->n = n;
	e->sd = sd;
	e->ntrue = ntrue;
	e->nextra = nextra;
	/* sys: the input's scale_sd column + 1 (0: none) */
	int sys = sd && next_col >= 0;
	e->sys = sys ? next_col + 1 : 0;
	e->scale_sd = (double)NAN;
	next_col = -1;
	int nc = 1 + n + (sd ? n : 0) + (sys ? n : 0) + 1 + ntrue + nextra;
	const char **names = malloc((size_t)nc * sizeof(*names));
	char (*buf)[40] = malloc((size_t)(3 * n) * sizeof(*buf));
	e->row = malloc((size_t)nc * sizeof(double));
	if (!names || !buf || !e->row)
		cli_die(EXIT_DATA, "out of memory");
	int k = 0;
	names[k++] = "t";
	/* several bodies: m, mcx, ... then m_2, mcx_2, ...; sd_m ... sd_m_2 */
	for (int s = 0; s < (sys ? 3 : sd ? 2 : 1); s++)
		for (int j = 0; j < n; j++) {
			const char *pre = s == 2 ? "sd_sys_" : s ? "sd_" : "", *p = tagk_param_names[j % TAGK_NPARAM];
			if (j < TAGK_NPARAM)
				snprintf(buf[s * n + j], sizeof(buf[0]), "%s%s", pre, p);
			else
				snprintf(buf[s * n + j], sizeof(buf[0]), "%s%s_%d", pre, p, j / TAGK_NPARAM + 1);
			names[k++] = buf[s * n + j];
		}
	names[k++] = "physical";
	for (int j = 0; j < ntrue; j++)
		names[k++] = truth_names[j];
	for (int j = 0; j < nextra; j++)
		names[k++] = extra[j];
	e->out = cmdio_open_output(outname, TBL_AUTO);
	cmdio_header(e->out, nc, names);
	free(names);
	free(buf);
}

void
estout_project(estout *e, int on)
{
	e->project = on && e->n % TAGK_NPARAM == 0;
}

/* The nearest physical body to a rigid body's theta (10 values) into out:
 * J's eigenvalues floored at 1e-9 of the largest; 0 if none can be had (J
 * has no positive eigenvalue: the mass and inertia are all wrong). */
static int
nearest_physical(const tagk_real *theta, tagk_real *out)
{
	tagk_real J[16], w[4], scratch[16];
	tagk_pseudo_inertia(theta, J);
	if (tagk_symeig(4, J, w, NULL, scratch) != TAGK_OK || !(w[3] > 0))
		return 0;
	return tagk_project(theta, (tagk_real)1e-9 * w[3], out) == TAGK_OK;
}

int
estout_row(estout *e, double t, const tagk_real *theta, const tagk_real *sd, const double *truth)
{
	return estout_row_extra(e, t, theta, sd, truth, NULL);
}

int
estout_row_extra(estout *e, double t, const tagk_real *theta, const tagk_real *sd, const double *truth,
    const double *extra)
{
	double *o = e->row;
	int k = 0;
	tagk_real proj[TAGK_MB_MAX_BODIES * TAGK_NPARAM];
	/* physical: the method's estimate, before any projection */
	int phys = estout_physical(e->n, theta);
	if (e->project && !phys && e->n <= TAGK_MB_MAX_BODIES * TAGK_NPARAM) {
		int ok = 1;
		for (int b = 0; b < e->n; b += TAGK_NPARAM)
			if (tagk_consistent(theta + b, (tagk_real)1e-9))
				memcpy(proj + b, theta + b, TAGK_NPARAM * sizeof(*proj));
			else
				ok &= nearest_physical(theta + b, proj + b);
		if (ok) {
			theta = proj;
			e->projected++;
		}
	}
	o[k++] = t;
	for (int j = 0; j < e->n; j++)
		o[k++] = (double)theta[j];
	for (int j = 0; e->sd && j < e->n; j++)
		o[k++] = sd ? (double)sd[j] : (double)NAN;
	for (int j = 0; e->sys && j < e->n; j++)
		o[k++] = e->scale_sd * fabs((double)theta[j]);
	o[k++] = phys;
	for (int j = 0; j < e->ntrue; j++)
		o[k++] = truth[j];
	for (int j = 0; j < e->nextra; j++)
		o[k++] = extra[j];
	cmdio_row(e->out, o);
	e->rows++;
	e->physical += phys;
	return phys;
}

void
estout_pass_note(estout *e, const tbl_reader *r, const char *key)
{
	const char *v = tbl_note(r, key);
	if (v)
		sink_note(e->out, key, v);
}

void
estout_commit(estout *e, int quiet)
{
	cmdio_commit(e->out);
	if (e->projected && !quiet)
		cli_warn("%ld of %ld estimates were not physical bodies and are written as the nearest physical body "
		    "(--raw writes them as the method gave them)", e->projected, e->rows);
	free(e->row);
	e->row = NULL;
}

int
estout_want_truth(tbl_reader *r, int n, int *tidx, const char **names)
{
	int k = 0;
	for (int j = 0; j < n; j++) {
		char tn[32];
		snprintf(tn, sizeof(tn), "true_%s", tagk_param_names[j]);
		int c = tbl_find(r, tn);
		if (c >= 0) {
			tbl_want(r, c);
			tidx[k] = c;
			names[k++] = tbl_col(r, c);
		}
	}
	if (k != 0 && k != n)
		cli_die(EXIT_DATA, "%s: some true_* columns but not all", tbl_name(r));
	return k;
}
