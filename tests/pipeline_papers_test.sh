#!/bin/sh
# pipeline_papers_test.sh: papers 004 and 002 through the pipeline: tagk-bench shake and the
# cnn, tagk-report --ncc, wls-pullback, the dual metric (dm, dm-pc) and
# wls-bregman against NumPy.
# One theme of the pipeline battery (tests/pipeline_*_test.sh): the real
# binaries composed as a user would, over tests/lib.sh's pipeline_setup.
set -u
BIN=${BIN:-bin}
MKFIX=${MKFIX:-build/mkfixtures}
. "$(dirname "$0")/lib.sh"
pipeline_setup

# paper 004 through the pipeline: tagk-bench shake's joint logs (objects one
# after another), tagk-regress -m multibody --held forearm, one batch
# estimate per object; noise-free signals, accelerations by central
# differences, so close to the truth but not exact
$S shake --first 4500 --objects 3 --long=3 --q-noise 0 --qd-noise 0 --tau-noise 0 --model-out "$tmp/arm.model" \
	-o "$tmp/sh.csv" 2>/dev/null
$R -m multibody --robot "$tmp/arm.model" --held forearm "$tmp/sh.csv" > "$tmp/sh.reg"
$E --batch -a ols --segment truth "$tmp/sh.reg" > "$tmp/sh.est"
check "shake: one estimate per object" test "$(plain "$tmp/sh.est" | sed 1d | wc -l)" -eq 3
check "shake: OLS on noise-free long runs within 1 % of the objects" sh -c \
	"$P '$tmp/sh.est' | awk '/relative parameter error/ { v = \$(NF - 2); sub(/,/, \"\", v); ok = v + 0 < 0.01 } END { exit !ok }'"
check "shake: the same seed gives the same bytes" sh -c \
	"$S shake --first 4500 --objects 2 2>/dev/null | cmp -s - '$tmp/sh2.csv' || { $S shake --first 4500 --objects 2 -o '$tmp/sh2.csv' 2>/dev/null; $S shake --first 4500 --objects 2 2>/dev/null | cmp -s - '$tmp/sh2.csv'; }"
check "shake: an object is the same whatever else is drawn (4501 alone, and after 4500)" sh -c \
	"grep -v '^#' '$tmp/sh2.csv' | awk -F, '\$1 == 4501' | cut -d, -f1,3- > '$tmp/a' &&
	 $S shake --first 4501 2>/dev/null | grep -v '^#' | sed 1d | cut -d, -f1,3- > '$tmp/b' && test -s '$tmp/a' && cmp -s '$tmp/a' '$tmp/b'"
expect "cnn: one estimate per object of a joint log" 0 "^#tagk-end: 2 rows" "" -- $E -a cnn "$tmp/sh2.csv"
if /usr/bin/python3 -c "import numpy, pandas" 2>/dev/null; then
	$E -a cnn "$tmp/sh2.csv" > "$tmp/cnn.est"
	$P --about-com --format csv "$tmp/cnn.est" > "$tmp/com.csv"
	check "--about-com: the centre of mass's and the central inertia's MAE as NumPy computes them" /usr/bin/python3 -c "
import numpy as np, pandas as pd
e = pd.read_csv('$tmp/cnn.est', comment='#'); r = pd.read_csv('$tmp/com.csv')
def centre(m, mc, I):
    c = mc / m[:, None]
    Ic = I - m[:, None, None] * (np.einsum('ni,ni->n', c, c)[:, None, None] * np.eye(3) - np.einsum('ni,nj->nij', c, c))
    return c, Ic
def get(p):
    m = e[p + 'm'].values
    mc = e[[p + 'mcx', p + 'mcy', p + 'mcz']].values
    I = np.stack([e[[p + 'Ixx', p + 'Ixy', p + 'Ixz']].values, e[[p + 'Ixy', p + 'Iyy', p + 'Iyz']].values,
                  e[[p + 'Ixz', p + 'Iyz', p + 'Izz']].values], 1)
    return centre(m, mc, I)
