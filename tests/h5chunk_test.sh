#!/bin/sh
# h5chunk_test.sh: the HDF5 reader's direct chunk reads (formats/h5chunk.h)
# decode every value as h5py reads it, and leave to H5Dread what they do
# not decode: contiguous, chunked with chunks that end inside, on and
# across the reader's 4096-row blocks (a partial last chunk among them),
# deflate, shuffle, shuffle+deflate, f32, integers of 8 to 64 bits,
# big-endian, N x k datasets chunked by whole rows and by column, chunks
# allocated early with a fill value, a chunk stored with its filter
# skipped; files written by h5py (tests/h5chunk_oracle.py), every column
# tagk-filter prints compared bit for bit with h5py's reading as float64.
# Damaged chunks (a bad, cut or short deflate stream, a chunk of the
# wrong size) end in one line on stderr, never a crash.
set -u
BIN=${BIN:-bin}
PY=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
F=$BIN/tagk-filter
ORACLE=$(dirname "$0")/h5chunk_oracle.py
if ! [ -x $PY ] || ! $PY -c 'import h5py, numpy' 2>/dev/null; then
	echo "skip the HDF5 chunk reads' oracle: /usr/bin/python3 with h5py and numpy is not installed"
	exit 0
fi
$PY "$ORACLE" gen "$tmp" || { echo "FAIL h5chunk_oracle.py gen"; exit 1; }

# same_as_h5py FILE WHAT: tagk-filter reads FILE, without a message, and
# every column equals h5py's reading
same_as_h5py() {
	$F --stream csv "$tmp/$1" > "$tmp/$1.csv" 2> "$tmp/$1.err"
	rc=$?
	check "$2" sh -c "[ $rc -eq 0 ] && [ ! -s '$tmp/$1.err' ] && $PY '$ORACLE' check '$tmp/$1' '$tmp/$1.csv'"
}
same_as_h5py contiguous.h5 "contiguous f64 and f32 (H5Dread): h5py's values"
same_as_h5py chunked.h5 "chunked f64 (chunks of 7, 1024, 4096, 5000, all 9001 rows), f32, N x 3: h5py's values"
same_as_h5py deflate.h5 "... the same deflated: h5py's values"
same_as_h5py shuffle.h5 "... shuffled: h5py's values"
same_as_h5py shuffle-deflate.h5 "... shuffled and deflated, and int16: h5py's values"
same_as_h5py partial.h5 "1000 rows in chunks of 300 (the last holds 100), f64, f32 deflated: h5py's values"
same_as_h5py f32.h5 "f32 (subnormals, extremes, -0), an N x 2 f32 deflated: h5py's values"
same_as_h5py ints.h5 "int8 .. uint64 (the 64-bit ones through H5Dread): h5py's values"
same_as_h5py bigendian.h5 "big-endian f64, f32 and int32 (through H5Dread): h5py's values"
same_as_h5py rowchunks.h5 "N x 3 in chunks of one column (through H5Dread): h5py's values"
same_as_h5py fill-early.h5 "chunks allocated early, filled with 2.5, partly written: h5py's values"
same_as_h5py masked.h5 "a deflate dataset with one chunk stored unfiltered (filter mask 1): h5py's values"
same_as_h5py long-deflate.h5 "a chunk whose deflate stream holds more than the chunk: its first bytes, as h5py"
# the reader's direct path against its own H5Dread path, on the files
# they both read: the same bytes (TAGK_HDF5_TEST_NO_CHUNK_READS=1: tests
# and tagk-bench only)
for f in chunked deflate shuffle-deflate f32 ints; do
	TAGK_HDF5_TEST_NO_CHUNK_READS=1 $F --stream binary "$tmp/$f.h5" > "$tmp/$f.h5read" 2>&1
	$F --stream binary "$tmp/$f.h5" > "$tmp/$f.direct" 2>&1
	check "$f.h5: the binary stream of the chunk reads is H5Dread's, byte for byte" \
		cmp -s "$tmp/$f.h5read" "$tmp/$f.direct"
done
expect "chunks never written (incremental allocation): refused by name, as before" 1 "" \
	"^tagk-filter: $tmp/fill-unallocated.h5: dataset 'x' declares 9001 rows but only part of it was written \(6 of 18 chunks\)$" \
	-- $F "$tmp/fill-unallocated.h5"

# --- damaged chunks: one line, the chunk named, nothing on stdout ------------
one_line() { [ "$(wc -l < "$tmp/err")" -eq 1 ]; }
expect "a damaged deflate stream: refused, naming the dataset and the chunk" 1 "" \
	"^tagk-filter: $tmp/bad-deflate.h5: dataset 'x': the chunk at row 16 is damaged: its deflate stream is damaged \(.*\)$" \
	-- $F "$tmp/bad-deflate.h5"
check "... in one line" one_line
expect "a deflate stream cut short: refused" 1 "" \
	"^tagk-filter: $tmp/truncated-deflate.h5: dataset 'x': the chunk at row 16 is damaged: its deflate stream is cut short$" \
	-- $F "$tmp/truncated-deflate.h5"
check "... in one line" one_line
# H5Dread handed on 64 bytes it never wrote here, different each run
expect "a deflate stream that ends before its chunk: refused, not read as whatever memory held" 1 "" \
	"^tagk-filter: $tmp/short-deflate.h5: dataset 'x': the chunk at row 16 is damaged: its deflate stream ends after 64 of the chunk's 128 bytes$" \
	-- $F "$tmp/short-deflate.h5"
check "... in one line" one_line
expect "... to the binary stream too, with no partial stream" 1 "" "short-deflate.h5: dataset 'x': the chunk at row 16 is damaged" \
	-- $F --stream binary "$tmp/short-deflate.h5"
# an unfiltered chunk stored shorter than its rows: its index records no
# size, and libhdf5 reads the chunk's bytes whatever follows them
$F --stream csv "$tmp/short-raw.h5" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "an unfiltered chunk stored short: read or refused in one line, never a crash (exit $rc)" \
	sh -c "[ $rc -eq 0 ] || { [ $rc -eq 1 ] && [ \$(wc -l < '$tmp/err') -eq 1 ]; }"

echo "h5chunk: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
