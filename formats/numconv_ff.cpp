/*
 * numconv_ff.cpp: num_parse's first path, through fast_float (Lemire's
 * correctly rounded decimal-to-binary, libfast-float-dev), behind a C
 * function. It takes what fast_float reads whole and gives a finite,
 * nonzero double; everything else (a sign '+', hexadecimal, words, zero,
 * underflow, overflow) is left to numconv.c's own paths, which say what
 * those mean for tagk (an underflow is refused, not read as 0).
 *
 * Why a library: correctly rounded parsing at several hundred MB/s is
 * Eisel-Lemire with a big-decimal fallback, which fast_float maintains and
 * tests; numconv.c's own exact paths cover fewer inputs and ask strtod for
 * the rest. Header-only and without exceptions: no C++ runtime is linked.
 */
#include <fast_float/fast_float.h>
#include <cstddef>

extern "C" int num_parse_ff(const char *s, size_t len, double *out);

int
num_parse_ff(const char *s, size_t len, double *out)
{
	double v;
	fast_float::from_chars_result r = fast_float::from_chars(s, s + len, v);
	if (r.ec != std::errc() || r.ptr != s + len || !(v != 0) || v - v != 0)
		return -1;
	*out = v;
	return 0;
}
