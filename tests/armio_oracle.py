# armio_oracle.py: lib/armpc.c against CVXOPT's conic solver on small
# whole-arm-like problems: B bodies and F free (friction) columns, a
# regressor of rank below 10 B + F (as an arm's is: only base parameters
# are identifiable), a prior theta0 that pulls the unidentified directions,
# and data whose regularised minimiser is not physical. The problem,
#   min ||A x - b||^2 + mu d^T G d  s.t.  J_k(theta) >= 0,  d = theta - theta0,
# G = I (EUCLID) or the pullback metric at theta0 (built here from its
# definition), is written as: min t with (t, [A x - b; sqrt(mu) G^1/2 d])
# in the second-order cone and one 4 x 4 LMI per body. Sharing no code
# with lib/. Both objectives must agree to 1e-7 relative, ours physical.
# argv: the armpc_solve driver, a scratch directory.
import sys, subprocess
import numpy as np
from cvxopt import matrix, solvers
solvers.options.update({"show_progress": False, "maxiters": 200})
solve, tmp = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(55)

def pseudo(t):
    I = np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
    J = np.zeros((4, 4))
    J[:3, :3] = np.trace(I) / 2 * np.eye(3) - I
    J[:3, 3] = J[3, :3] = t[1:4]
    J[3, 3] = t[0]
    return J

E = [pseudo(np.eye(10)[i]) for i in range(10)]

def pullback(t0):
    Ji = np.linalg.inv(pseudo(t0))
    return np.array([[np.trace(Ji @ E[a] @ Ji @ E[b]) for b in range(10)] for a in range(10)])

def body():
    mass, c = 0.5 + rng.random(), (rng.random(3) - 0.5) * 0.2
    v = np.append(c, 1.0)
    J = mass * np.outer(v, v) + np.diag(np.append(rng.random(3) * 0.01, 0))
    S = J[:3, :3]
    I = np.trace(S) * np.eye(3) - S
    return [J[3, 3], *J[:3, 3], I[0, 0], I[0, 1], I[1, 1], I[0, 2], I[1, 2], I[2, 2]]

def physical(theta, B, tol=0.0):
    return all(np.linalg.eigvalsh(pseudo(theta[10 * k:10 * k + 10])).min() >= -tol for k in range(B))

problems = []
while len(problems) < 60:
    B, F = 1 + len(problems) % 3, 3 * (len(problems) % 4)
    reg = len(problems) // 2 % 2
    nt, n = 10 * B, 10 * B + F
    truth = np.array(sum((body() for _ in range(B)), []))
    prior = np.array(sum((body() for _ in range(B)), []))
    r = nt - 2 * B + F  # rank: 2 B directions of theta left to the prior
    A = rng.standard_normal((4 * n, r)) @ rng.standard_normal((r, n))
    A[:, nt:] = rng.standard_normal((4 * n, F))
    x = np.concatenate((truth, rng.standard_normal(F)))
    b = A @ x + 0.5 * rng.standard_normal(4 * n)
    mu = 10.0 ** rng.uniform(-3, 0)
    G = np.eye(nt) if reg == 0 else np.kron(np.eye(B), np.zeros((10, 10)))
    if reg == 1:
        for k in range(B):
            G[10 * k:10 * k + 10, 10 * k:10 * k + 10] = pullback(prior[10 * k:10 * k + 10])
    K = A.T @ A
    K[:nt, :nt] += mu * G
    rhs = A.T @ b
    rhs[:nt] += mu * G @ prior
    if physical(np.linalg.solve(K, rhs), B):
        continue
    problems.append((B, F, reg, mu, A, b, G, prior))

with open(tmp + "/problems.txt", "w") as f:
    for B, F, reg, mu, A, b, G, prior in problems:
        H, h = A.T @ A, A.T @ b
        f.write("%d %d %d %.17g %s %s %s\n" % (B, F, reg, mu, " ".join("%.17g" % v for v in H.ravel()),
                " ".join("%.17g" % v for v in h), " ".join("%.17g" % v for v in prior)))
out = subprocess.run([solve], stdin=open(tmp + "/problems.txt"), capture_output=True, text=True, check=True)
lines = out.stdout.split("\n")
worst, bad = 0.0, 0
for i, (B, F, reg, mu, A, b, G, prior) in enumerate(problems):
    nt, n = 10 * B, 10 * B + F
    w, V = np.linalg.eigh(G)
    Gh = V @ np.diag(np.sqrt(np.maximum(w, 0))) @ V.T
    obj = lambda x: np.sum((A @ x - b) ** 2) + mu * (x[:nt] - prior) @ G @ (x[:nt] - prior)
    m = A.shape[0]
    # x = [theta, phi, t]
    q = np.zeros((1 + m + nt, n + 1))
    q[0, n] = -1
    q[1:1 + m, :n] = -A
    q[1 + m:, :nt] = -np.sqrt(mu) * Gh
    hq = np.concatenate(([0.0], -b, -np.sqrt(mu) * Gh @ prior))
    Gs, hv = [q], [hq]
    for k in range(B):
        Gk = np.zeros((16, n + 1))
        for j in range(10):
            Gk[:, 10 * k + j] = -E[j].ravel(order="F")
        Gs.append(Gk)
        hv.append(np.zeros(16))
    cost = np.zeros(n + 1)
    cost[n] = 1
    dims = {"l": 0, "q": [1 + m + nt], "s": [4] * B}
    sol = {"status": "failed"}
    for tol in (1e-10, 1e-9, 1e-8, None):
        solvers.options.update({"abstol": tol, "reltol": tol, "feastol": tol} if tol else
                               {"abstol": 1e-7, "reltol": 1e-6, "feastol": 1e-7})
        try:
            sol = solvers.conelp(matrix(cost), matrix(np.vstack(Gs)), matrix(np.concatenate(hv)), dims)
            if sol["status"] == "optimal":
                break
        except (ValueError, ZeroDivisionError, ArithmeticError):
            sol = {"status": "failed", "x": matrix(np.zeros(n + 1))}
    xs = np.array(sol["x"]).ravel()[:n]
    f = lines[i].split()
    st, ours = int(f[0]), np.array([float(v) for v in f[1:]])
    rel = abs(obj(ours) - obj(xs)) / obj(xs)
    worst = max(worst, rel)
    if not (st == 0 and rel <= 1e-7 and physical(ours, B, 1e-9) and sol["status"] == "optimal"):
        bad += 1
        print("problem %d (%d bodies, %d free, reg %d): status %d, sdp %s, objective %.12g against %.12g" %
              (i, B, F, reg, st, sol["status"], obj(ours), obj(xs)))
print("armpc against CVXOPT on %d rank-deficient problems with friction columns and a prior "
      "(euclid, pullback): %d disagree; worst relative difference of the objective %.2g" % (len(problems), bad, worst))
sys.exit(1 if bad else 0)
