#!/bin/sh
# armfit_test.sh: tagk-regress -m multibody's model-fit check (armfit.h) on
# arm logs misread as users misread them: efforts of the wrong sign, in
# mN m, two effort columns exchanged, a joint's zero off by pi/2, another
# robot's description. Each is refused (exit 1) with the joints and the
# likely cause named; the right runs (the bundled Panda logs, a payload
# picked up half way, MuJoCo logs of a UR5e and of a second 7-joint arm)
# pass without a word. The faults are made from the bundled logs
# (tests/arm_mujoco.c's, with 0.05 N m of noise on every effort, which the
# check must find) and from MuJoCo (skipped without libmujoco-dev).
. tests/lib.sh
BIN=${BIN:-bin}
GEN=${ARM_MUJOCO:-build/arm_mujoco}
R="$BIN/tagk-regress -m multibody --robot datasets/panda_nohand.xml"
# fits COMMAND...: exit 0, rows written, and not a word of the model fit
fits() {
	"$@" > "$tmp/fo" 2> "$tmp/fe" && grep -q '^t,row,Y_m' "$tmp/fo" && ! grep -q 'model fit' "$tmp/fe"
}
M="--map t=time --map q=pos_{1..7} --map qd=vel_* --map tau=eff_{1..7}"
zcat datasets/panda-payload.csv.gz > "$tmp/pp.csv"
zcat datasets/panda-empty.csv.gz > "$tmp/pe.csv"
# columns: time, pos_1..7 (2-8), vel_1..7 (9-15), eff_1..7 (16-22), true_*
awk -F, -v OFS=, 'NR > 1 { for (i = 16; i <= 22; i++) $i = -$i } { print }' "$tmp/pp.csv" > "$tmp/sign.csv"
awk -F, -v OFS=, -v CONVFMT=%.9g 'NR > 1 { for (i = 16; i <= 22; i++) $i = 1000 * $i } { print }' "$tmp/pp.csv" > "$tmp/mnm.csv"
awk -F, -v OFS=, 'NR > 1 { t = $17; $17 = $19; $19 = t } { print }' "$tmp/pp.csv" > "$tmp/swap.csv"
awk -F, -v OFS=, -v CONVFMT=%.9g 'NR > 1 { $5 = $5 + 1.5707963267948966 } { print }' "$tmp/pp.csv" > "$tmp/off.csv"

expect "the bundled payload log, no friction file: rows, and nothing said of the fit" 0 "*" "Savitzky-Golay" -- \
	$R $M --held link7 "$tmp/pp.csv"
check "... not a word of the model fit" fits $R $M --held link7 --stream csv "$tmp/pp.csv"
$R $M --fit-friction viscous,coulomb,offset "$tmp/pe.csv" -o "$tmp/fr.txt" 2>/dev/null
check "... with the friction fitted on the empty run: the same" fits $R $M --held link7 --friction "$tmp/fr.txt" --stream csv "$tmp/pp.csv"
check "the empty run (a payload of 0): fits" fits $R $M --held link7 --stream csv "$tmp/pe.csv"
# a payload picked up half way: the body is fitted per block, so a change
# of the load is not a misfit
{ head -1 "$tmp/pp.csv"; sed 1d "$tmp/pe.csv" | awk '{ print $0 ",0,0,0,0,0,0,0,0,0,0" }'
  sed 1d "$tmp/pp.csv" | awk -F, -v OFS=, '{ $1 = sprintf("%.9g", $1 + 10.004); print }'; } > "$tmp/pick.csv"
check "a payload picked up half way through the log: fits" fits $R $M --held link7 --stream csv "$tmp/pick.csv"

# the faults: each exits 0 without the check (tagk 8106261 wrote their rows)
expect "efforts of the wrong sign: refused, every joint named, the sign the cause" 1 "*" \
	"model fit: 7 of 7 rows are not explained by a load held by link7 .*joint 1 \(eff_1\) .*likely cause: every joint's effort has the wrong sign \(read times -0\.9[0-9]* \.\. -0\.9[0-9]*\)" -- \
	$R $M --held link7 "$tmp/sign.csv"
