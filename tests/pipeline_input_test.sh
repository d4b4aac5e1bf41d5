#!/bin/sh
# pipeline_input_test.sh: reading a user's log: gzip, text columns, Crazyflie uSD files,
# CSV dialects, foreign column names, units and presets, rotor speeds
# through a vehicle file, and the consistency guards.
# One theme of the pipeline battery (tests/pipeline_*_test.sh): the real
# binaries composed as a user would, over tests/lib.sh's pipeline_setup.
set -u
BIN=${BIN:-bin}
MKFIX=${MKFIX:-build/mkfixtures}
. "$(dirname "$0")/lib.sh"
pipeline_setup

# gzip: read by magic bytes, written by the .gz extension
gzip -c "$tmp/syn.csv" > "$tmp/syn.csv.gz"
expect "gzip input gives the same regressor stream" 0 "" "" -- sh -c "$R '$tmp/syn.csv.gz' > '$tmp/r_gz.csv'"
check "... byte for byte" sh -c "$R '$tmp/syn.csv' | cmp -s - '$tmp/r_gz.csv'"
expect "gzip on standard input" 0 "" "" -- sh -c "$R < '$tmp/syn.csv.gz' | cmp -s - '$tmp/r_gz.csv'"
expect "-o FILE.csv.gz writes gzip" 0 "" "" -- $R "$tmp/syn.csv" -o "$tmp/r.csv.gz"
check "... which gunzip reads back to the plain stream" sh -c "gzip -dc '$tmp/r.csv.gz' | cmp -s - '$tmp/r_gz.csv'"
# zlib's fastest level: its header's XFL byte is 4 (0 at gzip's default -6)
expect "... at zlib's fastest level (gzip header XFL 4)" 0 "^ *4$" "" -- od -An -tu1 -j8 -N1 "$tmp/r.csv.gz"
head -c 2000 "$tmp/syn.csv.gz" > "$tmp/cut.csv.gz"
expect "a truncated .gz file" 1 "" "cut.csv.gz: read error: gzip data cut short" -- $R "$tmp/cut.csv.gz"
expect "HDF5 output is not compressed" 1 "" "x.h5.gz: HDF5 output is not gzip-compressed" -- $R "$tmp/syn.csv" -o "$tmp/x.h5.gz"

# text columns (a flight mode, a name) are ignored unless asked for
awk -F, -v OFS=, 'NR == 1 { print $1, "mode", substr($0, index($0, ",") + 1); next }
	{ print $1, (NR < 10 ? "hover" : "cruise"), substr($0, index($0, ",") + 1) }' "$tmp/small.csv" > "$tmp/mode.csv"
expect "tagk-filter leaves a text column out, with a note" 0 "" "^tagk-filter: .*mode.csv: column 'mode' is text: left out$" -- \
	$F "$tmp/mode.csv" -o "$tmp/mode-out.csv"
check "... and passes every other column and row" same_rows "$tmp/mode-out.csv" "$tmp/small.csv"
expect "tagk-filter refuses a text column it is asked to filter" 1 "" "column 'mode' is text, but it is a --noise column" -- \
	$F --noise mode=1 "$tmp/mode.csv"
expect "tagk-regress ignores a text column" 0 "" "" -- sh -c "$R '$tmp/mode.csv' > '$tmp/mode.reg'"
check "... and writes what it writes without it" sh -c "$R '$tmp/small.csv' | cmp -s - '$tmp/mode.reg'"
expect "a text column mapped as a signal is an error" 1 "" "column 'mode': not a number: 'hover'" -- \
	$R --map t=mode "$tmp/mode.csv"
expect "a text dataset is skipped" 0 "^t$" "" -- sh -c "$F '$tmp/text.h5' | sed -n 2p"
expect "... and one mapped as a signal is said to hold text, not said to be missing" 1 "" \
	"missing column 'label' for acc .*: the file has a dataset 'label', but it holds text, not numbers$" -- \
	$R --map acc=label,t,t "$tmp/text.h5"
expect "... as a column filter names" 2 "" "has no column 'label': the file has a dataset 'label', but it holds text" -- \
	$F --lowpass label=3 "$tmp/text.h5"
