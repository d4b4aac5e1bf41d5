/* test_numconv.c: the fast converters against the C library. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../formats/numconv.h"
#include "numconv_exact.h"

void num_shortest_db(double x, uint64_t *digits, int *exp10); /* formats/numconv_dragonbox.cpp */

/* xorshift for test inputs: independent of lib/. */
static uint64_t st = 88172645463325252ull;
static uint64_t
next(void)
{
	st ^= st << 13;
	st ^= st >> 7;
	st ^= st << 17;
	return st;
}

/* Length of the shortest %.Ng (N = 1..17) that reads back as x. */
static int
shortest_len(double x, char *out)
{
	for (int p = 1; p <= 17; p++) {
		snprintf(out, 40, "%.*g", p, x);
		if (strtod(out, NULL) == x)
			return p;
	}
	return 17;
}

static int
sig_digits(const char *s)
{
	int n = 0, started = 0, last_nonzero = 0;
	for (; *s && *s != 'e' && *s != 'E'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (*s != '0')
			started = 1;
		if (started) {
			n++;
			if (*s != '0')
				last_nonzero = n;
		}
	}
	return last_nonzero;
}

static void
check_one(double x)
{
	char buf[32], ref[40];
	int n = num_format(buf, x);
	assert_int_equal(n, (int)strlen(buf));
	double back = strtod(buf, NULL);
	if (!(back == x || (isnan(x) && isnan(back))))
		fail_msg("format %.17g -> '%s' reads back as %.17g", x, buf, back);
	if (isfinite(x) && x != 0) {
		int want = shortest_len(x, ref);
		if (sig_digits(buf) > want)
			fail_msg("format %.17g -> '%s', longer than '%s'", x, buf, ref);
	}
	double parsed;
	if (num_parse(buf, strlen(buf), &parsed) != 0 || !(parsed == x || (isnan(x) && isnan(parsed))))
		fail_msg("parse '%s' -> %.17g, expected %.17g", buf, parsed, x);
}

static void
test_format_random_bits(void **state)
{
	(void)state;
	for (int i = 0; i < 200000; i++) {
		uint64_t b = next();
		double x;
		memcpy(&x, &b, 8);
		if (isnan(x))
			continue;
		check_one(x);
	}
}

/* Integers below 2^53 (num_format's integer path, whose digits come from
 * put_digits) against glibc's %llu: every 4-digit group value 0..9999 in
 * each of the four groups of a 16-digit number, the others random (the
 * SSE2 path converts each group in lanes of its own), and 10^4 random
 * numbers of each length 1..16 (the copies of the last p of 16 digits). */
static void
test_format_integer_digits(void **state)
{
	(void)state;
	static const uint64_t unit[4] = { 1000000000000ull, 100000000ull, 10000ull, 1ull };
	char buf[32], ref[32];
	for (int g = 0; g < 4; g++)
		for (uint64_t x = 0; x < 10000; x++) {
			if (g == 0 && x >= 9000)
				break; /* 16 digits from 9.007e15 on are past 2^53 */
			uint64_t n = 0;
			for (int k = 0; k < 4; k++)
				n += unit[k] * (k == g ? x : k == 0 ? 1000 + next() % 8000 : next() % 10000);
			snprintf(ref, sizeof(ref), "%llu", (unsigned long long)n);
			num_format(buf, (double)n);
			if (strcmp(buf, ref) != 0)
				fail_msg("%s formatted as '%s'", ref, buf);
		}
	uint64_t p10 = 1;
	for (int p = 1; p <= 16; p++, p10 *= 10)
		for (int i = 0; i < 10000; i++) {
			uint64_t n = p10 + next() % (9 * p10);
			if (n >= 9007199254740992ull)
				continue;
			snprintf(ref, sizeof(ref), "%llu", (unsigned long long)n);
			num_format(buf, -(double)n);
			if (buf[0] != '-' || strcmp(buf + 1, ref) != 0)
				fail_msg("-%s formatted as '%s'", ref, buf);
		}
}

