#!/bin/sh
# tests/fuzz/seeds.sh: seed inputs for `make fuzz`, in build/fuzz/seeds/TARGET:
# the heads of the bundled logs, tagk's own streams (declared, with markers),
# and the HDF5 and Crazyflie fixtures the tests build (tests/mkfixtures.c).
# Generated, not committed: only inputs that once failed are kept, in
# tests/fuzz/corpus/TARGET.
set -eu
S=build/fuzz/seeds
rm -rf "$S"
mkdir -p "$S/csv" "$S/stream" "$S/binary" "$S/hdf5" "$S/cfusd" "$S/model" "$S/vehicle" "$S/friction" "$S/expr" "$S/ulog"
fx=$(mktemp -d)
trap 'rm -rf "$fx"' EXIT
build/mkfixtures "$fx"
for f in datasets/*.csv; do
	head -c 3000 "$f" > "$S/csv/$(basename "$f")"
done
printf 'a,b\r1,2\r3,4\r' > "$S/csv/cr-only.csv"
head -c 3000 datasets/synth-payload.csv | gzip -c > "$S/csv/synth-head.csv.gz"
printf '\357\273\277t,x\r\n0,1\r\n' > "$S/csv/bom-crlf.csv"
printf ',a,b\n0,1,2\n1,"3",4e-400\n' > "$S/csv/pandas-index.csv"
bin/tagk-regress datasets/synth-payload.csv 2>/dev/null | head -40 > "$S/stream/reg-head.csv"
bin/tagk-bench synth --duration 0.05 2>/dev/null | bin/tagk-regress > "$S/stream/reg-declared.csv"
bin/tagk-bench synth --duration 0.05 2>/dev/null | bin/tagk-regress | bin/tagk-estimate --window 2 --every 1 \
	> "$S/stream/est-declared.csv"
printf '#tagk-stream: 2\nt,m\n0,1\n#tagk-error: upstream failed\n' > "$S/stream/error-marker.csv"
printf 't,m\n0,1\n1,2\n' | bin/tagk-filter --stream csv > "$S/stream/small-declared.csv"
sed 's/^#tagk-end: 2 rows/#tagk-note: refused_updates 1 of 2\n&/' "$S/stream/small-declared.csv" > "$S/stream/note.csv"
# marker lines taken raw (csv_in.c marker_line): blanks, quotes, commas, CR
printf '#tagk-stream: 2\nt,m\n0,1\n  #tagk-error: a, "b, c"  d\r\n' > "$S/stream/error-quoted.csv"
sed 's/^#tagk-end: 2 rows/  #tagk-note: warning x: a,  "b, c" d\r\n&/' "$S/stream/small-declared.csv" \
	> "$S/stream/note-quoted.csv"
bin/tagk-bench synth --duration 0.05 2>/dev/null | bin/tagk-regress --stream binary > "$S/binary/reg.bin"
bin/tagk-bench synth --duration 0.05 2>/dev/null | bin/tagk-regress | bin/tagk-estimate --window 2 --every 1 \
	--stream binary > "$S/binary/est.bin"
cp "$fx"/*.h5 "$S/hdf5/"
bin/tagk-bench synth --duration 0.05 -o "$S/hdf5/synth.h5" 2>/dev/null
cp "$fx"/*.cfusd "$S/cfusd/"
cp datasets/panda.model "$S/model/"
cp tests/fuzz/corpus/vehicle/crazyflie.veh "$S/vehicle/"
cp tests/fuzz/corpus/friction/*.txt "$S/friction/"
bin/tagk-bench simulate --duration 1 -o "$fx/sim.ulg" 2>/dev/null
head -c 8000 "$fx/sim.ulg" > "$S/ulog/sim-head.ulg"
for k in selfnest unknown-id short-data bad-array unknown-type no-timestamp newer; do
	python3 tests/ulog_read.py damaged "$k" "$S/ulog/$k.ulg"
done
