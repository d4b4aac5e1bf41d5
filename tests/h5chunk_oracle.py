"""h5chunk_oracle.py: HDF5 files for tests/h5chunk_test.sh, written by
h5py, and the check of what tagk read from them against h5py's reading.

  gen DIR          write the files (below) into DIR
  seeds DIR        small files of the same kinds (under 8 kB each), seeds
                   for the HDF5 fuzz harness (tests/fuzz/corpus/hdf5/chunks-*)
  check H5 CSV     every column of CSV (tagk-filter --stream csv H5) equal,
                   bit for bit, to the dataset h5py reads, as float64

The files cover the layouts and types the reader's direct chunk path
(formats/h5chunk.h) decodes, and the ones it must leave to H5Dread: each
has a time column t and signals of N rows whose chunks end inside, on and
across the reader's 4096-row blocks. h5py reads through numpy's own
conversions (astype), not libhdf5's into a double, and owes nothing to
tagk's code.
"""
import sys
import zlib

import h5py
import numpy as np

N = 9001  # two whole 4096-row blocks and a part; no chunk size below divides it


def values(rng, dtype, n):
    """n values of dtype: random over its range, with its extremes, zeros
    of both signs and (floats) subnormals among them."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        fi = np.finfo(dt)
        v = (rng.standard_normal(n) * rng.choice([1e-3, 1.0, 1e6], n)).astype(dt)
        special = [0.0, -0.0, fi.max, -fi.max, fi.tiny, fi.smallest_subnormal, -fi.smallest_subnormal, 1.0 / 3]
    else:
        ii = np.iinfo(dt)
        lo, hi = max(ii.min, -(1 << 53)), min(ii.max, 1 << 53)
        v = rng.integers(lo, hi, n, dtype=np.int64, endpoint=True).astype(dt)
        special = [0, lo, hi, 1]
    v[: len(special)] = np.array(special).astype(dt)
    v[-len(special):] = np.array(special).astype(dt)
    return v


def signals(f, rng, n=N, **kw):
    """The common set: t, and f64 signals chunked 7 (not dividing a
    block), 1024 (dividing it), 4096 (one a block), 5000 (across blocks)
    and n (one chunk), an f32 one, and an N x 3 one chunked by whole rows."""
    f.create_dataset("t", data=np.arange(n) * 0.01, chunks=(4096,), **kw)
    for c in (7, 1024, 4096, 5000, n):
        f.create_dataset("f64_c%d" % c, data=values(rng, "<f8", n), chunks=(c,), **kw)
    f.create_dataset("f32_c300", data=values(rng, "<f4", n), chunks=(300,), **kw)
    f.create_dataset("m", data=values(rng, "<f8", 3 * n).reshape(n, 3), chunks=(64, 3), **kw)


def gen_fill(d, rng):
    # chunks allocated when the dataset is made, filled with 2.5, only
    # the first 3000 rows written: the rest read as the fill value
    with h5py.File(d + "/fill-early.h5", "w") as f:
        f.create_dataset("t", data=np.arange(N) * 0.01, chunks=(512,))
        sid = h5py.h5s.create_simple((N,))
        dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
        dcpl.set_chunk((512,))
        dcpl.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
        dcpl.set_fill_time(h5py.h5d.FILL_TIME_ALLOC)
        dcpl.set_fill_value(np.array(2.5))
        ds = h5py.Dataset(h5py.h5d.create(f.id, b"x", h5py.h5t.IEEE_F64LE, sid, dcpl=dcpl))
        ds[:3000] = values(rng, "<f8", 3000)
    # the default for chunks (incremental allocation): chunks never
    # written are not in the file (tagk refuses such a dataset by name)
    with h5py.File(d + "/fill-unallocated.h5", "w") as f:
        f.create_dataset("t", data=np.arange(N) * 0.01, chunks=(512,))
        ds = f.create_dataset("x", shape=(N,), dtype="<f8", chunks=(512,), fillvalue=2.5)
        ds[:3000] = values(rng, "<f8", 3000)


def direct_chunks(d, name, compress, chunk_bytes, mask=0):
    """A 1-D f64 dataset x of 64 rows in 16-row chunks whose second chunk
    is written as the given bytes (H5Dwrite_chunk), filter mask mask."""
    with h5py.File(d + "/" + name, "w") as f:
        f.create_dataset("t", data=np.arange(64) * 0.01)
        kw = {"compression": "gzip"} if compress else {}
        ds = f.create_dataset("x", data=np.arange(64.0), chunks=(16,), **kw)
        ds.id.write_direct_chunk((16,), chunk_bytes, mask)


def gen(d):
    rng = np.random.default_rng(57)
    with h5py.File(d + "/contiguous.h5", "w") as f:
        f["t"] = np.arange(N) * 0.01
        f["a"] = values(rng, "<f8", N)
        f["b"] = values(rng, "<f4", N)
    with h5py.File(d + "/chunked.h5", "w") as f:
        signals(f, rng)
    with h5py.File(d + "/deflate.h5", "w") as f:
        signals(f, rng, compression="gzip", compression_opts=6)
    with h5py.File(d + "/shuffle-deflate.h5", "w") as f:
        signals(f, rng, compression="gzip", shuffle=True)
        f.create_dataset("i16", data=values(rng, "<i2", N), chunks=(333,), compression="gzip", shuffle=True)
    with h5py.File(d + "/shuffle.h5", "w") as f:
        signals(f, rng, shuffle=True)
    with h5py.File(d + "/partial.h5", "w") as f:  # 1000 rows, chunks of 300: the last holds 100
        f.create_dataset("t", data=np.arange(1000) * 0.01, chunks=(300,))
        f.create_dataset("x", data=values(rng, "<f8", 1000), chunks=(300,))
        f.create_dataset("y", data=values(rng, "<f4", 1000), chunks=(300,), compression="gzip")
    with h5py.File(d + "/f32.h5", "w") as f:
        f.create_dataset("t", data=(np.arange(N) * 0.01).astype("<f4"), chunks=(100,))
        for c in (7, 4096, 5000):
            f.create_dataset("f32_c%d" % c, data=values(rng, "<f4", N), chunks=(c,))
        f.create_dataset("m", data=values(rng, "<f4", 2 * N).reshape(N, 2), chunks=(128, 2), compression="gzip")
    with h5py.File(d + "/bigendian.h5", "w") as f:
        f.create_dataset("t", data=(np.arange(N) * 0.01).astype(">f8"), chunks=(256,))
        f.create_dataset("be_f64", data=values(rng, ">f8", N), chunks=(256,))
        f.create_dataset("be_f32", data=values(rng, ">f4", N), chunks=(256,), compression="gzip")
        f.create_dataset("be_i32", data=values(rng, ">i4", N), chunks=(256,))
    with h5py.File(d + "/ints.h5", "w") as f:
        f.create_dataset("t", data=np.arange(N) * 0.01, chunks=(1000,))
        for dt in ("<i1", "<u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8"):
            f.create_dataset("int_" + dt[1:], data=values(rng, dt, N), chunks=(1000,))
    with h5py.File(d + "/rowchunks.h5", "w") as f:  # N x 3 in chunks of one column: H5Dread
        f.create_dataset("t", data=np.arange(N) * 0.01)
        f.create_dataset("m", data=values(rng, "<f8", 3 * N).reshape(N, 3), chunks=(100, 1))
    gen_fill(d, rng)
    raw = np.arange(16.0, 32.0).tobytes()
    # a chunk of a deflate dataset stored unfiltered (filter mask 1): valid
    direct_chunks(d, "masked.h5", True, raw, 1)
    # damaged chunks
    direct_chunks(d, "bad-deflate.h5", True, b"\x78\x9c" + bytes(range(7, 90)))
    direct_chunks(d, "short-deflate.h5", True, zlib.compress(raw[:64]))
    direct_chunks(d, "long-deflate.h5", True, zlib.compress(raw + raw))
    direct_chunks(d, "truncated-deflate.h5", True, zlib.compress(raw)[:40])
    direct_chunks(d, "short-raw.h5", False, raw[:64])


def seeds(d):
    """Small files whose datasets take the direct chunk path, and damaged
    chunks, for the fuzzer to mutate (tests/fuzz/corpus/hdf5)."""
    rng = np.random.default_rng(58)
    n = 40
    for name, kw in (("unfiltered", {}), ("deflate", {"compression": "gzip"}),
                     ("shuffle-deflate", {"compression": "gzip", "shuffle": True})):
        with h5py.File("%s/chunks-%s.h5" % (d, name), "w", libver="latest") as f:
            f.create_dataset("t", data=np.arange(n) * 0.01, chunks=(16,), **kw)
            f.create_dataset("x", data=values(rng, "<f8", n), chunks=(7,), **kw)
            f.create_dataset("y", data=values(rng, "<f4", n), chunks=(16,), **kw)
            f.create_dataset("i", data=values(rng, "<i2", n), chunks=(16,), **kw)
            f.create_dataset("m", data=values(rng, "<f8", 2 * n).reshape(n, 2), chunks=(8, 2), **kw)
    raw = np.arange(16.0, 32.0).tobytes()
    direct_chunks(d, "chunks-bad-deflate.h5", True, b"\x78\x9c" + bytes(range(7, 90)))
    direct_chunks(d, "chunks-short-deflate.h5", True, zlib.compress(raw[:64]))
    direct_chunks(d, "chunks-masked.h5", True, raw, 1)


def column(f, name):
    if name in f:
        return f[name][...]
    base, j = name.rsplit(".", 1)
    return f[base][...][:, int(j)]


def check(h5, csv):
    rows = [line.rstrip("\n").split(",") for line in open(csv) if not line.startswith("#")]
    head, body = rows[0], rows[1:]
    bad = 0
    with h5py.File(h5, "r") as f:
        for i, name in enumerate(head):
            want = column(f, name).astype(np.float64)
            got = np.array([float(r[i]) for r in body])
            if len(got) != len(want):
                print("%s: column %s: %d rows, h5py reads %d" % (h5, name, len(got), len(want)))
                bad += 1
                continue
            diff = np.nonzero(got.view(np.uint64) != want.view(np.uint64))[0]
            if len(diff):
                k = diff[0]
                print("%s: column %s row %d: tagk %r, h5py %r (%d rows differ)" % (h5, name, k, got[k], want[k], len(diff)))
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    elif sys.argv[1] == "seeds":
        seeds(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))
