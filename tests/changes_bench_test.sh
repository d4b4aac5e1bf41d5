#!/bin/sh
# changes_bench_test.sh: tagk-estimate --segment auto --min-shift (a
# centre-of-mass shift with m unchanged), and a small seeded instance of
# tagk-bench changes with floors on its figures that the full run clears
# with margin (tagk-bench(1)).
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
E=$BIN/tagk-estimate S=$BIN/tagk-bench

# rigid-body rows y (random, gravity on the z force row), b = y theta + noise;
# theta's mcx moves from 0.01 to 0.03 kg m (m = 1 kg: c moves 2 cm) at
# sample 1234 (12.34 s); nothing else changes
awk 'BEGIN { printf "t,row"; split("m mcx mcy mcz Ixx Ixy Iyy Ixz Iyz Izz", nm, " ")
	for (j = 1; j <= 10; j++) printf ",Y_%s", nm[j]; print ",b"
	split("1 0.01 0 0.02 0.05 0 0.05 0 0 0.05", a, " "); srand(11)
	for (s = 0; s < 2000; s++) { t = s / 100; for (r = 0; r < 6; r++) { printf "%.2f,%d", t, r; b = 0
		for (j = 1; j <= 10; j++) { y = rand() - 0.5; if (j == 1 && r == 2) y += 9.8; th = a[j]
			if (j == 2 && s >= 1234) th += 0.02; b += y * th; printf ",%.9g", y }
		printf ",%.9g\n", b + 0.02 * (rand() - 0.5) } } }' > "$tmp/shift.reg"
expect "a shift of the centre of mass, m unchanged: merged by default (the m rule)" 0 "*" "0 changes;" -- \
	$E --batch -a wls --segment auto "$tmp/shift.reg"
expect "--min-shift 0.005: kept" 0 "*" "1 change;" -- \
	$E --batch -a wls --segment auto --min-shift 0.005 "$tmp/shift.reg"
# columns: t, m .. Izz (2-11), sd (12-21), physical, t_start, t_end, lo, hi
check "... at 12.34 s, its interval covering it, mcx 0.01 then 0.03 within 3 sd" \
	awk -F, '/^#/ { next } !h { h = 1; next } { n++; x = n == 1 ? 0.01 : 0.03; d = $3 - x; if (d < 0) d = -d
	if (!(d <= 3 * $13)) bad = 1 } n == 2 { ok = $23 == 12.34 && $25 <= 12.34 && $26 >= 12.34 }
	END { exit bad || !ok || n != 2 }' "$tmp/out"
expect "--min-shift 0.05: a 2 cm move below it, merged" 0 "*" "0 changes;" -- \
	$E --batch -a wls --segment auto --min-shift 0.05 "$tmp/shift.reg"
expect "--min-shift without --segment auto" 2 "" "go with --segment auto" -- \
	$E --batch --min-shift 0.01 "$tmp/shift.reg"

# the bench, small and seeded (24 runs)
expect "tagk-bench changes --quick: runs, says its seed and what it compared" 0 \
	"^# tagk-bench changes: 24 runs of 20 s, seed 1;" "" -- $S changes --quick
cp "$tmp/out" "$tmp/bench.txt"
check "... names the offline, naive and online methods" sh -c "grep -q '^# offline: tagk-regress | tagk-estimate --batch -a wls --segment auto' '$tmp/bench.txt' &&
	grep -q '^# naive: tagk-estimate -a kf-low' '$tmp/bench.txt' && grep -q '^# online: ' '$tmp/bench.txt'"
# the all row: fam, runs, events | F1 dt FA/h m95 t95 | F1 dt FA/h | F1 dt FA/h (bars are fields)
row=$(grep '^all ' "$tmp/bench.txt")
# rowok COND: the all row's fields meet COND (awk)
rowok() { echo "$row" | awk "{ ok = ($1) } END { exit !ok }"; }
check "... every run counted: 24 runs, 18 events" rowok '$2 == 24 && $3 == 18'
check "... offline: F1 >= 0.65, timing within 0.05 s, no false alarm on the constant runs" \
	rowok '$5 >= 0.65 && $6 <= 0.05 && $7 == 0'
check "... offline: m intervals hold the truth in 70-100 %, change times in 85-100 %" \
	rowok '$8 >= 70 && $8 <= 100 && $9 >= 85 && $9 <= 100'
check "... naive kf-low threshold: F1 in (0.4, 1], delay 0-1 s" rowok '$11 > 0.4 && $11 <= 1 && $12 >= 0 && $12 <= 1'
check "... pick-ups and drops all found offline" \
	awk '$1 == "pick-up" || $1 == "drop" { split($2, x, "/"); if (x[1] != x[2] || x[2] == 0) bad = 1; n++ }
	END { exit bad || n != 2 }' "$tmp/bench.txt"
# the online column: dashes without tagk-estimate --detect, else an F1 in [0, 1]
if grep -q '^# online: .*not in this build' "$tmp/bench.txt"; then
	check "... online: not in this build, dashes" rowok '$15 == "-" && $16 == "-" && $17 == "-"'
else
	check "... online: an F1 in [0, 1], false alarms per hour >= 0" rowok '$15 >= 0 && $15 <= 1 && $17 >= 0'
fi
ramps=$(sed -n 's/^# ramps: \([0-9]*\); offline said a drift (dm_dt) on \([0-9]*\);.*/\1 \2/p' "$tmp/bench.txt")
check "... every ramp said as a drift" test -n "$ramps" -a "${ramps% *}" = "${ramps#* }" -a "${ramps% *}" != 0
expect "tagk-bench changes --runs 0: bad usage" 2 "" "--runs" -- $S changes --runs 0
finish
