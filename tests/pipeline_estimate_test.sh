#!/bin/sh
# pipeline_estimate_test.sh: tagk-estimate's methods through the pipeline: rls-ld and paper
# 003's multibody rows, batch least squares against NumPy, segments, the
# notes on b = 0 rows and ill-conditioned windows, tagk-robust's scaling.
# One theme of the pipeline battery (tests/pipeline_*_test.sh): the real
# binaries composed as a user would, over tests/lib.sh's pipeline_setup.
set -u
BIN=${BIN:-bin}
MKFIX=${MKFIX:-build/mkfixtures}
. "$(dirname "$0")/lib.sh"
pipeline_setup

$R "$tmp/small.csv" > "$tmp/small.reg"
expect "unknown method" 2 "" "^tagk-estimate: -a: unknown method 'nope' \(tagk-estimate --list names them\)$" -- \
	$E -a nope "$tmp/small.reg"
expect "a window larger than the data" 1 "" "30 samples, fewer than the window of 40: no estimate" -- \
	$E --window 40 "$tmp/small.reg"
expect "not a regressor stream" 1 "" "not a regressor stream" -- $E "$tmp/small.csv"
expect "not an estimate stream" 1 "" "not an estimate stream" -- $P "$tmp/small.csv"
# rls-ld (paper 003): a physical start is required, and every estimate is physical
T0=0.03,0,0,0,2e-5,0,2e-5,0,0,3e-5
$R datasets/sim-figure8-noisy.csv > "$tmp/fig8.reg"
expect "rls-ld without --theta0 says what it needs" 2 "" \
	"^tagk-estimate: rls-ld needs a physically consistent starting estimate .* --theta0 m,mcx" -- $E -a rls-ld "$tmp/fig8.reg"
expect "rls-ld with a non-physical --theta0" 2 "" "rls-ld needs a physically consistent starting estimate" -- \
	$E -a rls-ld --theta0 0.03,0,0,0,-2e-5,0,2e-5,0,0,3e-5 "$tmp/fig8.reg"
expect "--theta0 of the wrong length" 2 "" "^tagk-estimate: --theta0: 3 values given; .* has 10 parameters$" -- \
	$E -a rls-ld --theta0 1,2,3 "$tmp/fig8.reg"
expect "--theta0 on a batch method" 2 "" "--theta0 applies to the regressor-window methods, wls-pullback, wls-bregman, dm and dm-pc, not ols" -- \
	$E --batch --theta0 $T0 "$tmp/fig8.reg"
expect "--alpha on tagk" 2 "" "^tagk-estimate: --alpha applies to rls-ld and rls-l2, not tagk$" -- \
	$E -a tagk --alpha 1 "$tmp/fig8.reg"
expect "rls-ld through the pipeline: every estimate physical" 0 "0 of 200 estimates not physical" "" -- \
	sh -c "$E -a rls-ld --theta0 $T0 '$tmp/fig8.reg' | $P"
expect "... where rls is not (--raw), and the report says so" 0 "130 of 200 estimates not physical" \
	"only 70 of 200 estimates \(35 %\) are physical bodies" -- sh -c "$E -a rls --raw '$tmp/fig8.reg' | $P"
expect "... projected by default: the report counts the method's estimates, and those projected" 0 \
	"physical bodies: 70 of 200 estimates \(35 %\) as the method gave them; 130 more written as the nearest physical body" \
	"130 of 200 estimates were not physical bodies and are written as the nearest physical body" -- \
	sh -c "$E -a rls '$tmp/fig8.reg' | $P"
check "... and the projected estimates are physical: the log-det divergence has none that is not" \
	grep -q "; 0 of 200 estimates not physical" "$tmp/out"
