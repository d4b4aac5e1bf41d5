#!/bin/sh
# changes_test.sh: tagk-estimate --segment auto (change points found from
# the data) and tagk-report's table of them.
#
# Independent references: an exhaustive NumPy search over every
# segmentation with up to three changes (tests/changes_oracle.py: same
# changes, same cost); the bundled drop flight with its truth column cut
# off, against that truth (1.0 -> 0.7463 kg at 9.87 s); and the real
# Crazyflie logs, constant-mass flights, where no change must be found.
set -u
BIN=${BIN:-bin}
D=${REALDATA:-../shared/realdata/crazyflie}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate F=$BIN/tagk-filter P=$BIN/tagk-report S=$BIN/tagk-bench

check "--segment auto equals an exhaustive NumPy search (changes and cost)" \
	/usr/bin/python3 "$(dirname "$0")/changes_oracle.py" "$E" "$tmp"

check "--segment auto: the change time's 95 % interval covers 88 % or more (Monte Carlo)" \
	/usr/bin/python3 "$(dirname "$0")/changes_coverage.py" "$E"

# the drop flight as a user without truth has it: true_m (column 19) cut off
plain datasets/uav-square-drop.csv | cut -d, -f1-18 > "$tmp/drop.csv"
$F --eval fx=0 --eval fy=0 --eval fz=thrust "$tmp/drop.csv" | $R -m mass --wrench force > "$tmp/drop.reg"
expect "drop flight: one change, said on stderr" 0 "*" "--segment auto: 1 change; cost" -- \
	$E --batch -a wls --segment auto "$tmp/drop.reg"
cp "$tmp/out" "$tmp/drop.est"
# columns: t,m,sd_m,physical,t_start,t_end,t_start_lo,t_start_hi,dm_dt,sd_dm_dt
check "... two segments" test "$(plain "$tmp/drop.est" | sed 1d | wc -l)" -eq 2
row2() { plain "$tmp/drop.est" | sed -n 3p; }
check "... the change within 0.05 s of 9.87, its interval covering 9.87" awk -F, -v r="$(row2)" 'BEGIN {
	split(r, x, ","); d = x[5] - 9.87; if (d < 0) d = -d; exit !(d <= 0.05 && x[7] <= 9.87 + 1e-9 && x[8] >= 9.87 - 1e-9) }'
check "... before and after: truth within 2 sd (1.0, then 0.7463)" awk -F, '/^#/ { next } !h { h = 1; next }
	{ n++; t = n == 1 ? 1.0 : 0.74629; d = $2 - t; if (d < 0) d = -d; if (!(d <= 2 * $3)) bad = 1 } END { exit bad || n != 2 }' "$tmp/drop.est"
for a in ols ols-pc wls-pc; do
	$E -q --batch -a $a --segment auto "$tmp/drop.reg" > "$tmp/drop_$a.est"
	check "... $a: the same change" test "$(plain "$tmp/drop_$a.est" | sed -n 3p | cut -d, -f5)" = "$(row2 | cut -d, -f5)"
done

# the minimum effect: a drop of 25 % passes 3 sd and 5 %; asked for 30 %, merged
$E -q --batch -a wls --segment auto --min-effect 3,0.3 "$tmp/drop.reg" > "$tmp/drop30.est"
check "--min-effect 3,0.3 merges a 25 % step away" test "$(plain "$tmp/drop30.est" | sed 1d | wc -l)" -eq 1
# the penalty: one so large no change pays for itself
$E -q --batch -a wls --segment auto --penalty 1e12 "$tmp/drop.reg" > "$tmp/dropbig.est"
check "--penalty 1e12: no change" test "$(plain "$tmp/dropbig.est" | sed 1d | wc -l)" -eq 1

# tagk-report without truth: the changes, before -> after
expect "tagk-report: the change with its interval" 0 "^change 1 at t = 9\.87 s \(9\.8[0-9]* to 9\.8[7-9][0-9]* s\)$" "" -- \
	$P "$tmp/drop.est"
check "... m before -> after with 95 % intervals" grep -Eq "^  m +0\.999[0-9]* \+- 0\.000[0-9]+ kg  ->  0\.746[0-9]* \+- 0\.000[0-9]+ kg$" "$tmp/out"
expect "tagk-report --format csv: one row per change and parameter" 0 "^1,9\.87[0-9]*,[0-9.]+,[0-9.]+,m,kg,0\.999" "" -- \
	$P --format csv "$tmp/drop.est"
$F --eval fx=0 --eval fy=0 --eval fz=thrust "$tmp/drop.csv" | $R -m mass --wrench force | $E -q --batch -a wls --segment auto | $P > "$tmp/pipe.txt"
check "the whole pipeline, regress | estimate --segment auto | report" grep -q "^change 1 at t = 9.87 s" "$tmp/pipe.txt"

expect "--penalty without --segment auto" 2 "" "go with --segment auto" -- $E --batch --penalty 3 "$tmp/drop.reg"
expect "--segment auto on dm" 2 "" "--segment auto: dm keeps every sample" -- \
	$E --batch -a dm --theta0 1,0,0,0,1,0,1,0,0,1 --segment auto "$tmp/drop.reg"
