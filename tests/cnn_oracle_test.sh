#!/bin/sh
# cnn_oracle_test.sh: the 1D-CNN's C inference (lib/cnn.c, through
# tagk-estimate -a cnn) against torch on 500 simulated shakes (the test
# split): torch's own Conv1d, MaxPool1d and Linear, loaded with the weights
# parsed from the shipped lib/cnn_weights.h, sharing no code with lib/.
# Every output, in units of its training standard deviation, must agree to
# 1e-5. Skips without python3-torch (Debian's package; `make train` needs it
# too).
set -u
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
BIN=${BIN:-bin}
if ! [ -x $PY ] || ! $PY -c 'import torch, h5py, numpy, pandas' 2>/dev/null; then
	echo "skip the torch oracle of the 1D-CNN: /usr/bin/python3 with torch, h5py, numpy and pandas is not installed"
	finish
	exit 0
fi
"$BIN/tagk-bench" shake --first 4500 --objects 500 -o "$tmp/test.h5" 2>/dev/null
"$BIN/tagk-estimate" -a cnn "$tmp/test.h5" -o "$tmp/est.csv"
$PY - "$tmp" lib/cnn_weights.h > "$tmp/oracle.out" 2>&1 <<'PYEOF'
import re, sys
import h5py
import numpy as np
import pandas as pd
import torch
from torch import nn
tmp, header = sys.argv[1], sys.argv[2]
text = open(header).read()
arr = {m.group(1): np.array([float(v.rstrip("f")) for v in m.group(3).replace("\n", " ").split(",") if v.strip()],
                            dtype=np.float32)
       for m in re.finditer(r"static const float (\w+)\[(\d+)\] = \{(.*?)\};", text, re.S)}
F = int(re.search(r"#define CNN_F (\d+)", text).group(1))
H = int(re.search(r"#define CNN_H (\d+)", text).group(1))
layers, cin = [], 8
for i in range(4):
    conv = nn.Conv1d(cin, F, 3, 1, 1)
    conv.weight.data = torch.tensor(arr["cnn_conv%d_w" % i].reshape(F, cin, 3))
    conv.bias.data = torch.tensor(arr["cnn_conv%d_b" % i])
    layers += [conv, nn.ReLU(), nn.MaxPool1d(2)]
    cin = F
fc1, fc2 = nn.Linear(F * 12, H), nn.Linear(H, 7)
fc1.weight.data = torch.tensor(arr["cnn_fc1_w"].reshape(H, F * 12))
fc1.bias.data = torch.tensor(arr["cnn_fc1_b"])
fc2.weight.data = torch.tensor(arr["cnn_fc2_w"].reshape(7, H))
fc2.bias.data = torch.tensor(arr["cnn_fc2_b"])
feat = nn.Sequential(*layers)
with h5py.File(tmp + "/test.h5") as f:
    obj = np.asarray(f["object"])
    x = np.stack([np.asarray(f[k]) for k in ["q1", "q2", "q3", "q4", "qd1", "qd2", "qd3", "qd4"]], 1)
n = len(np.unique(obj))
assert n == 500 and len(obj) == 500 * 201
x = x.reshape(n, 201, 8).transpose(0, 2, 1)
xn = (x - arr["cnn_in_mean"][None, :, None]) / arr["cnn_in_std"][None, :, None]
with torch.no_grad():
    yn_torch = fc2(torch.relu(fc1(feat(torch.tensor(xn, dtype=torch.float32)).flatten(1)))).numpy()
# ours: theta in the hand frame back to m, c - grip, diag of the inertia about c
est = pd.read_csv(tmp + "/est.csv", comment="#")
assert len(est) == n, len(est)
m = est["m"].values
c = est[["mcx", "mcy", "mcz"]].values / m[:, None]
c2 = (c ** 2).sum(1)
y = np.stack([m, c[:, 0], c[:, 1], c[:, 2] + 0.22, est["Ixx"].values - m * (c2 - c[:, 0] ** 2),
              est["Iyy"].values - m * (c2 - c[:, 1] ** 2), est["Izz"].values - m * (c2 - c[:, 2] ** 2)], 1)
yn_ours = (y - arr["cnn_out_mean"]) / arr["cnn_out_std"]
d = np.abs(yn_ours - yn_torch).max()
print("500 shakes: the largest difference of a standardised output, C against torch: %.2g" % d)
sys.exit(0 if d < 1e-5 else 1)
PYEOF
rc=$?
sed 's/^/  /' "$tmp/oracle.out"
check "the C inference of the 1D-CNN equals torch's to 1e-5 on 500 inputs" test $rc -eq 0
finish
