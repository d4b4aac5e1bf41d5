#!/bin/sh
# attack2_test.sh: malformed inputs against what the session added: the
# warnings a stream carries (#tagk-note: warning ...), tagk-report's JSON
# for any file name and any carried text, the sd columns a report reads.
#
# Independent reference: Python's json module (strict UTF-8 decoding) says
# whether the output is JSON; the expected values are the bytes written.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate P=$BIN/tagk-report
PY=/usr/bin/python3

# est.csv: a plain estimate stream without truth (tagk-report's summary)
$R datasets/synth-payload.csv 2>/dev/null | $E 2>/dev/null > "$tmp/est.tagk"
plain "$tmp/est.tagk" | cut -d, -f1-22 > "$tmp/est.csv"
# with truth (tagk-report's score)
plain "$tmp/est.tagk" > "$tmp/score.csv"

# jsonok FILE: FILE is one JSON document, read as UTF-8
jsonok() {
	$PY -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$1" 2>/dev/null
}
# jsonget FILE EXPR: print EXPR of the document d, ascii-escaped
jsonget() {
	$PY -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); print(ascii(eval(sys.argv[2])))' "$@"
}

# --- carried warnings and notes with any bytes, in JSON ------------------------
BADN="$tmp/bad\"\\.csv"
{ cat "$tmp/est.csv"; printf '#tagk-note: warning x: a "q" \\ b \001 c \377\376 d \342\202\n'
  printf '#tagk-note: method rls"}{,\\ \001\377\n#tagk-note: refused_updates a"b\\\n'; } > "$BADN"
$P --format json -o "$tmp/o1.json" "$BADN" 2>/dev/null
check "report json: a warning with quotes, control bytes, bad UTF-8 stays JSON" jsonok "$tmp/o1.json"
check "report json: the warning's bytes as written, bad ones as U+FFFD" \
	test "$(jsonget "$tmp/o1.json" 'd["upstream_warnings"][0]')" = "'x: a \"q\" \\\\ b \\\\x01 c \\ufffd\\ufffd d \\ufffd\\ufffd'"
check "report json: the method note escaped" \
	test "$(jsonget "$tmp/o1.json" 'd["method"]')" = "'rls\"}{,\\\\ \\\\x01\\ufffd'"
check "report json: the input's name with a quote and a backslash" \
	test "$(jsonget "$tmp/o1.json" 'd["input"] == sys.argv[3]' "$BADN")" = True
{ cat "$tmp/score.csv"; printf '#tagk-note: warning x: \377\n'; } > "$tmp/sc\"\\.csv"
$P --format json "$tmp/sc\"\\.csv" > "$tmp/o2.json" 2>/dev/null
check "report json with truth: the input's name with a quote and a backslash" jsonok "$tmp/o2.json"
# a UTF-8 character cut by the 599-byte limit of a carried warning
{ cat "$tmp/est.csv"; printf '#tagk-note: warning pq: '; $PY -c 'print("\u20ac" * 400)'; } > "$tmp/long.csv"
$P --format json "$tmp/long.csv" > "$tmp/o3.json" 2>/dev/null
check "report json: a warning cut inside a UTF-8 character stays JSON" jsonok "$tmp/o3.json"

# --- sd columns ------------------------------------------------------------------
awk -F, -v OFS=, 'NR > 1 { $12 = -0.5 } { print }' "$tmp/est.csv" > "$tmp/negsd.csv"
expect "report: a negative sd_m refused" 1 "" "negsd.csv:2: column 'sd_m': -0.5 is not an sd" \
	-- $P "$tmp/negsd.csv"
printf 't,b1,sd_b1,b2,sd_b2\n0,1,0.1,3,0.2\n1,1.1,0.1,3,-0.2\n' > "$tmp/negp.csv"
expect "report: a whole-arm stream's negative sd refused" 1 "" "negp.csv:3: column 'sd_b2': -0.2 is not an sd" \
	-- $P "$tmp/negp.csv"
printf 't,b1,sd_b1,b\377"\\,sd_b\377"\\\n0,1,,3,0.2\n' > "$tmp/wp.csv"
$P --format json "$tmp/wp.csv" > "$tmp/o4.json" 2>/dev/null
check "report json: a whole-arm column named with bad bytes and quotes" \
	test "$(jsonget "$tmp/o4.json" 'list(d["params"])')" = "['b1', 'b\\ufffd\"\\\\']"

# --- more warnings than kept: counted, not lost ------------------------------------
{ cat "$tmp/est.csv"; seq 1 5000 | sed 's/^/#tagk-note: warning p: msg /'; } > "$tmp/many.csv"
expect "report: 5000 carried warnings, the 4984 not kept counted" 0 "*" \
	"upstream, tagk: 4984 more warnings upstream, not kept \(the first 16 are\)" -- $P "$tmp/many.csv"
