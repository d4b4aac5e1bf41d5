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
	"^99[0-9] rows, 93 columns agree" "" -- $PY check "$tmp/f.ulg" "$tmp/all.csv" sensor_combined
check "... and the spare motor channels are NaN (empty), not an error" sh -c \
	"grep -v '^#' '$tmp/all.csv' | sed -n 2p | grep -q ',0.4[0-9]*,,,,,,,,,'"
expect "a ULog on a pipe, gzip-compressed: the same rows" 0 "^#tagk-end: 99[0-9] rows; check $(tail -1 "$tmp/all.csv" | sed 's/.*check //')$" "" -- \
	sh -c "gzip -c '$tmp/f.ulg' | $F"
expect "a CSV whose first byte is U, on a pipe: still CSV, every byte kept" 0 "^Ux,b$" "" -- \
	sh -c "printf 'Ux,b\n1,2\n' | $F"
expect "--event vehicle_attitude: its samples are the rows" 0 "^5.001," "" -- \
	$F --event vehicle_attitude "$tmp/f.ulg"
cp "$tmp/out" "$tmp/att.csv"
expect "... and they agree with ulog_read.py too" 0 "rows, 93 columns agree" "" -- \
	$PY check "$tmp/f.ulg" "$tmp/att.csv" vehicle_attitude
expect "the checker itself sees a wrong cell" 1 "" "row 1, t: table 5.001, log 5.02" -- \
	$PY check "$tmp/f.ulg" "$tmp/att.csv" sensor_combined
expect "--event A|B|C: the first topic the log has" 0 "^5.001,5000000," "" -- \
	$F --event 'nosuch|vehicle_attitude|sensor_combined' "$tmp/f.ulg"
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
check "... and the logger's dropout (3 ms, simulated)" grep -q '^note: ulog_dropouts 1, 3 ms in all$' "$tmp/list"
check "... hover_thrust_estimate at 10 Hz, fields under their topic" sh -c \
	"grep -q '^hover_thrust_estimate: 200 samples at 10 Hz' '$tmp/list' && grep -q '^  timestamp esc_count esc.0.esc_rpm esc.0.esc_voltage' '$tmp/list'"
check "... every parameter (30) with the value ulog_read.py reads" sh -c \
	"$PY params '$tmp/f.ulg' > '$tmp/pyparams' && test \$(wc -l < '$tmp/pyparams') -eq 30 &&
	test \$(grep -o '[A-Z_0-9]*=' '$tmp/list' | wc -l) -eq 30 && while read n v; do grep -q \" \$n=\" '$tmp/list' || exit 1; awk -v n=\"\$n\" -v v=\"\$v\" '{ for (i = 1; i <= NF; i++) { split(\$i, a, \"=\"); if (a[1] == n && (a[2] - v > 1e-9 || v - a[2] > 1e-9)) exit 1 } }' '$tmp/list' || exit 1; done < '$tmp/pyparams'"
$S simulate --seed 3 -o "$tmp/f.csv" 2>/dev/null
expect "--list on CSV: rows, rate and columns" 0 "f.csv: CSV, 1000 rows at 50 Hz, t 0 to 19.98, 32 columns" "" -- \
	$F --list "$tmp/f.csv"

# --- tagk-regress --preset px4 ----------------------------------------------------
# the same flight (seed 5, medium noise) as a ULog and as tagk's CSV, whose
# force, torque and specific force are FLU and in newtons: the ULog's FRD
# IMU, NED attitude and rotor commands must give the same rows
$S simulate --seed 5 --noise medium -o "$tmp/n.ulg" 2>/dev/null
$S simulate --seed 5 --noise medium -o "$tmp/n.csv" 2>/dev/null
# the CSV without its logged alpha, which the ULog has not: both derive it
grep -v '^#' "$tmp/n.csv" | cut -d, -f1-7,11- > "$tmp/nal.csv"
printf 'thrust_scale 0.2\n' > "$tmp/my.veh"
expect "--preset px4 without a rotor's full thrust: said, with the two ways to give it" 2 "" \
	"--preset px4: the log does not say a rotor's full thrust: give it as the thrust_scale \(N\) of a vehicle file" -- \
	$R --preset px4 "$tmp/n.ulg"