$E -a rls-ld --theta0 $T0 --alpha 1e-9 "$tmp/fig8.reg" > "$tmp/ld0.csv"
check "--alpha changes rls-ld's estimates" sh -c "! $E -a rls-ld --theta0 $T0 '$tmp/fig8.reg' | cmp -s - '$tmp/ld0.csv'"
# paper 003 through the pipeline: tagk-bench grasp's joint log, tagk-regress
# -m multibody, rls-ld; the final divergence equals grasp-table's, which
# computes the same in one process (with the simulator's exact signals, one
# estimation sample per simulated one)
CUBE0=1,0,0,0.107,0.021449,0,0.021449,0,0,0.01
$S grasp-table --duration 3 --signals exact --dt 0.01 --est-dt 0.01 > "$tmp/gt.txt"
$S grasp --target 10 --duration 3 --dt 0.01 -o "$tmp/g.csv" 2>/dev/null
$R -m multibody --robot datasets/panda.model --held link7 "$tmp/g.csv" > "$tmp/g.reg"
check "multibody force rows: 7 per sample, 301 samples" test "$(plain "$tmp/g.reg" | sed 1d | wc -l)" -eq 2107
want=$(awk '/^10 kg +0 %/ { print $6 }' "$tmp/gt.txt")
got=$($E -a rls-ld --theta0 $CUBE0 --window 1 --every 1 --alpha 50 "$tmp/g.reg" | $P \
	| sed -n 's/.*D(J^ || J): mean [^,]*, final \([^;]*\);.*/\1/p')
check "ground, force rows: the pipeline's final D ($got) is grasp-table's ($want)" \
	sh -c "awk -v a='$got' -v b='$want' 'BEGIN { exit !(a > 0 && (a - b) / b < 1e-3 && (b - a) / b < 1e-3) }'"
$E -a rls-ld --theta0 $CUBE0 --window 1 --every 1 --alpha 50 "$tmp/g.reg" > "$tmp/gld.csv"
check "--logdet: one divergence per estimate, the last one the summary's final D" sh -c \
	"test \"\$($P --logdet --format csv '$tmp/gld.csv' | sed 1d | wc -l)\" -eq 301 &&
	 awk -v a=\"\$($P --logdet --format csv '$tmp/gld.csv' | tail -1 | cut -d, -f2)\" -v b='$got' 'BEGIN { exit !((a - b) / b < 1e-3 && (b - a) / b < 1e-3) }'"
expect "--logdet marks the estimates that are not physical, and stderr says so" 0 "estimate not physical" "are physical bodies" -- sh -c \
	"$E -a rls --raw --window 1 --every 1 '$tmp/g.reg' | $P --logdet"
expect "--logdet on the mass model" 2 "" "--logdet: .* holds the mass only" -- sh -c \
	"$R -m mass datasets/synth-payload.csv | $E -a rls | $P --logdet"
expect "--logdet without the truth" 1 "" "--logdet: .* has no true_\* columns" -- sh -c \
	"$E -a rls-ld --theta0 $CUBE0 --window 1 --every 1 '$tmp/g.reg' | $F -o '$tmp/gld-plain.csv' && grep -v '^#tagk-' '$tmp/gld-plain.csv' | cut -d, -f1-11 | $P --logdet"
$S grasp --base floating --target 50 --robot-error 0.025 --duration 3 --dt 0.01 --model-out "$tmp/k.model" \
	-o "$tmp/o.csv" 2>/dev/null
$R -m multibody --robot "$tmp/k.model" --held link7 --rows momentum "$tmp/o.csv" > "$tmp/o.reg"
check "momentum rows: 6 per sample from the second" test "$(plain "$tmp/o.reg" | sed 1d | wc -l)" -eq 1800
want=$(awk '/^Table III/ { on = 1 } on && /^50 kg +2.5 %/ { print $8 }' "$tmp/gt.txt")
got=$($E -a rls-ld --theta0 $CUBE0 --window 1 --every 1 --alpha 0.1 "$tmp/o.reg" | $P \
	| sed -n 's/.*D(J^ || J): mean [^,]*, final \([^;]*\);.*/\1/p')
