/* fuzz_model.c: the multi-body model reader (formats/mbmodel.c, and
 * formats/robotxml.c for URDF and MJCF). A model it accepts must be a valid
 * tree, and must read back the same after mbmodel_write (the round trip
 * tagk-bench grasp --model-out relies on) unless it has a massless body,
 * which URDF and MJCF allow and the model format does not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_table.h"
#include "../../formats/mbmodel.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	static mbmodel mm, back;
	char err[512];
	if (mbmodel_read_file(f, "fuzz", &mm, err, sizeof(err)) != 0) {
		if (err[0] == 0 || strchr(err, '\n'))
			abort(); /* every refusal says why, on one line */
		return 0;
	}
	if (tagk_mb_check(&mm.m) != TAGK_OK)
		abort();
	for (int i = 0; i < mm.m.nb; i++)
		if (!(mm.theta[TAGK_NPARAM * i] > 0))
			return 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&buf, &len);
	if (!w)
		return 0;
	int wr = mbmodel_write(w, &mm, NULL);
	fclose(w);
	FILE *r = wr == 0 ? fmemopen(buf, len, "r") : NULL;
	if (wr == 0 && (!r || mbmodel_read_file(r, "back", &back, err, sizeof(err)) != 0 || back.m.nb != mm.m.nb))
		abort(); /* what it wrote it must read */
	free(buf);
	return 0;
}
