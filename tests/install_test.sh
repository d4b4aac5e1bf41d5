#!/bin/sh
# install_test.sh: `make install` into a temporary prefix installs the
# public headers only (not the simulators of bench/sim, nor internals), a
# tagk.pc that follows PREFIX, and a library a C++ program links against
# with `g++ app.cpp $(pkg-config --cflags --libs tagk)`. Skips the C++
# part when g++ or pkg-config is absent.
set -u
. "$(dirname "$0")/lib.sh"
P="$tmp/prefix"
expect "make install PREFIX=$P" 0 "*" "*" -- make --no-print-directory install PREFIX="$P"
check "the public umbrella header is installed" test -f "$P/include/tagk/tagk.h"
check "the simulators' headers are not installed" test ! -e "$P/include/tagk/sim" -a ! -e "$P/include/tagk/quad.h" -a ! -e "$P/include/tagk/tagk_sim.h"
check "no internal header is installed" sh -c "! ls '$P'/include/tagk/*_impl.h '$P'/include/tagk/*.def 2>/dev/null | grep -q ."
check "every installed header compiles on its own" sh -c "for h in '$P'/include/tagk/*.h; do printf '#include \"%s\"\nint main(void) { return 0; }\n' \"\$h\" | cc -std=c11 -x c -fsyntax-only - || exit 1; done"
check "the shipped vehicles are installed beside the commands" test -f "$P/share/tagk/crazyflie2.veh"
check "... and the robot descriptions" test -f "$P/share/tagk/panda.urdf" -a -f "$P/share/tagk/panda_nohand.xml" -a -f "$P/share/tagk/panda.model"
expect "an installed tagk-bench grasp finds its default robot from any directory" 0 "^t,q1," "" -- \
	sh -c "cd / && '$P/bin/tagk-bench' grasp --duration 0.2 2>/dev/null | head -2"

expect "an installed command finds a shipped vehicle by its bare name" 0 "*" "rejected 0 of 1 estimates" -- \
	sh -c "printf 'm,mcx,mcy,mcz,Ixx,Ixy,Iyy,Ixz,Iyz,Izz\n1,0,0,0,1e-5,0,1e-5,0,0,2e-5\n' | '$P/bin/tagk-filter' --physical --vehicle crazyflie2 --time-col m"
check "tagk.pc names the prefix given" grep -q "^prefix=$P\$" "$P/lib/pkgconfig/tagk.pc"
if command -v g++ >/dev/null && command -v pkg-config >/dev/null; then
	export PKG_CONFIG_PATH="$P/lib/pkgconfig"
	expect "a C++ program compiles and links with pkg-config's flags" 0 "" "" -- \
		sh -c "g++ -std=c++11 -Wall -o '$tmp/app' tests/cxx_consumer.cpp \$(pkg-config --cflags --libs tagk)"
	expect "... and runs: RLS and TAG-K solve a consistent system" 0 "^tagk \(.* form\): max error" "" -- "$tmp/app"
	expect "the simulators' header (source tree) compiles in C++ too" 0 "" "" -- \
		sh -c "printf '#include \"bench/sim/tagk_sim.h\"\nint main() { tagk_quad_config c; (void)c; return 0; }\n' | g++ -std=c++11 -x c++ -fsyntax-only -I. -"
else
	echo "skip the C++ consumer: g++ or pkg-config is not installed"
fi
make --no-print-directory tagk.pc >/dev/null
check "tagk.pc follows the default prefix again after the install" grep -q "^prefix=/usr/local\$" tagk.pc
finish
