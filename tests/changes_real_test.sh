#!/bin/sh
# changes_real_test.sh: --segment auto on logs whose changes are known
# without the code's say: the bundled MuJoCo Panda runs (each alone of
# constant payload, 0 and 1.5 kg by construction, tests/arm_mujoco.c), the
# two joined one after the other with a one-second gap in time (one change,
# in the gap, 0 then 1.5 kg), and the real Crazyflie flights of constant
# mass (skipped when ../shared is absent). Also the stderr line's noise sd
# of a row index without residual.
set -u
BIN=${BIN:-bin}
D=${REALDATA:-../shared/realdata/crazyflie}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate

# a row index that is always zero: its noise said as 0, not sqrt(1e-300)
awk 'BEGIN { print "t,row,Y_m,b"; srand(3); for (s = 0; s < 2000; s++) { t = s / 100; m = s < 1000 ? 1 : 0.8
	y = 9.8 + rand() - 0.5; printf "%g,0,%.9g,%.9g\n%g,1,0,0\n", t, y, m * y + 0.05 * (rand() - 0.5), t } }' > "$tmp/zero.reg"
expect "a zero row index: its noise sd said as 0" 0 "*" "; noise sd [0-9.e-]+,0; 1 sample per block$" -- \
	$E --batch -a wls --segment auto "$tmp/zero.reg"
check "... and no 1e-150 anywhere" sh -c "! grep -q 'e-150' '$tmp/err'"

# the Panda: friction fitted on the empty run, then the payload held in link7
M="--map t=time --map q=pos_{1..7} --map qd=vel_* --map tau=eff_{1..7}"
$R -m multibody --robot datasets/panda.urdf $M --fit-friction viscous,coulomb,offset \
	datasets/panda-empty.csv.gz -o "$tmp/fr.txt" 2>/dev/null
arm() { $R -m multibody --robot datasets/panda.urdf $M --held link7 --friction "$tmp/fr.txt" "$@"; }
# rows after the header and before the end marker
rows() { plain "$1" | sed 1d | wc -l; }
for f in empty payload; do
	arm datasets/panda-$f.csv.gz 2>/dev/null > "$tmp/$f.reg"
	$E -q --batch -a ols --segment auto "$tmp/$f.reg" > "$tmp/$f.est"
	check "panda-$f alone: no change (one segment)" test "$(rows "$tmp/$f.est")" -eq 1
done

# joined: the loaded run's times moved 11 s on (the empty one ends at 10 s),
# its truth columns cut (a user's two runs have none)
zcat datasets/panda-empty.csv.gz > "$tmp/joined.csv"
zcat datasets/panda-payload.csv.gz | cut -d, -f1-22 | awk -F, -v OFS=, 'NR > 1 { $1 = $1 + 11; print }' >> "$tmp/joined.csv"
arm "$tmp/joined.csv" 2>"$tmp/arm.err" > "$tmp/joined.reg"
# no derivative across the gap: the joined rows are the two runs' rows, the
# second's times moved by 11 s, and none lies in the gap
# (the loaded run's truth columns, cut from the joined log, cut here too)
nc=$(plain "$tmp/joined.reg" | head -1 | awk -F, '{ print NF }')
plain "$tmp/empty.reg" | sed 1d | awk -F, -v OFS=, '{ $1 = $1 + 0; print }' > "$tmp/two.rows"
plain "$tmp/payload.reg" | sed 1d | cut -d, -f1-"$nc" | awk -F, -v OFS=, '{ $1 = $1 + 11; print }' >> "$tmp/two.rows"
plain "$tmp/joined.reg" | sed 1d | awk -F, -v OFS=, '{ $1 = $1 + 0; print }' > "$tmp/joined.rows"
check "joined: the regressor rows are the two runs' own (no fit across the gap)" \
	test -s "$tmp/joined.rows" -a "$(wc -l < "$tmp/joined.rows")" -gt 17000
# (to 1e-9: the filter's weights come from times 11 s further on)
check "... ... row for row, to 1e-9" awk -F, 'NR == FNR { a[FNR] = $0; next } { split(a[FNR], x, ",")
	for (k = 1; k <= NF; k++) { d = $k - x[k]; s = ($k < 0 ? -$k : $k) + 1e-6; if (d < 0) d = -d; if (d > 1e-9 * s) bad = 1 } }
	END { exit bad || FNR != NR / 2 }' "$tmp/two.rows" "$tmp/joined.rows"
check "... tagk-regress says the gap" grep -q "at its gaps not written" "$tmp/arm.err"
$E --batch -a ols --segment auto "$tmp/joined.reg" > "$tmp/joined.est" 2>"$tmp/est.err"
check "... one change found" grep -q -- "--segment auto: 1 change;" "$tmp/est.err"
# columns: t, m .. Izz (2-11), sd_m .. sd_Izz (12-21), physical, t_start, t_end, lo, hi, dm_dt, sd
check "... in the gap: the second segment and its interval start at the first row after 10 s" \
	awk -F, '/^#/ { next } !h { h = 1; next } { n++ } n == 2 { ok = $23 > 10 && $23 <= 11.05 && $25 > 10 && $26 <= 11.05 && $24 < 21 }
	n == 1 { first = $24 <= 10 } END { exit !(n == 2 && ok && first) }' "$tmp/joined.est"
check "... 0 kg before, 1.5 kg after: within 3 sd and 0.2 %" \
	awk -F, '/^#/ { next } !h { h = 1; next } { n++; t = n == 1 ? 0 : 1.5; d = $2 - t; if (d < 0) d = -d
	if (!(d <= 3 * $12 && d <= 0.003)) bad = 1 } END { exit bad || n != 2 }' "$tmp/joined.est"

# real constant-mass flights, airborne part, the vehicle file's thrust map
if [ -f "$D/log182" ] && [ -f "$D/log201" ]; then
	for log in 182 201; do
		$R --vehicle crazyflie2 --airborne "$D/log$log" 2>/dev/null | $E -q --batch -a wls --segment auto > "$tmp/cf$log.est"
		check "crazyflie log$log --vehicle crazyflie2 --airborne: no change" test "$(rows "$tmp/cf$log.est")" -eq 1
	done
else
	echo "skip crazyflie logs: none in $D"
fi
finish
