#!/bin/sh
# arm_test.sh: a manipulator's own joint log into tagk-regress -m multibody:
# foreign column names through --map (lists, PRE{1..7}SUF ranges, globs),
# degrees, accelerations (and velocities) derived by a Savitzky-Golay
# filter, and a model and log that disagree on the number of joints. The
# log is tagk-bench grasp's (paper 003: a Panda holding a 10 kg cube, the
# truth in true_* columns); the oracle is that log's own exact rows and
# the cube's known mass.
. tests/lib.sh
BIN=${BIN:-bin}
R="$BIN/tagk-regress -m multibody --robot datasets/panda.model --held link7"
E=$BIN/tagk-estimate P=$BIN/tagk-report S=$BIN/tagk-bench

$S grasp --target 10 --duration 3 --dt 0.01 -o "$tmp/g.csv" 2>/dev/null
plain "$tmp/g.csv" > "$tmp/g.plain"
# the batch mass error (%) of a row stream
mass_err() {
	$E -a ols --batch "$1" 2>/dev/null | $P --format csv 2>/dev/null | awk -F, '$2 == "m" { print $8 }'
}
$R "$tmp/g.csv" > "$tmp/exact.reg" 2>/dev/null
exact=$(mass_err "$tmp/exact.reg")

# no accelerations: derived from the velocities
cut -d, -f1-15,23- "$tmp/g.plain" > "$tmp/noqdd.csv"
expect "a log without qdd: derived from qd, said on stderr" 0 "*" \
	"^tagk-regress: qdd from qd by a Savitzky-Golay filter of degree 3 over 7 samples \(0.06 s at the log's spacing of 0.01 s\): 6 samples at the log's ends not written$" -- \
	$R "$tmp/noqdd.csv"
cp "$tmp/out" "$tmp/d.reg"
check "... 7 rows per sample for the 295 samples not at the ends" test "$(plain "$tmp/d.reg" | sed 1d | wc -l)" -eq 2065
d=$(mass_err "$tmp/d.reg")
check "... the cube's mass within 1 % (derived $d %, exact qdd $exact %)" \
	awk -v d="$d" -v e="$exact" 'BEGIN { exit !(d != "" && d < 1 && e != "" && e < 1) }'
cut -d, -f1-8,23- "$tmp/g.plain" > "$tmp/qonly.csv"
expect "a log of positions and torques: qd and qdd derived from q" 0 "*" "qd and qdd from q by a Savitzky-Golay" -- \
	$R "$tmp/qonly.csv"
cp "$tmp/out" "$tmp/q.reg"
d=$(mass_err "$tmp/q.reg")
check "... the cube's mass within 1 % ($d %)" awk -v d="$d" 'BEGIN { exit !(d != "" && d < 1) }'
expect "--sg-smooth filters the measured signals too, and says so" 0 "*" \
	"qdd from qd; the measured q, qd and tau smoothed by a Savitzky-Golay filter of degree 2 over 11 samples" -- \
	$R --sg-window 0.1 --sg-order 2 --sg-smooth "$tmp/noqdd.csv"
expect "a window narrower than the degree needs" 2 "" "--sg-window 0.001 s is 1 sample at this log's spacing of 0.01 s" -- \
	$R --sg-window 0.001 "$tmp/qonly.csv"
# a gap: the window starts again after it
awk -F, 'NR == 1 || $1 < 1 || $1 > 1.5' "$tmp/noqdd.csv" > "$tmp/gap.csv"
expect "a gap in the log: no fit across it" 0 "*" "at the log's ends and at its gaps not written" -- $R "$tmp/gap.csv"
check "... 6 samples lost at each of the two segments' ends" test "$(plain "$tmp/out" | sed 1d | wc -l)" -eq $(( (301 - 51 - 12) * 7 ))

