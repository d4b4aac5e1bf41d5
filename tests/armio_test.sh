#!/bin/sh
# armio_test.sh: the whole arm from its own log (issue 55, asks 3-5):
# tagk-regress -m multibody --identify (every link, physically consistent,
# with friction; lib/armpc.c against CVXOPT), --predict (the torques a
# description predicts, against MuJoCo's mj_inverse to 1e-9), and the
# identified links written back as URDF, MJCF and model file.
. tests/lib.sh
BIN=${BIN:-bin}
GEN=${ARM_MUJOCO:-build/arm_mujoco}
SOLVE=${ARMPC_SOLVE:-build/armpc_solve}
PY=/usr/bin/python3
R="$BIN/tagk-regress -m multibody"
M="--map t=time --map q=pos_{1..7} --map qd=vel_* --map tau=eff_{1..7}"
FR="--friction-terms viscous,coulomb,offset"
if [ -x $PY ] && $PY -c 'import cvxopt, numpy' 2>/dev/null; then
	$PY tests/armio_oracle.py "$SOLVE" "$tmp" > "$tmp/oracle.out" 2>&1
	rc=$?
	cat "$tmp/oracle.out"
	check "armpc agrees with CVXOPT on 60 rank-deficient problems with friction columns (1e-7 in the objective)" \
		test $rc -eq 0
else
	echo "skip the SDP oracle: /usr/bin/python3 with cvxopt and numpy is not installed"
fi
# usage
expect "--identify with --unknown" 2 "" "--identify takes every link" -- \
	$R --robot datasets/panda_nohand.xml $M --identify --unknown link7 datasets/panda-empty.csv.gz
expect "--prior-weight without --identify" 2 "" "go with --identify" -- \
	$R --robot datasets/panda_nohand.xml $M --predict --prior-weight 1 datasets/panda-empty.csv.gz
expect "--identify and --predict" 2 "" "one of the two" -- \
	$R --robot datasets/panda_nohand.xml $M --identify --predict datasets/panda-empty.csv.gz
expect "--prior-metric logdet at weight 0" 2 "" "needs --prior-weight > 0" -- \
	$R --robot datasets/panda_nohand.xml $M --identify --prior-metric logdet --prior-weight 0 datasets/panda-empty.csv.gz
expect "--write-robot from a model file" 1 "" "--write-robot: .*" -- \
	$R --robot datasets/panda.model $M --identify --write-robot "$tmp/x.xml" -o "$tmp/x.model" datasets/panda-empty.csv.gz
check "... and nothing written" test ! -e "$tmp/x.model" -a ! -e "$tmp/x.xml"
expect "--identify with the sigmoid friction term" 2 "" "sigmoid: whole-arm rows only" -- \
	$R --robot datasets/panda_nohand.xml $M --identify --friction-terms viscous,sigmoid datasets/panda-empty.csv.gz
# the bundled run, URDF in and out: only the inertials change, and the
# URDF, the MJCF-derived model file and the model file written agree
expect "--identify on panda-empty.csv.gz with the URDF" 0 "" "joint 7: RMS residual" -- \
	$R --robot datasets/panda.urdf $M --identify $FR --write-robot "$tmp/id.urdf" --write-friction "$tmp/fr.txt" \
	-o "$tmp/id.model" datasets/panda-empty.csv.gz
check "... the URDF written differs from the input in the 7 moving links' <inertial> only" sh -c \
	"diff datasets/panda.urdf '$tmp/id.urdf' | grep '^>' | grep -c '<inertial><origin' | grep -qx 7 &&
	 diff datasets/panda.urdf '$tmp/id.urdf' | grep '^>' | grep -vc '<inertial>' | grep -qx 0"
