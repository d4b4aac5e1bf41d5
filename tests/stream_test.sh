#!/bin/sh
# stream_test.sh: tagk's binary stream between commands (tagk-formats(5)):
# the same numbers as CSV, chosen only when tagk reads the pipe, and every
# way of cutting or altering it refused. Everything happens inside this
# script's temporary directory.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate F=$BIN/tagk-filter P=$BIN/tagk-report S=$BIN/tagk-bench
PY=/usr/bin/python3

$S synth --duration 3 --seed 5 --noise-acc 0.05 -o "$tmp/syn.csv" || { echo "FAIL synth"; exit 1; }
$R --stream csv "$tmp/syn.csv" > "$tmp/reg.csv"
$R --stream binary "$tmp/syn.csv" > "$tmp/reg.bin"

# --- the same numbers, bit for bit -----------------------------------------
check "the binary stream starts with its magic line" sh -c "head -c 5 '$tmp/reg.bin' | od -An -c | grep -q '223   T   A   G   K'"
check "its records start at a multiple of 8 bytes" sh -c \
	"n=\$(head -3 '$tmp/reg.bin' | wc -c); test \$((n % 8)) -eq 0"
check "its third line gives the units" sh -c "sed -n 3p '$tmp/reg.bin' | grep -q '^s,1,,,,,,,,,,,,kg,kg m,kg m,kg m,kg m^2,'"
$F -o "$tmp/conv.csv" < "$tmp/reg.bin"
check "tagk-filter -o x.csv turns it into the CSV stream, byte for byte" cmp -s "$tmp/conv.csv" "$tmp/reg.csv"
for a in tagk rls-low kf-low; do
	$E -a $a --every 1 "$tmp/reg.csv" > "$tmp/est-$a.csv" 2>/dev/null
	$E -a $a --every 1 "$tmp/reg.bin" > "$tmp/est-$a.bin.csv" 2>/dev/null
	check "$a: the same estimates from either stream" cmp -s "$tmp/est-$a.csv" "$tmp/est-$a.bin.csv"
done
$R "$tmp/syn.csv" | $E -a rls-low --every 1 | $P > "$tmp/rep-auto.txt"
$R --stream csv "$tmp/syn.csv" | $E -a rls-low --every 1 --stream csv | $P > "$tmp/rep-csv.txt"
check "regress | estimate | report: the same report whichever stream" cmp -s "$tmp/rep-auto.txt" "$tmp/rep-csv.txt"
$R --stream binary -o "$tmp/reg.bin.gz" "$tmp/syn.csv"
$E -a tagk --every 1 "$tmp/reg.bin.gz" > "$tmp/est-gz.csv" 2>/dev/null
check "a gzip-compressed binary stream reads back the same" cmp -s "$tmp/est-gz.csv" "$tmp/est-tagk.csv"
$S synth --duration 1 --stream binary > "$tmp/syn.bin"
$S synth --duration 1 --stream csv | $R > "$tmp/a.csv"
$R "$tmp/syn.bin" > "$tmp/b.csv"
check "tagk-bench synth --stream binary, read by tagk-regress" cmp -s "$tmp/a.csv" "$tmp/b.csv"

# --- auto: binary only when tagk reads the pipe -----------------------------
# (the readers of a pipe are found through /proc: without it, CSV)
if [ -r /proc/self/stat ]; then
	expect "regress | estimate: the binary stream" 0 "" "stdin: a tagk binary stream" -- \
		sh -c "$R '$tmp/syn.csv' | $E -v > /dev/null"
else
	echo "skip regress | estimate choosing the binary stream: no /proc"
fi
expect "regress | cat | estimate: CSV" 0 "" "stdin: CSV" -- \
	sh -c "$R '$tmp/syn.csv' | cat | $E -v > /dev/null"
expect "regress | head: CSV, readable" 0 "^t,row,Y_m" "" -- sh -c "$R '$tmp/syn.csv' | head -2"
expect "estimate -f csv still reads a binary stream" 0 "" "stdin: a tagk binary stream" -- \
	sh -c "$R --stream binary '$tmp/syn.csv' | $E -f csv -v > /dev/null"
expect "--stream csv into tagk" 0 "" "stdin: CSV" -- \
	sh -c "$R --stream csv '$tmp/syn.csv' | $E -v > /dev/null"
