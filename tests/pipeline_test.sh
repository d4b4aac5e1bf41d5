#!/bin/sh
# pipeline_test.sh: tagk-regress, tagk-estimate, tagk-filter and tagk-report
# through the real binaries: the bad-input battery (exit 1, or 2 for usage,
# one clear line on stderr, nothing on stdout), the formats, mapping, and
# the commands composed through pipes.
set -u
BIN=${BIN:-bin}
MKFIX=${MKFIX:-build/mkfixtures}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate F=$BIN/tagk-filter P=$BIN/tagk-report S=$BIN/tagk-bench

"$MKFIX" "$tmp" || { echo "FAIL mkfixtures"; exit 1; }
$S synth --duration 4 --seed 3 -o "$tmp/syn.tagk" || { echo "FAIL synth"; exit 1; }
# the edits below change rows by line number: a plain CSV copy
plain "$tmp/syn.tagk" > "$tmp/syn.csv"
head -31 "$tmp/syn.csv" > "$tmp/small.csv"
line() { sed -n "${1}p" "$tmp/small.csv"; }

# --- the bad-input battery -------------------------------------------------
expect "missing file" 1 "" "^tagk-regress: $tmp/nope.csv: No such file or directory$" -- $R "$tmp/nope.csv"
: > "$tmp/empty.csv"
expect "empty file" 1 "" "empty input: no header row" -- $R "$tmp/empty.csv"
head -1 "$tmp/small.csv" > "$tmp/header.csv"
expect "header only" 1 "" "header.csv: no data rows" -- $R "$tmp/header.csv"
awk -F, -v OFS=, '{ $4 = ""; sub(/,,/, ","); print }' "$tmp/small.csv" > "$tmp/noaz.csv"
expect "missing required column" 1 "" "missing column 'az' for acc .*--map acc=COLS" -- $R "$tmp/noaz.csv"
sed '5s/^\([^,]*\),[^,]*/\1,abc/' "$tmp/small.csv" > "$tmp/text.csv"
expect "non-numeric cell" 1 "" "text.csv:5: column 'ax': not a number: 'abc'$" -- $R "$tmp/text.csv"
sed '6s/^\([^,]*\),[^,]*/\1,nan/' "$tmp/small.csv" > "$tmp/nan.csv"
expect "NaN" 1 "" "nan.csv:6: column 'ax': NaN \(--skip-bad skips such rows\)" -- $R "$tmp/nan.csv"
sed '6s/^\([^,]*\),[^,]*/\1,-inf/' "$tmp/small.csv" > "$tmp/inf.csv"
expect "Inf" 1 "" "inf.csv:6: column 'ax': Inf" -- $R "$tmp/inf.csv"
sed '7s/^\([^,]*\),[^,]*/\1,,/' "$tmp/small.csv" > "$tmp/emptycell.csv"
expect "empty cell" 1 "" "emptycell.csv:7: 27 fields, but the header has 26" -- $R "$tmp/emptycell.csv"
sed '7s/^\([^,]*\),[^,]*/\1,/' "$tmp/small.csv" > "$tmp/blank.csv"
expect "blank cell" 1 "" "blank.csv:7: column 'ax': empty cell" -- $R "$tmp/blank.csv"
# cells that are not numbers but look like a usual mistake say which
sed '7s/^[^,]*/2024-05-01T12:00:00.06Z/' "$tmp/small.csv" > "$tmp/iso.csv"
expect "a date-time stamp" 1 "" "iso.csv:7: column 't': not a number: '2024-05-01T12:00:00.06Z' \(a date or a time of day: tagk reads time as a number" -- $R "$tmp/iso.csv"
sed '1a\
s,m/s^2,m/s^2,m/s^2,rad/s,rad/s,rad/s,rad/s^2,rad/s^2,rad/s^2,N,N,N,N m,N m,N m,kg,m,m,m,kg m^2,,,,,' "$tmp/small.csv" > "$tmp/units.csv"
expect "a row of units under the header" 1 "" "units.csv:2: column 't': not a number: 's' \(a second header row, of units\? tagk reads one: delete line 2, sed 2d FILE\)" -- $R "$tmp/units.csv"
check "... the sed it names gives the log back" sh -c "sed 2d '$tmp/units.csv' | cmp -s - '$tmp/small.csv'"
sed '7s/^[^,]*/12:00:00.06/' "$tmp/small.csv" > "$tmp/tod.csv"
expect "a time of day" 1 "" "tod.csv:7: column 't': .*\(a date or a time of day" -- $R "$tmp/tod.csv"
sed '7s/^\([^,]*\),\([^,.]*\)\.\([^,]*\)/\1,"\2,\3"/' "$tmp/small.csv" > "$tmp/dcomma.csv"
expect "a quoted decimal comma" 1 "" "dcomma.csv:7: column 'ax': not a number: '-?[0-9]+,[0-9]+.*\(a decimal comma: tagk reads a decimal point\)" -- $R "$tmp/dcomma.csv"
sed '7s/^\([^,]*,[^,]*\)/\1g/' "$tmp/small.csv" > "$tmp/unit.csv"
expect "a unit in the cell" 1 "" "unit.csv:7: column 'ax': .*g' \(a number with text after it: a unit belongs in the header" -- $R "$tmp/unit.csv"
sed '7s/^\([^,]*\),[^,]*/\1,abc/' "$tmp/small.csv" > "$tmp/word.csv"
expect "a word is only not a number" 1 "" "word.csv:7: column 'ax': not a number: 'abc'$" -- $R "$tmp/word.csv"
sed '8s/$/,1/' "$tmp/small.csv" > "$tmp/ragged.csv"
expect "ragged row" 1 "" "ragged.csv:8: 27 fields, but the header has 26" -- $R "$tmp/ragged.csv"
sed '9s/^[^,]*/0.01/' "$tmp/small.csv" > "$tmp/back.csv"
expect "time going backwards" 1 "" "back.csv:9: time 0.01 goes back from the previous 0.06 \(--skip-bad" -- $R "$tmp/back.csv"
sed '9s/^[^,]*/0.06/' "$tmp/small.csv" > "$tmp/dup.csv"
expect "duplicate time" 1 "" "dup.csv:9: time 0.06 repeats the previous 0.06" -- $R "$tmp/dup.csv"
{ line 1; line 2; head -c 1048576 /dev/zero | tr '\0' '7'; echo; line 3; } > "$tmp/long.csv"
expect "a 1 MB line" 1 "" "long.csv:3: line longer than the limit of 65536 bytes" -- $R "$tmp/long.csv"
printf 'PK\003\004\000\000\001\002binary junk\000\377' > "$tmp/junk.csv"
expect "binary junk as CSV" 1 "" "junk.csv:1: binary data \(a NUL byte\), not CSV" -- $R "$tmp/junk.csv"
# text a spreadsheet or Windows tool wrote, named for what it is (not
# "binary data", not "missing column 't'"), with the conversion to make
if command -v iconv >/dev/null 2>&1; then
	iconv -f UTF-8 -t UTF-16 "$tmp/small.csv" > "$tmp/u16.csv"
	expect "UTF-16 with its byte-order mark" 1 "" "u16.csv: UTF-16 text, not UTF-8: convert it first, e.g. iconv -f UTF-16 -t UTF-8 FILE" -- $R "$tmp/u16.csv"
	iconv -f UTF-8 -t UTF-16LE "$tmp/small.csv" > "$tmp/u16le.csv"
	expect "UTF-16LE without one: the order named for iconv" 1 "" "u16le.csv: UTF-16 text, .*iconv -f UTF-16LE " -- $R -o "$tmp/u16-out.csv" "$tmp/u16le.csv"
	check "... the iconv it names gives the log back" sh -c "iconv -f UTF-16LE -t UTF-8 '$tmp/u16le.csv' | cmp -s - '$tmp/small.csv'"
	check "... and no output file" test ! -e "$tmp/u16-out.csv"
	iconv -f UTF-8 -t UTF-16BE "$tmp/small.csv" > "$tmp/u16be.csv"
	expect "UTF-16BE without one" 1 "" "u16be.csv: UTF-16 text, .*iconv -f UTF-16BE " -- $R "$tmp/u16be.csv"
fi
tr ',' '\t' < "$tmp/small.csv" > "$tmp/tabs.tsv"
expect "a tab-separated log" 1 "" "tabs.tsv:1: the header is one column, 't\\\\tax.*', with 25 tabs in it: a tab-separated file\\? .*tr '\\\\t' ','" -- $R "$tmp/tabs.tsv"
sed 's/,/;/g; s/\./,/g' "$tmp/small.csv" > "$tmp/semi.csv"
expect "a semicolon-separated log with decimal commas" 1 "" "semi.csv:1: .* with 25 semicolons in it: a semicolon-separated file\\? .*sed 's/,/./g; s/;/,/g' FILE" -- $F "$tmp/semi.csv"
check "... which the sed it names turns back into the log" sh -c "sed 's/,/./g; s/;/,/g' '$tmp/semi.csv' | cmp -s - '$tmp/small.csv'"
printf 't\n0\n0.01\n' > "$tmp/onecol.csv"
expect "a one-column CSV with no separator in its name is still read" 0 "^0.01$" "" -- $F --stream csv "$tmp/onecol.csv"
# a NUL past the reader's first 256 KiB block names its own line, not the
# line being read when the block that holds it came in
$S synth --duration 12 --seed 3 -o "$tmp/syn12.csv"
sed '1100s/^/@/' "$tmp/syn12.csv" | tr '@' '\000' > "$tmp/nul.csv"
expect "a NUL byte on line 1100" 1 "" "nul.csv:1100: binary data \(a NUL byte\), not CSV" -- $R -o "$tmp/nul-out.csv" "$tmp/nul.csv"
check "... and the rows before it make no output file" test ! -e "$tmp/nul-out.csv"
printf '\274\001' > "$tmp/junk.bin"
expect "binary junk with a uSD magic byte" 1 "" "junk.bin: (too short|header truncated)" -- $R "$tmp/junk.bin"
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
# per-topic logs joined on one time base: a PX4-like IMU topic at 250 Hz and
# a force/torque topic at 100 Hz (the same prescribed flight at two rates)
$S synth --rate 250 --seed 4 | grep -v '^#tagk-' > "$tmp/s250.csv"
$S synth --rate 100 --seed 4 | grep -v '^#tagk-' > "$tmp/s100.csv"
cut -d, -f1-10,17- "$tmp/s250.csv" > "$tmp/imu.csv"
cut -d, -f1,11-16 "$tmp/s100.csv" > "$tmp/ft.csv"
expect "--join: the 100 Hz topic onto the 250 Hz one" 0 "" \
	"^tagk-filter: --join .*ft.csv: dropped 2 rows outside its time span and 0 in its gaps longer than 0.05$" -- \
	$F "$tmp/imu.csv" --join "$tmp/ft.csv" -o "$tmp/joined.csv"
check "... the joined stream has the IMU's rows within the topic's span" test "$(plain "$tmp/joined.csv" | wc -l)" -eq 4999
check "... and at the topic's own times its values (to 1e-9)" awk -F, '
	/^#/ { next } NR == FNR { if (FNR > 1) for (i = 2; i <= 7; i++) f[sprintf("%.6f", $1), i] = $i; next }
	FNR > 2 && ((k = sprintf("%.6f", $1)) SUBSEP 2) in f { n++
		for (i = 2; i <= 7; i++) { a = f[k, i]; d = $(i + 19) - a; if (d < 0) d = -d
			if (d > 1e-9 * (a < 0 ? -a : a) + 1e-15) bad = 1 } }
	END { exit bad || n < 990 }' "$tmp/ft.csv" "$tmp/joined.csv"
r_direct=$($R "$tmp/s250.csv" | $E -a kf-low | $P --format csv | awk -F, '$2 == "m" { print $8 }')
r_joined=$($R "$tmp/joined.csv" | $E -a kf-low | $P --format csv | awk -F, '$2 == "m" { print $8 }')
check "... estimates through it: mass RMSPE $r_joined % against $r_direct % with every signal at 250 Hz" \
	awk -v a="$r_joined" -v b="$r_direct" 'BEGIN { exit !(a < 1.2 * b + 0.2) }'
# ROS-like exports: time split into stamp.sec and stamp.nsec
for f in imu ft; do
	awk -F, -v OFS=, 'NR == 1 { $1 = "stamp.sec,stamp.nsec"; print; next }
		{ ns = int($1 * 1e9 + 0.5); s = int(ns / 1e9); $1 = (1700000000 + s) "," (ns - s * 1e9); print }' \
		"$tmp/$f.csv" > "$tmp/ros_$f.csv"
done
expect "--stamp SEC,NSEC combines the time of every file" 0 "" "dropped 2 rows outside" -- \
	$F --stamp stamp.sec,stamp.nsec "$tmp/ros_imu.csv" --join "$tmp/ros_ft.csv:ft_" -o "$tmp/ros_joined.csv"
check "... into a first column t, prefixed joined columns" \
	test "$(sed -n 2p "$tmp/ros_joined.csv" | cut -d, -f1,2,21)" = "t,ax,ft_fx"