expect "... and a name the file has not at all, without the note" 2 "" "has no column 'bogus'$" -- \
	$F --lowpass bogus=3 "$tmp/text.h5"
expect "cfusd with a bad CRC" 1 "" "badcrc.cfusd: CRC-32 mismatch .*--ignore-crc" -- \
	$R --preset crazyflie "$tmp/badcrc.cfusd"
expect "bad CRC overridden" 0 "^t,row,Y_m" "" -- $R --preset crazyflie --ignore-crc "$tmp/badcrc.cfusd"
expect "truncated cfusd record" 1 "" "truncated.cfusd: record 34: truncated" -- \
	$R --preset crazyflie "$tmp/truncated.cfusd"
expect "truncated cfusd record, from a pipe" 1 "" "stdin: record 34: truncated" -- \
	sh -c "cat '$tmp/truncated.cfusd' | $R --preset crazyflie -"

# --wrench rotors: four rotor speeds (rad/s) through the vehicle file's
# geometry give the same regressor rows as the wrench worked out here in awk
# (f = (0, 0, sum T), tau = sum p x (0, 0, T) + dir kappa T z, T = kf w^2)
printf 'rotor 0.1 0.1 0 1\nrotor -0.1 0.1 0 -1\nrotor -0.1 -0.1 0 1\nrotor 0.1 -0.1 0 -1\ninput speed\nkf 2e-6\nkappa 0.02\n' > "$tmp/x.veh"
$S synth --duration 2 2>/dev/null | plain - | awk -F, -v OFS=, '
	NR == 1 { print "t,ax,ay,az,gx,gy,gz,w0,w1,w2,w3,fx,fy,fz,tx,ty,tz"; next }
	{ split("0.1 -0.1 -0.1 0.1", px, " "); split("0.1 0.1 -0.1 -0.1", py, " "); split("1 -1 1 -1", d, " ")
	  fz = 0; tx = 0; ty = 0; tz = 0
	  for (i = 1; i <= 4; i++) { w[i] = 600 + 40 * i + 30 * sin(NR / (3 + i)); T = 2e-6 * w[i] * w[i]
	    fz += T; tx += py[i] * T; ty -= px[i] * T; tz += d[i] * 0.02 * T }
	  printf "%s,%s,%s,%s,%s,%s,%s,%.17g,%.17g,%.17g,%.17g,0,0,%.17g,%.17g,%.17g,%.17g\n", $1, $2, $3, $4, $5, $6, $7,
	      w[1], w[2], w[3], w[4], fz, tx, ty, tz }' > "$tmp/rot.csv"
$R --wrench rotors --vehicle "$tmp/x.veh" --map rotors=w0,w1,w2,w3 "$tmp/rot.csv" | plain - > "$tmp/rot_r.csv"
$R --wrench force "$tmp/rot.csv" | plain - > "$tmp/rot_f.csv"
check "--wrench rotors: the rows of the wrench worked out by hand (1e-12)" awk -F, '
	NR == FNR { a[FNR] = $NF; next }
	FNR > 1 { d = $NF - a[FNR]; if (d < 0) d = -d; s = $NF < 0 ? -$NF : $NF; if (d > 1e-12 * (s + 1e-3)) bad = 1; n++ }
	END { exit bad || n < 100 }' "$tmp/rot_f.csv" "$tmp/rot_r.csv"
expect "--wrench rotors without a vehicle" 2 "" "--wrench rotors needs --vehicle FILE" -- $R --wrench rotors "$tmp/rot.csv"
printf 'rotor 0.1 0.1 0 1\ninput speed\n' > "$tmp/nokf.veh"
expect "a speed vehicle without kf" 1 "" "nokf.veh: 'input speed' needs 'kf'" -- \
	$R --wrench rotors --vehicle "$tmp/nokf.veh" --map rotors=w0 "$tmp/rot.csv"