(c, Ic), (ct, Ict) = get(''), get('true_')
want = {'cx': abs(c[:, 0] - ct[:, 0]).mean(), 'cz': abs(c[:, 2] - ct[:, 2]).mean(),
        'Iyy_c': abs(Ic[:, 1, 1] - Ict[:, 1, 1]).mean(), 'Ixz_c': abs(Ic[:, 0, 2] - Ict[:, 0, 2]).mean()}
got = r[r.kind == 'parameter'].set_index('name').mae
assert all(abs(got[k] - v) <= 1e-9 * abs(v) + 1e-15 for k, v in want.items()), (got, want)
"
fi
expect "cnn: a window that is not 0.5 s at 400 Hz" 1 "" "has 200 samples; cnn takes exactly 201" -- sh -c \
	"grep -v '^#' '$tmp/sh2.csv' | sed 2d | $E -a cnn"
expect "cnn: samples that are not 400 Hz apart" 1 "" "the samples are .* apart; cnn was trained at 400 Hz" -- sh -c \
	"grep -v '^#' '$tmp/sh2.csv' | awk -F, -v OFS=, 'NR > 1 { \$2 = \$2 * 2 } 1' | $E -a cnn"
expect "cnn: a log without joint velocities" 1 "" "missing column 'qd1' \(cnn reads a joint log" -- sh -c \
	"grep -v '^#' '$tmp/sh2.csv' | cut -d, -f1-6 | $E -a cnn"
expect "cnn: a long run is not a shake" 1 "" "the window has more than 201 samples" -- sh -c \
	"$S shake --first 4500 --long 1 2>/dev/null | $E -a cnn"
expect "cnn: --window does not apply" 2 "" "--window does not apply to the learned method cnn" -- \
	$E -a cnn --window 5 "$tmp/sh2.csv"

# tagk-report --ncc against NumPy's correlation coefficient at each shift
if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
	/usr/bin/python3 -c "
import numpy as np
rng = np.random.default_rng(3)
t = np.arange(0, 30, 0.02); a = np.sin(1.3 * t) + 0.4 * np.sin(3.1 * t) + 0.1 * rng.standard_normal(len(t))
p = np.roll(a, 3) * 2.5 - 1 + 0.2 * rng.standard_normal(len(t)); q = rng.standard_normal(len(t))
print('t,x,pred_x,y,pred_y')
for i in range(len(t)): print('%r,%r,%r,%r,%r' % (t[i], a[i], p[i], a[i], q[i]))
" > "$tmp/ncc.csv"
	$P --ncc --max-shift 0.1 --format csv "$tmp/ncc.csv" > "$tmp/ncc.out"
	check "--ncc: the best correlation over shifts of up to 5 samples, as NumPy computes it" /usr/bin/python3 -c "
import numpy as np, pandas as pd
d = pd.read_csv('$tmp/ncc.csv'); r = pd.read_csv('$tmp/ncc.out').set_index('column')
def best(a, b, S):
    out = -2
    for s in range(-S, S + 1):
        x, y = (a[-s:], b[:len(b) + s]) if s < 0 else (a[:len(a) - s], b[s:])
        out = max(out, np.corrcoef(x, y)[0, 1])
    return out
for col in 'xy':
    want = best(d[col].values, d['pred_' + col].values, 5)
    assert abs(r.ncc[col] - want) < 1e-9, (col, r.ncc[col], want)  # the CSV's 10 digits
assert r.max_shift_samples['x'] == 5 and r.ncc['x'] > 0.9 and abs(r.ncc['y']) < 0.2
"
fi
printf 't,x,pred_x\n0,1,2\n0.1,1,2\n0.2,1,2\n' > "$tmp/flat.csv"
expect "--ncc of a constant signal: undefined, said" 0 "^x +3 +undefined$" "x or pred_x is constant" -- $P --ncc "$tmp/flat.csv"
expect "--ncc without predictions" 1 "" "no pred_\* columns" -- $P --ncc datasets/shake-4500.csv
expect "--max-shift without --ncc" 2 "" "^tagk-report: --max-shift applies to --ncc$" -- $P --max-shift 1 datasets/shake-4500.csv