check "... t is sec + 1e-9 nsec" test "$(sed -n 4p "$tmp/ros_joined.csv" | cut -d, -f1)" = "1700000000.004"
expect "--join: a name in both files needs a prefix" 1 "" "two output columns named 't_x'|two output columns named 'fx'" -- \
	$F "$tmp/s250.csv" --join "$tmp/ft.csv"
awk -F, 'NR == 1 || $1 < 5 || $1 > 6' "$tmp/ft.csv" > "$tmp/ft_gap.csv"
expect "--join: rows in a gap of the topic are dropped and counted" 0 "" "and 255 in its gaps longer than 0.05" -- \
	$F "$tmp/imu.csv" --join "$tmp/ft_gap.csv:g_" -o "$tmp/gap.csv"
expect "--join: no time column" 1 "" "no time column 'time'" -- $F --time-col time "$tmp/imu.csv" --join "$tmp/ft.csv"
# a topic longer than the joined file's read-ahead (4097 rows: it is read
# as the stream goes), with a gap past the read-ahead
$S synth --rate 250 --seed 6 --duration 60 | grep -v '^#tagk-' | cut -d, -f1-10 > "$tmp/imu60.csv"
$S synth --rate 100 --seed 6 --duration 60 | grep -v '^#tagk-' | cut -d, -f1,11-16 | awk -F, 'NR == 1 || $1 < 50 || $1 > 51' \
	> "$tmp/ft60.csv"
