#!/bin/sh
# pipeline_hdf5_test.sh: HDF5 logs: the reader's shared slots and pipe, damaged files,
# libhdf5 loaded at first use, h5py's layout, wide rows.
# One theme of the pipeline battery (tests/pipeline_*_test.sh): the real
# binaries composed as a user would, over tests/lib.sh's pipeline_setup.
set -u
BIN=${BIN:-bin}
MKFIX=${MKFIX:-build/mkfixtures}
. "$(dirname "$0")/lib.sh"
pipeline_setup

$S synth --duration 2 -o "$tmp/syn.h5"
# a log long enough that the HDF5 reader's child fills each of the two
# slots it shares with this process four times (8 blocks, the last one
# partial): the same rows as the same log read as CSV
$S synth --samples 30000 --seed 7 -o "$tmp/long.h5"
$S synth --samples 30000 --seed 7 -o "$tmp/long30k.csv"
$R --stream csv "$tmp/long.h5" > "$tmp/long-h5.out" 2> /dev/null
$R --stream csv "$tmp/long30k.csv" > "$tmp/long-csv.out" 2> /dev/null
check "a 30000-sample HDF5 log (6 MB through the reader's shared slots) gives the rows of the same log as CSV" \
	cmp "$tmp/long-h5.out" "$tmp/long-csv.out"
check "... all 180000 of them" test "$(plain "$tmp/long-h5.out" | wc -l)" -eq 180001
# a table of 200 columns, too wide for a shared slot's block: its rows
# through the pipe instead,
# the same as the CSV it was written from
awk 'BEGIN { for (j = 1; j <= 200; j++) printf "%sc%d", (j > 1 ? "," : ""), j; print "";
	for (i = 0; i < 9000; i++) { for (j = 1; j <= 200; j++) printf "%s%d", (j > 1 ? "," : ""), i * 1000 + j; print "" } }' \
	> "$tmp/wide.csv"
$F "$tmp/wide.csv" -o "$tmp/wide.h5"
check "a 200-column HDF5 table (through the reader's pipe) gives the rows of its CSV" \
	sh -c "$F --stream csv '$tmp/wide.h5' | grep -v '^#' > '$tmp/wide-h5.out' && cmp '$tmp/wide-h5.out' '$tmp/wide.csv'"
head -c 1500 "$tmp/syn.h5" > "$tmp/trunc.h5"
expect "truncated HDF5 file" 1 "" "trunc.h5: not a readable HDF5 file \(truncated or damaged\?\)" -- $R "$tmp/trunc.h5"
expect "wrong dataset shape (3-D)" 1 "" "rank3.h5: dataset 'cube' has 3 dimensions" -- $R "$tmp/rank3.h5"
expect "datasets of different lengths" 1 "" "lengths.h5: dataset 't' has 40 rows but 'short' has 35" -- $R "$tmp/lengths.h5"
# libhdf5 is loaded when HDF5 is first read or written (formats/h5load.c),
# not linked: no command maps its thirty-odd libraries at start
if command -v readelf > /dev/null; then
	check "no command links libhdf5 (readelf: NEEDED)" sh -c \
		"! readelf -d $R $E $F $P $S | grep 'NEEDED.*hdf5'"
fi
expect "HDF5 read without a loadable libhdf5: the file and why, nothing written" 1 "" \
	"^tagk-regress: .*syn.h5: cannot load the HDF5 library \(/nonexistent/libhdf5.so: .*apt-get install libhdf5" -- \
	env TAGK_HDF5_LIB=/nonexistent/libhdf5.so $R "$tmp/syn.h5"
expect "... written: the file named, none left behind" 1 "" \
	"^tagk-regress: .*nolib.h5: cannot load the HDF5 library" -- \
	env TAGK_HDF5_LIB=/nonexistent/libhdf5.so $R "$tmp/small.csv" -o "$tmp/nolib.h5"
check "... (no nolib.h5)" test ! -e "$tmp/nolib.h5"
expect "... a library that is not HDF5's (libz)" 1 "" "syn.h5: libz.so.1 has no symbol H5Aclose" -- \
	env TAGK_HDF5_LIB=libz.so.1 $F "$tmp/syn.h5"