expect "--noise-sd: one per row index" 2 "" "--noise-sd: 1 values, but .* has 3 rows per sample" -- \
	$E --batch --segment auto --noise-sd 0.1 "$tmp/drop.reg"
expect "--segment auto on a window method" 2 "" "--segment applies to the batch methods" -- \
	$E -a rls-low --segment auto "$tmp/drop.reg"

# a slow drift (fuel burnt: m from 1.0 to 0.8 kg over 20 s, 1 kHz, white
# noise): one segment whose dm_dt covers -0.01 kg/s, not a staircase
/usr/bin/python3 - "$tmp/ramp.reg" <<'PYEOF'
import sys, numpy as np
rng = np.random.default_rng(5)
with open(sys.argv[1], "w") as f:
    f.write("t,row,Y_m,b\n")
    for s in range(20000):
        t = s * 1e-3
        m = 1.0 - 0.01 * t
        for r in range(3):
            y = 9.8 + rng.normal() if r == 2 else rng.normal()
            f.write("%r,%d,%r,%r\n" % (t, r, y, m * y + 0.05 * rng.normal()))
PYEOF
$E -q --batch -a wls --segment auto "$tmp/ramp.reg" > "$tmp/ramp.est"
check "a ramp of m: one segment, a drift" test "$(plain "$tmp/ramp.est" | sed 1d | wc -l)" -eq 1
check "... dm_dt within 3 sd of -0.01 kg/s" awk -F, '/^#/ { next } !h { h = 1; next }
	{ d = $9 + 0.01; if (d < 0) d = -d; ok = $10 > 0 && d <= 3 * $10 } END { exit !ok }' "$tmp/ramp.est"
$E -q --batch -a wls --segment auto "$tmp/drop.reg" > "$tmp/drop_nodrift.est"
check "the drop: no drift (dm_dt empty)" awk -F, '/^#/ { next } !h { h = 1; next } $9 != "" { bad = 1 } END { exit bad }' "$tmp/drop_nodrift.est"

# the rigid body (ten parameters, six rows): the bundled noisy synthetic
# flight picks up a payload at 5.06 s and drops it at 13.5 s
$R datasets/synth-payload-noisy.csv 2>/dev/null | $E -q --batch -a wls --segment auto > "$tmp/rb.est"
# columns: t, m ... Izz, sd_m ... sd_Izz, physical, true_m ... true_Izz (23-32), t_start, t_end, lo, hi, dm_dt
check "rigid body: changes at 5.06 and 13.5 s, intervals covering them, m within 2 sd of truth" \
	awk -F, '/^#/ { next } !h { h = 1; next } { n++; t[n] = $33; lo[n] = $35; hi[n] = $36
	d = $2 - $23; if (d < 0) d = -d; if (!(d <= 2 * $12) || $37 != "") bad = 1 }
	END { exit bad || n != 3 || t[2] != 5.06 || t[3] != 13.5 || !(lo[2] <= 5.06 && hi[2] >= 5.06) || !(lo[3] <= 13.5 && hi[3] >= 13.5) }' "$tmp/rb.est"
# noise-free rows: merging decided by rounding must not say a drift
$S synth --seed 3 2>/dev/null | $R 2>/dev/null | $E -q --batch -a wls --segment auto > "$tmp/exact.est"
check "noise-free synthetic flight: 2 changes, no drift said" awk -F, '/^#/ { next } !h { h = 1; next }
	{ n++; if ($37 != "") bad = 1 } END { exit bad || n != 3 }' "$tmp/exact.est"

# a log longer than the 16384 blocks kept: 140000 samples, blocks of 16
# (the least power of two that fits), a step of m 1 -> 0.9 at 77.777 s
awk 'BEGIN { print "t,row,Y_m,b"; srand(7); for (s = 0; s < 140000; s++) { m = s < 77777 ? 1 : 0.9
	for (r = 0; r < 2; r++) { y = r ? 9.8 + rand() - 0.5 : rand() - 0.5
	printf "%.3f,%d,%.9g,%.9g\n", s / 1000, r, y, m * y + 0.2 * (rand() - 0.5) } } }' > "$tmp/long.reg"
expect "a long log: blocks of 16 samples" 0 "*" "1 change; .* 16 samples per block" -- \
	$E --batch -a wls --segment auto "$tmp/long.reg"
check "... the interval covers 77.777 s" awk -F, '/^#/ { next } !h { h = 1; next } { n++ }
	n == 2 { ok = $7 <= 77.777 && $8 >= 77.777 && $8 - $7 < 0.2 } END { exit !ok }' "$tmp/out"

# real constant-mass flights: coloured residuals must not be cut up
if [ -f "$D/log182" ] && [ -f "$D/log201" ]; then
	for log in 182 201; do
		$R --preset crazyflie "$D/log$log" --airborne 2>/dev/null | $E -q --batch -a wls --segment auto > "$tmp/cf$log.est"
		check "crazyflie log$log --airborne: no change (one segment)" test "$(plain "$tmp/cf$log.est" | sed 1d | wc -l)" -eq 1
	done
else
	echo "skip crazyflie logs: none in $D"
fi
finish