static void
test_format_typical_ranges(void **state)
{
	(void)state;
	/* values like those of logs: magnitudes 1e-12 .. 1e6, and float32 data */
	for (int i = 0; i < 200000; i++) {
		double u = (double)(next() >> 11) / 9007199254740992.0;
		double x = (u - 0.5) * pow(10, (double)(int)(next() % 19) - 12);
		if (i % 3 == 0)
			x = (double)(float)x;
		if (i % 7 == 0)
			x = round(x * 1e4) / 1e4;
		check_one(x);
	}
}

/* The decimal a num_format text says: its digits without leading or
 * trailing zeros, the power of ten of the last one, and whether it has an
 * exponent part. Returns 0, or -1 if the text is not as num_format writes. */
static int
text_decimal(const char *t, uint64_t *digits, int *exp10, int *sci)
{
	uint64_t d = 0;
	int nd = 0, frac = 0, point = 0, e = 0;
	if (*t == '-')
		t++;
	for (; *t && *t != 'e'; t++) {
		if (*t == '.') {
			if (point++)
				return -1;
			continue;
		}
		if (*t < '0' || *t > '9' || nd > 18)
			return -1;
		if (d || *t != '0') {
			d = d * 10 + (uint64_t)(*t - '0');
			nd++;
		}
		frac += point;
	}
	*sci = *t == 'e';
	if (*sci)
		e = atoi(t + 1);
	e -= frac;
	while (d && d % 10 == 0) {
		d /= 10;
		e++;
	}
	*digits = d;
	*exp10 = e;
	return 0;
}

/* num_format against what it wrote before Dragonbox: the exact 128-bit
 * search's digits (tests/numconv_exact.c), so the same text, and the
 * search's digits are Dragonbox's; or where that search gave up (at 1e-11
 * itself, whose floor(log10) it takes for -12), the shortest %.Ng. Returns
 * 1 if x was compared, -1 if x is outside [1e-11, 1e16), the range
 * compared here. */
static int
same_as_exact(double x)
{
	uint64_t d0, d1;
	int e0, e1, sci;
	char buf[32], ref[40];
	if (!(fabs(x) >= 1e-11 && fabs(x) < 1e16))
		return -1;
	num_format(buf, x);
	if (numconv_exact_shortest(x, &d0, &e0) != 0) {
		shortest_len(x, ref);
		if (strcmp(buf, ref) != 0)
			fail_msg("%.17g: '%s', the shortest %%.Ng '%s'", x, buf, ref);
		return 1;
	}
	num_shortest_db(x, &d1, &e1);
	if (d0 != d1 || e0 != e1)
		fail_msg("%.17g: Dragonbox %llue%d, the exact search %llue%d", x, (unsigned long long)d1, e1,
		    (unsigned long long)d0, e0);
	/* the text: those digits, its sign, and an exponent part exactly when
	 * the first digit's power of ten is below -4 or at least 16 */
	int X = e0, p = 0;
	for (uint64_t t = d0; t; t /= 10)
		p++;
	X += p - 1;
	if (text_decimal(buf, &d1, &e1, &sci) != 0 || d1 != d0 || e1 != e0 || sci != (X < -4 || X >= 16) ||
	    (buf[0] == '-') != (x < 0))
		fail_msg("%.17g: '%s', not the text of %llue%d", x, buf, (unsigned long long)d0, e0);
	return 1;
}

