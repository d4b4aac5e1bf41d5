/* report_check.c: tagk-report's plausibility checks; see report_check.h. */
#include <math.h>
#include <stdlib.h>
#include "cli.h"
#include "report_check.h"
#include "../lib/tagk.h"

int
plaus_physical(int np, const double *theta)
{
	if (!(theta[0] > 0))
		return 0;
	if (np != TAGK_NPARAM)
		return 1;
	tagk_real t[TAGK_NPARAM];
	for (int j = 0; j < TAGK_NPARAM; j++)
		t[j] = (tagk_real)theta[j];
	return tagk_consistent(t, (tagk_real)1e-9);
}

void
plaus_count_init(plaus_count *c, tbl_reader *r)
{
	c->col = tbl_find(r, "physical");
	c->physical = c->projected = 0;
	tbl_want(r, c->col);
}

void
plaus_count_row(plaus_count *c, int np, const double *est, const double *row)
{
	int values = plaus_physical(np, est);
	int method = c->col >= 0 ? row[c->col] != 0 : values;
	c->physical += method;
	c->projected += !method && values;
}

void
plaus_count_print(FILE *o, const char *h, const plaus_count *c, long n)
{
	fprintf(o, "%sphysical bodies: %ld of %ld estimates (%.0f %%)", h, c->physical, n,
	    n ? 100.0 * (double)c->physical / (double)n : 0.0);
	if (c->projected)
		fprintf(o, " as the method gave them; %ld more written as the nearest physical body", c->projected);
	fprintf(o, "\n");
}

double
plaus_sd(int j, double x, double sd)
{
	(void)j, (void)x;
	return sd;
}

int
plaus_determined(double x, double sd, double med, double iqr, int unexcited)
{
	if (unexcited)
		return PLAUS_UNEXCITED;
	if (1.96 * sd > fabs(x))
		return PLAUS_WIDE;
	if (iqr > fabs(med))
		return PLAUS_WANDERS;
	return PLAUS_DETERMINED;
}

const char *
plaus_why(int why)
{
	switch (why) {
	case PLAUS_UNEXCITED: return "the data did not excite it (tagk-estimate's note)";
	case PLAUS_WIDE: return "its 95 % interval is wider than its size";
	case PLAUS_WANDERS: return "its quartiles over the run are farther apart than its size";
	}
	return "determined";
}

/* Which of the checks of the body a set of determined parameters allows:
 * 2 the whole body, 1 the mass alone, 0 none. The body is judged when its
 * mass and its moments of inertia (Ixx, Iyy, Izz) are determined and the
 * data excited every direction: a first moment or a product of inertia
 * whose interval is merely wider than its size is near zero, within its
 * interval, and decides little of whether the body is physical. */
int
plaus_judgeable(int np, const int *det)
{
	if (!det)
		return 2;
	static const int key[] = { 0, 4, 6, 9 }; /* m, Ixx, Iyy, Izz */
	int all = 1;
	for (int j = 0; j < np; j++)
		all &= det[j] != PLAUS_UNEXCITED;
	for (size_t k = 0; k < sizeof(key) / sizeof(key[0]) && key[k] < np; k++)
		all &= det[key[k]] == PLAUS_DETERMINED;
	return all ? 2 : det[0] == PLAUS_DETERMINED;
}

void
plaus_check(plaus *p, const char *name, const char *what, int np, const double *theta, long physical, long n,
    const int *det)
{
	int judge = plaus_judgeable(np, det);
	/* the mass alone: a body whose inertia the data do not determine is
	 * judged by m > 0 (its pseudo-inertia's bottom corner) */
	int body_ok = judge == 2 ? plaus_physical(np, theta) : judge == 1 ? theta[0] > 0 : 1;
	if (!body_ok) {
		p->warnings++;
		if (!(theta[0] > 0))
			cli_warn("%s: the %s mass, %.4g kg, is not physical (m <= 0): the data do not determine it, or the "
			    "method does not fit them", name, what, theta[0]);
		else
			cli_warn("%s: the %s body is not physical: its inertia about the centre of mass has a negative "
			    "principal moment or one larger than the other two together (the pseudo-inertia is not "
			    "positive semidefinite); without rotational excitation a flight does not determine the "
			    "inertia (tagk-filter --project gives the nearest physical body)", name, what);
	}
	if (judge == 2 && n > 0 && 2 * physical < n) {
		p->warnings++;
		cli_warn("%s: only %ld of %ld estimates (%.0f %%) are physical bodies", name, physical, n,
		    100.0 * (double)physical / (double)n);
	}
}

double
plaus_nominal_of(const plaus *p, const tbl_reader *r)
{
	const char *note = tbl_note(r, "nominal_mass");
	char *end;
	double v = note ? strtod(note, &end) : (double)NAN;
	if (!isnan(p->nominal) || !note || end == note || *end || !(v > 0) || !isfinite(v))
		return p->nominal;
	return v;
}

void
plaus_nominal(plaus *p, double nominal, const char *name, const char *what, double m, double sd)
{
	double f = m / nominal, z = fabs(m - nominal) / sd;
	if (isnan(nominal) || !(m > 0))
		return;
	const char *cause = f > 1 ? "a payload that heavy" : "less than the vehicle itself";
	if (sd > 0 && z > PLAUS_Z) {
		p->warnings++;
		cli_warn("%s: the %s mass, %.4g kg, is %.2f times the vehicle's nominal %.4g kg and %s sd from it, beyond its "
		    "95 %% interval (+- %.2g kg): %s, or a thrust model that is off (commanded thrust is not thrust: "
		    "calibrate on a flight of known mass)", name, what, m, f, nominal, cli_approx(z), 1.96 * sd,
		    cause);
	} else if (!(sd > 0) && (f > PLAUS_FACTOR || f < 1 / PLAUS_FACTOR)) {
		/* no interval to judge by: only a factor that no payload makes */
		p->warnings++;
		cli_warn("%s: the %s mass, %.4g kg, is %.2f times the vehicle's nominal %.4g kg (beyond a factor of "
		    "%g, and the stream has no sd to judge by): %s, or a thrust model that is off (commanded thrust "
		    "is not thrust: calibrate on a flight of known mass)", name, what, m, f, nominal, PLAUS_FACTOR,
		    cause);
	}
}

void
plaus_upstream(plaus *p, const char *name, tbl_reader *r)
{
	for (int i = 0; i < tbl_nwarnings(r); i++) {
		p->warnings++;
		cli_warn("%s: upstream, %s", name, tbl_warning(r, i));
	}
}
