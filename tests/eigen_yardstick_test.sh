#!/bin/sh
# eigen_yardstick_test.sh: the speed yardstick (bench/eigen_yardstick.cpp)
# computes what libtagk computes: TAG-K, the Kalman filter and block RLS
# written from the TAG-K paper's equations with Eigen agree with libtagk's
# estimates, in every form, to 1e-8 relative (rounding apart, TAG-K shares
# libtagk's random stream), but RLS's information form, which differs from
# eq. 8 by its regularised forgetting ((1 - lambda) P0^-1, rls.h): 1e-6 for
# it, 7e-8 measured after 20 updates. Skips where g++ or Eigen is
# missing. The timing columns are not checked: speed is make bench's.
set -u
. "$(dirname "$0")/lib.sh"
Y=${EIGEN_YARDSTICK:-build/eigen-yardstick}
if ! [ -x "$Y" ]; then
	echo "skip the Eigen yardstick: g++ or libeigen3-dev is not installed ($Y was not built)"
	finish
	exit 0
fi
"$Y" --updates 20 -n 10,40,120 > "$tmp/out" 2>&1
rc=$?
grep -v '^#' "$tmp/out" | sed 's/^/  /'
check "the yardstick runs" test $rc -eq 0
check "... 7 rows per size (tagk, kf-low in 3 forms, rls-low in 3)" sh -c \
	"awk '/^(tagk|kf-low|rls-low) / { n++ } END { exit !(n == 21) }' '$tmp/out'"
check "... every estimate within 1e-8 of libtagk's (RLS's information form: 1e-6)" sh -c \
	"awk '/^(tagk|kf-low|rls-low) / { tol = \$1 == \"rls-low\" && \$3 == \"info\" ? 1e-6 : 1e-8;
	 if (!(\$NF + 0 < tol)) bad++ } END { exit bad > 0 }' '$tmp/out'"
# the authors' form of TAG-K (a speed peer with its own random stream):
# a row per size, its estimate the same method's (measured 9e-4 to 3e-2
# relative to libtagk's after 20 updates; a broken iteration diverges or
# stays at 0, relative difference 1)
check "... an authors' row per size, its estimate within 0.1 of libtagk's" sh -c \
	"awk '/^authors / { n++; if (!(\$NF + 0 < 0.1)) bad++ } END { exit bad > 0 || n != 3 }' '$tmp/out'"
check "... TAG-K judged against 1.3x, the authors' form against 3x at n = 10 and 40 only" sh -c \
	"awk '/^tagk / && \$8 != \"1.3x\" { bad++ } /^authors / { t[\$2] = \$7 }
	 END { exit bad > 0 || t[10] != \">=\" || t[40] != \">=\" || t[120] != \"-\" }' '$tmp/out'"
"$Y" --updates 1 > /dev/null 2>&1
check "... refuses fewer than 3 updates" test $? -eq 2
# the AVX2 build (make bench-eigen's second run, where the CPU has AVX2
# and FMA): TAG-K only, still libtagk's estimate, no target judged
W=${EIGEN_YARDSTICK_AVX2:-build/eigen-yardstick-avx2}
if [ -x "$W" ] && grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo; then
	"$W" --updates 20 -n 10,120 --tagk-only > "$tmp/wide" 2>&1
	check "the AVX2 yardstick runs" test $? -eq 0
	check "... TAG-K only, within 1e-8 of libtagk, judged against 1.3x (the authors' form not judged)" sh -c \
		"awk '/^(kf-low|rls-low) / { bad++ } /^tagk / { n++; if (!(\$NF + 0 < 1e-8) || \$8 != \"1.3x\") bad++ }
		 /^authors / && \$7 != \"-\" { bad++ } END { exit bad > 0 || n != 2 }' '$tmp/wide'"
	check "... and says so" grep -q "^# the yardstick built with -mavx2 -mfma" "$tmp/wide"
else
	echo "skip the AVX2 yardstick: not built, or this CPU lacks AVX2 or FMA"
fi
# libtagk built with AVX2, FMA and contraction (make bench-eigen's third
# run): the sums fuse and reorder, so its last bits differ from the
# portable build's, but its estimates must stay within the same bounds of
# the yardstick's (measured: 1e-16 to 1e-15, RLS's information form 5e-10)
L=${EIGEN_YARDSTICK_LIBAVX2:-build/eigen-yardstick-libavx2}
if [ -x "$L" ] && grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo; then
	"$L" --updates 20 -n 10,40,120 > "$tmp/lib" 2>&1
	check "libtagk built with AVX2 and FMA runs against the yardstick" test $? -eq 0
	check "... 7 rows per size, every estimate within 1e-8 (RLS's information form: 1e-6), TAG-K's target not judged" sh -c \
		"awk '/^(tagk|kf-low|rls-low) / { n++; tol = \$1 == \"rls-low\" && \$3 == \"info\" ? 1e-6 : 1e-8;
		 if (!(\$NF + 0 < tol)) bad++ } /^tagk / && \$7 != \"-\" { bad++ } END { exit bad > 0 || n != 21 }' '$tmp/lib'"
	check "... and says so" grep -q "^# libtagk built with -mavx2 -mfma -ffp-contract=fast" "$tmp/lib"
else
	echo "skip libtagk built with AVX2: not built, or this CPU lacks AVX2 or FMA"
fi
finish