expect "-o FILE: CSV by default" 0 "" "" -- $R "$tmp/syn.csv" -o "$tmp/reg-o.csv"
check "... byte for byte the CSV stream" cmp -s "$tmp/reg-o.csv" "$tmp/reg.csv"
expect "--stream binary onto a file named .csv" 2 "" "--stream binary: .*x.csv is named as CSV" -- \
	$R --stream binary -o "$tmp/x.csv" "$tmp/syn.csv"
expect "--stream binary onto a file named .h5" 2 "" "--stream binary: .*x.h5 is named as HDF5" -- \
	$R --stream binary -o "$tmp/x.h5" "$tmp/syn.csv"
expect "--stream: an unknown value" 2 "" "--stream: 'text' is not one of auto, csv, binary" -- \
	$R --stream text "$tmp/syn.csv"
# script(1) gives the command a terminal of its own, where it can open one
# (a chroot without devpts cannot)
if command -v script >/dev/null 2>&1 &&
	script -qec 'test -t 1 && echo a-terminal' /dev/null < /dev/null 2>/dev/null | grep -q a-terminal; then
	script -qec "$R --stream binary '$tmp/syn.csv'" /dev/null < /dev/null > "$tmp/tty.out" 2>&1
	check "--stream binary refuses a terminal" grep -q "standard output is a terminal" "$tmp/tty.out"
	# -o names the terminal through a link in this directory, never /dev itself
	ln -s /dev/stdout "$tmp/term"
	script -qec "$R --stream binary -o '$tmp/term' '$tmp/syn.csv'" /dev/null < /dev/null > "$tmp/tty3.out" 2>&1
	check "... and -o onto one" grep -q -- "--stream binary: .*term is a terminal" "$tmp/tty3.out"
	script -qec "$R '$tmp/syn.csv' | head -1" /dev/null < /dev/null > "$tmp/tty2.out" 2>&1
	check "auto writes CSV to a terminal's pipe into head" grep -q "^#tagk-stream: 3" "$tmp/tty2.out"
else
	echo "skip --stream binary onto a terminal: script(1) cannot open a terminal here"
fi

# --- cut, altered, joined, failed -----------------------------------------
size=$(wc -c < "$tmp/reg.bin")
# the trailer: eight 0xff bytes and "#tagk-end: 1800 rows; check HEX\n"
# (45 bytes, HEX 16 digits); a record: its mask word, then its values
# (version 4: where each record ends, from tests/streamsum.py's decoder)
head -c $((size - 10)) "$tmp/reg.bin" > "$tmp/cut-trailer.bin"
expect "cut in its trailer" 1 "" "cut-trailer.bin: the stream was cut in its trailer, after 1800 rows" -- $E "$tmp/cut-trailer.bin"
# end N: where record N ends (0: where the first begins)
end() {
	$PY tests/streamsum.py --ends "$tmp/reg.bin" | tr ' ' '\n' | sed -n "$(($1 + 1))p"
}
check "the records end where the trailer begins" test "$(end 1800)" -eq $((size - 53))
head -c "$(end 1795)" "$tmp/reg.bin" > "$tmp/cut-rows.bin"
expect "cut at a record boundary" 1 "" "cut-rows.bin: the stream was cut after 1795 rows: it ends without its end marker" -- \
	$E "$tmp/cut-rows.bin"
head -c $(($(end 1799) + 20)) "$tmp/reg.bin" > "$tmp/cut-mid.bin"
expect "cut inside a record" 1 "" "cut-mid.bin: the stream was cut in the middle of row 1800" -- $E "$tmp/cut-mid.bin"
head -c $(($(end 1799) + 4)) "$tmp/reg.bin" > "$tmp/cut-mask.bin"
expect "cut inside a record's mask" 1 "" "cut-mask.bin: the stream was cut in the middle of row 1800" -- $E "$tmp/cut-mask.bin"
head -c $((size - 53 - 4)) "$tmp/reg.bin" > "$tmp/cut-last.bin"
expect "cut 4 bytes short of its last record's end" 1 "" "cut-last.bin: the stream was cut in the middle of row 1800" -- \
	$E "$tmp/cut-last.bin"
