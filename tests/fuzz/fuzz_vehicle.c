/* fuzz_vehicle.c: the vehicle file reader (formats/vehicle.c, through
 * formats/keyval.c). A file it accepts has every value finite and within
 * its stated range, at most 16 rotors each spinning +1 or -1; every
 * refusal says why on one line naming the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_table.h"
#include "../../formats/vehicle.h"

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
	}
	return 0;
}