printf 'rotor 0.1 0.1 0 2\n' > "$tmp/baddir.veh"
expect "a rotor line with a bad spin" 1 "" "baddir.veh:1: 'rotor': DIR is \+1 or -1 \(the sign of its reaction torque about z\), not 2" -- \
	$R --wrench rotors --vehicle "$tmp/baddir.veh" --map rotors=w0 "$tmp/rot.csv"
expect "--map with more columns than a signal may have is refused, not cut" 2 "" "--map: at most 16 items, got more" -- \
	$R --wrench rotors --vehicle "$tmp/x.veh" --map rotors=$(seq -s, 1 17) "$tmp/rot.csv"
expect "--map with an empty column name" 2 "" "--map: an empty item in 'ax,,az'" -- $R --map acc=ax,,az "$tmp/rot.csv"
expect "a missing vehicle file" 1 "" "nope.veh: No such file or directory" -- \
	$R --wrench rotors --vehicle "$tmp/nope.veh" --map rotors=w0 "$tmp/rot.csv"

# a logged alpha against its gyro (consistency_guard.h's derivguard): in deg/s^2,
# of another sign, or with two axes in each other's place, refused; logs
# whose alpha is the forward difference of the gyro (tagk-bench simulate's
# Euler steps, with a controller's chatter at 50 Hz that integrates to
# nothing by the trapezoid) or the backward one, read
$S synth --duration 10 --seed 4 --noise-gyro 0.01 -o "$tmp/al.tagk"
plain "$tmp/al.tagk" > "$tmp/al.csv"
expect "alpha beside its gyro: read" 0 "*" "" -- $R "$tmp/al.csv"
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { $8 *= 57.29577951308232; $9 *= 57.29577951308232; $10 *= 57.29577951308232 } { print }' \
	"$tmp/al.csv" > "$tmp/aldeg.csv"
expect "alpha in deg/s^2 beside a gyro in rad/s: refused, the columns named" 1 "" \
	"aldeg.csv: 'g[xyz]' does not change as the integral of 'al[xyz]': .* its change is 0\.017" -- $R "$tmp/aldeg.csv"
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { $8 = -$8; $9 = -$9; $10 = -$10 } { print }' "$tmp/al.csv" > "$tmp/alneg.csv"
expect "alpha of the other sign: refused" 1 "" "alneg.csv: 'g[xyz]' .* its change is -0\.9[0-9]* \+-" -- $R "$tmp/alneg.csv"
expect "alx and aly mapped in each other's place: refused" 1 "" "al.csv: 'g[xy]' does not change as the integral of 'al[xy]'" -- \
	$R --map alpha=aly,alx,alz "$tmp/al.csv"
expect "... --no-consistency-check reads them as they are" 0 "*" "" -- $R --map alpha=aly,alx,alz --no-consistency-check "$tmp/al.csv"
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { $11 = -$11; $12 = -$12; $13 = -$13 } { print }' "$tmp/al.csv" > "$tmp/fneg.csv"
expect "a force read as the reaction (negated): refused" 1 "" \
	"fneg.csv: the force \(fx,fy,fz\) points against the specific force \(ax,ay,az\): .* is -1\.00 .*read as the reaction" -- $R "$tmp/fneg.csv"
# four flights whose alpha the trapezoid alone refused (slopes -5.4, 10,
# -1.35 and 0.005)
for fl in "figure-8 low 3 authors" "ellipse low 3 authors" "ellipse low 1 tagk" "random low 1 tagk"; do
	set -- $fl
	$S simulate --traj $1 --noise $2 --seed $3 --protocol $4 -o "$tmp/sim.csv" 2>/dev/null
	expect "simulate --traj $1 --noise $2 --seed $3 --protocol $4: its Euler-step alpha is read" 0 "*" "" -- $R "$tmp/sim.csv"
