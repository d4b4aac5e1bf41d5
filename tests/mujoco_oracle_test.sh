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
finish
