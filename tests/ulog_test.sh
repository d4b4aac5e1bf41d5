#!/bin/sh
# ulog_test.sh: PX4 ULog logs (tagk-formats(5)): tagk-bench simulate's ULog
# read back by tagk-filter and checked, cell by cell, against
# tests/ulog_read.py (a reader of its own, written from PX4's format page,
# python3 and struct only); malformed files refused on one line;
# tagk-filter --list; tagk-regress --preset px4 against the simulation's
# truth.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
S=$BIN/tagk-bench F=$BIN/tagk-filter R=$BIN/tagk-regress E=$BIN/tagk-estimate P=$BIN/tagk-report
PY="python3 $(dirname "$0")/ulog_read.py"
# patch FILE OFFSET BYTE OUT: FILE with the byte at OFFSET replaced
patch() {
	python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[int(sys.argv[2])] = int(sys.argv[3]); open(sys.argv[4], "wb").write(d)' "$@"
}

# --- the reader against an independent one ------------------------------------
expect "simulate -o FLIGHT.ulg writes a ULog" 0 "" "helix, tagk: payload" -- \
	$S simulate --seed 3 -o "$tmp/f.ulg"
check "... that starts with the ULog magic" sh -c "head -c 7 '$tmp/f.ulg' | od -An -c | grep -q 'U   L   o   g 001 022   5'"
expect "tagk-filter reads it whole, by its magic" 0 \
	"^t,sensor_combined.timestamp,sensor_combined.gyro_rad.0,sensor_combined.gyro_rad.1," "" -- \
	$F "$tmp/f.ulg"
cp "$tmp/out" "$tmp/all.csv"
check "... arrays as .N, nested types as .field.N.sub, instance 1 as topic_1, no padding" sh -c \
	"grep -v '^#' '$tmp/all.csv' | head -1 | tr , '\n' > '$tmp/cols' &&
	grep -qx 'actuator_motors.control.11' '$tmp/cols' && grep -qx 'esc_status.esc.3.esc_voltage' '$tmp/cols' &&
	grep -qx 'sensor_accel_1.z' '$tmp/cols' && grep -qx 'sensor_accel.z' '$tmp/cols' && ! grep -q padding '$tmp/cols'"
expect "every cell agrees with ulog_read.py (base sensor_combined; the others interpolated, held or dropped)" 0 \
	"^99[0-9] rows, 75 columns agree" "" -- $PY check "$tmp/f.ulg" "$tmp/all.csv" sensor_combined
check "... and the spare motor channels are NaN (empty), not an error" sh -c \
	"grep -v '^#' '$tmp/all.csv' | sed -n 2p | grep -q ',0.5[0-9]*,,,,,,,,,'"
expect "--event vehicle_attitude: its samples are the rows" 0 "^5.001," "" -- \
	$F --event vehicle_attitude "$tmp/f.ulg"
cp "$tmp/out" "$tmp/att.csv"
expect "... and they agree with ulog_read.py too" 0 "rows, 75 columns agree" "" -- \
	$PY check "$tmp/f.ulg" "$tmp/att.csv" vehicle_attitude
expect "the checker itself sees a wrong cell" 1 "" "row 1, t: table 5.001, log 5.02" -- \
	$PY check "$tmp/f.ulg" "$tmp/att.csv" sensor_combined
expect "--event NOSUCH names the way to the topics" 1 "" "f.ulg: no topic 'nosuch' with data \(tagk-filter --list names them\)" -- \
	$F --event nosuch "$tmp/f.ulg"
expect "columns usable in expressions: --eval and --where on dotted names" 0 "" "" -- \
	$F --eval 'up=-sensor_combined.accelerometer_m_s2.2' --where 'esc_status.esc.0.esc_rpm > 0' "$tmp/f.ulg" -o "$tmp/ev.csv"
check "... up = -accelerometer_m_s2.2, about g in hover" sh -c \
	"grep -v '^#' '$tmp/ev.csv' | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"up\") c = i; next } \$c < 5 || \$c > 15 { bad = 1 } END { exit bad || NR < 900 }'"
