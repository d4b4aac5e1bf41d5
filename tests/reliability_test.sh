#!/bin/sh
# reliability_test.sh: the classes of defect that fuzzing and a hostile
# bad-input battery found, one regression check each, through the real
# binaries. Everything happens inside this script's temporary directory.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate F=$BIN/tagk-filter P=$BIN/tagk-report S=$BIN/tagk-bench

MKFIX=${MKFIX:-build/mkfixtures}
"$MKFIX" "$tmp" || { echo "FAIL mkfixtures"; exit 1; }
$S synth --duration 2 --seed 3 -o "$tmp/syn.csv" || { echo "FAIL synth"; exit 1; }
plain "$tmp/syn.csv" | head -21 > "$tmp/small.csv"

# --- -o onto a node that is not a regular file stays that node ------------
if mknod "$tmp/null" c 1 3 2>/dev/null; then
	expect "-o onto a character device" 0 "" "" -- $F "$tmp/small.csv" -o "$tmp/null"
	check "the character device is still one" test -c "$tmp/null"
	expect "tagk-report -o onto a character device" 0 "" "" -- sh -c "$R '$tmp/small.csv' | $E -q | $P -o '$tmp/null'"
	check "... still a character device" test -c "$tmp/null"
	expect "tagk-bench timing -o onto a character device" 0 "" "" -- \
		$S timing -n 10 --methods rk --updates 3 -o "$tmp/null"
	check "... still a character device" test -c "$tmp/null"
	expect "a failing command with -o onto a character device" 1 "" "not a number" -- \
		sh -c "printf 'a,b\n1,2\n3,x\n' | $F -o '$tmp/null'"
	check "... still a character device" test -c "$tmp/null"
else
	echo "skip -o onto a character device: mknod needs root"
fi
mkfifo "$tmp/fifo"
# a time limit, so that a tagk which never opens the FIFO fails the test
# instead of leaving the reader blocked for ever
timeout 20 cat "$tmp/fifo" > "$tmp/fifo.out" &
expect "-o onto a FIFO" 0 "" "" -- $F "$tmp/small.csv" -o "$tmp/fifo"
wait
check "the FIFO is still a FIFO" test -p "$tmp/fifo"
check "the reader of the FIFO got every row" same_rows "$tmp/fifo.out" "$tmp/small.csv"
check "... and the end marker that says the stream is whole" sh -c "tail -1 '$tmp/fifo.out' | grep -Eqx '#tagk-end: 20 rows; check [0-9a-f]{16}'"
expect "-o onto a directory" 1 "" "^tagk-filter: $tmp: is a directory$" -- $F "$tmp/small.csv" -o "$tmp"
mkfifo "$tmp/fifo.h5"
expect "HDF5 output onto a FIFO" 1 "" "fifo.h5: HDF5 output needs a regular file" -- \
	$F "$tmp/small.csv" -o "$tmp/fifo.h5"

# --- SIGTERM and SIGINT remove the temporary -----------------------------
for sig in TERM INT; do
	mkfifo "$tmp/slow.$sig"
	( head -5 "$tmp/small.csv"; sleep 3 ) > "$tmp/slow.$sig" &
	feeder=$!
	# an asynchronous command starts with SIGINT ignored; perl (in every
	# Debian) restores the default disposition, as an interactive shell has
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' $F -o "$tmp/killed.csv" < "$tmp/slow.$sig" &
	pid=$!
	sleep 1
	kill -$sig $pid
	wait $pid 2>/dev/null
	kill $feeder 2>/dev/null; wait $feeder 2>/dev/null
	check "SIG$sig leaves no temporary and no output" \
		sh -c "! ls '$tmp'/killed.csv* >/dev/null 2>&1"
done

