/* report_ncc.c: tagk-report --ncc; see report_ncc.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "report_ncc.h"
#include "../lib/tagk.h"

enum { MAX_PAIRS = 64 };

void
report_ncc(tbl_reader *r, double max_shift, FILE *o, enum report_fmt fmt)
{
	int it = tbl_find(r, "t"), im[MAX_PAIRS], ipr[MAX_PAIRS], np = 0;
	if (it < 0)
		cli_die(EXIT_DATA, "%s: --ncc needs a column t", tbl_name(r));
	tbl_want(r, it);
	for (int c = 0; c < tbl_ncols(r); c++) {
		const char *name = tbl_col(r, c);
		if (strncmp(name, "pred_", 5) != 0)
			continue;
		if (np == MAX_PAIRS)
			cli_die(EXIT_DATA, "%s: --ncc scores at most %d pred_* columns", tbl_name(r), MAX_PAIRS);
		int m = tbl_find(r, name + 5);
		if (m < 0)
			cli_die(EXIT_DATA, "%s: column %s has no measured column %s to be scored against", tbl_name(r), name,
			    name + 5);
		ipr[np] = c;
		im[np++] = m;
		tbl_want(r, c);
		tbl_want(r, m);
	}
	if (np == 0)
		cli_die(EXIT_DATA, "%s: --ncc: no pred_* columns (a prediction of column X is named pred_X)", tbl_name(r));
	long n = 0, cap = 0;
	/* rows as read, np values each; turned into columns at the end */
	double *t = NULL, *row = malloc((size_t)tbl_ncols(r) * sizeof(*row)), *vals = NULL;
	if (!row)
		cli_die(EXIT_DATA, "out of memory");
	int rc;
	while ((rc = tbl_next(r, row)) == 1) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			t = realloc(t, (size_t)cap * sizeof(*t));
			vals = realloc(vals, (size_t)cap * 2 * np * sizeof(*vals));
			if (!t || !vals)
				cli_die(EXIT_DATA, "out of memory");
		}
		if (n && !(row[it] > t[n - 1]))
			cli_die(EXIT_DATA, "%s: time does not increase", tbl_where(r));
		t[n] = row[it];
		for (int k = 0; k < np; k++) {
			vals[(size_t)n * 2 * np + 2 * k] = row[im[k]];
			vals[(size_t)n * 2 * np + 2 * k + 1] = row[ipr[k]];
		}
		n++;
	}
	if (rc < 0)
		cli_die(EXIT_DATA, "%s", tbl_error(r));
	if (n < 2)
		cli_die(EXIT_DATA, "%s: --ncc needs at least 2 rows", tbl_name(r));
	/* the median spacing turns the shift in seconds into samples */
	double *dt = malloc((size_t)(n - 1) * sizeof(*dt));
	if (!dt)
		cli_die(EXIT_DATA, "out of memory");
	for (long i = 0; i + 1 < n; i++)
		dt[i] = t[i + 1] - t[i];
	qsort(dt, (size_t)(n - 1), sizeof(*dt), cli_cmp_double);
	double spacing = dt[(n - 1) / 2];
	free(dt);
	long shift = (long)floor(max_shift / spacing + 1e-9);
	char span[96];
	if (fmt == F_CSV)
		fprintf(o, "column,n,ncc,max_shift_samples\n");
	else if (fmt == F_JSON)
		fprintf(o, "{\n  \"input\": \"%s\",\n  \"max_shift_samples\": %ld,\n  \"ncc\": {", tbl_name(r), shift);
	else if (fmt == F_MD)
		fprintf(o, "| column | n | ncc |\n|---|---|---|\n");
	else
		fprintf(o, "# %s: %ld rows, t %s; NCC of pred_X against X, best over shifts of up to %ld "
		    "sample%s (%g s)\n\n%-16s %8s %8s\n", tbl_name(r), n, cli_span(span, sizeof(span), t[0], t[n - 1]),
		    shift, shift == 1 ? "" : "s", (double)shift * spacing, "column", "n", "ncc");
	tagk_real *meas = malloc((size_t)n * sizeof(*meas)), *pred = malloc((size_t)n * sizeof(*pred));
	if (!meas || !pred)
		cli_die(EXIT_DATA, "out of memory");
	for (int k = 0; k < np; k++) {
		for (long i = 0; i < n; i++) {
			meas[i] = (tagk_real)vals[(size_t)i * 2 * np + 2 * k];
			pred[i] = (tagk_real)vals[(size_t)i * 2 * np + 2 * k + 1];
		}
		double v = (double)tagk_ncc(meas, pred, n, shift);
		const char *name = tbl_col(r, im[k]);
		if (fmt == F_CSV)
			isnan(v) ? fprintf(o, "%s,%ld,,%ld\n", name, n, shift) : fprintf(o, "%s,%ld,%.10g,%ld\n", name, n, v, shift);
		else if (fmt == F_JSON)
			isnan(v) ? fprintf(o, "%s\n    \"%s\": null", k ? "," : "", name)
				 : fprintf(o, "%s\n    \"%s\": %.10g", k ? "," : "", name, v);
		else if (fmt == F_MD)
			isnan(v) ? fprintf(o, "| %s | %ld | undefined |\n", name, n) : fprintf(o, "| %s | %ld | %.4f |\n", name, n, v);
		else
			isnan(v) ? fprintf(o, "%-16s %8ld %9s\n", name, n, "undefined") : fprintf(o, "%-16s %8ld %8.4f\n", name, n, v);
		if (isnan(v))
			cli_warn("--ncc: %s: no correlation: %s or pred_%s is constant", name, name, name);
	}
	if (fmt == F_JSON)
		fprintf(o, "\n  }\n}\n");
	free(t);
	free(vals);
	free(meas);
	free(pred);
	free(row);
}
