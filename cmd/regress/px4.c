/* px4.c: tagk-regress --preset px4; see px4.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "px4.h"
#include "cli.h"
#include "cmdio.h"
#include "../lib/tagk.h"

static int
param(tbl_reader *r, const char *fmt, int i, double *v)
{
	char name[64];
	snprintf(name, sizeof(name), fmt, i);
	return tbl_param(r, name, v);
}

/* The output channel (1-based) PWM_MAIN_FUNCc gives rotor i (PX4's
 * function Motor i+1, 101 + i), or 0. */
static int
motor_channel(tbl_reader *r, int i)
{
	double f;
	for (int c = 1; c <= 16; c++)
		if (param(r, "PWM_MAIN_FUNC%d", c, &f) && f == 101 + i)
			return c;
	return 0;
}

/* Whether the rotor columns (as --map gives them) are actuator_outputs'
 * PWM rather than a normalised thrust. */
static int
rotors_pwm(const char *rotors)
{
	return rotors && strncmp(rotors, "actuator_outputs.", 17) == 0;
}

/* 1: actuator_motors (normalised thrust), 0: actuator_outputs (PWM, the
 * fallback); dies when the log has neither. */
static int
has_motors(tbl_reader *r)
{
	if (tbl_find(r, "actuator_motors.control.0") >= 0)
		return 1;
	if (tbl_find(r, "actuator_outputs.output.0") >= 0)
		return 0;
	cli_die(EXIT_DATA, "%s: --preset px4: the log has neither actuator_motors nor actuator_outputs: no rotor "
	    "command to read (or name the rotor columns with --map rotors=COLS)", tbl_name(r));
	return 0;
}

/* The number of rotors: CA_ROTOR_COUNT, else the CA_ROTORi_PX there are,
 * else nveh; dies when none says. */
static int
rotor_count(tbl_reader *r, int nveh)
{
	double c;
	int n = 0;
	if (tbl_param(r, "CA_ROTOR_COUNT", &c) && c >= 1 && c <= VEHICLE_MAX_ROTORS)
		n = (int)c;
	else
		while (n < VEHICLE_MAX_ROTORS && param(r, "CA_ROTOR%d_PX", n, &c))
			n++;
	if (n == 0)
		n = nveh;
	if (n == 0)
		cli_die(EXIT_DATA, "%s: --preset px4: no CA_ROTOR_COUNT or CA_ROTOR0_PX parameter (PX4 1.13 and later "
		    "log them): give the rotors in the vehicle file's rotor lines", tbl_name(r));
	return n;
}

int
px4_rotor_cols(tbl_reader *r, int nveh, char *cols, size_t len)
{
	int n = rotor_count(r, nveh), motors = has_motors(r);
	size_t at = 0;
	cols[0] = 0;
	for (int i = 0; i < n && at < len; i++) {
		int ch = motors ? i + 1 : motor_channel(r, i);
		if (!ch)
			cli_die(EXIT_DATA, "%s: --preset px4: no actuator_motors, and no PWM_MAIN_FUNCn parameter is %d "
			    "(Motor %d): which of actuator_outputs' channels drives rotor %d is unknown", tbl_name(r),
			    101 + i, i + 1, i);
		at += (size_t)snprintf(cols + at, len - at, "%s%s.%d", i ? "," : "",
		    motors ? "actuator_motors.control" : "actuator_outputs.output", ch - 1);
	}
	return n;
}

/* The rotors from CA_ROTORi_*, in tagk's body frame. */
static void
rotors_from_params(tbl_reader *r, vehicle *v, int n)
{
	double km_sum = 0, km_min = INFINITY, km_max = 0;
	for (int i = 0; i < n; i++) {
		double px, py, pz = 0, km;
		if (!param(r, "CA_ROTOR%d_PX", i, &px) || !param(r, "CA_ROTOR%d_PY", i, &py) ||
		    !param(r, "CA_ROTOR%d_KM", i, &km))
			cli_die(EXIT_DATA, "%s: --preset px4: rotor %d of %d: no CA_ROTOR%d_PX, _PY or _KM parameter (give "
			    "the rotors in the vehicle file's rotor lines)", tbl_name(r), i, n, i);
		param(r, "CA_ROTOR%d_PZ", i, &pz);
		v->pos[i][0] = px;
		v->pos[i][1] = -py;
		v->pos[i][2] = -pz;
		v->dir[i] = km > 0 ? -1 : 1;
		km_sum += fabs(km);
		km_min = fmin(km_min, fabs(km));
		km_max = fmax(km_max, fabs(km));
	}
	v->n = n;
	v->kappa = km_sum / n;
	if (km_max - km_min > 1e-3 * km_max)
		cli_warn("%s: --preset px4: the rotors' |CA_ROTORi_KM| differ (%g to %g); tagk's vehicle has one "
		    "reaction torque coefficient: their mean, %g m", tbl_name(r), km_min, km_max, v->kappa);
}

/* v's thrust map when the vehicle file gives none. actuator_motors holds
 * each rotor's normalised thrust T / T_max in [0, 1] (the allocator's
 * output): linear, whatever THR_MDL_FAC. That factor is applied after it,
 * by PX4's FunctionMotors::updateValues(), which inverts rel_thrust =
 * fac x^2 + (1 - fac) x into the signal x in [0, 1] written to
 * actuator_outputs as PWM_MAIN_MINc + x (PWM_MAIN_MAXc - PWM_MAIN_MINc):
 * so actuator_outputs (the fallback) is read through that curve, as a
 * polynomial of the PWM itself. */