in_gap=$(awk -F, 'NR == FNR { if (FNR > 1) { if ($1 < 50) a = $1; else if (b == "") b = $1 } next }
	FNR > 1 && $1 > a && $1 < b { n++ } END { print n }' "$tmp/ft60.csv" "$tmp/imu60.csv")
expect "--join: a 5899-row topic with a gap at 50 s: the $in_gap rows inside it dropped" 0 "" \
	"dropped [0-9]+ rows outside its time span and $in_gap in its gaps longer than 0.05$" -- \
	$F "$tmp/imu60.csv" --join "$tmp/ft60.csv" -o "$tmp/joined60.csv"
expect "--join - with the stream on standard input too: refused" 2 "" "--join -: standard input is read already" -- \
	sh -c "$F --join - < '$tmp/imu60.csv'"
expect "--join - with the stream from a file: the same rows as the file joined" 0 "" "" -- \
	sh -c "$F '$tmp/imu60.csv' --join - < '$tmp/ft60.csv' 2>/dev/null | cmp -s - '$tmp/joined60.csv'"
check "... and at the topic's own times its values (to 1e-9), after the read-ahead too" awk -F, '
	/^#/ { next } NR == FNR { if (FNR > 1) for (i = 2; i <= 7; i++) f[sprintf("%.6f", $1), i] = $i; next }
	FNR > 2 && ((k = sprintf("%.6f", $1)) SUBSEP 2) in f { n++; if ($1 > 55) late++
		for (i = 2; i <= 7; i++) { a = f[k, i]; d = $(i + 9) - a; if (d < 0) d = -d
			if (d > 1e-9 * (a < 0 ? -a : a) + 1e-15) bad = 1 } }
	END { exit bad || n < 2900 || late < 240 }' "$tmp/ft60.csv" "$tmp/joined60.csv"

# gzip: read by magic bytes, written by the .gz extension
gzip -c "$tmp/syn.csv" > "$tmp/syn.csv.gz"
expect "gzip input gives the same regressor stream" 0 "" "" -- sh -c "$R '$tmp/syn.csv.gz' > '$tmp/r_gz.csv'"
check "... byte for byte" sh -c "$R '$tmp/syn.csv' | cmp -s - '$tmp/r_gz.csv'"
expect "gzip on standard input" 0 "" "" -- sh -c "$R < '$tmp/syn.csv.gz' | cmp -s - '$tmp/r_gz.csv'"
expect "-o FILE.csv.gz writes gzip" 0 "" "" -- $R "$tmp/syn.csv" -o "$tmp/r.csv.gz"
check "... which gunzip reads back to the plain stream" sh -c "gzip -dc '$tmp/r.csv.gz' | cmp -s - '$tmp/r_gz.csv'"
# zlib's fastest level: its header's XFL byte is 4 (0 at gzip's default -6)
expect "... at zlib's fastest level (gzip header XFL 4)" 0 "^ *4$" "" -- od -An -tu1 -j8 -N1 "$tmp/r.csv.gz"
head -c 2000 "$tmp/syn.csv.gz" > "$tmp/cut.csv.gz"
expect "a truncated .gz file" 1 "" "cut.csv.gz: read error: gzip data cut short" -- $R "$tmp/cut.csv.gz"
expect "HDF5 output is not compressed" 1 "" "x.h5.gz: HDF5 output is not gzip-compressed" -- $R "$tmp/syn.csv" -o "$tmp/x.h5.gz"

# text columns (a flight mode, a name) are ignored unless asked for
awk -F, -v OFS=, 'NR == 1 { print $1, "mode", substr($0, index($0, ",") + 1); next }
	{ print $1, (NR < 10 ? "hover" : "cruise"), substr($0, index($0, ",") + 1) }' "$tmp/small.csv" > "$tmp/mode.csv"
expect "tagk-filter leaves a text column out, with a note" 0 "" "^tagk-filter: .*mode.csv: column 'mode' is text: left out$" -- \
	$F "$tmp/mode.csv" -o "$tmp/mode-out.csv"
check "... and passes every other column and row" same_rows "$tmp/mode-out.csv" "$tmp/small.csv"
expect "tagk-filter refuses a text column it is asked to filter" 1 "" "column 'mode' is text, but it is a --noise column" -- \
	$F --noise mode=1 "$tmp/mode.csv"
expect "tagk-regress ignores a text column" 0 "" "" -- sh -c "$R '$tmp/mode.csv' > '$tmp/mode.reg'"
check "... and writes what it writes without it" sh -c "$R '$tmp/small.csv' | cmp -s - '$tmp/mode.reg'"
expect "a text column mapped as a signal is an error" 1 "" "column 'mode': not a number: 'hover'" -- \
	$R --map t=mode "$tmp/mode.csv"
expect "a text dataset is skipped" 0 "^t$" "" -- sh -c "$F '$tmp/text.h5' | sed -n 2p"
expect "... and one mapped as a signal is said to hold text, not said to be missing" 1 "" \
	"missing column 'label' for acc .*: the file has a dataset 'label', but it holds text, not numbers$" -- \
	$R --map acc=label,t,t "$tmp/text.h5"
expect "... as a column filter names" 2 "" "has no column 'label': the file has a dataset 'label', but it holds text" -- \
	$F --lowpass label=3 "$tmp/text.h5"
expect "... and a name the file has not at all, without the note" 2 "" "has no column 'bogus'$" -- \
	$F --lowpass bogus=3 "$tmp/text.h5"
expect "cfusd with a bad CRC" 1 "" "badcrc.cfusd: CRC-32 mismatch .*--ignore-crc" -- \
	$R --preset crazyflie "$tmp/badcrc.cfusd"
expect "bad CRC overridden" 0 "^t,row,Y_m" "" -- $R --preset crazyflie --ignore-crc "$tmp/badcrc.cfusd"
expect "truncated cfusd record" 1 "" "truncated.cfusd: record 34: truncated" -- \
	$R --preset crazyflie "$tmp/truncated.cfusd"
expect "truncated cfusd record, from a pipe" 1 "" "stdin: record 34: truncated" -- \
	sh -c "cat '$tmp/truncated.cfusd' | $R --preset crazyflie -"
$R "$tmp/small.csv" > "$tmp/small.reg"
expect "unknown method" 2 "" "^tagk-estimate: -a: unknown method 'nope' \(tagk-estimate --list names them\)$" -- \
	$E -a nope "$tmp/small.reg"
expect "a window larger than the data" 1 "" "30 samples, fewer than the window of 40: no estimate" -- \
	$E --window 40 "$tmp/small.reg"
expect "not a regressor stream" 1 "" "not a regressor stream" -- $E "$tmp/small.csv"
expect "not an estimate stream" 1 "" "not an estimate stream" -- $P "$tmp/small.csv"
# rls-ld (paper 003): a physical start is required, and every estimate is physical
T0=0.03,0,0,0,2e-5,0,2e-5,0,0,3e-5
$R datasets/sim-figure8-noisy.csv > "$tmp/fig8.reg"
expect "rls-ld without --theta0 says what it needs" 2 "" \
	"^tagk-estimate: rls-ld needs a physically consistent starting estimate .* --theta0 m,mcx" -- $E -a rls-ld "$tmp/fig8.reg"
expect "rls-ld with a non-physical --theta0" 2 "" "rls-ld needs a physically consistent starting estimate" -- \
	$E -a rls-ld --theta0 0.03,0,0,0,-2e-5,0,2e-5,0,0,3e-5 "$tmp/fig8.reg"
expect "--theta0 of the wrong length" 2 "" "^tagk-estimate: --theta0: 3 values given; .* has 10 parameters$" -- \
	$E -a rls-ld --theta0 1,2,3 "$tmp/fig8.reg"
expect "--theta0 on a batch method" 2 "" "--theta0 applies to the regressor-window methods, wls-pullback, wls-bregman, dm and dm-pc, not ols" -- \
	$E --batch --theta0 $T0 "$tmp/fig8.reg"
expect "--alpha on tagk" 2 "" "^tagk-estimate: --alpha applies to rls-ld and rls-l2, not tagk$" -- \
	$E -a tagk --alpha 1 "$tmp/fig8.reg"
expect "rls-ld through the pipeline: every estimate physical" 0 "0 of 200 estimates not physical" "" -- \
	sh -c "$E -a rls-ld --theta0 $T0 '$tmp/fig8.reg' | $P"
expect "... where rls is not (--raw), and the report says so" 0 "130 of 200 estimates not physical" \
	"only 70 of 200 estimates \(35 %\) are physical bodies" -- sh -c "$E -a rls --raw '$tmp/fig8.reg' | $P"
expect "... projected by default: the report counts the method's estimates, and those projected" 0 \
	"physical bodies: 70 of 200 estimates \(35 %\) as the method gave them; 130 more written as the nearest physical body" \
	"130 of 200 estimates were not physical bodies and are written as the nearest physical body" -- \
	sh -c "$E -a rls '$tmp/fig8.reg' | $P"
check "... and the projected estimates are physical: the log-det divergence has none that is not" \
	grep -q "; 0 of 200 estimates not physical" "$tmp/out"
$E -a rls-ld --theta0 $T0 --alpha 1e-9 "$tmp/fig8.reg" > "$tmp/ld0.csv"
check "--alpha changes rls-ld's estimates" sh -c "! $E -a rls-ld --theta0 $T0 '$tmp/fig8.reg' | cmp -s - '$tmp/ld0.csv'"
# paper 003 through the pipeline: tagk-bench grasp's joint log, tagk-regress
# -m multibody, rls-ld; the final divergence equals grasp-table's, which
# computes the same in one process (with the simulator's exact signals, one
# estimation sample per simulated one)
CUBE0=1,0,0,0.107,0.021449,0,0.021449,0,0,0.01
$S grasp-table --duration 3 --signals exact --dt 0.01 --est-dt 0.01 > "$tmp/gt.txt"
$S grasp --target 10 --duration 3 --dt 0.01 -o "$tmp/g.csv" 2>/dev/null
$R -m multibody --robot datasets/panda.model --held link7 "$tmp/g.csv" > "$tmp/g.reg"
check "multibody force rows: 7 per sample, 301 samples" test "$(plain "$tmp/g.reg" | sed 1d | wc -l)" -eq 2107
want=$(awk '/^10 kg +0 %/ { print $6 }' "$tmp/gt.txt")
got=$($E -a rls-ld --theta0 $CUBE0 --window 1 --every 1 --alpha 50 "$tmp/g.reg" | $P \
	| sed -n 's/.*D(J^ || J): mean [^,]*, final \([^;]*\);.*/\1/p')
check "ground, force rows: the pipeline's final D ($got) is grasp-table's ($want)" \
	sh -c "awk -v a='$got' -v b='$want' 'BEGIN { exit !(a > 0 && (a - b) / b < 1e-3 && (b - a) / b < 1e-3) }'"
$E -a rls-ld --theta0 $CUBE0 --window 1 --every 1 --alpha 50 "$tmp/g.reg" > "$tmp/gld.csv"
check "--logdet: one divergence per estimate, the last one the summary's final D" sh -c \
	"test \"\$($P --logdet --format csv '$tmp/gld.csv' | sed 1d | wc -l)\" -eq 301 &&
	 awk -v a=\"\$($P --logdet --format csv '$tmp/gld.csv' | tail -1 | cut -d, -f2)\" -v b='$got' 'BEGIN { exit !((a - b) / b < 1e-3 && (b - a) / b < 1e-3) }'"
expect "--logdet marks the estimates that are not physical, and stderr says so" 0 "estimate not physical" "are physical bodies" -- sh -c \
	"$E -a rls --raw --window 1 --every 1 '$tmp/g.reg' | $P --logdet"
expect "--logdet on the mass model" 2 "" "--logdet: .* holds the mass only" -- sh -c \
	"$R -m mass datasets/synth-payload.csv | $E -a rls | $P --logdet"
expect "--logdet without the truth" 1 "" "--logdet: .* has no true_\* columns" -- sh -c \
	"$E -a rls-ld --theta0 $CUBE0 --window 1 --every 1 '$tmp/g.reg' | $F -o '$tmp/gld-plain.csv' && grep -v '^#tagk-' '$tmp/gld-plain.csv' | cut -d, -f1-11 | $P --logdet"
$S grasp --base floating --target 50 --robot-error 0.025 --duration 3 --dt 0.01 --model-out "$tmp/k.model" \
	-o "$tmp/o.csv" 2>/dev/null
$R -m multibody --robot "$tmp/k.model" --held link7 --rows momentum "$tmp/o.csv" > "$tmp/o.reg"
check "momentum rows: 6 per sample from the second" test "$(plain "$tmp/o.reg" | sed 1d | wc -l)" -eq 1800
want=$(awk '/^Table III/ { on = 1 } on && /^50 kg +2.5 %/ { print $8 }' "$tmp/gt.txt")
got=$($E -a rls-ld --theta0 $CUBE0 --window 1 --every 1 --alpha 0.1 "$tmp/o.reg" | $P \
	| sed -n 's/.*D(J^ || J): mean [^,]*, final \([^;]*\);.*/\1/p')
check "orbit, momentum rows: the pipeline's final D ($got) is grasp-table's ($want)" \
	sh -c "awk -v a='$got' -v b='$want' 'BEGIN { exit !(a > 0 && (a - b) / b < 1e-3 && (b - a) / b < 1e-3) }'"
$R -m multibody --robot datasets/panda.model --held link7 --rows energy "$tmp/g.csv" > "$tmp/ge.reg"
if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
	check "energy rows are the force rows weighted by the joint velocities (NumPy)" /usr/bin/python3 -c "
import numpy as np, sys
g = np.genfromtxt('$tmp/g.csv', delimiter=',', names=True, skip_header=1)
f = np.genfromtxt('$tmp/g.reg', delimiter=',', skip_header=2)
e = np.genfromtxt('$tmp/ge.reg', delimiter=',', skip_header=2)
qd = np.column_stack([g['qd%d' % j] for j in range(1, 8)])
F = f[:, 2:13].reshape(len(g), 7, 11)
want = np.einsum('ka,kac->kc', qd, F)
sys.exit(not (e.shape == (len(g), 23) and np.abs(e[:, 2:13] - want).max() <= 1e-9 * np.abs(want).max()))"
fi
expect "a binary file as a model" 1 "" "binary.model:1: not a model file \(a key with bytes that are not printable" -- \
	$R -m multibody --robot tests/fuzz/corpus/model/binary.model --held link7 "$tmp/g.csv"
expect "the fixed base as the unknown" 2 "" "the fixed base's parameters never enter the joint forces" -- \
	$R -m multibody --robot datasets/panda.model --unknown link0 "$tmp/g.csv"
expect "momentum rows of a fixed base" 2 "" "--rows momentum: .* has gravity" -- \
	$R -m multibody --robot datasets/panda.model --held link7 --rows momentum "$tmp/g.csv"
expect "a body not in the model" 2 "" "^tagk-regress: --unknown: no body 'link9' in datasets/panda.model$" -- \
	$R -m multibody --robot datasets/panda.model --unknown link9 "$tmp/g.csv"
expect "multibody without --robot" 2 "" "-m multibody needs --robot FILE" -- $R -m multibody --held link7 "$tmp/g.csv"
expect "a log option with multibody" 2 "" "^tagk-regress: --acc-unit does not apply to -m multibody$" -- \
	$R -m multibody --robot datasets/panda.model --held link7 --acc-unit g "$tmp/g.csv"
expect "--robot without multibody" 2 "" "apply to -m multibody" -- $R --robot datasets/panda.model "$tmp/g.csv"
cut -d, -f1-22 "$tmp/g.csv" > "$tmp/notau.csv"
expect "a joint log without torques" 1 "" "notau.csv: missing column 'tau1' \(joint torques" -- \
	$R -m multibody --robot datasets/panda.model --held link7 "$tmp/notau.csv"
plain "$tmp/o.csv" | cut -d, -f1-15,30-42,49-58 > "$tmp/o_noacc.csv"
check "momentum rows need no accelerations and no torques: the same rows without those columns" sh -c \
	"$R -m multibody --robot '$tmp/k.model' --held link7 --rows momentum '$tmp/o_noacc.csv' | cmp -s - '$tmp/o.reg'"
# batch least squares over the whole stream, against NumPy
$R datasets/synth-payload-noisy.csv | grep -v '^#tagk-' > "$tmp/noisy.reg"
for a in ols wls ols-pc wls-pc; do
	$E --batch -a $a --segment truth "$tmp/noisy.reg" > "$tmp/b_$a.csv" 2> "$tmp/b_$a.err"
done
check "--batch: one estimate per truth segment (3)" test "$(plain "$tmp/b_ols.csv" | wc -l)" -eq 4
# a user's weight column: rows 0-2 (forces) weight 1, 3-5 (torques) by a
# per-row value that varies, so that a wrong pairing of weights and rows shows
awk -F, -v OFS=, 'NR == 1 { print $0, "w"; next } { print $0, ($2 < 3 ? 1 : 0.5 + ((NR * 7) % 13) / 13) }' \
	"$tmp/noisy.reg" > "$tmp/noisy_w.reg"
$E --batch -a wls --weight w --segment truth "$tmp/noisy_w.reg" > "$tmp/b_wcol.csv"
expect "--weight on ols" 2 "" "--weight applies to wls, wls-pc, wls-bregman and wls-pullback, not ols" -- $E --batch -a ols --weight w "$tmp/noisy_w.reg"
awk -F, -v OFS=, 'NR == 50 { $NF = -1 } { print }' "$tmp/noisy_w.reg" > "$tmp/neg_w.reg"
expect "a negative weight" 1 "" "neg_w.reg:50: --weight w: -1 is not a weight" -- $E --batch -a wls --weight w "$tmp/neg_w.reg"
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	check "--batch ols, wls and wls --weight equal NumPy's least squares per segment (1e-9)" /usr/bin/python3 - "$tmp" <<'PYEOF'
import sys, numpy as np
d = sys.argv[1]
R = np.genfromtxt(d + "/noisy.reg", delimiter=",", names=True)
ycols = [c for c in R.dtype.names if c.startswith("Y_")]
tcols = ["true_" + c[2:] for c in ycols]
Y, b, row = np.column_stack([R[c] for c in ycols]), R["b"], R["row"].astype(int)
T = np.column_stack([R[c] for c in tcols])
# segments: a new one where the truth changes between samples
seg = np.concatenate(([0], np.cumsum(np.any(T[1:] != T[:-1], axis=1))))
def load(name):
    rows = [l for l in open(d + "/" + name) if not l.startswith("#")]
    return np.array([[float(x) for x in l.split(",")] for l in rows[1:]])
ols, wls, wcol = load("b_ols.csv"), load("b_wls.csv"), load("b_wcol.csv")
W = np.genfromtxt(d + "/noisy_w.reg", delimiter=",", names=True)["w"]
worst = 0
for s in range(seg.max() + 1):
    k = seg == s
    th = np.linalg.lstsq(Y[k], b[k], rcond=None)[0]
    # paper 002's recipe: weights from each row index's residual variance
    r = b[k] - Y[k] @ th
    var = np.array([np.mean(r[row[k] == i] ** 2) for i in range(row.max() + 1)])
    w = 1 / np.maximum(var, 1e-12 * var.max())[row[k]]
    thw = np.linalg.lstsq(Y[k] * np.sqrt(w)[:, None], b[k] * np.sqrt(w), rcond=None)[0]
    sw = np.sqrt(W[k])
    thc = np.linalg.lstsq(Y[k] * sw[:, None], b[k] * sw, rcond=None)[0]
    for mine, ref in ((ols[s, 1:1 + len(ycols)], th), (wls[s, 1:1 + len(ycols)], thw),
                      (wcol[s, 1:1 + len(ycols)], thc)):
        worst = max(worst, np.max(np.abs(mine - ref) / (np.abs(ref) + 1e-12 * np.abs(ref).max())))
print("batch against NumPy: worst relative difference %.2g" % worst, file=sys.stderr)
sys.exit(1 if worst > 1e-9 else 0)
PYEOF
fi
check "--batch wls beats ols on the noisy log (RMSPE of Ixy, the worst-determined parameter)" sh -c "
	o=\$($P --format csv '$tmp/b_ols.csv' | awk -F, '\$2 == \"Ixy\" { print \$8 }')
	w=\$($P --format csv '$tmp/b_wls.csv' | awk -F, '\$2 == \"Ixy\" { print \$8 }')
	awk -v o=\"\$o\" -v w=\"\$w\" 'BEGIN { exit !(w < o) }'"
$E --batch --segment 5.06,13.5 "$tmp/noisy.reg" > "$tmp/b_times.csv"
check "--segment by times equals --segment truth where they coincide" cmp -s "$tmp/b_times.csv" "$tmp/b_ols.csv"
# a short noisy log whose least-squares body is not physical: -pc makes it so
# (ten whole samples of six rows: a log that starts inside a sample is refused)
awk -F, 'NR == 1 || (NR > 601 && NR <= 661)' "$tmp/noisy.reg" | awk -F, -v OFS=, 'NR == 1 { print; next } { srand(NR); $13 = $13 + 0.05 * (rand() - 0.5); print }' > "$tmp/short.reg"
$E --batch -a ols --raw "$tmp/short.reg" > "$tmp/short_ols.csv"
$E --batch -a ols-pc "$tmp/short.reg" > "$tmp/short_pc.csv"
expect "the short log's ols estimate is not physical" 1 "" "rejected all 1 estimates" -- $F --physical --l-arm 1e6 --alpha 1e12 "$tmp/short_ols.csv"
expect "... its ols-pc estimate is" 0 "*" "rejected 0 of 1" -- $F --physical --l-arm 1e6 --alpha 1e12 "$tmp/short_pc.csv"
expect "--batch with --window" 2 "" "--window does not apply to the batch method ols" -- $E --batch --window 5 "$tmp/noisy.reg"
expect "--segment on a window method" 2 "" "--segment applies to the batch methods" -- $E -a tagk --segment 1 "$tmp/noisy.reg"
expect "--segment times that go back" 2 "" "--segment: the times must increase" -- $E --batch --segment 5,3 "$tmp/noisy.reg"

# plots: PNG, SVG and PDF of the requested size, several streams on one figure
$R "$tmp/syn.csv" | $E -a kf-low --every 1 > "$tmp/p_kf.csv"
$R "$tmp/syn.csv" | $E -a tagk --every 1 > "$tmp/p_tagk.csv"
# the width and height a PNG's IHDR chunk declares (bytes 17-24, big-endian)
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", (($1 * 256 + $2) * 256 + $3) * 256 + $4, (($5 * 256 + $6) * 256 + $7) * 256 + $8 }'; }
expect "--plot: two methods on one PNG, and a report for each (tagk's estimates flagged)" 0 "^# .*p_tagk.csv: 396 estimates" \
	"p_tagk.csv: only [0-9]+ of 396 estimates \([0-9]+ %\) are physical bodies" -- \
	$P --plot "$tmp/fig.png" "$tmp/p_kf.csv" "$tmp/p_tagk.csv"
check "... the first one's too" grep -q "^# .*p_kf.csv: 396 estimates" "$tmp/out"
check "... a PNG (signature) of 960x540 ($(png_size "$tmp/fig.png"))" \
	sh -c "[ \"\$(od -An -tx1 -N8 '$tmp/fig.png' | tr -d ' ')\" = 89504e470d0a1a0a ] && [ '$(png_size "$tmp/fig.png")' = 960x540 ]"
expect "--plot-size and four panels" 0 "*" "" -- \
	$P --plot "$tmp/fig4.png" --plot-params m,mcx,Ixx,Izz --plot-size 800x1000 "$tmp/p_kf.csv"
check "... 800x1000 ($(png_size "$tmp/fig4.png"))" test "$(png_size "$tmp/fig4.png")" = 800x1000
expect "--plot-params all: ten panels in two columns, taller by default" 0 "*" "*" -- \
	$P --plot "$tmp/fig10.png" --plot-params all "$tmp/p_kf.csv"
check "... 960x940 ($(png_size "$tmp/fig10.png"))" test "$(png_size "$tmp/fig10.png")" = 960x940
grep -v '^#tagk-' "$tmp/p_kf.csv" | cut -d, -f1,2,12 > "$tmp/p_m.csv"
printf 't,m\n0,0.035\n1,0.05\n2.5,0.035\n' > "$tmp/p_truth.csv"
expect "--plot with a --truth file: drawn, and the report scores against it" 0 "2 truth changes" "" -- \
	$P --plot "$tmp/figt.svg" --truth "$tmp/p_truth.csv" "$tmp/p_m.csv"
check "... the SVG holds the truth's dashed line and a band (filled, translucent)" sh -c \
	"grep -q 'stroke-dasharray' '$tmp/figt.svg' && grep -q 'fill-opacity' '$tmp/figt.svg'"
expect "--plot with one stream: the report is printed too" 0 "rmspe_%" "" -- sh -c "$P --plot '$tmp/fig.svg' < '$tmp/p_kf.csv'"
check "... and stdin, read twice, says stdin" grep -q "^# stdin: " "$tmp/out"
if /usr/bin/python3 -c 'import xml' 2>/dev/null; then
	check "... an SVG that parses as XML, 960 by 540" /usr/bin/python3 -c "
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
sys.exit(not (r.tag.endswith('svg') and r.get('width').startswith('960') and r.get('height').startswith('540')))" "$tmp/fig.svg"
fi
expect "--plot to PDF" 0 "*" "" -- $P --plot "$tmp/fig.pdf" "$tmp/p_kf.csv"
check "... a PDF with a 960 x 540 page" sh -c "head -c 5 '$tmp/fig.pdf' | grep -q '%PDF-' && grep -aq 'MediaBox \[ *0 0 960 540 *\]' '$tmp/fig.pdf'"
expect "--plot: an unknown extension" 2 "" "--plot: '.*fig.gif' does not end in .png, .svg or .pdf" -- $P --plot "$tmp/fig.gif" "$tmp/p_kf.csv"
expect "--plot-params: an unknown parameter" 2 "" "--plot-params: 'mass' is not a parameter" -- \
	$P --plot "$tmp/f.png" --plot-params mass "$tmp/p_kf.csv"
expect "several inputs without --plot: one report each" 0 "^# .*p_tagk.csv: 396 estimates" "p_tagk.csv: only" -- \
	$P "$tmp/p_kf.csv" "$tmp/p_tagk.csv"
expect "several inputs in CSV" 2 "" "several inputs make one report each in text or Markdown" -- \
	$P --format csv "$tmp/p_kf.csv" "$tmp/p_tagk.csv"
check "a failed plot leaves no file" test ! -e "$tmp/f.png"

# the gate's bounds from a vehicle file: a 1 kg quadrotor's body passes
printf '# a 1 kg quadrotor\nl_arm 0.15\nalpha 0.05\n' > "$tmp/quad.veh"
printf 't,m,mcx,mcy,mcz,Ixx,Ixy,Iyy,Ixz,Iyz,Izz\n1,1,0.04,0,0,2e-2,0,1e-2,0,0,3e-2\n' > "$tmp/big.csv"
expect "--physical with a Crazyflie's bounds rejects a 1 kg body" 1 "" "against --l-arm 0.0325" -- $F --physical "$tmp/big.csv"
expect "--physical --vehicle takes the vehicle's bounds" 0 "^1,1,0.04" "rejected 0 of 1 estimates \(eq. 15, L_arm 0.15 m, alpha 0.05 kg m\^2\)" -- \
	$F --physical --vehicle "$tmp/quad.veh" "$tmp/big.csv"
expect "--l-arm overrides the vehicle's" 1 "" "against --l-arm 0.01" -- $F --physical --vehicle "$tmp/quad.veh" --l-arm 0.01 "$tmp/big.csv"
printf 'rotor 0.1 0 0 1\n' > "$tmp/rotors.veh"
expect "a vehicle file without gate bounds" 1 "" "rotors.veh: no 'l_arm' or 'alpha' line for the physical gate" -- \
	$F --physical --vehicle "$tmp/rotors.veh" "$tmp/big.csv"

# --wrench rotors: four rotor speeds (rad/s) through the vehicle file's
# geometry give the same regressor rows as the wrench worked out here in awk
# (f = (0, 0, sum T), tau = sum p x (0, 0, T) + dir kappa T z, T = kf w^2)
printf 'rotor 0.1 0.1 0 1\nrotor -0.1 0.1 0 -1\nrotor -0.1 -0.1 0 1\nrotor 0.1 -0.1 0 -1\ninput speed\nkf 2e-6\nkappa 0.02\n' > "$tmp/x.veh"
$S synth --duration 2 2>/dev/null | plain - | awk -F, -v OFS=, '
	NR == 1 { print "t,ax,ay,az,gx,gy,gz,w0,w1,w2,w3,fx,fy,fz,tx,ty,tz"; next }
	{ split("0.1 -0.1 -0.1 0.1", px, " "); split("0.1 0.1 -0.1 -0.1", py, " "); split("1 -1 1 -1", d, " ")
	  fz = 0; tx = 0; ty = 0; tz = 0
	  for (i = 1; i <= 4; i++) { w[i] = 600 + 40 * i + 30 * sin(NR / (3 + i)); T = 2e-6 * w[i] * w[i]
	    fz += T; tx += py[i] * T; ty -= px[i] * T; tz += d[i] * 0.02 * T }
	  printf "%s,%s,%s,%s,%s,%s,%s,%.17g,%.17g,%.17g,%.17g,0,0,%.17g,%.17g,%.17g,%.17g\n", $1, $2, $3, $4, $5, $6, $7,
	      w[1], w[2], w[3], w[4], fz, tx, ty, tz }' > "$tmp/rot.csv"
$R --wrench rotors --vehicle "$tmp/x.veh" --map rotors=w0,w1,w2,w3 "$tmp/rot.csv" | plain - > "$tmp/rot_r.csv"
$R --wrench force "$tmp/rot.csv" | plain - > "$tmp/rot_f.csv"
check "--wrench rotors: the rows of the wrench worked out by hand (1e-12)" awk -F, '
	NR == FNR { a[FNR] = $NF; next }
	FNR > 1 { d = $NF - a[FNR]; if (d < 0) d = -d; s = $NF < 0 ? -$NF : $NF; if (d > 1e-12 * (s + 1e-3)) bad = 1; n++ }
	END { exit bad || n < 100 }' "$tmp/rot_f.csv" "$tmp/rot_r.csv"
expect "--wrench rotors without a vehicle" 2 "" "--wrench rotors needs --vehicle FILE" -- $R --wrench rotors "$tmp/rot.csv"
printf 'rotor 0.1 0.1 0 1\ninput speed\n' > "$tmp/nokf.veh"
expect "a speed vehicle without kf" 1 "" "nokf.veh: 'input speed' needs 'kf'" -- \
	$R --wrench rotors --vehicle "$tmp/nokf.veh" --map rotors=w0 "$tmp/rot.csv"
printf 'rotor 0.1 0.1 0 2\n' > "$tmp/baddir.veh"
expect "a rotor line with a bad spin" 1 "" "baddir.veh:1: 'rotor': DIR is \+1 or -1 \(the sign of its reaction torque about z\), not 2" -- \
	$R --wrench rotors --vehicle "$tmp/baddir.veh" --map rotors=w0 "$tmp/rot.csv"
expect "--map with more columns than a signal may have is refused, not cut" 2 "" "--map: at most 16 items, got more" -- \
	$R --wrench rotors --vehicle "$tmp/x.veh" --map rotors=$(seq -s, 1 17) "$tmp/rot.csv"
expect "--map with an empty column name" 2 "" "--map: an empty item in 'ax,,az'" -- $R --map acc=ax,,az "$tmp/rot.csv"
expect "a missing vehicle file" 1 "" "nope.veh: No such file or directory" -- \
	$R --wrench rotors --vehicle "$tmp/nope.veh" --map rotors=w0 "$tmp/rot.csv"

# greedy selection on rows with b = 0 (the lateral rows of a force along z,
# which tagk-regress leaves out of a thrust's mass rows but a user's force
# columns bring back): a note
$F --eval fx=0 --eval fy=0 --eval fz=thrust datasets/uav-square-drop.csv | $R -m mass --wrench force > "$tmp/thrust.reg"
expect "tagk on b = 0 rows says so once" 0 "*" "^tagk-estimate: 4002 of 6003 rows \(67 %\) have b = 0 .* biases tagk; try -a tagk-robust, kf-low or rls-low" -- \
	$E -a tagk "$tmp/thrust.reg"
check "... once only" test "$(grep -c 'have b = 0' "$tmp/err")" -eq 1
expect "rls-low on the same rows: no note" 0 "*" "" -- $E -a rls-low "$tmp/thrust.reg"
expect "-q silences it" 0 "*" "" -- $E -q -a grk "$tmp/thrust.reg"
expect "tagk-robust screens those rows: no note" 0 "*" "" -- $E -a tagk-robust "$tmp/thrust.reg"
expect "tagk on rows with the whole force: no b = 0 note" 0 "*" "*" -- $E -a tagk "$tmp/noisy.reg"
check "... none" sh -c "! grep -q 'have b = 0' '$tmp/err'"
# windows too ill-conditioned for T iterations (excitation.h): said once, with
# the median ratio; not at 300 iterations, not for kf-low, nor for scaled
# tagk-robust, which keeps such directions near its prior by design
expect "tagk's windows, ill-conditioned for 30 iterations: a note" 0 "*" \
	"^tagk-estimate: tagk: its windows are ill-conditioned for its iterations: in the median of 50 windows checked, \|\|A\|\|_F\^2 / sigma_min\^2 is [0-9]+ times" -- \
	$E -a tagk --every 20 --raw "$tmp/noisy.reg"
check "... once" test "$(grep -c 'ill-conditioned' "$tmp/err")" -eq 1
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	$E -q -a tagk --every 20 "$tmp/noisy.reg" > "$tmp/pace-est.csv"
	printed=$(sed -n 's/.* sigma_min^2 is \([0-9]*\) times.*/\1/p' "$tmp/err")
	check "... its ratio, $printed, is NumPy's (SVD of each window, the 5 samples up to each estimate)" \
		/usr/bin/python3 -c "
import numpy as np
reg = [l.split(',') for l in open('$tmp/noisy.reg') if not l.startswith('#')]
h, reg = reg[0], reg[1:]
y = [h.index(c) for c in h if c.startswith('Y_')]
ts = sorted({float(r[0]) for r in reg})
rows = {}
for r in reg:
    rows.setdefault(float(r[0]), []).append([float(r[j]) for j in y])
est = [l.split(',') for l in open('$tmp/pace-est.csv') if not l.startswith('#')][1:]
k = []
for e in est:
    i = ts.index(float(e[0]))
    A = np.array([row for t in ts[i - 4:i + 1] for row in rows[t]])
    s = np.linalg.svd(A, compute_uv=False)
    k.append((s ** 2).sum() / s[-1] ** 2 / A.shape[0])
k.sort()
med = k[len(k) // 2]
assert len(k) == 50 and abs(med - $printed) <= 0.5 + 1e-6 * med, (len(k), med)
"
fi
expect "... none at --iters 300" 0 "*" "*" -- $E -a tagk --every 20 --raw --iters 300 "$tmp/noisy.reg"
check "... none" sh -c "! grep -q ill-conditioned '$tmp/err'"
expect "... none for kf-low" 0 "*" "" -- $E -a kf-low --raw "$tmp/noisy.reg"
expect "... none for tagk-robust --length --theta0" 0 "*" "" -- \
	$E -a tagk-robust --length 0.03 --theta0 0.035,0,0,0,1.66e-5,0,1.66e-5,0,0,2.93e-5 "$tmp/noisy.reg"

# tagk-robust's scaling: --length on rigid bodies, by default from --theta0
expect "--length on the mass model is refused" 2 "" "--length scales rigid bodies \(10 parameters each\); .* has 1 parameter" -- \
	$E -a tagk-robust --length 0.03 "$tmp/thrust.reg"
expect "--length is tagk-robust's" 2 "" "--length applies to tagk-robust, not kf-low" -- $E -a kf-low --length 0.03 "$tmp/noisy.reg"
expect "--length -1 is refused" 2 "" "--length: -1 is outside" -- $E -a tagk-robust --length -1 "$tmp/noisy.reg"
expect "tagk-robust --length: scaled" 0 "*" "form greedy-screened-scaled," -- $E -v -a tagk-robust --length 0.03 "$tmp/noisy.reg"
check "... and, without --theta0, says its weak directions stay near 0" \
	grep -q "tagk-robust starts from 0 without --theta0, and in scaled parameters" "$tmp/err"
expect "tagk-robust from a physical --theta0: scaled" 0 "*" "form greedy-screened-scaled," -- \
	$E -v -a tagk-robust --theta0 0.035,0,0,0,1.66e-5,0,1.66e-5,0,0,2.93e-5 "$tmp/noisy.reg"
expect "tagk-robust without either: unscaled, and says so" 0 "*" "tagk-robust runs unscaled: give the body's size \(--length" -- \
	$E -a tagk-robust "$tmp/noisy.reg"
expect "... -q silences that" 0 "*" "" -- $E -q -a tagk-robust "$tmp/noisy.reg"
expect "... -v names the form" 0 "*" "form greedy-screened," -- $E -v -a tagk-robust "$tmp/noisy.reg"
expect "--length 0 turns it off" 0 "*" "form greedy-screened," -- \
	$E -v -a tagk-robust --length 0 --theta0 0.035,0,0,0,1.66e-5,0,1.66e-5,0,0,2.93e-5 "$tmp/noisy.reg"
# hold: every estimate is --theta0, every window still checked
$E -a hold --theta0 0.035,0,0,0,1.66e-5,0,1.66e-5,0,0,2.93e-5 "$tmp/noisy.reg" -o "$tmp/hold.csv"
check "hold keeps --theta0 in every estimate" awk -F, '/^#/ { next } !h { h = 1; next } { n++; if ($2 != 0.035 || $6 != 1.66e-5 || $11 != 2.93e-5) bad = 1 } END { exit bad || n < 10 }' "$tmp/hold.csv"

# errors by block and the log-det divergence of pseudo-inertias, against NumPy
$R datasets/sim-figure8-noisy.csv | $E -q --raw -a kf-low > "$tmp/blk.csv"
$P --format csv "$tmp/blk.csv" > "$tmp/blk.rep"
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	check "tagk-report's block errors and log-det divergence equal NumPy's (1e-8)" /usr/bin/python3 - "$tmp" <<'PYEOF'
import sys, numpy as np
d = sys.argv[1]
rows = [l for l in open(d + "/blk.csv") if not l.startswith("#")]
E = np.genfromtxt(rows, delimiter=",", names=True)
names = ["m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz"]
est = np.column_stack([E[n] for n in names]); tru = np.column_stack([E["true_" + n] for n in names])
def inertia(t):
    return np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
def pseudo(t):
    I = inertia(t); J = np.zeros((4, 4))
    J[:3, :3] = 0.5 * np.trace(I) * np.eye(3) - I; J[:3, 3] = J[3, :3] = t[1:4]; J[3, 3] = t[0]
    return J
def rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b) if np.linalg.norm(b) > 0 else np.linalg.norm(a - b)
blk = np.array([[rel(e[:1], t[:1]), rel(e[1:4], t[1:4]), rel(inertia(e), inertia(t))] for e, t in zip(est, tru)])
D = []
for e, t in zip(est, tru):
    Je, Jt = pseudo(e), pseudo(t)
    if np.min(np.linalg.eigvalsh(Je)) <= 0:
        D.append(np.nan); continue
    M = np.linalg.solve(Jt, Je)
    D.append(-np.linalg.slogdet(Je)[1] + np.linalg.slogdet(Jt)[1] + np.trace(M) - 4)
D = np.array(D)
rep = {}
for l in open(d + "/blk.rep"):
    f = l.rstrip("\n").split(",")
    if f[0] in ("block_error", "logdet_divergence"):
        rep[f[0] + ":" + f[1]] = f
worst = 0
for k, n in enumerate(["mass", "first_moment", "inertia"]):
    worst = max(worst, abs(float(rep["block_error:%s_mean" % n][5]) - blk[:, k].mean()) / blk[:, k].mean())
    worst = max(worst, abs(float(rep["block_error:%s_final" % n][5]) - blk[-1, k]) / blk[-1, k])
ok = ~np.isnan(D)
worst = max(worst, abs(float(rep["logdet_divergence:mean"][5]) - D[ok].mean()) / D[ok].mean())
same_count = int(rep["logdet_divergence:not_physical"][3]) == int((~ok).sum())
print("block errors against NumPy: worst relative difference %.2g; %d of %d not physical"
      % (worst, (~ok).sum(), len(D)), file=sys.stderr)
sys.exit(0 if worst < 1e-8 and same_count and 0 < ok.sum() < len(D) else 1)
PYEOF
fi

# without truth: a summary, checked against NumPy's quantiles (or sort and awk)
$R "$tmp/syn.csv" | $E -a kf-low --every 1 | grep -v '^#tagk-' | cut -d, -f1-11 > "$tmp/notruth.csv"
expect "estimate without truth: a summary" 0 "^# .*notruth.csv: [0-9]+ estimates, .*no truth: a summary" "" -- $P "$tmp/notruth.csv"
$P --format csv "$tmp/notruth.csv" > "$tmp/summary.csv"
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	/usr/bin/python3 - "$tmp/notruth.csv" > "$tmp/summary.np" <<'PYEOF'
import sys, numpy as np
d = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
for p in d.dtype.names[1:]:
    x = d[p]
    q1, med, q3 = np.percentile(x, [25, 50, 75])
    print(p, len(x), repr(med), repr(q1), repr(q3), repr(x[0]), repr(x[-1]))
PYEOF
	check "summary: n, median, quartiles, first and last equal NumPy's (to 1e-9)" awk '
		NR == FNR { n[$1] = $2; for (i = 3; i <= 7; i++) v[$1, i] = $i; next }
		FNR > 1 { split($0, f, ","); seen++
			if (f[3] != n[f[1]]) bad = 1
			k[3] = 4; k[4] = 5; k[5] = 6; k[6] = 8; k[7] = 9
			for (i = 3; i <= 7; i++) { a = v[f[1], i]; b = f[k[i]]; d = a - b; if (d < 0) d = -d
				s = a < 0 ? -a : a; if (d > 1e-9 * s + 1e-300) bad = 1 } }
		END { exit bad || seen != 10 }' FS=' ' "$tmp/summary.np" FS=',' "$tmp/summary.csv"
else
	med=$(tail -n +2 "$tmp/notruth.csv" | cut -d, -f2 | sort -g | awk '{ a[NR] = $1 } END { h = (NR - 1) / 2; l = int(h); print a[l + 1] + (h - l) * (a[l + 2] - a[l + 1]) }')
	check "summary: the median of m equals sort and awk's ($med)" \
		awk -v m="$med" -F, '$1 == "m" { d = $4 - m; if (d < 0) d = -d; exit !(d <= 1e-9 * m) }' "$tmp/summary.csv"
fi
expect "summary: JSON" 0 '"iqr": ' "" -- $P --format json "$tmp/notruth.csv"
expect "summary: Markdown" 0 '^\| m \| [0-9]+ \|' "" -- $P --format md "$tmp/notruth.csv"
awk -F, 'NR == 1 || NR < 20 || NR > 40' "$tmp/notruth.csv" > "$tmp/gappy.csv"
expect "summary: a gap in the estimates is counted" 0 "1 gap longer than 1.5 times" "" -- $P "$tmp/gappy.csv"
expect "some truth columns but not all" 1 "" "some true_\* columns but not all" -- \
	sh -c "$R '$tmp/syn.csv' | $E --stream csv | grep -v '^#tagk-' | cut -d, -f1-23 | $P"
expect "directory as input" 1 "" "is a directory" -- $R "$tmp"
expect "-o leaves no file on failure" 1 "" "NaN" -- $R "$tmp/nan.csv" -o "$tmp/out.csv"
check "  ... and no file was left" test ! -e "$tmp/out.csv"
expect "--skip-bad skips NaN rows" 0 "^t,row" "skipped 1 bad row of" -- $R --skip-bad "$tmp/nan.csv"
expect "--skip-bad skips repeated times" 0 "^t,row" "skipped 1 bad row of" -- $R --skip-bad "$tmp/dup.csv"

# a logged alpha against its gyro (unitguard.h's derivguard): in deg/s^2,
# of another sign, or with two axes in each other's place, refused; logs
# whose alpha is the forward difference of the gyro (tagk-bench simulate's
# Euler steps, with a controller's chatter at 50 Hz that integrates to
# nothing by the trapezoid) or the backward one, read
$S synth --duration 10 --seed 4 --noise-gyro 0.01 -o "$tmp/al.tagk"
plain "$tmp/al.tagk" > "$tmp/al.csv"
expect "alpha beside its gyro: read" 0 "*" "" -- $R "$tmp/al.csv"
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { $8 *= 57.29577951308232; $9 *= 57.29577951308232; $10 *= 57.29577951308232 } { print }' \
	"$tmp/al.csv" > "$tmp/aldeg.csv"
expect "alpha in deg/s^2 beside a gyro in rad/s: refused, the columns named" 1 "" \
	"aldeg.csv: 'g[xyz]' does not change as the integral of 'al[xyz]': .* its change is 0\.017" -- $R "$tmp/aldeg.csv"
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { $8 = -$8; $9 = -$9; $10 = -$10 } { print }' "$tmp/al.csv" > "$tmp/alneg.csv"
expect "alpha of the other sign: refused" 1 "" "alneg.csv: 'g[xyz]' .* its change is -0\.9[0-9]* \+-" -- $R "$tmp/alneg.csv"
expect "alx and aly mapped in each other's place: refused" 1 "" "al.csv: 'g[xy]' does not change as the integral of 'al[xy]'" -- \
	$R --map alpha=aly,alx,alz "$tmp/al.csv"
expect "... --no-consistency-check reads them as they are" 0 "*" "" -- $R --map alpha=aly,alx,alz --no-consistency-check "$tmp/al.csv"
awk -F, -v OFS=, -v CONVFMT=%.17g 'NR > 1 { $11 = -$11; $12 = -$12; $13 = -$13 } { print }' "$tmp/al.csv" > "$tmp/fneg.csv"
expect "a force read as the reaction (negated): refused" 1 "" \
	"fneg.csv: the force \(fx,fy,fz\) points against the specific force \(ax,ay,az\): .* is -1\.00 .*read as the reaction" -- $R "$tmp/fneg.csv"
# four flights whose alpha the trapezoid alone refused (slopes -5.4, 10,
# -1.35 and 0.005)
for fl in "figure-8 low 3 authors" "ellipse low 3 authors" "ellipse low 1 tagk" "random low 1 tagk"; do
	set -- $fl
	$S simulate --traj $1 --noise $2 --seed $3 --protocol $4 -o "$tmp/sim.csv" 2>/dev/null
	expect "simulate --traj $1 --noise $2 --seed $3 --protocol $4: its Euler-step alpha is read" 0 "*" "" -- $R "$tmp/sim.csv"
done
# the same flight with a gyro that chatters at the log's Nyquist rate
# (+-0.05 rad/s on each axis) and alpha its backward difference, as a
# firmware that differences its gyro writes it: by the trapezoid and the
# left rule the chatter's change has no integral or the opposite sign
plain "$tmp/sim.csv" | awk -F, -v OFS=, -v CONVFMT=%.17g 'NR == 1 { print; next } {
	c = (n % 2 ? 0.05 : -0.05); for (j = 0; j < 3; j++) g[j] = $(5 + j) + c
	if (n++) for (j = 0; j < 3; j++) $(8 + j) = (g[j] - p[j]) / ($1 - pt)
	else $8 = $9 = $10 = 0
	for (j = 0; j < 3; j++) { $(5 + j) = g[j]; p[j] = g[j] } pt = $1; print }' > "$tmp/simback.csv"
