"""streamsum.py: an independent implementation of the check value of tagk's
streams, from its description in tagk-formats(5) (formats/streamsum.h is the
C one). Used by the tests to write streams by hand and to check tagk's.
Version 3 of either stream (and version 4 of the binary one) is XXH3-64
of a span of its bytes, taken here with python3-xxhash over the whole span
at once (tagk hashes it in pieces as it writes or reads). Also the binary
stream's version 4 records (delta-coded, tagk-formats(5)), encoded and
decoded here from that description, apart from formats/binary.h.

  python3 tests/streamsum.py FILE   prints the check value FILE's end marker
                                    should carry, and the one it carries
  python3 tests/streamsum.py --ends FILE   where FILE's records (version 4)
                                    begin and end, in bytes
"""
import struct
import sys

M = (1 << 64) - 1
P1, P2, P3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9


def rnd(acc, w):
    acc = (acc + w * P2) & M
    acc = ((acc << 31) | (acc >> 33)) & M
    return (acc * P1) & M


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


class Sum:
    def __init__(self):
        self.lane = [(P1 + P2) & M, P2, 0, (-P1) & M]
        self.rows = 0

    def text(self, i, b):
        a = rnd(self.lane[i & 3], len(b))
        for k in range(0, len(b), 8):
            a = rnd(a, int.from_bytes(b[k:k + 8].ljust(8, b"\0"), "little"))
        self.lane[i & 3] = a

    def record(self, rec):
        for i in range(len(rec) // 8):
            self.lane[i & 3] = rnd(self.lane[i & 3], int.from_bytes(rec[8 * i:8 * i + 8], "little"))
        self.rows += 1

    def row(self):
        self.rows += 1
        self.lane[0] = rnd(self.lane[0], self.rows)

    def value(self):
        l = self.lane
        h = (rotl(l[0], 1) + rotl(l[1], 7) + rotl(l[2], 12) + rotl(l[3], 18)) & M
        h ^= (self.rows * P3) & M
        h ^= h >> 33
        h = (h * P2) & M
        h ^= h >> 29
        h = (h * P3) & M
        h ^= h >> 32
        return h


def split_names(line):
    """The names of a header line: bare, or quoted with doubled quotes."""
    out, i = [], 0
    while True:
        if line[i:i + 1] == b'"':
            j, w = i + 1, b""
            while True:
                if line[j:j + 2] == b'""':
                    w += b'"'
                    j += 2
                elif line[j:j + 1] == b'"':
                    j += 1
                    break
                else:
                    w += line[j:j + 1]
                    j += 1
            out.append(w)
            i = j
        else:
            j = line.find(b",", i)
            j = len(line) if j < 0 else j
            out.append(line[i:j])
            i = j
        if i >= len(line):
            return out
        i += 1


def xxh3(data):
    import xxhash  # python3-xxhash: only version 3 needs it
    return xxhash.xxh3_64_intdigest(data)


NONE = None  # no row before the first


def _bits(x):
    u = struct.unpack("<Q", struct.pack("<d", x))[0]
    if (u & 0x7fffffffffffffff) > 0x7ff0000000000000:
        u = 0x7ff8000000000000  # every NaN as the one quiet NaN
    return u


def _next(u):
    """The bits NEXT makes of the bits u: u's value plus 1.0, or None."""
    if u is None or (u >> 52) & 0x7ff == 0x7ff:
        return None
    return _bits(struct.unpack("<d", struct.pack("<Q", u))[0] + 1.0)


def encode4(rows, n):
    """Version 4 records of rows (lists of n floats): per row, a mask of
    ceil(n / 32) 64-bit words of 2-bit codes (0 the value before, 1 a
    value follows, 2 +0.0, 3 the value before plus one), then the values."""
    prev = [NONE] * n
    out = b""
    nw = (n + 31) // 32
    for r in rows:
        codes, vals = [], []
        for i in range(n):
            u = _bits(r[i])
            if u == prev[i]:
                c = 0
            elif u == 0:
                c = 2
            elif u == _next(prev[i]):
                c = 3
            else:
                c = 1
            codes.append(c)
            prev[i] = u
        if n >= 32 and all(c == 3 for c in codes[:32]):
            codes[0] = 1  # a first word of all ones is the trailer's
        for i in range(n):
            if codes[i] == 1:
                vals.append(prev[i])
        words = [0] * nw
        for i, c in enumerate(codes):
            words[i // 32] |= c << (2 * (i % 32))
        out += struct.pack("<%dQ" % nw, *words) + struct.pack("<%dQ" % len(vals), *vals)
    return out


def decode4(body, n):
    """(rows of floats, bytes read) of version 4 records up to the trailer."""
    prev = [NONE] * n
    nw = (n + 31) // 32
    rows, p = [], 0
    while body[p:p + 8] != b"\xff" * 8:
        words = struct.unpack("<%dQ" % nw, body[p:p + 8 * nw])
        p += 8 * nw
        for i in range(n):
            c = (words[i // 32] >> (2 * (i % 32))) & 3
            if c == 1:
                prev[i] = struct.unpack("<Q", body[p:p + 8])[0]
                p += 8
            elif c == 2:
                prev[i] = 0
            elif c == 3:
                prev[i] = _next(prev[i])
            assert prev[i] is not None, "a code refers to no row before"
        rows.append([struct.unpack("<d", struct.pack("<Q", u))[0] for u in prev])
    return rows, p


def binary_stream(names, rows, notes=(), version=4):
    """A binary stream (tagk-formats(5)) of rows of floats, its end marker
    carrying the check value of the version (2, 3 or 4)."""
    n = len(names)
    names_line = ",".join(names).encode()
    units = b"," * (n - 1)
    magic = ("\x93TAGK %d f64le %d" % (version, n)).encode("latin-1")
    while (len(magic) + 1 + len(names_line) + 1 + len(units) + 1) % 8:
        magic += b" "
    s = Sum()
    for i, name in enumerate(names):
        s.text(i, name.encode())
    body = b""
    for r in rows:
        rec = struct.pack("<%dd" % n, *r)
        s.record(rec)
        body += rec
    if version == 4:
        body = encode4(rows, n)
    hashed = names_line + b"\n" + units + b"\n" + body
    check = s.value() if version == 2 else xxh3(hashed)
    tail = b"\xff" * 8 + b"".join(b"#tagk-note: " + x.encode() + b"\n" for x in notes)
    end = "#tagk-end: %d %s; check %016x\n" % (len(rows), "row" if len(rows) == 1 else "rows", check)
    return magic + b"\n" + hashed + tail + end.encode()


def csv_v2(data):
    """A version 3 CSV stream's bytes as the version 2 stream of the same
    lines (tagk before November 2026): its check value over the names and
    cells."""
    lines = data.split(b"\n")
    assert lines[0] == b"#tagk-stream: 3", lines[0]
    s = Sum()
    for i, name in enumerate(split_names(lines[1])):
        s.text(i, name)
    out = [b"#tagk-stream: 2", lines[1]]
    for line in lines[2:]:
        if line.startswith(b"#tagk-end:"):
            out.append(b"#tagk-end: %d %s; check %016x" % (s.rows, b"row" if s.rows == 1 else b"rows", s.value()))
            break
        out.append(line)
        if not line.startswith(b"#tagk-"):
            for i, cell in enumerate(line.split(b",")):
                s.text(i, cell)
            s.row()
    return b"\n".join(out) + b"\n"


def check_of(data):
    """(the check value computed, the one the end marker carries) of a CSV
    or binary stream's bytes."""
    s = Sum()
    got = None
    if data[:1] == b"\x93":
        nl1 = data.index(b"\n")
        version, n = int(data[:nl1].split()[1]), int(data[:nl1].split()[3])
        nl2 = data.index(b"\n", nl1 + 1)
        nl3 = data.index(b"\n", nl2 + 1)
        for i, name in enumerate(split_names(data[nl1 + 1:nl2])):
            s.text(i, name)
        p = nl3 + 1
        if version == 4:
            p += decode4(data[p:], n)[1]
        while data[p:p + 8] != b"\xff" * 8:
            s.record(data[p:p + 8 * n])
            p += 8 * n
        if version >= 3:
            # every byte after the magic line, up to the trailer
            got = xxh3(data[nl1 + 1:p])
        end = data[p + 8:].split(b"\n")
    elif data.startswith(b"#tagk-stream: 3"):
        # every byte after the declaration line, its line ends as LF, up
        # to the first note or the end marker
        text = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        lines = text.split(b"\n")[1:]
        k = next(i for i, x in enumerate(lines) if x.startswith((b"#tagk-note:", b"#tagk-end:")))
        got = xxh3(b"".join(x + b"\n" for x in lines[:k]))
        end = lines[k:]
    else:
        lines = data.split(b"\n")
        assert lines[0].rstrip(b"\r") == b"#tagk-stream: 2", lines[0]
        for i, name in enumerate(split_names(lines[1].rstrip(b"\r"))):
            s.text(i, name)
        end = []
        for line in lines[2:]:
            line = line.rstrip(b"\r")
            if line.startswith(b"#tagk-"):
                end.append(line)
                continue
            if not line:
                continue
            for i, cell in enumerate(line.split(b",")):
                s.text(i, cell)
            s.row()
    mark = [x for x in end if x.startswith(b"#tagk-end:")][0]
    return s.value() if got is None else got, int(mark.split()[-1], 16)


def record_ends(data):
    """The byte offsets of a version 4 binary stream's records: where the
    first begins, then where each ends."""
    nl1 = data.index(b"\n")
    n = int(data[:nl1].split()[3])
    p = data.index(b"\n", data.index(b"\n", nl1 + 1) + 1) + 1
    nw = (n + 31) // 32
    ends = [p]
    while data[p:p + 8] != b"\xff" * 8:
        words = struct.unpack("<%dQ" % nw, data[p:p + 8 * nw])
        p += 8 * nw + 8 * sum(((w >> (2 * i)) & 3) == 1 for w in words for i in range(32))
        ends.append(p)
    return ends


if __name__ == "__main__":
    if sys.argv[1] == "--ends":
        print(" ".join(map(str, record_ends(open(sys.argv[2], "rb").read()))))
        sys.exit(0)
    got, carried = check_of(open(sys.argv[1], "rb").read())
    print("%016x %016x" % (got, carried))