check "... the refusal said last, and the stream left unfinished (no end marker)" sh -c \
	"tail -1 '$tmp/err' | grep -q 'sign.csv: the model does not fit the log: refused (--no-fit-check writes the rows)' && ! grep -q '^#tagk-end' '$tmp/out'"
expect "efforts in mN m: refused, the unit the cause" 1 "*" \
	"likely cause: every joint's effort has a unit 1000 times too small \(mN m read as N m\?\) \(read times 0\.000[0-9]" -- \
	$R $M --held link7 "$tmp/mnm.csv"
# read with the gain, the rows carry the noise times the gain: they fit to
# the same few times the noise as the sign case (5.6), not 1000 times less
check "... read times the gain, the rows fit to 2-20 times the noise (as the sign case)" sh -c \
	"grep -o 'read so, the rows fit to [0-9.e+-]* times' '$tmp/err' | awk '{ n = \$7 + 0 } END { exit !(n > 2 && n < 20) }'"
# the noise the check reads off the efforts is the noise the log was made
# with: 0.05 N m, 50 in mN m (joint 7's effort: its row is the wrist's,
# where the derived acceleration adds least)
check "... the noise it read on joint 7, in the log's unit: 50 (the generator's 0.05 N m) within 15 %" sh -c \
	"grep -o 'joint 7 (eff_7) [0-9.e+]* / [0-9.e+]* N m' '$tmp/err' | awk '{ n = \$6 + 0 } END { exit !(n > 42.5 && n < 57.5) }'"
awk -F, -v OFS=, -v CONVFMT=%.9g 'NR > 1 { for (i = 16; i <= 22; i++) $i = $i / 1000 } { print }' "$tmp/pp.csv" > "$tmp/knm.csv"
expect "efforts in kN m: refused, the unit the cause" 1 "*" \
	"likely cause: every joint's effort has a unit 1000 times too large \(read times 9[0-9.]* \.\. [0-9.]*\): read so, the rows fit to [0-9.]* times" -- \
	$R $M --held link7 "$tmp/knm.csv"
expect "two joints' effort columns exchanged: refused, the pair named" 1 "*" \
	"likely cause: the efforts of joint 2 \(eff_2\) and joint 4 \(eff_4\) are exchanged" -- $R $M --held link7 "$tmp/swap.csv"
expect "joint 4's zero off by pi/2: refused, offset, order or robot the causes" 1 "*" \
	"model fit: [0-9] of 7 rows .*likely cause: a joint's zero offset or direction, the order of the position columns, a description of another robot" -- \
	$R $M --held link7 "$tmp/off.csv"
expect "--no-fit-check writes the rows, the findings a warning" 0 "^t,row,Y_m" "model fit: 7 of 7 rows" -- \
	$R $M --held link7 --no-fit-check --stream csv "$tmp/sign.csv"
expect "--friction-terms on the negated efforts: a negative viscous coefficient flagged" 0 "*" \
	"model fit: joint 7 \(eff_7\): the friction fitted has a negative viscous coefficient" -- \
	$R $M --held link7 --no-fit-check --friction-terms viscous,coulomb "$tmp/sign.csv"
awk -F, -v OFS=, -v CONVFMT=%.9g 'NR > 1 { for (i = 16; i <= 22; i++) $i = $i / 1000 } { print }' "$tmp/pe.csv" > "$tmp/kn.csv"
expect "--fit-friction on efforts in kN m: a Coulomb term over the joint's torque flagged" 0 "" \
	"--fit-friction: joint 1 \(eff_1\): a Coulomb term \(fc .*\) larger than the joint's typical torque" -- \
	$R $M --fit-friction viscous,coulomb,offset "$tmp/kn.csv" -o "$tmp/kn.txt"
awk -F, -v OFS=, 'NR > 1 { for (i = 16; i <= 22; i++) $i = -$i } { print }' "$tmp/pe.csv" > "$tmp/esign.csv"
expect "--fit-friction on negated efforts: a negative viscous coefficient flagged" 0 "" \
	"--fit-friction: joint 7 \(eff_7\): a negative viscous coefficient \(fv -0\.[0-9]* [+]- " -- \
	$R $M --fit-friction viscous,coulomb,offset "$tmp/esign.csv" -o "$tmp/esign.txt"

