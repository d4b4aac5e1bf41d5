/*
 * numconv.c: see numconv.h.
 *
 * Formatting: for |x| in [1e-11, 1e17), the shortest decimal inside x's
 * rounding interval and of those the nearest, from Dragonbox
 * (numconv_dragonbox.cpp), laid out here in %g-like style; outside that
 * range, the shortest %.Ng that strtod reads back. Until Dragonbox, an
 * exact 128-bit search of this file gave the same digits: it is kept in
 * tests/numconv_exact.c as the test's oracle of bit-identical output.
 *
 * Parsing: fast_float first (numconv_ff.cpp), for every decimal it reads
 * whole into a finite nonzero double; what it leaves (a '+' sign, words,
 * zero, underflow, overflow) comes here. Digits D <= 2^53 and |q| <= 22
 * give x = D 10^q as one correctly
 * rounded double operation (Clinger). Otherwise digits D < 10^19 and
 * exponent q with |q| <= 27 give x = D 10^q,
 * computed as one correctly rounded x87 extended operation (D and 10^|q|
 * are exact in 64-bit mantissas). Rounding that to double is exact unless
 * the extended result sits on a double midpoint (its 11 low bits are
 * 10000000000), which is detected; those and all other inputs go to strtod.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numconv.h"

void num_shortest_db(double x, uint64_t *digits, int *exp10); /* numconv_dragonbox.cpp */

