#!/bin/sh
# m7_test.sh: the Cortex-M7 images. Checks the Teensy 4.1 image's boot
# header byte by byte (decoded here from the documented layout, not from
# bench/teensy/boot.c), then runs the benchmark core under QEMU's
# mps2-an500 and requires its estimates to equal the host's bit for bit:
# the inputs come from integer arithmetic, every operation is IEEE-754 in
# the same order on both (ISO C mode does not fuse multiply-adds), and sqrt
# is correctly rounded on both, so no tolerance is needed.
set -u
. "$(dirname "$0")/lib.sh"
OBJCOPY=${OBJCOPY:-arm-none-eabi-objcopy}
NM=${NM:-arm-none-eabi-nm}

word() { # FILE OFFSET: the little-endian 32-bit word there, as 0x%08x
	od -A n -t x4 -j "$2" -N 4 "$1" | tr -d ' \n' | sed 's/^/0x/'
}

for v in double float; do
	elf=build/teensy-$v/tagk-bench.elf hex=build/teensy-$v/tagk-bench.hex
	bin="$tmp/teensy-$v.bin"
	$OBJCOPY -O binary "$elf" "$bin"
	size=$(wc -c < "$bin" | tr -d ' ')
	check "teensy ($v): FlexSPI configuration block tag 'FCFB' at 0x60000000" \
		[ "$(word "$bin" 0)" = 0x42464346 ]
	check "teensy ($v): FlexSPI block version 1.4.0" [ "$(word "$bin" 4)" = 0x56010400 ]
	check "teensy ($v): serial NOR, 4 pads, 60 MHz" [ "$(od -A n -t x1 -j 68 -N 3 "$bin" | tr -d ' ')" = 010403 ]
	check "teensy ($v): 8 MiB flash" [ "$(word "$bin" 80)" = 0x00800000 ]
	# LUT sequence 0: CMD 0xEB on 1 pad, 24 address bits on 4 pads; 6 dummy cycles, read on 4 pads
	check "teensy ($v): read sequence is quad I/O fast read 0xEB" \
		[ "$(word "$bin" 128)" = 0x0a1804eb ] && [ "$(word "$bin" 132)" = 0x26043206 ]
	check "teensy ($v): IVT header at 0x60001000 (tag D1, length 32, version 41)" \
		[ "$(word "$bin" 4096)" = 0x412000d1 ]
	entry=$(word "$bin" 4100)
	reset=$($NM "$elf" | awk '$3 == "Reset_Handler" { print "0x" $1 }')
	check "teensy ($v): IVT entry is Reset_Handler, a Thumb address inside the image" \
		sh -c "[ \$(( $entry )) -eq \$(( $reset | 1 )) ] && [ \$(( $entry )) -gt \$(( 0x60002000 )) ] &&
		[ \$(( $entry )) -lt \$(( 0x60000000 + $size )) ]"
	check "teensy ($v): IVT points to the boot data and to itself" \
		[ "$(word "$bin" 4112)" = 0x60001020 ] && [ "$(word "$bin" 4116)" = 0x60001000 ]
	check "teensy ($v): boot data: image at 0x60000000, its whole length" \
		[ "$(word "$bin" 4128)" = 0x60000000 ] && [ "$(( $(word "$bin" 4132) ))" -eq "$size" ]
	check "teensy ($v): Intel hex starts at 0x60000000" \
		sh -c "head -1 '$hex' | grep -q '^:020000046000'"
done

if ! command -v qemu-system-arm >/dev/null 2>&1; then
	echo "m7: QEMU comparison skipped: qemu-system-arm not installed"
	finish
	exit $?
fi
for v in double float; do
	timeout 600 qemu-system-arm -M mps2-an500 -cpu cortex-m7 -nographic -monitor none -serial none \
		-semihosting-config enable=on,target=native -icount shift=0 \
		-kernel build/qemu-$v/tagk-bench-small.elf > "$tmp/qemu-$v.out" 2>&1
	check "qemu ($v): the benchmark ran to the end" grep -q '^# done$' "$tmp/qemu-$v.out"
	build/hostdev-$v 41,42,60 3 > "$tmp/host-$v.out"
	grep '^row' "$tmp/qemu-$v.out" | cut -d, -f3-7,10-12 > "$tmp/q.csv"
	grep '^row' "$tmp/host-$v.out" | cut -d, -f3-7,10-12 > "$tmp/h.csv"
	# 8 methods at 3 sizes (n = 41, 42: the tails of the M7's loops in assembly); float leaves out the KF information form
	rows=24; [ $v = float ] && rows=21
	check "qemu ($v): $rows rows of estimates" [ "$(wc -l < "$tmp/q.csv")" -eq $rows ]
	check "qemu ($v): estimates equal the host's bit for bit" cmp -s "$tmp/q.csv" "$tmp/h.csv"
done
finish