# Savitzky-Golay of degree 3 reproduces a cubic exactly, at any spacing: a
# log whose joints move along cubics in time, sampled unevenly (10 ms +- 3),
# gives with qdd (or qd and qdd) derived the rows it gives with the exact
# ones, row for row at the same t (the derivative taken at the window's
# centre, not at another of its times)
awk 'BEGIN { h = "t"; for (k = 1; k <= 4; k++) for (j = 1; j <= 7; j++) h = h "," (k == 1 ? "q" : k == 2 ? "qd" : k == 3 ? "qdd" : "tau") j
	print h
	for (i = 0; i <= 300; i++) {
		t = 0.01 * i + 0.003 * sin(1.7 * i); r = sprintf("%.17g", t)
		for (j = 1; j <= 7; j++) { a = 0.1 * j / 7; b = 0.2 - 0.02 * j; c = -0.1 + 0.01 * j; d = 0.02 - 0.004 * j
			q[j] = a + b * t + c * t * t + d * t * t * t; qd[j] = b + 2 * c * t + 3 * d * t * t; qdd[j] = 2 * c + 6 * d * t }
		for (j = 1; j <= 7; j++) r = r "," sprintf("%.17g", q[j])
		for (j = 1; j <= 7; j++) r = r "," sprintf("%.17g", qd[j])
		for (j = 1; j <= 7; j++) r = r "," sprintf("%.17g", qdd[j])
		for (j = 1; j <= 7; j++) r = r "," sprintf("%.17g", sin(t + j))
		print r } }' > "$tmp/poly.csv"
# the rows of $2 against those of $1 with the same t and row: the largest
# difference relative to each column's largest value; 1 if a row is missing
same_t_rows() {
	awk -F, '/^#/ || $1 == "t" { next }
	NR == FNR { k = $1 "," $2; for (i = 3; i <= NF; i++) { v[k, i] = $i; a = $i < 0 ? -$i : $i; if (a > s[i]) s[i] = a }; next }
	{ k = $1 "," $2; n++; if (!((k, 3) in v)) { print "missing " k; exit 1 }
	  for (i = 3; i <= NF; i++) { d = $i - v[k, i]; d = d < 0 ? -d : d; if (s[i] > 0 && d / s[i] > w) w = d / s[i] } }
	END { if (n < 2000) exit 1; printf "%.3g\n", w }' "$1" "$2"
}
cut -d, -f1-15,23- "$tmp/poly.csv" > "$tmp/polyqd.csv"
cut -d, -f1-8,23- "$tmp/poly.csv" > "$tmp/polyq.csv"
# (torques that are no robot's: --no-fit-check writes their rows)
$R --no-fit-check "$tmp/poly.csv" > "$tmp/poly.reg" 2>/dev/null
w1=$($R --no-fit-check "$tmp/polyqd.csv" 2>/dev/null | same_t_rows "$tmp/poly.reg" -)
w2=$($R --no-fit-check "$tmp/polyq.csv" 2>/dev/null | same_t_rows "$tmp/poly.reg" -)
check "cubic joint motion, uneven times: qdd derived from qd gives the exact rows (worst relative difference $w1)" \
	awk -v w="$w1" 'BEGIN { exit !(w != "" && w < 1e-8) }'
check "... qd and qdd derived from q too ($w2)" awk -v w="$w2" 'BEGIN { exit !(w != "" && w < 1e-8) }'

# foreign names: the same rows through --map
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) {
	if ($i == "t") $i = "time"
	else if ($i ~ /^qd[0-9]/) $i = "joint" substr($i, 3) "_vel"
	else if ($i ~ /^q[0-9]/) $i = "joint" substr($i, 2) "_pos"
	else if ($i ~ /^tau[0-9]/) $i = "joint" substr($i, 4) "_effort" } } { print }' "$tmp/noqdd.csv" > "$tmp/foreign.csv"
M="--map t=time --map q=joint{1..7}_pos --map qd=joint*_vel --map tau=joint1_effort,joint2_effort,joint{3..7}_effort"
check "--map with a range, a glob and a list: the rows of the canonical names, byte for byte" \
	sh -c "$R $M '$tmp/foreign.csv' 2>/dev/null | cmp -s - '$tmp/d.reg'"
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { for (i = 2; i <= 15; i++) $i = $i * 57.29577951308232 } { print }' "$tmp/foreign.csv" > "$tmp/deg.csv"
d=$($R $M --angle-unit deg "$tmp/deg.csv" 2>/dev/null | $E -a ols --batch 2>/dev/null | $P --format csv | awk -F, '$2 == "m" { print $8 }')
r=$(mass_err "$tmp/d.reg")
check "--angle-unit deg: the mass of the radian log ($d and $r %)" \
	awk -v a="$d" -v b="$r" 'BEGIN { exit !(a != "" && (a - b) < 1e-6 && (b - a) < 1e-6) }'
expect "the log in degrees without --angle-unit: refused, --angle-unit deg named" 1 "" \
	"deg.csv: joint angle 'joint[1-7]_pos' reads .* rad at t = .*past a full turn from zero.*Say --angle-unit deg" -- \
	$R $M "$tmp/deg.csv"