head -c 100 "$tmp/reg.bin" > "$tmp/cut-head.bin"
expect "cut in its header" 1 "" "cut-head.bin: the stream was cut in its header" -- $E "$tmp/cut-head.bin"
sed 's/#tagk-end: 1800 rows/#tagk-end: 1799 rows/' "$tmp/reg.bin" > "$tmp/count.bin"
expect "an end marker that counts other rows" 1 "" "count.bin: the end marker counts 1799 rows but 1800 were read" -- \
	$E "$tmp/count.bin"
cat "$tmp/reg.bin" "$tmp/reg.bin" > "$tmp/twice.bin"
expect "two streams joined with cat" 1 "" "twice.bin: data after the stream's end marker" -- $E "$tmp/twice.bin"
check "the stream is of version 4" sh -c "head -1 '$tmp/reg.bin' | LC_ALL=C grep -aq '^.TAGK 4 f64le 23 *\$'"
sed '1s/TAGK 4 /TAGK 7 /' "$tmp/reg.bin" > "$tmp/v7.bin"
expect "another version" 1 "" "v7.bin: a tagk binary stream of version 7: this tagk reads version 4$" -- $E "$tmp/v7.bin"
sed '1s/TAGK 4 /TAGK 1 /' "$tmp/reg.bin" > "$tmp/v1.bin"
expect "version 1, which had no check value" 1 "" "v1.bin: a tagk binary stream of version 1: this tagk reads version 4 \(version 1 has no check value" -- $E "$tmp/v1.bin"
sed '1s/TAGK 4 /TAGK 3 /' "$tmp/reg.bin" > "$tmp/v4as3.bin"
expect "version 3, refused with the conversion named" 1 "" \
	"v4as3.bin: a tagk binary stream of version 3, which this tagk reads only to convert it: tagk-filter --old-stream .*v4as3.bin --stream binary -o NEW \(or > NEW.csv\)$" -- \
	$E "$tmp/v4as3.bin"
expect "... from standard input too, in one line" 1 "" \
	"^tagk-report: stdin: a tagk binary stream of version 3, which this tagk reads only to convert it: tagk-filter --old-stream - --stream binary -o NEW" -- \
	sh -c "$P < '$tmp/v4as3.bin'"
# the check value: a splice of two streams with the same columns and
# continuous time, whatever its row count, and an edited cell are refused
$S synth --duration 3 --seed 6 --noise-acc 0.05 -o "$tmp/syn6.csv"
$R --stream csv "$tmp/syn6.csv" > "$tmp/reg6.csv"
$R --stream binary "$tmp/syn6.csv" > "$tmp/reg6.bin"
{ head -n 902 "$tmp/reg.csv"; tail -n +903 "$tmp/reg6.csv"; } > "$tmp/splice.csv"
expect "a CSV stream spliced from two" 1 "" "splice.csv:1803: the stream's check value does not match its rows: it was altered, or spliced" -- \
	$E "$tmp/splice.csv"
e6=$($PY tests/streamsum.py --ends "$tmp/reg6.bin" | cut -d' ' -f901)
{ head -c "$(end 900)" "$tmp/reg.bin"; tail -c +$((e6 + 1)) "$tmp/reg6.bin"; } > "$tmp/splice.bin"
expect "a binary stream spliced from two" 1 "" "splice.bin: the stream's check value does not match" -- $E "$tmp/splice.bin"
awk -F, -v OFS=, 'NR == 500 { $13 = $13 "1" } { print }' "$tmp/reg.csv" > "$tmp/edited.csv"
expect "a CSV stream with one cell edited" 1 "" "edited.csv:1803: the stream's check value does not match" -- $E "$tmp/edited.csv"
sed '1s/: 3$/: 9/' "$tmp/reg.csv" > "$tmp/v9.csv"
expect "a CSV stream of another version" 1 "" "v9.csv:1: a tagk stream of version '9': this tagk reads versions 2 and 3$" -- $E "$tmp/v9.csv"
sed '1s/: 3$/: 2/' "$tmp/reg.csv" > "$tmp/v3as2.csv"
expect "a version 3 CSV stream relabelled 2 (its check value is not version 2's)" 1 "" \
	"v3as2.csv:1803: the stream's check value does not match" -- $E "$tmp/v3as2.csv"