expect "... a chattering gyro with alpha its backward difference: read" 0 "*" "" -- $R "$tmp/simback.csv"

# --- usage errors ----------------------------------------------------------
expect "bad --map" 2 "" "--map: acc takes 3 columns, 'ax,ay' names 2" -- $R --map acc=ax,ay "$tmp/small.csv"
expect "unknown signal" 2 "" "--map: 'foo=x' is not SIGNAL=COL" -- $R --map foo=x "$tmp/small.csv"
expect "unknown preset" 2 "" "--preset: unknown preset 'px4'" -- $R --preset px4 "$tmp/small.csv"
expect "two inputs" 2 "" "one input file at most" -- $R "$tmp/small.csv" "$tmp/small.csv"
expect "option for another family" 2 "" "--lambda applies to the RLS methods, not tagk" -- \
	$E -a tagk --lambda 0.9 "$tmp/small.reg"
expect "bad window" 2 "" "--window: 'x' is not an integer" -- $E --window x "$tmp/small.reg"
expect "bad report format" 2 "" "--format: 'xml' is not one of" -- $P --format xml "$tmp/small.csv"
for c in tagk-regress tagk-estimate tagk-filter tagk-report; do
	expect "$c --help" 0 "^usage: $c" "" -- $BIN/$c --help
	expect "$c --version" 0 "^$c [0-9]" "" -- $BIN/$c --version
	expect "$c bad option" 2 "" "^$c: unknown option '--no-such-option' \($c --help lists the options\)$" -- $BIN/$c --no-such-option
	expect "$c bad short option" 2 "" "^$c: unknown option '-Z'" -- $BIN/$c -Z
	expect "$c option without its argument" 2 "" "^$c: option '-o' needs an argument" -- $BIN/$c -o
