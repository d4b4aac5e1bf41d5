#!/usr/bin/env python3
"""ulog_read.py: a ULog reader written from PX4's "ULog File Format" page,
independent of tagk's C reader, with python3's struct only; and a check of
a tagk table read from the same file.

  ulog_read.py params FILE.ulg          every parameter, "NAME VALUE"
  ulog_read.py topics FILE.ulg          "TOPIC SAMPLES" per topic with data
  ulog_read.py check FILE.ulg TABLE.csv [BASE]
      every row of TABLE (tagk-filter's CSV of FILE) against the log: the
      base topic's cells equal to its sample at t, every other topic's
      interpolated (floats) or held (integers) between its samples around,
      rows dropped exactly where a topic is outside its span or in a gap
      longer than 5 times its median spacing; exit 1 on any difference.
  ulog_read.py regcmp ULOG.csv CSV.csv SHIFT YTOL BTOL
      two regressor streams of one flight, tagk-regress --preset px4 on
      its ULog and tagk-regress on its CSV (times SHIFT s earlier): every
      Y_* within YTOL (relative, or absolute under 1) and b within BTOL
      (relative, or absolute under 1e-3) where both have (t, row); exit 1
      otherwise, or if under 90 % of the ULog's rows are matched.
  ulog_read.py thrust FILE.ulg TMAX FROM
      the mass a simulated flight's rotor thrusts imply after FROM s since
      boot: median of sum(T_i) / -accelerometer_m_s2[2] (FRD) over the
      sensor_combined samples stamped as an actuator_motors one, T_i from
      actuator_motors (normalised thrust: T_i = TMAX u_i) and from
      actuator_outputs (PWM: x = (pwm - PWM_MAIN_MINc) / (MAXc - MINc),
      T_i = TMAX (f x^2 + (1 - f) x), f = THR_MDL_FAC, channel c the one
      whose PWM_MAIN_FUNCc is 101 + i): PX4's relation (its THR_MDL_FAC
      parameter's description, FunctionMotors::updateValues)
  ulog_read.py strip TOPIC IN.ulg OUT.ulg   IN without TOPIC's subscription
      and data
  ulog_read.py damaged KIND OUT.ulg     a small malformed ULog, for the
      reader's refusals: selfnest, unknown-id, short-data, bad-array,
      unknown-type, no-timestamp, huge; or a good one: wide (260004
      columns) with a newer message type
      and appended data: newer
"""
import csv, math, struct, sys

TYPES = {"int8_t": "b", "uint8_t": "B", "int16_t": "h", "uint16_t": "H", "int32_t": "i",
         "uint32_t": "I", "int64_t": "q", "uint64_t": "Q", "float": "f", "double": "d",
         "bool": "?", "char": "c"}


class ULog:
    def __init__(self, path):
        data = open(path, "rb").read()
        if data[:7] != b"ULog\x01\x12\x35":
            raise SystemExit("not a ULog")
        self.formats, self.subs, self.params, self.data = {}, {}, {}, {}
        self.truncated = False
        pos, appended = 16, 0
        while pos < len(data):
            if len(data) - pos < 3:
                self.truncated = True
                break
            size, typ = struct.unpack_from("<HB", data, pos)
            if pos + 3 + size > len(data):
                self.truncated = True
                break
            body = data[pos + 3:pos + 3 + size]
            pos += 3 + size
            t = chr(typ)
            if t == "B":
                incompat = body[8:16]
                if incompat[0] & 1:
                    appended = struct.unpack_from("<Q", body, 16)[0]
            elif t == "F":
                name, fields = body.decode().split(":", 1)
                self.formats[name] = [f.split(" ") for f in fields.split(";") if f]
            elif t == "P":
                klen = body[0]
                typ_, name = body[1:1 + klen].decode().split(" ")
                if name not in self.params:
                    self.params[name] = struct.unpack_from("<i" if typ_ == "int32_t" else "<f",
                                                           body, 1 + klen)[0]
            elif t == "A":
                multi, msg_id = struct.unpack_from("<BH", body, 0)
                name = body[3:].decode()
                label = name if multi == 0 else "%s_%d" % (name, multi)
                self.subs[msg_id] = (name, label)
                self.data[label] = []
            elif t == "D":
                msg_id = struct.unpack_from("<H", body, 0)[0]
                name, label = self.subs[msg_id]
                vals = {}
                self.flatten(name, body[2:], 0, label, vals)
                samples = self.data[label]
                ts = vals[label + ".timestamp"][0]
                if samples and ts <= samples[-1][label + ".timestamp"][0]:
                    continue
                samples.append(vals)

    def flatten(self, fmt, buf, off, prefix, out):
        """The fields of format fmt at buf[off:] into out; returns the end."""
        for typ, name in self.formats[fmt]:
            count = 1
            if "[" in typ:
                typ, n = typ[:-1].split("[")
                count = int(n)
            for e in range(count):
                full = "%s.%s.%d" % (prefix, name, e) if "[" in "".join(
                    t for t, n in self.formats[fmt] if n == name) else "%s.%s" % (prefix, name)
                if typ in TYPES:
                    size = struct.calcsize("<" + TYPES[typ])
                    if not name.startswith("_padding") and typ != "char":
                        v = struct.unpack_from("<" + TYPES[typ], buf, off)[0]
                        out[full] = (float(v), TYPES[typ] in "fd")
                    off += size
                else:
                    off = self.flatten(typ, buf, off, full, out)
        return off