# version 2 CSV streams (tagk before November 2026) are still read: the
# same lines with version 2's check value, written by tests/streamsum.py
PYTHONPATH=tests $PY -c 'import sys, streamsum; sys.stdout.buffer.write(streamsum.csv_v2(open(sys.argv[1], "rb").read()))' \
	"$tmp/reg.csv" > "$tmp/v2s.csv"
check "a version 2 CSV stream is still read: the same rows as from version 3" sh -c \
	"head -1 '$tmp/v2s.csv' | grep -qx '#tagk-stream: 2' && $F '$tmp/v2s.csv' | cmp -s - '$tmp/reg.csv'"
awk -F, -v OFS=, 'NR == 500 { $3 = $3 "1" } { print }' "$tmp/v2s.csv" > "$tmp/v2s-edited.csv"
expect "... and one with a cell edited is refused" 1 "" "v2s-edited.csv:1803: the stream's check value does not match" -- \
	$F "$tmp/v2s-edited.csv"
sed '1s/: 3$/: 1/' "$tmp/reg.csv" > "$tmp/v1.csv"
expect "a CSV stream of version 1" 1 "" "v1.csv:1: a tagk stream of version '1': .*delete its #tagk- lines" -- $E "$tmp/v1.csv"
sed 's/; check [0-9a-f]*$//' "$tmp/reg.csv" > "$tmp/nocheck.csv"
expect "an end marker without its check value" 1 "" "nocheck.csv:1803: a malformed end marker" -- $E "$tmp/nocheck.csv"
sed 's/\r*$/\r/' "$tmp/reg.csv" > "$tmp/crlf.csv"
expect "a CSV stream turned to CR LF line ends is still whole" 0 "*" "" -- $E -q "$tmp/crlf.csv"
tr '\n' '\r' < "$tmp/reg.csv" > "$tmp/cr.csv"
expect "... and to lone CRs (old Mac)" 0 "*" "" -- $E -q "$tmp/cr.csv"
sed 's/$/ /' "$tmp/reg.csv" > "$tmp/blank.csv"
expect "... but one with a blank added to each line is altered" 1 "" "blank.csv:1803: the stream's check value does not match" -- \
	$E "$tmp/blank.csv"
if [ -x $PY ] && $PY -c 'import xxhash' 2>/dev/null; then
	for f in reg.csv reg.bin conv.csv crlf.csv; do
		check "$f: its check value is the one an independent implementation computes (tests/streamsum.py)" \
			sh -c "$PY tests/streamsum.py '$tmp/$f' | awk '{ exit \$1 != \$2 }'"
	done
	# version 4's records, decoded by tests/streamsum.py apart from tagk's
	# reader, are the CSV stream's numbers; its encoder gives tagk's bytes
	check "version 4 decoded by tests/streamsum.py: the CSV stream's numbers, and encoded again, the same bytes" \
		env PYTHONPATH=tests $PY -c '
import sys, csv, streamsum
b = open(sys.argv[1], "rb").read()
e = streamsum.record_ends(b)
rows, n = streamsum.decode4(b[e[0]:], 23)
ref = [r for r in csv.reader(open(sys.argv[2])) if not r[0].startswith("#")][1:]
assert len(rows) == len(ref) == 1800 and n == e[-1] - e[0]
assert all(float(x) == y for r, q in zip(ref, rows) for x, y in zip(r, q))
assert streamsum.encode4(rows, 23) == b[e[0]:e[-1]]
' "$tmp/reg.bin" "$tmp/reg.csv"
	check "a sample of 6 rows of 23 columns: at most 552 bytes (half of version 3's 1104)" \
		test $(($(end 1800) - $(end 0))) -le $((552 * 300))
	# versions 2 and 3 (tagk before version 4) are read by tagk-filter
	# --old-stream only: the same records with their check value, written
	# by tests/streamsum.py
	for v in 2 3; do
		PYTHONPATH=tests $PY -c '