done
expect "estimate --list" 0 "^kf-high " "" -- $E --list
expect "regress --list-presets" 0 "^crazyflie " "" -- $R --list-presets

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
$F "$tmp/v2.cfusd" | grep -v '^#tagk-' > "$tmp/v2.got.csv"
check "cfusd v2 values equal what was written" awk -F, 'NR == FNR { if (FNR > 1) e[FNR] = $0; next }
	FNR > 1 { n = split(e[FNR], x, ","); for (i = 1; i <= n; i++) { d = $i - x[i]; if (d < 0) d = -d
	s = x[i] < 0 ? -x[i] : x[i]; if (d > 1e-7 * s + 1e-12) bad = 1 } ; rows++ }
	END { exit !(rows == 50 && !bad) }' "$tmp/v2.expected.csv" "$tmp/v2.got.csv"
check "cfusd header names the chosen event's variables" grep -q "^t,acc.x,acc.y,acc.z,ctrlLee.omegax" "$tmp/v2.got.csv"
expect "cfusd v1 (millisecond timestamps)" 0 "^1.51,0.0084147" "" -- sh -c "$F '$tmp/v1.cfusd' | sed -n 4p"
expect "cfusd --event picks another event type" 0 "^1.53,42$" "" -- sh -c "$F --event other '$tmp/v2.cfusd' | sed -n 3p"
expect "cfusd unknown event" 1 "" "no event type 'nope' \(it has: fixedFrequency \(id 7\), other \(id 9\)\)" -- $F --event nope "$tmp/v2.cfusd"
# CRLF line ends and quoted fields read like the plain file
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) $i = "\"" $i "\"" } { printf "%s\r\n", $0 }' \
	"$tmp/syn.csv" > "$tmp/crlf.csv"