# wls-pullback (paper 002, eq. 8) against a NumPy re-derivation: rows
# weighted by their row index's OLS residual variance, plus lambda times
# the pullback metric of the pseudo-inertia at the prior, built here from
# J's definition
$R -m multibody --robot datasets/arm.model --held forearm datasets/shake-4500.csv > "$tmp/pb.reg"
PB0=0.6,0,0,-0.15,0.04,0,0.04,0,0,0.002
$E --batch --raw -a wls-pullback --theta0 $PB0 --prior-weight 3 "$tmp/pb.reg" > "$tmp/pb.est"
if /usr/bin/python3 -c "import numpy, pandas" 2>/dev/null; then
	check "wls-pullback equals its NumPy re-derivation to 1e-8" /usr/bin/python3 -c "
import numpy as np, pandas as pd
d = pd.read_csv('$tmp/pb.reg', comment='#'); e = pd.read_csv('$tmp/pb.est', comment='#')
Y = d[[c for c in d.columns if c.startswith('Y_')]].values; b = d.b.values; k = d.row.values.astype(int)
ols = np.linalg.lstsq(Y, b, rcond=None)[0]; r = Y @ ols - b
w = np.array([1 / np.mean(r[k == j] ** 2) for j in k])
def J(t):
    I = np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
    M = np.zeros((4, 4)); M[:3, :3] = np.trace(I) / 2 * np.eye(3) - I; M[:3, 3] = M[3, :3] = t[1:4]; M[3, 3] = t[0]
    return M
t0 = np.array([$PB0]); J0i = np.linalg.inv(J(t0)); V = [J(np.eye(10)[i]) for i in range(10)]
G = np.array([[np.trace(J0i @ V[i] @ J0i @ V[j]) for j in range(10)] for i in range(10)])
H = Y.T @ (w[:, None] * Y) + 3 * G; h = Y.T @ (w * b) + 3 * G @ t0
want = np.linalg.solve(H, h); got = e[['m','mcx','mcy','mcz','Ixx','Ixy','Iyy','Ixz','Iyz','Izz']].values[-1]
err = np.linalg.norm(got - want) / np.linalg.norm(want)
assert err < 1e-8, err
"
fi
check "wls-pullback: weight 0 is wls, a huge weight the prior" sh -c \
	"$E --batch --raw -a wls-pullback --theta0 $PB0 --prior-weight 0 '$tmp/pb.reg' | grep -v '^#' | tail -1 | cut -d, -f1-11 > '$tmp/a' &&
	 $E --batch --raw -a wls '$tmp/pb.reg' | grep -v '^#' | tail -1 | cut -d, -f1-11 > '$tmp/b' && cmp -s '$tmp/a' '$tmp/b' &&
	 $E --batch -a wls-pullback --theta0 $PB0 --prior-weight 1e12 '$tmp/pb.reg' | grep -v '^#' | tail -1 |
	 awk -F, '{ exit !(\$2 > 0.5999 && \$2 < 0.6001) }'"
expect "wls-pullback without a prior" 2 "" "wls-pullback needs --theta0" -- $E --batch -a wls-pullback "$tmp/pb.reg"
expect "wls-pullback with an unphysical prior" 2 "" "not a physical body" -- \
	$E --batch -a wls-pullback --theta0 1,0,0,0,0,0,0,0,0,0 "$tmp/pb.reg"
expect "--prior-weight on ols" 2 "" "--prior-weight applies to wls-bregman and wls-pullback, not ols" -- \
	$E --batch -a ols --prior-weight 2 "$tmp/pb.reg"

