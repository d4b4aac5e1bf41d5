/* vehicle.c: the vehicle file; see vehicle.h. Read through keyval.h: every
 * number whole and in its physical range, every key but 'rotor' once. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "keyval.h"
#include "outfile.h"
#include "vehicle.h"

/* The physical ranges of the values (SI units), wide enough for any
 * multirotor from a 10 g toy to a 100 kg lifter, narrow enough that a
 * misplaced exponent or a unit slip (mm for m) is caught. */
#define ROTOR_POS_MAX 10.0  /* m from the body origin */
#define KF_MAX 1e-2         /* N / (rad/s)^2 */
#define KAPPA_MAX 1.0       /* N m per N */
#define L_ARM_MAX 10.0      /* m */
#define ALPHA_MAX 1e4       /* kg m^2 */

/* Which keys have been seen, and on which line. */
typedef struct {
	int input, kf, kappa, l_arm, alpha;
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
		return kv_fail(k, "'rotor': DIR is +1 or -1 (the spin's sense about z), not %s", k->w[4]);
	if (v->n == VEHICLE_MAX_ROTORS)
		return kv_fail(k, "at most %d rotors", VEHICLE_MAX_ROTORS);
	for (int i = 0; i < 3; i++)
		v->pos[v->n][i] = x[i];
	v->dir[v->n++] = x[3];
	return 0;
}

static int
key_line(kv_reader *k, vehicle *v, seen *s)
{
	const char *key = k->w[0];
	if (strcmp(key, "rotor") == 0)
		return rotor_line(k, v);
	if (strcmp(key, "input") == 0) {
		if (kv_once(k, &s->input) != 0 || kv_count(k, 1, "input thrust|speed") != 0)
			return -1;
		if (strcmp(k->w[1], "thrust") && strcmp(k->w[1], "speed"))
			return kv_fail(k, "expected 'input thrust' or 'input speed', not '%s'", k->w[1]);
		v->speeds = strcmp(k->w[1], "speed") == 0;
		return 0;
	}
	if (strcmp(key, "kf") == 0)
		return kv_once(k, &s->kf) || kv_count(k, 1, "kf K") || kv_positive(k, 1, KF_MAX, "N/(rad/s)^2", &v->kf)
		    ? -1 : 0;
	if (strcmp(key, "kappa") == 0)
		return kv_once(k, &s->kappa) || kv_count(k, 1, "kappa K") || kv_number(k, 1, 0, KAPPA_MAX, "m", &v->kappa)
		    ? -1 : 0;
	if (strcmp(key, "l_arm") == 0)
		return kv_once(k, &s->l_arm) || kv_count(k, 1, "l_arm L") ||
		    kv_positive(k, 1, L_ARM_MAX, "m", &v->gate_l_arm) ? -1 : 0;
	if (strcmp(key, "alpha") == 0)
		return kv_once(k, &s->alpha) || kv_count(k, 1, "alpha A") ||
		    kv_positive(k, 1, ALPHA_MAX, "kg m^2", &v->gate_alpha) ? -1 : 0;
	return kv_fail(k, "unknown key '%s' (rotor, input, kf, kappa, l_arm, alpha)", key);
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
	v->gate_l_arm = v->gate_alpha = NAN;
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
	if (!rotors)
		return 0;
	if (v->n == 0)
		snprintf(err, len, "%s: no 'rotor' lines", path);
	else if (!s.input)
		snprintf(err, len, "%s: missing 'input thrust' or 'input speed'", path);
	else if (v->speeds && !s.kf)
		snprintf(err, len, "%s: 'input speed' needs 'kf' (thrust per squared rad/s)", path);
	else
		return 0;
	return -1;
}