$R "$tmp/crlf.csv" > "$tmp/r_crlf.csv"; $R "$tmp/syn.csv" > "$tmp/r_plain.csv"
check "CRLF and quoted header fields" cmp -s "$tmp/r_crlf.csv" "$tmp/r_plain.csv"
# every cell quoted (Python's csv.QUOTE_ALL): the same stream
awk -F, -v OFS=, '/^#/ { print; next } { for (i = 1; i <= NF; i++) $i = "\"" $i "\"" } { print }' \
	"$tmp/syn.csv" > "$tmp/quoted.csv"
$R "$tmp/quoted.csv" > "$tmp/r_quoted.csv"
check "every cell quoted reads like the plain file" cmp -s "$tmp/r_quoted.csv" "$tmp/r_plain.csv"
$R - < "$tmp/syn.csv" > "$tmp/r_stdin.csv"
check "standard input" cmp -s "$tmp/r_stdin.csv" "$tmp/r_plain.csv"
# foreign column names, mapped as a new user would
sed '1s/^t,ax,ay,az,gx,gy,gz,alx,aly,alz,fx,fy,fz,tx,ty,tz/time_ms,acc_x,acc_y,acc_z,rate_x,rate_y,rate_z,dw_x,dw_y,dw_z,F_x,F_y,F_z,M_x,M_y,M_z/' \
	"$tmp/syn.csv" | awk -F, -v OFS=, 'NR > 1 { $1 = $1 * 1000 } { print }' > "$tmp/foreign.csv"
$R --time-unit ms --map t=time_ms --map acc=acc_x,acc_y,acc_z --map gyro=rate_x,rate_y,rate_z \
	--map alpha=dw_x,dw_y,dw_z --map force=F_x,F_y,F_z --map torque=M_x,M_y,M_z "$tmp/foreign.csv" \
	| $E > "$tmp/e_foreign.csv"
check "foreign column names mapped with --map give the same estimates" \
	awk -F, 'NR == FNR { a[FNR] = $0; next } { n = split(a[FNR], x, ","); for (i = 1; i <= n; i++)
	{ d = $i - x[i]; if (d < 0) d = -d; if (d > 1e-9 * (x[i] < 0 ? -x[i] : x[i]) + 1e-15) bad = 1 } }
	END { exit bad }' "$tmp/e2.csv" "$tmp/e_foreign.csv"
# time in the wrong unit: a log stamped in ns (a ROS bag's CSV) read as
# seconds is refused with the units to try, and reads with --time-unit ns
awk -F, -v OFS=, 'NR > 1 { $1 = sprintf("%.0f", 1.7e18 + $1 * 1e9) } { print }' "$tmp/syn.csv" > "$tmp/ns.csv"
expect "a log stamped in ns, read as seconds: refused, the units named" 1 "" \
	"ns.csv: its samples are 1e\+07 s apart \(the median of its first 8 time steps\), too far apart for a flight or robot log: is its time column 't' in ms, us or ns\?" -- \
	$R "$tmp/ns.csv"
expect "... and the foreign log in ms without --time-unit" 1 "" "foreign.csv: its samples are 10 s apart" -- \
	$R --map t=time_ms --map acc=acc_x,acc_y,acc_z --map gyro=rate_x,rate_y,rate_z --map alpha=dw_x,dw_y,dw_z \
	--map force=F_x,F_y,F_z --map torque=M_x,M_y,M_z "$tmp/foreign.csv"
$R --time-unit ns "$tmp/ns.csv" | $E > "$tmp/e_ns.csv"
check "--time-unit ns: the same estimates as the log in seconds (t shifted by 1.7e9 s)" \
	awk -F, 'NR == FNR { a[FNR] = $0; next } /^#/ { next } { n = split(a[FNR], x, ","); for (i = 2; i <= n; i++)
	{ d = $i - x[i]; if (d < 0) d = -d; if (d > 1e-9 * (x[i] < 0 ? -x[i] : x[i]) + 1e-15) bad = 1 } }
	END { exit bad }' "$tmp/e2.csv" "$tmp/e_ns.csv"
expect "--time-unit s reads it as it is (the user said so)" 0 "" "" -- sh -c "$R --time-unit s '$tmp/ns.csv' > /dev/null"
# the specific force in the wrong unit (cmd/unitguard.h): a log in g read
# as m/s^2 gave a mass 9.8 times too large, with whole rows and estimates
awk -F, -v OFS=, -v OFMT=%.17g -v CONVFMT=%.17g 'NR > 1 { for (i = 2; i <= 4; i++) $i = $i / 9.80665 } { print }' "$tmp/syn.csv" > "$tmp/in-g.csv"
expect "acc logged in g, read as m/s^2: refused, --acc-unit g named" 1 "" \
	"in-g.csv: the specific force \(ax,ay,az\) has a median magnitude of 1\.[0-9]+ m/s\^2 over its first 64 samples.*is it in g \(say --acc-unit g\), or the acceleration with gravity removed" -- \
	$R "$tmp/in-g.csv"
# (rows equal to an ulp; the first updates' covariance is ill-conditioned
# enough to move by 1e-4, so the last estimate is compared)
$R --acc-unit g "$tmp/in-g.csv" | $E -a rls-low 2>/dev/null | grep -v '^#' | tail -1 > "$tmp/e_g.last"
$R "$tmp/syn.csv" | $E -a rls-low 2>/dev/null | grep -v '^#' | tail -1 > "$tmp/e_s.last"
check "--acc-unit g: the last estimate of the log in m/s^2, to 1e-9" \
	sh -c "paste -d, '$tmp/e_s.last' '$tmp/e_g.last' | awk -F, '{ h = NF / 2; for (i = 2; i <= 11; i++) {
		d = \$i - \$(i + h); if (d < 0) d = -d; if (d > 1e-9 * (\$i < 0 ? -\$i : \$i) + 1e-15) bad = 1 } } END { exit bad }'"
awk -F, -v OFS=, 'NR > 1 { $4 = $4 - 9.80665 } { print }' "$tmp/syn.csv" > "$tmp/no-g.csv"
expect "acc with gravity removed: refused, that reason among the two named" 1 "" "or the acceleration with gravity removed \(tagk needs the accelerometer's reading, gravity included\)\?" -- $R "$tmp/no-g.csv"
awk -F, -v OFS=, 'NR > 1 { $2 = $2 / 10; $3 = $3 / 10; $4 = ($4 - 9.80665) / 10 } { print }' "$tmp/syn.csv" > "$tmp/no-g-calm.csv"
expect "... and, moving gently, gravity removed is the one reason" 1 "" "is it the acceleration with gravity removed\? tagk needs" -- $R "$tmp/no-g-calm.csv"
awk -F, -v OFS=, -v OFMT=%.17g -v CONVFMT=%.17g 'NR > 1 { for (i = 5; i <= 10; i++) $i = $i * 57.29577951308232 } { print }' \
	"$tmp/syn.csv" > "$tmp/deg.csv"
expect "gyro (and alpha) logged in deg/s, read as rad/s: refused, --gyro-unit deg named" 1 "" \
	"deg.csv: the angular velocity \(gx,gy,gz\) exceeds 40 rad/s .* in 5 samples by t = [0-9.]+ s: is it in deg/s\? Say --gyro-unit deg" -- \
	$R "$tmp/deg.csv"
$R --gyro-unit deg "$tmp/deg.csv" | $E -a rls-low 2>/dev/null | grep -v '^#' | tail -1 > "$tmp/e_deg.last"
check "--gyro-unit deg: the last estimate of the log in rad/s, to 1e-9" \
	sh -c "paste -d, '$tmp/e_s.last' '$tmp/e_deg.last' | awk -F, '{ h = NF / 2; for (i = 2; i <= 11; i++) {
		d = \$i - \$(i + h); if (d < 0) d = -d; if (d > 1e-9 * (\$i < 0 ? -\$i : \$i) + 1e-15) bad = 1 } } END { exit bad }'"
expect "a log in m/s^2 read with the crazyflie preset (g): refused" 1 "" "it looks like m/s\^2, not the preset's g: say --acc-unit mps2" -- \
	$R --preset crazyflie --map t=t --map acc=ax,ay,az --map gyro=gx,gy,gz --map thrust=fz --map torque=tx,ty,tz --gyro-unit rad "$tmp/syn.csv"
expect "crazyflie preset on a uSD log, mass model" 0 "^0\.0399|^0\.0400" "" -- \
	sh -c "$R --preset crazyflie -m mass '$tmp/v2.cfusd' | $E -a rls-low | grep -v ^#tagk- | tail -1 | cut -d, -f2"
$R --preset crazyflie -m mass --stream csv "$tmp/v2.cfusd" > "$tmp/v2.preset.csv"
$R -m mass --stream csv "$tmp/v2.cfusd" > "$tmp/v2.auto.csv"
check "a uSD log without --preset is read with the crazyflie preset (the same stream)" \
	sh -c "test -s '$tmp/v2.auto.csv' && cmp -s '$tmp/v2.preset.csv' '$tmp/v2.auto.csv'"
expect "... an explicit --preset overrides it" 1 "" "missing column 'ax' for acc" -- $R --preset sim "$tmp/v2.cfusd"
expect "... and a column it lacks says where the name came from" 1 "" \
	"missing column 'acc.x' for acc \(the specific force; or give acc_world and quat; the name is the crazyflie preset's, the default for a Crazyflie uSD log; map yours with --map acc=COLS\)" -- \
	$R --event other "$tmp/v2.cfusd"
expect "... but not for a signal the user mapped" 1 "" "missing column 'no.x' for acc \(the specific force; or give acc_world and quat; map yours" -- \
	$R --map acc=no.x,no.y,no.z "$tmp/v2.cfusd"

# --- composition and the commands' own jobs -------------------------------
expect "the whole pipeline" 0 "relative parameter error" "rejected [0-9]+ of [0-9]+ estimates" -- \
	sh -c "$S synth | $R | $E -a tagk | $F --physical | $P"
# truth x 1.1 as the estimate: RMSPE is 10 % for every parameter
awk -F, -v OFS=, 'NR == 1 { for (i = 17; i <= NF; i++) { n = $i; sub(/^true_/, "", n); $i = n "," $i }
	print "t," substr($0, index($0, $17)); next }
	{ s = $1; for (i = 17; i <= 26; i++) s = s "," ($i * 1.1) "," $i; print s }' "$tmp/syn.csv" > "$tmp/est11.csv"
expect "report: RMSPE of a 10 % error is 10" 0 "^m +400 .* 10 +n/a$" "" -- $P "$tmp/est11.csv"
expect "report: relative error 0.1 throughout" 0 "mean 0.1, final 0.1" "" -- $P "$tmp/est11.csv"
expect "report: JSON" 0 '"rmspe_pct": 10' "" -- $P --format json "$tmp/est11.csv"
expect "report: CSV" 0 "^parameter,Izz,,400," "" -- $P --format csv "$tmp/est11.csv"
expect "report: Markdown" 0 '^\| m \| 400 \|' "" -- $P --format md "$tmp/est11.csv"
$S synth --seed 3 | grep -v '^#tagk-' > "$tmp/syn20.csv"
expect "report: events found at the payload times" 0 "^ +[45]\.[0-9]+ +[0-9.e-]+ +[0-9.e-]+$" "" -- \
	sh -c "$R '$tmp/syn20.csv' | $E -q -a kf-low | $P"
