#!/bin/sh
# h5floor_test.sh: tagk-bench io-floor --regress on HDF5 logs, the floor
# of issue 57 under tagk-regress's HDF5 reading (one process, each chunk
# read by H5Dread_chunk, tagk's regressor and stream encoder, nothing
# checked), writes tagk-regress --stream binary's own stream byte for
# byte: tagk-bench synth's logs of lengths on and off its 4096-row chunks
# (1, 4095, 4096, 4097, 8192 and 10001 samples), unfiltered and, where
# h5repack is installed, deflated, rechunked to 1000 rows (a partial last
# chunk), and with the time's chunks unlike the others'; a log whose
# datasets are not chunked is refused in one line; tagk-bench pipeline
# prints, for HDF5, tagk-regress over that floor and the floor over cat.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"

B=$BIN/tagk-bench
R=$BIN/tagk-regress
RP=$(command -v h5repack 2>/dev/null || true)

# same NAME FILE SAMPLES: the floor's stream is tagk-regress's, byte for byte
same() {
	$R --stream binary "$2" > "$tmp/reg.bin" 2> "$tmp/reg.err"
	expect "io-floor --regress: $1: the rows and the check on stderr" 0 "*" \
		"^io-floor: $(($3 * 6)) rows, check [0-9a-f]{16}$" -- $B io-floor --regress "$2"
	check "... tagk-regress --stream binary's stream, byte for byte" cmp -s "$tmp/out" "$tmp/reg.bin"
}

for n in 1 4095 4096 4097 8192 10001; do
	$B synth --samples $n --seed 7 -o "$tmp/s$n.h5" 2>/dev/null
	same "$n samples, unfiltered 4096-row chunks" "$tmp/s$n.h5" $n
	if [ -n "$RP" ]; then
		$RP -f GZIP=1 "$tmp/s$n.h5" "$tmp/z$n.h5"
		same "$n samples, deflated" "$tmp/z$n.h5" $n
	fi
done
if [ -n "$RP" ]; then
	$RP -l CHUNK=1000 -f GZIP=6 "$tmp/s10001.h5" "$tmp/c1000.h5"
	same "10001 samples, deflated chunks of 1000 rows" "$tmp/c1000.h5" 10001
	$RP -l t:CHUNK=333 "$tmp/s10001.h5" "$tmp/mixed.h5"
	same "10001 samples, t in chunks of 333, the rest of 4096" "$tmp/mixed.h5" 10001
	$RP -l CONTI "$tmp/s4097.h5" "$tmp/conti.h5"
	expect "io-floor --regress: contiguous datasets are refused" 1 "" \
		"^tagk-bench: io-floor: --regress: dataset '[a-z_A-Z]+' is not stored in unfiltered or deflated chunks$" -- \
		$B io-floor --regress "$tmp/conti.h5"
else
	echo "skip the deflated and rechunked logs: h5repack (hdf5-tools) is not installed"
fi
$B synth --samples 100 --no-alpha -o "$tmp/noalpha.h5" 2>/dev/null
expect "io-floor --regress: an HDF5 log without a signal's dataset" 1 "" "--regress: no column 'alx'" -- \
	$B io-floor --regress "$tmp/noalpha.h5"

expect "pipeline: io-floor --regress among the HDF5 stages" 0 "^hdf5 +io-floor -> regress +20000 " "" -- \
	$B pipeline --samples 20000 --formats hdf5 --streams binary --repeat 1
check "... tagk-regress over it, the ratio of their CPU times per row" awk '
	$1 == "hdf5" && $2 == "io-floor" && $4 == "regress" { f = $7 }
	$1 == "hdf5" && $2 == "tagk-regress" && $4 == "binary" { t = $7 }
	$1 == "hdf5" && /tagk-regress -> binary \/ io-floor -> regress:/ { r = $NF }
	END { exit !(f > 0 && r != "" && (r - t / f) ^ 2 <= 1e-4 * r ^ 2) }' "$tmp/out"
check "... and the floor over cat, their ratio in the table" awk '
	$1 == "hdf5" && $2 == "io-floor" && $4 == "regress" { x = $8 }
	$1 == "hdf5" && /io-floor -> regress \/ cat:/ { r = $NF }
	END { exit !(x > 0 && r != "" && (r - x) ^ 2 <= 1e-2 * r ^ 2) }' "$tmp/out"
check "... and in the paired table, tagk-regress over the floor in each round (x_floor)" awk '
	$1 == "input" && $2 == "chunks" { h = ($8 == "x_floor") }
	h && $1 == "hdf5" && $2 == "unfiltered" && $8 > 0 { ok = 1 }
	END { exit !ok }' "$tmp/out"
finish