check "orbit, momentum rows: the pipeline's final D ($got) is grasp-table's ($want)" \
	sh -c "awk -v a='$got' -v b='$want' 'BEGIN { exit !(a > 0 && (a - b) / b < 1e-3 && (b - a) / b < 1e-3) }'"
$R -m multibody --robot datasets/panda.model --held link7 --rows energy "$tmp/g.csv" > "$tmp/ge.reg"
if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
	check "energy rows are the force rows weighted by the joint velocities (NumPy)" /usr/bin/python3 -c "
import numpy as np, sys
g = np.genfromtxt('$tmp/g.csv', delimiter=',', names=True, skip_header=1)
f = np.genfromtxt('$tmp/g.reg', delimiter=',', skip_header=2)
e = np.genfromtxt('$tmp/ge.reg', delimiter=',', skip_header=2)
qd = np.column_stack([g['qd%d' % j] for j in range(1, 8)])
F = f[:, 2:13].reshape(len(g), 7, 11)
want = np.einsum('ka,kac->kc', qd, F)
sys.exit(not (e.shape == (len(g), 23) and np.abs(e[:, 2:13] - want).max() <= 1e-9 * np.abs(want).max()))"
fi
expect "a binary file as a model" 1 "" "binary.model:1: not a model file \(a key with bytes that are not printable" -- \
	$R -m multibody --robot tests/fuzz/corpus/model/binary.model --held link7 "$tmp/g.csv"
expect "the fixed base as the unknown" 2 "" "the fixed base's parameters never enter the joint forces" -- \
	$R -m multibody --robot datasets/panda.model --unknown link0 "$tmp/g.csv"
expect "momentum rows of a fixed base" 2 "" "--rows momentum: .* has gravity" -- \
	$R -m multibody --robot datasets/panda.model --held link7 --rows momentum "$tmp/g.csv"
expect "a body not in the model" 2 "" "^tagk-regress: --unknown: no body 'link9' in datasets/panda.model$" -- \
	$R -m multibody --robot datasets/panda.model --unknown link9 "$tmp/g.csv"
expect "multibody without --robot" 2 "" "-m multibody needs --robot FILE" -- $R -m multibody --held link7 "$tmp/g.csv"
expect "a log option with multibody" 2 "" "^tagk-regress: --acc-unit does not apply to -m multibody$" -- \
	$R -m multibody --robot datasets/panda.model --held link7 --acc-unit g "$tmp/g.csv"
expect "--robot without multibody" 2 "" "apply to -m multibody" -- $R --robot datasets/panda.model "$tmp/g.csv"
cut -d, -f1-22 "$tmp/g.csv" > "$tmp/notau.csv"
expect "a joint log without torques" 1 "" "notau.csv: missing column 'tau1' \(joint torques" -- \
	$R -m multibody --robot datasets/panda.model --held link7 "$tmp/notau.csv"
plain "$tmp/o.csv" | cut -d, -f1-15,30-42,49-58 > "$tmp/o_noacc.csv"
check "momentum rows need no accelerations and no torques: the same rows without those columns" sh -c \
	"$R -m multibody --robot '$tmp/k.model' --held link7 --rows momentum '$tmp/o_noacc.csv' | cmp -s - '$tmp/o.reg'"
# batch least squares over the whole stream, against NumPy
$R datasets/synth-payload-noisy.csv | grep -v '^#tagk-' > "$tmp/noisy.reg"
for a in ols wls ols-pc wls-pc; do
	$E --batch -a $a --segment truth "$tmp/noisy.reg" > "$tmp/b_$a.csv" 2> "$tmp/b_$a.err"
done
check "--batch: one estimate per truth segment (3)" test "$(plain "$tmp/b_ols.csv" | wc -l)" -eq 4
# a user's weight column: rows 0-2 (forces) weight 1, 3-5 (torques) by a
# per-row value that varies, so that a wrong pairing of weights and rows shows
awk -F, -v OFS=, 'NR == 1 { print $0, "w"; next } { print $0, ($2 < 3 ? 1 : 0.5 + ((NR * 7) % 13) / 13) }' \
	"$tmp/noisy.reg" > "$tmp/noisy_w.reg"