# --- CSV: line ends, byte-order mark, headers, numbers -------------------
tr '\n' '\r' < "$tmp/small.csv" > "$tmp/cr.csv"
expect "CR-only line ends are read" 0 "" "" -- $F "$tmp/cr.csv" -o "$tmp/cr.out"
check "CR-only: every row, every cell as with LF" same_rows "$tmp/cr.out" "$tmp/small.csv"
sed 's/$/\r/' "$tmp/small.csv" > "$tmp/crlf.csv"
expect "CR LF line ends are read" 0 "" "" -- $F "$tmp/crlf.csv" -o "$tmp/crlf.out"
check "CR LF: every row as with LF" same_rows "$tmp/crlf.out" "$tmp/small.csv"
printf 'a,b\r1,2\r3,x\r' > "$tmp/crbad.csv"
expect "CR-only: line numbers in errors" 1 "" "crbad.csv:3: column 'b': not a number" -- $F "$tmp/crbad.csv"
printf 'a,a\r1,2\r3,4\r5,6\r' > "$tmp/crdup.csv"
expect "CR-only with a duplicate column" 1 "" "crdup.csv: duplicate column 'a'$" -- $F "$tmp/crdup.csv"
printf 'a,,c\r1,2,3\r4,5,6\r' > "$tmp/crempty.csv"
expect "CR-only with an empty column name" 1 "" "crempty.csv: column 2 has no name$" -- $F "$tmp/crempty.csv"
printf '"t\nx","t\nx"\n1,2\n' > "$tmp/nlname.csv"
expect "a quoted newline in a column name: a one-line message" 1 "" '^tagk-regress: .*t\\nx' -- $R "$tmp/nlname.csv"
check "... and only one line" test "$(wc -l < "$tmp/err")" -eq 1
printf '\357\273\277' > "$tmp/bom.csv"; cat "$tmp/small.csv" >> "$tmp/bom.csv"
expect "a UTF-8 byte-order mark" 0 "" "" -- $F "$tmp/bom.csv" -o "$tmp/bom.out"
check "... is dropped" same_rows "$tmp/bom.out" "$tmp/small.csv"
printf ',a,b\n0,1,2\n1,3,4\n' > "$tmp/pandas.csv"
expect "pandas' unnamed index column is named index" 0 "^index,a,b$" "" -- $F "$tmp/pandas.csv"
printf 'a,b\n1,1e-400\n' > "$tmp/under.csv"
expect "a number that underflows to zero" 1 "" "under.csv:2: column 'b': '1e-400' is too small for a double" -- $F "$tmp/under.csv"
printf 'a,b\n1,4.9406564584124654e-324\n' > "$tmp/subn.csv"
expect "a subnormal that round-trips is kept" 0 "^1,4.9406564584124654e-324$|^1,5e-324$" "" -- $F "$tmp/subn.csv"

# --- HDF5: layouts users write, and damaged files -------------------------
expect "HDF5: columns as arrays, nested groups, compound fields, text skipped" 0 \
	"^ax,ay,az,wx,wy,wz,imu/mag.0,imu/mag.1,imu/mag.2,id,thrust,torque.0,torque.1,torque.2,t$" "" -- \
	sh -c "$F '$tmp/layouts.h5' | sed -n 2p"
expect "HDF5: compound fields read as numbers (int32, double, float[3])" 0 "^1,0.301,9.99999974737875[0-9]*e-05,0.000199999994947575[0-9]*,0.000300000014249235[0-9]*,0.02$" "" -- \
	sh -c "$F '$tmp/layouts.h5' | sed -n 4p | cut -d, -f10-"
# (its acc is made up, about 1.2: --acc-unit mps2 takes it as it is past the
# specific-force guard, cmd/common/unitguard.h)
expect "--map by a nested N x 3 dataset's path" 0 "" "" -- \
	sh -c "$R --acc-unit mps2 --wrench thrust --map gyro=imu/mag --map torque=torque '$tmp/layouts.h5' > '$tmp/map-path.csv'"
check "... reads what the columns named one by one read" sh -c \
	"$R --acc-unit mps2 --wrench thrust --map gyro=imu/mag.0,imu/mag.1,imu/mag.2 --map torque=torque.0,torque.1,torque.2 '$tmp/layouts.h5' | cmp -s - '$tmp/map-path.csv'"
expect "--map by a path that is no dataset" 1 "" "--map gyro=imu/nope: no 3-column dataset 'imu/nope'" -- \
	$R --wrench thrust --map gyro=imu/nope "$tmp/layouts.h5"
expect "HDF5: 2^31 rows declared, 40 written" 1 "" "unwritten.h5: dataset 't' declares 2147483648 rows but only part of it was written" -- \
	$F "$tmp/unwritten.h5"
expect "HDF5: 2^60 rows declared" 1 "" "declared.h5: dataset 't' declares 1152921504606846976 rows, more than the limit" -- \
	$F "$tmp/declared.h5"
expect "HDF5: a 70000-byte dataset name" 1 "" "longname.h5: a dataset path is longer than 1023 bytes" -- \
	$F "$tmp/longname.h5"
awk 'BEGIN { printf "t,"; for (i = 0; i < 70000; i++) printf "x"; printf "\n0,1\n" }' > "$tmp/longcol.csv"
expect "a 70000-byte column name to HDF5" 1 "" "line longer than the limit" -- $F "$tmp/longcol.csv" -o "$tmp/longcol.h5"
head -c 3000 "$tmp/layouts.h5" > "$tmp/cut.h5"
expect "HDF5: a truncated file" 1 "" "cut.h5: (not a readable HDF5 file|malformed HDF5 file|cannot)" -- $F "$tmp/cut.h5"
check "... leaves no output" test ! -s "$tmp/out"

