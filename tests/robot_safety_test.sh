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
# and a peak RSS under 20 times the file and 16 MB (the program itself takes 5)
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
			exit !(v[2] != "" && v[2] + v[3] < t && v[4] * 1024 < 20 * n + 16e6) }'
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
# 60000 empty elements a line: each blank between two tags is a node too
# (256 bytes an element and its blank: 68 times the file before)
awk 'BEGIN { printf "<mujoco>"; for (i = 0; i < 60000; i++) print "<a/>"; print "</mujoco>" }' > "$tmp/gaps.xml"
bounded "60000 elements a line" "$tmp/gaps.xml" 2 "60001 elements, 6000[01] texts and 0 attributes in [0-9]+ bytes: their tree would take"
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

# --- what changes the dynamics: read (tests/mujoco_oracle_test.sh checks
# it against MuJoCo on random variants) or refused, named ------------------
I='<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>'
mj() { # NAME PATTERN XML-INSIDE-<mujoco>
	bad "MJCF $1" "$2" "<mujoco>$3</mujoco>"
}
W="<worldbody><body name=\"a\"><joint/>$I</body></worldbody>"
mj "compiler coordinate=global" "bad.xml:1: <compiler coordinate=\"global\">: not read" "<compiler coordinate=\"global\"/>$W"
mj "compiler boundmass" "<compiler boundmass=\"0.1\">: not read: it raises masses" "<compiler boundmass=\"0.1\"/>$W"
mj "compiler boundinertia" "<compiler boundinertia=\"1e-3\">: not read" "<compiler boundinertia=\"1e-3\"/>$W"
mj "compiler balanceinertia" "<compiler balanceinertia=\"true\">: not read" "<compiler balanceinertia=\"true\"/>$W"
mj "compiler inertiafromgeom=true" "<compiler inertiafromgeom=\"true\">: not read: tagk does not infer inertia" \
	"<compiler inertiafromgeom=\"true\"/>$W"
mj "compiler alignfree" "<compiler alignfree=\"true\">: not read" "<compiler alignfree=\"true\"/>$W"
mj "an unknown compiler attribute" "<compiler frobnicate>: an attribute tagk does not know" "<compiler frobnicate=\"1\"/>$W"
mj "a mocap body" "<body mocap=\"true\">: not read" "<worldbody><body name=\"a\" mocap=\"true\">$I</body></worldbody>"
mj "gravcomp" "<body gravcomp=\"1\">: not read" "<worldbody><body name=\"a\" gravcomp=\"1\"><joint/>$I</body></worldbody>"
mj "a body attribute of a newer MuJoCo" "<body sleep>: an attribute tagk does not know" \
	"<worldbody><body name=\"a\" sleep=\"never\"><joint/>$I</body></worldbody>"
mj "a joint attribute misspelt" "<joint rf>: an attribute tagk does not know" \
	"<worldbody><body name=\"a\"><joint rf=\"1\"/>$I</body></worldbody>"
mj "a default joint's unknown attribute" "<joint rf>: an attribute" \
	"<default><joint rf=\"1\"/></default>$W"
mj "an inertial attribute unknown" "<inertial inertia>: an attribute" \
	"<worldbody><body name=\"a\"><joint/><inertial pos=\"0 0 0\" mass=\"1\" inertia=\"1 1 1\"/></body></worldbody>"
mj "freejoint align" "<freejoint align=\"true\">: not read" "<worldbody><body name=\"a\"><freejoint align=\"true\"/>$I</body></worldbody>"
mj "fullinertia and an orientation (MuJoCo refuses both)" "<inertial>: more than one of quat, axisangle, xyaxes, zaxis, euler and fullinertia" \
	"<worldbody><body name=\"a\"><joint/><inertial pos=\"0 0 0\" mass=\"1\" euler=\"0 0 90\" fullinertia=\"1 1 1 0 0 0\"/></body></worldbody>"
mj "an include in worldbody" "<include> is not read: tagk reads the one file" \
	"<worldbody><include file=\"/etc/passwd\"/><body name=\"a\"><joint/>$I</body></worldbody>"
mj "an include in a body" "<include> is not read" "<worldbody><body name=\"a\"><joint/>$I<include file=\"b.xml\"/></body></worldbody>"
mj "an include in default" "<include> is not read" "<default><include file=\"b.xml\"/></default>$W"
for e in frame replicate attach composite flexcomp; do
	mj "<$e> in a body" "<$e> is not read" "<worldbody><body name=\"a\"><joint/>$I<$e/></body></worldbody>"