# the dual metric through the pipeline: tagk-regress --metric carries each
# sample's mass matrix and its parts, tagk-filter --whiten freezes it at a
# prior and whitens the rows; least squares downstream is then the
# frozen-metric DM, which NumPy computes here from the metric columns
$R -m multibody --robot datasets/arm.model --held forearm --metric datasets/shake-4500.csv > "$tmp/met.reg"
$F --whiten $PB0 "$tmp/met.reg" > "$tmp/wh.reg"
$E --batch --raw -a ols "$tmp/wh.reg" > "$tmp/wh.est"
if /usr/bin/python3 -c "import numpy, pandas" 2>/dev/null; then
	check "--metric: each sample's metric and parts are symmetric; --whiten | ols is the frozen-metric DM (NumPy)" \
		/usr/bin/python3 -c "
import numpy as np, pandas as pd
d = pd.read_csv('$tmp/met.reg', comment='#'); e = pd.read_csv('$tmp/wh.est', comment='#')
P = ['m','mcx','mcy','mcz','Ixx','Ixy','Iyy','Ixz','Iyz','Izz']; t0 = np.array([$PB0]); n = 4
H = np.zeros((10, 10)); h = np.zeros(10); worst = 0
for t, g in d.groupby('t', sort=True):
    g = g.sort_values('row'); Y = g[['Y_' + p for p in P]].values; b = g.b.values
    parts = [g[['M0_%d' % c for c in range(1, n + 1)]].values] + [g[['M_%s_%d' % (p, c) for c in range(1, n + 1)]].values for p in P]
    for A in parts: worst = max(worst, abs(A - A.T).max() / (abs(A).max() + 1e-300))
    M = parts[0] + sum(t0[j] * parts[1 + j] for j in range(10)); W = np.linalg.inv(M)
    H += Y.T @ W @ Y; h += Y.T @ W @ b
want = np.linalg.solve(H, h); got = e[P].values[-1]
err = np.linalg.norm(got - want) / np.linalg.norm(want)
assert worst < 1e-12 and err < 1e-8, (worst, err)
"
fi
expect "--whiten without the metric's columns" 1 "" "no column M0_1" -- $F --whiten $PB0 "$tmp/pb.reg"
expect "--whiten with 3 values" 2 "" "--whiten: 3 values" -- $F --whiten 1,2,3 "$tmp/met.reg"
expect "--whiten with another stage" 2 "" "--whiten is a stage of its own" -- $F --whiten $PB0 --decimate 2 "$tmp/met.reg"
expect "--whiten at an unphysical prior" 1 "" "not positive definite" -- $F --whiten -9,0,0,0,0,0,0,0,0,0 "$tmp/met.reg"
expect "--metric on energy rows" 2 "" "--metric applies to force rows" -- \
	$R -m multibody --robot datasets/arm.model --held forearm --rows energy --metric datasets/shake-4500.csv

# dm and dm-pc through the pipeline: the estimate is the minimum of
# sum r^T M(theta)^-1 r, which NumPy checks from the metric columns by
# central differences of the objective (stationary), and lower there than
# at the frozen-metric solution
$E --batch --raw -a dm --theta0 $PB0 "$tmp/met.reg" > "$tmp/dm.est"
$E --batch -a dm-pc --theta0 $PB0 "$tmp/met.reg" > "$tmp/dmpc.est"
if /usr/bin/python3 -c "import numpy, pandas" 2>/dev/null; then
	check "dm: stationary and below the frozen metric's objective (NumPy, from the metric columns)" /usr/bin/python3 -c "
import numpy as np, pandas as pd
d = pd.read_csv('$tmp/met.reg', comment='#'); P = ['m','mcx','mcy','mcz','Ixx','Ixy','Iyy','Ixz','Iyz','Izz']; n = 4
S = []
for t, g in d.groupby('t', sort=True):
    g = g.sort_values('row')
    S.append((g[['Y_' + p for p in P]].values, g.b.values, [g[['M0_%d' % c for c in range(1, n + 1)]].values] +
              [g[['M_%s_%d' % (p, c) for c in range(1, n + 1)]].values for p in P]))