import sys, streamsum
b = open(sys.argv[1], "rb").read()
e = streamsum.record_ends(b)
nl = b.index(b"\n")
names = b[nl + 1:b.index(b"\n", nl + 1)].decode().split(",")
rows, _ = streamsum.decode4(b[e[0]:], 23)
sys.stdout.buffer.write(streamsum.binary_stream(names, rows, version=int(sys.argv[2])))
' "$tmp/reg.bin" $v > "$tmp/v$v.bin"
		expect "version $v is refused, the conversion named" 1 "" \
			"v$v.bin: a tagk binary stream of version $v, which this tagk reads only to convert it: tagk-filter --old-stream" -- \
			$E "$tmp/v$v.bin"
		check "tagk-filter --old-stream converts version $v to CSV: the CSV stream" \
			sh -c "$F --old-stream -o '$tmp/v$v.csv' < '$tmp/v$v.bin' && cmp -s '$tmp/v$v.csv' '$tmp/reg.csv'"
		check "... and to version 4: tagk-regress's bytes" \
			sh -c "$F --old-stream --stream binary -o '$tmp/v$v-4.tkb' '$tmp/v$v.bin' && cmp -s '$tmp/v$v-4.tkb' '$tmp/reg.bin'"
		LC_ALL=C sed '4s/^\(.\{40\}\)./\1\x01/' "$tmp/v$v.bin" > "$tmp/v$v-edited.bin"
		expect "... and one with a byte changed is refused" 1 "" "v$v-edited.bin: the stream's check value does not match" -- \
			$F --old-stream "$tmp/v$v-edited.bin"
	done
	# a record wider than the writer's 64 KiB buffer goes out in pieces,
	# and the reader grows its buffer: the check value is still that of
	# every byte, and the numbers come back as they were
	awk 'BEGIN { n = 9000; for (r = 0; r < 4; r++) { l = r; for (i = 1; i < n; i++) l = l "," (r * n + i) / 7;
		if (r == 0) { h = "t"; for (i = 1; i < n; i++) h = h ",c" i; print h } print l } }' > "$tmp/wide.csv"
	$F --stream binary "$tmp/wide.csv" > "$tmp/wide.bin"
	check "a binary stream of 72 KB records: its check value is the one tests/streamsum.py computes" \
		sh -c "$PY tests/streamsum.py '$tmp/wide.bin' | awk '{ exit \$1 != \$2 }'"
	check "... and back to CSV it is the CSV stream of the same file" sh -c \
		"$F --stream csv '$tmp/wide.csv' > '$tmp/wide1.csv' && $F -o '$tmp/wide2.csv' < '$tmp/wide.bin' && cmp -s '$tmp/wide1.csv' '$tmp/wide2.csv'"
else
	echo "skip the check values against tests/streamsum.py: no $PY with python3-xxhash"
fi
sed '2s/,b,/,b,extra,/' "$tmp/reg.bin" > "$tmp/names.bin"
expect "more names than columns" 1 "" "names.bin: the header declares 23 columns but names 24" -- $E "$tmp/names.bin"
sed '2s/,b,/,/' "$tmp/reg.bin" > "$tmp/fewer.bin"
expect "fewer names than columns" 1 "" "fewer.bin: the header declares 23 columns but names 22" -- $E "$tmp/fewer.bin"
# a late failure: the stream ends with its trailer and the error marker
$S synth --duration 60 --stream csv | grep -v '^#tagk-' > "$tmp/big.csv"
sed '5900s/^\([^,]*\),[^,]*/\1,nan/' "$tmp/big.csv" > "$tmp/bignan.csv"
$R --stream binary "$tmp/bignan.csv" > "$tmp/bigreg.bin" 2>/dev/null
check "a late failure ends the binary stream with the error marker" sh -c "tail -c 200 '$tmp/bigreg.bin' | grep -aq '#tagk-error: .*NaN'"
expect "... which the next command reports" 1 "" "the command upstream failed: .*bignan.csv:5900: column 'ax': NaN" -- \
	$E "$tmp/bigreg.bin"
# past the first MiB, rows to a pipe read by tagk are handed over by
# reference (vmsplice, formats/pipeout.h): the same numbers as through a file
$R --stream binary "$tmp/big.csv" > "$tmp/big.bin"
$E -a kf-low --every 1 "$tmp/big.bin" > "$tmp/big-file.csv" 2>/dev/null
$R "$tmp/big.csv" | $E -a kf-low --every 1 > "$tmp/big-pipe.csv" 2>/dev/null
check "a 6 MB stream through a pipe into tagk: the estimates from a file, byte for byte" \
	cmp -s "$tmp/big-pipe.csv" "$tmp/big-file.csv"
