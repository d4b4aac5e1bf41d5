#!/bin/sh
# fitcheck_test.sh: tagk-estimate's model-fit check after estimation
# (cmd/estimate/rowfit.h). Wrong runs, made here from right ones as users
# misread logs (a torque axis negated, in mN m, two exchanged; an arm's
# efforts negated, two exchanged, a joint's zero off by pi/2), leave a row
# kind that no physical body explains: a caution naming the kind, which
# the stream carries, so that tagk-report --strict fails on it. The right
# runs (simulated flights and arms, the bundled Panda logs, the real
# Crazyflie logs in ../shared when present) say nothing, through the
# streaming methods (rls-low, kf-low) and --batch (ols, wls) alike.
. tests/lib.sh
BIN=${BIN:-bin}
R=$BIN/tagk-regress E=$BIN/tagk-estimate P=$BIN/tagk-report F=$BIN/tagk-filter
METHODS="-a:rls-low -a:kf-low --batch:-a:ols --batch:-a:wls"
# the figures themselves: each kind's rms left and noise, over 1 to 3
# blocks, against a NumPy rebuild of the blocks' fits
check "-v: each kind's rms left and noise equal NumPy's (tests/fitfig_oracle.py)" \
	/usr/bin/python3 tests/fitfig_oracle.py "$E" "$tmp"
# silent FILE: the estimate's stderr holds no word of the model fit, and
# its stream no such note, for every method
silent() {
	for m in $METHODS; do
		$E $(echo "$m" | tr : ' ') "$1" > "$tmp/s.est" 2> "$tmp/s.err" || return 1
		! grep -q 'model fit' "$tmp/s.err" "$tmp/s.est" || { echo "     $m: $(grep 'model fit' "$tmp/s.err" | cut -c1-300)"; return 1; }
	done
}
# warns FILE PATTERN: every method's stderr has the model fit's caution
# matching PATTERN, and its stream carries it as a warning note
warns() {
	for m in $METHODS; do
		$E $(echo "$m" | tr : ' ') "$1" > "$tmp/w.est" 2> "$tmp/w.err" || return 1
		grep -Eq "^tagk-estimate: model fit: .*$2" "$tmp/w.err" || { echo "     $m: $(tail -2 "$tmp/w.err" | cut -c1-300)"; return 1; }
		grep -Eq "^#tagk-note: warning tagk-estimate: model fit: .*$2" "$tmp/w.est" || return 1
	done
}

# --- a simulated Crazyflie flight (medium noise: the torque rows' noise a
# quarter of their size), and its torque axes misread ---
$BIN/tagk-bench simulate --noise medium --seed 1 -o "$tmp/sim.csv" 2>/dev/null
$F --eval 'ntx=-tx' --eval 'mty=1000*ty' "$tmp/sim.csv" -o "$tmp/simx.csv"
$R "$tmp/simx.csv" -o "$tmp/right.reg" 2>/dev/null
$R --map torque=ntx,ty,tz "$tmp/simx.csv" -o "$tmp/ntx.reg" 2>/dev/null
$R --map torque=tx,mty,tz "$tmp/simx.csv" -o "$tmp/mty.reg" 2>/dev/null
$R --map torque=ty,tx,tz "$tmp/simx.csv" -o "$tmp/swap.reg" 2>/dev/null
check "a right simulated flight: not a word of the model fit (rls-low, kf-low, --batch ols, wls)" silent "$tmp/right.reg"
$E "$tmp/right.reg" 2>/dev/null > "$tmp/right.est"
expect "... and tagk-report --strict passes" 0 "*" "" -- $P --strict "$tmp/right.est"
check "tx negated: the caution names tx, and tx as the cause (the others fit without it), for every method" \
	warns "$tmp/ntx.reg" "tx \(row 3\) [0-9]+ % left by a physical body.*likely cause: tx \(row 3\): without it the other kinds fit one physical body .*sign, unit or column"
$E "$tmp/ntx.reg" 2>/dev/null > "$tmp/ntx.est"
expect "... tagk-report repeats it and --strict fails" 1 "warnings of the commands upstream" \
	"upstream, tagk-estimate: model fit: .*tx \(row 3\)" -- $P --strict "$tmp/ntx.est"
# ty in mN m: its own inertia absorbs it, and the axis a physical body
# cannot then explain is tz (the three coupled by omega x I omega); fitted
# without ty, the others are one body again: ty is the cause named
check "ty in mN m: a caution naming ty as the cause, for every method" warns "$tmp/mty.reg" \
	"[0-9] of the 6 row kinds [a-z]* not explained.*likely cause: ty \(row 4\): without it"