$P --format json "$tmp/many.csv" > "$tmp/o5.json" 2>/dev/null
check "report json: the count of warnings not kept is the list's last" \
	test "$(jsonget "$tmp/o5.json" 'd["upstream_warnings"][-1]')" = "'tagk: 4984 more warnings upstream, not kept (the first 16 are)'"
$R datasets/synth-payload.csv 2>/dev/null | grep -v '^#tagk-' > "$tmp/reg.csv"
seq 1 40 | sed 's/^/#tagk-note: warning p: msg /' >> "$tmp/reg.csv"
$E "$tmp/reg.csv" 2>/dev/null > "$tmp/e40.tagk"
expect "estimate then report: the count of warnings not carried survives the pipe" 0 "*" \
	"upstream, tagk: 24 more warnings upstream, not kept" -- $P "$tmp/e40.tagk"
$E --stream binary "$tmp/reg.csv" 2>/dev/null > "$tmp/e40.bin"
$P --format json "$tmp/e40.bin" > "$tmp/o6.json" 2>/dev/null
check "report json with truth, binary stream: the carried warnings listed, the count last" \
	test "$(jsonget "$tmp/o6.json" '(len(d["upstream_warnings"]), d["upstream_warnings"][-1])')" = \
	"(17, 'tagk: 24 more warnings upstream, not kept (the first 16 are)')"

# --- whole-arm table: a parameter without an sd is no interval to miss the truth ------
$PY -c '
n = 20
print(",".join(["t"] + ["b%d" % i for i in range(n)] + ["sd_b%d" % i for i in range(n)] + ["true_b%d" % i for i in range(n)]))
print(",".join(["0"] + ["1.5"] * n + ["0.1"] * 10 + [""] * 10 + ["1.5"] * n))' > "$tmp/halfsd.csv"
expect "whole-arm: 10 of 20 without an sd: the truth inside 10 of 10, no warning" 0 \
	"the truth is inside 10 of 10 intervals" "" -- $P --strict "$tmp/halfsd.csv"

# --- notes with control bytes: printed escaped, as warnings are ------------------------
{ cat "$tmp/est.csv"; printf '#tagk-note: method rls\033[31mRED\001\n'; } > "$tmp/esc.csv"
$P "$tmp/esc.csv" > "$tmp/esc.txt" 2>&1
check "report: a note's escape and control bytes are not printed raw" \
	sh -c "! grep -q \"\$(printf '\\033')\" '$tmp/esc.txt' && grep -qF 'rls\\x1b[31mRED\\x01' '$tmp/esc.txt'"

# --- sd_sys_ columns for some parameters only: refused, not dropped ----------------------
$R --scale-sd 0.1 datasets/synth-payload.csv 2>/dev/null | $E 2>/dev/null | plain - | cut -d, -f1-22 > "$tmp/sys1.csv"
expect "report: sd_sys_m alone (9 of 10 missing) refused" 1 "" "sd_sys_ columns for 1 of the 10 parameters" \
	-- $P "$tmp/sys1.csv"

# --- -m multibody: outputs named twice, a secondary output that cannot be made --------
MB="-m multibody --map t=time --map q=pos_{1..7} --map qd=vel_* --map tau=eff_{1..7}"
gzip -dc datasets/panda-empty.csv.gz | head -400 > "$tmp/arm.csv"
expect "--identify: -o and --write-robot the same file refused" 2 "" \
	"-o '$tmp/./x.urdf' and --write-robot '$tmp/x.urdf' name the same file" -- \
	$R --robot datasets/panda.urdf $MB --identify --write-robot "$tmp/x.urdf" -o "$tmp/./x.urdf" "$tmp/arm.csv"
check "... and nothing written" test ! -e "$tmp/x.urdf"
expect "--identify: --write-robot and --write-friction the same file refused" 2 "" "name the same file" -- \
	$R --robot datasets/panda.urdf $MB --identify --write-robot "$tmp/y" --write-friction "$tmp/y" -o "$tmp/y.model" \
	"$tmp/arm.csv"
check "... and nothing written" test ! -e "$tmp/y" -a ! -e "$tmp/y.model"
expect "--identify: --write-friction into a missing directory: exit 1" 1 "" "nodir/f.txt: No such file or directory" \
	-- $R --robot datasets/panda.urdf $MB --identify --write-friction "$tmp/nodir/f.txt" -o "$tmp/z.model" "$tmp/arm.csv"
check "... and no model file left behind" test ! -e "$tmp/z.model"

finish