# a full disk, simulated with a file size limit (SIGXFSZ ignored, so that
# write fails with EFBIG as on ENOSPC): a clean error, no crash, no file
$S synth --duration 60 -o "$tmp/big.csv"
for lim in 64 600; do
	expect "HDF5 -o past a ${lim} KiB file size limit" 1 "" "^tagk-filter: $tmp/full.h5: HDF5 write failed \(disk full or file too large\?\)$" -- \
		sh -c "trap '' XFSZ; ulimit -f $lim; exec $F '$tmp/big.csv' -o '$tmp/full.h5'"
	check "... leaves no file and no temporary" sh -c "! ls '$tmp'/full.h5* >/dev/null 2>&1"
done
expect "CSV -o past a file size limit" 1 "" "^tagk-filter: $tmp/full.csv: write error: File too large$" -- \
	sh -c "trap '' XFSZ; ulimit -f 64; exec $F '$tmp/big.csv' -o '$tmp/full.csv'"
check "... leaves no file and no temporary" sh -c "! ls '$tmp'/full.csv* >/dev/null 2>&1"

# --- Crazyflie uSD: ambiguous event selections ---------------------------
expect "cfusd: two event types of one name" 1 "" "dupname.cfusd: event types 7 and 9 are both named 'fixedFrequency': choose one with --event ID" -- \
	$F "$tmp/dupname.cfusd"
expect "cfusd: --event by id" 0 "^t,x$" "" -- sh -c "$F --event 9 '$tmp/dupname.cfusd' | sed -n 2p"

# --- HDF5 written by pandas and h5py themselves ------------------------------
PY=/usr/bin/python3
if [ -x $PY ] && $PY -c 'import pandas, tables, h5py' 2>/dev/null; then
	$PY - "$tmp" <<'PYEOF' 2>/dev/null
import sys, warnings
import numpy as np, pandas as pd, h5py
warnings.simplefilter("ignore")
d = sys.argv[1]
df = pd.DataFrame({"t": np.arange(5) * 0.1, "ax": np.arange(5) * 1.5, "n": np.arange(5, dtype=np.int64)})
df.to_hdf(d + "/pfix.h5", key="log", mode="w", format="fixed")
df.to_hdf(d + "/ptab.h5", key="log", mode="w", format="table", data_columns=["t"])
with h5py.File(d + "/harr.h5", "w") as f:
    f["t"] = np.arange(4) * 0.1
    f.create_dataset("acc", data=np.ones((4, 3))).attrs["columns"] = ["ax", "ay", "az"]
    f.create_dataset("gyr", data=np.zeros((4, 3))).attrs.create("columns", np.array([b"gx", b"gy", b"gz"]))
PYEOF
	expect "pandas to_hdf, fixed format" 0 "^index,t,ax,n 4,0.4,6,4 $" "" -- \
		sh -c "$F --group log '$tmp/pfix.h5' | sed -n '2p;7p' | tr '\n' ' '"
	expect "pandas to_hdf, table format with an indexed data column" 0 "^index,ax,n,t 4,6,4,0.4 $" "" -- \
		sh -c "$F --group log '$tmp/ptab.h5' | sed -n '2p;7p' | tr '\n' ' '"
	expect "pandas reads a tagk stream with comment='#'" 0 "^200 26$" "" -- \
		$PY -c "import sys, pandas as pd; d = pd.read_csv(sys.argv[1], comment='#'); print(len(d), len(d.columns))" "$tmp/syn.csv"
	expect "h5py: columns attributes as arrays of str and bytes" 0 "^ax,ay,az,gx,gy,gz,t$" "" -- \
		sh -c "$F '$tmp/harr.h5' | sed -n 2p"
else
	echo "skip pandas and h5py files: /usr/bin/python3 with pandas, tables and h5py is not installed"
fi

# --- List options: one bounded parser, nothing dropped ----------------------
expect "table2 --noise with five levels" 2 "" "^tagk-bench: --noise: at most 4 items, got more$" -- \
	$BIN/tagk-bench table2 --noise none,none,none,none,none
expect "an empty list item" 2 "" "^tagk-bench: --noise: an empty item in 'low,,high'$" -- \
	$BIN/tagk-bench table2 --noise low,,high
expect "pipeline --samples: 17 sizes are refused, not cut to 16" 2 "" "--samples: at most 16 items" -- \
	$BIN/tagk-bench pipeline --samples 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17
# the most sizes it takes, both formats: every CPU-table line of every size
# is printed (its table once held 128 lines and left the rest out)
$S pipeline --samples 100,200,300,400,500,600,700,800,900,1000,1100,1200,1300,1400,1500,1600 \
	--streams binary --repeat 1 > "$tmp/pipe16.txt" 2>&1
