#!/bin/sh
# mujoco_oracle_test.sh: lib/multibody.c's mass matrix and inverse dynamics
# against MuJoCo's mj_fullM and mj_rne on 60 random trees (fixed and
# floating bases, hinge and slide joints), to 1e-10 relative; see
# tests/mujoco_oracle.c. Skips when libmujoco-dev is not installed.
set -u
. "$(dirname "$0")/lib.sh"
ORACLE=${MUJOCO_ORACLE:-build/mujoco_oracle}
if ! [ -x "$ORACLE" ]; then
	echo "skip the MuJoCo oracle: libmujoco-dev is not installed (build/mujoco_oracle was not built)"
	finish
	exit 0
fi
"$ORACLE" "$tmp" > "$tmp/out" 2>&1
rc=$?
sed 's/^/  /' "$tmp/out"
check "multibody M and M qdd + h agree with MuJoCo to 1e-10" test $rc -eq 0
# URDF and MJCF as tagk reads them (formats/robotxml.c), against MuJoCo
# reading the same files; see tests/robotxml_oracle.c for the tolerances
X=${ROBOTXML_ORACLE:-build/robotxml_oracle}
"$X" tests/robots/features.xml tests/robots/free.xml tests/robots/ur5e.xml tests/robots/features.urdf:1e-7 tests/robots/free.urdf:1e-7 tests/robots/worldjoint.urdf:1e-7 \
	datasets/panda_nohand.xml:1e-7 datasets/panda.urdf:1e-7 > "$tmp/out" 2>&1
rc=$?
sed 's/^/  /' "$tmp/out"
check "URDF and MJCF read by tagk: M and M qdd + h agree with MuJoCo reading the same files" test $rc -eq 0
# 100 random MJCF variants of what changes the dynamics (joint ref,
# settotalmass, the gravity flag, every orientation form, default classes,
# fixed bodies merged, free tops): tests/robotxml_variants.sh
mkdir "$tmp/variants"
sh tests/robotxml_variants.sh "$tmp/variants" 100 52 > "$tmp/list"
"$X" $(cat "$tmp/list") > "$tmp/out" 2>&1
rc=$?
grep -v 'against MuJoCo' "$tmp/out" | sed 's/^/  /'
worst=$(awk '/against MuJoCo/ { n++; m = $(NF - 7) + 0; t = $(NF - 2) + 0; if (m > w) w = m; if (t > w) w = t }
	END { printf "%d files, worst relative difference %.3g", n, w }' "$tmp/out")
check "100 random MJCF variants read by tagk agree with MuJoCo ($worst)" \
	test $rc -eq 0 -a "$(grep -c 'against MuJoCo' "$tmp/out")" -eq 100
finish