$R "$tmp/big.csv" | $F -o "$tmp/big-conv.csv"
$R --stream csv "$tmp/big.csv" > "$tmp/big-reg.csv"
check "... and tagk-filter -o x.csv at its end gives the CSV stream" cmp -s "$tmp/big-conv.csv" "$tmp/big-reg.csv"
expect "a late failure in such a pipe reaches the reader" 1 "" \
	"the command upstream failed: .*bignan.csv:5900: column 'ax': NaN" -- \
	sh -c "$R '$tmp/bignan.csv' 2>/dev/null | $E > /dev/null"
# a gate that rejects everything: the next command in the pipe gives its
# reasons whole (a long message is not cut)
expect "tagk-filter --physical rejecting every estimate: the report says why, in full" 1 "" \
	"the command upstream failed: .*rejected all 200 estimates: .*inertia not positive definite .*against --alpha [0-9.e-]+\)$" -- \
	sh -c "$R datasets/synth-payload-noisy.csv 2>/dev/null | $E -a tagk --raw -q 2>/dev/null | $F --physical 2>/dev/null | $P"
expect "an early failure leaves the binary stream empty" 1 "" "not a number" -- \
	sh -c "printf 't,ax\n0,1\n1,x\n' | $F --stream binary > '$tmp/early.bin'"
check "... empty" test ! -s "$tmp/early.bin"

# notes travel in the trailer: tagk-estimate's refusals reach tagk-report
$R --stream csv datasets/synth-payload.csv | grep -v '^#tagk-' \
	| awk -F, -v OFS=, 'NR == 2000 { $13 = 1e300 } { print }' > "$tmp/outlier.csv"
expect "refused updates, noted in the binary stream, shown by tagk-report" 0 \
	"^# 5 of 996 updates refused by tagk-estimate" "*" -- \
	sh -c "$E -a rls-low --every 1 '$tmp/outlier.csv' 2>/dev/null | $P"
check "... with the count of physical estimates, 471 of 991" grep -q "physical bodies: 471 of 991 estimates (48 %)" "$tmp/out"
$E -a rls-low --every 1 --stream binary "$tmp/outlier.csv" > "$tmp/noted.bin" 2>/dev/null
# the notes, then the end marker: "#tagk-note: method rls-low\n" is 27 bytes,
# "#tagk-note: sd_noise newey-west\n" 32
tail -c 148 "$tmp/noted.bin" | head -c 45 > "$tmp/noted.tail"
printf '\377\377\377\377\377\377\377\377#tagk-note: refused_updates 5 of 996\n' > "$tmp/noted.want"
check "... written after the eight 0xff bytes, before the end marker" cmp -s "$tmp/noted.tail" "$tmp/noted.want"
check "... which ends the stream with its row count and check value" \
	sh -c "tail -1 '$tmp/noted.bin' | grep -Eqx '#tagk-end: 991 rows; check [0-9a-f]{16}'"
# a tagk-filter between them passes the notes on, in both streams
for s in csv binary; do
	expect "refused updates through tagk-filter (--stream $s) still shown by tagk-report" 0 \
		"^# 5 of 996 updates refused by tagk-estimate" "only 425 of 945 estimates \(45 %\) are physical bodies" -- \
		sh -c "$F --stream $s --from 1 '$tmp/noted.bin' | $P"
done
$F --stream csv "$tmp/noted.bin" > "$tmp/noted-f.csv"
check "... the notes of tagk-filter's CSV output, as tagk-estimate wrote them" \
	sh -c "grep '^#tagk-note: ' '$tmp/noted-f.csv' | tr '\\n' ';' | grep -qx '#tagk-note: refused_updates 5 of 996;#tagk-note: method rls-low;#tagk-note: sd_noise newey-west;'"
# an HDF5 file has no end marker: the notes are its root group's attribute
$E -a rls-low --every 1 -o "$tmp/noted.h5" "$tmp/outlier.csv" 2>/dev/null
$F "$tmp/noted.bin" -o "$tmp/noted-f.h5"
for h in noted noted-f; do
	expect "refused updates in an HDF5 file ($h.h5), shown by tagk-report" 0 \
		"^# 5 of 996 updates refused by tagk-estimate" "are physical bodies" -- $P "$tmp/$h.h5"
