#!/bin/sh
# mass_test.sh: the time-varying mass tools through the real binaries:
# tagk-bench massflight and rmspe, and tagk-estimate's state-space methods
# (ekf, msckf, ukf, swls) on tagk-regress -m state's stream: accuracy
# against the log's true mass, the MSCKF identity, formats, mapping, and the
# bad-input battery.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
E=$BIN/tagk-estimate S=$BIN/tagk-bench P=$BIN/tagk-report R=$BIN/tagk-regress

# --- massflight --------------------------------------------------------------
expect "massflight writes a log" 0 "" "square, drop, seed 3: 801 samples at 100 Hz, mass 1 -> 0.7" -- \
	$S massflight --traj square --mass drop --seed 3 --duration 8 -o "$tmp/fdecl.csv"
check "massflight declares a tagk stream" test "$(head -1 "$tmp/fdecl.csv")" = "#tagk-stream: 3"
check "massflight ends it with its row count and check value" sh -c "tail -1 '$tmp/fdecl.csv' | grep -Eqx '#tagk-end: 801 rows; check [0-9a-f]{16}'"
# the edits below change rows by line number: a plain CSV copy
plain "$tmp/fdecl.csv" > "$tmp/f.csv"
check "massflight header" test "$(head -1 "$tmp/f.csv")" = \
	"t,thrust,gx,gy,gz,ax,ay,az,qw,qx,qy,qz,px,py,pz,vx,vy,vz,true_m"
$S massflight --traj square --mass drop --seed 3 --duration 8 > "$tmp/f2.csv" 2>/dev/null
check "massflight: same seed, same bytes" cmp -s "$tmp/fdecl.csv" "$tmp/f2.csv"
$S massflight --traj square --mass drop --seed 4 --duration 8 > "$tmp/f3.csv" 2>/dev/null
check "massflight: another seed, another flight" sh -c "! cmp -s '$tmp/fdecl.csv' '$tmp/f3.csv'"
expect "massflight: mass by number" 0 "^t,thrust" "lemniscate, swaps" -- $S massflight --traj 2 --mass 2 --duration 1
expect "massflight --help" 0 "usage: tagk-bench massflight" "" -- $S massflight --help
expect "massflight: bad trajectory" 2 "" "--traj: 'circle' is not one of random, loop, lemniscate, zigzag, square" -- \
	$S massflight --traj circle
expect "massflight: bad behaviour" 2 "" "--mass: '7' is not one of constant, drain, swaps, drop, load" -- \
	$S massflight --mass 7
expect "massflight: stray argument" 2 "" "unexpected argument 'x'" -- $S massflight x

# --- tagk-estimate on the log's signals --------------------------------------
# RMSPE against true_m, computed here from the raw stream
# RMSPE of the column m against true_m, found by name in the header
rmspe() { awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ r = ($c["m"] - $c["true_m"]) / $c["true_m"]; s += r * r; n++ } END { printf "%.6f\n", sqrt(s / n) }' "$1"; }
for m in ekf msckf ukf swls; do
	expect "$m: runs on the log" 0 "" "" -- $E -a $m "$tmp/f.csv" -o "$tmp/e_$m.csv"
	check "$m: one estimate per sample after the first" test "$(plain "$tmp/e_$m.csv" | wc -l)" -eq 801
	check "$m: header t,m,sd_m,physical,true_m" test "$(sed -n 2p "$tmp/e_$m.csv")" = "t,m,sd_m,physical,true_m"
	r=$(rmspe "$tmp/e_$m.csv")
	check "$m: RMSPE $r under 5 % through a 25 % payload drop (23 % if it did not track)" awk -v r="$r" 'BEGIN { exit !(r < 0.05) }'
done
check "msckf's head is the ekf's (max relative difference < 1e-9)" awk -F, '
	/^#/ { next }
	NR == FNR { a[FNR] = $2; next }
	FNR > 2 { d = ($2 - a[FNR]) / a[FNR]; if (d < 0) d = -d; if (d > m) m = d }
	END { exit !(m < 1e-9) }' "$tmp/e_ekf.csv" "$tmp/e_msckf.csv"