static void
test_format_same_as_exact_search(void **state)
{
	(void)state;
	long compared = 0;
	/* random significands at every binary exponent of the range */
	for (int i = 0; i < 1000000; i++) {
		uint64_t bits = (next() >> 12) | ((uint64_t)(1023 - 37 + next() % 94) << 52) | (next() & 1) << 63;
		double x;
		memcpy(&x, &bits, 8);
		compared += same_as_exact(x) == 1;
	}
	/* short decimals, as loggers write them, and float32 data */
	for (int i = 0; i < 1000000; i++) {
		char s[40];
		snprintf(s, sizeof(s), "%.*e", 1 + (int)(next() % 8), (double)(int64_t)(next() >> 1) /
		    9.2233720368547758e18 * pow(10, (double)(int)(next() % 27) - 11));
		double x = strtod(s, NULL);
		if (i % 2)
			x = (double)(float)x;
		compared += same_as_exact(x) == 1;
	}
	/* integers, which num_format writes without Dragonbox, up to 2^53 */
	for (int i = 0; i < 300000; i++) {
		uint64_t u = next() >> (11 + next() % 53);
		double x = (double)u * (i % 2 ? -1 : 1);
		if (i % 3 == 0)
			x = (double)(u % 100000) * 1e4; /* trailing zeros */
		compared += same_as_exact(x) == 1;
	}
	for (int k = 0; k <= 3; k++)
		compared += same_as_exact(9007199254740992.0 - k) == 1;
	/* powers of two (the narrower lower half) and powers of ten, and their
	 * neighbours a few ulps away */
	for (int e = -36; e <= 53; e++)
		for (int k = -3; k <= 3; k++) {
			double x = ldexp(1, e);
			for (int j = 0; j < (k < 0 ? -k : k); j++)
				x = nextafter(x, k < 0 ? 0 : INFINITY);
			compared += same_as_exact(x) == 1;
		}
	for (int e = -11; e <= 15; e++)
		for (int k = -3; k <= 3; k++) {
			char s[16];
			snprintf(s, sizeof(s), "1e%d", e);
			double x = strtod(s, NULL);
			for (int j = 0; j < (k < 0 ? -k : k); j++)
				x = nextafter(x, k < 0 ? 0 : INFINITY);
			compared += same_as_exact(x) == 1;
		}
	/* the draws above mostly fall in the range */
	assert_true(compared > 1500000);
}

/* Outside [1e-11, 1e16) tagk wrote the shortest %.Ng (N = 1..17) that
 * reads back; num_format must still, to the byte, whichever path it takes. */
static void
test_format_outside_as_shortest_g(void **state)
{
	(void)state;
	char buf[32], ref[40];
	int n = 0;
	for (int i = 0; i < 300000; i++) {
		uint64_t bits = next();
		if (i % 4 == 0)
			bits &= ~((UINT64_C(1) << 52) - 1); /* powers of two */
		double x;
		memcpy(&x, &bits, 8);
		if (!isfinite(x) || x == 0 || (fabs(x) >= 1e-11 && fabs(x) < 1e16))
			continue;
		n++;
		shortest_len(x, ref);
		num_format(buf, x);
		if (strcmp(buf, ref) != 0)
			fail_msg("%.17g: '%s', the shortest %%.Ng '%s'", x, buf, ref);
	}
	assert_true(n > 200000);
}

static void
test_format_edges(void **state)
{
	(void)state;
	const double xs[] = { 0.0, -0.0, 1, -1, 0.1, 0.04, 1e-11, 9.999999999999999e-12, 1e17,
		9.9999999999999984e16, 1e16, 123456789012345678.0, 5e-324, 2.2250738585072014e-308,
		1.7976931348623157e308, 9.80665, 1.66e-5, 2.93e-5, 0.30000000000000004, 4.35,
		0.035, 100, 1e5, 123456, 1e-4, 1e-5, 0.5, 2.5e-7, (double)INFINITY, -(double)INFINITY };
	for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
		check_one(xs[i]);
	char b[32];
	num_format(b, 0.04);
	assert_string_equal(b, "0.04");
	num_format(b, 1.66e-5);
	assert_string_equal(b, "1.66e-05");
	num_format(b, 100);
	assert_string_equal(b, "100");
	num_format(b, -0.0);
	assert_string_equal(b, "-0");
	/* powers of two: the interval below is half as wide */
	for (int e = -36; e <= 56; e++)
		check_one(ldexp(1, e));
}