static const uint64_t pow10u[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

/* Shortest %.Ng that reads back as x, by bisection over N: if N digits
 * read back, so do N + 1 (a correctly rounded longer decimal is closer). */
static int
slow_format(char *buf, double x)
{
	if (!isfinite(x))
		return snprintf(buf, 32, "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
	/* precisions 1..17: at most 24 characters, as the compiler can see
	 * from the unsigned char */
	unsigned char lo = 1, hi = 17;
	while (lo < hi) {
		unsigned char mid = (unsigned char)((lo + hi) / 2);
		snprintf(buf, 32, "%.*g", mid % 18, x);
		if (strtod(buf, NULL) == x)
			hi = mid;
		else
			lo = (unsigned char)(mid + 1);
	}
	return snprintf(buf, 32, "%.*g", lo % 18, x);
}

/* The number of decimal digits of v >= 1: floor(log10 v) + 1 from the bit
 * length (1233 / 4096 is log10 2 to 4e-5), corrected by one comparison. */
static int
ndigits(uint64_t v)
{
	int t = ((64 - __builtin_clzll(v)) * 1233) >> 12;
	return t + (v >= pow10u[t]);
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* The 8 decimal digits of v < 10^8, one per 16-bit lane, most significant
 * first: v = 10^4 hi + lo by a multiply-shift, then each of hi and lo, x,
 * in four lanes as x / 1000, x / 100, x / 10 and x (multiply-high by
 * 2^k / 10^j rounded up, on 4x so that every quotient is exact for
 * x < 10^4), less ten times the lane before. Checked for every v < 10^8
 * by test_numconv. */
static inline __m128i
digits8(uint32_t v)
{
	const __m128i div1e4 = _mm_set1_epi32((int)0xd1b71759), e4 = _mm_set1_epi32(10000);
	const __m128i mul = _mm_setr_epi16(8389, 5243, 13108, (short)32768, 8389, 5243, 13108, (short)32768);
	const __m128i shift = _mm_setr_epi16(1 << 7, 1 << 11, 1 << 13, (short)(1 << 15), 1 << 7, 1 << 11, 1 << 13,
	    (short)(1 << 15));
	__m128i x = _mm_cvtsi32_si128((int)v);
	__m128i hi = _mm_srli_epi64(_mm_mul_epu32(x, div1e4), 45);
	__m128i lo = _mm_sub_epi32(x, _mm_mul_epu32(hi, e4));
	__m128i four = _mm_slli_epi64(_mm_unpacklo_epi16(hi, lo), 2);
	four = _mm_unpacklo_epi16(four, four);
	four = _mm_unpacklo_epi32(four, four);
	__m128i q = _mm_mulhi_epu16(_mm_mulhi_epu16(four, mul), shift);
	return _mm_sub_epi16(q, _mm_slli_epi64(_mm_mullo_epi16(q, _mm_set1_epi16(10)), 16));
}

/* The 16 digits of v < 10^16, as text, into t. */
static inline void
digits16(char *t, uint64_t v)
{
	uint64_t h = v / 100000000;
	__m128i d = _mm_packus_epi16(digits8((uint32_t)h), digits8((uint32_t)(v - h * 100000000)));
	_mm_store_si128((__m128i *)(void *)t, _mm_add_epi8(d, _mm_set1_epi8('0')));
}
#endif

/* Exactly p digits of v < 10^p (leading zeros included) into out[0..p).
 * From 8 digits on (the 15-17 of most values), all sixteen at once in
 * SSE2 lanes, then the last p of them moved by two overlapping 8-byte
 * copies, which write nothing outside out[0..p): the pairs below took 90
 * instructions for 16 digits, these about 40. Fewer: right to left, two
 * per step from a table and in 32-bit arithmetic. */
static void
put_digits(char *out, uint64_t v, int p)
{
	static const char d2[201] =
	    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	    "8081828384858687888990919293949596979899";
#if defined(__SSE2__)
	if (p >= 8) {
		if (p == 17) {
			uint64_t lead = v / pow10u[16];
			*out++ = (char)('0' + lead);
			v -= lead * pow10u[16];
			p = 16;
		}
		_Alignas(16) char t[16];
		digits16(t, v);
		memcpy(out, t + 16 - p, 8);
		memcpy(out + p - 8, t + 8, 8);
		return;
	}
#endif
	char *e = out + p;
	for (; p > 8; p -= 8) {
		uint32_t lo = (uint32_t)(v % 100000000);
		v /= 100000000;
		for (int k = 0; k < 4; k++, lo /= 100) {
			e -= 2;
			memcpy(e, d2 + 2 * (lo % 100), 2);
		}
	}
	uint32_t w = (uint32_t)v;
	for (; p >= 2; p -= 2, w /= 100) {
		e -= 2;
		memcpy(e, d2 + 2 * (w % 100), 2);
	}
	if (p)
		*--e = (char)('0' + w);
}

/* digits (no trailing zero, at most 17 of them) times 10^exp10, in
 * %g-like style, into buf[32], each piece written once where it belongs:
 * text built elsewhere and copied over was read back before its stores
 * had landed (a store-forwarding stall, a fifth of writing CSV). */
static int
emit(char *buf, int neg, uint64_t digits, int exp10)
{
	int p = ndigits(digits);
	int X = exp10 + p - 1; /* exponent of the first digit */
	int n = 0;
	if (neg)
		buf[n++] = '-';
	if (X < -4 || X >= 16) {
		uint64_t lead = digits / pow10u[p - 1];
		buf[n++] = (char)('0' + lead);
		if (p > 1) {
			buf[n++] = '.';
			put_digits(buf + n, digits - lead * pow10u[p - 1], p - 1);
			n += p - 1;
		}
		int ax = X < 0 ? -X : X;
		buf[n++] = 'e';
		buf[n++] = X < 0 ? '-' : '+';
		if (ax >= 100)
			buf[n++] = (char)('0' + ax / 100);
		buf[n++] = (char)('0' + ax / 10 % 10);
		buf[n++] = (char)('0' + ax % 10);
	} else if (X < 0) {
		memcpy(buf + n, "0.000000", 8);
		n += 1 - X; /* "0." and -X - 1 zeros */
		put_digits(buf + n, digits, p);
		n += p;
	} else if (X + 1 >= p) {
		memcpy(buf + n, "0000000000000000", 16); /* zeros up to the point */
		put_digits(buf + n, digits, p);
		n += X + 1;
	} else {
		int f = p - X - 1; /* digits after the point */
		uint64_t hi = digits / pow10u[f];
		put_digits(buf + n, hi, X + 1);
		n += X + 1;
		buf[n++] = '.';
		put_digits(buf + n, digits - hi * pow10u[f], f);
		n += f;
	}
	buf[n] = 0;
	return n;
}

int
num_format(char *buf, double x)
{
	if (x == 0) {
		memcpy(buf, signbit(x) ? "-0" : "0", signbit(x) ? 3 : 2);
		return signbit(x) ? 2 : 1;
	}
	if (!isfinite(x))
		return slow_format(buf, x);
	double ax = fabs(x);
	if (ax < 9007199254740992.0 && ax == (double)(int64_t)ax) {
		/* an integer below 2^53: every integer near it is a double, so its
		 * shortest decimal is itself (what Dragonbox gives, with the
		 * trailing zeros emit writes back). Through int64_t, which
		 * converts in one instruction each way (uint64_t takes branches) */
		uint64_t u = (uint64_t)(int64_t)ax;
		int n = x < 0, p = ndigits(u);
		buf[0] = '-';
		put_digits(buf + n, u, p);
		buf[n + p] = 0;
		return n + p;
	}
	/* Where tagk wrote the shortest %.Ng and Dragonbox's digits or layout
	 * would differ, the shortest %.Ng still: in [1e16, 1e17), where 17
	 * digits print without an exponent; and at a power of two outside
	 * [1e-11, 1e16), whose narrower lower half can make Dragonbox's
	 * decimal shorter than any correctly rounded %.Ng. Elsewhere the two
	 * agree: the nearest N-digit decimal is inside a symmetric interval
	 * whenever any N-digit decimal is, and cannot tie. */
	uint64_t bits;
	memcpy(&bits, &x, 8);
	int pow2 = (bits & ((UINT64_C(1) << 52) - 1)) == 0 && (bits << 1) >> 53 != 0;
	if ((ax >= 1e16 && ax < 1e17) || (pow2 && !(ax >= 1e-11 && ax < 1e16)))
		return slow_format(buf, x);
	uint64_t digits;
	int exp10;
	num_shortest_db(x, &digits, &exp10);
	return emit(buf, x < 0, digits, exp10);
}

/* Step 4 of numconv.h's list: the C library's strtod, correctly rounded
 * for any decimal, for what num_parse's exact paths cannot decide (more
 * than 19 significant digits, a midpoint in extended precision) and for
 * words ("nan", "inf"); kept to decimals, an underflow refused. */
static int
slow_parse(const char *s, size_t len, double *out)
{
	char tmp[512];
	if (len >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = 0;
	char *end;
	double v = strtod(tmp, &end);
	if (end == tmp || *end)
		return -1;
	/* strtod accepts hex floats and "nan(...)": keep to decimals */
	for (size_t i = 0; i < len; i++)
		if (tmp[i] == 'x' || tmp[i] == 'X' || tmp[i] == '(')
			return -1;
	if (v == 0) /* a nonzero digit in the mantissa: underflow */
		for (size_t i = 0; i < len && tmp[i] != 'e' && tmp[i] != 'E'; i++)
			if (tmp[i] >= '1' && tmp[i] <= '9')
				return NUM_UNDERFLOW;
	*out = v;
	return 0;
}


int
num_parse(const char *s, size_t len, double *out)
{
	/* fast_float first (C++, numconv_ff.cpp): most callers (keyval,
	 * robotxml, the CSV reader's libcsv path) have not tried it yet; for
	 * the CSV fast path's leftovers it is a second, cheap refusal */
	if (num_parse_ff(s, len, out) == 0)
		return 0; /* a finite nonzero decimal, correctly rounded by fast_float */
	size_t i = 0;
	int neg = 0;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	uint64_t D = 0;
	int nd = 0, q = 0, any = 0;
	while (i < len && s[i] >= '0' && s[i] <= '9') {
		any = 1;
		if (nd < 19) {
			D = D * 10 + (uint64_t)(s[i] - '0');
			if (D)
				nd++;
		} else {
			q++;
			if (s[i] != '0')
				return slow_parse(s, len, out); /* more than 19 significant digits */
		}
		i++;
	}
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			any = 1;
			if (nd < 19) {
				D = D * 10 + (uint64_t)(s[i] - '0');
				if (D)
					nd++;
				q--;
			} else if (s[i] != '0') {
				return slow_parse(s, len, out);
			}
			i++;
		}
	}
	if (!any)
		return slow_parse(s, len, out); /* "nan", "inf", or not a number */
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		int eneg = 0, ev = 0, edig = 0;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			if (ev < 100000)
				ev = ev * 10 + (s[i] - '0');
			edig = 1;
			i++;
		}
		if (!edig)
			return -1;
		q += eneg ? -ev : ev;
	}
	if (i != len)
		return -1;
	if (D == 0) {
		*out = neg ? -0.0 : 0.0;
		return 0;
	}
	/* Clinger's fast path: D and 10^|q| exact in doubles, one correctly
	 * rounded operation */
	if (D <= (1ull << 53) && q >= -22 && q <= 22) {
		static const double p10[23] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
			1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
		double r = q < 0 ? (double)D / p10[-q] : (double)D * p10[q];
		*out = neg ? -r : r;
		return 0;
	}
#if LDBL_MANT_DIG >= 64
	if (q >= -27 && q <= 27) {
		long double v = (long double)D, p = (long double)pow10u[q < 0 ? (q < -19 ? 19 : -q) : (q > 19 ? 19 : q)];
		if (q < -19 || q > 19) {
			long double extra = (long double)pow10u[(q < 0 ? -q : q) - 19];
			p *= extra; /* exact: 10^27 < 2^64 * 5^... fits 64 mantissa bits */
		}
		v = q < 0 ? v / p : v * p;
		/* the 11 bits below a double's mantissa: a midpoint cannot be
		 * decided from the rounded extended value. v is normal (1e-27 <=
		 * v < 1e47): x87's format holds its 64-bit mantissa, integer bit
		 * included, in its first 8 bytes */
		uint64_t mant;
#if LDBL_MANT_DIG == 64 && (defined(__x86_64__) || defined(__i386__))
		memcpy(&mant, &v, 8);
#else
		int ex;
		mant = (uint64_t)ldexpl(frexpl(v, &ex), 64);
#endif
		if ((mant & 0x7ff) != 0x400) {
			double r = (double)v;
			*out = neg ? -r : r;
			return 0;
		}
	}
#endif
	return slow_parse(s, len, out);
}
