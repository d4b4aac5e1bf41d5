#!/bin/sh
# newuser_test.sh: what a newcomer runs from the man pages alone, and what
# tripped one up: a simulated PWM flight without --m-nom, ...
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
TAGK_DATADIR=$PWD/datasets
export TAGK_DATADIR
S=$BIN/tagk-bench R=$BIN/tagk-regress E=$BIN/tagk-estimate P=$BIN/tagk-report
M="--map rotors=motor.m1,motor.m2,motor.m3,motor.m4"

# --- tagk-bench massflight --pwm: the vehicle's own mass by default ------------
# (it flew 1 kg, more than a Crazyflie's motors lift, and died saying so)
expect "massflight --pwm crazyflie2 without --m-nom flies crazyflie2's mass line, 0.032 kg" 0 "" \
	"mass 0.032 -> 0.032 kg" -- \
	$S massflight --pwm crazyflie2 --mass constant --duration 3 --seed 2 -o "$tmp/pw.csv"
m=$(awk '$1 == "mass" { print $2 }' datasets/crazyflie2.veh)
check "... the vehicle file's own mass line says 0.032 ($m)" [ "$m" = 0.032 ]
$R -m mass --vehicle crazyflie2 $M "$tmp/pw.csv" 2>/dev/null | $E 2>/dev/null |
	$P --format csv > "$tmp/pw.rep" 2>/dev/null
r=$(awk -F, '$1 == "parameter" && $2 == "m" { print $8 }' "$tmp/pw.rep")
check "... and that log gives the mass back through the map (RMSPE $r %, under 5)" \
	awk -v r="$r" 'BEGIN { exit !(r != "" && r + 0 < 5) }'
expect "massflight --pwm --m-nom 1: too heavy for the map, and the message names --m-nom" 1 "" \
	"more than the map gives at 65535 .*--m-nom" -- \
	$S massflight --pwm crazyflie2 --m-nom 1 --duration 1 -o "$tmp/heavy.csv"
expect "massflight without --pwm keeps its 1 kg default" 0 "" "mass 1 -> 1 kg" -- \
	$S massflight --mass constant --duration 1 -o "$tmp/one.csv"

# --- tagk-report(1)'s log201 example: the stated thrust sd, then none -------
D=${REALDATA:-../shared/realdata/crazyflie}
if [ -f "$D/log201" ]; then
	$R --preset crazyflie -m mass --airborne "$D/log201" 2>/dev/null | $E 2>/dev/null > "$tmp/m201.est"
	expect "log201 against 41.9 g, the commanded thrust's sd 0.3 stated: 40.8 +- 24 g, no warning" 0 \
		"^m .* 0.04080[0-9] \+- 0.024 kg" "" -- $P --strict --nominal-mass 0.0419 "$tmp/m201.est"
	$R --preset crazyflie -m mass --airborne --scale-sd 0 "$D/log201" 2>/dev/null | $E 2>/dev/null > "$tmp/m201x.est"
	expect "... told the thrust is exact (--scale-sd 0): 15 sd from it, and --strict fails" 1 "*" \
		"the median mass, 0.04068 kg, is 0.97 times the vehicle's nominal 0.0419 kg and 15 sd from it" -- \
		$P --strict --nominal-mass 0.0419 "$tmp/m201x.est"
else
	echo "skip log201: no Crazyflie logs in $D"
fi

# --- an arm log with every effort negated: --identify says why it fails ------
# (it said "update diverged (non-finite result)" and to raise --prior-weight,
# which does not help: no physical arm gives those torques)
A='--map t=time --map q=pos_{1..7} --map qd=vel_* --map tau=eff_{1..7}'
gzip -dc datasets/panda-payload.csv.gz | grep -v '^#' | awk -F, -v OFS=, '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^eff_/) e[i] = 1; print; next }
	{ for (i in e) $i = -$i; print }' > "$tmp/neg.csv"
expect "--identify on negated efforts: refused, naming the wrong sign" 1 "" \
	"--identify: the consistent solve failed: .*fits the efforts negated far better.*wrong sign" -- \
	$R -m multibody --robot datasets/panda.urdf $A --identify -o "$tmp/neg.model" "$tmp/neg.csv"
check "... and writes no model file" [ ! -e "$tmp/neg.model" ]
expect "--identify on the same log as recorded: no such hint (it identifies)" 0 "" \
	"--identify: 7 links" -- \
	$R -m multibody --robot datasets/panda.urdf $A --identify -o "$tmp/pos.model" datasets/panda-payload.csv.gz

# --- a mass that wanders more than its noise's sd, inside its stated sd -----
# m rises 1.00 .. 1.10 over 101 estimates: IQR 0.05, as an sd 0.037, 37 times
# the noise's 0.001; the stated systematic sd 0.1 is wider than that spread
{ echo "t,m,sd_m,sd_sys_m"; awk 'BEGIN { for (i = 0; i <= 100; i++) printf "%d,%.4f,0.001,%s\n", i, 1 + i / 1000, "0.1" }'; } > "$tmp/wand.csv"
expect "a spread inside the stated systematic sd: said, without 'read the quartiles, not the interval'" 0 \
	"m wanders over the run 37 times more than its noise's sd says .*its interval, with the stated systematic part, is wider than that spread" \
	"" -- $P "$tmp/wand.csv"
check "... and the interval printed does hold the quartiles (1.1 +- 0.2 over 1.025 .. 1.075)" \
	sh -c "$P '$tmp/wand.csv' | grep -q '^m .* 1.1 +- 0.2 kg'"