expect "reads stdin" 0 "" "" -- sh -c "$E -a ekf < '$tmp/f.csv' > '$tmp/e_stdin.csv'"
check "stdin gives the same estimates" cmp -s "$tmp/e_stdin.csv" "$tmp/e_ekf.csv"
expect "--help shows the state-space synopsis" 0 "tagk-estimate -a ekf\|msckf\|ukf\|swls \[--m0 KG\]" "" -- $E --help
expect "ekf | tagk-report" 0 "rmspe_%" "" -- sh -c "$E -a ekf '$tmp/f.csv' | $P"
expect "--every 10" 0 "" "" -- $E -a ukf --every 10 "$tmp/f.csv" -o "$tmp/e10.csv"
check "--every 10 writes 80 rows" test "$(plain "$tmp/e10.csv" | wc -l)" -eq 81
expect "-v: the hover guess" 0 "" "ekf: m0 1.* \(hover guess from the first thrust\)" -- $E -a ekf -v "$tmp/f.csv" -o "$tmp/discard.csv"
expect "-v: --m0 and the update time" 0 "" "swls: 800 updates, mean .* us each" -- \
	$E -a swls -v --m0 1.3 --window 4 --iters 2 --gauss-newton "$tmp/f.csv" -o "$tmp/discard.csv"
expect "--proc-sd and --meas-sd" 0 "" "process sd att 0.001 pos 0.02 vel 0.2 mass 0.1; measurement sd att 0.01 pos 0.02 vel 0.03" -- \
	$E -a ekf -v --proc-sd 0.001,0.02,0.2,0.1 --meas-sd 0.01,0.02,0.03 "$tmp/f.csv" -o "$tmp/discard.csv"
expect "--list names the state-space methods" 0 "^swls +sliding-window least squares" "" -- $E --list

# formats and mapping give the same estimates
$S massflight --traj square --mass drop --seed 3 --duration 8 -o "$tmp/f.h5" 2>/dev/null
expect "reads HDF5" 0 "" "" -- $E -a ekf "$tmp/f.h5" -o "$tmp/e_h5.csv"
check "HDF5 and CSV give the same bytes" cmp -s "$tmp/e_h5.csv" "$tmp/e_ekf.csv"
# the mapping lives in tagk-regress -m state; its stream gives the same
# estimates as the log read directly (same column names, SI units)
expect "tagk-regress -m state" 0 "" "" -- sh -c "$R -m state '$tmp/f.csv' > '$tmp/state.csv'"
check "the state stream's header" test "$(sed -n 2p "$tmp/state.csv")" = \
	"t,thrust,gx,gy,gz,qw,qx,qy,qz,px,py,pz,vx,vy,vz,true_m"
$E -a ekf "$tmp/state.csv" -o "$tmp/e_state.csv"
check "the state stream gives the log's estimates" cmp -s "$tmp/e_state.csv" "$tmp/e_ekf.csv"
sed '1s/px,py,pz/pos_x,pos_y,pos_z/' "$tmp/f.csv" > "$tmp/renamed.csv"
expect "a missing column names the state stream" 1 "" "no column 'px': ekf reads the state stream .*tagk-regress -m state" -- \
	$E -a ekf "$tmp/renamed.csv"
expect "regress: missing pos names --map" 1 "" "missing column 'px' for pos .*--map pos=COLS" -- \
	$R -m state "$tmp/renamed.csv"
$R -m state --map pos=pos_x,pos_y,pos_z "$tmp/renamed.csv" | $E -a ekf -o "$tmp/e_map.csv"
check "--map pos= gives the same estimates" cmp -s "$tmp/e_map.csv" "$tmp/e_ekf.csv"
# the attitude's convention, checked against the gyro (consistency_guard.h)
expect "a quaternion read in the wrong order: refused, its order named" 1 "" \
	"the attitude \(qx,qy,qz,qw\) does not turn with the gyro \(gx,gy,gz\).*read as x, y, z, w it follows the gyro" -- \
	$R -m state --map quat=qx,qy,qz,qw "$tmp/f.csv"
awk -F, -v OFS=, -v CONVFMT=%.17g '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ $c["qx"] = -$c["qx"]; $c["qy"] = -$c["qy"]; $c["qz"] = -$c["qz"]; print }' "$tmp/f.csv" > "$tmp/conj.csv"
expect "a quaternion that turns world to body: refused, conjugation named" 1 "" \
	"its rotation is -[01]\.[0-9]* \+- [0-9.e-]* times the gyro's integral.*read conjugated \(x, y, z negated\) it follows the gyro" -- \
	$R -m state "$tmp/conj.csv"
