/* vehicle.c: the vehicle file; see vehicle.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "vehicle.h"

/* The message into err, f closed if open; -1. */
static int __attribute__((format(printf, 4, 5)))
fail(FILE *f, char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	if (f)
		fclose(f);
	return -1;
}

int
vehicle_read(const char *path, vehicle *v, int rotors, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(NULL, err, len, "%s: %s", path, strerror(errno));
	char line[512];
	int ln = 0, have_kind = 0;
	memset(v, 0, sizeof(*v));
	v->gate_l_arm = v->gate_alpha = NAN;
	while (fgets(line, sizeof(line), f)) {
		ln++;
		if (!strchr(line, '\n') && !feof(f))
			return fail(f, err, len, "%s:%d: a line longer than %d characters", path, ln, (int)sizeof(line) - 2);
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char key[64];
		double x[4];
		int k;
		if (sscanf(line, " %63s%n", key, &k) != 1)
			continue;
		const char *rest = line + k;
		if (strcmp(key, "rotor") == 0) {
			if (sscanf(rest, "%lf %lf %lf %lf", &x[0], &x[1], &x[2], &x[3]) != 4 ||
			    (x[3] != 1 && x[3] != -1))
				return fail(f, err, len, "%s:%d: expected 'rotor X Y Z DIR' with DIR +1 or -1", path, ln);
			if (v->n == 16)
				return fail(f, err, len, "%s:%d: at most 16 rotors", path, ln);
			for (int i = 0; i < 3; i++)
				v->pos[v->n][i] = x[i];
			v->dir[v->n++] = x[3];
		} else if (strcmp(key, "input") == 0) {
			char kind[32];
			if (sscanf(rest, "%31s", kind) != 1 || (strcmp(kind, "thrust") && strcmp(kind, "speed")))
				return fail(f, err, len, "%s:%d: expected 'input thrust' or 'input speed'", path, ln);
			v->speeds = strcmp(kind, "speed") == 0;
			have_kind = 1;
		} else if (strcmp(key, "kf") == 0 || strcmp(key, "kappa") == 0) {
			if (sscanf(rest, "%lf", &x[0]) != 1 || !isfinite(x[0]) || x[0] < 0)
				return fail(f, err, len, "%s:%d: '%s' needs a non-negative number", path, ln, key);
			*(strcmp(key, "kf") == 0 ? &v->kf : &v->kappa) = x[0];
		} else if (strcmp(key, "l_arm") == 0 || strcmp(key, "alpha") == 0) {
			if (sscanf(rest, "%lf", &x[0]) != 1 || !isfinite(x[0]) || !(x[0] > 0))
				return fail(f, err, len, "%s:%d: '%s' needs a positive number", path, ln, key);
			*(strcmp(key, "l_arm") == 0 ? &v->gate_l_arm : &v->gate_alpha) = x[0];
		} else {
			return fail(f, err, len, "%s:%d: unknown key '%s' (rotor, input, kf, kappa, l_arm, alpha)", path,
			    ln, key);
		}
	}
	if (ferror(f))
		return fail(f, err, len, "%s: %s", path, strerror(errno));
	fclose(f);
	if (!rotors)
		return 0;
	if (v->n == 0)
		return fail(NULL, err, len, "%s: no 'rotor' lines", path);
	if (!have_kind)
		return fail(NULL, err, len, "%s: missing 'input thrust' or 'input speed'", path);
	if (v->speeds && !(v->kf > 0))
		return fail(NULL, err, len, "%s: 'input speed' needs 'kf' (thrust per squared rad/s)", path);
	return 0;
}