done
mj "an equality constraint" "<equality> constraints are not read" \
	"$W<equality><joint joint1=\"a\" joint2=\"b\"/></equality>"
mj "a second worldbody" "a second <worldbody>" "$W<worldbody><body name=\"b\"><joint/>$I</body></worldbody>"
mj "a second top default" "default class 'main' defined twice" "<default/><default/>$W"
mj "a class defined twice" "default class 'c' defined twice" \
	"<default><default class=\"c\"/><default class=\"c\"><joint axis=\"1 0 0\"/></default></default>$W"
mj "a class with two joints" "a second <joint> in one <default>" \
	"<default><joint axis=\"1 0 0\"/><joint axis=\"0 1 0\"/></default>$W"
mj "a joint of a class that does not exist" "class 'nope': no such default class" \
	"<worldbody><body name=\"a\"><joint class=\"nope\"/>$I</body></worldbody>"
mj "a joint in worldbody" "<joint> in <worldbody>" "<worldbody><joint/><body name=\"a\"><joint/>$I</body></worldbody>"

# URDF: each part once; a tree
L='<link name="a"/><link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'
P='<parent link="a"/><child link="b"/>'
ur() { # NAME PATTERN XML-INSIDE-<robot>
	bad "URDF $1" "$2" "<robot name=\"r\">$3</robot>"
}
ur "a joint with two origins" "<joint 'j'> has a second <origin> \(first on line 1\)" \
	"$L<joint name=\"j\" type=\"revolute\"><origin xyz=\"0 0 1\"/><origin xyz=\"0 0 2\"/>$P</joint>"
ur "a link with two inertials" "<link 'b'> has a second <inertial>" \
	"<link name=\"a\"/><link name=\"b\"><inertial><mass value=\"1\"/></inertial><inertial><mass value=\"2\"/></inertial></link><joint name=\"j\" type=\"fixed\">$P</joint>"
ur "an inertial with two origins" "<inertial ''> has a second <origin>" \
	"<link name=\"a\"/><link name=\"b\"><inertial><origin xyz=\"0 0 1\"/><origin xyz=\"0 0 2\"/><mass value=\"1\"/></inertial></link><joint name=\"j\" type=\"fixed\">$P</joint>"
ur "an inertial with two masses" "has a second <mass>" \
	"<link name=\"a\"/><link name=\"b\"><inertial><mass value=\"1\"/><mass value=\"2\"/></inertial></link><joint name=\"j\" type=\"fixed\">$P</joint>"
ur "an inertial with two inertias" "has a second <inertia>" \
	"<link name=\"a\"/><link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"1\"/><inertia ixx=\"2\"/></inertial></link><joint name=\"j\" type=\"fixed\">$P</joint>"
ur "a joint with two axes" "<joint 'j'> has a second <axis>" \
	"$L<joint name=\"j\" type=\"revolute\">$P<axis xyz=\"1 0 0\"/><axis xyz=\"0 1 0\"/></joint>"
ur "a joint with two limits" "has a second <limit>" "$L<joint name=\"j\" type=\"revolute\">$P<limit/><limit/></joint>"
ur "a joint with two children" "has a second <child>" "$L<link name=\"c\"/><joint name=\"j\" type=\"fixed\">$P<child link=\"c\"/></joint>"
ur "a mimic joint" "joint 'k' mimics another" \
	"$L<link name=\"c\"/><joint name=\"j\" type=\"revolute\">$P</joint><joint name=\"k\" type=\"revolute\"><parent link=\"b\"/><child link=\"c\"/><mimic joint=\"j\"/></joint>"
ur "a link with two parents" "link 'c' is the child of joints 'j' and 'k'" \
	"$L<link name=\"c\"/><joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint><joint name=\"k\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint><joint name=\"l\" type=\"fixed\">$P</joint>"
ur "a cycle" "every link has a parent joint: a loop" \
	"$L<joint name=\"j\" type=\"fixed\">$P</joint><joint name=\"k\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint>"
ur "a cycle beside the tree" "not reached from 'r0' \(a loop\?\)" \
	"<link name=\"r0\"/>$L<joint name=\"j\" type=\"fixed\">$P</joint><joint name=\"k\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint>"
