#!/bin/sh
# pipeline_badinput_test.sh: the bad-input battery: cells, encodings, separators, NUL bytes
# and truncated files (exit 1, one clear line on stderr, nothing on stdout),
# --skip-bad, and the usage errors (exit 2).
# One theme of the pipeline battery (tests/pipeline_*_test.sh): the real
# binaries composed as a user would, over tests/lib.sh's pipeline_setup.
set -u
BIN=${BIN:-bin}
MKFIX=${MKFIX:-build/mkfixtures}
. "$(dirname "$0")/lib.sh"
pipeline_setup

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

expect "directory as input" 1 "" "is a directory" -- $R "$tmp"
expect "-o leaves no file on failure" 1 "" "NaN" -- $R "$tmp/nan.csv" -o "$tmp/out.csv"
check "  ... and no file was left" test ! -e "$tmp/out.csv"
expect "--skip-bad skips NaN rows" 0 "^t,row" "skipped 1 bad row of" -- $R --skip-bad "$tmp/nan.csv"
expect "--skip-bad skips repeated times" 0 "^t,row" "skipped 1 bad row of" -- $R --skip-bad "$tmp/dup.csv"

# --- usage errors ----------------------------------------------------------
$R "$tmp/small.csv" > "$tmp/small.reg"
expect "bad --map" 2 "" "--map: acc takes 3 columns, 'ax,ay' names 2" -- $R --map acc=ax,ay "$tmp/small.csv"
expect "unknown signal" 2 "" "--map: 'foo=x' is not SIGNAL=COL" -- $R --map foo=x "$tmp/small.csv"
expect "unknown preset" 2 "" "--preset: unknown preset 'betaflight'" -- $R --preset betaflight "$tmp/small.csv"
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

finish
