#!/bin/sh
# iofloor_test.sh: tagk-bench io-floor --regress, the single-pass yardstick
# of issue 57 under tagk-regress's CSV reading, writes tagk-regress's own
# binary stream, byte for byte (the floor does the same job or it is no
# floor), from tagk-bench synth's logs, with LF and CR LF line ends; and
# the single pass reads the same values as Python's float (the bytes of
# --bytes 1104 for a log whose last line has no line end); tagk-bench
# pipeline prints tagk-regress's CPU time over it.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"

B=$BIN/tagk-bench
R=$BIN/tagk-regress
$B synth --samples 500 --seed 4 -o "$tmp/s.csv" 2>/dev/null
$R --stream binary "$tmp/s.csv" > "$tmp/reg.bin"
expect "io-floor --regress: the rows and the stream's check on stderr" 0 "*" \
	"^io-floor: 3000 rows, check [0-9a-f]{16}$" -- $B io-floor --regress "$tmp/s.csv"
check "... its stream is tagk-regress --stream binary's, byte for byte" cmp "$tmp/out" "$tmp/reg.bin"
check "... and the check it says is the one in the stream's end marker" sh -c \
	"tail -c 40 '$tmp/reg.bin' | grep -aq \"check \$(awk '{print \$NF}' '$tmp/err')\$\""
sed 's/$/\r/' "$tmp/s.csv" > "$tmp/crlf.csv"
$R --stream binary "$tmp/crlf.csv" > "$tmp/reg-crlf.bin"
expect "io-floor --regress: a log with CR LF line ends" 0 "*" "^io-floor: 3000 rows" -- \
	$B io-floor --regress "$tmp/crlf.csv"
check "... the same stream as tagk-regress's" cmp "$tmp/out" "$tmp/reg-crlf.bin"
$B synth --samples 200000 --seed 5 -o "$tmp/big.csv" 2>/dev/null
$R --stream binary "$tmp/big.csv" > "$tmp/reg-big.bin"
expect "io-floor --regress: 200000 samples (buffers refilled mid-line)" 0 "*" "^io-floor: 1200000 rows" -- \
	$B io-floor --regress "$tmp/big.csv"
check "... the same stream as tagk-regress's" cmp "$tmp/out" "$tmp/reg-big.bin"
expect "io-floor --regress with --bytes is usage" 2 "" "no --bytes with it" -- \
	$B io-floor --regress --bytes 8 "$tmp/s.csv"
grep -v '^#' "$tmp/s.csv" | cut -d, -f2- > "$tmp/nocol.csv"
expect "io-floor --regress: a log without a signal's column" 1 "" "--regress: no column 't'" -- \
	$B io-floor --regress "$tmp/nocol.csv"
expect "pipeline: io-floor --regress among the CSV stages" 0 "^csv +io-floor -> regress +20000 " "" -- \
	$B pipeline --samples 20000 --formats csv --streams binary --repeat 1
check "... and tagk-regress over it, the ratio of their CPU times per row" awk '
	$1 == "csv" && $2 == "io-floor" && $4 == "regress" { f = $7 }
	$1 == "csv" && $2 == "tagk-regress" && $4 == "binary" { t = $7 }
	/tagk-regress -> binary \/ io-floor -> regress:/ { r = $NF }
	END { exit !(f > 0 && r != "" && (r - t / f) ^ 2 <= 1e-4 * r ^ 2) }' "$tmp/out"
if /usr/bin/python3 -c 'import struct' 2>/dev/null; then
	grep -v '^#' "$tmp/s.csv" | head -c -1 > "$tmp/noeol.csv"
	expect "io-floor --bytes 1104: a log whose last line has no line end" 0 "*" "^io-floor: 500 rows" -- \
		$B io-floor --bytes 1104 "$tmp/noeol.csv"
	check "... every field as Python's float reads it, then zeros" /usr/bin/python3 - "$tmp" <<'PYEOF'
import struct, sys
d = sys.argv[1]
rows = open(d + "/noeol.csv").read().split("\n")[1:]
want = b""
for l in rows:
    r = struct.pack("<%dd" % len(l.split(",")), *[float(x) for x in l.split(",")])
    want += r + bytes(1104 - len(r))
sys.exit(0 if len(rows) == 500 and open(d + "/out", "rb").read() == want else 1)
PYEOF
fi
finish