def f(th):
    v = 0
    for Y, b, M in S:
        r = Y @ th - b; Mt = M[0] + sum(th[j] * M[1 + j] for j in range(10)); v += r @ np.linalg.solve(Mt, r)
    return v
dm = pd.read_csv('$tmp/dm.est', comment='#')[P].values[-1]; fr = pd.read_csv('$tmp/wh.est', comment='#')[P].values[-1]
f0 = f(dm); g = np.zeros(10)
for j in range(10):
    h = 1e-6 * max(abs(dm[j]), 1e-3); e = np.zeros(10); e[j] = h
    g[j] = (f(dm + e) - f(dm - e)) / (2 * h)
assert np.max(np.abs(g * np.maximum(np.abs(dm), 1e-3))) < 1e-5 * f0, (g, f0)
assert f0 <= f(fr) * (1 + 1e-12), (f0, f(fr))
"
fi
check "dm-pc: physical" sh -c "$P '$tmp/dmpc.est' | grep -q '0 of 1 estimates not physical'"
expect "dm without the metric's columns" 1 "" "dm needs the metric's columns" -- $E --batch -a dm --theta0 $PB0 "$tmp/pb.reg"
expect "dm without a start" 2 "" "dm needs --theta0" -- $E --batch -a dm "$tmp/met.reg"

# wls-bregman: stationary for its objective (gradient written here from the
# log-det divergence), physical, and the prior under a huge weight
$E --batch -a wls-bregman --theta0 $PB0 --prior-weight 3 "$tmp/pb.reg" > "$tmp/br.est"
if /usr/bin/python3 -c "import numpy, pandas" 2>/dev/null; then
	check "wls-bregman: the Newton step left at the estimate is nil (NumPy, from the log-det divergence)" /usr/bin/python3 -c "
import numpy as np, pandas as pd
d = pd.read_csv('$tmp/pb.reg', comment='#'); e = pd.read_csv('$tmp/br.est', comment='#')
P = ['m','mcx','mcy','mcz','Ixx','Ixy','Iyy','Ixz','Iyz','Izz']
Y = d[['Y_' + p for p in P]].values; b = d.b.values; k = d.row.values.astype(int)
ols = np.linalg.lstsq(Y, b, rcond=None)[0]; r = Y @ ols - b
w = np.array([1 / np.mean(r[k == j] ** 2) for j in k])
def J(t):
    I = np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
    M = np.zeros((4, 4)); M[:3, :3] = np.trace(I) / 2 * np.eye(3) - I; M[:3, 3] = M[3, :3] = t[1:4]; M[3, 3] = t[0]
    return M
t0 = np.array([$PB0]); th = e[P].values[-1]; V = [J(np.eye(10)[i]) for i in range(10)]
J0i = np.linalg.inv(J(t0)); Ji = np.linalg.inv(J(th))
g = 2 * (Y.T @ (w * (Y @ th - b))) + 3 * np.array([np.trace(J0i @ V[i]) - np.trace(Ji @ V[i]) for i in range(10)])
K = 2 * Y.T @ (w[:, None] * Y) + 3 * np.array([[np.trace(Ji @ V[i] @ Ji @ V[j]) for j in range(10)] for i in range(10)])
step = np.linalg.solve(K, g)  # the Newton step left: the distance to the minimum
assert np.linalg.eigvalsh(J(th)).min() > 0 and np.abs(step).max() < 1e-7 * np.abs(th).max(), np.abs(step).max()
"
fi
check "wls-bregman: a huge weight gives the prior" sh -c \
	"$E --batch -a wls-bregman --theta0 $PB0 --prior-weight 1e12 '$tmp/pb.reg' | grep -v '^#' | tail -1 |
	 awk -F, '{ exit !(\$2 > 0.5999 && \$2 < 0.6001) }'"
expect "wls-bregman at weight 0" 2 "" "--prior-weight: wls-bregman needs a positive weight" -- \
	$E --batch -a wls-bregman --theta0 $PB0 --prior-weight 0 "$tmp/pb.reg"

finish