done
# the same flight with a gyro that chatters at the log's Nyquist rate
# (+-0.05 rad/s on each axis) and alpha its backward difference, as a
# firmware that differences its gyro writes it: by the trapezoid and the
# left rule the chatter's change has no integral or the opposite sign
plain "$tmp/sim.csv" | awk -F, -v OFS=, -v CONVFMT=%.17g 'NR == 1 { print; next } {
	c = (n % 2 ? 0.05 : -0.05); for (j = 0; j < 3; j++) g[j] = $(5 + j) + c
	if (n++) for (j = 0; j < 3; j++) $(8 + j) = (g[j] - p[j]) / ($1 - pt)
	else $8 = $9 = $10 = 0
	for (j = 0; j < 3; j++) { $(5 + j) = g[j]; p[j] = g[j] } pt = $1; print }' > "$tmp/simback.csv"
expect "... a chattering gyro with alpha its backward difference: read" 0 "*" "" -- $R "$tmp/simback.csv"

$F "$tmp/v2.cfusd" | grep -v '^#tagk-' > "$tmp/v2.got.csv"
check "cfusd v2 values equal what was written" awk -F, 'NR == FNR { if (FNR > 1) e[FNR] = $0; next }
	FNR > 1 { n = split(e[FNR], x, ","); for (i = 1; i <= n; i++) { d = $i - x[i]; if (d < 0) d = -d
	s = x[i] < 0 ? -x[i] : x[i]; if (d > 1e-7 * s + 1e-12) bad = 1 } ; rows++ }
	END { exit !(rows == 50 && !bad) }' "$tmp/v2.expected.csv" "$tmp/v2.got.csv"
check "cfusd header names the chosen event's variables" grep -q "^t,acc.x,acc.y,acc.z,ctrlLee.omegax" "$tmp/v2.got.csv"
expect "cfusd v1 (millisecond timestamps)" 0 "^1.51,0.0084147" "" -- sh -c "$F '$tmp/v1.cfusd' | sed -n 4p"
expect "cfusd --event picks another event type" 0 "^1.53,42$" "" -- sh -c "$F --event other '$tmp/v2.cfusd' | sed -n 3p"
expect "cfusd unknown event" 1 "" "no event type 'nope' \(it has: fixedFrequency \(id 7\), other \(id 9\)\)" -- $F --event nope "$tmp/v2.cfusd"
# CRLF line ends and quoted fields read like the plain file
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) $i = "\"" $i "\"" } { printf "%s\r\n", $0 }' \
	"$tmp/syn.csv" > "$tmp/crlf.csv"
$R "$tmp/crlf.csv" > "$tmp/r_crlf.csv"; $R "$tmp/syn.csv" > "$tmp/r_plain.csv"
check "CRLF and quoted header fields" cmp -s "$tmp/r_crlf.csv" "$tmp/r_plain.csv"
# every cell quoted (Python's csv.QUOTE_ALL): the same stream
awk -F, -v OFS=, '/^#/ { print; next } { for (i = 1; i <= NF; i++) $i = "\"" $i "\"" } { print }' \
	"$tmp/syn.csv" > "$tmp/quoted.csv"
$R "$tmp/quoted.csv" > "$tmp/r_quoted.csv"
check "every cell quoted reads like the plain file" cmp -s "$tmp/r_quoted.csv" "$tmp/r_plain.csv"
$R - < "$tmp/syn.csv" > "$tmp/r_stdin.csv"
check "standard input" cmp -s "$tmp/r_stdin.csv" "$tmp/r_plain.csv"
# foreign column names, mapped as a new user would (the estimates of the
# log as it is, e2.csv, are what the mapped and re-stamped logs must give)
$R "$tmp/syn.csv" | $E > "$tmp/e2.csv"
sed '1s/^t,ax,ay,az,gx,gy,gz,alx,aly,alz,fx,fy,fz,tx,ty,tz/time_ms,acc_x,acc_y,acc_z,rate_x,rate_y,rate_z,dw_x,dw_y,dw_z,F_x,F_y,F_z,M_x,M_y,M_z/' \
	"$tmp/syn.csv" | awk -F, -v OFS=, 'NR > 1 { $1 = $1 * 1000 } { print }' > "$tmp/foreign.csv"
$R --time-unit ms --map t=time_ms --map acc=acc_x,acc_y,acc_z --map gyro=rate_x,rate_y,rate_z \
	--map alpha=dw_x,dw_y,dw_z --map force=F_x,F_y,F_z --map torque=M_x,M_y,M_z "$tmp/foreign.csv" \
	| $E > "$tmp/e_foreign.csv"