expect "... --no-consistency-check reads it as it is" 0 "" "" -- sh -c "$R -m state --no-consistency-check '$tmp/conj.csv' > /dev/null"
# the thrust against the specific force (consistency_guard.h's forceguard): a body
# frame with z down (FRD, as PX4 logs its sensors: ay and az negated, with
# the gyro's y and z) beside a positive thrust gave a negative mass, said only
# at the end by tagk-report
awk -F, -v OFS=, -v CONVFMT=%.17g '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ $c["ay"] = -$c["ay"]; $c["az"] = -$c["az"]; $c["gy"] = -$c["gy"]; $c["gz"] = -$c["gz"]; print }' "$tmp/f.csv" > "$tmp/frd.csv"
expect "a z-down (FRD) body frame beside a positive thrust: refused, the frame named" 1 "" \
	"frd.csv: the force \(thrust\) points against the specific force \(ax,ay,az\): .* is -1\.00 .*z-down \(FRD or NED" -- \
	$R -m mass "$tmp/frd.csv"
expect "... read as the log says (a negative mass) with --no-consistency-check, then flagged by tagk-report" 0 "" \
	"the final mass, -[0-9.]+ kg, is not physical" -- sh -c "$R -m mass --no-consistency-check '$tmp/frd.csv' | $E -a rls-low | $P > /dev/null"

# attitude as roll, pitch, yaw, and positions in millimetres
awk -F, -v OFS=, 'NR == 1 { print $0, "roll", "pitch", "yaw"; next }
	{ w = $9; x = $10; y = $11; z = $12; sp = 2 * (w * y - z * x)
	  printf "%s,%.17g,%.17g,%.17g\n", $0, atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)),
	      atan2(sp, sqrt(1 - sp * sp)), atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)) }' "$tmp/f.csv" > "$tmp/rpy.csv"
