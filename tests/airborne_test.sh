#!/bin/sh
# airborne_test.sh: tagk-regress --airborne trims by motion as well as by
# thrust. A simulated flight (lift-off at 3 s, touch-down at 23 s, 100 Hz)
# whose motors spin on the ground at 0.8 of the hover thrust for the second
# before lift-off and after touch-down, while the accelerometer reads +g
# (the ground carries the rest of the weight): by thrust alone (over 0.6 of
# hover) that second counts as flight; T / f_z there is 0.8 m, not m, so
# the motion criterion cuts it. The truth is the simulator's mass.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
S=$BIN/tagk-bench R=$BIN/tagk-regress E=$BIN/tagk-estimate P=$BIN/tagk-report

$S massflight --m-nom 0.033 --mass constant --ground 3 --seed 5 -o "$tmp/f.csv" 2>/dev/null
# thrust 0.8 m g from 2 s to lift-off (3 s) and from touch-down (23 s) to 24 s
plain "$tmp/f.csv" | awk -F, -v OFS=, 'NR > 1 && (($1 >= 2 && $1 < 3) || ($1 >= 23 && $1 < 24)) {
	$2 = 0.8 * 0.033 * 9.80665 } { print }' > "$tmp/spool.csv"
check "the log spins up on the ground: 100 rows at 0.8 of hover thrust before lift-off, az = g" sh -c \
	"awk -F, '\$1 >= 2 && \$1 < 3 && \$2 > 0.25 && \$2 < 0.26 && \$8 == 9.80665' '$tmp/spool.csv' | wc -l | grep -qx 100"
# the span by hand: lift-off 3.00 + trim 0.3 = 3.30 (3.29: the 0.1 s median
# flips 5 samples after lift-off, taken back by half its window, 0.05 s,
# less the float error of t), touch-down 23.00 - 0.3 = 22.70
expect "--airborne: the spin-up on the ground is cut, lift-off to touch-down less the trim" 0 "" \
	"--airborne: kept 1 span, 19\.4 of 26\.0 s \(75 %\), hover thrust 0\.32[0-9]* N: 3\.(29|30)-22\.70 s" -- \
	$R -m mass --airborne "$tmp/spool.csv" -o "$tmp/air.reg"
expect "... and it says what the motion cut (2 s: the two spin-ups, less half the median window each)" 0 "" \
	"the motion cut 1\.9[0-9] s from the ends of 1 span" -- \
	$R -m mass --airborne "$tmp/spool.csv" -o "$tmp/air.reg"
$E "$tmp/air.reg" 2>/dev/null | $P --format csv > "$tmp/air.rep" 2>/dev/null
r=$(awk -F, '$1 == "parameter" && $2 == "m" { print $8 }' "$tmp/air.rep")
check "... the mass is the simulator's (RMSPE $r %, under 0.5; the spin-up kept gives 4.7)" \
	awk -v r="$r" 'BEGIN { exit !(r != "" && r + 0 < 0.5) }'
# a payload dropped 2.5 s before landing (1 -> 0.764 kg at 5.52 s) lowers
# T / f_z for good, as the ground would: the motion takes m from the last
# 3 s of the span (their upper quartile, the post-drop mass) and cuts only
# the spin-down at 0.8 of the light vehicle's hover thrust
$S massflight --traj square --mass drop --seed 3 --duration 5 --ground 3 -o "$tmp/d.csv" 2>/dev/null
plain "$tmp/d.csv" | awk -F, -v OFS=, 'NR > 1 && $1 >= 2 && $1 < 3 { $2 = 0.8 * 9.80665 }
	NR > 1 && $1 >= 8 && $1 < 9 { $2 = 0.8 * 0.764087 * 9.80665 } { print }' > "$tmp/drop.csv"
check "the payload drops at 5.52 s, 2.5 s before touch-down" sh -c \
	"awk -F, 'NR > 2 && \$19 != p { print \$1 } { p = \$19 }' '$tmp/drop.csv' | grep -qx 5.52"
expect "--airborne: a late payload drop is flight, the spin-up and spin-down are not: 3.30-7.70 s" 0 "" \
	"--airborne: kept 1 span, 4\.4 of 11\.0 s \(40 %\), hover thrust [0-9.]* N: 3\.(29|30)-7\.70 s" -- \
	$R -m mass --airborne "$tmp/drop.csv" -o "$tmp/drop.reg"
# -m state reads no accelerometer: the thrust alone, as before, said
expect "-m state --airborne: no accelerometer, trimmed by thrust alone (said), the spin-up kept" 0 "" \
	"by thrust alone.*kept 1 span, 21\.4 of 26\.0 s|kept 1 span, 21\.4 of 26\.0 s.*by thrust alone" -- \
	sh -c "$R -m state --airborne '$tmp/spool.csv' -o '$tmp/st.reg' 2>&1 >/dev/null | tr '\n' ' ' >&2"
# thrust dips to the hysteresis band with no motion check: motors idling on
# the ground at half the hover thrust (above 0.4, below 0.6) start nothing
plain "$tmp/f.csv" | awk -F, -v OFS=, 'NR > 1 && $1 >= 0.5 && $1 < 3 { $2 = 0.5 * 0.033 * 9.80665 } { print }' > "$tmp/idle.csv"
expect "-m state --airborne: idling at half the hover thrust is not flight (the 0.6 threshold)" 0 "" \
	"kept 1 span, 19\.[0-9] of 26\.0 s \(7[45] %\), hover thrust 0\.32[0-9]* N: 3\.30-" -- \
	$R -m state --airborne "$tmp/idle.csv" -o "$tmp/idle.reg"
finish
