/* test_binary.c: formats/binary.h, the binary stream's records as bytes.
 * binary_put must give, for every value, the 8 little-endian bytes of
 * binary_word (the value's bits, every NaN as the one quiet NaN), whether
 * or not its row holds a NaN: the fast path copies the row whole and only
 * a row with a NaN is rewritten. Checked against an independent per-byte
 * encoding over random rows of every length 0..140 (a sample's six rows of
 * 23 are 138 values), written at every alignment, with NaNs of every
 * sign and payload (signalling ones included) at random places, and
 * infinities, zeros of both signs and subnormals, which stay as they are. */
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "../formats/binary.h"

static uint64_t state = 0x243f6a8885a308d3u;

static uint64_t
next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* A value of one of the kinds above. */
static double
draw(int nan_row)
{
	uint64_t u = next(), bits;
	switch (next() % 8) {
	case 0: /* a NaN: exponent all ones, a nonzero payload, either sign */
		if (!nan_row)
			return 1.5;
		bits = (u & UINT64_C(0x800fffffffffffff)) | UINT64_C(0x7ff0000000000000);
		if (!(bits & UINT64_C(0x000fffffffffffff)))
			bits |= 1;
		break;
	case 1:
		bits = (u & (UINT64_C(1) << 63)) | UINT64_C(0x7ff0000000000000); /* +-Inf */
		break;
	case 2:
		bits = u & (UINT64_C(1) << 63); /* +-0 */
		break;
	case 3:
		bits = u & UINT64_C(0x800fffffffffffff); /* subnormal */
		break;
	default:
		bits = (u & UINT64_C(0x800fffffffffffff)) | (u % 2046 + 1) << 52;
	}
	double x;
	memcpy(&x, &bits, 8);
	return x;
}

static void
test_put_matches_bytes(void **st)
{
	(void)st;
	double row[140];
	unsigned char buf[140 * 8 + 16], want[140 * 8];
	int rows_with_nan = 0;
	for (int trial = 0; trial < 200000; trial++) {
		int n = (int)(next() % 141), nan_row = (int)(next() % 2), has_nan = 0;
		for (int i = 0; i < n; i++) {
			row[i] = draw(nan_row);
			has_nan |= isnan(row[i]);
		}
		rows_with_nan += has_nan;
		for (int i = 0; i < n; i++) {
			uint64_t u;
			memcpy(&u, &row[i], 8);
			if ((u & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000) &&
			    (u & UINT64_C(0x000fffffffffffff)))
				u = UINT64_C(0x7ff8000000000000);
			for (int k = 0; k < 8; k++)
				want[8 * i + k] = (unsigned char)(u >> (8 * k));
		}
		unsigned char *got = buf + next() % 8;
		memset(buf, 0xa5, sizeof(buf));
		binary_put(got, row, n);
		assert_memory_equal(got, want, (size_t)n * 8);
		assert_int_equal(got[8 * n], 0xa5); /* nothing past the row */
		for (int i = 0; i < n; i++) { /* and binary_get reads it back */
			double back = binary_get(got + 8 * i);
			assert_true(isnan(row[i]) ? isnan(back) : memcmp(&back, &row[i], 8) == 0);
		}
	}
	assert_true(rows_with_nan > 50000); /* the rewriting path was taken */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_matches_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