# an MJCF joint off its body's origin (tagk's frame sits on the joint):
# refused, with nothing written (the inertial would need moving to the
# element's frame, which the rewriter does not do)
sed 's|<joint name="joint7"/>|<joint name="joint7" pos="0.01 -0.02 0.03"/>|' datasets/panda_nohand.xml > "$tmp/jpos.xml"
expect "--write-robot: an MJCF whose joint7 sits off its body's origin is refused" 1 "" "write the model file instead" -- \
	$R --robot "$tmp/jpos.xml" $M --identify --write-robot "$tmp/idj.xml" -o "$tmp/idj.model" datasets/panda-empty.csv.gz
check "... and nothing written" test ! -e "$tmp/idj.xml" -a ! -e "$tmp/idj.model"
for pm in euclid logdet; do
	expect "--identify --prior-metric $pm: joint 2's residual as the pullback's (0.235 N m), every link physical" 0 "" \
		"joint 2: RMS residual 1.123 N m with the description, 0.23[0-9]* identified" -- \
		$R --robot datasets/panda.urdf $M --identify $FR --prior-metric $pm -o "$tmp/pm.model" datasets/panda-empty.csv.gz
done
check "... the friction file has 7 joints" sh -c "grep -c '^joint' '$tmp/fr.txt' | grep -qx 7"
pred() { # ROBOT LOG [ARGS]: the predicted torques, one line a sample
	r=$1 l=$2
	shift 2
	$R --robot "$r" $M "$@" --predict --stream csv "$l" 2>/dev/null | grep -v '^#' | cut -d, -f9-15
}
pred "$tmp/id.urdf" datasets/panda-payload.csv.gz > "$tmp/p1"
pred "$tmp/id.model" datasets/panda-payload.csv.gz > "$tmp/p2"
check "... read back, the URDF and the model file predict the same torques to 1e-9 N m" sh -c \
	"paste -d, '$tmp/p1' '$tmp/p2' | awk -F, 'NR > 1 { for (i = 1; i <= 7; i++) { d = \$i - \$(i + 7); if (d < 0) d = -d; if (d > w) w = d } n++ }
	END { exit !(n > 2000 && w <= 1e-9) }'"
# a hand on a fixed joint, merged into link7: its inertial stays, link7's
# own takes the difference, and the file reads back as identified
sed 's|</robot>|  <link name="hand"><inertial><origin xyz="0 0.01 0.05" rpy="0.1 0.2 0.3"/><mass value="0.73"/><inertia ixx="0.002" iyy="0.003" izz="0.0025" ixy="0" ixz="0" iyz="0"/></inertial></link>\
  <joint name="flange" type="fixed"><parent link="link7"/><child link="hand"/><origin xyz="0 0 0.107" rpy="0 0 -0.785"/></joint>\
</robot>|' datasets/panda.urdf > "$tmp/hand.urdf"
expect "--write-robot with a fixed hand merged into link7" 0 "" "joint 7: RMS residual" -- \
	$R --robot "$tmp/hand.urdf" $M --identify $FR --write-robot "$tmp/idh.urdf" -o "$tmp/idh.model" datasets/panda-empty.csv.gz
check "... the hand's inertial kept byte for byte, link7's rewritten" sh -c \
	"grep -q '<link name=\"hand\"><inertial><origin xyz=\"0 0.01 0.05\" rpy=\"0.1 0.2 0.3\"/><mass value=\"0.73\"/>' '$tmp/idh.urdf' &&
	 ! grep -q 'mass value=\"7.35522e-01\"' '$tmp/idh.urdf'"
pred "$tmp/idh.urdf" datasets/panda-payload.csv.gz > "$tmp/p1"
pred "$tmp/idh.model" datasets/panda-payload.csv.gz > "$tmp/p2"
check "... read back, the URDF and the model file predict the same torques to 1e-9 N m" sh -c \
	"paste -d, '$tmp/p1' '$tmp/p2' | awk -F, 'NR > 1 { for (i = 1; i <= 7; i++) { d = \$i - \$(i + 7); if (d < 0) d = -d; if (d > w) w = d } n++ }
	END { exit !(n > 2000 && w <= 1e-9) }'"
