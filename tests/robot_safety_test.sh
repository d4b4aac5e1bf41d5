#!/bin/sh
# robot_safety_test.sh: a robot description (URDF or MJCF, formats/robotxml.c)
# costs a bounded time and memory however it is crafted, reads nothing but
# itself, and whatever in it would change the dynamics is applied (checked
# against MuJoCo in tests/mujoco_oracle_test.sh) or refused with one line
# naming it. Times are CPU seconds (user + sys, /usr/bin/time), not wall
# time, and the bounds are loose, so a loaded machine does not fail them;
# today's reader (before these bounds) took 31 s of CPU on 160k attributes.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
printf 't,q1\n0,0\n' > "$tmp/log.csv"
R="$BIN/tagk-regress -m multibody --held a"

# NAME PATTERN FILE: the description refused, one line matching PATTERN
refused() {
	expect "$1" 1 "" "$2" -- $R --robot "$3" "$tmp/log.csv"
	check "... in one line" test "$(wc -l < "$tmp/err")" -eq 1
}
# NAME PATTERN XML: the same for a description given inline
bad() {
	printf '%s\n' "$3" > "$tmp/bad.xml"
	refused "$1" "$2" "$tmp/bad.xml"
}

# --- bounded cost -------------------------------------------------------
# NAME FILE MAXCPU PATTERN: refused (or read) within MAXCPU CPU seconds
# and a peak RSS under 20 times the file and 64 MB
bounded() {
	name=$1 f=$2 maxcpu=$3 pat=$4
	if ! [ -x /usr/bin/time ]; then
		echo "skip $name: no /usr/bin/time (apt-get install time)"
		return
	fi
	(ulimit -t 30; /usr/bin/time -f 'cost %U %S %M' $R --robot "$f" "$tmp/log.csv") > "$tmp/out" 2> "$tmp/err"
	size=$(wc -c < "$f")
	cost=$(grep '^cost ' "$tmp/err")
	check "$name: '$pat' ($(grep -v '^cost ' "$tmp/err" | head -1 | cut -c1-120))" grep -Eq -- "$pat" "$tmp/err"
	check "... in under $maxcpu CPU seconds and 20 times the file's $size bytes ($cost: user, sys, kB)" \
		awk -v c="$cost" -v t="$maxcpu" -v n="$size" 'BEGIN { split(c, v, " ")
			exit !(v[2] != "" && v[2] + v[3] < t && v[4] * 1024 < 20 * n + 64e6) }'
}
# one element with 400k attributes: libxml2 2.9's duplicate check is
# pairwise (minutes); refused before libxml2 sees it
awk 'BEGIN { printf "<mujoco><worldbody><body name=\"a\""; for (i = 0; i < 400000; i++) printf " a%d=\"1\"", i
	print "/></worldbody></mujoco>" }' > "$tmp/attrs.xml"
bounded "one element with 400k attributes" "$tmp/attrs.xml" 2 "attrs.xml:1: an element with 40000[01] attributes \(at most 64\)"
# the same attributes spread 64 to an element: libxml2's tree would take
# 30 times the file
awk 'BEGIN { printf "<mujoco>"; for (e = 0; e < 6250; e++) { printf "<a"; for (i = 0; i < 64; i++) printf " b%d=\"%d\"", i, i
	print "/>" } print "</mujoco>" }' > "$tmp/spread.xml"
bounded "400k attributes, 64 to an element" "$tmp/spread.xml" 2 "their tree would take [0-9]+ MB, more than 8 times the file"
# a 100 MB file of empty elements (3.3 GB of memory before): over the cap
{ printf '<mujoco>'; yes '<a/>' | head -c 100000000; printf '</mujoco>\n'; } > "$tmp/big.xml"
bounded "100 MB of <a/>" "$tmp/big.xml" 2 "big.xml: larger than 64 MiB: not a model file or robot description"
# ... and the same through a pipe, where no size is known before reading
expect "100 MB of <a/> through a pipe: refused at 64 MiB" 1 "" "larger than 64 MiB" -- \
	sh -c "cat '$tmp/big.xml' | $R --robot /dev/stdin '$tmp/log.csv'"
rm -f "$tmp/big.xml"
# 100k empty elements under the cap: more elements than any robot has
awk 'BEGIN { printf "<mujoco>"; for (i = 0; i < 100001; i++) printf "<a/>"; print "</mujoco>" }' > "$tmp/elts.xml"
bounded "100001 elements" "$tmp/elts.xml" 2 "elts.xml:1: more than 100000 elements"
# 40 MB of comment, inside the cap: read (and refused for having no
# bodies) in a few times its size
{ printf '<mujoco><!--'; yes 'a comment' | head -c 40000000; printf -- '--><worldbody/></mujoco>\n'; } > "$tmp/comment.xml"
bounded "a 40 MB comment" "$tmp/comment.xml" 4 "comment.xml:[0-9]+: not well-formed XML: Comment too big"
rm -f "$tmp/comment.xml"
# deep nesting
awk 'BEGIN { printf "<mujoco>"; for (i = 0; i < 100000; i++) printf "<a>"; for (i = 0; i < 100000; i++) printf "</a>"
	print "</mujoco>" }' > "$tmp/deep.xml"
bounded "100k nested elements" "$tmp/deep.xml" 2 "deep.xml:1: elements nested more than 128 deep"

# --- nothing but itself -----------------------------------------------------
bad "entities (the billion laughs)" "bad.xml:1: a document type declaration \(<!DOCTYPE or <!ENTITY\): not read" \
	'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><robot name="&c;"><link name="a"/></robot>'
bad "an external entity" "a document type declaration" \
	'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><robot name="x"><link name="&x;"/></robot>'
bad "an external DTD" "a document type declaration" \
	'<?xml version="1.0"?><!DOCTYPE robot SYSTEM "http://127.0.0.1:1/robot.dtd"><robot name="x"><link name="a"/></robot>'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
