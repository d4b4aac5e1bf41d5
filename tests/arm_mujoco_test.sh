#!/bin/sh
# arm_mujoco_test.sh: the whole arm path against MuJoCo (tests/arm_mujoco.c):
# joint logs MuJoCo makes for the Panda with viscous and dry joint friction,
# a payload, and noise, read with foreign column names and no
# accelerations; friction fitted on a run without payload, then the payload
# identified with it. Skips without libmujoco-dev.
. tests/lib.sh
BIN=${BIN:-bin}
GEN=${ARM_MUJOCO:-build/arm_mujoco}
if ! [ -x "$GEN" ]; then
	echo "skip the MuJoCo arm logs: libmujoco-dev is not installed ($GEN was not built)"
	echo "$pass passed, $fail failed"
	exit 0
fi
R="$BIN/tagk-regress -m multibody --robot datasets/panda_nohand.xml"
M="--map t=time --map q=pos_{1..7} --map qd=vel_* --map tau=eff_{1..7}"
E=$BIN/tagk-estimate P=$BIN/tagk-report
# the robot as tagk knows it, with damping 0.6 N m s/rad and frictionloss
# 0.4 N m on every joint; frictionloss as a nearly hard constraint (MuJoCo's
# default solref, 0.02 s, makes it a soft one that is not sign(qd): with it
# the fitted fc comes out 5-20 % low), hence the short time step it needs
sed 's/<joint armature="0.1" damping="1"/<joint armature="0" damping="0.6" frictionloss="0.4" solreffriction="0.0002 1"/
     s/<compiler angle="radian" autolimits="true"\/>/&<option timestep="0.0001"\/>/' datasets/panda_nohand.xml > "$tmp/arm.xml"
# the same holding a 1.5 kg payload in link7
sed 's/<body name="attachment"/<body name="payload" pos="0.01 -0.02 0.12" quat="0.9 0.1 0.2 0.3"><inertial pos="0.005 0.01 0.02" quat="0.8 0 0.3 0.1" mass="1.5" diaginertia="0.004 0.005 0.006"\/><\/body>&/' \
	"$tmp/arm.xml" > "$tmp/loaded.xml"
check "the loaded model has its payload" grep -q 'name="payload"' "$tmp/loaded.xml"
# 10 s at 500 Hz; noise 1e-4 rad, 2e-3 rad/s, 0.05 N m
$GEN "$tmp/arm.xml" 10 500 1 1e-4 2e-3 0.05 > "$tmp/empty.csv"
$GEN "$tmp/loaded.xml" 10 500 2 1e-4 2e-3 0.05 payload > "$tmp/loaded.csv"
expect "--fit-friction on the run without payload" 0 "" "^tagk-regress: --fit-friction: 7 joints, 4975 samples" -- \
	$R $M --fit-friction viscous,coulomb,offset "$tmp/empty.csv" -o "$tmp/fr.txt"
check "... fv within 1 % of MuJoCo's damping 0.6, fc within 3 % of its frictionloss 0.4, fo under 0.005 N m, every joint" \
	awk '/^joint/ { n++; if (!($3 > 0.594 && $3 < 0.606 && $4 > 0.388 && $4 < 0.412 && $5 > -0.005 && $5 < 0.005)) bad++ }
		END { exit !(n == 7 && !bad) }' "$tmp/fr.txt"
mass() { # the batch estimate's m and sd_m, and the truth
	$E -a ols --batch "$1" 2>/dev/null | grep -v '^#' | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR == 2 { print $c["m"], $c["sd_m"], $c["true_m"] }'
}
$R $M --held link7 --friction "$tmp/fr.txt" "$tmp/loaded.csv" > "$tmp/f.reg" 2>/dev/null
set -- $(mass "$tmp/f.reg")
check "with the fitted friction: the payload's mass $1 +- $2 kg, within 0.5 % of $3 and within 3 sd" \
	awk -v m="$1" -v s="$2" -v t="$3" 'BEGIN { d = m - t; if (d < 0) d = -d; exit !(t == 1.5 && d < 0.0075 && d < 3 * s) }'