# the same problem as a batch method on the whole-arm stream: the
# standard rows of every link (tagk-regress --unknown all), -a wls-pc
# --robot: the same links as --identify from the log (to 1e-6: the pull
# holds flat directions, where the sums' rounding in another order and the
# solver's stopping gap of 1e-10 in the objective move them by ~1e-8)
$R --robot datasets/panda.urdf $M --unknown all $FR --stream csv datasets/panda-empty.csv.gz > "$tmp/all.csv" 2>/dev/null
expect "tagk-estimate -a wls-pc --batch --robot on the whole-arm stream" 0 "" "7 bodies and 21 free columns" -- \
	$BIN/tagk-estimate -a wls-pc --batch --robot datasets/panda.urdf --stream csv -o "$tmp/wpc.csv" "$tmp/all.csv"
check "... gives --identify's links (the model file written) to 1e-6 relative" sh -c \
	"grep -v '^#' '$tmp/wpc.csv' | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i } NR == 2 { print \$c[\"m_link3\"], \$c[\"m_link7\"] }' > '$tmp/wm' &&
	 awk '/^body link3/ { b = 3 } /^body link7/ { b = 7 } /^  mass/ && b { m[b] = \$2; b = 0 } END { print m[3], m[7] }' '$tmp/id.model' > '$tmp/im' &&
	 paste -d' ' '$tmp/wm' '$tmp/im' | awk '{ for (i = 1; i <= 2; i++) { d = \$i - \$(i + 2); if (d < 0) d = -d; if (!(d <= 1e-6 * \$(i + 2))) bad++ } } END { exit bad > 0 || NR != 1 }'"
expect "-a wls-pc on the whole-arm stream without --robot" 2 "" "needs --robot FILE" -- \
	$BIN/tagk-estimate -a wls-pc --batch "$tmp/all.csv"
expect "--robot on one body's stream" 2 "" "--robot: .* one body's stream" -- sh -c \
	"$R --robot datasets/panda.urdf $M --held link7 datasets/panda-empty.csv.gz 2>/dev/null | $BIN/tagk-estimate -a wls-pc --batch --robot datasets/panda.urdf"
if ! [ -x "$GEN" ]; then
	echo "skip the MuJoCo arm runs: libmujoco-dev is not installed ($GEN was not built)"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi
# The robot as it is: every link's mass and inertia 20-30 % off the
# description's, its centre of mass 1 cm off, damping 0.6 and frictionloss
# 0.4 on every joint (arm_mujoco_test.sh's settings)
sed 's/<joint armature="0.1" damping="1"/<joint armature="0" damping="0.6" frictionloss="0.4" solreffriction="0.0002 1"/
     s/<compiler angle="radian" autolimits="true"\/>/&<option timestep="0.0001"\/>/' datasets/panda_nohand.xml |
awk '{ while (match($0, /mass="[0-9.e+-]+"/)) { k++; f = 1.2 + 0.1 * (k % 2); if (k % 3 == 0) f = 1 / f
		v = substr($0, RSTART + 6, RLENGTH - 7); $0 = substr($0, 1, RSTART - 1) "MASS=\"" v * f "\"" substr($0, RSTART + RLENGTH); s = f }
	while (match($0, /fullinertia="[^"]*"/)) { n = split(substr($0, RSTART + 13, RLENGTH - 14), a, " "); o = ""
		for (i = 1; i <= n; i++) o = o (i > 1 ? " " : "") a[i] * s
		$0 = substr($0, 1, RSTART - 1) "FULLINERTIA=\"" o "\"" substr($0, RSTART + RLENGTH) }
	while (match($0, / pos="-?[0-9.e+-]+ /) && $0 ~ /<inertial/) { v = substr($0, RSTART + 6, RLENGTH - 7)
		$0 = substr($0, 1, RSTART - 1) " POS=\"" v + 0.01 " " substr($0, RSTART + RLENGTH) }
	gsub(/MASS=/, "mass="); gsub(/FULLINERTIA=/, "fullinertia="); gsub(/ POS=/, " pos="); print }' > "$tmp/truth.xml"
