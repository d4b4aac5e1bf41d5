#!/bin/sh
# leaks_test.sh: the commands' everyday runs free what they allocate
# (LeakSanitizer on the ASan builds: BIN=build/asan-bin). A leak at exit
# costs nothing by itself, but one that grows with the input does, and a
# clean baseline is what lets a new one be seen. Skipped where
# LeakSanitizer cannot run (it needs to stop the process's threads).
set -u
BIN=${BIN:-build/asan-bin}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate F=$BIN/tagk-filter P=$BIN/tagk-report
ASAN_OPTIONS=detect_leaks=1
export ASAN_OPTIONS
if ! $R --version >/dev/null 2>"$tmp/probe" || grep -q 'LeakSanitizer has encountered a fatal error' "$tmp/probe"; then
	echo "skip leaks_test: LeakSanitizer cannot run here"
	exit 0
fi
if ! ldd "$R" 2>/dev/null | grep -q libasan; then
	echo "skip leaks_test: $R is not built with LeakSanitizer (BIN=build/asan-bin)"
	exit 0
fi

noleak() { ! grep -q 'LeakSanitizer: detected memory leaks' "$1"; }

$R datasets/synth-payload-noisy.csv > "$tmp/rows" 2> "$tmp/e.regress"
check "tagk-regress (rigid body) frees what it allocates" noleak "$tmp/e.regress"
$R -m mass datasets/uav-square-drop.csv > /dev/null 2> "$tmp/e.mass"
check "tagk-regress -m mass frees what it allocates" noleak "$tmp/e.mass"
for a in rls-low kf-low tagk; do
	$E -a $a "$tmp/rows" > "$tmp/est.$a" 2> "$tmp/e.$a"
	check "tagk-estimate -a $a frees what it allocates" noleak "$tmp/e.$a"
done
$E --batch -a wls --segment auto "$tmp/rows" > /dev/null 2> "$tmp/e.batch"
check "tagk-estimate --batch --segment auto frees what it allocates" noleak "$tmp/e.batch"
$F --eval x=t*2 --lowpass az=5 "$tmp/rows" > /dev/null 2> "$tmp/e.filter"
check "tagk-filter frees what it allocates" noleak "$tmp/e.filter"
$P "$tmp/est.rls-low" > /dev/null 2> "$tmp/e.report"
check "tagk-report frees what it allocates" noleak "$tmp/e.report"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
