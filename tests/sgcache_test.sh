#!/bin/sh
# sgcache_test.sh: tagk-regress -m multibody keeps its Savitzky-Golay
# weights while the log's spacing stays the same (cmd/regress/sgderive.c,
# check_offsets) and computes them again when it changes. The oracle is a
# cubic: a filter of degree 3 reproduces it exactly at any spacing, so the
# rows from derived qdd (or qd and qdd) equal, row for row at the same t,
# the rows from the exact ones. Weights kept across a change of spacing
# (10 ms, then 7 ms, then 10 ms with 2 ms of jitter) would give other
# accelerations on the later samples.
. tests/lib.sh
BIN=${BIN:-bin}
R="$BIN/tagk-regress -m multibody --robot datasets/panda.model --held link7 --no-fit-check"
awk 'BEGIN { h = "t"; for (k = 1; k <= 4; k++) for (j = 1; j <= 7; j++) h = h "," (k == 1 ? "q" : k == 2 ? "qd" : k == 3 ? "qdd" : "tau") j
	print h
	for (i = 0; i <= 900; i++) {
		t = i <= 300 ? 0.01 * i : i <= 600 ? 3 + 0.007 * (i - 300) : 5.1 + 0.01 * (i - 600) + 0.002 * sin(1.3 * i)
		r = sprintf("%.17g", t)
		for (j = 1; j <= 7; j++) { a = 0.1 * j / 7; b = 0.2 - 0.02 * j; c = -0.1 + 0.01 * j; d = 0.02 - 0.004 * j
			q[j] = a + b * t + c * t * t + d * t * t * t; qd[j] = b + 2 * c * t + 3 * d * t * t; qdd[j] = 2 * c + 6 * d * t }
		for (j = 1; j <= 7; j++) r = r "," sprintf("%.17g", q[j])
		for (j = 1; j <= 7; j++) r = r "," sprintf("%.17g", qd[j])
		for (j = 1; j <= 7; j++) r = r "," sprintf("%.17g", qdd[j])
		for (j = 1; j <= 7; j++) r = r "," sprintf("%.17g", sin(t + j))
		print r } }' > "$tmp/poly.csv"
# the rows of $2 against those of $1 with the same t and row: the largest
# difference relative to each column's largest value, and the rows compared
# after t = 3 (the second spacing on); 1 if a row is missing
same_t_rows() {
	awk -F, '/^#/ || $1 == "t" { next }
	NR == FNR { k = $1 "," $2; for (i = 3; i <= NF; i++) { v[k, i] = $i; a = $i < 0 ? -$i : $i; if (a > s[i]) s[i] = a }; next }
	{ k = $1 "," $2; n++; if ($1 > 3) late++; if (!((k, 3) in v)) { print "missing " k; exit 1 }
	  for (i = 3; i <= NF; i++) { d = $i - v[k, i]; d = d < 0 ? -d : d; if (s[i] > 0 && d / s[i] > w) w = d / s[i] } }
	END { if (n < 6000 || late < 4000) exit 1; printf "%.3g\n", w }' "$1" "$2"
}
cut -d, -f1-15,23- "$tmp/poly.csv" > "$tmp/polyqd.csv"
cut -d, -f1-8,23- "$tmp/poly.csv" > "$tmp/polyq.csv"
$R "$tmp/poly.csv" > "$tmp/poly.reg" 2>/dev/null
w1=$($R "$tmp/polyqd.csv" 2>/dev/null | same_t_rows "$tmp/poly.reg" -)
w2=$($R "$tmp/polyq.csv" 2>/dev/null | same_t_rows "$tmp/poly.reg" -)
check "spacing 10 ms, 7 ms, then uneven: qdd derived from qd gives the exact rows (worst relative difference $w1)" \
	awk -v w="$w1" 'BEGIN { exit !(w != "" && w < 1e-8) }'
check "... qd and qdd derived from q too ($w2)" awk -v w="$w2" 'BEGIN { exit !(w != "" && w < 1e-8) }'
finish