check "pipeline with 16 sizes: each size's binlog line, twice (CSV, HDF5)" sh -c "
	for n in 100 200 300 400 500 600 700 800 900 1000 1100 1200 1300 1400 1500 1600; do
		test \$(grep -Ec \"^binlog tagk-regress -> binary +\$n \" '$tmp/pipe16.txt') = 2 || exit 1
	done"
check "... and the last size's HDF5 lines" grep -Eq "^hdf5   tagk-filter -> binary +1600 " "$tmp/pipe16.txt"
awk 'BEGIN { print "#tagk-shard: 0/1 trials=1 seed=1 noise=low methods=tagk protocol=tagk"
	for (i = 0; i < 70; i++) printf "trial,tagk,low,m%d,0,1,figure8,1,1,1,1,1,1,1,1,1,1,1,0,\n", i }' > "$tmp/shard70.txt"
expect "merge of 70 method names" 1 "" "shard70.txt: unknown method 'm0'" -- $BIN/tagk-bench merge "$tmp/shard70.txt"

# --- merge: every shard of one run, once, whole ------------------------------
for i in 0 1 2; do
	$S table2 --trials 6 --noise none --methods tagk,rls-low --shard $i/3 > "$tmp/sh$i.csv"
done
$S table2 --trials 6 --noise none --methods tagk,rls-low --shard 2/3 --seed 9 > "$tmp/sh2-seed9.csv"
$S table2 --trials 6 --noise none --methods tagk --shard 2/3 > "$tmp/sh2-tagk.csv"
$S table2 --trials 6 --noise none --methods tagk,rls-low --shard 1/2 > "$tmp/half1.csv"
grep -v '^#tagk-end' "$tmp/sh2.csv" > "$tmp/sh2-cut.csv"
sed '$d' "$tmp/sh2.csv" | sed '$d' > "$tmp/sh2-short.csv"; tail -1 "$tmp/sh2.csv" >> "$tmp/sh2-short.csv"
expect "merge of three shards" 0 "^none +tagk +tagk +6 " "" -- $S merge "$tmp/sh0.csv" "$tmp/sh1.csv" "$tmp/sh2.csv"
expect "merge: a shard given twice" 1 "" "^tagk-bench: shard 1/3 given twice: .*sh1.csv and .*sh1.csv$" -- \
	$S merge "$tmp/sh0.csv" "$tmp/sh1.csv" "$tmp/sh1.csv" "$tmp/sh2.csv"
expect "merge: a shard missing" 1 "" "^tagk-bench: shard 2/3 is missing \(2 of 3 given\)$" -- $S merge "$tmp/sh0.csv" "$tmp/sh1.csv"
expect "merge: a shard of another seed" 1 "" "sh2-seed9.csv: a shard of another run: seed=9 where .*sh0.csv has seed=1" -- \
	$S merge "$tmp/sh0.csv" "$tmp/sh1.csv" "$tmp/sh2-seed9.csv"
expect "merge: a shard with other methods" 1 "" "sh2-tagk.csv: a shard of another run: methods=tagk where .*sh0.csv has methods=tagk,rls-low" -- \
	$S merge "$tmp/sh0.csv" "$tmp/sh1.csv" "$tmp/sh2-tagk.csv"
expect "merge: a shard of a run split otherwise" 1 "" "half1.csv: shard 1/2 of a run split 2 ways, but .*sh0.csv is of one split 3 ways" -- \
	$S merge "$tmp/sh0.csv" "$tmp/half1.csv"
expect "merge: a cut shard" 1 "" "sh2-cut.csv: cut: it has no '#tagk-end: N trials' line" -- \
	$S merge "$tmp/sh0.csv" "$tmp/sh1.csv" "$tmp/sh2-cut.csv"
expect "merge: a shard that lost a trial line" 1 "" "sh2-short.csv: 3 trial lines, but its '#tagk-end:' line counts 4" -- \
	$S merge "$tmp/sh0.csv" "$tmp/sh1.csv" "$tmp/sh2-short.csv"

# --- Refusals name their real reason -----------------------------------------
awk 'BEGIN { print "t,row,Y_m,b"; for (i = 0; i < 30; i++) for (r = 0; r < 3; r++) printf "%d,%d,%s,1e300\n", i, r, r ? "1" : "1e200" }' > "$tmp/div.csv"
expect "every update diverges: the message says so" 1 "" "every update \(6\) was refused; the first reason: update diverged" -- \
	$BIN/tagk-estimate -a tagk "$tmp/div.csv"

# --- One gross outlier in a regressor stream ---------------------------------
$BIN/tagk-regress datasets/synth-payload.csv | grep -v '^#tagk-' \
	| awk -F, -v OFS=, 'NR == 2000 { $13 = 1e300 } { print }' > "$tmp/outlier.csv"
