/* fuzz_friction.c: the joint friction file reader (formats/friction.c,
 * through formats/keyval.c). A file it accepts has joints 1 .. n (n at most
 * FRICTION_MAX_JOINTS), every value finite, and reads back bit for bit
 * after friction_write; every refusal says why on one line naming the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_table.h"
#include "../../formats/friction.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size ? size : 1, "r");
	if (!f)
		return 0;
	static friction fr, back;
	char err[512];
	if (friction_read_file(f, "fuzz", &fr, err, sizeof(err)) != 0) {
		if (err[0] == 0 || strchr(err, '\n') || strncmp(err, "fuzz", 4) != 0)
			abort();
		return 0;
	}
	if (fr.n < 1 || fr.n > FRICTION_MAX_JOINTS || !isfinite(fr.smooth) || fr.smooth < 0)
		abort();
	for (int j = 0; j < fr.n; j++)
		if (!isfinite(fr.fv[j]) || !isfinite(fr.fc[j]) || !isfinite(fr.fo[j]))
			abort();
	char *buf = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&buf, &len);
	if (!w)
		return 0;
	int wr = friction_write(w, &fr, "a comment\nof two lines");
	fclose(w);
	FILE *r = wr == 0 ? fmemopen(buf, len, "r") : NULL;
	if (wr == 0 && (!r || friction_read_file(r, "back", &back, err, sizeof(err)) != 0 || back.n != fr.n ||
	    back.smooth != fr.smooth || memcmp(back.fv, fr.fv, sizeof(double) * (size_t)fr.n) ||
	    memcmp(back.fc, fr.fc, sizeof(double) * (size_t)fr.n) || memcmp(back.fo, fr.fo, sizeof(double) * (size_t)fr.n)))
		abort();
	free(buf);
	return 0;
}
