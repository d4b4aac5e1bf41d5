"""perturb_mjcf.py IN OUT SEED [LO HI]: every <inertial> of an MJCF file with
its mass and its inertia scaled by independent factors 1 +- U(LO, HI)
(default 0.2 to 0.3, sign random), its principal axes turned by a random
angle of up to HI rad, and its centre of mass moved by U(LO, HI) of its
distance from the body origin (at least 1 cm) along a random direction:
the arm that is not its description. Written as quat and diaginertia,
which MuJoCo stores as they are, where it diagonalises a fullinertia to
about 1e-7 only (tests/robotxml_oracle.c): the truth stays the truth. A
scaled, turned inertia about the centre of mass stays physical."""
import re, sys
import numpy as np
src, dst, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
lo, hi = (float(sys.argv[4]), float(sys.argv[5])) if len(sys.argv) > 5 else (0.2, 0.3)
rng = np.random.default_rng(seed)
def f():
    return 1 + rng.choice((-1, 1)) * rng.uniform(lo, hi)
def attr(tag, name):
    m = re.search(r'\b%s="([^"]*)"' % name, tag)
    return [float(v) for v in m.group(1).split()] if m else None
def quat2mat(q):
    w, x, y, z = np.array(q) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
def mat2quat(R):
    w = np.sqrt(max(0.0, 1 + R[0, 0] + R[1, 1] + R[2, 2])) / 2
    x = np.copysign(np.sqrt(max(0.0, 1 + R[0, 0] - R[1, 1] - R[2, 2])) / 2, R[2, 1] - R[1, 2])
    y = np.copysign(np.sqrt(max(0.0, 1 - R[0, 0] + R[1, 1] - R[2, 2])) / 2, R[0, 2] - R[2, 0])
    z = np.copysign(np.sqrt(max(0.0, 1 - R[0, 0] - R[1, 1] + R[2, 2])) / 2, R[1, 0] - R[0, 1])
    return np.array([w, x, y, z])
def inertial(m):
    tag = m.group(0)
    mass, pos = attr(tag, "mass")[0], np.array(attr(tag, "pos") or [0, 0, 0])
    if attr(tag, "fullinertia"):
        a = attr(tag, "fullinertia")  # xx yy zz xy xz yz
        I = np.array([[a[0], a[3], a[4]], [a[3], a[1], a[5]], [a[4], a[5], a[2]]])
    else:
        R = quat2mat(attr(tag, "quat") or [1, 0, 0, 0])
        I = R @ np.diag(attr(tag, "diaginertia")) @ R.T
    d, V = np.linalg.eigh(I * f())
    ax = rng.normal(size=3); ax /= np.linalg.norm(ax)
    th = rng.uniform(0, hi)
    K = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    V = (np.eye(3) + np.sin(th) * K + (1 - np.cos(th)) * K @ K) @ V
    if np.linalg.det(V) < 0:
        V[:, 0] = -V[:, 0]
    dirn = rng.normal(size=3); dirn /= np.linalg.norm(dirn)
    pos = pos + rng.uniform(lo, hi) * max(np.linalg.norm(pos), 0.01) * dirn
    q = mat2quat(V)
    return ('<inertial mass="%.17g" pos="%.17g %.17g %.17g" quat="%.17g %.17g %.17g %.17g" '
            'diaginertia="%.17g %.17g %.17g"/>' % ((mass * f(),) + tuple(pos) + tuple(q) + tuple(d)))
text = open(src).read()
open(dst, "w").write(re.sub(r"<inertial\b[^>]*>", inertial, text))