check "... --angle-unit rad reads it as it is (a joint that turns freely)" sh -c "$R $M --angle-unit rad --no-fit-check '$tmp/deg.csv' > /dev/null 2>&1"
expect "... where the torques then do not fit the model: refused by the model-fit check" 1 "" \
	"model fit: [1-7] of 7 rows [a-z]* not explained by a load held by link7" -- $R $M --angle-unit rad "$tmp/deg.csv"
# velocities against angles (consistency_guard.h's derivguard)
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /_vel$/) v[i] = 1; print; next }
	{ for (i in v) $i *= 57.29577951308232; print }' "$tmp/foreign.csv" > "$tmp/veldeg.csv"
expect "velocities in deg/s beside angles in rad: refused, the columns named" 1 "" \
	"veldeg.csv: 'joint1_pos' does not change as the integral of 'joint1_vel': .* its change is 0\.017" -- $R $M "$tmp/veldeg.csv"
M2="--map t=time --map q=joint{1..7}_pos --map qd=joint2_vel,joint1_vel,joint{3..7}_vel --map tau=joint1_effort,joint2_effort,joint{3..7}_effort"
expect "two velocity columns mapped in each other's place: refused" 1 "" \
	"foreign.csv: 'joint[12]_pos' does not change as the integral of 'joint[12]_vel'" -- $R $M2 "$tmp/foreign.csv"
expect "... --no-consistency-check reads them as they are" 0 "" "" -- sh -c "$R $M2 --no-consistency-check --no-fit-check '$tmp/foreign.csv' > /dev/null 2>&1"
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { $1 = $1 * 1e6 } { print }' "$tmp/foreign.csv" > "$tmp/us.csv"
expect "a joint log stamped in us, read as seconds: refused, the units named" 1 "" \
	"us.csv: its samples are 1e\+04 s apart \(the median of its first 8 time steps\).*is its time column 'time' in ms, us or ns\?" -- \
	$R $M "$tmp/us.csv"
$R $M --time-unit us "$tmp/us.csv" > "$tmp/us.reg" 2>/dev/null
u=$(mass_err "$tmp/us.reg")
check "... and with --time-unit us, the mass of the log in seconds ($u and $r %)" \
	awk -v a="$u" -v b="$r" 'BEGIN { exit !(a != "" && (a - b) < 1e-6 && (b - a) < 1e-6) }'

# the model and the log must be the same robot
expect "--map naming fewer joints than the model has" 1 "" \
	"^tagk-regress: --map q=joint\{1..6\}_pos names 6 columns but datasets/panda.model has 7 joints" -- \
	$R --map t=time --map 'q=joint{1..6}_pos' "$tmp/foreign.csv"
cut -d, -f1-7,9-14,16- "$tmp/noqdd.csv" > "$tmp/six.csv"
expect "a log with fewer joints than the model" 1 "" "six.csv has q1 .. q6 but datasets/panda.model has 7 joints" -- \
	$R "$tmp/six.csv"
awk -F, -v OFS=, '{ print $0, (NR == 1 ? "q8" : 0) }' "$tmp/g.plain" > "$tmp/eight.csv"
expect "a log with more joints than the model" 1 "" "eight.csv has column q8 but datasets/panda.model has 7 joints" -- \
	$R "$tmp/eight.csv"
expect "a glob that matches nothing" 1 "" "^tagk-regress: --map q: the pattern 'arm_\*' matches no column of" -- \
	$R --map t=time --map 'q=arm_*' "$tmp/foreign.csv"
expect "one column for two joints" 2 "" "^tagk-regress: --map q: column 'joint1_pos' is named for joints 1 and 2$" -- \
	$R --map t=time --map 'q=joint1_pos,joint1_pos,joint{3..7}_pos' "$tmp/foreign.csv"
expect "one column for two signals" 2 "" "^tagk-regress: column 'joint1_vel' is read as both q1 and qd1$" -- \
	$R --map t=time --map 'q=joint*_vel' --map 'qd=joint*_vel' --map 'tau=joint{1..7}_effort' "$tmp/foreign.csv"
expect "a malformed range" 2 "" "'j\{1..x\}' is not PREFIX\{A..B\}SUFFIX" -- $R --map t=time --map 'q=j{1..x}' "$tmp/foreign.csv"
expect "a signal -m multibody does not read" 2 "" "SIGNAL one of t, q, qd, qdd, tau for -m multibody" -- \
	$R --map acc=ax,ay,az "$tmp/foreign.csv"
expect "the filter's options without -m multibody" 2 "" "apply to -m multibody" -- $BIN/tagk-regress --sg-smooth "$tmp/g.csv"

