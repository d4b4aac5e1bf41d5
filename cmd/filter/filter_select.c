/* filter_select.c: tagk-filter's --where and --eval; see filter_select.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "filter_select.h"

static fexpr *
expr_or_die(const char *opt, const char *text, int nvars, const char *const *names, double *vals)
{
	char err[512];
	fexpr *e = fexpr_compile(text, nvars, names, vals, err, sizeof(err));
	/* a long expression is named by its start: the reason must fit */
	if (!e)
		cli_die(EXIT_USAGE, "%s '%.60s%s': %s", opt, text, strlen(text) > 60 ? "..." : "", err);
	return e;
}

void
exprs_open(exprs *x, tbl_reader *r, double *row, const char *where, const char *const *evals, int nev)
{
	memset(x, 0, sizeof(*x));
	x->nev = nev;
	x->nc = tbl_ncols(r);
	x->row = row;
	if (!where && !nev)
		return;
	const char **vn = malloc((size_t)(x->nc + nev) * sizeof(*vn));
	x->vals = calloc((size_t)(x->nc + nev), sizeof(double));
	if (!vn || !x->vals)
		cli_die(EXIT_DATA, "out of memory");
	for (int i = 0; i < x->nc; i++)
		vn[i] = tbl_col(r, i);
	for (int k = 0; k < nev; k++) {
		const char *eq = strchr(evals[k], '=');
		if (!eq || eq == evals[k] || (size_t)(eq - evals[k]) >= sizeof(x->name[k]))
			cli_die(EXIT_USAGE, "--eval: '%s' is not NAME=EXPRESSION", evals[k]);
		snprintf(x->name[k], sizeof(x->name[k]), "%.*s", (int)(eq - evals[k]), evals[k]);
		if (tbl_find(r, x->name[k]) >= 0)
			cli_die(EXIT_USAGE, "--eval %s: the input has a column %s already", x->name[k], x->name[k]);
		for (int j = 0; j < k; j++)
			if (!strcmp(x->name[j], x->name[k]))
				cli_die(EXIT_USAGE, "--eval %s: given twice (a name is one column)", x->name[k]);
		char opt[96];
		snprintf(opt, sizeof(opt), "--eval %s", x->name[k]);
		memcpy(x->vals, row, (size_t)x->nc * sizeof(double));
		x->ev[k] = expr_or_die(opt, eq + 1, x->nc + k, vn, x->vals);
		vn[x->nc + k] = x->name[k];
	}
	if (where) {
		memcpy(x->vals, row, (size_t)x->nc * sizeof(double));
		x->where = expr_or_die("--where", where, x->nc + nev, vn, x->vals);
	}
	free(vn);
}

int
exprs_row(exprs *x, tbl_reader *r, int skip_bad, double *out)
{
	char why[256] = "";
	memcpy(x->vals, x->row, (size_t)x->nc * sizeof(double));
	for (int k = 0; k < x->nev; k++) {
		double v = fexpr_eval(x->ev[k], why, sizeof(why));
		if (!isfinite(v)) {
			if (skip_bad) {
				x->skipped++;
				return 0;
			}
			cli_die(EXIT_DATA, "%s: --eval %s gives %g%s%s (--skip-bad skips such rows)", tbl_where(r),
			    x->name[k], v, *why ? ": " : "", why);
		}
		x->vals[x->nc + k] = out[k] = v;
	}
	if (!x->where)
		return 1;
	double w = fexpr_eval(x->where, why, sizeof(why));
	if (isnan(w)) {
		if (skip_bad) {
			x->skipped++;
			return 0;
		}
		cli_die(EXIT_DATA, "%s: --where is neither true nor false here (NaN%s%s; --skip-bad skips such rows)",
		    tbl_where(r), *why ? ": " : "", why);
	}
	return w != 0;
}

void
exprs_close(exprs *x)
{
	if (x->skipped)
		cli_warn("skipped %ld row%s where an expression was not finite", x->skipped, x->skipped == 1 ? "" : "s");
	for (int k = 0; k < x->nev; k++)
		fexpr_free(x->ev[k]);
	fexpr_free(x->where);
	free(x->vals);
}
