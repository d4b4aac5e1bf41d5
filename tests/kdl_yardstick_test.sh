#!/bin/sh
# kdl_yardstick_test.sh: the arm path's yardstick (bench/kdl_yardstick.cpp)
# computes what libtagk computes: on seeded random states of the Panda
# (datasets/panda.model) and the UR5e (tests/robots/ur5e.xml, an MJCF whose
# joints take their axes from default classes), Orocos KDL's recursive
# Newton-Euler gives libtagk's torques, by RNEA and by Y theta, to 1e-9
# relative, or the yardstick exits 1. KDL's dynamics are its own (frames,
# joints, inertias), so this is also an oracle of lib/multibody.c on the
# shipped robots. Skips where liborocos-kdl-dev is missing. The timing
# columns are not checked: speed is make bench-kdl's.
set -u
. "$(dirname "$0")/lib.sh"
Y=${KDL_YARDSTICK:-build/kdl-yardstick}
if ! [ -x "$Y" ]; then
	echo "skip the KDL yardstick: liborocos-kdl-dev is not installed ($Y was not built)"
	finish
	exit 0
fi
for m in datasets/panda.model tests/robots/ur5e.xml datasets/panda.urdf; do
	"$Y" --states 300 --rounds 1 "$m" > "$tmp/out" 2>&1
	rc=$?
	sed -n 2p "$tmp/out" | sed 's/^/  /'
	check "$m: KDL and tagk agree to 1e-9 and the yardstick runs" test $rc -eq 0
	check "... four timed sides" sh -c "grep -cE '^(kdl-rnea|tagk-rnea|held-rows|all-rows) ' '$tmp/out' | grep -qx 4"
done
# a model KDL cannot take (a floating base) is refused, not timed
cat > "$tmp/free.model" <<'M'
body base
  parent world
  joint free
  mass 1
  com 0 0 0
  inertia 0.1 0.1 0.1 0 0 0
body arm
  parent base
  joint revolute
  axis 0 0 1
  mass 1
  com 0.1 0 0
  inertia 0.01 0.01 0.01 0 0 0
M
"$Y" --states 10 "$tmp/free.model" > /dev/null 2>"$tmp/err"
check "a floating base is refused with a message" sh -c "test $? -eq 1 && grep -q 'fixed base' '$tmp/err'"
"$Y" --states > /dev/null 2>&1
check "bad usage exits 2" test $? -eq 2
finish