expect "--preset px4 on a CSV: refused" 1 "" "n.csv: --preset px4 reads a PX4 ULog, and this is CSV" -- \
	$R --preset px4 --vehicle "$tmp/my.veh" "$tmp/n.csv"
expect "--preset px4 --vehicle (thrust_scale alone): rows, and the hover thrust's mass beside" 0 "" \
	"n.ulg: hover_thrust_estimate implies m = 0.035 kg \(its median hover thrust 0.42[0-9]* over 200 valid samples, as each of 4 rotors. normalised thrust" -- \
	$R --preset px4 --vehicle "$tmp/my.veh" -o "$tmp/ru.csv" "$tmp/n.ulg"
check "... the IMU's samples are the rows (5.00 s + the alpha window's 2 samples), not the attitude's" \
	sh -c "grep -v '^#' '$tmp/ru.csv' | sed -n 2p | grep -q '^5.04,0,'"
check "... written as the stream's note px4_hover_mass" grep -q '^#tagk-note: px4_hover_mass 0.0350' "$tmp/ru.csv"
$R "$tmp/nal.csv" > "$tmp/rc.csv" 2>/dev/null
expect "rigid-body rows from the ULog (FRD, NED, rotors from CA_ROTOR*, actuator_motors as normalised thrust) = those from the CSV" 0 \
	"rows agree" "" -- $PY regcmp "$tmp/ru.csv" "$tmp/rc.csv" 5 1e-5 2e-3
$R -m mass --preset px4 --vehicle "$tmp/my.veh" "$tmp/n.ulg" > "$tmp/rum.csv" 2>/dev/null
$R -m mass "$tmp/nal.csv" > "$tmp/rcm.csv" 2>/dev/null
expect "... and the mass rows" 0 "rows agree" "" -- $PY regcmp "$tmp/rum.csv" "$tmp/rcm.csv" 5 1e-5 2e-3
# without the preset's turn to FLU: the same columns, read as they are
expect "the ULog's FRD columns read as FLU: refused by the force check" 1 "" "force|z down|FRD" -- \
	$R -m mass --map 'acc=sensor_combined.accelerometer_m_s2.*' --map thrust=actuator_motors.control.0 "$tmp/n.ulg"
# the end to end of issue 56, after the payload is dropped (13.3 s into the
# flight, 18.3 s since boot): the vehicle's 0.035 kg within the interval
for model in rigid-body mass; do
	$R -m $model --preset px4 --vehicle "$tmp/my.veh" "$tmp/n.ulg" 2>/dev/null | $F --from 19.5 |
		$E --batch 2>/dev/null | $P > "$tmp/rep-$model" 2>&1
	check "tagk-regress --preset px4 -m $model | tagk-estimate --batch | tagk-report: m = 0.035 kg within its interval" \
		awk '$1 == "m" { v = $8; h = $(NF - 1); d = v - 0.035; if (d < 0) d = -d; ok = d <= h && h > 0 && h < 1e-4 } END { exit !ok }' "$tmp/rep-$model"
done
check "... and tagk-report states the hover thrust's mass beside tagk's" \
	grep -q "^# PX4's hover thrust estimate implies m = 0.035 kg through the same thrust model" "$tmp/rep-mass"
$R -m mass --preset px4 --vehicle "$tmp/my.veh" "$tmp/n.ulg" 2>/dev/null | $E 2>/dev/null | $P > "$tmp/rep-all" 2>&1
check "... the report's span in seconds since boot, readable (5.x to 24.9x s, not epoch stamps)" \
	grep -q 't 5\.[0-9]* to 24\.9[0-9]* s' "$tmp/rep-all"
# a CSV log stamped in Unix epoch seconds: its span was "t 1.71077e+09 to
# 1.71077e+09 s"
grep -v '^#' "$tmp/nal.csv" | awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { $1 = sprintf("%.3f", $1 + 1710770000); print }' \
	> "$tmp/epoch.csv"
$R -m mass "$tmp/epoch.csv" 2>/dev/null | $E 2>/dev/null > "$tmp/epoch.est"
expect "tagk-report on epoch stamps: the span to the millisecond, with its length" 0 \
	"^# stdin: 200 estimates, t 1710770000.080 to 1710770019.980 s \(19.9 s\), 2 truth changes$" "" -- \
	sh -c "$P < '$tmp/epoch.est'"
