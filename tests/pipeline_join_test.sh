#!/bin/sh
# pipeline_join_test.sh: per-topic logs joined on one time base (tagk-filter --join,
# --stamp).
# One theme of the pipeline battery (tests/pipeline_*_test.sh): the real
# binaries composed as a user would, over tests/lib.sh's pipeline_setup.
set -u
BIN=${BIN:-bin}
MKFIX=${MKFIX:-build/mkfixtures}
. "$(dirname "$0")/lib.sh"
pipeline_setup

# per-topic logs joined on one time base: a PX4-like IMU topic at 250 Hz and
# a force/torque topic at 100 Hz (the same prescribed flight at two rates)
$S synth --rate 250 --seed 4 | grep -v '^#tagk-' > "$tmp/s250.csv"
$S synth --rate 100 --seed 4 | grep -v '^#tagk-' > "$tmp/s100.csv"
cut -d, -f1-10,17- "$tmp/s250.csv" > "$tmp/imu.csv"
cut -d, -f1,11-16 "$tmp/s100.csv" > "$tmp/ft.csv"
expect "--join: the 100 Hz topic onto the 250 Hz one" 0 "" \
	"^tagk-filter: --join .*ft.csv: dropped 2 rows outside its time span and 0 in its gaps longer than 0.05$" -- \
	$F "$tmp/imu.csv" --join "$tmp/ft.csv" -o "$tmp/joined.csv"
check "... the joined stream has the IMU's rows within the topic's span" test "$(plain "$tmp/joined.csv" | wc -l)" -eq 4999
check "... and at the topic's own times its values (to 1e-9)" awk -F, '
	/^#/ { next } NR == FNR { if (FNR > 1) for (i = 2; i <= 7; i++) f[sprintf("%.6f", $1), i] = $i; next }
	FNR > 2 && ((k = sprintf("%.6f", $1)) SUBSEP 2) in f { n++
		for (i = 2; i <= 7; i++) { a = f[k, i]; d = $(i + 19) - a; if (d < 0) d = -d
			if (d > 1e-9 * (a < 0 ? -a : a) + 1e-15) bad = 1 } }
	END { exit bad || n < 990 }' "$tmp/ft.csv" "$tmp/joined.csv"
r_direct=$($R "$tmp/s250.csv" | $E -a kf-low | $P --format csv | awk -F, '$2 == "m" { print $8 }')
r_joined=$($R "$tmp/joined.csv" | $E -a kf-low | $P --format csv | awk -F, '$2 == "m" { print $8 }')
check "... estimates through it: mass RMSPE $r_joined % against $r_direct % with every signal at 250 Hz" \
	awk -v a="$r_joined" -v b="$r_direct" 'BEGIN { exit !(a < 1.2 * b + 0.2) }'
# ROS-like exports: time split into stamp.sec and stamp.nsec
for f in imu ft; do
	awk -F, -v OFS=, 'NR == 1 { $1 = "stamp.sec,stamp.nsec"; print; next }
		{ ns = int($1 * 1e9 + 0.5); s = int(ns / 1e9); $1 = (1700000000 + s) "," (ns - s * 1e9); print }' \
		"$tmp/$f.csv" > "$tmp/ros_$f.csv"
done
expect "--stamp SEC,NSEC combines the time of every file" 0 "" "dropped 2 rows outside" -- \
	$F --stamp stamp.sec,stamp.nsec "$tmp/ros_imu.csv" --join "$tmp/ros_ft.csv:ft_" -o "$tmp/ros_joined.csv"
check "... into a first column t, prefixed joined columns" \
	test "$(sed -n 2p "$tmp/ros_joined.csv" | cut -d, -f1,2,21)" = "t,ax,ft_fx"
check "... t is sec + 1e-9 nsec" test "$(sed -n 4p "$tmp/ros_joined.csv" | cut -d, -f1)" = "1700000000.004"
expect "--join: a name in both files needs a prefix" 1 "" "two output columns named 't_x'|two output columns named 'fx'" -- \
	$F "$tmp/s250.csv" --join "$tmp/ft.csv"
awk -F, 'NR == 1 || $1 < 5 || $1 > 6' "$tmp/ft.csv" > "$tmp/ft_gap.csv"
expect "--join: rows in a gap of the topic are dropped and counted" 0 "" "and 255 in its gaps longer than 0.05" -- \
	$F "$tmp/imu.csv" --join "$tmp/ft_gap.csv:g_" -o "$tmp/gap.csv"
expect "--join: no time column" 1 "" "no time column 'time'" -- $F --time-col time "$tmp/imu.csv" --join "$tmp/ft.csv"
# a topic longer than the joined file's read-ahead (4097 rows: it is read
# as the stream goes), with a gap past the read-ahead
$S synth --rate 250 --seed 6 --duration 60 | grep -v '^#tagk-' | cut -d, -f1-10 > "$tmp/imu60.csv"
$S synth --rate 100 --seed 6 --duration 60 | grep -v '^#tagk-' | cut -d, -f1,11-16 | awk -F, 'NR == 1 || $1 < 50 || $1 > 51' \
	> "$tmp/ft60.csv"
in_gap=$(awk -F, 'NR == FNR { if (FNR > 1) { if ($1 < 50) a = $1; else if (b == "") b = $1 } next }
	FNR > 1 && $1 > a && $1 < b { n++ } END { print n }' "$tmp/ft60.csv" "$tmp/imu60.csv")
expect "--join: a 5899-row topic with a gap at 50 s: the $in_gap rows inside it dropped" 0 "" \
	"dropped [0-9]+ rows outside its time span and $in_gap in its gaps longer than 0.05$" -- \
	$F "$tmp/imu60.csv" --join "$tmp/ft60.csv" -o "$tmp/joined60.csv"
expect "--join - with the stream on standard input too: refused" 2 "" "--join -: standard input is read already" -- \
	sh -c "$F --join - < '$tmp/imu60.csv'"
expect "--join - with the stream from a file: the same rows as the file joined" 0 "" "" -- \
	sh -c "$F '$tmp/imu60.csv' --join - < '$tmp/ft60.csv' 2>/dev/null | cmp -s - '$tmp/joined60.csv'"
check "... and at the topic's own times its values (to 1e-9), after the read-ahead too" awk -F, '
	/^#/ { next } NR == FNR { if (FNR > 1) for (i = 2; i <= 7; i++) f[sprintf("%.6f", $1), i] = $i; next }
	FNR > 2 && ((k = sprintf("%.6f", $1)) SUBSEP 2) in f { n++; if ($1 > 55) late++
		for (i = 2; i <= 7; i++) { a = f[k, i]; d = $(i + 9) - a; if (d < 0) d = -d
			if (d > 1e-9 * (a < 0 ? -a : a) + 1e-15) bad = 1 } }
	END { exit bad || n < 2900 || late < 240 }' "$tmp/ft60.csv" "$tmp/joined60.csv"

finish
