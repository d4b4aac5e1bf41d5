#!/bin/sh
# handcheck_test.sh: the commands' figures against values worked out by
# hand, on inputs small enough to check on paper: tagk-report's NMAE and
# 95 % coverage on a four-row estimate stream, and tagk-regress --airborne
# on a log that ends in flight (the last span is kept, not lost) and one
# whose motors idle below the take-off threshold, and
# tagk-filter --join's interpolation, gaps and ends.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
TAGK_DATADIR=$PWD/datasets
export TAGK_DATADIR
S=$BIN/tagk-bench R=$BIN/tagk-regress P=$BIN/tagk-report
# near A B: |A - B| <= 1e-9 (1 + |B|)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
	exit !(a != "" && d <= 1e-9 * (1 + m)) }'; }

# --- tagk-report's metrics, by hand -----------------------------------------
# Truth 2.5 kg throughout; the errors are -0.5, 0.5, -0.1, -0.3, i.e.
# 1.67, 5, 0.5 and 1.5 standard deviations:
#   MAE  = 1.4 / 4 = 0.35          NMAE = sum |e| / sum |truth| = 1.4 / 10 = 0.14
#   RMSE = sqrt(0.6 / 4) = sqrt(0.15)
#   RMSPE = 100 sqrt(mean (e / 2.5)^2) = 100 sqrt(0.024)
#   cover95 = share with |e| <= 1.96 sd: rows 1, 3 and 4, 75 %
#   (at 1 sd it would be 25 %; NMAE over |estimate| 1.4 / 9.6)
printf 't,m,sd_m,true_m\n0.1,2.0,0.3,2.5\n0.2,3.0,0.1,2.5\n0.3,2.4,0.2,2.5\n0.4,2.2,0.2,2.5\n' > "$tmp/hand.est"
expect "tagk-report on a four-row stream worked by hand" 0 "" "" -- \
	$P --format csv "$tmp/hand.est" -o "$tmp/hand.csv"
# the parameter row: kind,name,t,n,rmse,mae,nmae,rmspe_pct,error_t1,recovery_s,cover95_pct
col() { awk -F, -v c="$1" '$1 == "parameter" && $2 == "m" { print $c }' "$tmp/hand.csv"; }
v=$(col 4)
check "... n 4 ($v)" [ "$v" = 4 ]
v=$(col 5) w=$(awk 'BEGIN { printf "%.17g", sqrt(0.15) }')
check "... RMSE sqrt(0.15) ($v)" near "$v" "$w"
v=$(col 6)
check "... MAE 0.35 ($v)" near "$v" 0.35
v=$(col 7)
check "... NMAE sum |e| / sum |truth| = 0.14 ($v)" near "$v" 0.14
v=$(col 8) w=$(awk 'BEGIN { printf "%.17g", 100 * sqrt(0.024) }')
check "... RMSPE 100 sqrt(0.024) ($v)" near "$v" "$w"
v=$(col 11)
check "... cover95: 3 of 4 errors within 1.96 sd, 75 % ($v)" near "$v" 75
# NMAE is a ratio of sums, not a mean of ratios: a truth that changes
# weighs by its size (errors 1 on truth 1, 1 on truth 9: 2 / 10)
printf 't,m,true_m\n0.1,2,1\n0.2,10,9\n' > "$tmp/nmae.est"
$P --format csv "$tmp/nmae.est" -o "$tmp/nmae.csv" 2>/dev/null
v=$(awk -F, '$1 == "parameter" && $2 == "m" { print $7 }' "$tmp/nmae.csv")
check "NMAE of errors 1 and 1 on truths 1 and 9: 2 / 10 = 0.2 ($v)" near "$v" 0.2
v=$(awk -F, '$1 == "parameter" && $2 == "m" { print $11 }' "$tmp/nmae.csv")
check "... and no coverage without sd columns ('$v')" [ "$v" = "" ]

# --- tagk-filter --join, by hand ----------------------------------------------
# x = 10 t sampled every 2 s at 0, 2, 4, 6 and then 20 s: interpolated at
# 1, 2.5 and 5.5 s it is 10, 25 and 55 (held: 0, 20, 40); 7 s lies in the
# 14 s gap, longer than 5 times the median spacing (2 s); -0.5 s lies
# before the file's first sample and 25 s after its last.
F=$BIN/tagk-filter
printf 't,x\n0,0\n2,20\n4,40\n6,60\n20,200\n' > "$tmp/j_src.csv"
printf 't,ax\n-0.5,0\n1,1\n2.5,2\n5.5,3\n7,4\n25,5\n' > "$tmp/j_base.csv"
expect "--join: rows dropped in the gap and past either end, said" 0 "" \
	"^tagk-filter: --join .*j_src.csv: dropped 2 rows outside its time span and 1 in its gaps longer than 10$" -- \
	$F --join "$tmp/j_src.csv:o_" "$tmp/j_base.csv" -o "$tmp/joined.csv"
