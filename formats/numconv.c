/*
 * numconv.c: see numconv.h.
 *
 * Formatting, for |x| in [1e-11, 1e17): x = m 2^e exactly (m < 2^53). With
 * k = 16 - floor(log10 |x|) in [0, 27], x 10^k = m 5^k 2^(e+k), and m 5^k <
 * 2^116 fits in an unsigned __int128, so the 17 correctly rounded digits,
 * and the rounding interval of x (half an ulp each side, a quarter below
 * when m is a power of two) scaled the same way, are exact integers or
 * exact binary fractions. The shortest decimal in that interval is the
 * multiple of the largest power of ten 10^j that still fits; among those,
 * the one nearest x.
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

__extension__ typedef unsigned __int128 u128;

/* 10^-12 .. 10^18 as doubles (rounded), for the decimal exponent's estimate */
static const double p10d[31] = { 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3,
	1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
	1e15, 1e16, 1e17, 1e18 };

static const uint64_t pow10u[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

/* x / 10^j for j in 0..18, with a constant divisor in each case: the
 * compiler turns each into a multiplication, where a variable divisor
 * costs a 64-bit division (a tenth of num_format's time). */
static uint64_t
div10(uint64_t x, int j)
{
	switch (j) {
	case 0: return x;
	case 1: return x / 10ull;
	case 2: return x / 100ull;
	case 3: return x / 1000ull;
	case 4: return x / 10000ull;
	case 5: return x / 100000ull;
	case 6: return x / 1000000ull;
	case 7: return x / 10000000ull;
	case 8: return x / 100000000ull;
	case 9: return x / 1000000000ull;
	case 10: return x / 10000000000ull;
	case 11: return x / 100000000000ull;
	case 12: return x / 1000000000000ull;
	case 13: return x / 10000000000000ull;
	case 14: return x / 100000000000000ull;
	case 15: return x / 1000000000000000ull;
	case 16: return x / 10000000000000000ull;
	case 17: return x / 100000000000000000ull;
	default: return x / 1000000000000000000ull;
	}
}

/* 5^k for k in 0..27 (5^27 < 2^63) */
static const uint64_t pow5u[28] = {
	1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull, 390625ull, 1953125ull,
	9765625ull, 48828125ull, 244140625ull, 1220703125ull, 6103515625ull, 30517578125ull,
	152587890625ull, 762939453125ull, 3814697265625ull, 19073486328125ull, 95367431640625ull,
	476837158203125ull, 2384185791015625ull, 11920928955078125ull, 59604644775390625ull,
	298023223876953125ull, 1490116119384765625ull, 7450580596923828125ull,
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

/* Write the digits of v (no leading zeros), return their count. Two
 * digits per step from a table, in 32-bit arithmetic: a chain of one
 * 64-bit multiply per digit was a sixth of tagk-regress's CSV output. */
static int
utoa(char *out, uint64_t v)
{
	static const char d2[201] =
	    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	    "8081828384858687888990919293949596979899";
	char tmp[24];
	int n = 24;
	while (v >= 100000000) {
		uint32_t lo = (uint32_t)(v % 100000000);
		v /= 100000000;
		for (int k = 0; k < 4; k++, lo /= 100) {
			n -= 2;
			memcpy(tmp + n, d2 + 2 * (lo % 100), 2);
		}
	}
	uint32_t w = (uint32_t)v;
	for (; w >= 100; w /= 100) {
		n -= 2;
		memcpy(tmp + n, d2 + 2 * (w % 100), 2);
	}
	if (w >= 10) {
		n -= 2;
		memcpy(tmp + n, d2 + 2 * w, 2);
	} else {
		tmp[--n] = (char)('0' + w);
	}
	memcpy(out, tmp + n, (size_t)(24 - n));
	return 24 - n;
}

/* digits (p of them, as an integer) times 10^exp10, in %g-like style */
static int
emit(char *buf, int neg, uint64_t digits, int exp10)
{
	char d[24];
	int p = utoa(d, digits);
	int X = exp10 + p - 1; /* exponent of the first digit */
	int n = 0;
	if (neg)
		buf[n++] = '-';
	if (X < -4 || X >= 16) {
		buf[n++] = d[0];
		if (p > 1) {
			buf[n++] = '.';
			memcpy(buf + n, d + 1, (size_t)(p - 1));
			n += p - 1;
		}
		int ax = X < 0 ? -X : X;
		buf[n++] = 'e';
		buf[n++] = X < 0 ? '-' : '+';
		if (ax >= 100)
			buf[n++] = (char)('0' + ax / 100);
		buf[n++] = (char)('0' + ax / 10 % 10);
		buf[n++] = (char)('0' + ax % 10);
		buf[n] = 0;
		return n;
	}
	if (X < 0) {
		buf[n++] = '0';
		buf[n++] = '.';
		for (int i = 0; i < -X - 1; i++)
			buf[n++] = '0';
		memcpy(buf + n, d, (size_t)p);
		n += p;
	} else if (X + 1 >= p) {
		memcpy(buf + n, d, (size_t)p);
		n += p;
		for (int i = 0; i < X + 1 - p; i++)
			buf[n++] = '0';
	} else {
		memcpy(buf + n, d, (size_t)(X + 1));
		n += X + 1;
		buf[n++] = '.';
		memcpy(buf + n, d + X + 1, (size_t)(p - X - 1));
		n += p - X - 1;
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
	double ax = fabs(x);
	if (!(ax >= 1e-11 && ax < 1e17))
		return slow_format(buf, x);
	uint64_t bits;
	memcpy(&bits, &x, 8);
	int be = (int)((bits >> 52) & 0x7ff);
	uint64_t m = (bits & ((1ull << 52) - 1)) | (1ull << 52);
	int e = be - 1075; /* x = m 2^e */
	int asym = (bits & ((1ull << 52) - 1)) == 0; /* lower neighbour is closer */
	/* floor(log10 |x|) from the binary exponent: 1233 / 4096 is log10(2)
	 * to 4e-5, so this is the true value or one less; the loop below
	 * corrects it */
	int E = ((be - 1023) * 1233) >> 12;
	if (ax >= p10d[E + 12])
		E++;
	for (int attempt = 0; attempt < 3; attempt++) {
		int k = 16 - E;
		if (k < 0 || k > 27)
			return slow_format(buf, x);
		uint64_t p5 = pow5u[k];
		u128 P = (u128)m * p5;
		int s = e + k;
		int t = s >= 2 ? 0 : 2 - s;  /* values are kept as numerators over 2^t */
		int sh = s + t;               /* >= 2 */
		if (sh > 10 || t > 125)
			return slow_format(buf, x);
		u128 Xn = P << sh, Gn = (u128)p5 << sh;
		/* D17 = round half even of Xn / 2^t */
		u128 q = t ? Xn >> t : Xn;
		u128 rem = t ? Xn - (q << t) : 0;
		u128 half = t ? (u128)1 << (t - 1) : 0;
		if (t && (rem > half || (rem == half && (q & 1))))
			q++;
		if (q < pow10u[16]) { E--; continue; }
		if (q >= pow10u[17]) { E++; continue; }
		u128 Un = Xn + (Gn >> 1);
		u128 Ln = Xn - (asym ? Gn >> 2 : Gn >> 1);
		int incl = (m & 1) == 0;
		/* integer candidates at scale 10^k: [Lc, Uc] */
		u128 Lc = t ? Ln >> t : Ln, Uc = t ? Un >> t : Un;
		if (t) {
			if ((Lc << t) != Ln || !incl)
				Lc++; /* ceil, or strictly above an excluded boundary */
			if ((Uc << t) == Un && !incl)
				Uc--;
		} else if (!incl) {
			Lc++;
			Uc--;
		}
		uint64_t lo = (uint64_t)Lc, hi = (uint64_t)Uc;
		/* largest j with a multiple of 10^j in [lo, hi] */
		int j = 0;
		while (j < 17) {
			uint64_t qj = pow10u[j + 1];
			uint64_t c = div10(lo + qj - 1, j + 1) * qj;
			if (c > hi)
				break;
			j++;
		}
		uint64_t qj = pow10u[j];
		uint64_t c1 = div10(lo + qj - 1, j) * qj, best = c1;
		/* the nearest multiple to x: c1 or the next ones within [lo, hi] */
		for (uint64_t c = c1; c <= hi; c += qj) {
			u128 dc = ((u128)c << t) > Xn ? ((u128)c << t) - Xn : Xn - ((u128)c << t);
			u128 db = ((u128)best << t) > Xn ? ((u128)best << t) - Xn : Xn - ((u128)best << t);
			if (dc < db || (dc == db && (div10(c, j) & 1) == 0))
				best = c;
			if (c > hi - qj)
				break;
		}
		uint64_t digits = div10(best, j);
		int exp10 = j - k;
		while (digits % 10 == 0) {
			digits /= 10;
			exp10++;
		}
		return emit(buf, x < 0, digits, exp10);
	}
	return slow_format(buf, x);
}

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

int num_parse_ff(const char *s, size_t len, double *out); /* numconv_ff.cpp */

int
num_parse(const char *s, size_t len, double *out)
{
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