$E --batch -a wls --weight w --segment truth "$tmp/noisy_w.reg" > "$tmp/b_wcol.csv"
expect "--weight on ols" 2 "" "--weight applies to wls, wls-pc, wls-bregman and wls-pullback, not ols" -- $E --batch -a ols --weight w "$tmp/noisy_w.reg"
awk -F, -v OFS=, 'NR == 50 { $NF = -1 } { print }' "$tmp/noisy_w.reg" > "$tmp/neg_w.reg"
expect "a negative weight" 1 "" "neg_w.reg:50: --weight w: -1 is not a weight" -- $E --batch -a wls --weight w "$tmp/neg_w.reg"
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	check "--batch ols, wls and wls --weight equal NumPy's least squares per segment (1e-9)" /usr/bin/python3 - "$tmp" <<'PYEOF'
import sys, numpy as np
d = sys.argv[1]
R = np.genfromtxt(d + "/noisy.reg", delimiter=",", names=True)
ycols = [c for c in R.dtype.names if c.startswith("Y_")]
tcols = ["true_" + c[2:] for c in ycols]
Y, b, row = np.column_stack([R[c] for c in ycols]), R["b"], R["row"].astype(int)
T = np.column_stack([R[c] for c in tcols])
# segments: a new one where the truth changes between samples
seg = np.concatenate(([0], np.cumsum(np.any(T[1:] != T[:-1], axis=1))))
def load(name):
    rows = [l for l in open(d + "/" + name) if not l.startswith("#")]
    return np.array([[float(x) for x in l.split(",")] for l in rows[1:]])
ols, wls, wcol = load("b_ols.csv"), load("b_wls.csv"), load("b_wcol.csv")
W = np.genfromtxt(d + "/noisy_w.reg", delimiter=",", names=True)["w"]
worst = 0
for s in range(seg.max() + 1):
    k = seg == s
    th = np.linalg.lstsq(Y[k], b[k], rcond=None)[0]
    # paper 002's recipe: weights from each row index's residual variance
    r = b[k] - Y[k] @ th
    var = np.array([np.mean(r[row[k] == i] ** 2) for i in range(row.max() + 1)])
    w = 1 / np.maximum(var, 1e-12 * var.max())[row[k]]
    thw = np.linalg.lstsq(Y[k] * np.sqrt(w)[:, None], b[k] * np.sqrt(w), rcond=None)[0]
    sw = np.sqrt(W[k])
    thc = np.linalg.lstsq(Y[k] * sw[:, None], b[k] * sw, rcond=None)[0]
    for mine, ref in ((ols[s, 1:1 + len(ycols)], th), (wls[s, 1:1 + len(ycols)], thw),
                      (wcol[s, 1:1 + len(ycols)], thc)):
        worst = max(worst, np.max(np.abs(mine - ref) / (np.abs(ref) + 1e-12 * np.abs(ref).max())))
print("batch against NumPy: worst relative difference %.2g" % worst, file=sys.stderr)
sys.exit(1 if worst > 1e-9 else 0)
PYEOF
fi
check "--batch wls beats ols on the noisy log (RMSPE of Ixy, the worst-determined parameter)" sh -c "
	o=\$($P --format csv '$tmp/b_ols.csv' | awk -F, '\$2 == \"Ixy\" { print \$8 }')
	w=\$($P --format csv '$tmp/b_wls.csv' | awk -F, '\$2 == \"Ixy\" { print \$8 }')
	awk -v o=\"\$o\" -v w=\"\$w\" 'BEGIN { exit !(w < o) }'"