check "the robot's inertials differ from the description's on every link" sh -c \
	"diff datasets/panda_nohand.xml '$tmp/truth.xml' | grep -c '^>.*mass=' | grep -qx 8"
# two runs of 20 s at 1 kHz (other trajectories), noise 1e-4 rad, 2e-3
# rad/s, 0.05 N m; and the description (the vendor's) with
# damping and frictionloss off, armature 0, as tagk models it
$GEN "$tmp/truth.xml" 20 1000 11 1e-4 2e-3 0.05 > "$tmp/run1.csv"
$GEN "$tmp/truth.xml" 20 1000 12 1e-4 2e-3 0.05 > "$tmp/run2.csv"
sed 's/<joint armature="0.1" damping="1"/<joint armature="0" damping="0"/' datasets/panda_nohand.xml > "$tmp/desc.xml"
start=$(date +%s.%N)
expect "--identify on a 20 s, 1 kHz, 7-joint MuJoCo run of the perturbed arm" 0 "" "joint 1: RMS residual" -- \
	$R --robot "$tmp/desc.xml" $M --identify $FR --write-robot "$tmp/id.xml" --write-friction "$tmp/fr2.txt" \
	-o "$tmp/id2.model" "$tmp/run1.csv"
# its run time is printed, not judged: speed is the benchmarks' (a timed
# test fails on a loaded machine); the 0.45 s figure is tagk-regress(1)'s
secs=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.2f", a - b }')
grep -- '--identify:' "$tmp/err"
echo "  (--identify took $secs s with its reading and derivatives)"
check "... friction: fv within 2 % of 0.6, fc within 5 % of 0.4, every joint" \
	awk '/^joint/ { n++; if (!($3 > 0.588 && $3 < 0.612 && $4 > 0.38 && $4 < 0.42)) bad++ } END { exit !(n == 7 && !bad) }' \
	"$tmp/fr2.txt"
rms() { # ROBOT LOG [ARGS]: the seven RMS residuals of --predict
	r=$1 l=$2
	shift 2
	$R --robot "$r" $M "$@" --predict -o "$tmp/pred.csv" "$l" 2>&1 | awk '/RMS residual/ { printf "%s ", $6 }'
}
desc=$(rms "$tmp/desc.xml" "$tmp/run2.csv" --friction "$tmp/fr2.txt")
ident=$(rms "$tmp/id.xml" "$tmp/run2.csv" --friction "$tmp/fr2.txt")
# the floor: the robot's own links (and MuJoCo's friction values), whose
# residual is what the noise in q, qd (through the derived qdd) and tau leaves
printf 'joint %d 0.6 0.4 0\n' 1 2 3 4 5 6 7 > "$tmp/frtrue.txt"
sed 's/<joint armature="0" damping="0.6" frictionloss="0.4" solreffriction="0.0002 1"/<joint armature="0" damping="0"/' \
	"$tmp/truth.xml" > "$tmp/truthm.xml"
floor=$(rms "$tmp/truthm.xml" "$tmp/run2.csv" --friction "$tmp/frtrue.txt")
echo "validation on run 2, RMS residual per joint (N m): description $desc; identified $ident; the true arm $floor"
check "... validated on a second run: every joint's RMS residual within 1.1x the true arm's, far below the description's" \
	awk -v d="$desc" -v i="$ident" -v f="$floor" 'BEGIN { n = split(d, a, " "); split(i, b, " "); split(f, c, " ")
		for (j = 1; j <= n; j++) if (!(b[j] <= 1.1 * c[j] && b[j] < a[j] / 2)) bad++; exit !(n == 7 && !bad) }'
