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
 *
 * Why a scanner of our own in front of it: a log's numbers are nearly all
 * of one shape, [-]digits[.digits][e[-+]digits] with at most 19 digits,
 * and from_chars's general scan (options, infinities, the digit count
 * past 19, a rounding-mode probe per call) was a third of its time.
 * common_shape reads that shape into fast_float's own decimal (mantissa
 * w, exponent q) and hands it to the same two conversions from_chars
 * uses, in the same order: Clinger's exact fast path, then
 * compute_float (Eisel-Lemire); where that cannot decide (power2 < 0,
 * from_chars's digit_comp) and for every other shape, from_chars itself.
 * So the double is from_chars's, bit for bit, under the rounding mode
 * tagk runs in (to nearest: nothing in tagk changes it). test_numconv
 * compares num_parse with strtod over this shape and every other.
 */
#include <fast_float/fast_float.h>
#include <cstddef>
#include <cstdint>

extern "C" int num_parse_ff(const char *s, size_t len, double *out);

namespace {

inline bool
digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* s[0..len) of the common shape, as -1^neg * w * 10^q with w != 0 of at
 * most 19 digits (leading zeros counted: a shorter count is not worth a
 * second scan); false for anything else. */
bool
common_shape(const char *p, const char *e, bool *neg, uint64_t *w_out, int64_t *q_out)
{
	*neg = p != e && *p == '-';
	p += *neg;
	const char *d0 = p;
	uint64_t w = 0;
	while (p != e && digit(*p))
		w = 10 * w + (uint64_t)(*p++ - '0');
	int64_t nd = p - d0, q = 0;
	if (p != e && *p == '.') {
		const char *f = ++p;
		while (e - p >= 8 && fast_float::is_made_of_eight_digits_fast(p)) {
			w = w * 100000000 + fast_float::parse_eight_digits_unrolled(p);
			p += 8;
		}
		while (p != e && digit(*p))
			w = 10 * w + (uint64_t)(*p++ - '0');
		q = f - p;
		nd += p - f;
	}
	if (nd == 0 || nd > 19 || w == 0)
		return false;
	if (p != e && (*p == 'e' || *p == 'E')) {
		++p;
		bool eneg = p != e && *p == '-';
		p += (p != e && (*p == '-' || *p == '+'));
		const char *x0 = p;
		int64_t x = 0;
		while (p != e && digit(*p) && p - x0 < 5)
			x = 10 * x + (*p++ - '0');
		if (p == x0)
			return false;
		q += eneg ? -x : x;
	}
	if (p != e)
		return false;
	*w_out = w;
	*q_out = q;
	return true;
}

/* -1^neg * w * 10^q into *out as from_chars would, through its two
 * conversions; false where neither decides (then from_chars itself). */
bool
convert(bool neg, uint64_t w, int64_t q, double *out)
{
	using fmt = fast_float::binary_format<double>;
	double v;
	if (q >= fmt::min_exponent_fast_path() && q <= fmt::max_exponent_fast_path() &&
	    w <= fmt::max_mantissa_fast_path()) {
		v = double(w);
		v = q < 0 ? v / fmt::exact_power_of_ten(-q) : v * fmt::exact_power_of_ten(q);
		*out = neg ? -v : v;
		return true;
	}
	fast_float::adjusted_mantissa am = fast_float::compute_float<fmt>(q, w);
	if (am.power2 > 0 && am.power2 < fmt::infinite_power()) {
		fast_float::to_float(neg, am, v);
		*out = v;
		return true;
	}
	/* power2 < 0 (undecided), 0 (a subnormal or an underflow to 0) or
	 * infinite: from_chars, and the checks after it */
	return false;
}

} // namespace

int
num_parse_ff(const char *s, size_t len, double *out)
{
	double v;
	bool neg;
	uint64_t w;
	int64_t q;
	if (common_shape(s, s + len, &neg, &w, &q) && convert(neg, w, q, out))
		return 0;
	fast_float::from_chars_result r = fast_float::from_chars(s, s + len, v);
	if (r.ec != std::errc() || r.ptr != s + len || !(v != 0) || v - v != 0)
		return -1;
	*out = v;
	return 0;
}