# an arm's rows say so, and the commands downstream use an arm's words
$R $M --held link7 --stream csv "$tmp/pick.csv" 2>/dev/null | $BIN/tagk-estimate -a rls-low --stream csv 2> "$tmp/est.err" > "$tmp/pick.est"
check "an arm's stream carries the note 'system arm' through tagk-estimate" grep -q '^#tagk-note: system arm$' "$tmp/pick.est"
check "... tagk-estimate's note on misfit windows names an arm's causes, not thrust" sh -c \
	"grep -q 'an arm.s: noisy derived accelerations, friction not modelled' '$tmp/est.err' && ! grep -q thrust '$tmp/est.err'"
grep -v '^#tagk-end\|^#tagk-stream' "$tmp/pick.est" | awk -F, -v OFS=, '!/^#/ && !h { for (i = 1; i <= NF; i++) k[i] = $i !~ /^true_/; h = 1 }
	/^#/ { print; next } { o = ""; for (i = 1; i <= NF; i++) if (k[i]) o = o (o == "" ? "" : ",") $i; print o }' > "$tmp/pick-nt.csv"
expect "... tagk-report's summary: the interval's and the wander's causes an arm's" 0 \
	"as an error of the robot's description or friction, is not in it" "*" -- $BIN/tagk-report "$tmp/pick-nt.csv"
check "... and no thrust map, battery or drag" sh -c "! grep -Eq 'thrust|battery|drag' '$tmp/out'"

# a frame fixed to a link (a fixed joint) is merged into it: --held names the link
expect "--held on a frame merged into its link: the link named" 2 "" \
	"--held attachment: attachment is fixed to link7 \(a fixed joint\) and merged into it: say --held link7" -- \
	$R $M --held attachment "$tmp/pp.csv"
expect "... in a URDF too (features.urdf's tool on l2)" 2 "" "--held tool: tool is fixed to l2 .* say --held l2" -- \
	$BIN/tagk-regress -m multibody --robot tests/robots/features.urdf --held tool "$tmp/pp.csv"

# a continuous joint logged in [-pi, pi): positions only (qd, qdd derived),
# joint 7 turned by 2.5 rad so that it wraps 8 times; the rows must be
# those of the same log unwrapped (tagk 8106261: the mass 4 % off and the
# payload's mcx 6 times too small)
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { $8 = $8 + 2.5 } { print }' "$tmp/pp.csv" | cut -d, -f1-8,16- > "$tmp/q7.csv"
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { p = 3.141592653589793; x = $8 + p; x -= 2 * p * int(x / (2 * p)); if (x < 0) x += 2 * p; $8 = x - p }
	{ print }' "$tmp/q7.csv" > "$tmp/q7w.csv"
Q="--map t=time --map q=pos_{1..7} --map tau=eff_{1..7}"
$R $Q --held link7 --stream csv "$tmp/q7.csv" > "$tmp/q7.reg" 2>/dev/null
expect "a joint angle that wraps at +-pi: unwrapped, said" 0 "*" "q7w.csv: joint 7's angle 'pos_7' wraps around \(a jump of 2 pi between samples, 8 times\)" -- \
	$R $Q --held link7 --stream csv "$tmp/q7w.csv"
check "... its rows those of the log never wrapped (to 1e-12 of each column's largest value)" sh -c \
	"paste -d, '$tmp/q7.reg' '$tmp/out' | grep -v '^#' | awk -F, 'NR > 1 { h = NF / 2; n++
		for (i = 3; i <= 13; i++) { d = \$i - \$(i + h); if (d < 0) d = -d; a = \$i < 0 ? -\$i : \$i; if (a > A[i]) A[i] = a; if (d > D[i]) D[i] = d } }
		END { for (i = 3; i <= 13; i++) if (D[i] > 1e-12 * A[i]) bad++; exit !(n > 17000 && !bad) }'"
# a time column in ms declared seconds: the Savitzky-Golay window (qdd
# from qd, 0.05 s) is one sample, and the time unit is what is wrong
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { $1 = $1 * 1000 } { print }' "$tmp/pp.csv" > "$tmp/ms.csv"
expect "stamps in ms read as seconds (--time-unit s): the time unit named, not the window" 1 "" \
	"the log's samples are 4 s apart as its time column reads: .* is the time in ms, us or ns \(--time-unit\)\?" -- \
	$R $M --held link7 --time-unit s "$tmp/ms.csv"

