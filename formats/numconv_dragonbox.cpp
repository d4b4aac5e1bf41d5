/*
 * numconv_dragonbox.cpp: the shortest decimal that reads back as a double,
 * through fmt's Dragonbox (Jeon 2020; libfmt-dev, to_decimal from libfmt.so),
 * behind
 * a C function for num_format.
 *
 * Contract: x finite and nonzero. *digits and *exp10 give |x| as digits
 * times 10^exp10, digits having no trailing zero: the fewest digits of any
 * decimal inside x's rounding interval (its ends included when x's
 * significand is even, as strtod's ties-to-even reads them; the narrower
 * lower half at a power of two), and of those the nearest to x. That is
 * what num_format's own exact 128-bit search gave before; test_numconv
 * compares the two over random and edge-case values (its oracle,
 * tests/numconv_exact.c, is that search).
 *
 * Why a library: a hand-written shortest search was half of writing a CSV
 * stream; Dragonbox does it in a few multiplications with a table, and
 * fmt maintains and tests it. Linked from libfmt.so, not header-only: the
 * header-only build instantiates fmt's exception classes, which need the
 * C++ runtime at link time; libfmt.so carries its own.
 */
#define FMT_EXCEPTIONS 0
#include <fmt/format.h>
#include <cstdint>

extern "C" void num_shortest_db(double x, uint64_t *digits, int *exp10);

void
num_shortest_db(double x, uint64_t *digits, int *exp10)
{
	auto d = fmt::detail::dragonbox::to_decimal(x);
	uint64_t s = d.significand;
	int e = d.exponent;
	while (s % 10 == 0) { /* fmt removes them already; kept as the contract says */
		s /= 10;
		e++;
	}
	*digits = s;
	*exp10 = e;
}
