/* vehicle.c: the vehicle file; see vehicle.h. Read through keyval.h: every
 * number whole and in its physical range, every key but 'rotor' once. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "keyval.h"
#include "outfile.h"
#include "sink.h"
#include "vehicle.h"

/* The physical ranges of the values (SI units), wide enough for any
 * multirotor from a 10 g toy to a 100 kg lifter, narrow enough that a
 * misplaced exponent or a unit slip (mm for m) is caught. */
#define ROTOR_POS_MAX 10.0  /* m from the body origin */
#define KF_MAX 1e-2         /* N / (rad/s)^2 */
#define KAPPA_MAX 1.0       /* N m per N */
#define L_ARM_MAX 10.0      /* m */
#define ALPHA_MAX 1e4       /* kg m^2 */
#define COEF_MAX 1e6        /* a thrust map's coefficients, N per unit^k */
#define SCALE_MAX 100.0     /* thrust_scale in (0, 100] */
#define OFFSET_MAX 1e4      /* N */
#define TAU_MAX 10.0        /* s */
#define MASS_MAX 1e4        /* kg */

/* Which keys have been seen, and on which line. */
typedef struct {
	int input, kf, kappa, l_arm, alpha, map, mapv, scale, offset, tau, mass, map_sd, cmd_sd;
} seen;

