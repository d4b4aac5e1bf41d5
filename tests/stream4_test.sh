#!/bin/sh
# stream4_test.sh: version 4 of tagk's binary stream (tagk-formats(5),
# formats/binary.h): each row only what changed since the row before, so
# that a sample of tagk-regress's rigid-body stream takes at most half of
# version 3's 1104 bytes; every command writes and reads it, a malformed
# mask is refused in one line, and versions 2 and 3 are refused with the
# conversion named. Streams are checked against tests/streamsum.py, an
# encoder and decoder written from the manual, apart from tagk's.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate F=$BIN/tagk-filter P=$BIN/tagk-report S=$BIN/tagk-bench
PY=/usr/bin/python3
if ! $PY -c 'import xxhash' 2>/dev/null; then
	echo "skip stream4_test.sh: no $PY with python3-xxhash"
	exit 0
fi
export PYTHONPATH=tests

# --- the size of a sample ----------------------------------------------------
$R --stream binary datasets/synth-payload.csv > "$tmp/reg.bin"
$R --stream csv datasets/synth-payload.csv > "$tmp/reg.csv"
# bytes of records over samples (6 rows each), from the decoder's offsets
per_sample() {
	$PY -c '
import sys, streamsum
e = streamsum.record_ends(open(sys.argv[1], "rb").read())
print(round((e[-1] - e[0]) / ((len(e) - 1) / 6)))' "$1"
}
b=$(per_sample "$tmp/reg.bin")
echo "     synth-payload.csv: $b bytes a sample of 6 rigid-body rows (version 3: 1104)"
check "a sample of tagk-regress's rigid-body stream: at most 552 bytes (half of 1104)" test "$b" -le 552
check "... and the same numbers as the CSV stream, decoded apart from tagk" $PY -c '
import sys, csv, streamsum
b = open(sys.argv[1], "rb").read()
e = streamsum.record_ends(b)
rows, _ = streamsum.decode4(b[e[0]:], 23)
ref = [r for r in csv.reader(open(sys.argv[2])) if not r[0].startswith("#")][1:]
assert len(rows) == len(ref) == 6000
assert all(float(x) == y for r, q in zip(ref, rows) for x, y in zip(r, q))' "$tmp/reg.bin" "$tmp/reg.csv"
$R -m mass --stream binary datasets/synth-payload.csv > "$tmp/mass.bin"
b=$($PY -c '
import sys, streamsum
e = streamsum.record_ends(open(sys.argv[1], "rb").read())
print(round((e[-1] - e[0]) / (len(e) - 1)))' "$tmp/mass.bin")
check "a mass row (t, row, Y_m, b and its truth): at most 32 bytes ($b; version 3: 40)" test "$b" -le 32

# --- every command writes version 4 ------------------------------------------
$E -a rls --every 1 --stream binary "$tmp/reg.bin" > "$tmp/est.bin" 2>/dev/null
$F --stream binary --from 1 "$tmp/reg.bin" > "$tmp/fil.bin"
$S synth --duration 0.5 --stream binary > "$tmp/syn.bin" 2>/dev/null
for f in reg est fil syn; do
	check "$f.bin: version 4" sh -c "head -1 '$tmp/$f.bin' | LC_ALL=C grep -aq '^.TAGK 4 f64le [0-9]* *\$'"
	check "$f.bin: its records are tests/streamsum.py's encoding of its rows, and its check value" $PY -c '
import sys, streamsum
b = open(sys.argv[1], "rb").read()
e = streamsum.record_ends(b)
n = int(b[:b.index(b"\n")].split()[3])
rows, k = streamsum.decode4(b[e[0]:], n)
assert streamsum.encode4(rows, n) == b[e[0]:e[-1]]
got, carried = streamsum.check_of(b)
assert got == carried' "$tmp/$f.bin"
done
$E -a rls --every 1 --stream csv "$tmp/reg.csv" > "$tmp/est-csv.csv" 2>/dev/null
$F --stream csv "$tmp/est.bin" > "$tmp/est-bin.csv"
check "tagk-estimate's version 4 stream, back to CSV: its CSV stream" cmp -s "$tmp/est-csv.csv" "$tmp/est-bin.csv"

# --- streams written by hand (tests/streamsum.py) ----------------------------
# stream NAME NAMES ROWS: a version 4 stream of ROWS (a Python expression)
stream() {
	$PY -c '
import sys, streamsum
names = sys.argv[1].split(",")
rows = eval(sys.argv[2])
sys.stdout.buffer.write(streamsum.binary_stream(names, rows))' "$2" "$3" > "$tmp/$1"
}
# raw NAME NAMES NROWS BODY: a stream whose records are BODY (a Python
# expression of bytes, with W(words...) and D(doubles...)), its check value right
raw() {
	$PY -c '
import sys, struct, xxhash
names = sys.argv[1].split(",")
W = lambda *w: struct.pack("<%dQ" % len(w), *w)
D = lambda *x: struct.pack("<%dd" % len(x), *x)
body = eval(sys.argv[3])
n = len(names)
nl = ",".join(names).encode(); units = b"," * (n - 1)
magic = ("\x93TAGK 4 f64le %d" % n).encode("latin-1")
while (len(magic) + len(nl) + len(units) + 3) % 8:
    magic += b" "
h = nl + b"\n" + units + b"\n" + body
r = int(sys.argv[2])
sys.stdout.buffer.write(magic + b"\n" + h + b"\xff" * 8 +
    b"#tagk-end: %d rows; check %016x\n" % (r, xxhash.xxh3_64_intdigest(h)))' "$2" "$3" "$4" > "$tmp/$1"
}
raw ok.bin t,m,b 2 'W(0b01_01_01) + D(0.5, 1, 2) + W(0b11_00_01) + D(0.75)'
expect "a stream written by hand: SAME, NEXT and VALUE read back" 0 "^0.75,1,3$" "" -- $F --stream csv "$tmp/ok.bin"
raw past.bin t,m,b 2 'W(0b01_01_01) + D(0.5, 1, 2) + W(0b01 << 6) + D(7)'
expect "a mask with a code past the last column: one line" 1 "" \
	"^tagk-filter: .*past.bin:row 2: a malformed record: its mask has codes past column 3$" -- $F --stream csv "$tmp/past.bin"
check "... one line only" test "$(wc -l < "$tmp/err")" -eq 1
raw same1.bin t,m,b 1 'W(0b01_00_01) + D(0.5, 2)'
expect "a first row with a column the same as the row before, which is none" 1 "" \
	"^tagk-filter: .*same1.bin:row 1: a malformed record: column 'm' refers to the row before, and there is none$" -- \
	$F "$tmp/same1.bin"
raw next1.bin t,m,b 1 'W(0b11_01_01) + D(0.5, 2)'
expect "a first row with a counter" 1 "" "next1.bin:row 1: a malformed record: column 'b' refers to the row before" -- \
	$F "$tmp/next1.bin"
raw ones.bin $(seq -s, -f 'c%g' 1 33) 1 'W(2**64 - 1, 0) + D(0)'
expect "a first mask word of all ones is the trailer: there, the stream has no end marker" 1 "" \
	"ones.bin: the stream was cut in its trailer, after 0 rows|a malformed trailer line" -- $F "$tmp/ones.bin"
raw cut.bin t,m,b 2 'W(0b01_01_01) + D(0.5, 1, 2) + W(0b01_00_01) + D(0.75)'
head -c $(($(wc -c < "$tmp/cut.bin") - 45 - 8 - 12)) "$tmp/cut.bin" > "$tmp/cut2.bin"
expect "cut in a row's values (its mask says 2, 1 is there)" 1 "" "cut2.bin: the stream was cut in the middle of row 2$" -- \
	$F "$tmp/cut2.bin"
# counters: 40 columns counting together, whose first word would be all ones
stream count.bin "$(seq -s, -f 'c%g' 1 40)" '[[float(k)] * 40 for k in range(5)]'
expect "40 counters: read back" 0 "^4(,4){39}$" "" -- sh -c "$F --stream csv '$tmp/count.bin' | grep -v '^#'"
$F --stream csv "$tmp/count.bin" | $F --stream binary > "$tmp/count2.bin"
check "... and written by tagk as tests/streamsum.py writes them (column 0 a value, not a counter)" \
	sh -c "tail -c +\$(($(head -1 "$tmp/count.bin" | wc -c) + 1)) '$tmp/count.bin' > '$tmp/c1' &&
	tail -c +\$(($(head -1 "$tmp/count2.bin" | wc -c) + 1)) '$tmp/count2.bin' | cmp -s - '$tmp/c1'"
# -0 and +0 differ in their bits: -0 is a VALUE, +0 a ZERO, each kept
printf 't,a\n0,-0\n1,0\n2,-0\n3,-0\n4,0\n' > "$tmp/zeros.csv"
$F --stream binary "$tmp/zeros.csv" > "$tmp/zeros.bin"
$F --stream csv "$tmp/zeros.csv" > "$tmp/zeros1.csv"
$F --stream csv "$tmp/zeros.bin" > "$tmp/zeros2.csv"
check "-0 and 0 through version 4: the CSV stream" cmp -s "$tmp/zeros1.csv" "$tmp/zeros2.csv"
check "... decoded apart from tagk: each zero's sign kept" $PY -c '
import sys, math, streamsum
b = open(sys.argv[1], "rb").read()
e = streamsum.record_ends(b)
rows, _ = streamsum.decode4(b[e[0]:], 2)
assert [math.copysign(1, r[1]) for r in rows] == [-1, 1, -1, -1, 1], rows' "$tmp/zeros.bin"
# empty cells (NaN) and a counter after one, written by hand: skipped
# where wanted, the rows around them right
stream holes.bin t,a,b '[[0, 1, 5], [1, float("nan"), 5], [2, 3, 6], [3, float("nan"), 7], [4, 4, 7]]'
expect "empty cells in version 4: refused where wanted" 1 "" "holes.bin:row 2: column 'a': empty cell" -- $F "$tmp/holes.bin"
expect "... skipped with --skip-bad, the other rows as written" 0 "" "skipped 2 bad rows" -- \
	sh -c "$F --skip-bad --stream csv '$tmp/holes.bin' | grep -v '^#' | tr '\\n' ';' | grep -qx 't,a,b;0,1,5;2,3,6;4,4,7;' || echo wrong"

# --- versions 2 and 3: refused, the conversion named -------------------------
$PY -c '
import sys, streamsum
b = open(sys.argv[1], "rb").read()
e = streamsum.record_ends(b)
nl = b.index(b"\n")
names = b[nl + 1:b.index(b"\n", nl + 1)].decode().split(",")
rows, _ = streamsum.decode4(b[e[0]:], 23)
sys.stdout.buffer.write(streamsum.binary_stream(names, rows, version=3))' "$tmp/reg.bin" > "$tmp/v3.bin"
for c in "$E" "$P" "$F" "$R -m mass"; do
	expect "$(basename "${c%% *}") refuses version 3 in one line, naming tagk-filter --old-stream" 1 "" \
		"^tagk-[a-z]*: .*v3.bin: a tagk binary stream of version 3, which this tagk reads only to convert it: tagk-filter --old-stream .*v3.bin --stream binary -o NEW \(or > NEW.csv\)$" -- \
		$c "$tmp/v3.bin"
done
$F --old-stream --stream binary -o "$tmp/v4.tkb" "$tmp/v3.bin"
check "tagk-filter --old-stream --stream binary -o: version 3 to version 4, tagk-regress's bytes" cmp -s "$tmp/v4.tkb" "$tmp/reg.bin"
expect "... and the converted stream reads everywhere" 0 "*" "" -- $E -a rls -q "$tmp/v4.tkb"
expect "tagk-filter --old-stream reads version 4 as well" 0 "*" "" -- $F --old-stream -o "$tmp/v4back.csv" "$tmp/reg.bin"
check "... the CSV stream" cmp -s "$tmp/v4back.csv" "$tmp/reg.csv"
finish
