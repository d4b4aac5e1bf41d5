/* fuzz_robotxml.c: the URDF and MJCF reader (formats/robotxml.c) on its
 * own, past the model file's dispatch: every refusal is one line that
 * names the input; an accepted description is a valid tree with finite
 * parameters; and no input costs more than the bounds of tagk-formats(5)
 * (libFuzzer's -timeout and -rss_limit_mb catch a breach). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_table.h"
#include "../../formats/robotxml.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static mbmodel mm;
	char err[512];
	if (robotxml_read((const char *)data, size, "fuzz.xml", &mm, err, sizeof(err)) != 0) {
		if (strncmp(err, "fuzz.xml", 8) != 0 || strchr(err, '\n'))
			abort(); /* every refusal names the file, on one line */
		return 0;
	}
	if (tagk_mb_check(&mm.m) != TAGK_OK)
		abort();
	for (int i = 0; i < TAGK_NPARAM * mm.m.nb; i++)
		if (!isfinite((double)mm.theta[i]))
			abort();
	for (int i = 0; i < mm.m.nb; i++)
		if (!(mm.theta[TAGK_NPARAM * i] >= 0))
			abort();
	return 0;
}
