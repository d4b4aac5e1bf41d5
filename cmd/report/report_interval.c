/* report_interval.c: a parameter's total uncertainty; see report_interval.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report_interval.h"
#include "cli.h"
#include "../lib/tagk.h"

double
report_total_sd(double sd_noise, double sd_sys)
{
	if (isnan(sd_noise))
		return (double)NAN;
	if (isnan(sd_sys))
		return sd_noise;
	return hypot(sd_noise, sd_sys);
}

int
report_sys_columns(tbl_reader *r, int np, int *isys)
{
	int all = 1, some = 0;
	for (int j = 0; j < np; j++) {
		char name[48];
		snprintf(name, sizeof(name), "sd_sys_%s", tagk_param_names[j]);
		all &= (isys[j] = tbl_find(r, name)) >= 0;
		some += isys[j] >= 0;
	}
	/* some without the rest: their systematic part would be dropped from
	 * every interval without a word */
	if (some && !all)
		cli_die(EXIT_DATA, "%s: sd_sys_ columns for %d of the %d parameters: give all or none", tbl_name(r),
		    some, np);
	for (int j = 0; j < np; j++) {
		if (!all)
			isys[j] = -1;
		else
			tbl_want_nullable(r, isys[j]);
	}
	return all;
}

const char *
report_sys_label(const tbl_reader *r)
{
	const char *v = tbl_note(r, "scale_sd_of");
	return v && *v ? v : "scale";
}

double
report_sd_cell(tbl_reader *r, int col, double x)
{
	if (x < 0)
		cli_die(EXIT_DATA, "%s: column '%s': %g is not an sd (negative)", tbl_where(r), tbl_col(r, col), x);
	return x;
}

const char *
report_noise_form(const char *sd_noise)
{
	if (sd_noise && strcmp(sd_noise, "newey-west") == 0)
		return "Newey-West: correlated residuals count";
	if (sd_noise && strcmp(sd_noise, "white") == 0)
		/* not "too short": a state filter's own variance (ekf, msckf,
		 * ukf) measured 3.5 to 5 times their error, its process noise
		 * wider than the flight's */
		return "white residuals assumed: the method's own variance, which does not count correlated residuals";
	if (sd_noise && strcmp(sd_noise, "spread") == 0)
		return "white residuals assumed: the spread of the method's last estimates, too short if they are "
		    "correlated";
	return "the stream does not say whether correlated residuals count";
}