# largest |estimate| over the parameter columns 2..11
maxabs() { awk -F, '/^#/ { next } !h { h = 1; next } { for (i = 2; i <= 11; i++) { v = $i < 0 ? -$i : $i; if (v > m) m = v } } END { print m + 0 }' "$1"; }
for a in rls-low kf-low; do
	expect "$a: a b of 1e300 is refused and counted" 0 "" "5 of 996 updates refused \(no estimate written\): outlier" -- \
		$BIN/tagk-estimate -a $a --every 1 "$tmp/outlier.csv" -o "$tmp/outlier-$a.csv"
	check "... and no later estimate explodes (max |theta| $(maxabs "$tmp/outlier-$a.csv"))" \
		awk -v m="$(maxabs "$tmp/outlier-$a.csv")" 'BEGIN { exit !(m < 1) }'
	$BIN/tagk-estimate -a $a --every 1 --outlier 0 "$tmp/outlier.csv" -o "$tmp/outlier-off.csv" 2>/dev/null
	check "... while with --outlier 0 it does (max |theta| $(maxabs "$tmp/outlier-off.csv"))" \
		awk -v m="$(maxabs "$tmp/outlier-off.csv")" 'BEGIN { exit !(m > 1e200) }'
done
cut -d, -f1-13 "$tmp/outlier.csv" | $BIN/tagk-estimate -a rls-low --every 1 2>/dev/null > "$tmp/noted.csv"
check "the stream carries the refusals: #tagk-note: refused_updates 5 of 996" \
	grep -qx '#tagk-note: refused_updates 5 of 996' "$tmp/noted.csv"
# the count of physical estimates is in the summary; whether it is also a
# warning depends on which parameters the verdicts find determined, which
# these rows leave at the edge (an -O1 and an -O3 build differ), so it is
# not asserted here (verdicts_test judges the verdicts)
expect "... which tagk-report's summary shows, with the count of physical estimates" 0 \
	"^# 5 of 996 updates refused by tagk-estimate" "*" -- $BIN/tagk-report "$tmp/noted.csv"
check "... 471 of 991 (48 %) physical" grep -q "physical bodies: 471 of 991 estimates (48 %)" "$tmp/out"
{ cat "$tmp/noted.csv"; echo '#tagk-note: late 1'; } > "$tmp/note-late.csv"
$BIN/tagk-estimate -a rls-low --every 1 "$tmp/outlier.csv" 2>/dev/null | cut -d, -f1-11 > "$tmp/noted-cut.csv"
expect "a stream whose columns cut(1) removed: its check value tells" 1 "" "noted-cut.csv:.*: the stream's check value does not match its rows" -- \
	$BIN/tagk-report "$tmp/noted-cut.csv"
expect "a note after the end marker" 1 "" "note-late.csv:.*: data after the stream's end marker" -- $BIN/tagk-report "$tmp/note-late.csv"
# the gate is relative to the data's own spread: rows in other units meet
# the same decisions (it refused the first 16 windows of rows times 1e12);
# an outlier of 1e5 N in one row
for s in 1 1e12 1e-12; do
	awk -F, -v OFS=, -v s=$s '/^#/ { next } NR == 2000 { $13 = 1e5 } NR > 1 { for (i = 3; i <= 13; i++) $i = $i * s } { print }' \
		"$tmp/outlier.csv" > "$tmp/scaled.csv"
	for a in kf-low kf-high rls-low; do
		expect "$a on rows times $s: the same 5 refusals as in SI units" 0 "" "^tagk-estimate: 5 of 996 updates refused" -- \
			$BIN/tagk-estimate -q -a $a --every 1 "$tmp/scaled.csv" -o "$tmp/scaled-est.csv"
	done
done
expect "--outlier on a Kaczmarz method" 2 "" "--outlier applies to the KF methods and rls, rls-low and rls-high, not tagk" -- \
	$BIN/tagk-estimate -a tagk --outlier 10 "$tmp/outlier.csv"

# --- Streams cut or altered -----------------------------------------------
E=$BIN/tagk-estimate
$BIN/tagk-regress datasets/synth-payload.csv -o "$tmp/reg.csv"
expect "a whole regressor stream is estimated" 0 "" "" -- $E -q "$tmp/reg.csv" -o "$tmp/est.csv"
expect "Kaczmarz with a 0.1 s window" 0 "" "" -- $E -q -a tagk --window 0.1s "$tmp/reg.csv" -o "$tmp/w01.csv"
expect "Kaczmarz with a 1000-sample window" 0 "" "" -- $E -q -a tagk --window 1000 "$tmp/reg.csv" -o "$tmp/w1000.csv"
head -n 3002 "$tmp/reg.csv" > "$tmp/reg-cutdecl.csv"
expect "tagk's own stream cut by head" 1 "" "reg-cutdecl.csv: the stream was cut: it declares itself a tagk stream but ends without its end marker" -- \
	$E "$tmp/reg-cutdecl.csv"
