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
 *
 * num_parse_pad, the CSV reader's, reads the same shape from text with
 * readable bytes around it: the digit runs found by SSE2 compares over
 * 32 bytes (quick_shape, padded_shape), the fraction's digits converted
 * sixteen at once (last16), then the same two conversions. Its byte
 * loops branched at every digit; on a log's 17-digit numbers it takes
 * 210 instructions a number where num_parse_ff took 235.
 */
#include <fast_float/fast_float.h>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

extern "C" int num_parse_ff(const char *s, size_t len, double *out);
extern "C" int num_parse_pad(const char *s, size_t len, double *out);
extern "C" int num_parse_bits(const char *s, size_t len, uint32_t digits, uint32_t nonzero, double *out);
extern "C" const char *num_from_chars(const char *s, const char *e, double *out);
extern "C" const char *num_fields_from_chars(const char *s, const char *e, double *v, int max, int *n);

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

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* -1^neg * w * 10^q into *out as from_chars would, through its two
 * conversions; false where neither decides (then from_chars itself).
 * Inlined into its callers (issue 57): a call for it, and one from
 * num_parse_pad to num_parse_bits, were three calls a CSV cell where
 * from_chars makes one. */
ALWAYS_INLINE bool
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

#if defined(__SSE2__)
/* Bits k < 32 of s where s[k] is a digit, and where a digit other than
 * '0'. Four compares a 16-byte half: a digit is a byte whose distance
 * above '0', unsigned, is at most 9. */
inline uint32_t
digits32(const char *s, uint32_t *nonzero)
{
	const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
	__m128i lo = _mm_loadu_si128((const __m128i *)(const void *)s);
	__m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
	__m128i dl = _mm_sub_epi8(lo, zero), dh = _mm_sub_epi8(hi, zero);
	uint32_t d = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(dl, nine), dl)) |
	    (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(dh, nine), dh)) << 16;
	uint32_t z = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, zero)) |
	    (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, zero)) << 16;
	*nonzero = d & ~z;
	return d;
}

/* The 1..8 digits of the low n bytes of v (little-endian, so the first
 * digit lowest), as a number: the bytes above n become leading '0's by
 * shifting the digits up, then fast_float's eight-digit SWAR. */
inline uint64_t
eight(uint64_t v, int n)
{
	int sh = 8 * (8 - n);
	const uint64_t zeros = UINT64_C(0x3030303030303030);
	if (sh)
		v = v << sh | zeros >> (64 - sh);
	return fast_float::parse_eight_digits_unrolled(v);
}

/* The value of the n <= 19 digits at p (readable to p + 8): the first
 * n mod 8 digits, then eight at a time. */
inline uint64_t
run_value(const char *p, int n)
{
	uint64_t w = 0, v;
	int r = n & 7;
	if (r) {
		memcpy(&v, p, 8);
		w = eight(v, r);
		p += r;
	}
	for (n >>= 3; n; n--, p += 8) {
		memcpy(&v, p, 8);
		w = w * 100000000 + eight(v, 8);
	}
	return w;
}

/* 16 bytes of 0 then 16 of 0xff: from tail + n, the last n lanes set. */
const unsigned char tail[32] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* The value of the n <= 16 digits that end at e (readable from e - 16):
 * all sixteen lanes at once, the lanes before the n masked to 0, then
 * digit pairs, fours and eights by 16-bit multiply-adds (madd) and packs;
 * about a dozen instructions where eight at a time took forty. */
inline uint64_t
last16(const char *e, int n)
{
	const __m128i zero = _mm_setzero_si128();
	__m128i m = _mm_loadu_si128((const __m128i *)(const void *)(tail + n));
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(e - 16));
	v = _mm_and_si128(_mm_sub_epi8(v, _mm_set1_epi8('0')), m);
	__m128i lo = _mm_madd_epi16(_mm_unpacklo_epi8(v, zero), _mm_set1_epi32(1 << 16 | 10));
	__m128i hi = _mm_madd_epi16(_mm_unpackhi_epi8(v, zero), _mm_set1_epi32(1 << 16 | 10));
	__m128i x = _mm_madd_epi16(_mm_packs_epi32(lo, hi), _mm_set1_epi32(1 << 16 | 100));
	x = _mm_madd_epi16(_mm_packs_epi32(x, x), _mm_set1_epi32(1 << 16 | 10000));
	uint64_t r = (uint64_t)_mm_cvtsi128_si64(x);
	return (r & 0xffffffff) * 100000000 + (r >> 32);
}

inline int
run_len(uint32_t digits, int at)
{
	return __builtin_ctz(~(digits >> at)); /* at <= len < 32, bit len clear */
}

const uint64_t pow10_19[20] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000, 10000000000, 100000000000, 1000000000000, 10000000000000, 100000000000000,
	1000000000000000, 10000000000000000, 100000000000000000, 1000000000000000000,
	UINT64_C(10000000000000000000) };

/* The la <= 19 integer digits at s + i (readable to s + i + 8) times
 * 10^n, plus the n <= 19 fraction digits that end at s + pf (la + n <=
 * 19): the fraction's last 16 at once, the 0..3 before them and the
 * integer part (a log's has one or two digits) by the byte. */
inline uint64_t
mantissa(const char *s, int i, int la, int pf, int n)
{
	uint64_t w = n > 16 ? run_value(s + pf - n, n - 16) * pow10_19[16] + last16(s + pf, 16)
	    : n ? last16(s + pf, n) : 0;
	if (la) {
		uint64_t a = 0;
		if (la <= 3)
			for (int k = i; k < i + la; k++)
				a = 10 * a + (uint64_t)(s[k] - '0');
		else
			a = run_value(s + i, la);
		w += a * pow10_19[n];
	}
	return w;
}