$R -m state --map rpy=roll,pitch,yaw "$tmp/rpy.csv" | $E -a ekf -o "$tmp/e_rpy.csv"
close() { awk -F, -v tol="$3" '/^#/ { next } NR == FNR { a[FNR] = $2; next }
	FNR > 2 { d = ($2 - a[FNR]) / a[FNR]; if (d < 0) d = -d; if (d > m) m = d; n++ }
	END { exit !(m < tol && n > 700) }' "$1" "$2"; }
check "roll, pitch, yaw give the quaternion's estimates (to 1e-9)" close "$tmp/e_ekf.csv" "$tmp/e_rpy.csv" 1e-9
awk -F, -v OFS=, 'NR > 1 { for (i = 13; i <= 18; i++) $i = sprintf("%.17g", $i * 1000) } { print }' "$tmp/f.csv" > "$tmp/mm.csv"
$R -m state --pos-unit mm "$tmp/mm.csv" | $E -a ekf -o "$tmp/e_mm.csv"
check "millimetres give the metres' estimates (to 1e-9)" close "$tmp/e_ekf.csv" "$tmp/e_mm.csv" 1e-9
expect "--pos-unit outside -m state" 2 "" "--pos-unit applies to -m state" -- $R --pos-unit mm "$tmp/f.csv"
expect "the preset on a log without its columns" 1 "" "missing column 'ctrlLee.omegax' for gyro" -- \
	$R -m state --preset crazyflie "$tmp/f.csv"
expect "tagk-estimate --preset says where it moved" 2 "" \
	"--preset moved to tagk-regress: tagk-regress -m state --preset crazyflie LOG \| tagk-estimate -a ekf" -- \
	$E -a ekf --preset crazyflie "$tmp/f.csv"
expect "tagk-estimate --map says where it moved" 2 "" "--map moved to tagk-regress" -- \
	$E -a swls --map pos=a,b,c "$tmp/f.csv"
awk -F, -v OFS=, 'NR == 50 { $9 = 0.5 } { print }' "$tmp/f.csv" > "$tmp/badq0.csv"
expect "regress -m state: non-unit quaternion" 1 "" "badq0.csv:50: the attitude quaternion is not of unit length" -- \
	$R -m state "$tmp/badq0.csv"

# --- bad input ---------------------------------------------------------------
head -1 "$tmp/f.csv" > "$tmp/hdr.csv"
expect "header only" 1 "" "hdr.csv: no data rows" -- $E -a ekf "$tmp/hdr.csv"
head -2 "$tmp/f.csv" > "$tmp/one.csv"
expect "one sample" 1 "" "one.csv: 1 usable samples: the ekf methods need two or more" -- $E -a ekf "$tmp/one.csv"
awk -F, -v OFS=, 'NR == 50 { $9 = 0.5 } { print }' "$tmp/f.csv" > "$tmp/badq.csv"
expect "non-unit quaternion" 1 "" "badq.csv:50: the attitude quaternion is not of unit length" -- $E -a ekf "$tmp/badq.csv"
expect "non-unit quaternion, --skip-bad" 0 "" "skipped 1 bad row of" -- $E -a ekf --skip-bad "$tmp/badq.csv" -o "$tmp/discard.csv"
awk -F, -v OFS=, 'NR == 60 { $16 = "nan" } { print }' "$tmp/f.csv" > "$tmp/nan.csv"
expect "NaN velocity" 1 "" "nan.csv:60: column 'vx': NaN" -- $E -a ukf "$tmp/nan.csv"
awk -F, -v OFS=, 'NR == 70 { $1 = 0.5 } { print }' "$tmp/f.csv" > "$tmp/back.csv"
expect "time going back" 1 "" "back.csv:70: time 0.5 does not increase \(previous sample at 0.67\)" -- $E -a swls "$tmp/back.csv"
awk -F, 'NR < 100 || NR > 400' "$tmp/f.csv" > "$tmp/gap.csv"
expect "a gap in the log" 1 "" "gap.csv:.*: a gap of 3.* s after t = 0.97.*--max-gap" -- $E -a ekf "$tmp/gap.csv"
expect "--max-gap lets it through" 0 "" "" -- $E -a ekf --max-gap 5 "$tmp/gap.csv" -o "$tmp/discard.csv"
awk -F, -v OFS=, 'NR > 1 { $2 = $2 * 1e5 } { print }' "$tmp/f.csv" > "$tmp/huge.csv"
expect "divergence is reported, nothing written" 1 "" \
	"huge.csv: ekf diverged at t = .*: the mass left \(0.01, 100\) kg.*no estimates written" -- \
	$E -a ekf --m0 1 "$tmp/huge.csv"
awk -F, -v OFS=, 'NR == 2 { $2 = 0 } { print }' "$tmp/f.csv" > "$tmp/zero.csv"
expect "no hover guess from zero thrust" 1 "" "zero.csv:2: the first thrust \(0 N\) gives no hover guess of the mass; give --m0" -- \
	$E -a ekf "$tmp/zero.csv"

# --- usage errors -------------------------------------------------------------
expect "regressor option on ekf" 2 "" "--lambda applies to the RLS methods, not ekf" -- $E -a ekf --lambda 0.9 "$tmp/f.csv"
expect "state option on tagk" 2 "" "--m0 applies to the state-space methods, not tagk" -- $E -a tagk --m0 1 "$tmp/f.csv"
expect "--window on ekf" 2 "" "--window applies to msckf and swls, not ekf" -- $E -a ekf --window 5 "$tmp/f.csv"
expect "--window 1" 2 "" "--window: swls takes a number of samples from 2 to 64" -- $E -a swls --window 1 "$tmp/f.csv"
expect "--window in seconds" 2 "" "--window: msckf takes a number of samples" -- $E -a msckf --window 0.5s "$tmp/f.csv"
expect "--gauss-newton on ukf" 2 "" "--gauss-newton applies to swls, not ukf" -- $E -a ukf --gauss-newton "$tmp/f.csv"
expect "--proc-sd count" 2 "" "--proc-sd: 4 numbers expected, got 2" -- $E -a ekf --proc-sd 1,2 "$tmp/f.csv"
expect "--meas-sd negative" 2 "" "--meas-sd" -- $E -a ekf --meas-sd 1,-2,3 "$tmp/f.csv"
expect "--map column count" 2 "" "--map: pos takes 3 columns, 'px,py' names 2" -- $R -m state --map pos=px,py "$tmp/f.csv"

# --- the regressor methods on the same flight --------------------------------
expect "tagk-regress -m mass | tagk-estimate -a kf-low: its r is 9 times too small in std, and it says so" 0 "" \
	"kf-low: its normalised innovations averaged [5-9][0-9](\.[0-9])?: the residuals are about 9 times .* --r 0.000[0-9]* fits these data" -- \
	sh -c "$R -m mass --wrench thrust '$tmp/f.csv' | $E -a kf-low --window 5 --every 1 -o '$tmp/kf.csv'"
rfit=$(sed -n 's/.*--r \([0-9.e-]*\) fits these data.*/\1/p' "$tmp/err")
expect "... and with the r it suggests ($rfit) the note is gone" 0 "" "" -- \
	sh -c "$R -m mass --wrench thrust '$tmp/f.csv' | $E -a kf --r $rfit --q 0.1 --window 5 --every 1 > /dev/null"
r=$(rmspe "$tmp/kf.csv")
check "kf-low on accelerometer rows: RMSPE $r under 3 %" awk -v r="$r" 'BEGIN { exit !(r < 0.03) }'

# --- rmspe ------------------------------------------------------------------
expect "rmspe, csv" 0 "^random,0,ekf,1,0,[0-9.e-]+,[0-9.]+,0.00451,0.0096,[0-9.e-]+,0,[0-9.e-]+$" "rmspe: wall time" -- \
	$S rmspe --trials 1 --traj random,loop --mass 0,3 --methods ekf,swls,tagk --duration 3 -j 2 --format csv
check "rmspe, csv: 12 rows and a header" test "$(wc -l < "$tmp/out")" -eq 13
check "rmspe: no paper figures for loop" grep -q '^loop,3,swls,1,0,[0-9.e-]*,[0-9.]*,,,[0-9.e-]*,0,$' "$tmp/out"
check "rmspe, csv: the ratio is the RMSPE over the paper's" \
	awk -F, '$1 == "random" && $3 == "ekf" { n++; if ($11 == "" || ($7 / $9 - $12) ^ 2 > 1e-8 * $12 ^ 2) bad = 1 } END { exit !(n == 2 && !bad) }' "$tmp/out"
expect "rmspe: a flight that leaves the envelope is counted, not scored" 0 \
	"^# lemniscate/constant: 1 of 2 flights left the envelope" "" -- \
	$S rmspe --trials 2 --traj lemniscate --mass constant --methods ekf --speed 2 -j 1 -q
expect "massflight: a thrust limit that cannot hold the vehicle" 2 "" "--thrust-max: 0.3 weights cannot hold the vehicle up" -- \
	$S massflight --thrust-max 0.3
expect "rmspe, text: the paper's row" 0 "^  paper +0.00491 +0.01987" "" -- \
	$S rmspe --trials 1 --traj lemniscate --mass 0 --methods ekf --duration 2 -j 1
check "... and under it the ratios" grep -Eq "^  ratio +[0-9.e+-]+x +[0-9.e+-]+x" "$tmp/out"
expect "rmspe: tagk on the body-z rows alone beside tagk" 0 "tagk/z" "" -- \
	$S rmspe --trials 1 --traj random --mass 0 --methods tagk,tagk/z --duration 2 -j 1 -q
expect "rmspe: a state-space method takes no /z" 2 "" "'ekf/z': only a regressor method" -- $S rmspe --methods ekf/z
$S rmspe --trials 2 --traj zigzag --mass 1,2 --methods ekf,ukf,kf-low --duration 2 -j 1 --format csv 2>/dev/null \
	| cut -d, -f1-5,7 > "$tmp/j1.csv"
$S rmspe --trials 2 --traj zigzag --mass 1,2 --methods ekf,ukf,kf-low --duration 2 -j 2 --format csv 2>/dev/null \
	| cut -d, -f1-5,7 > "$tmp/j2.csv"
check "rmspe: the same RMSPEs with 1 job and 2" sh -c "test -s '$tmp/j1.csv' && cmp -s '$tmp/j1.csv' '$tmp/j2.csv'"
expect "rmspe: unknown method" 2 "" "--methods: unknown method 'pf'" -- $S rmspe --methods ekf,pf
expect "rmspe: bad --acc" 2 "" "--acc: 'gps' is not imu or velocity" -- $S rmspe --acc gps
expect "rmspe --help" 0 "usage: tagk-bench rmspe" "" -- $S rmspe --help

finish