check "... and nothing is written" test ! -s "$tmp/out"
# the same cuts of a hand-made (undeclared) stream: the row column tells
plain "$tmp/reg.csv" > "$tmp/reg-plain.csv"
head -n 3000 "$tmp/reg-plain.csv" > "$tmp/reg-cut.csv"
expect "a stream cut inside its last sample" 1 "" "reg-cut.csv: the sample at t = 9.98 has 5 rows, the first had 6: the stream was cut" -- \
	$E "$tmp/reg-cut.csv"
sed 100d "$tmp/reg-plain.csv" > "$tmp/reg-hole.csv"
expect "a row lost inside a sample" 1 "" "reg-hole.csv:100: row 3 of a sample where row 2 belongs" -- $E "$tmp/reg-hole.csv"
{ head -1 "$tmp/reg-plain.csv"; sed 1,4d "$tmp/reg-plain.csv"; } > "$tmp/reg-head.csv"
expect "a stream that starts inside a sample" 1 "" "reg-head.csv:5: a sample starts at row 0 where the first began at row 3: the stream starts inside a sample" -- $E "$tmp/reg-head.csv"
# a hand-made stream declared by tagk-filter, then cut or altered
head -n 3001 "$tmp/reg-plain.csv" | $F -o "$tmp/decl.csv"
grep -v '^#tagk-end' "$tmp/decl.csv" > "$tmp/decl-cut.csv"
expect "a declared stream cut at a sample boundary" 1 "" "decl-cut.csv: the stream was cut: it declares itself a tagk stream but ends without its end marker" -- \
	$E "$tmp/decl-cut.csv"
expect "a declared stream with its end marker" 0 "" "" -- $E -q "$tmp/decl.csv" -o "$tmp/decl-est.csv"
sed 's/^#tagk-end: 3000 rows/#tagk-end: 3006 rows/' "$tmp/decl.csv" > "$tmp/decl-count.csv"
expect "an end marker that counts other rows" 1 "" "decl-count.csv:3003: the end marker counts 3006 rows but 3000 were read" -- \
	$E "$tmp/decl-count.csv"
{ cat "$tmp/decl.csv"; sed -n 2p "$tmp/reg-plain.csv"; } > "$tmp/decl-after.csv"
expect "rows after the end marker" 1 "" "decl-after.csv:3004: data after the stream's end marker" -- $E "$tmp/decl-after.csv"
{ cat "$tmp/decl.csv" "$tmp/decl.csv"; } > "$tmp/decl-twice.csv"
expect "two declared streams joined" 1 "" "decl-twice.csv:3004: a second stream begins here" -- $E "$tmp/decl-twice.csv"
# --- Parameters the data do not excite: one note, -q silences it -------------
awk -F, -v OFS=, 'NR > 1 { for (i = 3; i <= 13; i++) $i = $i * 1e-12 } { print }' "$tmp/reg-plain.csv" > "$tmp/tiny.csv"
for a in rls-low kf-low; do
	expect "$a on data scaled by 1e-12: the note says nothing was excited" 0 "" \
		"^tagk-estimate: the data did not excite any parameter: .*are the units right" -- $E -a $a "$tmp/tiny.csv" -o "$tmp/tiny-est.csv"
done
awk -F, -v OFS=, 'NR > 1 { $4 = 0; $9 = 0 } { print }' "$tmp/reg-plain.csv" > "$tmp/rank.csv"
for a in rls-low kf-low tagk; do
	expect "$a with columns Y_mcx and Y_Iyy zero: the note names mcx and Iyy" 0 "" \
		"^tagk-estimate: the data did not excite mcx, Iyy: the estimate there stays at its (prior|initial value)" -- \
		$E -a $a "$tmp/rank.csv" -o "$tmp/rank-est.csv"
	check "... once" test "$(grep -c 'did not excite' "$tmp/err")" -eq 1
done
awk -F, -v OFS=, 'NR > 1 { $4 = $5 } { print }' "$tmp/reg-plain.csv" > "$tmp/combo.csv"
expect "Y_mcx equal to Y_mcy: a combination" 0 "" "did not excite mcx, mcy \(in combination: not each alone\)" -- \
	$E -a rls-low "$tmp/combo.csv" -o "$tmp/combo-est.csv"
# (zeroed columns make rows no body explains: the model-fit check says so, whatever -q says; fitcheck_test.sh)
expect "-q silences the note" 0 "" "" -- $E -q --no-fit-check -a rls-low "$tmp/rank.csv" -o "$tmp/rank-est.csv"
expect "a well-excited stream gets no note" 0 "" "" -- $E --raw -a rls-low "$tmp/reg-plain.csv" -o "$tmp/est2.csv"

head -1 "$tmp/reg.csv" > "$tmp/decl-only.csv"
expect "a declared stream cut before its header" 1 "" "decl-only.csv: the stream was cut before its header" -- $E "$tmp/decl-only.csv"
expect "a tagk stream read back by tagk" 0 "" "" -- \
	sh -c "$BIN/tagk-filter '$tmp/small.csv' | $BIN/tagk-filter -o '$tmp/roundtrip.csv'"
