#!/bin/sh
# rls_ld_oracle_test.sh: rls-ld (lib/rls_ld.c) against a NumPy re-derivation
# of its update from the equations, sharing no code with lib/: per window,
# Omega += A^T A, g0 = A^T (A theta' - b), and the step minimises
# g0^T d + d^T Omega d / 2 + alpha D(J(theta' + d) || J(theta')), solved here
# by Newton's method with the gradient tr(J'^-1 E_i) - tr(J^-1 E_i) and
# Hessian tr(J^-1 E_i J^-1 E_j), E_i = J(e_i) built from the definition of
# the pseudo-inertia. Both chains run on their own estimates over random
# streams (short windows, several alphas); every update must agree to 1e-7
# relative and every estimate of ours must be physical. It also runs the
# reference's reading (nhcho91/EntDiv_RLS RLS_ldetdiv: full Newton steps, no
# safeguard) and prints how often that leaves the physical set, where our
# backtracking differs from it. Skips without numpy.
set -u
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
RUN=${RLS_LD_RUN:-build/rls_ld_run}
if ! [ -x $PY ] || ! $PY -c 'import numpy' 2>/dev/null; then
	echo "skip the NumPy oracle of rls-ld: /usr/bin/python3 with numpy is not installed"
	finish
	exit 0
fi
$PY - "$RUN" "$tmp" > "$tmp/oracle.out" 2>&1 <<'PYEOF'
import sys, subprocess
import numpy as np
run, tmp = sys.argv[1], sys.argv[2]

def pseudo(t):
    # theta = m, mcx, mcy, mcz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz; J = [[tr(I)/2 1 - I, mc], [mc^T, m]]
    I = np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
    J = np.zeros((4, 4))
    J[:3, :3] = np.trace(I) / 2 * np.eye(3) - I
    J[:3, 3] = J[3, :3] = t[1:4]
    J[3, 3] = t[0]
    return J

E = [pseudo(np.eye(10)[i]) for i in range(10)]

def pd(t):
    try:
        np.linalg.cholesky(pseudo(t))
        return True
    except np.linalg.LinAlgError:
        return False

def div(t, t0):
    J, J0 = pseudo(t), pseudo(t0)
    return -np.linalg.slogdet(J)[1] + np.linalg.slogdet(J0)[1] + np.trace(np.linalg.solve(J0, J)) - 4

def step(prev, Om, g0, alpha, safeguard):
    J0inv = np.linalg.inv(pseudo(prev))
    gp = np.array([np.trace(J0inv @ Ei) for Ei in E])
    d = np.zeros(10)
    f = lambda d: g0 @ d + d @ Om @ d / 2 + alpha * div(prev + d, prev)
    left = False
    for it in range(100):
        Ji = np.linalg.inv(pseudo(prev + d))
        Mi = [Ji @ Ei for Ei in E]
        g = g0 + Om @ d + alpha * (gp - np.array([np.trace(M) for M in Mi]))
        H = Om + alpha * np.array([[np.trace(Mi[i] @ Mi[j]) for j in range(10)] for i in range(10)])
        delta = -np.linalg.solve(H, g)
        lam2 = -g @ delta
        if lam2 / 2 <= 1e-20:
            break
        if not safeguard:
            d = d + delta
            if not pd(prev + d):
                left = True
                break
            continue
        t, f0 = 1.0, f(d)
        while t > 1e-18:
            if pd(prev + d + t * delta) and f(d + t * delta) <= f0 - t * lam2 / 4:
                break
            t /= 2
        else:
            break
        fn = f(d + t * delta)
        d = d + t * delta
        if f0 - fn <= 16 * 2.2e-16 * (abs(f0) + abs(fn)):
            break
    return prev + d, left

def body(rng):
    m = 0.5 + 2 * rng.random()
    h = 0.05 + 0.3 * rng.random(3)
    c = (rng.random(3) - 0.5) * 0.4
    Q = np.linalg.qr(rng.standard_normal((3, 3)))[0]
    Ic = Q @ np.diag(m * np.array([h[1]**2 + h[2]**2, h[0]**2 + h[2]**2, h[0]**2 + h[1]**2]) / 3) @ Q.T
    I = Ic + m * (c @ c * np.eye(3) - np.outer(c, c))
    return np.array([m, *(m * c), I[0, 0], I[0, 1], I[1, 1], I[0, 2], I[1, 2], I[2, 2]])

rng = np.random.default_rng(11)
worst, nupd, bad, unphys, ref_left = 0.0, 0, 0, 0, 0
for stream in range(6):
    alpha = [0.1, 10.0, 1000.0][stream % 3]
    truth, theta0 = body(rng), body(rng)
    scale = np.array([1, 10, 10, 10, 100, 100, 100, 100, 100, 100])
    wins = []
    for k in range(60):
        m = 1 + (k * 5 + stream) % 6
        A = rng.standard_normal((m, 10)) * scale
        b = A @ truth + (2.0 if stream >= 3 else 0.2) * rng.standard_normal(m)
        wins.append((A, b))
    with open(tmp + "/in.txt", "w") as fh:
        fh.write("rls-ld %.17g 1e-3\n%s\n" % (alpha, " ".join("%.17g" % x for x in theta0)))
        for A, b in wins:
            fh.write("%d %s %s\n" % (len(b), " ".join("%.17g" % x for x in A.ravel()), " ".join("%.17g" % x for x in b)))
    out = subprocess.run([run], stdin=open(tmp + "/in.txt"), capture_output=True, text=True, check=True)
    lines = out.stdout.strip().split("\n")
    if len(lines) != len(wins):
        print("FAIL: %d lines for %d windows" % (len(lines), len(wins)))
        sys.exit(1)
    th, Om = theta0.copy(), np.zeros((10, 10))
    th_ref, Om_ref, ref_broken = theta0.copy(), np.zeros((10, 10)), False
    for (A, b), line in zip(wins, lines):
        v = line.split()
        if v[0] != "0":
            bad += 1
            continue
        ours = np.array([float(x) for x in v[1:]])
        Om = Om + A.T @ A
        th, _ = step(th, Om, A.T @ (A @ th - b), alpha, True)
        e = np.linalg.norm(ours - th) / np.linalg.norm(th)
        worst = max(worst, e)
        nupd += 1
        unphys += not pd(ours)
        if not ref_broken:
            Om_ref = Om_ref + A.T @ A
            th_ref, left = step(th_ref, Om_ref, A.T @ (A @ th_ref - b), alpha, False)
            if left:
                ref_left += 1
                ref_broken = True
print("updates %d, refused %d, worst relative difference %.3g, not physical %d" % (nupd, bad, worst, unphys))
print("the reference's full Newton steps left the physical set in %d of 6 streams" % ref_left)
if bad or unphys or not worst < 1e-7:
    print("FAIL")
    sys.exit(1)
PYEOF
rc=$?
sed 's/^/  /' "$tmp/oracle.out"
check "rls-ld agrees with the NumPy re-derivation on every update, every estimate physical" test $rc -eq 0
finish