# another HDF5 version: a stand-in library with every symbol h5load.h
# lists, whose H5get_libversion says 9.8.7, is refused before any use
# (libhdf5's own check would abort)
if command -v "${CC:-cc}" > /dev/null; then
	{
		grep -o 'X(H5[A-Za-z0-9_]*)' "$(dirname "$0")/../formats/h5load.h" | sed 's/X(\(.*\))/\1/' |
			grep -vx H5get_libversion | sed 's/.*/int &(void); int &(void) { return 0; }/'
		echo 'int H5get_libversion(unsigned *a, unsigned *b, unsigned *c);'
		echo 'int H5get_libversion(unsigned *a, unsigned *b, unsigned *c) { *a = 9; *b = 8; *c = 7; return 0; }'
	} > "$tmp/fakeh5.c"
	"${CC:-cc}" -shared -fPIC -o "$tmp/libfakeh5.so" "$tmp/fakeh5.c"
	expect "... an HDF5 of another version: both versions named" 1 "" \
		"syn.h5: .*libfakeh5.so is HDF5 9.8.7; tagk was built with HDF5 [0-9]+\.[0-9]+\.[0-9]+$" -- \
		env TAGK_HDF5_LIB="$tmp/libfakeh5.so" $R "$tmp/syn.h5"
fi

# --- formats ---------------------------------------------------------------
$S synth --duration 2 > "$tmp/syn2.csv"
$F "$tmp/syn.h5" > "$tmp/from_h5.csv"
check "HDF5 written and read back equals its CSV form" cmp -s "$tmp/from_h5.csv" "$tmp/syn2.csv"
$R "$tmp/syn.csv" -o "$tmp/reg.h5" && $E "$tmp/reg.h5" > "$tmp/e1.csv"
$R "$tmp/syn.csv" | $E > "$tmp/e2.csv"
check "a regressor stream through HDF5 gives the same estimates" cmp -s "$tmp/e1.csv" "$tmp/e2.csv"
expect "h5py layout: N x 3 datasets and a columns attribute" 0 "^ax,ay,az,gyro.0,gyro.1,gyro.2,t$" "" -- \
	sh -c "$F '$tmp/h5py.h5' | sed -n 2p"
# a row wider than the HDF5 reader's by-reference slot (36001 columns,
# 288 kB a row) goes to the pipe by copy: it crashed the child once
if /usr/bin/python3 -c 'import h5py, numpy' 2>/dev/null; then
	/usr/bin/python3 -c 'import h5py, numpy as np, sys
with h5py.File(sys.argv[1], "w") as f:
    f["t"] = np.arange(20.0)
    for k in range(9):
        f["x%d" % k] = np.full((20, 4000), float(k))' "$tmp/wide.h5"
	$F --stream csv "$tmp/wide.h5" 2> "$tmp/wide.err" | grep -v '^#' > "$tmp/wide.csv"
	check "a 36001-column HDF5 log: all 20 rows, each ending in the last dataset's value" awk -F, '
		NR > 1 { n++; if (NF != 36001 || $NF != 8) bad = 1 } END { exit bad || n != 20 }' "$tmp/wide.csv"
	# chunk layouts: rows straddling chunks, chunks straddling the
	# reader's 4096-row blocks (read through libhdf5's chunk cache) and
	# chunks inside them (read without it), compressed or not, float32, an
	# N x 4 signal in (4096, 2) chunks: every value as h5py reads it
	for lay in c1000 c4096 c2048 c10000 contig gz1000 gz4096 gzall f32; do
		/usr/bin/python3 -c 'import h5py, numpy as np, sys
lay = sys.argv[2]; n = 12289
kw = {"c1000": {"chunks": (1000,)}, "c4096": {"chunks": (4096,)}, "c2048": {"chunks": (2048,)},
    "c10000": {"chunks": (10000,)}, "contig": {}, "gz1000": {"chunks": (1000,), "compression": "gzip"},
    "gz4096": {"chunks": (4096,), "compression": "gzip"}, "gzall": {"chunks": (n,), "compression": "gzip"},
    "f32": {"chunks": (4096,)}}[lay]
