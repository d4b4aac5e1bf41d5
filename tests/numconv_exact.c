/*
 * numconv_exact.c: the test's oracle of num_format's digits. This is the
 * exact search num_format used before Dragonbox (formats/numconv.c until
 * issue 36), kept whole so that the new path is checked against the old
 * output bit for bit, not only against a round trip.
 *
 * For |x| in [1e-11, 1e17): x = m 2^e exactly (m < 2^53). With k = 16 -
 * floor(log10 |x|) in [0, 27], x 10^k = m 5^k 2^(e+k), and m 5^k < 2^116
 * fits in an unsigned __int128, so the 17 correctly rounded digits, and the
 * rounding interval of x (half an ulp each side, a quarter below when m is
 * a power of two) scaled the same way, are exact integers or exact binary
 * fractions. The shortest decimal in that interval is the multiple of the
 * largest power of ten 10^j that still fits; among those, the one nearest x.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "numconv_exact.h"

__extension__ typedef unsigned __int128 u128;

/* 10^-12 .. 10^18 as doubles (rounded), for the decimal exponent's estimate */
static const double p10d[31] = { 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3,
	1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
	1e15, 1e16, 1e17, 1e18 };

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

static const uint64_t pow10u[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

int
numconv_exact_shortest(double x, uint64_t *digits_out, int *exp10_out)
{
	double ax = fabs(x);
	if (!(ax >= 1e-11 && ax < 1e17))
		return -1;
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
			return -1;
		uint64_t p5 = pow5u[k];
		u128 P = (u128)m * p5;
		int s = e + k;
		int t = s >= 2 ? 0 : 2 - s;  /* values are kept as numerators over 2^t */
		int sh = s + t;               /* >= 2 */
		if (sh > 10 || t > 125)
			return -1;
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
		*digits_out = digits;
		*exp10_out = exp10;
		return 0;
	}
	return -1;
}