# positions alone: the Savitzky-Golay window chosen from the data and said
# (MuJoCo's loaded Panda below, at 1 kHz with 1e-3 rad on the positions: the
# former default 0.05 s gave the mass -3.2 % off)

# epoch time stamps in ns: a double keeps 0.26 us of 1.7e18; counted from
# the first stamp in long double, the 4 ms steps come out exact
awk -F, -v OFS=, 'NR > 1 { k = NR - 2; s = int(k / 250); $1 = sprintf("%d%09d", 1710770000 + s, (k - 250 * s) * 4000000) } { print }' \
	"$tmp/pp.csv" > "$tmp/ns.csv"
expect "epoch stamps in ns: counted from the first, said on stderr" 0 "*" \
	"ns.csv: time stamps as large as 1710770000000000000 are counted from that first one" -- \
	$R $M --held link7 --time-unit ns --stream csv "$tmp/ns.csv"
check "... every step of joint 1's rows 0.004 s within 1e-12 s (a double of the stamps: 1.9e-7)" sh -c \
	"grep -v '^#' '$tmp/out' | awk -F, 'NR > 1 && \$2 == 0 { if (n++) { d = \$1 - p - 0.004; if (d < 0) d = -d; if (d > w) w = d } p = \$1 }
		END { exit !(n > 2000 && w < 1e-12) }'"

if ! [ -x "$GEN" ]; then
	echo "skip the MuJoCo arms: libmujoco-dev is not installed ($GEN was not built)"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi
sed 's/<joint armature="0.1" damping="1"/<joint armature="0" damping="0.6" frictionloss="0.4" solreffriction="0.0002 1"/
     s/<compiler angle="radian" autolimits="true"\/>/&<option timestep="0.0001"\/>/' datasets/panda_nohand.xml > "$tmp/arm.xml"
sed 's/<body name="attachment"/<body name="payload" pos="0.01 -0.02 0.12" quat="0.9 0.1 0.2 0.3"><inertial pos="0.005 0.01 0.02" quat="0.8 0 0.3 0.1" mass="1.5" diaginertia="0.004 0.005 0.006"\/><\/body>&/' \
	"$tmp/arm.xml" > "$tmp/loaded.xml"
$GEN "$tmp/loaded.xml" 10 1000 5 1e-3 0 0.05 payload | cut -d, -f1-8,16- > "$tmp/noisyq.csv"
F="--friction-terms viscous,coulomb"
mass() { # the batch least-squares mass of a row stream
	$BIN/tagk-estimate -a ols --batch "$1" 2>/dev/null | grep -v '^#' | awk -F, 'NR == 2 { print $2 }'
}
expect "positions alone: the window chosen from the data, and why, said" 0 "*" \
	"qd and qdd from q by a Savitzky-Golay filter of degree 3 over [0-9]+ samples \(0\.0[6-9][0-9]* s at the log's spacing of 0\.001 s; chosen from the first 2048 samples: the least bias of qdd" -- \
	$R $Q --held link7 $F "$tmp/noisyq.csv"
a=$(mass "$tmp/out")
$R $Q --held link7 $F --sg-window 0.05 "$tmp/noisyq.csv" > "$tmp/w05.reg" 2>/dev/null
b=$(mass "$tmp/w05.reg")
check "... the payload's mass within 1 % of 1.5 kg ($a; 0.05 s gives $b, over 2 % off)" \
	awk -v a="$a" -v b="$b" 'BEGIN { d = a - 1.5; e = b - 1.5; exit !(a != "" && d * d < 0.015 * 0.015 && e * e > 0.03 * 0.03) }'