expect "--map takes a glob over dotted names (no bracket to be read as a class)" 1 "" "missing column 'tx' for torque" -- \
	$R --map 'acc=sensor_combined.accelerometer_m_s2.*' --map 'gyro=sensor_combined.gyro_rad.?' \
	--map thrust=hover_thrust_estimate.hover_thrust "$tmp/f.ulg"

# --- tagk-filter --list --------------------------------------------------------
expect "--list: the topics, their rates and fields, then the parameters" 0 \
	"^sensor_combined: 1000 samples at 50 Hz, t 5.000 to 24.980 s, 12 fields$" "" -- $F --list "$tmp/f.ulg"
cp "$tmp/out" "$tmp/list"
check "... every topic with the samples ulog_read.py counts" sh -c \
	"$PY topics '$tmp/f.ulg' > '$tmp/pytopics' && sed -n 's/^\([a-z_0-9]*\): \([0-9]*\) samples.*/\1 \2/p' '$tmp/list' | cmp -s - '$tmp/pytopics'"
check "... hover_thrust_estimate at 10 Hz, fields under their topic" sh -c \
	"grep -q '^hover_thrust_estimate: 200 samples at 10 Hz' '$tmp/list' && grep -q '^  timestamp esc_count esc.0.esc_rpm esc.0.esc_voltage' '$tmp/list'"
check "... every parameter with the value ulog_read.py reads" sh -c \
	"$PY params '$tmp/f.ulg' | while read n v; do grep -q \" \$n=\" '$tmp/list' || exit 1; awk -v n=\"\$n\" -v v=\"\$v\" '{ for (i = 1; i <= NF; i++) { split(\$i, a, \"=\"); if (a[1] == n && (a[2] - v > 1e-9 || v - a[2] > 1e-9)) exit 1 } }' '$tmp/list' || exit 1; done"
$S simulate --seed 3 -o "$tmp/f.csv" 2>/dev/null
expect "--list on CSV: rows, rate and columns" 0 "f.csv: CSV, 1000 rows at 50 Hz, t 0 to 19.98, 32 columns" "" -- \
	$F --list "$tmp/f.csv"

# --- damaged files: one line, exit 1, never a crash ---------------------------
head -c 5000 "$tmp/f.ulg" > "$tmp/cut.ulg"
expect "a file cut inside a message: the rows before, and a note" 0 "ulog_truncated the last message, at byte 4956, is cut" "" -- \
	$F "$tmp/cut.ulg"
head -c 10 "$tmp/f.ulg" > "$tmp/short.ulg"
expect "a file cut in its header" 1 "" "^tagk-filter: .*short.ulg: not a ULog file \(shorter than its header\)$" -- \
	$F "$tmp/short.ulg"
# the flag bits message: header 16, message header 3, compat[8], incompat[8]
patch "$tmp/f.ulg" 27 2 "$tmp/incompat.ulg"
expect "an incompatible flag it does not know: refused, naming it" 1 "" \
	"incompatible flag bits 0x02 in byte 0: a ULog feature this reader does not know" -- $F "$tmp/incompat.ulg"
for case in "selfnest:format 't' contains itself, or nests deeper than 8" \
	"unknown-id:offset 172: data for msg_id 9, which no subscription names \(the file is damaged\)" \
	"short-data:offset 147: data of t: 12 bytes, its format has 16" \
	"bad-array:offset 59: format field 'float\[0\] x': bad array size" \
	"unknown-type:format 't', field 'x': unknown type 'quaternion'" \
	"no-timestamp:topic t has no uint64_t timestamp field"; do
	kind=${case%%:*}
	$PY damaged "$kind" "$tmp/$kind.ulg"
	expect "damaged ($kind): one line, exit 1" 1 "" "^tagk-filter: .*$kind.ulg:? ?${case#*:}$" -- $F "$tmp/$kind.ulg"
	check "... and only one line" test "$(wc -l < "$tmp/err")" -eq 1
done
$PY damaged newer "$tmp/newer.ulg"
expect "a message type newer than tagk is skipped by its size; appended data read from its offset" 0 \
	"^0.004,4000,3,-3$" "" -- $F "$tmp/newer.ulg"
check "... all four samples, none from the garbage before the appended data" \
	test "$(grep -vc '^#' "$tmp/out")" -eq 5

finish