check "... and the centre of mass within 2 % (the report's rmspe of mcx, mcy, mcz)" sh -c \
	"$E -a ols --batch '$tmp/f.reg' 2>/dev/null | $P --format csv | awk -F, '\$2 ~ /^mc/ && \$8 + 0 > 2 { bad++ } END { exit bad > 0 }'"
$R $M --held link7 "$tmp/loaded.csv" > "$tmp/nf.reg" 2>/dev/null
set -- $(mass "$tmp/nf.reg")
check "without friction terms: the mass still within 2 % ($1)" \
	awk -v m="$1" 'BEGIN { d = m - 1.5; if (d < 0) d = -d; exit !(d < 0.03) }'
check "... but the centre of mass is off by more than 5 %: friction belongs in the model" sh -c \
	"$E -a ols --batch '$tmp/nf.reg' 2>/dev/null | $P --format csv | awk -F, '\$2 == \"mcx\" && \$8 + 0 > 5 { ok = 1 } END { exit !ok }'"
$R $M --held link7 --friction "$tmp/fr.txt" "$tmp/empty.csv" > "$tmp/e.reg" 2>/dev/null
check "the run without payload, friction removed: a payload of 0 within 0.01 kg" sh -c \
	"$E -a ols --batch '$tmp/e.reg' 2>/dev/null | grep -v '^#' | awk -F, 'NR == 2 { exit !(\$2 < 0.01 && \$2 > -0.01) }'"
expect "--fit-friction with --held" 2 "" "--fit-friction fits the robot as its model describes it" -- \
	$R $M --held link7 --fit-friction viscous "$tmp/empty.csv"
expect "a friction file for another robot" 1 "" "has 2 joints but datasets/panda_nohand.xml has 7" -- sh -c \
	"printf 'joint 1 0 0 0\njoint 2 0 0 0\n' > '$tmp/two.txt' && $R $M --held link7 --friction '$tmp/two.txt' '$tmp/loaded.csv'"
expect "an unknown friction term" 2 "" "'stiction' is not viscous, coulomb or offset" -- \
	$R $M --fit-friction viscous,stiction "$tmp/empty.csv"
# one step: friction estimated with the payload (--friction-terms), its
# unknowns concentrated out of the rows; the joint least squares problem
# with the friction columns, solved by NumPy, is the oracle
expect "--friction-terms: the rows, and the friction at the least-squares estimate on stderr" 0 "*" \
	"friction concentrated out of the rows over the whole log .* joint 1 fv 0\.(59|60)[0-9]* [+]- 0\.00[0-9]+ fc 0\.(39|40)" -- \
	$R $M --held link7 --friction-terms viscous,coulomb,offset --stream csv "$tmp/loaded.csv"
cp "$tmp/out" "$tmp/fwl.reg"
cp "$tmp/err" "$tmp/fwl.err"
set -- $(mass "$tmp/fwl.reg")
check "... the payload's mass $1 kg within 0.5 % of 1.5" \
	awk -v m="$1" 'BEGIN { d = m - 1.5; if (d < 0) d = -d; exit !(m != "" && d < 0.0075) }'
check "... -a ols-pc reads the same rows (the constraint is the inertial block's alone)" sh -c \
	"$E -a ols-pc --batch '$tmp/fwl.reg' 2>/dev/null | grep -v '^#' | awk -F, 'NR == 2 { exit !(\$2 > 1.49 && \$2 < 1.51) }'"
if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
	$R $M --held link7 --stream csv "$tmp/loaded.csv" > "$tmp/raw.reg" 2>/dev/null
	$E -a ols --batch --raw "$tmp/fwl.reg" 2>/dev/null | grep -v '^#' > "$tmp/fwl.est"
	# the joint problem: the rows with 21 friction columns (qd, sign qd, 1
	# per joint), solved by NumPy; the argument picks the check
	cat > "$tmp/joint.py" <<EOF