def median(xs):
    xs = sorted(xs)
    return xs[(len(xs) - 1) // 2]


def check(u, table, base):
    rows = [r for r in csv.reader(l for l in open(table) if not l.startswith("#"))]
    head, rows = rows[0], rows[1:]
    topics = {c.split(".")[0] for c in head[1:]}
    if base is None:
        base = max((t for t in topics if u.data[t]), key=lambda t: len(u.data[t]))
    gaps = {}
    for t in topics:
        ts = [s[t + ".timestamp"][0] for s in u.data[t][:4097]]
        gaps[t] = 5 * median([b - a for a, b in zip(ts, ts[1:])])
    expect = []
    for s in u.data[base]:
        ts = s[base + ".timestamp"][0]
        row = {"t": ts / 1e6}
        row.update({k: v[0] for k, v in s.items()})
        ok = True
        for t in topics - {base}:
            smp = u.data[t]
            stamps = [x[t + ".timestamp"][0] for x in smp]
            k = max((i for i, x in enumerate(stamps) if x <= ts), default=-1)
            if k < 0 or (k == len(smp) - 1 and ts > stamps[k]):
                ok = False
                break
            if ts == stamps[k]:
                row.update({c: v[0] for c, v in smp[k].items()})
                continue
            if stamps[k + 1] - stamps[k] > gaps[t]:
                ok = False
                break
            w = (ts - stamps[k]) / (stamps[k + 1] - stamps[k])
            for c, (a, isf) in smp[k].items():
                row[c] = a + w * (smp[k + 1][c][0] - a) if isf else a
        if ok:
            expect.append(row)
    if len(expect) != len(rows):
        raise SystemExit("rows: the log gives %d, the table has %d" % (len(expect), len(rows)))
    worst = 0.0
    for i, (e, r) in enumerate(zip(expect, rows)):
        for c, cell in zip(head, r):
            v = float(cell) if cell else math.nan
            x = e[c]
            if math.isnan(x) and math.isnan(v):
                continue
            d = abs(v - x) / max(1.0, abs(x))
            worst = max(worst, d)
            if not d <= 1e-12:
                raise SystemExit("row %d, %s: table %r, log %r" % (i + 1, c, v, x))
    print("%d rows, %d columns agree (largest relative difference %.3g)" % (len(rows), len(head), worst))


def msg(t, body):
    return struct.pack("<HB", len(body), ord(t)) + body


def damaged(kind, out):
    """A header, a format, a subscription and data, damaged as kind says."""
    fmt = "t:uint64_t timestamp;float[2] x;uint8_t[4] _padding0;"
    sub = msg("A", struct.pack("<BH", 0, 7) + b"t")
    flags = bytes(40)
    data = [msg("D", struct.pack("<HQff", 7, 1000 * (i + 1), i, -i) + bytes(4)) for i in range(4)]
    extra = b""
    if kind == "selfnest":
        fmt = "t:uint64_t timestamp;t inner;"
    elif kind == "unknown-id":
        data[2] = msg("D", struct.pack("<HQff", 9, 3000, 0, 0) + bytes(4))
    elif kind == "short-data":
        data[1] = msg("D", struct.pack("<HQf", 7, 2000, 0))
    elif kind == "bad-array":
        fmt = "t:uint64_t timestamp;float[0] x;"
    elif kind == "unknown-type":
        fmt = "t:uint64_t timestamp;quaternion x;"
    elif kind == "no-timestamp":
        fmt = "t:uint32_t time;float[2] x;uint8_t[4] _padding0;"
        data = [msg("D", struct.pack("<HIff", 7, 1000 * (i + 1), i, -i) + bytes(4)) for i in range(4)]
    elif kind == "huge":
        # 17 subscriptions to a format of 65527 one-byte fields: 1.1e6
        # columns, over the reader's bound
        fmt = "t:uint64_t timestamp;uint8_t[65527] x;"
        sub = b"".join(msg("A", struct.pack("<BH", k, k) + b"t") for k in range(17))
        data = []
    elif kind == "wide":
        # a good file of 4 instances of 65001 columns each, 260004 in all
        fmt = "t:uint64_t timestamp;uint8_t[65000] x;"
        sub = b"".join(msg("A", struct.pack("<BH", k, k) + b"t") for k in range(4))
        data = [msg("D", struct.pack("<HQ", 0, 1000 * (i + 1)) + bytes(65000)) for i in range(4)]
    elif kind == "newer":
        # an unknown message type 'Z' skipped by its size; data appended at
        # an offset after 5 bytes of garbage
        extra = msg("Z", b"whatever")
    head = b"ULog\x01\x12\x35\x01" + struct.pack("<Q", 0)
    body = msg("F", fmt.encode()) + sub + extra + b"".join(data[:2])
    if kind == "newer":
        appended = len(head) + 43 + len(body) + 5
        flags = bytes(8) + bytes([1]) + bytes(7) + struct.pack("<QQQ", appended, 0, 0)
        body += b"\x05\x00D\x07\x00" + b"".join(data[2:])
    else:
        body += b"".join(data[2:])
    open(out, "wb").write(head + msg("B", flags) + body)


def thrust(u, tmax, start):
    n = int(u.params["CA_ROTOR_COUNT"])
    fac = u.params["THR_MDL_FAC"]
    chan = {int(u.params["PWM_MAIN_FUNC%d" % c]) - 101: c for c in range(1, 17)
            if "PWM_MAIN_FUNC%d" % c in u.params}
    acc = {s["sensor_combined.timestamp"][0]: s["sensor_combined.accelerometer_m_s2.2"][0]
           for s in u.data["sensor_combined"]}
    out = {s["actuator_outputs.timestamp"][0]: s for s in u.data["actuator_outputs"]}
    m_mot, m_out = [], []
    for s in u.data["actuator_motors"]:
        ts = s["actuator_motors.timestamp"][0]
        if ts < start * 1e6 or ts not in acc or ts not in out:
            continue
        t_mot = sum(tmax * s["actuator_motors.control.%d" % i][0] for i in range(n))
        t_out = 0
        for i in range(n):
            c = chan[i]
            lo, hi = u.params["PWM_MAIN_MIN%d" % c], u.params["PWM_MAIN_MAX%d" % c]
            x = (out[ts]["actuator_outputs.output.%d" % (c - 1)][0] - lo) / (hi - lo)
            t_out += tmax * (fac * x * x + (1 - fac) * x)
        m_mot.append(t_mot / -acc[ts])
        m_out.append(t_out / -acc[ts])
    print("%d samples: m %.5f from actuator_motors, %.5f from actuator_outputs (THR_MDL_FAC %g)" % (
        len(m_mot), median(m_mot), median(m_out), fac))


def strip(topic, src, dst):
    data = open(src, "rb").read()
    out, pos, ids = [data[:16]], 16, set()
    while pos + 3 <= len(data):
        size, typ = struct.unpack_from("<HB", data, pos)
        m = data[pos:pos + 3 + size]
        pos += 3 + size
        if chr(typ) == "A" and m[6:].decode() == topic:
            ids.add(struct.unpack_from("<H", m, 4)[0])
            continue
        if chr(typ) == "D" and struct.unpack_from("<H", m, 3)[0] in ids:
            continue
        out.append(m)
    open(dst, "wb").write(b"".join(out))


def regcmp(ulog_csv, csv_csv, shift, ytol, btol):
    def load(p):
        rows = list(csv.reader(l for l in open(p) if not l.startswith("#")))
        return rows[0], {(round(float(r[0]), 6), int(float(r[1]))): [float(x) for x in r] for r in rows[1:]}
    hu, U = load(ulog_csv)
    hc, C = load(csv_csv)
    worst, n = {}, 0
    for (t, row), vu in U.items():
        vc = C.get((round(t - shift, 6), row))
        if vc is None:
            continue
        n += 1
        for c in hu:
            if not (c.startswith("Y_") or c == "b"):
                continue
            a, b = vu[hu.index(c)], vc[hc.index(c)]
            d = abs(a - b) / max(abs(b), 1e-3 if c == "b" else 1)
            key = c if c != "b" else "b%d" % row
            worst[key] = max(worst.get(key, 0), d)
            if d > (btol if c == "b" else ytol):
                raise SystemExit("t %g row %d %s: ULog %r, CSV %r" % (t, row, c, a, b))
    if n < 0.9 * len(U):
        raise SystemExit("only %d of %d rows matched" % (n, len(U)))
    print("%d rows agree; largest differences %s" % (n, " ".join(
        "%s %.2g" % kv for kv in sorted(worst.items(), key=lambda kv: -kv[1])[:4])))


def main():
    if sys.argv[1] == "regcmp":
        regcmp(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]))
        return
    if sys.argv[1] == "strip":
        strip(sys.argv[2], sys.argv[3], sys.argv[4])
        return
    if sys.argv[1] == "damaged":
        damaged(sys.argv[2], sys.argv[3])
        return
    cmd, path = sys.argv[1], sys.argv[2]
    u = ULog(path)
    if cmd == "params":
        for k, v in u.params.items():
            print(k, repr(v))
    elif cmd == "topics":
        for k, v in u.data.items():
            if v:
                print(k, len(v))
    elif cmd == "thrust":
        thrust(u, float(sys.argv[3]), float(sys.argv[4]))
    elif cmd == "check":
        check(u, sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)


main()