check "foreign column names mapped with --map give the same estimates" \
	awk -F, 'NR == FNR { a[FNR] = $0; next } { n = split(a[FNR], x, ","); for (i = 1; i <= n; i++)
	{ d = $i - x[i]; if (d < 0) d = -d; if (d > 1e-9 * (x[i] < 0 ? -x[i] : x[i]) + 1e-15) bad = 1 } }
	END { exit bad }' "$tmp/e2.csv" "$tmp/e_foreign.csv"
# time in the wrong unit: a log stamped in ns (a ROS bag's CSV) read as
# seconds is refused with the units to try, and reads with --time-unit ns
awk -F, -v OFS=, 'NR > 1 { $1 = sprintf("%.0f", 1.7e18 + $1 * 1e9) } { print }' "$tmp/syn.csv" > "$tmp/ns.csv"
expect "a log stamped in ns, read as seconds: refused, the units named" 1 "" \
	"ns.csv: its samples are 1e\+07 s apart \(the median of its first 8 time steps\), too far apart for a flight or robot log: is its time column 't' in ms, us or ns\?" -- \
	$R "$tmp/ns.csv"
expect "... and the foreign log in ms without --time-unit" 1 "" "foreign.csv: its samples are 10 s apart" -- \
	$R --map t=time_ms --map acc=acc_x,acc_y,acc_z --map gyro=rate_x,rate_y,rate_z --map alpha=dw_x,dw_y,dw_z \
	--map force=F_x,F_y,F_z --map torque=M_x,M_y,M_z "$tmp/foreign.csv"
$R --time-unit ns "$tmp/ns.csv" | $E > "$tmp/e_ns.csv"
check "--time-unit ns: the same estimates as the log in seconds (t shifted by 1.7e9 s)" \
	awk -F, 'NR == FNR { a[FNR] = $0; next } /^#/ { next } { n = split(a[FNR], x, ","); for (i = 2; i <= n; i++)
	{ d = $i - x[i]; if (d < 0) d = -d; if (d > 1e-9 * (x[i] < 0 ? -x[i] : x[i]) + 1e-15) bad = 1 } }
	END { exit bad }' "$tmp/e2.csv" "$tmp/e_ns.csv"
expect "--time-unit s reads it as it is (the user said so)" 0 "" "" -- sh -c "$R --time-unit s '$tmp/ns.csv' > /dev/null"
# the specific force in the wrong unit (cmd/common/unitguard.h): a log in g read
# as m/s^2 gave a mass 9.8 times too large, with whole rows and estimates
awk -F, -v OFS=, -v OFMT=%.17g -v CONVFMT=%.17g 'NR > 1 { for (i = 2; i <= 4; i++) $i = $i / 9.80665 } { print }' "$tmp/syn.csv" > "$tmp/in-g.csv"
expect "acc logged in g, read as m/s^2: refused, --acc-unit g named" 1 "" \
	"in-g.csv: the specific force \(ax,ay,az\) has a median magnitude of 1\.[0-9]+ m/s\^2 over its first 64 samples.*is it in g \(say --acc-unit g\), or the acceleration with gravity removed" -- \
	$R "$tmp/in-g.csv"
# (rows equal to an ulp; the first updates' covariance is ill-conditioned
# enough to move by 1e-4, so the last estimate is compared)
$R --acc-unit g "$tmp/in-g.csv" | $E -a rls-low 2>/dev/null | grep -v '^#' | tail -1 > "$tmp/e_g.last"
$R "$tmp/syn.csv" | $E -a rls-low 2>/dev/null | grep -v '^#' | tail -1 > "$tmp/e_s.last"
check "--acc-unit g: the last estimate of the log in m/s^2, to 1e-9" \
	sh -c "paste -d, '$tmp/e_s.last' '$tmp/e_g.last' | awk -F, '{ h = NF / 2; for (i = 2; i <= 11; i++) {
		d = \$i - \$(i + h); if (d < 0) d = -d; if (d > 1e-9 * (\$i < 0 ? -\$i : \$i) + 1e-15) bad = 1 } } END { exit bad }'"