done
if [ -x $PY ] && $PY -c 'import h5py' 2>/dev/null; then
	check "... as h5py reads them: the root group's string attribute tagk_notes" $PY -c '
import sys, h5py
with h5py.File(sys.argv[1]) as f:
    sys.exit(f.attrs["tagk_notes"] != b"refused_updates 5 of 996\nmethod rls-low\nsd_noise newey-west\n")' "$tmp/noted.h5"
	$PY -c '
import sys, h5py, numpy
with h5py.File(sys.argv[1], "w") as f:
    f["t"] = numpy.arange(3.0)
    f.attrs["tagk_notes"] = "x" * 3000' "$tmp/longnotes.h5"
	expect "a tagk_notes attribute too long for notes: refused, not cut" 1 "" \
		"attribute 'tagk_notes' is longer than 2047 bytes" -- $F "$tmp/longnotes.h5"
else
	echo "skip the HDF5 notes through h5py: /usr/bin/python3 with h5py is not installed"
fi

# --- empty cells: NaN in the stream, refused or skipped where wanted --------
# a stream written by hand: tagk's own writers refuse empty cells upstream
if [ -x $PY ]; then
	PYTHONPATH=tests $PY -c '
import sys, streamsum
names = "t,ax,ay,az,gx,gy,gz,fx,fy,fz,tx,ty,tz".split(",")
rows = [[0.01 * k, 0, 0, 9.8, 0, 0, 0, 0, 0, 0.3, 0, 0, 0] for k in range(3)]
rows[1][1] = float("nan")
sys.stdout.buffer.write(streamsum.binary_stream(names, rows))
' > "$tmp/holes.bin"
	expect "an empty cell a command wants" 1 "" "holes.bin:row 2: column 'ax': empty cell \(--skip-bad skips such rows\)" -- \
		$R "$tmp/holes.bin"
	expect "... skipped with --skip-bad" 0 "" "skipped 1 bad row" -- sh -c "$R -m mass --skip-bad '$tmp/holes.bin' > /dev/null"
	expect "tagk-filter refuses it, as it refuses an empty CSV cell" 1 "" "holes.bin:row 2: column 'ax': empty cell" -- \
		$F "$tmp/holes.bin"
	expect "... or skips its row: a header without padding is read too" 0 "^0.02,0,0,9.8" "skipped 1 bad row$" -- \
		sh -c "$F --skip-bad '$tmp/holes.bin' | tail -2 | head -1"
else
	echo "skip empty cells in a binary stream: no $PY"
fi

# --- column names with a comma or a double quote ----------------------------
# quoted as CSV quotes them (RFC 4180), in the CSV and binary streams alike;
# pandas (where present) reads the names back, a line break is refused
printf 't,"a,b","say ""hi""",c\n0,1,2,5\n1,3,4,6\n' > "$tmp/qnames.csv"
$F "$tmp/qnames.csv" > "$tmp/qnames.out"
check "a name with a comma or a quote is written quoted, its quotes doubled" \
	sh -c "sed -n 2p '$tmp/qnames.out' | grep -qx 't,\"a,b\",\"say \"\"hi\"\"\",c'"
$F --stream binary "$tmp/qnames.csv" > "$tmp/qnames.bin"
$F --stream csv "$tmp/qnames.bin" > "$tmp/qnames.back"
check "... and through the binary stream and back, the same CSV stream" cmp -s "$tmp/qnames.out" "$tmp/qnames.back"
$F "$tmp/qnames.csv" -o "$tmp/qnames.h5" && $F "$tmp/qnames.h5" > "$tmp/qnames.h5back"
check "... and through HDF5" cmp -s "$tmp/qnames.out" "$tmp/qnames.h5back"
if $PY -c "import pandas" 2>/dev/null; then
	check "pandas reads the names" $PY -c "import pandas; d = pandas.read_csv('$tmp/qnames.out', comment='#')