expect "... and the summary without truth too" 0 "t 1710770000.080 to 1710770019.980 s \(19.9 s\), no truth" "*" -- \
	sh -c "grep -v '^#' '$tmp/epoch.est' | cut -d, -f1-4 | $P"
# 3 s on the ground before the flight, the land detector airborne 1 s early
$S simulate --seed 5 --noise medium --ground 3 -o "$tmp/g.ulg" 2>/dev/null
expect "--ground 3: the land detector says airborne from 4.0 s since boot, a second before lift-off" 0 "^4," "" -- \
	sh -c "$F --event vehicle_land_detected --where 'vehicle_land_detected.landed == 0' '$tmp/g.ulg' | grep -v '^#' | sed -n 2p"
expect "--preset px4 without --airborne: the ground time said" 0 "" \
	"g.ulg: the vehicle flies in 8[0-9] % of the log .*--airborne keeps the flight only" -- \
	$R --preset px4 --vehicle "$tmp/my.veh" -m mass -o "$tmp/g.reg" "$tmp/g.ulg"
expect "--airborne trims by thrust: from 5.30 s (lift-off at 5.0, + 0.3 s), not the land detector's 4.0" 0 "" \
	"--airborne: kept 1 span, 19.4 of 23.0 s \(84 %\), hover thrust 0.352 N: 5.30-24.68 s" -- \
	$R --preset px4 --vehicle "$tmp/my.veh" -m mass --airborne -o "$tmp/ga.reg" "$tmp/g.ulg"
$F --from 19.5 "$tmp/ga.reg" | $E --batch 2>/dev/null | $P > "$tmp/rep-ga" 2>&1
check "... and the mass after the payload's drop is the vehicle's, within its interval" \
	awk '$1 == "m" { v = $8; h = $(NF - 1); d = v - 0.035; if (d < 0) d = -d; ok = d <= h && h > 0 && h < 1e-4 } END { exit !ok }' "$tmp/rep-ga"
# --calibrate-mass on a 4 s flight (the payload comes at 4 s or later)
$S simulate --seed 5 --noise medium --duration 4 -o "$tmp/c.ulg" 2>/dev/null
expect "--preset px4 --calibrate-mass: the full thrust fitted (0.2 N simulated)" 0 "" "thrust scale 0.2 over" -- \
	$R --preset px4 --calibrate-mass 0.035 -o "$tmp/cal.veh" "$tmp/c.ulg"
check "... its vehicle file: the rotors from CA_ROTOR* in FLU, KM > 0 turning -z" sh -c \
	"grep -q '^rotor 0.0324999988[0-9]* -0.0324999988[0-9]* -0 -1$' '$tmp/cal.veh' &&
	grep -q '^rotor 0.0324999988[0-9]* 0.0324999988[0-9]* -0 1$' '$tmp/cal.veh' &&
	grep -q '^kappa 0.00596399' '$tmp/cal.veh' &&
	awk '\$1 == \"thrust_scale\" { d = \$2 - 0.2; if (d < 0) d = -d; exit !(d < 0.002) }' '$tmp/cal.veh'"
# the thrust model: actuator_motors holds each rotor's normalised thrust
# T / T_max (linear, whatever THR_MDL_FAC); THR_MDL_FAC shapes only the
# signal FunctionMotors::updateValues() writes to actuator_outputs (PWM).
# The simulated log has THR_MDL_FAC 0.5: a reader that put actuator_motors
# through its curve gets a wrong mass above.
$S simulate --seed 5 -o "$tmp/q.ulg" 2>/dev/null
expect "ulog_read.py (PX4's relation, not tagk's): the log's thrusts give the true 0.035 kg, from both topics" 0 \
	"m 0.03(49[5-9]|50[0-4])[0-9]* from actuator_motors, 0.03(49[5-9]|50[0-4])[0-9]* from actuator_outputs \(THR_MDL_FAC 0.5\)" "" -- \
	$PY thrust "$tmp/q.ulg" 0.2 19.5
check "... and --preset px4's vehicle reads actuator_motors as linear: thrust_map 0 1" \
	grep -q '^thrust_map 0 1$' "$tmp/cal.veh"
