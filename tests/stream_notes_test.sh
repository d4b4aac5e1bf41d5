#!/bin/sh
# stream_notes_test.sh: a marker line's text (#tagk-note:, #tagk-error:)
# reaches the next command byte for byte whatever the stream's format. A
# CSV stream once split a note at its commas and joined it again: blanks
# after a comma and double quotes were lost, and a warning read differently
# after a CSV hop than after a binary one (tagk-estimate picks binary only
# when it sees a tagk command at the pipe's other end, so the same pipeline
# printed one text or the other by timing).
#
# Independent reference: the text written into the stream by awk/printf.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate P=$BIN/tagk-report
note='tester: a, b,  "c, d" e'

$R --stream csv datasets/synth-payload-noisy.csv 2>/dev/null > "$tmp/rows.csv"
# the note before the end marker (notes are not in the check value), with
# leading blanks and a CR LF line end, as a Windows tool might leave it
awk -v n="$note" '/^#tagk-end/ { printf "  #tagk-note: warning %s\r\n", n } { print }' "$tmp/rows.csv" \
	> "$tmp/noted.csv"

for fmt in csv binary; do
	$E --stream $fmt "$tmp/noted.csv" 2>/dev/null | $P --strict > /dev/null 2> "$tmp/err.$fmt"
	check "a carried warning through a $fmt stream keeps every byte" \
		grep -Fxq "tagk-report: stdin: upstream, $note" "$tmp/err.$fmt"
done
check "... and reads the same through CSV and binary" cmp -s "$tmp/err.csv" "$tmp/err.binary"

# a carried warning written by tagk-estimate's CSV sink, read back
$E --stream csv "$tmp/noted.csv" 2>/dev/null > "$tmp/est.csv"
check "tagk-estimate writes the note on as it read it" \
	grep -Fxq "#tagk-note: warning $note" "$tmp/est.csv"

# the reason of a command that failed upstream
printf '#tagk-error: tagk-x: in, "quotes",  here\n' > "$tmp/failed.csv"
expect "an upstream failure's reason keeps its blanks and quotes" 1 "" \
	'the command upstream failed: tagk-x: in, "quotes",  here$' -- $E "$tmp/failed.csv"

# a marker with a comma is still malformed (its field count kept)
{ grep -v '^#tagk-end' "$tmp/rows.csv"; grep '^#tagk-end' "$tmp/rows.csv" | sed 's/;/,/'; } > "$tmp/badend.csv"
expect "an end marker with a comma is refused" 1 "" 'malformed end marker' -- $E "$tmp/badend.csv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