sed 's/,0\.1$/,0.01/' "$tmp/wand.csv" > "$tmp/wand2.csv"
expect "a systematic sd 0.01, narrower than the spread: read the quartiles, not the interval" 0 \
	"m wanders over the run 37 times more than its noise's sd says .*read the quartiles, not the interval" \
	"" -- $P "$tmp/wand2.csv"

# --- tagk-estimate --detect on a log without truth: the summary names the change
# (it said m "wanders ... 137 times more than its sd says ... read the
# quartiles, not the interval" of a drop the stream itself had reported)
grep -v '^#' datasets/uav-square-drop.csv | cut -d, -f1-18 > "$tmp/drop.csv"
$BIN/tagk-filter --eval fx=0 --eval fy=0 --eval fz=thrust "$tmp/drop.csv" 2>/dev/null |
	$R -m mass --wrench force 2>/dev/null | $E --detect > "$tmp/drop.est" 2>"$tmp/drop.err"
dt=$(sed -n 's/^tagk-estimate: change at \([0-9.]*\) s.*/\1/p' "$tmp/drop.err")
check "tagk-estimate --detect finds the drop at 9.865 s (the truth's step: 9.87 s; '$dt')" [ "$dt" = 9.865 ]
expect "the summary of that stream names the change tagk-estimate reported, and no wander" 0 \
	"the stream reports 1 change \(tagk-estimate --detect\), at 9.865 s: .*the last estimate is the body after the last change" \
	"" -- $P "$tmp/drop.est"
check "... and says nothing of wandering" sh -c "! $P '$tmp/drop.est' | grep -q wanders"

# --- the same negated log as whole-arm rows: said, carried, --strict fails ----
# (negated parameters fit negated efforts exactly: nothing after noticed)
$R -m multibody --robot datasets/panda.urdf $A --unknown all --base "$tmp/neg.csv" \
	> "$tmp/negb.rows" 2> "$tmp/negb.err"
check "--unknown all --base on negated efforts: the wrong sign said on stderr" \
	grep -q "fits the efforts negated far better than as read (rms 6.51 against 42 N m a row): efforts of the wrong sign" "$tmp/negb.err"
$E -a wls --batch "$tmp/negb.rows" > "$tmp/negb.est" 2>/dev/null
expect "... carried to tagk-report, whose --strict fails on it" 1 "*" \
	"upstream, tagk-regress: .*efforts of the wrong sign" -- $P --strict "$tmp/negb.est"
$R -m multibody --robot datasets/panda.urdf $A --unknown all --base datasets/panda-payload.csv.gz \
	> "$tmp/posb.rows" 2> "$tmp/posb.err"
check "... and the log as recorded (the payload not in the description) draws no such line" \
	sh -c "! grep -q 'wrong sign' '$tmp/posb.err'"

# --- one estimate (a --batch run): "1 estimate, t 9.976 s" ---------------------
# (it said "1 estimates, t 9.976 to 9.976 s")
$R -m multibody --robot datasets/panda.urdf $A --held link7 datasets/panda-payload.csv.gz 2>/dev/null |
	$E -a ols --batch > "$tmp/held.est" 2>/dev/null
expect "a --batch stream with truth: one estimate, one time" 0 "^# stdin: 1 estimate, t 9.976 s, 0 truth changes$" "" -- \
	sh -c "$P < '$tmp/held.est'"
plain "$tmp/held.est" | cut -d, -f1-11 > "$tmp/held1.est"
expect "... and without truth (its summary)" 0 "held1.est: 1 estimate, t 9.976 s, no truth: a summary$" "" -- \
	$P "$tmp/held1.est"

# --- a nominal-mass check that passes says it was made --------------------------
# (it was silent: a reader could not tell a pass from no check)
expect "--nominal-mass within the interval: the summary says the mass was judged against it" 0 \
	"^# the mass judged against the vehicle's nominal 1.05 kg \(--nominal-mass or --vehicle\)" "" -- \
	$P --nominal-mass 1.05 "$tmp/wand.csv"
check "... and without a nominal mass no such line" sh -c "! $P '$tmp/wand.csv' | grep -q 'judged against'"

# --- --predict names its unit, as --identify does -----------------------------
expect "--predict: each joint's RMS residual and torque in N m" 0 "" \
	"^tagk-regress: joint 1: RMS residual [0-9.]+ N m \(RMS torque [0-9.]+ N m\) over 2489 samples$" -- \
	$R -m multibody --robot datasets/panda.urdf $A --predict -o "$tmp/pred.csv" datasets/panda-empty.csv.gz

# --- whole-arm report: the method, as the rigid-body summary names it ---------
$R -m multibody --robot datasets/panda.urdf $A --unknown all --base datasets/panda-empty.csv.gz 2>/dev/null |
	$E -a wls --batch > "$tmp/base.est" 2>/dev/null
case $P in /*) PA=$P ;; *) PA=$PWD/$P ;; esac
expect "the whole-arm report's header names the method" 0 \
	"^# base.est: 43 parameters, 1 estimate of wls \(the last, t 9.976 s\); base parameters, rank 43 of 70$" "" -- \
	sh -c "cd '$tmp' && '$PA' base.est"
expect "... and its JSON too" 0 '^\{"input": "base.est", "method": "wls", "estimates": 1,' "" -- \
	sh -c "cd '$tmp' && '$PA' --format json base.est"

# --- a PWM log read without --map rotors: the Crazyflie's motor names said ------
expect "a PWM log without --map rotors: the message names the motors' columns" 1 "" \
	'--map rotors=motor\.m1,motor\.m2,motor\.m3,motor\.m4\)$' -- $R -m mass --vehicle crazyflie2 "$tmp/pw.csv"
expect "... and the vehicle too when it is not given" 1 "" '--vehicle crazyflie2 --map rotors=motor\.m1' -- \
	$R -m mass "$tmp/pw.csv"

finish
