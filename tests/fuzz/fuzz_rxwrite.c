/* fuzz_rxwrite.c: the description rewriter (formats/robotxml_write.c) on
 * any bytes robotxml.c accepts: every link made 10 % heavier (still
 * physical), then rewritten; a refusal is one line, and an accepted
 * rewrite reads back as the target (robotxml_rewrite_buf checks that to
 * 1e-9; here it is checked again from the returned bytes, to 1e-8). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_table.h"
#include "../../formats/robotxml.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static mbmodel mm, target, rb;
	char err[512], *out = NULL;
	size_t n = 0;
	if (robotxml_read((const char *)data, size, "fuzz.xml", &mm, err, sizeof(err)) != 0)
		return 0;
	target = mm;
	for (int i = TAGK_NPARAM; i < TAGK_NPARAM * mm.m.nb; i++)
		target.theta[i] *= (tagk_real)1.1;
	if (robotxml_rewrite_buf((const char *)data, size, "fuzz.xml", &target, &out, &n, err, sizeof(err)) != 0) {
		if (out || strchr(err, '\n') || !err[0])
			abort();
		return 0;
	}
	if (robotxml_read(out, n, "back.xml", &rb, err, sizeof(err)) != 0 || rb.m.nb != mm.m.nb)
		abort();
	for (int k = 1; k < mm.m.nb; k++) {
		double s = 0, d = 0;
		for (int i = 0; i < TAGK_NPARAM; i++) {
			s = fmax(s, fabs((double)target.theta[TAGK_NPARAM * k + i]));
			d = fmax(d, fabs((double)(rb.theta[TAGK_NPARAM * k + i] - target.theta[TAGK_NPARAM * k + i])));
		}
		if (!(d <= 1e-8 * (s > 0 ? s : 1)))
			abort();
	}
	free(out);
	return 0;
}
