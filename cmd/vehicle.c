/* vehicle.c: the vehicle file; see vehicle.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "vehicle.h"
#include "cli.h"

void
vehicle_read(const char *path, vehicle *v, int rotors)
{
	FILE *f = fopen(path, "r");
	if (!f)
		cli_die(EXIT_DATA, "%s: %s", path, strerror(errno));
	char line[512];
	int ln = 0, have_kind = 0;
	memset(v, 0, sizeof(*v));
	v->gate_l_arm = v->gate_alpha = NAN;
	while (fgets(line, sizeof(line), f)) {
		ln++;
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
				cli_die(EXIT_DATA, "%s:%d: expected 'rotor X Y Z DIR' with DIR +1 or -1", path, ln);
			if (v->n == 16)
				cli_die(EXIT_DATA, "%s:%d: at most 16 rotors", path, ln);
			for (int i = 0; i < 3; i++)
				v->pos[v->n][i] = x[i];
			v->dir[v->n++] = x[3];
		} else if (strcmp(key, "input") == 0) {
			char kind[32];
			if (sscanf(rest, "%31s", kind) != 1 || (strcmp(kind, "thrust") && strcmp(kind, "speed")))
				cli_die(EXIT_DATA, "%s:%d: expected 'input thrust' or 'input speed'", path, ln);
			v->speeds = strcmp(kind, "speed") == 0;
			have_kind = 1;
		} else if (strcmp(key, "kf") == 0 || strcmp(key, "kappa") == 0) {
			if (sscanf(rest, "%lf", &x[0]) != 1 || !isfinite(x[0]) || x[0] < 0)
				cli_die(EXIT_DATA, "%s:%d: '%s' needs a non-negative number", path, ln, key);
			*(strcmp(key, "kf") == 0 ? &v->kf : &v->kappa) = x[0];
		} else if (strcmp(key, "l_arm") == 0 || strcmp(key, "alpha") == 0) {
			if (sscanf(rest, "%lf", &x[0]) != 1 || !isfinite(x[0]) || !(x[0] > 0))
				cli_die(EXIT_DATA, "%s:%d: '%s' needs a positive number", path, ln, key);
			*(strcmp(key, "l_arm") == 0 ? &v->gate_l_arm : &v->gate_alpha) = x[0];
		} else {
			cli_die(EXIT_DATA, "%s:%d: unknown key '%s' (rotor, input, kf, kappa, l_arm, alpha)", path,
			    ln, key);
		}
	}
	fclose(f);
	if (!rotors)
		return;
	if (v->n == 0)
		cli_die(EXIT_DATA, "%s: no 'rotor' lines", path);
	if (!have_kind)
		cli_die(EXIT_DATA, "%s: missing 'input thrust' or 'input speed'", path);
	if (v->speeds && !(v->kf > 0))
		cli_die(EXIT_DATA, "%s: 'input speed' needs 'kf' (thrust per squared rad/s)", path);
}