import numpy as np, re, sys
rd = lambda f: np.genfromtxt(f, delimiter=',', skip_header=2, comments='#')
log = np.genfromtxt('$tmp/loaded.csv', delimiter=',', names=True)
reg = rd('$tmp/raw.reg'); fw = rd('$tmp/fwl.reg')
at = {round(t, 9): i for i, t in enumerate(log['time'])}
rows = reg[:, 1].astype(int)
qd = np.array([log['vel_%d' % (k + 1)][at[round(t, 9)]] for t, k in zip(reg[:, 0], rows)])
X = np.zeros((len(rows), 21))
for j in range(7):
    s = rows == j
    X[s, 3 * j], X[s, 3 * j + 1], X[s, 3 * j + 2] = qd[s], np.sign(qd[s]), 1
Z = np.hstack([reg[:, 2:12], X]); b = reg[:, 12]
sol = np.linalg.lstsq(Z, b, rcond=None)[0]
if sys.argv[1] == 'theta':
    e = np.genfromtxt('$tmp/fwl.est', delimiter=',', names=True)
    th = np.array([e[n] for n in ['m', 'mcx', 'mcy', 'mcz', 'Ixx', 'Ixy', 'Iyy', 'Ixz', 'Iyz', 'Izz']])
    sys.exit(not (fw.shape == reg.shape and np.abs(th - sol[:10]).max() <= 1e-10 * np.abs(sol[:10]).max()))
r = b - Z @ sol
sd = np.sqrt(np.diag(r @ r / (len(b) - 31) * np.linalg.inv(Z.T @ Z)))
got = [(float(v), float(e)) for v, e in re.findall(r'f[vco] ([-0-9.e+]+) [+]- ([0-9.e+-]+[0-9])', open('$tmp/fwl.err').read())]
ok = len(got) == 21
for i, (v, e) in enumerate(got):
    ok = ok and abs(v - sol[10 + i]) <= 5e-4 * max(abs(sol[10 + i]), 1e-3) + 1e-7 and abs(e - sd[10 + i]) <= 0.05 * sd[10 + i]
sys.exit(not ok)
EOF
	check "... exactly the joint problem's theta (NumPy lstsq with the 21 friction columns, to 1e-10)" \
		/usr/bin/python3 "$tmp/joint.py" theta
	check "... the friction and its sd on stderr: the joint problem's, with s^2 (Z^T Z)^-1 over N - 31 (NumPy, to the 4 and 2 digits printed)" \
		/usr/bin/python3 "$tmp/joint.py" friction
fi
expect "--friction-terms with --friction" 2 "" "one of the three" -- \
	$R $M --held link7 --friction-terms viscous --friction "$tmp/fr.txt" "$tmp/loaded.csv"
# a robot not seen elsewhere: the UR5e (joint axes from default classes,
# collision geoms, which the generator's disabled contacts leave out), its
# last link's own parameters (--unknown) from a noise-free MuJoCo log
sed 's/armature="0.1" damping="[0-9]*"/armature="0"/' tests/robots/ur5e.xml > "$tmp/ur5e.xml"
$GEN "$tmp/ur5e.xml" 5 200 2 0 0 0 > "$tmp/ur5e.csv"
m=$($BIN/tagk-regress -m multibody --robot tests/robots/ur5e.xml --unknown wrist_3_link --map t=time --map 'q=pos_*' \
	--map 'qd=vel_*' --map 'tau=eff_*' "$tmp/ur5e.csv" 2>/dev/null | $E -a ols --batch 2>/dev/null | grep -v '^#' | awk -F, 'NR == 2 { print $2 }')
check "UR5e: wrist_3_link's mass from its MuJoCo log, $m kg against the file's 0.1889, within 0.1 %" \
	awk -v m="$m" 'BEGIN { d = m - 0.1889; if (d < 0) d = -d; exit !(m != "" && d < 0.0002) }'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
