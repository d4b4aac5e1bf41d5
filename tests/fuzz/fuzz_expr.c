/* fuzz_expr.c: tagk-filter's expressions (cmd/filter/filter_expr.c over
 * muParser). The input's first line is an expression over the variables
 * t, acc.x, motor.m1 and x_1; every expression either compiles or is
 * refused with a one-line reason, and one that compiles evaluates, at
 * ordinary and extreme values, to a number or to NaN with a reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_table.h"
#include "../../cmd/filter/filter_expr.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[4096];
	size_t n = 0;
	while (n < size && n < sizeof(text) - 1 && data[n] != '\n' && data[n] != 0)
		n++;
	memcpy(text, data, n);
	text[n] = 0;
	static const char *const names[] = { "t", "acc.x", "motor.m1", "x_1" };
	double vals[4] = { 0 };
	char err[512] = "";
	fexpr *e = fexpr_compile(text, 4, names, vals, err, sizeof(err));
	if (!e) {
		if (!err[0] || strchr(err, '\n'))
			abort(); /* every refusal says why, on one line */
		return 0;
	}
	static const double tries[][4] = { { 0, 0, 0, 0 }, { 1.5, -9.8, 40000, 2 }, { 1e308, -1e308, NAN, INFINITY } };
	for (int k = 0; k < 3; k++) {
		memcpy(vals, tries[k], sizeof(vals));
		char why[256] = "";
		(void)fexpr_eval(e, why, sizeof(why));
		if (strchr(why, '\n'))
			abort();
	}
	fexpr_free(e);
	return 0;
}