# the torques --predict writes against mj_inverse, to 1e-9: a noise-free
# run of the identified MJCF without joint friction, its exact
# accelerations read, for the MJCF and the model file written
sed 's/<joint armature="0" damping="0"/<joint armature="0" damping="0"/' "$tmp/id.xml" > "$tmp/idx.xml"
ARM_MUJOCO_EXACT=1 $GEN "$tmp/idx.xml" 2 500 13 0 0 0 > "$tmp/exact.csv"
for r in "$tmp/id.xml" "$tmp/id2.model"; do
	$R --robot "$r" $M --map 'qdd=acc_{1..7}' --predict --stream csv "$tmp/exact.csv" 2>/dev/null | grep -v '^#' > "$tmp/pe.csv"
	check "--predict with $(basename "$r") against MuJoCo's mj_inverse of the identified arm: within 1e-9 N m" \
		awk -F, 'NR > 1 { for (i = 2; i <= 8; i++) { d = $i - $(i + 7); if (d < 0) d = -d; if (d > w) w = d } n++ }
		END { exit !(n == 1001 && w <= 1e-9) }' "$tmp/pe.csv"
done
# noise-free: identified on one run of the perturbed arm (no joint
# friction, exact accelerations), the torques of another run predicted
# to MuJoCo's own precision (its fullinertia eigensolver, ~1e-7 of the
# inertia): the base parameters are recovered, whatever the prior holds
sed 's/<joint armature="0" damping="0.6" frictionloss="0.4" solreffriction="0.0002 1"/<joint armature="0" damping="0"/' \
	"$tmp/truth.xml" > "$tmp/nf.xml"
ARM_MUJOCO_EXACT=1 $GEN "$tmp/nf.xml" 10 200 21 0 0 0 > "$tmp/e1.csv"
ARM_MUJOCO_EXACT=1 $GEN "$tmp/nf.xml" 10 200 22 0 0 0 > "$tmp/e2.csv"
$R --robot "$tmp/desc.xml" $M --map 'qdd=acc_{1..7}' --identify -o "$tmp/nf.model" "$tmp/e1.csv" 2>/dev/null
nf=$(rms "$tmp/nf.model" "$tmp/e2.csv" --map 'qdd=acc_{1..7}')
echo "noise-free, a second run predicted: RMS residual per joint $nf N m"
check "... every joint within 1e-6 N m (torques of 0.3-50 N m; the description misses by 0.1-8 N m)" \
	awk -v r="$nf" 'BEGIN { n = split(r, a, " "); for (j = 1; j <= n; j++) if (!(a[j] < 1e-6)) bad++; exit !(n == 7 && !bad) }'
# the two-step payload workflow on the identified arm: 1.5 kg in link7
sed 's/<body name="attachment"/<body name="payload" pos="0.01 -0.02 0.12" quat="0.9 0.1 0.2 0.3"><inertial pos="0.005 0.01 0.02" quat="0.8 0 0.3 0.1" mass="1.5" diaginertia="0.004 0.005 0.006"\/><\/body>&/' \
	"$tmp/truth.xml" > "$tmp/loaded.xml"
$GEN "$tmp/loaded.xml" 10 1000 14 1e-4 2e-3 0.05 payload > "$tmp/loaded.csv"
mass() { # ROBOT: the payload's mass by ols on --held link7
	$R --robot "$1" $M --held link7 --friction "$tmp/fr2.txt" "$tmp/loaded.csv" 2>/dev/null |
		$BIN/tagk-estimate -a ols --batch 2>/dev/null | grep -v '^#' | awk -F, 'NR == 2 { print $2 }'
}
mi=$(mass "$tmp/id.xml")
md=$(mass "$tmp/desc.xml")
echo "payload 1.5 kg: $mi kg on the identified arm, $md kg on the description"
check "the payload on the identified arm within 1 % of 1.5 kg, closer than on the description" \
	awk -v a="$mi" -v b="$md" 'function abs(x) { return x < 0 ? -x : x }
		BEGIN { exit !(a != "" && abs(a - 1.5) < 0.015 && abs(a - 1.5) < abs(b - 1.5)) }'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