check "tx and ty exchanged: a caution for every method" warns "$tmp/swap.reg" "[0-9] of the 6 row kinds [a-z]* not explained"
$E -a kf-low "$tmp/swap.reg" 2>/dev/null > "$tmp/swap.est"
expect "... and tagk-report --strict fails on it" 1 "*" "upstream, tagk-estimate: model fit" -- $P --strict "$tmp/swap.est"
expect "--no-fit-check: not a word of it, and no note in the stream" 0 "*" "" -- \
	sh -c "$E -q --no-fit-check '$tmp/ntx.reg' | grep -c 'model fit' | grep -qx 0"
expect "-q does not silence it (a verdict, not a note)" 0 "*" "model fit: .*tx \(row 3\)" -- $E -q "$tmp/ntx.reg" -o "$tmp/q.est"
expect "-v prints every axis's figures" 0 "*" "fit check: tz \(row 5\): rms left .* times its noise" -- $E -v "$tmp/right.reg" -o "$tmp/v.est"
expect "... and says the lateral forces (b = 0: --wrench thrust) are not judged" 0 "*" \
	"fit check: fx \(row 0\): .*b is 0 in every row: not judged" -- $E -v "$tmp/right.reg" -o "$tmp/v.est"

# --- time-varying mass: a block's own body follows the load, so a drop or
# a drain is no misfit, for the streaming methods that lag it too ---
for mass in drop swaps drain; do
	$BIN/tagk-bench massflight --mass $mass --traj zigzag --seed 4 -o "$tmp/m.csv" 2>/dev/null
	$R -m mass "$tmp/m.csv" -o "$tmp/m.reg" 2>/dev/null
	check "massflight --mass $mass (mass model): not a word of the model fit" silent "$tmp/m.reg"
done
$R datasets/synth-payload-noisy.csv -o "$tmp/sp.reg" 2>/dev/null
check "datasets/synth-payload-noisy.csv (a payload on and off): silent" silent "$tmp/sp.reg"
$R -m multibody --robot datasets/arm.model --held forearm datasets/shake-4500.csv -o "$tmp/sh.reg" 2>/dev/null
check "datasets/shake-4500.csv (0.5 s of a 4-DoF arm shaking an object): silent" silent "$tmp/sh.reg"

# --- the bundled Panda logs (0.05 N m of noise on every effort), with the
# friction fitted on the empty run; the faults as armfit_test.sh makes
# them, written with tagk-regress --no-fit-check ---
zcat datasets/panda-payload.csv.gz > "$tmp/pp.csv"
zcat datasets/panda-empty.csv.gz > "$tmp/pe.csv"
M="-m multibody --robot datasets/panda_nohand.xml --map t=time --map q=pos_{1..7} --map qd=vel_* --map tau=eff_{1..7}"
$R $M --fit-friction viscous,coulomb,offset "$tmp/pe.csv" -o "$tmp/fr.txt" 2>/dev/null
A="$R $M --held link7 --friction $tmp/fr.txt --no-fit-check"
awk -F, -v OFS=, 'NR > 1 { for (i = 16; i <= 22; i++) $i = -$i } { print }' "$tmp/pp.csv" > "$tmp/sign.csv"
awk -F, -v OFS=, 'NR > 1 { t = $17; $17 = $19; $19 = t } { print }' "$tmp/pp.csv" > "$tmp/swap.csv"
awk -F, -v OFS=, -v CONVFMT=%.9g 'NR > 1 { $5 = $5 + 1.5707963267948966 } { print }' "$tmp/pp.csv" > "$tmp/off.csv"
awk -F, -v OFS=, 'NR > 1 { $18 = -$18 } { print }' "$tmp/pp.csv" > "$tmp/sign3.csv"
for f in pp sign swap off sign3; do $A "$tmp/$f.csv" -o "$tmp/$f.reg" 2>/dev/null; done
check "the Panda's payload log with its friction: silent" silent "$tmp/pp.reg"
$E "$tmp/pp.reg" 2>/dev/null > "$tmp/pp.est"
expect "... and tagk-report --strict passes" 0 "*" "" -- $P --strict "$tmp/pp.est"
# the noise the check reads is the log's: joint 7's effort carries 0.05
# N m (its row is the wrist's, where the derived acceleration adds least)
check "... the noise -v reads on joint 7: 0.05 N m (the generator's) within 15 %" sh -c \
	"$E -v '$tmp/pp.reg' 2>&1 >/dev/null | grep -o 'joint 7 (row 6): rms left .* times its noise [0-9.e+-]*' |
	awk '{ n = \$NF + 0 } END { exit !(n > 0.0425 && n < 0.0575) }'"
