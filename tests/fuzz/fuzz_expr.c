/* fuzz_expr.c: tagk-filter's expressions (cmd/filter/filter_expr.cpp over
 * muParser). The input's first line is an expression over the variables
 * t, acc.x, motor.m1, x_1 and _pi (a column that shadows the constant);
 * every expression either compiles or is refused with a one-line reason.
 * One that compiles is evaluated at ordinary and extreme values, and its
 * contracts are checked from outside: it never writes a variable (no
 * assignment got through), the same row gives the same bits again (no
 * state between rows), and a NaN comes with a reason while a reason comes
 * with a NaN (no silent NaN). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_table.h"
#include "../../cmd/filter/filter_expr.h"

enum { NV = 5 };

static void
violation(const char *what, const char *text)
{
	fprintf(stderr, "contract violation: %s: '%.200s'\n", what, text);
	abort();
}

/* One evaluation at vals; the result's bits in *bits. */
static double
eval_at(fexpr *e, double *vals, const double *at, const char *text, char *why, size_t len)
{
	memcpy(vals, at, NV * sizeof(double));
	why[0] = 0;
	double v = fexpr_eval(e, why, (int)len);
	if (memcmp(vals, at, NV * sizeof(double)))
		violation("an expression wrote a variable", text);
	if (strchr(why, '\n'))
		violation("a reason on two lines", text);
	if (isnan(v) != (why[0] != 0))
		violation(isnan(v) ? "NaN without a reason" : "a reason without NaN", text);
	return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[32768];
	size_t n = 0;
	while (n < size && n < sizeof(text) - 1 && data[n] != '\n' && data[n] != 0)
		n++;
	memcpy(text, data, n);
	text[n] = 0;
	static const char *const names[NV] = { "t", "acc.x", "motor.m1", "x_1", "_pi" };
	double vals[NV] = { 0 };
	char err[512] = "";
	fexpr *e = fexpr_compile(text, NV, names, vals, err, sizeof(err));
	if (!e) {
		if (!err[0] || strchr(err, '\n'))
			violation("a refusal without a one-line reason", text);
		return 0;
	}
	static const double tries[][NV] = { { 0, 0, 0, 0, 3 }, { 1.5, -9.8, 40000, 2, -1 },
		{ 1e308, -1e308, NAN, INFINITY, 0 }, { -0.0, 1e-310, -INFINITY, 0.5, 7 } };
	double first[4];
	char why[256];
	for (int k = 0; k < 4; k++)
		first[k] = eval_at(e, vals, tries[k], text, why, sizeof(why));
	for (int k = 0; k < 4; k++) {
		double again = eval_at(e, vals, tries[k], text, why, sizeof(why));
		if (memcmp(&again, &first[k], sizeof(again)) && !(isnan(again) && isnan(first[k])))
			violation("the same row gave another value", text);
	}
	fexpr_free(e);
	return 0;
}