$E --batch --segment 5.06,13.5 "$tmp/noisy.reg" > "$tmp/b_times.csv"
check "--segment by times equals --segment truth where they coincide" cmp -s "$tmp/b_times.csv" "$tmp/b_ols.csv"
# a short noisy log whose least-squares body is not physical: -pc makes it so
# (ten whole samples of six rows: a log that starts inside a sample is refused)
awk -F, 'NR == 1 || (NR > 601 && NR <= 661)' "$tmp/noisy.reg" | awk -F, -v OFS=, 'NR == 1 { print; next } { srand(NR); $13 = $13 + 0.05 * (rand() - 0.5); print }' > "$tmp/short.reg"
$E --batch -a ols --raw "$tmp/short.reg" > "$tmp/short_ols.csv"
$E --batch -a ols-pc "$tmp/short.reg" > "$tmp/short_pc.csv"
expect "the short log's ols estimate is not physical" 1 "" "rejected all 1 estimates" -- $F --physical --l-arm 1e6 --alpha 1e12 "$tmp/short_ols.csv"
expect "... its ols-pc estimate is" 0 "*" "rejected 0 of 1" -- $F --physical --l-arm 1e6 --alpha 1e12 "$tmp/short_pc.csv"
expect "--batch with --window" 2 "" "--window does not apply to the batch method ols" -- $E --batch --window 5 "$tmp/noisy.reg"
expect "--segment on a window method" 2 "" "--segment applies to the batch methods" -- $E -a tagk --segment 1 "$tmp/noisy.reg"
expect "--segment times that go back" 2 "" "--segment: the times must increase" -- $E --batch --segment 5,3 "$tmp/noisy.reg"

# greedy selection on rows with b = 0 (the lateral rows of a force along z,
# which tagk-regress leaves out of a thrust's mass rows but a user's force
# columns bring back): a note
$F --eval fx=0 --eval fy=0 --eval fz=thrust datasets/uav-square-drop.csv | $R -m mass --wrench force > "$tmp/thrust.reg"
expect "tagk on b = 0 rows says so once" 0 "*" "^tagk-estimate: 4002 of 6003 rows \(67 %\) have b = 0 .* biases tagk; try -a tagk-robust, kf-low or rls-low" -- \
	$E -a tagk "$tmp/thrust.reg"
check "... once only" test "$(grep -c 'have b = 0' "$tmp/err")" -eq 1
expect "rls-low on the same rows: no note" 0 "*" "" -- $E -a rls-low "$tmp/thrust.reg"
expect "-q silences it" 0 "*" "" -- $E -q -a grk "$tmp/thrust.reg"
expect "tagk-robust screens those rows: no note" 0 "*" "" -- $E -a tagk-robust "$tmp/thrust.reg"
expect "tagk on rows with the whole force: no b = 0 note" 0 "*" "*" -- $E -a tagk "$tmp/noisy.reg"
check "... none" sh -c "! grep -q 'have b = 0' '$tmp/err'"
# windows too ill-conditioned for T iterations (excitation.h): said once, with
# the median ratio; not at 300 iterations, not for kf-low, nor for scaled
# tagk-robust, which keeps such directions near its prior by design
expect "tagk's windows, ill-conditioned for 30 iterations: a note" 0 "*" \
	"^tagk-estimate: tagk: its windows are ill-conditioned for its iterations: in the median of 50 windows checked, \|\|A\|\|_F\^2 / sigma_min\^2 is [0-9]+ times" -- \
	$E -a tagk --every 20 --raw "$tmp/noisy.reg"
check "... once" test "$(grep -c 'ill-conditioned' "$tmp/err")" -eq 1
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	$E -q -a tagk --every 20 "$tmp/noisy.reg" > "$tmp/pace-est.csv"
	printed=$(sed -n 's/.* sigma_min^2 is \([0-9]*\) times.*/\1/p' "$tmp/err")
	check "... its ratio, $printed, is NumPy's (SVD of each window, the 5 samples up to each estimate)" \
		/usr/bin/python3 -c "
