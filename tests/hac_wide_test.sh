#!/bin/sh
# hac_wide_test.sh: a whole-arm stream's intervals when the residuals are
# correlated in time (issue 53, item 1): tagk-estimate --batch -a ols|wls
# on Y_* columns of many bodies gives each parameter the Newey-West sd over
# blocks of consecutive samples (Andrews' bandwidth, fixed-b widening), not
# the per-joint sandwich white in time.
#
# - NumPy (tests/hac_wide_oracle.py) recomputes the sd from the rows
#   themselves (each block's score from its rows, the block rule, the
#   bandwidth, the kernel, the widening, the sandwich) on the bundled
#   Panda's 64 base parameters and on a synthetic stream long enough for
#   the blocks to be merged: to round-off.
# - Coverage against a known truth: a synthetic stream (tests/
#   hac_wide_oracle.py make: two joints, four parameters, AR(1)
#   regressors) with AR(1) 0.95 noise, 100 seeds: the 95 % intervals hold
#   the generator's truth in 86 to 99 % of 400 (the white sandwich: 26 %);
#   with white noise, 88 to 99 % (no needless widening).
# - A long log: the blocks stay within the cap (merged pairwise).
# - tagk-report's whole-arm table says so (its note, JSON sd_noise).
# - The -pc whole-arm methods print no sd, and no sd_noise note.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
E=$BIN/tagk-estimate
PY=/usr/bin/python3
O=tests/hac_wide_oracle.py
have_numpy=0
$PY -c "import numpy" 2>/dev/null && have_numpy=1

B="$BIN/tagk-regress -m multibody --robot panda_nohand --map t=time --map q=pos_{1..7} --map qd=vel_* --map tau=eff_{1..7}"
$B --unknown all --base --friction-terms viscous,coulomb,offset --stream csv datasets/panda-empty.csv.gz \
	> "$tmp/pe.reg" 2>/dev/null
for m in ols wls; do
	expect "the bundled Panda's base parameters, -a $m: Newey-West over 312 blocks of 8 samples" 0 "*" \
		"$m: sd by Newey-West over 312 blocks of 8 samples \(the last 1\): bandwidth [0-9]+ blocks, widened 1\.[0-9]+x" -- \
		$E -a $m --batch --stream csv "$tmp/pe.reg"
	cp "$tmp/out" "$tmp/pe.$m"
	check "... the note sd_noise newey-west" grep -q '^#tagk-note: sd_noise newey-west$' "$tmp/pe.$m"
	expect "... tagk-report's table says what the interval is" 0 \
		"^# the interval is the last estimate \+- 1\.96 sd \(Newey-West: correlated residuals count\)$" "" -- \
		$BIN/tagk-report "$tmp/pe.$m"
	expect "... and its JSON sd_noise" 0 '"sd_noise": "newey-west", "params"' "" -- \
		$BIN/tagk-report --format json "$tmp/pe.$m"
	if [ $have_numpy = 1 ]; then
		set -- $($PY $O check $m "$tmp/pe.reg" "$tmp/pe.$m" 2>/dev/null) - - - - - - - - - - - - -
		check "... NumPy from the rows: theta within $2 sd, sd within $5 relative (<= 1e-8), bandwidth $8" \
			awk -v a="$2" -v b="$5" 'BEGIN { exit !(a ~ /^[0-9]/ && b ~ /^[0-9]/ && a + 0 <= 1e-6 && b + 0 <= 1e-8) }'
	fi
done

if [ $have_numpy = 1 ]; then
	# 2000 samples: blocks merged twice, 500 of 4 samples
	$PY $O make 1 2000 0.95 > "$tmp/s.csv"
	for m in ols wls; do
		$E -a $m --batch --stream csv "$tmp/s.csv" > "$tmp/s.$m" 2> "$tmp/s.err"
		check "synthetic, -a $m: 500 blocks of 4 samples" grep -q "sd by Newey-West over 500 blocks of 4 samples" "$tmp/s.err"
		set -- $($PY $O check $m "$tmp/s.csv" "$tmp/s.$m" 2>/dev/null) - - - - - - - - - - - - -
		check "... NumPy: theta within $2 sd, sd within $5 relative (<= 1e-10), bandwidth $8, ${10} blocks of ${12}" \
			awk -v a="$2" -v b="$5" -v t="${10}" 'BEGIN { exit !(a ~ /^[0-9]/ && a + 0 <= 1e-8 && b ~ /^[0-9]/ && b + 0 <= 1e-10 && t == 500) }'
	done
	# coverage: the generator's truth inside 1.96 sd
	cover() { # SEEDS RHO: "ols K N wls K N"
		for s in $(seq 1 "$1"); do
			$PY $O make "$s" 2000 "$2" > "$tmp/c.csv"
			for m in ols wls; do
				$E -a $m --batch --stream csv "$tmp/c.csv" 2>/dev/null | grep -v '^#' | awk -F, -v m=$m '
					NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
					{ for (k in c) if (("sd_" k) in c) { e = $c[k] - $c["true_" k]; e = e < 0 ? -e : e; print m, e <= 1.96 * $c["sd_" k] } }'
			done
		done | awk '{ n[$1]++; k[$1] += $2 } END { printf "%d %d %d %d\n", k["ols"] + 0, n["ols"] + 0, k["wls"] + 0, n["wls"] + 0 }'
	}
	set -- $(cover 100 0.95)
	check "AR(1) 0.95 noise, 100 streams: ols's 95 % intervals hold the truth $1 of $2, wls's $3 of $4 (86 to 99 %)" \
		awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN { exit !(b == 400 && d == 400 && a >= 0.86 * b && a <= 0.99 * b && c >= 0.86 * d && c <= 0.99 * d) }'
	set -- $(cover 50 0)
	check "white noise, 50 streams: ols $1 of $2, wls $3 of $4 (88 to 99 %)" \
		awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN { exit !(b == 200 && d == 200 && a >= 0.88 * b && a <= 0.99 * b && c >= 0.88 * d && c <= 0.99 * d) }'
else
	echo "skip the NumPy oracle and the coverage of the whole-arm Newey-West sd: /usr/bin/python3 has no numpy"
fi

# a long log: 300000 samples end in 293 blocks of 1024 (the cap 512: merged pairwise)
awk 'BEGIN { print "t,row,Y_a,Y_b,b"; for (s = 0; s < 300000; s++) { t = s * 0.001
	printf "%.3f,0,1,%.6f,%.6f\n%.3f,1,%.6f,1,%.6f\n", t, sin(t), 1 + 2 * sin(t) + 0.01 * sin(7 * s), t, cos(t), cos(t) + 2 + 0.01 * cos(5 * s) } }' \
	> "$tmp/long.csv"
expect "300000 samples: 293 blocks of 1024 samples, the last 992" 0 "*" \
	"ols: sd by Newey-West over 293 blocks of 1024 samples \(the last 992\)" -- $E -a ols --batch --stream csv "$tmp/long.csv"

# the -pc methods: no sd, so no note
$B --unknown all --friction-terms viscous --stream csv datasets/panda-empty.csv.gz > "$tmp/std.reg" 2>/dev/null
expect "-a wls-pc on the whole arm's standard parameters: no sd said" 0 "*" "no sd \(the standard parameters" -- \
	$E -a wls-pc --batch --robot datasets/panda_nohand.xml --stream csv "$tmp/std.reg"
check "... no sd_ column and no sd_noise note" sh -c "! grep -q 'sd_' '$tmp/out'"
finish