plain "$tmp/syn.csv" | cut -d, -f1,17-26 > "$tmp/truth.csv"
$R "$tmp/syn.csv" | $E -a kf-low > "$tmp/ekf.csv"
plain "$tmp/ekf.csv" | cut -d, -f1-22 > "$tmp/ekf_notruth.csv"
$P "$tmp/ekf.csv" > "$tmp/rep_own.txt"; $P --truth "$tmp/truth.csv" "$tmp/ekf_notruth.csv" > "$tmp/rep_join.txt"
tail -n +2 "$tmp/rep_own.txt" > "$tmp/rep_own.body"; tail -n +2 "$tmp/rep_join.txt" > "$tmp/rep_join.body"
check "report --truth joined by time equals the carried truth" cmp -s "$tmp/rep_own.body" "$tmp/rep_join.body"
# a truth file is a step function from its first row: every estimate at or
# after it is scored (scores computed by hand: estimates m = t at t = 0..9)
{ echo t,m; for i in 0 1 2 3 4 5 6 7 8 9; do echo $i,$i; done; } > "$tmp/ramp.csv"
truth_case() { # NAME TRUTH-ROWS N MAE RMSE [--truth-interp]
	printf "t,m\n$2" > "$tmp/tr.csv"
	$P "$tmp/ramp.csv" --truth "$tmp/tr.csv" ${6:-} --format csv > "$tmp/trs.csv" 2> "$tmp/trs.err"
	check "truth $1: n $3, MAE $4, RMSE $5 (by hand)" awk -F, -v n=$3 -v mae=$4 -v rmse=$5 \
		'$1 == "parameter" && $2 == "m" { ok = $4 == n && (($6 - mae)^2 < 1e-18) && (($5 - rmse)^2 < 1e-16) } END { exit !ok }' \
		"$tmp/trs.csv"
}
truth_case "of one row" '0,1\n' 10 3.7 4.527692569
truth_case "of two rows, the first at t = 2" '2,1\n5,2\n' 8 3.875 4.315669125
check "... the two estimates before it said on stderr" grep -q "2 estimates before the first truth row were not scored" "$tmp/trs.err"
truth_case "of three rows, one between samples" '0,1\n3.5,2\n7,3\n' 10 2.8 3.346640106
truth_case "of irregular rows, the last after the estimates" '0.5,5\n0.7,4\n9.33,100\n' 9 2.333333333 2.768874621
truth_case "of two rows, joined by a line" '2,1\n5,2\n' 8 3.75 4.245913068 --truth-interp
# alpha differentiated from gyro instead of given
$S synth --rate 250 -o "$tmp/noalpha.csv"
$R "$tmp/noalpha.csv" | $E -a kf-low | $P --format csv > "$tmp/rep_noalpha.csv"
check "alpha differentiated from gyro: final relative error below 1 %" \
	awk -F, '$1 == "relative_error" && $2 == "final" { found = 1; ok = $6 < 0.01 } END { exit !(found && ok) }' \
	"$tmp/rep_noalpha.csv"
expect "filter --from/--to" 0 "^101$" "" -- sh -c "$F --from 1 --to 2 '$tmp/syn.csv' | grep -v ^#tagk- | tail -n +2 | wc -l | tr -d ' '"
expect "filter --decimate" 0 "^200$" "" -- sh -c "$F --decimate 2 '$tmp/syn.csv' | grep -v ^#tagk- | tail -n +2 | wc -l | tr -d ' '"
$F --noise ax,ay=0.1 --seed 5 "$tmp/syn.csv" > "$tmp/n1.csv"; $F --noise ax,ay=0.1 --seed 5 "$tmp/syn.csv" > "$tmp/n2.csv"
$F --noise ax,ay=0.1 --seed 6 "$tmp/syn.csv" > "$tmp/n3.csv"
check "filter --noise: same seed, same bytes" cmp -s "$tmp/n1.csv" "$tmp/n2.csv"
check "filter --noise: another seed differs" sh -c "! cmp -s '$tmp/n1.csv' '$tmp/n3.csv'"
check "filter --noise: only the named columns change" sh -c \
	"[ \"\$(grep -v ^#tagk- '$tmp/n1.csv' | cut -d, -f1,4-)\" = \"\$(cut -d, -f1,4- '$tmp/syn.csv')\" ]"
printf 't,x\n0,0\n0.01,1\n0.02,1\n0.03,1\n' > "$tmp/step.csv"
# y(t) = 1 - exp(-2 pi fc t) sampled: 1 - exp(-2 pi 10 0.03) = 0.8482
expect "filter --lowpass: first-order response to a step" 0 "^0.03,0.848" "" -- \
	sh -c "$F --lowpass x=10 '$tmp/step.csv' | grep -v ^#tagk- | tail -1"
# the same step stamped in ms: read as seconds it would pass unfiltered
printf 't,x\n0,0\n10,1\n20,1\n30,1\n' > "$tmp/step_ms.csv"
expect "filter --lowpass on a log stamped in ms: refused, --time-unit named" 1 "" \
	"step_ms.csv: its samples are 10 s apart .*--time-unit ms" -- $F --lowpass x=10 "$tmp/step_ms.csv"
expect "... and with --time-unit ms, the response of the log in seconds" 0 "^30,0.848" "" -- \
	sh -c "$F --lowpass x=10 --time-unit ms '$tmp/step_ms.csv' | grep -v ^#tagk- | tail -1"
expect "--time-unit without --lowpass: an error, not ignored" 2 "" "--time-unit applies to --lowpass" -- \
	$F --time-unit ms "$tmp/step_ms.csv"
expect "filter --project makes estimates consistent" 0 "" "projected 10 of 10 estimates" -- \
	sh -c "printf 't,m,mcx,mcy,mcz,Ixx,Ixy,Iyy,Ixz,Iyz,Izz\n' > '$tmp/bad_est.csv';
	for i in 0 1 2 3 4 5 6 7 8 9; do echo \"\$i,-0.01,0,0,0,1e-5,0,1e-5,0,0,3e-5\" >> '$tmp/bad_est.csv'; done;
	$F --project '$tmp/bad_est.csv' > /dev/null"
expect "filter on a mass stream holds the last valid estimate" 0 "^2,0.04$" "rejected 1 of 4" -- \
	sh -c "printf 't,m\n1,0.04\n2,-0.02\n3,0.04\n4,0.05\n' | $F --physical | sed -n 4p"
expect "filter --physical with no valid estimate" 1 "" "no row left: eq. 15 rejected all 1 estimates: m <= 0 in 1$" -- \
	sh -c "printf 't,m\n1,-1\n' | $F --physical"
# a body with c = (0.04, 0, 0) m and inertia eigenvalues up to 2e-4: each
# condition named with its worst value and the option that sets the bound
expect "filter --physical says which condition failed and by how much" 1 "" \
	"rejected all 1 estimates: \|\|c\|\| > L_arm in 1 \(largest 0.04 m against --l-arm 0.0325\); lambda_max > alpha in 1 \(largest 0.0002 kg m\^2 against --alpha 0.0001\)" -- \
	sh -c "printf 't,m,mcx,mcy,mcz,Ixx,Ixy,Iyy,Ixz,Iyz,Izz\n1,1,0.04,0,0,2e-4,0,1e-4,0,0,1e-4\n' | $F --physical"
# A failure after output has begun: the stream ends with an error marker,
# and the next command turns it into an error of its own.
$S synth --duration 60 | grep -v '^#tagk-' > "$tmp/big.csv"
sed '5900s/^\([^,]*\),[^,]*/\1,nan/' "$tmp/big.csv" > "$tmp/bignan.csv"
$R "$tmp/bignan.csv" > "$tmp/bigreg.csv" 2>/dev/null
check "a late failure ends stdout with the error marker" sh -c "tail -1 '$tmp/bigreg.csv' | grep -q '^#tagk-error: .*NaN'"
expect "... which the next command reports" 1 "" "the command upstream failed: .*bignan.csv:5900: column 'ax': NaN" -- \
	$E "$tmp/bigreg.csv"
expect "closed pipe is quiet" 0 "^t,ax" "" -- sh -c "$S synth --duration 600 | head -2 | tail -1"

# paper 004 through the pipeline: tagk-bench shake's joint logs (objects one
# after another), tagk-regress -m multibody --held forearm, one batch
# estimate per object; noise-free signals, accelerations by central
# differences, so close to the truth but not exact
$S shake --first 4500 --objects 3 --long=3 --q-noise 0 --qd-noise 0 --tau-noise 0 --model-out "$tmp/arm.model" \
	-o "$tmp/sh.csv" 2>/dev/null
$R -m multibody --robot "$tmp/arm.model" --held forearm "$tmp/sh.csv" > "$tmp/sh.reg"
$E --batch -a ols --segment truth "$tmp/sh.reg" > "$tmp/sh.est"
check "shake: one estimate per object" test "$(plain "$tmp/sh.est" | sed 1d | wc -l)" -eq 3
check "shake: OLS on noise-free long runs within 1 % of the objects" sh -c \
	"$P '$tmp/sh.est' | awk '/relative parameter error/ { v = \$(NF - 2); sub(/,/, \"\", v); ok = v + 0 < 0.01 } END { exit !ok }'"
check "shake: the same seed gives the same bytes" sh -c \
	"$S shake --first 4500 --objects 2 2>/dev/null | cmp -s - '$tmp/sh2.csv' || { $S shake --first 4500 --objects 2 -o '$tmp/sh2.csv' 2>/dev/null; $S shake --first 4500 --objects 2 2>/dev/null | cmp -s - '$tmp/sh2.csv'; }"
check "shake: an object is the same whatever else is drawn (4501 alone, and after 4500)" sh -c \
	"grep -v '^#' '$tmp/sh2.csv' | awk -F, '\$1 == 4501' | cut -d, -f1,3- > '$tmp/a' &&
	 $S shake --first 4501 2>/dev/null | grep -v '^#' | sed 1d | cut -d, -f1,3- > '$tmp/b' && test -s '$tmp/a' && cmp -s '$tmp/a' '$tmp/b'"
expect "cnn: one estimate per object of a joint log" 0 "^#tagk-end: 2 rows" "" -- $E -a cnn "$tmp/sh2.csv"
if /usr/bin/python3 -c "import numpy, pandas" 2>/dev/null; then
	$E -a cnn "$tmp/sh2.csv" > "$tmp/cnn.est"
	$P --about-com --format csv "$tmp/cnn.est" > "$tmp/com.csv"
	check "--about-com: the centre of mass's and the central inertia's MAE as NumPy computes them" /usr/bin/python3 -c "
import numpy as np, pandas as pd
e = pd.read_csv('$tmp/cnn.est', comment='#'); r = pd.read_csv('$tmp/com.csv')
def centre(m, mc, I):
    c = mc / m[:, None]
    Ic = I - m[:, None, None] * (np.einsum('ni,ni->n', c, c)[:, None, None] * np.eye(3) - np.einsum('ni,nj->nij', c, c))
    return c, Ic
def get(p):
    m = e[p + 'm'].values
    mc = e[[p + 'mcx', p + 'mcy', p + 'mcz']].values
    I = np.stack([e[[p + 'Ixx', p + 'Ixy', p + 'Ixz']].values, e[[p + 'Ixy', p + 'Iyy', p + 'Iyz']].values,
                  e[[p + 'Ixz', p + 'Iyz', p + 'Izz']].values], 1)
    return centre(m, mc, I)
(c, Ic), (ct, Ict) = get(''), get('true_')
want = {'cx': abs(c[:, 0] - ct[:, 0]).mean(), 'cz': abs(c[:, 2] - ct[:, 2]).mean(),
        'Iyy_c': abs(Ic[:, 1, 1] - Ict[:, 1, 1]).mean(), 'Ixz_c': abs(Ic[:, 0, 2] - Ict[:, 0, 2]).mean()}
got = r[r.kind == 'parameter'].set_index('name').mae
assert all(abs(got[k] - v) <= 1e-9 * abs(v) + 1e-15 for k, v in want.items()), (got, want)
"
fi
expect "cnn: a window that is not 0.5 s at 400 Hz" 1 "" "has 200 samples; cnn takes exactly 201" -- sh -c \
	"grep -v '^#' '$tmp/sh2.csv' | sed 2d | $E -a cnn"
expect "cnn: samples that are not 400 Hz apart" 1 "" "the samples are .* apart; cnn was trained at 400 Hz" -- sh -c \
	"grep -v '^#' '$tmp/sh2.csv' | awk -F, -v OFS=, 'NR > 1 { \$2 = \$2 * 2 } 1' | $E -a cnn"
expect "cnn: a log without joint velocities" 1 "" "missing column 'qd1' \(cnn reads a joint log" -- sh -c \
	"grep -v '^#' '$tmp/sh2.csv' | cut -d, -f1-6 | $E -a cnn"
expect "cnn: a long run is not a shake" 1 "" "the window has more than 201 samples" -- sh -c \
	"$S shake --first 4500 --long 1 2>/dev/null | $E -a cnn"
expect "cnn: --window does not apply" 2 "" "--window does not apply to the learned method cnn" -- \
	$E -a cnn --window 5 "$tmp/sh2.csv"

# tagk-report --ncc against NumPy's correlation coefficient at each shift
if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
	/usr/bin/python3 -c "
import numpy as np
rng = np.random.default_rng(3)
t = np.arange(0, 30, 0.02); a = np.sin(1.3 * t) + 0.4 * np.sin(3.1 * t) + 0.1 * rng.standard_normal(len(t))
p = np.roll(a, 3) * 2.5 - 1 + 0.2 * rng.standard_normal(len(t)); q = rng.standard_normal(len(t))
print('t,x,pred_x,y,pred_y')
for i in range(len(t)): print('%r,%r,%r,%r,%r' % (t[i], a[i], p[i], a[i], q[i]))
" > "$tmp/ncc.csv"
	$P --ncc --max-shift 0.1 --format csv "$tmp/ncc.csv" > "$tmp/ncc.out"
	check "--ncc: the best correlation over shifts of up to 5 samples, as NumPy computes it" /usr/bin/python3 -c "
