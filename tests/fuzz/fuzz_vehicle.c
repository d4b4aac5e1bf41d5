/* fuzz_vehicle.c: the vehicle file reader (formats/vehicle.c, through
 * formats/keyval.c). A file it accepts has every value finite and within
 * its stated range, at most 16 rotors each spinning +1 or -1, and it reads
 * back the same after vehicle_write (tagk-regress --calibrate-mass writes
 * vehicle files); every refusal says why on one line naming the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_table.h"
#include "../../formats/vehicle.h"

static int
finite_all(const double *x, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

/* Equal, or both unset (NAN). */
static int
same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* What vehicle_write wrote must read back to the same values, bit for bit
 * (it writes shortest round-trip decimals). */
static void
round_trip(const vehicle *v, int rotors)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&buf, &len);
	if (!w)
		return;
	int wr = vehicle_write(w, v);
	fclose(w);
	vehicle b;
	char err[512];
	static char empty[] = "\n"; /* nothing written: read an empty file */
	FILE *r = wr != 0 ? NULL : len ? fmemopen(buf, len, "r") : fmemopen(empty, 1, "r");
	if (wr == 0 && (!r || vehicle_read_file(r, "back", &b, rotors, err, sizeof(err)) != 0))
		abort();
	free(buf);
	if (wr != 0)
		return;
	if (b.n != v->n || b.input != v->input || b.map_n != v->map_n || b.mapv_n != v->mapv_n
	    || memcmp(b.pos, v->pos, sizeof(b.pos[0]) * (size_t)v->n) != 0
	    || memcmp(b.map, v->map, sizeof(double) * (size_t)v->map_n) != 0
	    || memcmp(b.mapv, v->mapv, sizeof(double) * (size_t)v->mapv_n) != 0
	    || b.kf != v->kf || b.kappa != v->kappa || b.thrust_scale != v->thrust_scale
	    || b.thrust_offset != v->thrust_offset || b.motor_tau != v->motor_tau
	    || !same(b.mass, v->mass) || !same(b.gate_l_arm, v->gate_l_arm) || !same(b.gate_alpha, v->gate_alpha))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int rotors = 0; rotors < 2; rotors++) {
		FILE *f = fmemopen((void *)data, size ? size : 1, "r");
		if (!f)
			return 0;
		vehicle v;
		char err[512];
		if (vehicle_read_file(f, "fuzz", &v, rotors, err, sizeof(err)) != 0) {
			if (err[0] == 0 || strchr(err, '\n') || strncmp(err, "fuzz", 4) != 0)
				abort(); /* every refusal says why, on one line, naming the file */
			continue;
		}
		if (v.n < 0 || v.n > VEHICLE_MAX_ROTORS || (rotors && v.n == 0))
			abort();
		for (int i = 0; i < v.n; i++) {
			if (v.dir[i] != 1 && v.dir[i] != -1)
				abort();
			for (int k = 0; k < 3; k++)
				if (!isfinite(v.pos[i][k]) || fabs(v.pos[i][k]) > 10)
					abort();
		}
		if (!isfinite(v.kf) || v.kf < 0 || !isfinite(v.kappa) || v.kappa < 0)
			abort();
		if (!isnan(v.gate_l_arm) && !(v.gate_l_arm > 0 && v.gate_l_arm <= 10))
			abort();
		if (!isnan(v.gate_alpha) && !(v.gate_alpha > 0 && v.gate_alpha <= 1e4))
			abort();
		if (v.map_n < 0 || v.map_n > 4 || !(v.mapv_n == 0 || v.mapv_n == 6 || v.mapv_n == 10)
		    || !finite_all(v.map, v.map_n) || !finite_all(v.mapv, v.mapv_n)
		    || !(v.thrust_scale > 0) || !isfinite(v.thrust_scale) || !isfinite(v.thrust_offset)
		    || !(v.motor_tau >= 0) || !isfinite(v.motor_tau) || !(isnan(v.mass) || v.mass > 0))
			abort();
		round_trip(&v, rotors);
	}
	return 0;
}