# a second 7-joint arm, made up for this test (iiwa-like proportions), with
# a link7 like the Panda's and the same friction, holding 1.3 kg
cat > "$tmp/arm7.xml" <<'EOF'
<mujoco model="arm7">
  <compiler angle="radian" autolimits="true"/>
  <default><joint axis="0 0 1" damping="0.6" frictionloss="0.4" solreffriction="0.0002 1"/></default>
  <option timestep="0.0001"/>
  <worldbody>
    <body name="base">
      <inertial mass="5" pos="-0.1 0 0.07" diaginertia="0.05 0.06 0.03"/>
      <body name="link1" pos="0 0 0.16">
        <inertial mass="5.8" pos="0 -0.03 0.12" diaginertia="0.033 0.033 0.012"/>
        <joint name="j1" range="-2.9 2.9"/>
        <body name="link2" pos="0 0 0.2" quat="0 0 1 1">
          <inertial mass="6.4" pos="0 0.06 0.04" diaginertia="0.03 0.03 0.011"/>
          <joint name="j2" range="-2 2"/>
          <body name="link3" pos="0 0.2 0" quat="0 0 1 1">
            <inertial mass="3.5" pos="0 0.03 0.13" diaginertia="0.025 0.024 0.008"/>
            <joint name="j3" range="-2.9 2.9"/>
            <body name="link4" pos="0 0 0.22" quat="1 1 0 0">
              <inertial mass="3.5" pos="0 0.07 0.03" diaginertia="0.017 0.016 0.006"/>
              <joint name="j4" range="-2 2"/>
              <body name="link5" pos="0 0.18 0" quat="0 0 1 1">
                <inertial mass="3.5" pos="0 0.02 0.08" diaginertia="0.01 0.009 0.0045"/>
                <joint name="j5" range="-2.9 2.9"/>
                <body name="link6" pos="0 0 0.22" quat="1 1 0 0">
                  <inertial mass="1.8" pos="0 0 0" diaginertia="0.005 0.0047 0.0036"/>
                  <joint name="j6" range="-2 2"/>
                  <body name="link7" pos="0 0.08 0" quat="0 0 1 1">
                    <inertial mass="1.2" pos="0 0 0.02" diaginertia="0.001 0.001 0.001"/>
                    <joint name="j7" range="-3 3"/>
                    <body name="payload" pos="0.01 -0.02 0.1"><inertial pos="0.005 0.01 0.02" mass="1.3" diaginertia="0.004 0.005 0.006"/></body>
                  </body>
                </body>
              </body>
            </body>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
EOF
grep -v 'name="payload"' "$tmp/arm7.xml" > "$tmp/arm7_empty.xml"
$GEN "$tmp/arm7.xml" 10 500 2 1e-4 2e-3 0.05 payload > "$tmp/arm7.csv"
check "the second arm's log with its own description: fits" \
	fits $BIN/tagk-regress -m multibody --robot "$tmp/arm7_empty.xml" --held link7 $M --stream csv "$tmp/arm7.csv"
expect "... with the Panda's description (7 joints and a link7 too): refused, another robot among the causes" 1 "*" \
	"model fit: 7 of 7 rows are not explained .*datasets/panda_nohand.xml.*a description of another robot" -- \
	$R $M --held link7 "$tmp/arm7.csv"
expect "the Panda's log with the second arm's description: refused" 1 "*" "model fit: [1-7] of 7 rows [a-z]* not explained" -- \
	$BIN/tagk-regress -m multibody --robot "$tmp/arm7_empty.xml" --held link7 $M "$tmp/pp.csv"
# the UR5e (6 joints; tests/robots/ur5e.xml), noise as above
sed 's/armature="0.1" damping="[0-9]*"/armature="0"/' tests/robots/ur5e.xml > "$tmp/ur5e.xml"
$GEN "$tmp/ur5e.xml" 10 500 3 1e-4 2e-3 0.05 > "$tmp/ur5e.csv"
U="$BIN/tagk-regress -m multibody --robot tests/robots/ur5e.xml --unknown wrist_3_link --map t=time --map q=pos_* --map qd=vel_* --map tau=eff_*"
check "UR5e, its own log: fits" fits $U --stream csv "$tmp/ur5e.csv"
awk -F, -v OFS=, 'NR > 1 { for (i = 14; i <= 19; i++) $i = -$i } { print }' "$tmp/ur5e.csv" > "$tmp/ur5e-sign.csv"
expect "UR5e, efforts negated: refused, the sign the cause" 1 "*" "likely cause: every joint's effort has the wrong sign" -- \
	$U "$tmp/ur5e-sign.csv"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