dt = "f4" if lay == "f32" else "f8"
rng = np.random.default_rng(7)
with h5py.File(sys.argv[1], "w") as f:
    f.create_dataset("t", data=(np.arange(n) * 0.01).astype(dt), **kw)
    f.create_dataset("x", data=rng.standard_normal(n).astype(dt), **kw)
    kw2 = dict(kw, chunks=(kw["chunks"][0], 2)) if "chunks" in kw else kw
    f.create_dataset("q", data=rng.standard_normal((n, 4)).astype(dt), **kw2)' "$tmp/lay.h5" $lay
		$F --stream csv "$tmp/lay.h5" > "$tmp/lay.csv" 2> "$tmp/lay.err"
		check "HDF5 chunks '$lay': all 12289 rows, every value as h5py reads it" /usr/bin/python3 -c 'import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
want = np.column_stack([f["t"][:].astype("f8"), f["x"][:].astype("f8"), f["q"][:].astype("f8")])
lines = [l for l in open(sys.argv[2]) if not l.startswith("#")]
head = lines[0].strip().split(",")
got = np.array([[float(v) for v in l.split(",")] for l in lines[1:]])
order = [head.index(c) for c in ("t", "x", "q.0", "q.1", "q.2", "q.3")]
sys.exit(not (got.shape == (12289, 6) and np.array_equal(got[:, order], want)))' "$tmp/lay.h5" "$tmp/lay.csv"
	done
	# h5py's complex numbers are a compound of r and i: named by their
	# dataset, two of them are two pairs of columns, not a clash of r and i
	/usr/bin/python3 -c 'import h5py, numpy as np, sys
with h5py.File(sys.argv[1], "w") as f:
    f["t"] = np.arange(4.0)
    f["z"] = np.arange(4) * (1 + 2j)
    f["w"] = np.arange(4) * (3 - 1j)' "$tmp/cplx.h5"
	expect "two h5py complex datasets: columns z.r, z.i, w.r, w.i with their values" 0 "^3,9,-3,3,6$" "" -- \
		sh -c "$F --stream csv '$tmp/cplx.h5' | grep -v '^#' | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
			{ l = \$(c[\"t\"]) \",\" \$(c[\"w.r\"]) \",\" \$(c[\"w.i\"]) \",\" \$(c[\"z.r\"]) \",\" \$(c[\"z.i\"]) } END { print l }'"
	# HDF5 rows are checked after they are read (tbl_next): a NaN or an
	# Inf in a column the command wants is the row's error, named, or
	# skipped with --skip-bad; one in a column it does not want is not
	/usr/bin/python3 -c 'import h5py, numpy as np, sys
n = 12
with h5py.File(sys.argv[1], "w") as f:
    f["t"] = np.arange(n) * 0.01
    for k in ("ax", "ay", "az", "gx", "gy", "gz", "alx", "aly", "alz", "fx", "fy", "fz", "tx", "ty", "tz", "extra"):
        f[k] = np.full(n, 0.5)
    f["az"][:] = 9.81
    f["ay"][4] = np.nan
    f["gz"][8] = -np.inf
    f["extra"][2] = np.nan' "$tmp/holes.h5"
	expect "a NaN in a wanted HDF5 column: its row and column named" 1 "" \
		"holes.h5:row 5: column 'ay': NaN \(--skip-bad skips such rows\)" -- $R "$tmp/holes.h5"
	expect "... an Inf after it, with --skip-bad: both rows skipped and counted" 0 "" \
		"skipped 2 bad rows" -- sh -c "$R --skip-bad '$tmp/holes.h5' > /dev/null"
	expect "... the mass model, which does not read the gyro: only the NaN's row skipped (11 samples, 3 rows each)" \
		0 "^33$" "skipped 1 bad row" -- sh -c "$R --skip-bad -m mass --stream csv '$tmp/holes.h5' | grep -vc '^[#t]'"
else
	echo "skip the 36001-column HDF5 log: /usr/bin/python3 with h5py and numpy is not installed"
fi

finish