check "efforts negated: every joint, and the sign, named" warns "$tmp/sign.reg" \
	"7 of the 7 row kinds are not explained by a physical load .*joint 1 \(row 0\) 1[0-9][0-9] % left by a physical body.*likely cause: efforts of the wrong sign"
check "joint 3's effort negated: joint 3 the cause (the other joints fit without it)" warns "$tmp/sign3.reg" \
	"likely cause: joint 3 \(row 2\): without it the other kinds fit one physical load .*sign, unit or column \(--map tau=\)"
check "joints 2 and 4's efforts exchanged: a caution naming joint 2, columns exchanged among the causes" warns "$tmp/swap.reg" \
	"joint 2 \(row 1\) .*effort columns exchanged"
check "joint 4's zero off by pi/2: a caution, the offset among the causes" warns "$tmp/off.reg" \
	"row kinds [a-z]* not explained .*a joint's zero offset or direction"
$E -a kf-low "$tmp/off.reg" 2>/dev/null > "$tmp/off.est"
expect "... and tagk-report --strict fails on it" 1 "*" "upstream, tagk-estimate: model fit" -- $P --strict "$tmp/off.est"

# a friction fitted beside the load that is not a friction (armfit.h) is
# carried by the stream too: --strict fails on it, naming it
$R $M --held link7 --no-fit-check --friction-terms viscous,coulomb "$tmp/sign.csv" 2>/dev/null | $E -a kf-low > "$tmp/fneg.est" 2>/dev/null
expect "--friction-terms on negated efforts: the negative viscous coefficient reaches tagk-report --strict" 1 "*" \
	"upstream, tagk-regress: model fit: joint 7 \(eff_7\): the friction fitted has a negative viscous coefficient" -- \
	$P --strict "$tmp/fneg.est"

# --- a second 7-joint arm in MuJoCo (armfit_test.sh's, iiwa-like, with
# friction, holding 1.3 kg): its own description with the friction
# concentrated out is silent; the Panda's description on its log (7 joints
# and a link7 too) is another robot ---
GEN=${ARM_MUJOCO:-build/arm_mujoco}
if [ -x "$GEN" ]; then
	sed -n '/^cat > "$tmp\/arm7.xml" <<.EOF.$/,/^EOF$/p' tests/armfit_test.sh | sed '1d;$d' > "$tmp/arm7.xml"
	grep -v 'name="payload"' "$tmp/arm7.xml" > "$tmp/arm7_empty.xml"
	$GEN "$tmp/arm7.xml" 10 500 2 1e-4 2e-3 0.05 payload > "$tmp/arm7.csv" 2>/dev/null
	MA="--map t=time --map q=pos_{1..7} --map qd=vel_* --map tau=eff_{1..7} --held link7"
	$R -m multibody --robot "$tmp/arm7_empty.xml" $MA --friction-terms viscous,coulomb "$tmp/arm7.csv" -o "$tmp/a7.reg" 2>/dev/null
	check "MuJoCo arm, its own description and friction: silent" silent "$tmp/a7.reg"
	$R -m multibody --robot datasets/panda_nohand.xml $MA --no-fit-check "$tmp/arm7.csv" -o "$tmp/a7p.reg" 2>/dev/null
	check "... with the Panda's description: a caution, another robot among the causes" warns "$tmp/a7p.reg" \
		"of the 7 row kinds [a-z]* not explained by a physical load .*a description of another robot"
else
	echo "skip the MuJoCo arm: libmujoco-dev is not installed ($GEN was not built)"
fi

# --- the real Crazyflie logs: right runs, which must not warn ---
D=${REALDATA:-../shared/realdata/crazyflie}
if [ -f "$D/log201" ] && [ -f "$D/log182" ]; then
	for log in 182 201; do for model in rigid-body mass; do
		$R --preset crazyflie -m $model "$D/log$log" -o "$tmp/real.reg" 2>/dev/null
		check "real log$log, $model: not a word of the model fit" silent "$tmp/real.reg"
	done; done
else
	echo "skip the real logs: no Crazyflie logs in $D (they live in ../shared, beside the repository)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