static int
rotor_line(kv_reader *k, vehicle *v)
{
	double x[4];
	if (kv_count(k, 4, "rotor X Y Z DIR") != 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (kv_number(k, 1 + i, -ROTOR_POS_MAX, ROTOR_POS_MAX, "m", &x[i]) != 0)
			return -1;
	if (kv_number(k, 4, -1, 1, "", &x[3]) != 0 || (x[3] != 1 && x[3] != -1))
		return kv_fail(k, "'rotor': DIR is +1 or -1 (the sign of its reaction torque about z), not %s", k->w[4]);
	if (v->n == VEHICLE_MAX_ROTORS)
		return kv_fail(k, "at most %d rotors", VEHICLE_MAX_ROTORS);
	for (int i = 0; i < 3; i++)
		v->pos[v->n][i] = x[i];
	v->dir[v->n++] = x[3];
	return 0;
}

/* A polynomial's coefficients: any of the counts allowed (n1 .. n2, or
 * exactly one of the two when two_counts). */
static int
coefficients(kv_reader *k, int lo, int hi, int two_counts, const char *usage, double *c, int *n)
{
	int got = k->nw - 1;
	if (two_counts ? got != lo && got != hi : got < lo || got > hi)
		return kv_fail(k, "expected '%s' (%d%s%d coefficients, found %d)", usage, lo, two_counts ? " or " : " to ",
		    hi, got);
	for (int i = 0; i < got; i++)
		if (kv_number(k, 1 + i, -COEF_MAX, COEF_MAX, "", &c[i]) != 0)
			return -1;
	*n = got;
	return 0;
}

static int
input_line(kv_reader *k, vehicle *v, seen *s)
{
	if (kv_once(k, &s->input) != 0 || kv_count(k, 1, "input thrust|speed|pwm") != 0)
		return -1;
	const char *w = k->w[1];
	v->input = strcmp(w, "thrust") == 0 ? VEH_INPUT_THRUST : strcmp(w, "speed") == 0 ? VEH_INPUT_SPEED
	    : strcmp(w, "pwm") == 0 ? VEH_INPUT_PWM : VEH_INPUT_NONE;
	if (v->input == VEH_INPUT_NONE)
		return kv_fail(k, "expected 'input thrust', 'input speed' or 'input pwm', not '%s'", w);
	return 0;
}

static int
key_line(kv_reader *k, vehicle *v, seen *s)
{
	const char *key = k->w[0];
	if (strcmp(key, "rotor") == 0)
		return rotor_line(k, v);
	if (strcmp(key, "input") == 0)
		return input_line(k, v, s);
	if (strcmp(key, "kf") == 0)
		return kv_once(k, &s->kf) || kv_count(k, 1, "kf K") || kv_positive(k, 1, KF_MAX, "N/(rad/s)^2", &v->kf)
		    ? -1 : 0;
	if (strcmp(key, "kappa") == 0)
		return kv_once(k, &s->kappa) || kv_count(k, 1, "kappa K") || kv_number(k, 1, 0, KAPPA_MAX, "m", &v->kappa)
		    ? -1 : 0;
	if (strcmp(key, "thrust_map") == 0)
		return kv_once(k, &s->map) || coefficients(k, 2, 4, 0, "thrust_map C0 C1 [C2 [C3]]", v->map, &v->map_n)
		    ? -1 : 0;
	if (strcmp(key, "thrust_map_v") == 0)
		return kv_once(k, &s->mapv) || coefficients(k, 6, 10, 1, "thrust_map_v C00 C10 C01 C20 C11 C02 "
		    "[C30 C21 C12 C03]", v->mapv, &v->mapv_n) ? -1 : 0;
	if (strcmp(key, "thrust_scale") == 0)
		return kv_once(k, &s->scale) || kv_count(k, 1, "thrust_scale S") ||
		    kv_positive(k, 1, SCALE_MAX, "", &v->thrust_scale) ? -1 : 0;
	if (strcmp(key, "thrust_offset") == 0)
		return kv_once(k, &s->offset) || kv_count(k, 1, "thrust_offset O") ||
		    kv_number(k, 1, -OFFSET_MAX, OFFSET_MAX, "N", &v->thrust_offset) ? -1 : 0;
	if (strcmp(key, "motor_tau") == 0)
		return kv_once(k, &s->tau) || kv_count(k, 1, "motor_tau T") ||
		    kv_number(k, 1, 0, TAU_MAX, "s", &v->motor_tau) ? -1 : 0;
	if (strcmp(key, "mass") == 0)
		return kv_once(k, &s->mass) || kv_count(k, 1, "mass M") || kv_positive(k, 1, MASS_MAX, "kg", &v->mass)
		    ? -1 : 0;
	if (strcmp(key, "thrust_map_sd") == 0)
		return kv_once(k, &s->map_sd) || kv_count(k, 1, "thrust_map_sd S") ||
		    kv_number(k, 1, 0, 1, "", &v->map_sd) ? -1 : 0;
	if (strcmp(key, "command_sd") == 0)
		return kv_once(k, &s->cmd_sd) || kv_count(k, 1, "command_sd S") ||
		    kv_number(k, 1, 0, 1, "", &v->cmd_sd) ? -1 : 0;
	if (strcmp(key, "l_arm") == 0)
		return kv_once(k, &s->l_arm) || kv_count(k, 1, "l_arm L") ||
		    kv_positive(k, 1, L_ARM_MAX, "m", &v->gate_l_arm) ? -1 : 0;
	if (strcmp(key, "alpha") == 0)
		return kv_once(k, &s->alpha) || kv_count(k, 1, "alpha A") ||
		    kv_positive(k, 1, ALPHA_MAX, "kg m^2", &v->gate_alpha) ? -1 : 0;
	return kv_fail(k, "unknown key '%s' (rotor, input, kf, kappa, thrust_map, thrust_map_v, thrust_scale, "
	    "thrust_offset, motor_tau, mass, thrust_map_sd, command_sd, l_arm, alpha)", key);
}

/* What the keys must say together; a message in err and -1, or 0. */
static int
check(const vehicle *v, const seen *s, int rotors, const char *path, char *err, size_t len)
{
	if ((s->map || s->mapv) && v->input != VEH_INPUT_PWM)
		snprintf(err, len, "%s:%d: a thrust map belongs to 'input pwm'", path, s->map ? s->map : s->mapv);
	else if (s->map && s->mapv)
		snprintf(err, len, "%s:%d: thrust_map and thrust_map_v: one thrust map", path, s->mapv);
	else if (v->input == VEH_INPUT_PWM && !s->map && !s->mapv)
		snprintf(err, len, "%s:%d: 'input pwm' needs 'thrust_map' or 'thrust_map_v' (the thrust of a command)",
		    path, s->input);
	else if (s->kf && v->input != VEH_INPUT_SPEED)
		snprintf(err, len, "%s:%d: 'kf' belongs to 'input speed'", path, s->kf);
	else if (v->input == VEH_INPUT_SPEED && !s->kf)
		snprintf(err, len, "%s: 'input speed' needs 'kf' (thrust per squared rad/s)", path);
	else if (v->input != VEH_INPUT_NONE && v->n == 0)
		snprintf(err, len, "%s:%d: 'input' names the rotor columns' meaning, but the file has no 'rotor' lines",
		    path, s->input);
	else if (rotors && v->n == 0)
		snprintf(err, len, "%s: no 'rotor' lines", path);
	else if (rotors && v->input == VEH_INPUT_NONE)
		snprintf(err, len, "%s: missing 'input thrust', 'input speed' or 'input pwm'", path);
	else
		return 0;
	return -1;
}

int
vehicle_read(const char *path, vehicle *v, int rotors, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	outfile_note_input(fileno(f), path, path);
	return vehicle_read_file(f, path, v, rotors, err, len);
}

int
vehicle_read_file(FILE *f, const char *path, vehicle *v, int rotors, char *err, size_t len)
{
	memset(v, 0, sizeof(*v));
	v->thrust_scale = 1;
	v->mass = v->gate_l_arm = v->gate_alpha = v->map_sd = v->cmd_sd = NAN;
	kv_reader k;
	kv_init(&k, f, path, err, len);
	seen s = { 0 };
	int rc;
	while ((rc = kv_next(&k)) == 1)
		if (key_line(&k, v, &s) != 0) {
			rc = -1;
			break;
		}
	fclose(f);
	if (rc < 0)
		return -1;
	return check(v, &s, rotors, path, err, len);
}

double
vehicle_rotor_thrust(const vehicle *v, double u, double vbat)
{
	switch (v->input) {
	case VEH_INPUT_SPEED:
		return v->kf * u * u;
	case VEH_INPUT_PWM:
		if (v->map_n) {
			double t = 0;
			for (int i = v->map_n - 1; i >= 0; i--)
				t = t * u + v->map[i];
			return t;
		} else {
			/* sum of c_ij u^i v^j by degree d, then i from d down to 0 */
			double t = 0;
			int c = 0;
			for (int d = 0; c < v->mapv_n; d++)
				for (int i = d; i >= 0 && c < v->mapv_n; i--, c++)
					t += v->mapv[c] * pow(u, i) * pow(vbat, d - i);
			return t;
		}
	default:
		return u;
	}
}

/* x as the shortest decimal that reads back as x (fmt_double), then sep. */
static void
put(FILE *f, double x, const char *sep)
{
	char b[40];
	fmt_double(b, x);
	fprintf(f, "%s%s", b, sep);
}

int
vehicle_write(FILE *f, const vehicle *v)
{
	static const char *const inputs[] = { NULL, "thrust", "speed", "pwm" };
	for (int i = 0; i < v->n; i++) {
		fprintf(f, "rotor ");
		for (int j = 0; j < 3; j++)
			put(f, v->pos[i][j], " ");
		put(f, v->dir[i], "\n");
	}
	if (v->input != VEH_INPUT_NONE)
		fprintf(f, "input %s\n", inputs[v->input]);
	if (v->kf != 0) {
		fprintf(f, "kf ");
		put(f, v->kf, "\n");
	}
	if (v->n || v->kappa != 0) {
		fprintf(f, "kappa ");
		put(f, v->kappa, "\n");
	}
	if (v->map_n) {
		fprintf(f, "thrust_map ");
		for (int i = 0; i < v->map_n; i++)
			put(f, v->map[i], i + 1 < v->map_n ? " " : "\n");
	}
	if (v->mapv_n) {
		fprintf(f, "thrust_map_v ");
		for (int i = 0; i < v->mapv_n; i++)
			put(f, v->mapv[i], i + 1 < v->mapv_n ? " " : "\n");
	}
	static const char *const keys[] = { "thrust_scale", "thrust_offset", "motor_tau", "mass", "l_arm", "alpha",
		"thrust_map_sd", "command_sd" };
	const double vals[] = { v->thrust_scale, v->thrust_offset, v->motor_tau, v->mass, v->gate_l_arm, v->gate_alpha,
		v->map_sd, v->cmd_sd };
	const int given[] = { v->thrust_scale != 1, v->thrust_offset != 0, v->motor_tau != 0, !isnan(v->mass),
		!isnan(v->gate_l_arm), !isnan(v->gate_alpha), !isnan(v->map_sd), !isnan(v->cmd_sd) };
	for (int i = 0; i < 8; i++)
		if (given[i]) {
			fprintf(f, "%s ", keys[i]);
			put(f, vals[i], "\n");
		}
	return ferror(f) ? -1 : 0;
}