/* The exponent of s[p..len) if it is [eE][-+]digits (at most five), into
 * *q; the end of s, or -1. */
inline int
exponent(const char *s, int p, int len, uint32_t d, int64_t *q)
{
	if (p == len)
		return p;
	if (s[p] != 'e' && s[p] != 'E')
		return -1;
	bool eneg = s[++p] == '-';
	p += s[p] == '-' || s[p] == '+';
	int nx = p < len ? run_len(d, p) : 0;
	if (nx == 0 || nx > 5)
		return -1;
	int64_t x = 0;
	for (int k = 0; k < nx; k++)
		x = 10 * x + (s[p + k] - '0');
	*q += eneg ? -x : x;
	return p + nx;
}

/* The shape common_shape reads, from the digit masks of s (len < 32,
 * readable from s - 16 to s + 48), for what quick_shape leaves: more
 * than 19 digits of which at most 19 are significant (the leading zeros
 * skipped by the first nonzero bit; common_shape counted them and left
 * such numbers to from_chars). The runs are each found by one count of
 * trailing bits, the fraction's digits read sixteen at a time from its
 * end. false for no nonzero digit, more than 19 significant digits, an
 * exponent of more than five digits, or anything left over. */
inline bool
padded_shape(const char *s, int len, uint32_t d, uint32_t nz, bool *neg, uint64_t *w_out, int64_t *q_out)
{
	d &= (UINT32_C(1) << len) - 1;
	int i0 = s[0] == '-', pa = i0 + run_len(d, i0), pf = pa, F = pa + 1;
	if (pa < len && s[pa] == '.')
		pf = F + run_len(d, F);
	nz &= (UINT32_C(1) << pf) - 1; /* the mantissa's digits */
	if (nz == 0)
		return false; /* no digit, or zero */
	int f = __builtin_ctz(nz), g = f < pa ? F : f; /* first significant digit, of the fraction */
	int la = f < pa ? pa - f : 0, n = pf > g ? pf - g : 0;
	if (la + n > 19)
		return false;
	uint64_t w = mantissa(s, f, la, pf, n);
	int64_t q = pf > pa ? F - pf : 0;
	if (exponent(s, pf, len, d, &q) != len)
		return false;
	*neg = i0;
	*w_out = w;
	*q_out = q;
	return true;
}
/* The common case of padded_shape, without the nonzero mask: at most 19
 * digits in all, leading zeros counted (as common_shape does). The
 * integer part's value times 10^n plus the n fraction digits' value,
 * read sixteen at a time from the fraction's end. false for everything
 * else, padded_shape's to decide. */
inline bool
quick_shape(const char *s, int len, uint32_t d, bool *neg, uint64_t *w_out, int64_t *q_out)
{
	d &= (UINT32_C(1) << len) - 1;
	int i0 = s[0] == '-', pa = i0 + run_len(d, i0), la = pa - i0, n = 0, pf = pa;
	if (pa < len && s[pa] == '.') {
		n = run_len(d, pa + 1);
		pf = pa + 1 + n;
	}
	if (la + n == 0 || la + n > 19)
		return false;
	uint64_t w = mantissa(s, i0, la, pf, n);
	int64_t q = -n;
	if (w == 0 || exponent(s, pf, len, d, &q) != len)
		return false;
	*neg = i0;
	*w_out = w;
	*q_out = q;
	return true;
}
#endif

/* num_parse_bits, inlined into num_parse_pad too. */
ALWAYS_INLINE int
parse_bits(const char *s, size_t len, uint32_t digits, uint32_t nonzero, double *out)
{
#if defined(__SSE2__)
	bool neg;
	uint64_t w;
	int64_t q;
	if (len > 0 && len < 32 && (quick_shape(s, (int)len, digits, &neg, &w, &q) ||
	    padded_shape(s, (int)len, digits, nonzero, &neg, &w, &q)) && convert(neg, w, q, out))
		return 0;
#else
	(void)digits;
	(void)nonzero;
#endif
	/* another shape (or 32 bytes or more): fast_float's general path
	 * here, before the C caller's own, so that every shape it reads is
	 * read by it (numconv.h's list, step 2) */
	return num_parse_ff(s, len, out);
}

} // namespace

int
num_parse_bits(const char *s, size_t len, uint32_t digits, uint32_t nonzero, double *out)
{
	return parse_bits(s, len, digits, nonzero, out);
}

int
num_parse_pad(const char *s, size_t len, double *out)
{
	uint32_t d = 0, nz = 0;
#if defined(__SSE2__)
	d = digits32(s, &nz);
#endif
	return parse_bits(s, len, d, nz, out);
}

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

const char *
num_from_chars(const char *s, const char *e, double *out)
{
	return fast_float::from_chars(s, e, *out).ptr;
}

/* io-floor's single pass: each field read where the last stopped, from_chars
 * inlined here (a call through num_from_chars per field, and a memchr for
 * each comma before it, were what io-floor's yardstick measured besides
 * the library). */
const char *
num_fields_from_chars(const char *p, const char *e, double *v, int max, int *n)
{
	int c = 0;
	for (;;) {
		double x = 0;
		p = fast_float::from_chars(p, e, x).ptr;
		v[c++] = x;
		if (c == max || p == e || *p != ',')
			break;
		p++;
	}
	*n = c;
	return p;
}