import numpy as np
reg = [l.split(',') for l in open('$tmp/noisy.reg') if not l.startswith('#')]
h, reg = reg[0], reg[1:]
y = [h.index(c) for c in h if c.startswith('Y_')]
ts = sorted({float(r[0]) for r in reg})
rows = {}
for r in reg:
    rows.setdefault(float(r[0]), []).append([float(r[j]) for j in y])
est = [l.split(',') for l in open('$tmp/pace-est.csv') if not l.startswith('#')][1:]
k = []
for e in est:
    i = ts.index(float(e[0]))
    A = np.array([row for t in ts[i - 4:i + 1] for row in rows[t]])
    s = np.linalg.svd(A, compute_uv=False)
    k.append((s ** 2).sum() / s[-1] ** 2 / A.shape[0])
k.sort()
med = k[len(k) // 2]
assert len(k) == 50 and abs(med - $printed) <= 0.5 + 1e-6 * med, (len(k), med)
"
fi
expect "... none at --iters 300" 0 "*" "*" -- $E -a tagk --every 20 --raw --iters 300 "$tmp/noisy.reg"
check "... none" sh -c "! grep -q ill-conditioned '$tmp/err'"
expect "... none for kf-low" 0 "*" "" -- $E -a kf-low --raw "$tmp/noisy.reg"
expect "... none for tagk-robust --length --theta0" 0 "*" "" -- \
	$E -a tagk-robust --length 0.03 --theta0 0.035,0,0,0,1.66e-5,0,1.66e-5,0,0,2.93e-5 "$tmp/noisy.reg"

# tagk-robust's scaling: --length on rigid bodies, by default from --theta0
expect "--length on the mass model is refused" 2 "" "--length scales rigid bodies \(10 parameters each\); .* has 1 parameter" -- \
	$E -a tagk-robust --length 0.03 "$tmp/thrust.reg"
expect "--length is tagk-robust's" 2 "" "--length applies to tagk-robust, not kf-low" -- $E -a kf-low --length 0.03 "$tmp/noisy.reg"
expect "--length -1 is refused" 2 "" "--length: -1 is outside" -- $E -a tagk-robust --length -1 "$tmp/noisy.reg"
expect "tagk-robust --length: scaled" 0 "*" "form greedy-screened-scaled," -- $E -v -a tagk-robust --length 0.03 "$tmp/noisy.reg"
check "... and, without --theta0, says its weak directions stay near 0" \
	grep -q "tagk-robust starts from 0 without --theta0, and in scaled parameters" "$tmp/err"
expect "tagk-robust from a physical --theta0: scaled" 0 "*" "form greedy-screened-scaled," -- \
	$E -v -a tagk-robust --theta0 0.035,0,0,0,1.66e-5,0,1.66e-5,0,0,2.93e-5 "$tmp/noisy.reg"
expect "tagk-robust without either: unscaled, and says so" 0 "*" "tagk-robust runs unscaled: give the body's size \(--length" -- \
	$E -a tagk-robust "$tmp/noisy.reg"
expect "... -q silences that" 0 "*" "" -- $E -q -a tagk-robust "$tmp/noisy.reg"
expect "... -v names the form" 0 "*" "form greedy-screened," -- $E -v -a tagk-robust "$tmp/noisy.reg"
expect "--length 0 turns it off" 0 "*" "form greedy-screened," -- \
	$E -v -a tagk-robust --length 0 --theta0 0.035,0,0,0,1.66e-5,0,1.66e-5,0,0,2.93e-5 "$tmp/noisy.reg"
# hold: every estimate is --theta0, every window still checked
$E -a hold --theta0 0.035,0,0,0,1.66e-5,0,1.66e-5,0,0,2.93e-5 "$tmp/noisy.reg" -o "$tmp/hold.csv"
check "hold keeps --theta0 in every estimate" awk -F, '/^#/ { next } !h { h = 1; next } { n++; if ($2 != 0.035 || $6 != 1.66e-5 || $11 != 2.93e-5) bad = 1 } END { exit bad || n < 10 }' "$tmp/hold.csv"

finish