check "... and tagk's markers round-trip through tagk-filter" same_rows "$tmp/roundtrip.csv" "$tmp/small.csv"

# --- Strict numbers in the vehicle and model files --------------------------
# (the numbers of option values follow the same rule: tests/options_test.sh)
$BIN/tagk-regress "$tmp/small.csv" | $E -q -a kf-low --every 1 > "$tmp/est-veh.csv"
veh() { printf "$2" > "$tmp/v.veh"; expect "vehicle file: $1" 1 "" "$3" -- $BIN/tagk-filter --physical --vehicle "$tmp/v.veh" "$tmp/est-veh.csv"; }
veh "a decimal comma" 'l_arm 1,5\n' "v.veh:1: 'l_arm': '1,5' is not a number"
veh "trailing junk in the number" 'l_arm 0.15abc\n' "v.veh:1: 'l_arm': '0.15abc' is not a number"
veh "a trailing word" 'l_arm 0.15 m\n' "v.veh:1: expected 'l_arm L' \(1 value, found 2\)"
veh "a repeated key" 'alpha 1e-4\nl_arm 0.1\nl_arm 0.2\n' "v.veh:3: 'l_arm' again \(first on line 2\)"
veh "a value out of its physical range" 'l_arm 1e308\n' "v.veh:1: 'l_arm': 1e308 is outside \(0, 10\] m"
veh "a hexadecimal float" 'alpha 0x1p-3\n' "v.veh:1: 'alpha': '0x1p-3' is not a number"
veh "a number too small to tell from 0" 'alpha 1e-400\n' "v.veh:1: 'alpha': '1e-400' is too small"
veh "a NUL byte" 'l_arm 0.1\000x\n' "v.veh:1: a NUL byte"
veh "a rotor with a bad spin" 'rotor 0.1 0 0 0.5\n' "v.veh:1: 'rotor': DIR is \+1 or -1"
sed 's/^  mass 0.6.*/  mass 1e300/' datasets/panda.model > "$tmp/m.model"
expect "model file: a mass of 1e300 kg is out of range, not 'an inertia that is not physical'" 1 "" \
	"m.model:[0-9]+: 'mass': 1e300 is outside \(0, 1e6\] kg" -- $BIN/tagk-regress -m multibody --robot "$tmp/m.model" --held link7 "$tmp/small.csv"
sed 's/^  pos \(.*\)$/  pos \1 0/' datasets/panda.model > "$tmp/m2.model"
expect "model file: four numbers where three belong" 1 "" "m2.model:[0-9]+: expected 'pos X Y Z' \(3 values, found 4\)" -- \
	$BIN/tagk-regress -m multibody --robot "$tmp/m2.model" --held link7 "$tmp/small.csv"

# --- The model and the log must be the same robot ---------------------------
$BIN/tagk-bench grasp --target 10 --duration 0.5 -o "$tmp/g7.csv" 2>/dev/null
awk '/^body link7/ { exit } { print }' datasets/panda.model > "$tmp/p6.model"
expect "a 6-joint model against a 7-joint log" 1 "" "g7.csv has column q7 but .*p6.model has 6 joints" -- \
	$BIN/tagk-regress -m multibody --robot "$tmp/p6.model" --held link6 "$tmp/g7.csv"
check "... and nothing is written" test ! -s "$tmp/out"

# --- Scores: time that goes back, scores that are not finite ----------------
printf 't,m,true_m\n0,1,1\n2,1.1,1\n1,1.2,1\n' > "$tmp/back.csv"
expect "tagk-report: time that goes back is refused" 1 "" "back.csv:4: time 1 does not increase \(previous 2\)" -- $P "$tmp/back.csv"
expect "... in the summary too" 1 "" "time 1 does not increase" -- sh -c "cut -d, -f1,2 '$tmp/back.csv' | $P"
printf 't,m,true_m\n0,1e300,1\n1,1,1\n' > "$tmp/huge.csv"
expect "tagk-report: an estimate of 1e300 kg gives no 'rmse inf'" 1 "" \
	"huge.csv: the scores of m are not finite: its estimate at t = 0 is off by 1e\+300" -- $P "$tmp/huge.csv"

# --- A killed upstream command, an upstream that wrote nothing ---------------
$BIN/tagk-regress --stream csv "$tmp/small.csv" | head -c 3000 > "$tmp/killed.csv"
expect "a CSV stream cut inside a line (its writer killed)" 1 "" \
	"killed.csv:[0-9]+: the stream was cut inside a line: .*stopped early \(killed, or its disk full\)" -- $E "$tmp/killed.csv"