static void
thrust_curve(tbl_reader *r, vehicle *v, const char *rotors)
{
	v->map_n = 2;
	v->map[0] = 0;
	v->map[1] = 1;
	if (!rotors_pwm(rotors))
		return;
	double fac, lo = NAN, hi = NAN;
	if (!tbl_param(r, "THR_MDL_FAC", &fac))
		cli_die(EXIT_DATA, "%s: --preset px4: the rotors are actuator_outputs' PWM, and no THR_MDL_FAC parameter "
		    "says its thrust", tbl_name(r));
	if (!(fac >= 0 && fac <= 1))
		cli_die(EXIT_DATA, "%s: THR_MDL_FAC %g is not within 0 .. 1", tbl_name(r), fac);
	for (int i = 0; i < v->n; i++) {
		double a, b;
		int c = motor_channel(r, i);
		if (!c)
			cli_die(EXIT_DATA, "%s: --preset px4: the rotors are actuator_outputs' PWM, and no PWM_MAIN_FUNCn "
			    "parameter is %d (Motor %d): rotor %d's PWM range is unknown", tbl_name(r), 101 + i, i + 1, i);
		if (!param(r, "PWM_MAIN_MIN%d", c, &a) || !param(r, "PWM_MAIN_MAX%d", c, &b) || !(b > a))
			cli_die(EXIT_DATA, "%s: --preset px4: the rotors are actuator_outputs' PWM, and rotor %d's channel "
			    "has no PWM_MAIN_MIN%d < PWM_MAIN_MAX%d parameters", tbl_name(r), i, c, c);
		if (i > 0 && (a != lo || b != hi))
			cli_die(EXIT_DATA, "%s: --preset px4: the motors' PWM ranges differ (PWM_MAIN_MIN%d %g .. MAX %g, "
			    "rotor 0's %g .. %g): tagk's thrust map is one for all rotors", tbl_name(r), c, a, b, lo, hi);
		lo = a, hi = b;
	}
	/* T / T_max = fac x^2 + (1 - fac) x, x = s (p - lo), s = 1 / (hi - lo) */
	double s = 1 / (hi - lo);
	v->map_n = 3;
	v->map[0] = fac * s * s * lo * lo - (1 - fac) * s * lo;
	v->map[1] = (1 - fac) * s - 2 * fac * s * s * lo;
	v->map[2] = fac * s * s;
	cli_warn("%s: --preset px4: the rotors are actuator_outputs' PWM: %g .. %g as 0 .. 1, through THR_MDL_FAC "
	    "%g's curve", tbl_name(r), lo, hi, fac);
}

void
px4_vehicle(tbl_reader *r, vehicle *v, int have_file, const char *rotors)
{
	if (!have_file) {
		memset(v, 0, sizeof(*v));
		v->thrust_scale = 1;
		v->mass = v->gate_l_arm = v->gate_alpha = v->map_sd = v->cmd_sd = NAN;
	}
	if (!have_file || v->n == 0)
		rotors_from_params(r, v, rotor_count(r, 0));
	if (v->input == VEH_INPUT_NONE)
		v->input = VEH_INPUT_PWM;
	if (!v->map_n && !v->mapv_n)
		thrust_curve(r, v, rotors);
}

void
px4_frames(double *row, const logmap *lm)
{
	static const int vec[] = { S_ACC, S_ACCW, S_GYRO, S_ALPHA, S_POS, S_VEL };
	for (size_t k = 0; k < sizeof(vec) / sizeof(vec[0]); k++)
		if (lm->have[vec[k]])
			for (int j = 1; j < 3; j++)
				row[lm->idx[vec[k]][j]] = -row[lm->idx[vec[k]][j]];
	if (lm->have[S_QUAT])
		for (int j = 2; j < 4; j++)
			row[lm->idx[S_QUAT][j]] = -row[lm->idx[S_QUAT][j]];
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double
px4_hover_mass(const char *path, const tbl_options *in, const vehicle *v, const char *rotors, long *n,
    double *hover)
{
	struct stat st;
	*n = 0;
	if (!path || strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NAN;
	tbl_options o = *in;
	o.event = "hover_thrust_estimate";
	o.skip_bad = 1;
	char err[1024];
	tbl_reader *r = tbl_open(path, &o, err, sizeof(err));
	if (!r)
		return NAN;
	int ih = tbl_find(r, "hover_thrust_estimate.hover_thrust"), iv = tbl_find(r, "hover_thrust_estimate.valid");
	double *h = NULL, *row = malloc((size_t)tbl_ncols(r) * sizeof(double));
	long cap = 0;
	if (ih >= 0 && row) {
		tbl_want(r, ih);
		tbl_want(r, iv);
		while (tbl_next(r, row) == 1) {
			if ((iv >= 0 && row[iv] == 0) || !(row[ih] > 0 && row[ih] <= 1))
				continue;
			if (*n == cap) {
				cap = cap ? 2 * cap : 1024;
				double *g = realloc(h, (size_t)cap * sizeof(double));
				if (!g)
					cli_die(EXIT_DATA, "out of memory");
				h = g;
			}
			h[(*n)++] = row[ih];
		}
	}
	double m = NAN;
	if (*n > 0) {
		qsort(h, (size_t)*n, sizeof(double), cmp_double);
		*hover = h[(*n - 1) / 2];
		/* hover_thrust is a normalised thrust, as actuator_motors: through
		 * v's map when that reads actuator_motors, linear when it reads
		 * actuator_outputs' PWM (thrust_curve) */
		vehicle lin = *v;
		if (rotors_pwm(rotors))
			lin.input = VEH_INPUT_THRUST;
		double f = 0;
		for (int i = 0; i < v->n; i++)
			f += vehicle_rotor_thrust(&lin, *hover, NAN) * v->thrust_scale + v->thrust_offset / v->n;
		m = f / TAGK_G0;
	}
	free(h);
	free(row);
	tbl_close(r);
	return m;
}