static void
test_parse_against_strtod(void **state)
{
	(void)state;
	char s[64];
	for (int i = 0; i < 200000; i++) {
		int digits = 1 + (int)(next() % 22), q = (int)(next() % 70) - 35, n = 0;
		if (next() & 1)
			s[n++] = '-';
		for (int d = 0; d < digits; d++) {
			s[n++] = (char)('0' + next() % 10);
			if (d == 0 && (next() & 1))
				s[n++] = '.';
		}
		n += snprintf(s + n, 16, "e%d", q);
		double a, b = strtod(s, NULL);
		assert_int_equal(num_parse(s, (size_t)n, &a), 0);
		if (!(a == b))
			fail_msg("parse '%s' -> %.17g, strtod %.17g", s, a, b);
	}
	const char *bad[] = { "", "-", "abc", "1e", "1.2.3", "0x10", "1e+", "--1", "nan(1)", ".", "1 " };
	double v;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(num_parse(bad[i], strlen(bad[i]), &v), -1);
	assert_int_equal(num_parse("nan", 3, &v), 0);
	assert_true(isnan(v));
	assert_int_equal(num_parse("-inf", 4, &v), 0);
	assert_true(isinf(v) && v < 0);
	assert_int_equal(num_parse("1e999", 5, &v), 0);
	assert_true(isinf(v));
	assert_int_equal(num_parse(".5", 2, &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(num_parse("5.", 2, &v), 0);
	assert_true(v == 5);
}

/* The shape a log's numbers have and num_parse's scanner takes itself,
 * [-]digits[.digits][e[-+]digits] with up to 19 digits, against strtod
 * bit for bit: fixed-point decimals of 1 to 22 digits (so both sides of
 * 19, of 2^53 and of the exact powers of ten), leading zeros, a bare
 * point at either end, exponents of 1 to 6 digits, and the doubles of
 * every magnitude written with %.17g, %.16g and %.15g. */
static void
test_parse_common_shape(void **state)
{
	(void)state;
	char s[96];
	for (int i = 0; i < 400000; i++) {
		int n = 0, ilen = (int)(next() % 8), flen = (int)(next() % 20);
		if (next() & 1)
			s[n++] = '-';
		for (int d = 0; d < ilen; d++)
			s[n++] = (char)('0' + (d == 0 && ilen > 1 && (next() & 3) ? 1 + next() % 9 : next() % 10));
		if (flen || (next() & 1))
			s[n++] = '.';
		int zeros = next() % 4 == 0 ? (int)(next() % 12) : 0;
		for (int d = 0; d < flen; d++)
			s[n++] = (char)('0' + (d < zeros ? 0 : next() % 10));
		if (next() % 3 == 0)
			n += snprintf(s + n, 16, "%c%s%d", next() & 1 ? 'e' : 'E', next() & 1 ? "+" : "",
			    (int)(next() % 700) - 350);
		s[n] = 0;
		char *end;
		double b = strtod(s, &end), a;
		if (end != s + n || b == 0 || !isfinite(b) || fabs(b) < 2.2250738585072014e-308)
			continue; /* not a number, or one of numconv.c's own cases */
		if (num_parse(s, (size_t)n, &a) != 0 || memcmp(&a, &b, 8) != 0)
			fail_msg("parse '%s' -> %a, strtod %a", s, a, b);
	}
	const char *fmts[] = { "%.17g", "%.16g", "%.15g", "%.17f", "%.3e" };
	for (int i = 0; i < 300000; i++) {
		uint64_t bits = (next() >> 12) | ((uint64_t)(1 + next() % 2045) << 52);
		double x, a;
		memcpy(&x, &bits, 8);
		int n = snprintf(s, sizeof(s), fmts[i % 5], x);
		if (n >= (int)sizeof(s))
			continue;
		double b = strtod(s, NULL);
		if (num_parse(s, (size_t)n, &a) != 0 || memcmp(&a, &b, 8) != 0)
			fail_msg("parse '%s' -> %a, strtod %a", s, a, b);
	}
	const char *edge[] = { "9007199254740992", "9007199254740993", "9007199254740993.0", "1e22", "1e23",
		"9999999999999999999", "99999999999999999999", "0.0000000000000000001", "1.7976931348623157e308",
		"1.7976931348623158e308", "2.2250738585072014e-308", "4.9e-324", "-0.30000000000000004",
		"123456789012345678e-30", "1.", "-.5", "5e+0", "0.1e1", "00000000000000000001.5" };
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		double a, b = strtod(edge[i], NULL);
		if (num_parse(edge[i], strlen(edge[i]), &a) != 0 || memcmp(&a, &b, 8) != 0)
			fail_msg("parse '%s' -> %a, strtod %a", edge[i], a, b);
	}
}

/* num_parse_pad and num_parse_bits (the CSV reader's) against num_parse_ff
 * and strtod, with the text inside bytes that look like more of it:
 * digits, points, signs and exponent letters before and after, which
 * both read and must ignore. The masks for num_parse_bits are found here
 * byte by byte, over the junk after the text too. Shapes: test
 * common_shape's generator, plus more than 19 digits with leading zeros,
 * junk inside, and lengths up to 40. */
static void
check_padded(const char *t, size_t n)
{
	char buf[16 + 48 + 32];
	const char junk[] = "0123456789.-+eE9";
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = junk[next() % 16];
	if (n > 48)
		return;
	memcpy(buf + 16, t, n);
	const char *s = buf + 16;
	uint32_t d = 0, nz = 0;
	for (int k = 0; k < 32; k++) {
		d |= (uint32_t)(s[k] >= '0' && s[k] <= '9') << k;
		nz |= (uint32_t)(s[k] >= '1' && s[k] <= '9') << k;
	}
	double a = 0, b = 0, c = 0;
	int ra = num_parse_ff(t, n, &a), rb = num_parse_pad(s, n, &b), rc = num_parse_bits(s, n, d, nz, &c);
	if (ra != rb || ra != rc || (ra == 0 && (memcmp(&a, &b, 8) != 0 || memcmp(&a, &c, 8) != 0)))
		fail_msg("'%.*s': num_parse_ff %d %a, num_parse_pad %d %a, num_parse_bits %d %a", (int)n, t,
		    ra, a, rb, b, rc, c);
	char z[64];
	memcpy(z, t, n);
	z[n] = 0;
	char *end;
	double e = strtod(z, &end);
	if (ra == 0 && (end != z + n || memcmp(&a, &e, 8) != 0))
		fail_msg("'%s': %a, strtod %a", z, a, e);
}

static void
test_parse_padded(void **state)
{
	(void)state;
	char s[96];
	for (int i = 0; i < 400000; i++) {
		int n = 0, ilen = (int)(next() % 8), flen = (int)(next() % 24);
		if (next() & 1)
			s[n++] = '-';
		for (int d = 0; d < ilen; d++)
			s[n++] = (char)('0' + (next() % 3 == 0 ? 0 : next() % 10));
		if (flen || (next() & 1))
			s[n++] = '.';
		int zeros = next() % 3 == 0 ? (int)(next() % 12) : 0;
		for (int d = 0; d < flen; d++)
			s[n++] = (char)('0' + (d < zeros ? 0 : next() % 10));
		if (next() % 3 == 0)
			n += snprintf(s + n, 16, "%c%s%d", next() & 1 ? 'e' : 'E', next() & 1 ? "+" : "",
			    (int)(next() % 700) - 350);
		if (next() % 16 == 0 && n > 0) /* junk inside */
			s[next() % (unsigned)n] = "x.-e+ ,"[next() % 7];
		check_padded(s, (size_t)n);
	}
	const char *fmts[] = { "%.17g", "%.16g", "%.15g", "%.17f", "%.3e", "%.20f" };
	for (int i = 0; i < 300000; i++) {
		uint64_t bits = (next() >> 12) | ((uint64_t)(1 + next() % 2045) << 52);
		double x;
		memcpy(&x, &bits, 8);
		int n = snprintf(s, sizeof(s), fmts[i % 6], x);
		if (n < (int)sizeof(s))
			check_padded(s, (size_t)n);
	}
	const char *edge[] = { "", "-", ".", "-.", "0", "-0", "0.0", "0e5", "1e", "1e-", "1e+5", "1e123456",
		".5", "5.", "-.5e1", "9007199254740993", "10000000000000000000", "9999999999999999999",
		"0.00012100620222792278", "0.0000000000000000000000000001", "1234567890123456789.5",
		"12345678901234567.5", "4.9e-324", "1.7976931348623157e308", "1.8e308", "00000000000000000001.5",
		"-0.3638411189175792", "10.762195885564719", "-2.0073569107637344e-05", "1.66e-05", "1..5",
		"1.5.", "--1", "+1", "1.5e5.5", "nan", "inf", "0x10" };
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		check_padded(edge[i], strlen(edge[i]));
}

/* The cases a correctly rounded parser gets wrong first, against strtod:
 * random doubles written with 17 significant digits (normal and
 * subnormal), the exact decimal of the midpoint between two adjacent
 * doubles (a tie: to even), and that midpoint nudged by one unit in its
 * 40th digit either way. */
static void
test_parse_subnormals_halfways(void **state)
{
	(void)state;
	char s[1200];
	for (int i = 0; i < 100000; i++) {
		int sub = i % 4 == 0;
		uint64_t bits = sub ? next() >> 13 : (next() >> 12) | ((uint64_t)(1 + next() % 2045) << 52);
		double x, y, a, b;
		memcpy(&x, &bits, 8);
		snprintf(s, sizeof(s), "%.17g", x);
		b = strtod(s, NULL);
		assert_int_equal(num_parse(s, strlen(s), &a), 0);
		if (memcmp(&a, &b, 8) != 0)
			fail_msg("parse '%s' -> %a, strtod %a", s, a, b);
		if (i % 8)
			continue;
		y = nextafter(x, INFINITY);
		long double mid = ((long double)x + (long double)y) / 2; /* exact */
		int n = snprintf(s, sizeof(s), "%.1100Lf", mid);
		if (n >= (int)sizeof(s) || x > 1e300)
			continue;
		while (n > 1 && s[n - 1] == '0')
			s[--n] = 0;
		for (int nudge = -1; nudge <= 1; nudge++) {
			char t[1300];
			int m = snprintf(t, sizeof(t), "%s", s);
			if (nudge) {
				/* append digits so the nudge is below the tie's last digit */
				m += snprintf(t + m, sizeof(t) - (size_t)m, "%s", nudge > 0 ? "000000001" : "");
				if (nudge < 0) {
					/* the tie minus a tiny amount: ...d -> ...(d-1)999999999 */
					int k = m - 1;
					while (k >= 0 && (t[k] == '0' || t[k] == '.'))
						k--;
					if (k < 0)
						continue;
					t[k] = (char)(t[k] - 1);
					m += snprintf(t + m, sizeof(t) - (size_t)m, "999999999");
				}
			}
			b = strtod(t, NULL);
			assert_int_equal(num_parse(t, (size_t)m, &a), 0);
			if (memcmp(&a, &b, 8) != 0)
				fail_msg("parse '%.60s...' (%d) -> %a, strtod %a", t, nudge, a, b);
		}
	}
}

/* Decimals of 17 to 19 digits within a few units of their last digit of
 * a midpoint between two adjacent doubles: where an extended-precision
 * quotient can land on the midpoint and round the wrong way, so where
 * num_parse must see it and ask strtod. */
static void
test_parse_near_midpoints(void **state)
{
	(void)state;
	char s[64];
	int hard = 0;
	for (int i = 0; i < 200000; i++) {
		uint64_t bits = (next() >> 12) | ((uint64_t)(1023 - 60 + next() % 120) << 52);
		double x, y;
		memcpy(&x, &bits, 8);
		y = nextafter(x, INFINITY);
		long double mid = ((long double)x + (long double)y) / 2; /* exact: 64-bit mantissa */
		int digits = 17 + (int)(next() % 3);
		snprintf(s, sizeof(s), "%.*Le", digits - 1, mid);
		/* move the last digit by -2..2 */
		char *e = strchr(s, 'e');
		int delta = (int)(next() % 5) - 2;
		for (char *p = e - 1; delta && p >= s; p--) {
			if (*p == '.')
				continue;
			int d = *p - '0' + delta;
			delta = d < 0 ? -1 : d > 9 ? 1 : 0;
			*p = (char)('0' + (d + 10) % 10);
		}
		double a, b = strtod(s, NULL);
		assert_int_equal(num_parse(s, strlen(s), &a), 0);
		if (!(a == b))
			fail_msg("parse '%s' -> %.17g, strtod %.17g", s, a, b);
		hard += b != (double)strtold(s, NULL); /* double rounding would fail here */
	}
	/* the test is worth its name only if it met such cases */
	assert_true(hard > 100);
}

/* num_parse's own scanner and its strtod step, which fast_float's refusals
 * reach: a leading '+' (fast_float refuses every such cell), more than 19
 * significant digits, words, underflow. Random decimals of 1 to 26 digits
 * with a '+' against strtod bit for bit (20 nines overflow a 64-bit
 * accumulator); then what strtod reads only in part or reads as something
 * other than a decimal, refused; and underflow refused as NUM_UNDERFLOW
 * with *out untouched, whatever the path. */
static void
test_parse_slow_path(void **state)
{
	(void)state;
	char s[64];
	for (int i = 0; i < 100000; i++) {
		int digits = 1 + (int)(next() % 26), q = (int)(next() % 50) - 25, n = 0;
		s[n++] = '+';
		int nines = (next() % 4) == 0;
		for (int d = 0; d < digits; d++) {
			s[n++] = nines ? '9' : (char)('0' + next() % 10);
			if (d == 0 && (next() & 1))
				s[n++] = '.';
		}
		if (next() & 1)
			n += snprintf(s + n, 16, "e%d", q);
		s[n] = 0;
		double a, b = strtod(s, NULL);
		assert_int_equal(num_parse(s, (size_t)n, &a), 0);
		if (!(a == b))
			fail_msg("parse '%s' -> %.17g, strtod %.17g", s, a, b);
	}
	const char *good[] = { "+99999999999999999999", "+18446744073709551616", "+99999999999999999999.5",
		"-123456789012345678901234567", "+0.000000000000000000001234567890123456789012" };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		double a = 0;
		assert_int_equal(num_parse(good[i], strlen(good[i]), &a), 0);
		if (!(a == strtod(good[i], NULL)))
			fail_msg("parse '%s' -> %.17g, strtod %.17g", good[i], a, strtod(good[i], NULL));
	}
	/* strtod reads a prefix, or a hexadecimal float (after blanks, which
	 * the scanner leaves to it): refused */
	const char *bad[] = { "12345678901234567890123abc", "+1234567890123456789012 ", "nanq", "infinityy",
		"-infz", " 0x10", "\t0x1p4", " -0x1.8p1", " 0X10", " +0x10", " nan(1)" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		double v = 42;
		if (num_parse(bad[i], strlen(bad[i]), &v) != -1)
			fail_msg("'%s' read as %.17g, not refused", bad[i], v);
	}
	/* below half the smallest subnormal: not zero, refused */
	const char *under[] = { "1e-400", "+1e-400", "-2.5e-330", "99999999999999999999e-420",
		"+0.00000000000000000000000000001e-300", "123456789012345678901234e-350" };
	for (size_t i = 0; i < sizeof(under) / sizeof(under[0]); i++) {
		double v = 42;
		int rc = num_parse(under[i], strlen(under[i]), &v);
		if (rc != NUM_UNDERFLOW || v != 42)
			fail_msg("'%s': rc %d, value %.17g; want NUM_UNDERFLOW, untouched", under[i], rc, v);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_random_bits),
		cmocka_unit_test(test_format_typical_ranges),
		cmocka_unit_test(test_format_integer_digits),
		cmocka_unit_test(test_format_edges),
		cmocka_unit_test(test_format_same_as_exact_search),
		cmocka_unit_test(test_format_outside_as_shortest_g),
		cmocka_unit_test(test_parse_against_strtod),
		cmocka_unit_test(test_parse_slow_path),
		cmocka_unit_test(test_parse_common_shape),
		cmocka_unit_test(test_parse_padded),
		cmocka_unit_test(test_parse_near_midpoints),
		cmocka_unit_test(test_parse_subnormals_halfways),
	};
	return cmocka_run_group_tests_name("numconv", tests, NULL, NULL);
}