$BIN/tagk-regress --stream csv "$tmp/small.csv" | grep -v '^#tagk-' | head -c 3000 > "$tmp/killed-plain.csv"
expect "a plain CSV cut inside its last line" 1 "" \
	"killed-plain.csv:[0-9]+: the input ends inside its last line \([0-9]+ fields? where the header has 23, and no line end\)" -- \
	$E "$tmp/killed-plain.csv"
expect "an upstream that failed before writing: the reader says so" 1 "" \
	"stdin: empty input: no header row \(the command writing to this pipe gave nothing: did it fail\?\)" -- \
	sh -c "$BIN/tagk-regress '$tmp/nonexistent.csv' 2>/dev/null | $E"

# --- A singular batch problem: the -pc methods say why as ols does ------------
plain "$tmp/reg.csv" | head -7 > "$tmp/one-sample.csv"
for a in ols ols-pc wls-pc; do
	expect "--batch -a $a on one sample: the data do not determine every parameter" 1 "" \
		"the data do not determine every parameter \(a singular normal matrix\)" -- $E --batch -a $a "$tmp/one-sample.csv"
done

# --- Noise far above what a method assumes: a note, not silence --------------
awk -F, -v OFS=, '/^#/ { next } NR > 1 { $13 = $13 + ((NR % 2) ? 3 : -3) } { print }' "$tmp/reg-plain.csv" > "$tmp/alt.csv"
expect "kf-low on rows with alternating noise of 3 N: its residuals far above its r" 0 "" \
	"kf-low: its normalised innovations averaged .*the residuals are about [0-9]+ times the noise its r \(1e-05\) assumes" -- \
	$E -a kf-low --every 1 "$tmp/alt.csv" -o "$tmp/alt-est.csv"
expect "rls-low on the same rows: its windows mostly noise" 0 "" \
	"rls-low: before each update, its estimate missed the window's rows by [0-9]+ %" -- \
	$E -a rls-low --every 1 "$tmp/alt.csv" -o "$tmp/alt-est.csv"
# rows in the wrong units by 1e100 (Y and b alike: the same parameters):
# the note's ratio in three digits, not "%.0f"'s 99
awk -F, -v OFS=, '/^#/ { next } NR > 1 { for (i = 3; i <= 13; i++) $i = $i * 1e100 } { print }' "$tmp/reg-plain.csv" > "$tmp/e100.csv"
expect "kf-low on rows scaled by 1e100: the residuals' ratio in three digits" 0 "" \
	"the residuals are about [0-9.]+e\+[0-9]+ times the noise" -- $E -a kf-low "$tmp/e100.csv" -o "$tmp/e100-est.csv"
check "... and no number of 20 digits anywhere in its notes" sh -c "! $E -a kf-low '$tmp/e100.csv' 2>&1 >/dev/null | grep -Eq '[0-9]{20}'"


# --- Inputs so large that the regressor overflows: an error, never Inf -------
awk -F, -v OFS=, 'NR > 1 { for (i = 2; i <= NF; i++) $i = $i * 1e300 } { print }' "$tmp/small.csv" > "$tmp/huge.csv"
expect "tagk-regress on values of 1e300: the overflow said, nothing written" 1 "" \
	"^tagk-regress: .*huge.csv: the sample at t = [-0-9.e+]+ s gives a regressor row beyond a double's range \(Inf\)" -- \
	$R "$tmp/huge.csv"
expect "... with --skip-bad: every sample skipped is said, not a gyro window" 1 "" \
	"every usable sample of the 20 read was skipped as bad \(--skip-bad\)$" -- $R --skip-bad "$tmp/huge.csv"
awk -F, -v OFS=, 'NR == 8 { for (i = 2; i <= NF; i++) $i = $i * 1e300 } { print }' "$tmp/small.csv" > "$tmp/one-huge.csv"
expect "... one such sample with --skip-bad: skipped and counted" 0 "*" "skipped 1 bad row of" -- \
	$R --skip-bad "$tmp/one-huge.csv" -o "$tmp/one-huge-reg.csv"
check "... and no Inf reaches the stream" sh -c "! grep -qi inf '$tmp/one-huge-reg.csv'"


# --- A truth of zeros: the relative error undefined, said as such -------------
$R "$tmp/small.csv" | $E -q -o "$tmp/zero-est.csv"
awk -F, -v OFS=, '/^#/ { next } NR == 2 { for (i = 1; i <= NF; i++) z[i] = $i ~ /^true_/ } NR > 2 { for (i in z) if (z[i]) $i = 0 } { print }' \
	"$tmp/zero-est.csv" > "$tmp/zero-truth.csv"
expect "tagk-report on a truth of zeros: the relative error undefined, not 'too large to square'" 1 "" \
	"the truth at t = [0-9.]+ is all zeros \(or too small to square\)" -- $P "$tmp/zero-truth.csv"

finish