# the robot as URDF and MJCF (formats/robotxml.c): the three descriptions
# of the Panda give the same rows on the same log
maxrel() { # two row streams: the largest difference relative to each column's largest value
	paste -d, "$1" "$2" | grep -v '^#' | awk -F, 'NR > 1 { h = NF / 2
		for (i = 1; i <= h; i++) { d = $i - $(i + h); if (d < 0) d = -d; a = $i < 0 ? -$i : $i
			if (d > D[i]) D[i] = d; if (a > A[i]) A[i] = a } }
		END { m = 0; for (i in D) if (A[i] > 0 && D[i] / A[i] > m) m = D[i] / A[i]; printf "%.3g\n", m }'
}
$R "$tmp/g.csv" --stream csv > "$tmp/model.reg" 2>/dev/null
for d in panda_nohand.xml panda.urdf; do
	$BIN/tagk-regress -m multibody --robot datasets/$d --held link7 --stream csv "$tmp/g.csv" > "$tmp/$d.reg" 2>/dev/null
	m=$(maxrel "$tmp/model.reg" "$tmp/$d.reg")
	check "datasets/$d: the rows of datasets/panda.model to 1e-12 (largest relative difference $m)" \
		awk -v m="$m" 'BEGIN { exit !(m != "" && m < 1e-12) }'
done
check "... and as many" test "$(wc -l < "$tmp/panda.urdf.reg")" -eq "$(wc -l < "$tmp/model.reg")"
bad() { # NAME PATTERN XML: the description refused with PATTERN
	printf '%s' "$3" > "$tmp/bad.xml"
	expect "$1" 1 "" "$2" -- $BIN/tagk-regress -m multibody --robot "$tmp/bad.xml" --held a "$tmp/g.csv"
}
bad "a xacro file" "bad.xml:1: a xacro file: expand it first" \
	'<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="a"/></robot>'
bad "an MJCF include" "<include> is not read" '<mujoco><include file="a.xml"/></mujoco>'
bad "a ball joint" "joint type 'ball' is not read \(hinge, slide or free\)" \
	'<mujoco><worldbody><body name="a"><joint type="ball"/></body></worldbody></mujoco>'
bad "two joints in one body" "body 'a' has two joints" '<mujoco><worldbody><body name="a"><joint/><joint/></body></worldbody></mujoco>'
bad "geometry but no inertial" "body 'a' has geoms but no <inertial>: tagk does not infer inertia from geometry" \
	'<mujoco><worldbody><body name="a"><joint/><geom size="1"/></body></worldbody></mujoco>'
bad "a URDF with two roots" "links 'a' and 'b' both have no parent joint" '<robot><link name="a"/><link name="b"/></robot>'
bad "a URDF naming a link twice" "bad.xml:1: link 'a' is defined twice \(first on line 1\)" \
	'<robot><link name="a"/><link name="b"/><link name="a"/><joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>'
bad "a URDF naming a joint twice" "joint 'j' is defined twice" \
	'<robot><link name="a"/><link name="b"/><link name="c"/><joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint><joint name="j" type="fixed"><parent link="b"/><child link="c"/></joint></robot>'
bad "an MJCF naming a joint twice (MuJoCo refuses it too)" "bad.xml:1: joint 'j' is defined twice \(first on line 1\)" \
	'<mujoco><worldbody><body name="a"><joint name="j"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><body name="b"><joint name="j"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></body></worldbody></mujoco>'
bad "an XML file that is neither" "whose root is <foo>, not <robot> \(URDF\) or <mujoco> \(MJCF\)" '<foo/>'
bad "XML that is not well-formed" "bad.xml:1: not well-formed XML" '<robot><link></robot>'
bad "a loosely written number" "<joint axis>: '1x' is not a finite number" \
	'<mujoco><worldbody><body name="a"><joint axis="0 0 1x"/></body></worldbody></mujoco>'
bad "an unphysical inertia" "the inertia is not physical" \
	'<mujoco><worldbody><body name="a"><joint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 3"/></body></worldbody></mujoco>'
sed 's/<joint name="joint7"\/>//' datasets/panda_nohand.xml > "$tmp/six.xml"
expect "an MJCF with 6 joints (link7 fixed, merged into link6) against a 7-joint log" 1 "" "has column q7 but .*six.xml has 6 joints" -- \
	$BIN/tagk-regress -m multibody --robot "$tmp/six.xml" --held link6 "$tmp/g.csv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