check "... x interpolated: 10, 25, 55" sh -c "grep -v '^#' '$tmp/joined.csv' | cut -d, -f1,3 | tr '\n' ' ' |
	grep -qx 't,o_x 1,10 2.5,25 5.5,55 '"
$F --join "$tmp/j_src.csv:o_" --join-hold "$tmp/j_base.csv" -o "$tmp/held.csv" 2>/dev/null
check "... --join-hold: the sample at or before: 0, 20, 40" sh -c "grep -v '^#' '$tmp/held.csv' | cut -d, -f3 |
	tr '\n' ' ' | grep -qx 'o_x 0 20 40 '"

# --- --airborne on a log that ends in flight ----------------------------------
# The simulated flight takes off at 3.3 s and lands at 22.7 s (flight_test.sh);
# cut at 20 s, the log ends with the vehicle in the air: the span from
# 3.30 s to the log's end is kept.
M="--map rotors=motor.m1,motor.m2,motor.m3,motor.m4"
$S massflight --pwm crazyflie2 --m-nom 0.033 --mass constant --ground 3 --seed 5 -o "$tmp/pf.csv" 2>/dev/null
plain "$tmp/pf.csv" | awk -F, 'NR == 1 || $1 + 0 <= 20' > "$tmp/inair.csv"
expect "--airborne, a log that ends in flight: its last span kept to the end" 0 "" \
	"--airborne: kept 1 span, 16\.[0-9] of 20\.0 s \(8[0-9] %\), hover thrust 0\.3[0-9]* N: 3\.30-(19\.[5-9]0|20\.00) s" -- \
	$R -m mass --airborne --vehicle crazyflie2 $M "$tmp/inair.csv" -o "$tmp/inair.reg"
last=$(grep -v '^#' "$tmp/inair.reg" | tail -1 | cut -d, -f1)
check "... its rows run to the end of the flight ($last s)" awk -v t="$last" 'BEGIN { exit !(t >= 19.5) }'
# Motors idling on the ground from 0.5 s to 3 s at PWM 25600, half the
# hover thrust (0.041 of 0.082 N a motor by crazyflie2's map): below the
# 0.6 of hover that starts a span, so the span still starts at take-off
# (from the 0.4 that ends one, it would start at 0.80 s).
plain "$tmp/pf.csv" | awk -F, -v OFS=, 'NR > 1 && $1 + 0 >= 0.5 && $1 + 0 < 3 { $2 = $3 = $4 = $5 = 25600 } { print }' \
	> "$tmp/idle.csv"
expect "--airborne: motors idling at half the hover thrust are not flight" 0 "" \
	"--airborne: kept 1 span, 19\.4 of 26\.0 s \(75 %\), hover thrust 0\.3[0-9]* N: 3\.30-22\.70 s" -- \
	$R -m mass --airborne --vehicle crazyflie2 $M "$tmp/idle.csv" -o "$tmp/idle.reg"
# The accelerometer guard's upper bound: the same log in mg (a magnitude
# of 1000 on the ground) is refused, naming mg; in g's thousandth it would
# make a mass a thousand times off.
plain "$tmp/pf.csv" | awk -F, -v OFS=, 'NR > 1 { $10 *= 1000 / 9.80665; $11 *= 1000 / 9.80665; $12 *= 1000 / 9.80665 }
	{ print }' > "$tmp/mg.csv"
expect "an accelerometer logged in mg: refused, the unit named" 1 "" \
	"mg.csv: the specific force \(ax,ay,az\) has a median magnitude of 1e\+03 m/s\^2 .*check its unit \(mg\?" -- \
	$R -m mass --vehicle crazyflie2 $M "$tmp/mg.csv" -o "$tmp/mg.reg"
# The time and accelerometer guards' hints: the log timed in ms is
# refused, naming --time-unit ms; its accelerometer in g, naming
# --acc-unit g.
plain "$tmp/pf.csv" | awk -F, -v OFS=, 'NR > 1 { $1 *= 1000 } { print }' > "$tmp/ms.csv"
expect "a log timed in ms: refused, --time-unit named" 1 "" \
	"ms.csv: its samples are 10 s apart .*is its time column 't' in ms, us or ns\? Say so with --time-unit" -- \
	$R -m mass --vehicle crazyflie2 $M "$tmp/ms.csv" -o "$tmp/ms.reg"
plain "$tmp/pf.csv" | awk -F, -v OFS=, 'NR > 1 { $10 /= 9.80665; $11 /= 9.80665; $12 /= 9.80665 } { print }' > "$tmp/g.csv"
expect "an accelerometer logged in g: refused, --acc-unit g named" 1 "" \
	"g.csv: the specific force .* median magnitude of 1 m/s\^2 .*is it in g \(say --acc-unit g\)" -- \
	$R -m mass --vehicle crazyflie2 $M "$tmp/g.csv" -o "$tmp/g.reg"

finish