ur "MuJoCo's compiler settings in a URDF" "<mujoco> in a URDF" "<mujoco><compiler balanceinertia=\"true\"/></mujoco>$L<joint name=\"j\" type=\"fixed\">$P</joint>"
ur "a xacro element inside a link" "a xacro file: expand it first" \
	"<link name=\"a\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\"><xacro:insert_block name=\"x\"/></link>"
ur "an XInclude" "\(XInclude\) is not read" \
	"<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"/etc/passwd\" parse=\"text\"/>$L<joint name=\"j\" type=\"fixed\">$P</joint>"

# a massless root ("world") whose one child turns on it: the child keeps
# its joint (MuJoCo: a hinge on the world). The child's inertia about the
# axis is izz + m r^2 = 1 + 1 * 0.1^2 = 1.01, so at qdd = 2 the robot's own
# torque is 2.02, and a log of exactly that leaves the held payload b = 0;
# a prismatic joint along x carries the mass alone: force m qdd = 2.
W1='<link name="world"/><link name="b"><inertial><origin xyz="0.1 0 0"/><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'
printf 't,q1,qd1,qdd1,tau1\n0,0.3,0,2,2.02\n' > "$tmp/j1.csv"
printf '<robot name="r">%s<joint name="q1" type="revolute"><parent link="world"/><child link="b"/><axis xyz="0 0 1"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint></robot>\n' "$W1" > "$tmp/w1.urdf"
expect "URDF: a revolute joint from a massless world keeps its joint (payload b = 0)" 0 \
	"^0,0,0,0,0,0,0,0,0,0,0,2,0$" "" -- $BIN/tagk-regress -m multibody --held b --robot "$tmp/w1.urdf" "$tmp/j1.csv"
printf 't,q1,qd1,qdd1,tau1\n0,0.3,0,2,2\n' > "$tmp/j2.csv"
printf '<robot name="r">%s<joint name="q1" type="prismatic"><parent link="world"/><child link="b"/><axis xyz="1 0 0"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint></robot>\n' "$W1" > "$tmp/w2.urdf"
expect "URDF: ... and so does a prismatic one (force m qdd = 2)" 0 \
	"^0,0,2,0,0,0,0,0,0,0,0,0,0$" "" -- $BIN/tagk-regress -m multibody --held b --robot "$tmp/w2.urdf" "$tmp/j2.csv"

# an attribute with a namespace prefix is not the attribute: libxml2 gives
# x:mass the local name "mass", and the first of the two was read (mass 7).
# MuJoCo refuses the unknown attribute; urdfdom (TinyXML) reads value="1".
mj "a prefixed attribute beside the real one" "<inertial x:mass>: an attribute with a namespace prefix" \
	"<worldbody><body name=\"a\"><joint/><inertial pos=\"0 0 0\" x:mass=\"7\" mass=\"1\" diaginertia=\"1 1 1\" xmlns:x=\"u\"/></body></worldbody>"
mj "a prefixed joint ref" "<joint x:ref>: an attribute with a namespace prefix" \
	"<worldbody><body name=\"a\"><joint x:ref=\"90\" xmlns:x=\"u\"/>$I</body></worldbody>"
printf '<robot name="r" xmlns:x="u">%s<joint name="q1" type="revolute"><parent link="world"/><child link="b"/><axis xyz="0 0 1"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint></robot>\n' \
	"$(echo "$W1" | sed 's/<mass value="1"/<mass x:value="7" value="1"/')" > "$tmp/w3.urdf"
expect "URDF: <mass x:value=\"7\" value=\"1\"> is mass 1, as urdfdom reads it (payload b = 0)" 0 \
	"^0,0,0,0,0,0,0,0,0,0,0,2,0$" "" -- $BIN/tagk-regress -m multibody --held b --robot "$tmp/w3.urdf" "$tmp/j1.csv"

# ... and an element with a prefix is not the element: libxml2 names
# <g:inertial> "inertial" and tagk read it (mass 1 where urdfdom has none),
# <x:body> a body MuJoCo refuses; both refused now, by name
ur "a prefixed inertial" "<g:inertial>: an element with a namespace prefix" \
	"<link name=\"a\"/><link name=\"b\"><g:inertial xmlns:g=\"u\"><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></g:inertial></link><joint name=\"j\" type=\"revolute\">$P</joint>"
mj "a prefixed body" "<x:body>: an element with a namespace prefix" \
	"<worldbody><body name=\"a\"><joint/>$I<x:body name=\"c\" xmlns:x=\"u\"><joint/>$I</x:body></body></worldbody>"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