$PY strip actuator_motors "$tmp/n.ulg" "$tmp/o.ulg"
expect "no actuator_motors: actuator_outputs' PWM read through THR_MDL_FAC's curve, said" 0 "" \
	"o.ulg: --preset px4: the rotors are actuator_outputs' PWM: 1100 .. 1900 as 0 .. 1, through THR_MDL_FAC 0.5's curve" -- \
	$R -m mass --preset px4 --vehicle "$tmp/my.veh" -o "$tmp/ro.csv" "$tmp/o.ulg"
expect "... its rows (channels by PWM_MAIN_FUNCn, shuffled) = those from the CSV" 0 "rows agree" "" -- \
	$PY regcmp "$tmp/ro.csv" "$tmp/rcm.csv" 5 1e-4 2e-3
$F --from 19.5 "$tmp/ro.csv" | $E --batch 2>/dev/null | $P > "$tmp/rep-o" 2>&1
check "... and the mass after the payload's drop is 0.035 kg, within its interval" \
	awk '$1 == "m" { v = $8; h = $(NF - 1); d = v - 0.035; if (d < 0) d = -d; ok = d <= h && h > 0 && h < 1e-4 } END { exit !ok }' "$tmp/rep-o"
check "... hover_thrust_estimate (normalised thrust) still linear: 0.035 kg" grep -q '^#tagk-note: px4_hover_mass 0.0350' "$tmp/ro.csv"
expect "--map rotors=actuator_outputs' channels, actuator_motors there too: read as PWM through the curve" 0 "" \
	"n.ulg: --preset px4: the rotors are actuator_outputs' PWM: 1100 .. 1900" -- \
	$R -m mass --preset px4 --vehicle "$tmp/my.veh" -o "$tmp/rm.csv" \
	--map rotors=actuator_outputs.output.1,actuator_outputs.output.3,actuator_outputs.output.0,actuator_outputs.output.2 "$tmp/n.ulg"
expect "... the same rows as without actuator_motors" 0 "rows agree" "" -- $PY regcmp "$tmp/rm.csv" "$tmp/ro.csv" 0 1e-9 1e-9
$PY strip actuator_outputs "$tmp/o.ulg" "$tmp/none.ulg"
expect "neither actuator_motors nor actuator_outputs: refused, naming both" 1 "" \
	"none.ulg: --preset px4: the log has neither actuator_motors nor actuator_outputs" -- \
	$R -m mass --preset px4 --vehicle "$tmp/my.veh" "$tmp/none.ulg"
expect "--map with pyulog's NAME[K]: the glob matches nothing, and the message names NAME.K" 1 "" \
	"the pattern 'sensor_combined.accelerometer_m_s2\[0\]' matches no column of .*f.ulg \(\[...\] is a glob's class here; the array element is the column 'sensor_combined.accelerometer_m_s2.0'\)" -- \
	$R --map 'acc=sensor_combined.accelerometer_m_s2[0],sensor_combined.accelerometer_m_s2[1],sensor_combined.accelerometer_m_s2[2]' "$tmp/f.ulg"

# --- damaged files: one line, exit 1, never a crash ---------------------------
head -c 5000 "$tmp/f.ulg" > "$tmp/cut.ulg"
expect "a file cut inside a message: the rows before, and a note" 0 "ulog_truncated the last message, at byte 4957, is cut" "" -- \
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
	"no-timestamp:topic t has no uint64_t timestamp field" \
	"huge:more than 1048576 numeric fields in all topics"; do
	kind=${case%%:*}
	$PY damaged "$kind" "$tmp/$kind.ulg"
	expect "damaged ($kind): one line, exit 1" 1 "" "^tagk-filter: .*$kind.ulg:? ?${case#*:}$" -- $F "$tmp/$kind.ulg"
	check "... and only one line" test "$(wc -l < "$tmp/err")" -eq 1
done
$PY damaged wide "$tmp/wide.ulg"
expect "260004 columns (their definitions take 100 bytes): read in bounded time, not n^2 name checks" 0 \
	"^t: 4 samples at 1000 Hz, t 0.001 to 0.004 s, 65001 fields$" "" -- timeout 60 $F --list "$tmp/wide.ulg"
$PY damaged newer "$tmp/newer.ulg"
expect "a message type newer than tagk is skipped by its size; appended data read from its offset" 0 \
	"^0.004,4000,3,-3$" "" -- $F "$tmp/newer.ulg"
check "... all four samples, none from the garbage before the appended data" \
	test "$(grep -vc '^#' "$tmp/out")" -eq 5

finish
