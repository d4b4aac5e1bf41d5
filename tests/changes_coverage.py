#!/usr/bin/python3
"""changes_coverage.py TAGK-ESTIMATE: how often --segment auto's 95 %
interval of a change time holds the true time, by Monte Carlo.

100 simulated mass streams (2 rows per sample, 400 samples, the second row
about 9.8 as a thrust's), m stepping 1.0 -> 0.9 at a random sample between
150 and 250, noise sd 1.5 on b: a step blurred over tens of samples. Of the
runs that find the one change, the interval (t_start_lo .. t_start_hi) must
hold the true time in 88 % to 100 % (95 % less 3 binomial sd), and the
segments' m +- 1.96 sd their true m as often.
"""
import subprocess, sys
import numpy as np

exe = sys.argv[1]
rng = np.random.default_rng(11)
N, hit, tot, mcov, mtot = 400, 0, 0, 0, 0
for trial in range(100):
    at = int(rng.integers(150, 250))
    y = rng.normal(size=(N, 2))
    y[:, 1] += 9.8
    m = np.where(np.arange(N) >= at, 0.9, 1.0)
    b = m[:, None] * y + 1.5 * rng.normal(size=(N, 2))
    lines = ["t,row,Y_m,b"] + ["%r,%d,%r,%r" % (s * 0.01, r, y[s, r], b[s, r]) for s in range(N) for r in range(2)]
    p = subprocess.run([exe, "-q", "--batch", "-a", "wls", "--segment", "auto", "-"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: exit %d: %s" % (p.returncode, p.stderr))
    rows = [l.split(",") for l in p.stdout.splitlines() if not l.startswith("#")]
    h, rows = rows[0], rows[1:]
    if len(rows) != 2:
        continue
    lo, hi = float(rows[1][h.index("t_start_lo")]), float(rows[1][h.index("t_start_hi")])
    tot += 1
    hit += lo - 1e-9 <= at * 0.01 <= hi + 1e-9
    for k, tm in ((0, 1.0), (1, 0.9)):
        mtot += 1
        mcov += abs(float(rows[k][1]) - tm) <= 1.96 * float(rows[k][2])
print("one change found in %d of 100; its time's interval held the truth in %.1f %%, m's in %.1f %%"
      % (tot, 100 * hit / tot, 100 * mcov / mtot))
sys.exit(0 if tot >= 60 and 0.88 <= hit / tot and 0.88 <= mcov / mtot else 1)
