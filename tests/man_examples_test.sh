#!/bin/sh
# man_examples_test.sh: the EXAMPLES of every manual page run as printed,
# block by block (.nf to .fi), in a scratch directory with the commands on
# PATH, datasets/ beside it and stand-ins for the reader's files: flight.csv,
# log.csv and clean.csv are the bundled noisy synthetic flight; imu.csv and
# wrench.csv the README's two topics; log201 the real Crazyflie log of
# ../shared/realdata (a block that needs it is skipped without it). A
# block after a line ".\" not run: WHY" is not run (its input exists only
# on the reader's machine).
. tests/lib.sh
BIN=${BIN:-bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
run=$tmp/run
mkdir -p "$run"
ln -s "$PWD/datasets" "$run/datasets"
for f in flight.csv log.csv clean.csv; do
	grep -v '^#' datasets/synth-payload-noisy.csv > "$run/$f"
done
"$BIN/tagk-bench" synth --rate 250 --seed 4 | grep -v '^#' | cut -d, -f1-10,17- > "$run/imu.csv"
"$BIN/tagk-bench" synth --rate 100 --seed 4 | grep -v '^#' | cut -d, -f1,11-16 > "$run/wrench.csv"
real=../shared/realdata/crazyflie
[ -f "$real/log201" ] && ln -s "$PWD/$real/log201" "$run/log201"
nrun=0 nskip=0
for page in man/*.1 man/*.5 man/*.7; do
	awk -v dir="$tmp" -v page="$(basename "$page")" '
		/^\.SH / { ex = ($2 == "EXAMPLES") }
		ex && /^\.\\" not run:/ { skip = 1; next }
		ex && /^\.nf/ { n++; on = 1; f = dir "/" page "." n (skip ? ".skip" : ".sh"); skip = 0; printf "" > f; next }
		on && /^\.fi/ { on = 0; close(f); next }
		on && /^\.br/ { next }
		on { gsub(/\\-/, "-"); gsub(/\\e/, "\\"); print >> f }
	' "$page"
done
for b in "$tmp"/*.sh; do
	[ -f "$b" ] || continue
	n=$(basename "$b" .sh)
	if grep -q 'log201' "$b" && ! [ -e "$run/log201" ]; then
		echo "skip $n: it reads log201, and ../shared/realdata is absent"
		nskip=$((nskip + 1))
		continue
	fi
	nrun=$((nrun + 1))
	(cd "$run" && PATH="$BIN:$PATH" TAGK_DATADIR="$OLDPWD/datasets" sh -e "$b") > "$tmp/$n.out" 2>&1
	rc=$?
	check "$n ($(head -1 "$b" | cut -c1-60) ...) exits 0" test $rc -eq 0
	[ $rc -eq 0 ] || sed 's/^/     /' "$tmp/$n.out" | tail -4
done
check "manual examples: some blocks were run ($nrun run, $nskip skipped)" test "$nrun" -ge 5
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