awk -F, -v OFS=, 'NR > 1 { $4 = $4 - 9.80665 } { print }' "$tmp/syn.csv" > "$tmp/no-g.csv"
expect "acc with gravity removed: refused, that reason among the two named" 1 "" "or the acceleration with gravity removed \(tagk needs the accelerometer's reading, gravity included\)\?" -- $R "$tmp/no-g.csv"
awk -F, -v OFS=, 'NR > 1 { $2 = $2 / 10; $3 = $3 / 10; $4 = ($4 - 9.80665) / 10 } { print }' "$tmp/syn.csv" > "$tmp/no-g-calm.csv"
expect "... and, moving gently, gravity removed is the one reason" 1 "" "is it the acceleration with gravity removed\? tagk needs" -- $R "$tmp/no-g-calm.csv"
awk -F, -v OFS=, -v OFMT=%.17g -v CONVFMT=%.17g 'NR > 1 { for (i = 5; i <= 10; i++) $i = $i * 57.29577951308232 } { print }' \
	"$tmp/syn.csv" > "$tmp/deg.csv"
expect "gyro (and alpha) logged in deg/s, read as rad/s: refused, --gyro-unit deg named" 1 "" \
	"deg.csv: the angular velocity \(gx,gy,gz\) exceeds 40 rad/s .* in 5 samples by t = [0-9.]+ s: is it in deg/s\? Say --gyro-unit deg" -- \
	$R "$tmp/deg.csv"
$R --gyro-unit deg "$tmp/deg.csv" | $E -a rls-low 2>/dev/null | grep -v '^#' | tail -1 > "$tmp/e_deg.last"
check "--gyro-unit deg: the last estimate of the log in rad/s, to 1e-9" \
	sh -c "paste -d, '$tmp/e_s.last' '$tmp/e_deg.last' | awk -F, '{ h = NF / 2; for (i = 2; i <= 11; i++) {
		d = \$i - \$(i + h); if (d < 0) d = -d; if (d > 1e-9 * (\$i < 0 ? -\$i : \$i) + 1e-15) bad = 1 } } END { exit bad }'"
expect "a log in m/s^2 read with the crazyflie preset (g): refused" 1 "" "it looks like m/s\^2, not the preset's g: say --acc-unit mps2" -- \
	$R --preset crazyflie --map t=t --map acc=ax,ay,az --map gyro=gx,gy,gz --map thrust=fz --map torque=tx,ty,tz --gyro-unit rad "$tmp/syn.csv"
expect "crazyflie preset on a uSD log, mass model" 0 "^0\.0399|^0\.0400" "" -- \
	sh -c "$R --preset crazyflie -m mass '$tmp/v2.cfusd' | $E -a rls-low | grep -v ^#tagk- | tail -1 | cut -d, -f2"
$R --preset crazyflie -m mass --stream csv "$tmp/v2.cfusd" > "$tmp/v2.preset.csv"
$R -m mass --stream csv "$tmp/v2.cfusd" > "$tmp/v2.auto.csv"
check "a uSD log without --preset is read with the crazyflie preset (the same stream)" \
	sh -c "test -s '$tmp/v2.auto.csv' && cmp -s '$tmp/v2.preset.csv' '$tmp/v2.auto.csv'"
expect "... an explicit --preset overrides it" 1 "" "missing column 'ax' for acc" -- $R --preset sim "$tmp/v2.cfusd"
expect "... and a column it lacks says where the name came from" 1 "" \
	"missing column 'acc.x' for acc \(the specific force; or give acc_world and quat; the name is the crazyflie preset's, the default for a Crazyflie uSD log; map yours with --map acc=COLS\)" -- \
	$R --event other "$tmp/v2.cfusd"
expect "... but not for a signal the user mapped" 1 "" "missing column 'no.x' for acc \(the specific force; or give acc_world and quat; map yours" -- \
	$R --map acc=no.x,no.y,no.z "$tmp/v2.cfusd"

finish