assert list(d.columns) == ['t', 'a,b', 'say \"hi\"', 'c'] and len(d) == 2, list(d.columns)"
fi
printf 't,"a\nb"\n0,1\n' > "$tmp/nlname.csv"
expect "a name with a line break is refused" 1 "" "column 2's name has a line break, which tagk's streams cannot carry" -- \
	$F "$tmp/nlname.csv"
head -n 1 "$tmp/qnames.bin" > "$tmp/unclosed.bin"
printf 't,"a,b\n,,\n' >> "$tmp/unclosed.bin"
expect "a binary header with an unclosed quote is refused" 1 "" "a quoted name without its closing quote" -- \
	$F "$tmp/unclosed.bin"

# --- the NumPy recipe of tagk-formats(5), as printed there -------------------
if $PY -c "import numpy" 2>/dev/null; then
	awk '/^\.SS The binary stream/ { on = 1 } on && /^\.nf/ { code = 1; next } on && /^\.fi/ { exit } code' \
		man/tagk-formats.5 | sed 's/\\e/\\/g' > "$tmp/recipe.py"
	check "tagk-formats(5) has a NumPy recipe of nine lines" test "$(wc -l < "$tmp/recipe.py")" -eq 9
	check "the recipe reads every column, equal to the CSV's numbers" sh -c "cd '$tmp' && cp reg.bin x.bin && $PY -c '
exec(open(\"recipe.py\").read())
import csv
rows = [r for r in csv.reader(open(\"reg.csv\")) if not r[0].startswith(\"#\")]
names, rows = rows[0], rows[1:]
assert list(x.dtype.names) == names and len(x) == len(rows) == 1800
for i, r in enumerate(rows):
    for j, c in enumerate(names):
        assert x[c][i] == float(r[j]), (i, c)
'"
else
	echo "skip the NumPy recipe: no NumPy in /usr/bin/python3"
fi
# --- the check value's recipes (python3-xxhash), as printed there -------------
# recipe K (1: the CSV stream's, 2: the binary stream's) into FILE
recipe() {
	awk -v k="$1" '/^\.SS The check value/ { on = 1 } on && /^\.SS HDF5/ { exit }
		on && /^\.nf/ { n++; code = n == k; next } on && /^\.fi/ { code = 0 } code' \
		man/tagk-formats.5 | sed 's/\\e/\\/g' > "$2"
}
# the command fails (check's negation)
not() {
	! "$@"
}
# whether recipe R, run on a copy of stream S as x.csv or x.bin (X), gives
# the check value S's end marker carries
recipe_agrees() {
	cp "$2" "$tmp/$3" && (cd "$tmp" && $PY -c '
import sys
exec(open(sys.argv[1]).read())
b = open(sys.argv[2], "rb").read()
sys.exit(check.encode() != b[b.rindex(b"; check ") + 8:].strip())
' "$1" "$3")
}
if $PY -c "import xxhash" 2>/dev/null; then
	recipe 1 "$tmp/csvrecipe.py"
	recipe 2 "$tmp/checkrecipe.py"
	check "tagk-formats(5) has the CSV check value's recipe in four lines and the import" \
		test "$(wc -l < "$tmp/csvrecipe.py")" -eq 5
	check "... and the binary one's in two lines and the import" test "$(wc -l < "$tmp/checkrecipe.py")" -eq 3
	for f in reg.csv crlf.csv cr.csv; do
		check "the CSV recipe gives $f's end marker's check value" recipe_agrees csvrecipe.py "$tmp/$f" x.csv
	done
	$E -a rls "$tmp/reg.csv" > "$tmp/est.csv" 2>/dev/null
	check "... and tagk-estimate's, whose notes it leaves out" grep -q '^#tagk-note:' "$tmp/est.csv"
	check "... gives its end marker's check value" recipe_agrees csvrecipe.py "$tmp/est.csv" x.csv
	check "... but not that of a stream with one byte changed" not recipe_agrees csvrecipe.py "$tmp/edited.csv" x.csv
	check "the binary recipe gives the end marker's check value" recipe_agrees checkrecipe.py "$tmp/reg.bin" x.bin
	LC_ALL=C sed '4s/^\(.\{40\}\)./\1\x01/' "$tmp/reg.bin" > "$tmp/byte.bin"
	check "... and not that of a stream with one byte changed" not recipe_agrees checkrecipe.py "$tmp/byte.bin" x.bin
fi
finish