import numpy as np, pandas as pd
d = pd.read_csv('$tmp/ncc.csv'); r = pd.read_csv('$tmp/ncc.out').set_index('column')
def best(a, b, S):
    out = -2
    for s in range(-S, S + 1):
        x, y = (a[-s:], b[:len(b) + s]) if s < 0 else (a[:len(a) - s], b[s:])
        out = max(out, np.corrcoef(x, y)[0, 1])
    return out
for col in 'xy':
    want = best(d[col].values, d['pred_' + col].values, 5)
    assert abs(r.ncc[col] - want) < 1e-9, (col, r.ncc[col], want)  # the CSV's 10 digits
assert r.max_shift_samples['x'] == 5 and r.ncc['x'] > 0.9 and abs(r.ncc['y']) < 0.2
"
fi
printf 't,x,pred_x\n0,1,2\n0.1,1,2\n0.2,1,2\n' > "$tmp/flat.csv"
expect "--ncc of a constant signal: undefined, said" 0 "^x +3 +undefined$" "x or pred_x is constant" -- $P --ncc "$tmp/flat.csv"
expect "--ncc without predictions" 1 "" "no pred_\* columns" -- $P --ncc datasets/shake-4500.csv
expect "--max-shift without --ncc" 2 "" "^tagk-report: --max-shift applies to --ncc$" -- $P --max-shift 1 datasets/shake-4500.csv

# wls-pullback (paper 002, eq. 8) against a NumPy re-derivation: rows
# weighted by their row index's OLS residual variance, plus lambda times
# the pullback metric of the pseudo-inertia at the prior, built here from
# J's definition
$R -m multibody --robot datasets/arm.model --held forearm datasets/shake-4500.csv > "$tmp/pb.reg"
PB0=0.6,0,0,-0.15,0.04,0,0.04,0,0,0.002
$E --batch --raw -a wls-pullback --theta0 $PB0 --prior-weight 3 "$tmp/pb.reg" > "$tmp/pb.est"
if /usr/bin/python3 -c "import numpy, pandas" 2>/dev/null; then
	check "wls-pullback equals its NumPy re-derivation to 1e-8" /usr/bin/python3 -c "
import numpy as np, pandas as pd
d = pd.read_csv('$tmp/pb.reg', comment='#'); e = pd.read_csv('$tmp/pb.est', comment='#')
Y = d[[c for c in d.columns if c.startswith('Y_')]].values; b = d.b.values; k = d.row.values.astype(int)
ols = np.linalg.lstsq(Y, b, rcond=None)[0]; r = Y @ ols - b
w = np.array([1 / np.mean(r[k == j] ** 2) for j in k])
def J(t):
    I = np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
    M = np.zeros((4, 4)); M[:3, :3] = np.trace(I) / 2 * np.eye(3) - I; M[:3, 3] = M[3, :3] = t[1:4]; M[3, 3] = t[0]
    return M
t0 = np.array([$PB0]); J0i = np.linalg.inv(J(t0)); V = [J(np.eye(10)[i]) for i in range(10)]
G = np.array([[np.trace(J0i @ V[i] @ J0i @ V[j]) for j in range(10)] for i in range(10)])
H = Y.T @ (w[:, None] * Y) + 3 * G; h = Y.T @ (w * b) + 3 * G @ t0
want = np.linalg.solve(H, h); got = e[['m','mcx','mcy','mcz','Ixx','Ixy','Iyy','Ixz','Iyz','Izz']].values[-1]
err = np.linalg.norm(got - want) / np.linalg.norm(want)
assert err < 1e-8, err
"
fi
check "wls-pullback: weight 0 is wls, a huge weight the prior" sh -c \
	"$E --batch --raw -a wls-pullback --theta0 $PB0 --prior-weight 0 '$tmp/pb.reg' | grep -v '^#' | tail -1 | cut -d, -f1-11 > '$tmp/a' &&
	 $E --batch --raw -a wls '$tmp/pb.reg' | grep -v '^#' | tail -1 | cut -d, -f1-11 > '$tmp/b' && cmp -s '$tmp/a' '$tmp/b' &&
	 $E --batch -a wls-pullback --theta0 $PB0 --prior-weight 1e12 '$tmp/pb.reg' | grep -v '^#' | tail -1 |
	 awk -F, '{ exit !(\$2 > 0.5999 && \$2 < 0.6001) }'"
expect "wls-pullback without a prior" 2 "" "wls-pullback needs --theta0" -- $E --batch -a wls-pullback "$tmp/pb.reg"
expect "wls-pullback with an unphysical prior" 2 "" "not a physical body" -- \
	$E --batch -a wls-pullback --theta0 1,0,0,0,0,0,0,0,0,0 "$tmp/pb.reg"
expect "--prior-weight on ols" 2 "" "--prior-weight applies to wls-bregman and wls-pullback, not ols" -- \
	$E --batch -a ols --prior-weight 2 "$tmp/pb.reg"

# the dual metric through the pipeline: tagk-regress --metric carries each
# sample's mass matrix and its parts, tagk-filter --whiten freezes it at a
# prior and whitens the rows; least squares downstream is then the
# frozen-metric DM, which NumPy computes here from the metric columns
$R -m multibody --robot datasets/arm.model --held forearm --metric datasets/shake-4500.csv > "$tmp/met.reg"
$F --whiten $PB0 "$tmp/met.reg" > "$tmp/wh.reg"
$E --batch --raw -a ols "$tmp/wh.reg" > "$tmp/wh.est"
if /usr/bin/python3 -c "import numpy, pandas" 2>/dev/null; then
	check "--metric: each sample's metric and parts are symmetric; --whiten | ols is the frozen-metric DM (NumPy)" \
		/usr/bin/python3 -c "
import numpy as np, pandas as pd
d = pd.read_csv('$tmp/met.reg', comment='#'); e = pd.read_csv('$tmp/wh.est', comment='#')
P = ['m','mcx','mcy','mcz','Ixx','Ixy','Iyy','Ixz','Iyz','Izz']; t0 = np.array([$PB0]); n = 4
H = np.zeros((10, 10)); h = np.zeros(10); worst = 0
for t, g in d.groupby('t', sort=True):
    g = g.sort_values('row'); Y = g[['Y_' + p for p in P]].values; b = g.b.values
    parts = [g[['M0_%d' % c for c in range(1, n + 1)]].values] + [g[['M_%s_%d' % (p, c) for c in range(1, n + 1)]].values for p in P]
    for A in parts: worst = max(worst, abs(A - A.T).max() / (abs(A).max() + 1e-300))
    M = parts[0] + sum(t0[j] * parts[1 + j] for j in range(10)); W = np.linalg.inv(M)
    H += Y.T @ W @ Y; h += Y.T @ W @ b
want = np.linalg.solve(H, h); got = e[P].values[-1]
err = np.linalg.norm(got - want) / np.linalg.norm(want)
assert worst < 1e-12 and err < 1e-8, (worst, err)
"
fi
expect "--whiten without the metric's columns" 1 "" "no column M0_1" -- $F --whiten $PB0 "$tmp/pb.reg"
expect "--whiten with 3 values" 2 "" "--whiten: 3 values" -- $F --whiten 1,2,3 "$tmp/met.reg"
expect "--whiten with another stage" 2 "" "--whiten is a stage of its own" -- $F --whiten $PB0 --decimate 2 "$tmp/met.reg"
expect "--whiten at an unphysical prior" 1 "" "not positive definite" -- $F --whiten -9,0,0,0,0,0,0,0,0,0 "$tmp/met.reg"
expect "--metric on energy rows" 2 "" "--metric applies to force rows" -- \
	$R -m multibody --robot datasets/arm.model --held forearm --rows energy --metric datasets/shake-4500.csv

# dm and dm-pc through the pipeline: the estimate is the minimum of
# sum r^T M(theta)^-1 r, which NumPy checks from the metric columns by
# central differences of the objective (stationary), and lower there than
# at the frozen-metric solution
$E --batch --raw -a dm --theta0 $PB0 "$tmp/met.reg" > "$tmp/dm.est"
$E --batch -a dm-pc --theta0 $PB0 "$tmp/met.reg" > "$tmp/dmpc.est"
if /usr/bin/python3 -c "import numpy, pandas" 2>/dev/null; then
	check "dm: stationary and below the frozen metric's objective (NumPy, from the metric columns)" /usr/bin/python3 -c "
import numpy as np, pandas as pd
d = pd.read_csv('$tmp/met.reg', comment='#'); P = ['m','mcx','mcy','mcz','Ixx','Ixy','Iyy','Ixz','Iyz','Izz']; n = 4
S = []
for t, g in d.groupby('t', sort=True):
    g = g.sort_values('row')
    S.append((g[['Y_' + p for p in P]].values, g.b.values, [g[['M0_%d' % c for c in range(1, n + 1)]].values] +
              [g[['M_%s_%d' % (p, c) for c in range(1, n + 1)]].values for p in P]))
def f(th):
    v = 0
    for Y, b, M in S:
        r = Y @ th - b; Mt = M[0] + sum(th[j] * M[1 + j] for j in range(10)); v += r @ np.linalg.solve(Mt, r)
    return v
dm = pd.read_csv('$tmp/dm.est', comment='#')[P].values[-1]; fr = pd.read_csv('$tmp/wh.est', comment='#')[P].values[-1]
f0 = f(dm); g = np.zeros(10)
for j in range(10):
    h = 1e-6 * max(abs(dm[j]), 1e-3); e = np.zeros(10); e[j] = h
    g[j] = (f(dm + e) - f(dm - e)) / (2 * h)
assert np.max(np.abs(g * np.maximum(np.abs(dm), 1e-3))) < 1e-5 * f0, (g, f0)
assert f0 <= f(fr) * (1 + 1e-12), (f0, f(fr))
"
fi
check "dm-pc: physical" sh -c "$P '$tmp/dmpc.est' | grep -q '0 of 1 estimates not physical'"
expect "dm without the metric's columns" 1 "" "dm needs the metric's columns" -- $E --batch -a dm --theta0 $PB0 "$tmp/pb.reg"
expect "dm without a start" 2 "" "dm needs --theta0" -- $E --batch -a dm "$tmp/met.reg"

# wls-bregman: stationary for its objective (gradient written here from the
# log-det divergence), physical, and the prior under a huge weight
$E --batch -a wls-bregman --theta0 $PB0 --prior-weight 3 "$tmp/pb.reg" > "$tmp/br.est"
if /usr/bin/python3 -c "import numpy, pandas" 2>/dev/null; then
	check "wls-bregman: the Newton step left at the estimate is nil (NumPy, from the log-det divergence)" /usr/bin/python3 -c "
import numpy as np, pandas as pd
d = pd.read_csv('$tmp/pb.reg', comment='#'); e = pd.read_csv('$tmp/br.est', comment='#')
P = ['m','mcx','mcy','mcz','Ixx','Ixy','Iyy','Ixz','Iyz','Izz']
Y = d[['Y_' + p for p in P]].values; b = d.b.values; k = d.row.values.astype(int)
ols = np.linalg.lstsq(Y, b, rcond=None)[0]; r = Y @ ols - b
w = np.array([1 / np.mean(r[k == j] ** 2) for j in k])
def J(t):
    I = np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
    M = np.zeros((4, 4)); M[:3, :3] = np.trace(I) / 2 * np.eye(3) - I; M[:3, 3] = M[3, :3] = t[1:4]; M[3, 3] = t[0]
    return M
t0 = np.array([$PB0]); th = e[P].values[-1]; V = [J(np.eye(10)[i]) for i in range(10)]
J0i = np.linalg.inv(J(t0)); Ji = np.linalg.inv(J(th))
g = 2 * (Y.T @ (w * (Y @ th - b))) + 3 * np.array([np.trace(J0i @ V[i]) - np.trace(Ji @ V[i]) for i in range(10)])
K = 2 * Y.T @ (w[:, None] * Y) + 3 * np.array([[np.trace(Ji @ V[i] @ Ji @ V[j]) for j in range(10)] for i in range(10)])
step = np.linalg.solve(K, g)  # the Newton step left: the distance to the minimum
assert np.linalg.eigvalsh(J(th)).min() > 0 and np.abs(step).max() < 1e-7 * np.abs(th).max(), np.abs(step).max()
"
fi
check "wls-bregman: a huge weight gives the prior" sh -c \
	"$E --batch -a wls-bregman --theta0 $PB0 --prior-weight 1e12 '$tmp/pb.reg' | grep -v '^#' | tail -1 |
	 awk -F, '{ exit !(\$2 > 0.5999 && \$2 < 0.6001) }'"
expect "wls-bregman at weight 0" 2 "" "--prior-weight: wls-bregman needs a positive weight" -- \
	$E --batch -a wls-bregman --theta0 $PB0 --prior-weight 0 "$tmp/pb.reg"

finish
