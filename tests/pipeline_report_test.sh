#!/bin/sh
# pipeline_report_test.sh: tagk-report: plots, block errors and the log-det divergence
# against NumPy, summaries without truth, RMSPE, truth files.
# One theme of the pipeline battery (tests/pipeline_*_test.sh): the real
# binaries composed as a user would, over tests/lib.sh's pipeline_setup.
set -u
BIN=${BIN:-bin}
MKFIX=${MKFIX:-build/mkfixtures}
. "$(dirname "$0")/lib.sh"
pipeline_setup

# plots: PNG, SVG and PDF of the requested size, several streams on one figure
$R "$tmp/syn.csv" | $E -a kf-low --every 1 > "$tmp/p_kf.csv"
$R "$tmp/syn.csv" | $E -a tagk --every 1 > "$tmp/p_tagk.csv"
# the width and height a PNG's IHDR chunk declares (bytes 17-24, big-endian)
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", (($1 * 256 + $2) * 256 + $3) * 256 + $4, (($5 * 256 + $6) * 256 + $7) * 256 + $8 }'; }
expect "--plot: two methods on one PNG, and a report for each (tagk's estimates flagged)" 0 "^# .*p_tagk.csv: 396 estimates" \
	"p_tagk.csv: only [0-9]+ of 396 estimates \([0-9]+ %\) are physical bodies" -- \
	$P --plot "$tmp/fig.png" "$tmp/p_kf.csv" "$tmp/p_tagk.csv"
check "... the first one's too" grep -q "^# .*p_kf.csv: 396 estimates" "$tmp/out"
check "... a PNG (signature) of 960x540 ($(png_size "$tmp/fig.png"))" \
	sh -c "[ \"\$(od -An -tx1 -N8 '$tmp/fig.png' | tr -d ' ')\" = 89504e470d0a1a0a ] && [ '$(png_size "$tmp/fig.png")' = 960x540 ]"
expect "--plot-size and four panels" 0 "*" "" -- \
	$P --plot "$tmp/fig4.png" --plot-params m,mcx,Ixx,Izz --plot-size 800x1000 "$tmp/p_kf.csv"
check "... 800x1000 ($(png_size "$tmp/fig4.png"))" test "$(png_size "$tmp/fig4.png")" = 800x1000
expect "--plot-params all: ten panels in two columns, taller by default" 0 "*" "*" -- \
	$P --plot "$tmp/fig10.png" --plot-params all "$tmp/p_kf.csv"
check "... 960x940 ($(png_size "$tmp/fig10.png"))" test "$(png_size "$tmp/fig10.png")" = 960x940
grep -v '^#tagk-' "$tmp/p_kf.csv" | cut -d, -f1,2,12 > "$tmp/p_m.csv"
printf 't,m\n0,0.035\n1,0.05\n2.5,0.035\n' > "$tmp/p_truth.csv"
expect "--plot with a --truth file: drawn, and the report scores against it" 0 "2 truth changes" "" -- \
	$P --plot "$tmp/figt.svg" --truth "$tmp/p_truth.csv" "$tmp/p_m.csv"
check "... the SVG holds the truth's dashed line and a band (filled, translucent)" sh -c \
	"grep -q 'stroke-dasharray' '$tmp/figt.svg' && grep -q 'fill-opacity' '$tmp/figt.svg'"
expect "--plot with one stream: the report is printed too" 0 "rmspe_%" "" -- sh -c "$P --plot '$tmp/fig.svg' < '$tmp/p_kf.csv'"
check "... and stdin, read twice, says stdin" grep -q "^# stdin: " "$tmp/out"
if /usr/bin/python3 -c 'import xml' 2>/dev/null; then
	check "... an SVG that parses as XML, 960 by 540" /usr/bin/python3 -c "
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
sys.exit(not (r.tag.endswith('svg') and r.get('width').startswith('960') and r.get('height').startswith('540')))" "$tmp/fig.svg"
fi
expect "--plot to PDF" 0 "*" "" -- $P --plot "$tmp/fig.pdf" "$tmp/p_kf.csv"
check "... a PDF with a 960 x 540 page" sh -c "head -c 5 '$tmp/fig.pdf' | grep -q '%PDF-' && grep -aq 'MediaBox \[ *0 0 960 540 *\]' '$tmp/fig.pdf'"
expect "--plot: an unknown extension" 2 "" "--plot: '.*fig.gif' does not end in .png, .svg or .pdf" -- $P --plot "$tmp/fig.gif" "$tmp/p_kf.csv"
expect "--plot-params: an unknown parameter" 2 "" "--plot-params: 'mass' is not a parameter" -- \
	$P --plot "$tmp/f.png" --plot-params mass "$tmp/p_kf.csv"
expect "several inputs without --plot: one report each" 0 "^# .*p_tagk.csv: 396 estimates" "p_tagk.csv: only" -- \
	$P "$tmp/p_kf.csv" "$tmp/p_tagk.csv"
expect "several inputs in CSV" 2 "" "several inputs make one report each in text or Markdown" -- \
	$P --format csv "$tmp/p_kf.csv" "$tmp/p_tagk.csv"
check "a failed plot leaves no file" test ! -e "$tmp/f.png"

# errors by block and the log-det divergence of pseudo-inertias, against NumPy
$R datasets/sim-figure8-noisy.csv | $E -q --raw -a kf-low > "$tmp/blk.csv"
$P --format csv "$tmp/blk.csv" > "$tmp/blk.rep"
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	check "tagk-report's block errors and log-det divergence equal NumPy's (1e-8)" /usr/bin/python3 - "$tmp" <<'PYEOF'
import sys, numpy as np
d = sys.argv[1]
rows = [l for l in open(d + "/blk.csv") if not l.startswith("#")]
E = np.genfromtxt(rows, delimiter=",", names=True)
names = ["m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz"]
est = np.column_stack([E[n] for n in names]); tru = np.column_stack([E["true_" + n] for n in names])
def inertia(t):
    return np.array([[t[4], t[5], t[7]], [t[5], t[6], t[8]], [t[7], t[8], t[9]]])
def pseudo(t):
    I = inertia(t); J = np.zeros((4, 4))
    J[:3, :3] = 0.5 * np.trace(I) * np.eye(3) - I; J[:3, 3] = J[3, :3] = t[1:4]; J[3, 3] = t[0]
    return J
def rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b) if np.linalg.norm(b) > 0 else np.linalg.norm(a - b)
blk = np.array([[rel(e[:1], t[:1]), rel(e[1:4], t[1:4]), rel(inertia(e), inertia(t))] for e, t in zip(est, tru)])
D = []
for e, t in zip(est, tru):
    Je, Jt = pseudo(e), pseudo(t)
    if np.min(np.linalg.eigvalsh(Je)) <= 0:
        D.append(np.nan); continue
    M = np.linalg.solve(Jt, Je)
    D.append(-np.linalg.slogdet(Je)[1] + np.linalg.slogdet(Jt)[1] + np.trace(M) - 4)
D = np.array(D)
rep = {}
for l in open(d + "/blk.rep"):
    f = l.rstrip("\n").split(",")
    if f[0] in ("block_error", "logdet_divergence"):
        rep[f[0] + ":" + f[1]] = f
worst = 0
for k, n in enumerate(["mass", "first_moment", "inertia"]):
    worst = max(worst, abs(float(rep["block_error:%s_mean" % n][5]) - blk[:, k].mean()) / blk[:, k].mean())
    worst = max(worst, abs(float(rep["block_error:%s_final" % n][5]) - blk[-1, k]) / blk[-1, k])
ok = ~np.isnan(D)
worst = max(worst, abs(float(rep["logdet_divergence:mean"][5]) - D[ok].mean()) / D[ok].mean())
same_count = int(rep["logdet_divergence:not_physical"][3]) == int((~ok).sum())
print("block errors against NumPy: worst relative difference %.2g; %d of %d not physical"
      % (worst, (~ok).sum(), len(D)), file=sys.stderr)
sys.exit(0 if worst < 1e-8 and same_count and 0 < ok.sum() < len(D) else 1)
PYEOF
fi

# without truth: a summary, checked against NumPy's quantiles (or sort and awk)
$R "$tmp/syn.csv" | $E -a kf-low --every 1 | grep -v '^#tagk-' | cut -d, -f1-11 > "$tmp/notruth.csv"
expect "estimate without truth: a summary" 0 "^# .*notruth.csv: [0-9]+ estimates, .*no truth: a summary" "" -- $P "$tmp/notruth.csv"
$P --format csv "$tmp/notruth.csv" > "$tmp/summary.csv"
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	/usr/bin/python3 - "$tmp/notruth.csv" > "$tmp/summary.np" <<'PYEOF'
import sys, numpy as np
d = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
for p in d.dtype.names[1:]:
    x = d[p]
    q1, med, q3 = np.percentile(x, [25, 50, 75])
    print(p, len(x), repr(med), repr(q1), repr(q3), repr(x[0]), repr(x[-1]))
PYEOF
	check "summary: n, median, quartiles, first and last equal NumPy's (to 1e-9)" awk '
		NR == FNR { n[$1] = $2; for (i = 3; i <= 7; i++) v[$1, i] = $i; next }
		FNR > 1 { split($0, f, ","); seen++
			if (f[3] != n[f[1]]) bad = 1
			k[3] = 4; k[4] = 5; k[5] = 6; k[6] = 8; k[7] = 9
			for (i = 3; i <= 7; i++) { a = v[f[1], i]; b = f[k[i]]; d = a - b; if (d < 0) d = -d
				s = a < 0 ? -a : a; if (d > 1e-9 * s + 1e-300) bad = 1 } }
		END { exit bad || seen != 10 }' FS=' ' "$tmp/summary.np" FS=',' "$tmp/summary.csv"
else
	med=$(tail -n +2 "$tmp/notruth.csv" | cut -d, -f2 | sort -g | awk '{ a[NR] = $1 } END { h = (NR - 1) / 2; l = int(h); print a[l + 1] + (h - l) * (a[l + 2] - a[l + 1]) }')
	check "summary: the median of m equals sort and awk's ($med)" \
		awk -v m="$med" -F, '$1 == "m" { d = $4 - m; if (d < 0) d = -d; exit !(d <= 1e-9 * m) }' "$tmp/summary.csv"
fi
expect "summary: JSON" 0 '"iqr": ' "" -- $P --format json "$tmp/notruth.csv"
expect "summary: Markdown" 0 '^\| m \| [0-9]+ \|' "" -- $P --format md "$tmp/notruth.csv"
awk -F, 'NR == 1 || NR < 20 || NR > 40' "$tmp/notruth.csv" > "$tmp/gappy.csv"
expect "summary: a gap in the estimates is counted" 0 "1 gap longer than 1.5 times" "" -- $P "$tmp/gappy.csv"
expect "some truth columns but not all" 1 "" "some true_\* columns but not all" -- \
	sh -c "$R '$tmp/syn.csv' | $E --stream csv | grep -v '^#tagk-' | cut -d, -f1-23 | $P"

# --- composition and the commands' own jobs -------------------------------
expect "the whole pipeline" 0 "relative parameter error" "rejected [0-9]+ of [0-9]+ estimates" -- \
	sh -c "$S synth | $R | $E -a tagk | $F --physical | $P"
# truth x 1.1 as the estimate: RMSPE is 10 % for every parameter
awk -F, -v OFS=, 'NR == 1 { for (i = 17; i <= NF; i++) { n = $i; sub(/^true_/, "", n); $i = n "," $i }
	print "t," substr($0, index($0, $17)); next }
	{ s = $1; for (i = 17; i <= 26; i++) s = s "," ($i * 1.1) "," $i; print s }' "$tmp/syn.csv" > "$tmp/est11.csv"
expect "report: RMSPE of a 10 % error is 10" 0 "^m +400 .* 10 +n/a$" "" -- $P "$tmp/est11.csv"
expect "report: relative error 0.1 throughout" 0 "mean 0.1, final 0.1" "" -- $P "$tmp/est11.csv"
expect "report: JSON" 0 '"rmspe_pct": 10' "" -- $P --format json "$tmp/est11.csv"
expect "report: CSV" 0 "^parameter,Izz,,400," "" -- $P --format csv "$tmp/est11.csv"
expect "report: Markdown" 0 '^\| m \| 400 \|' "" -- $P --format md "$tmp/est11.csv"
$S synth --seed 3 | grep -v '^#tagk-' > "$tmp/syn20.csv"
expect "report: events found at the payload times" 0 "^ +[45]\.[0-9]+ +[0-9.e-]+ +[0-9.e-]+$" "" -- \
	sh -c "$R '$tmp/syn20.csv' | $E -q -a kf-low | $P"
plain "$tmp/syn.csv" | cut -d, -f1,17-26 > "$tmp/truth.csv"
$R "$tmp/syn.csv" | $E -a kf-low > "$tmp/ekf.csv"
plain "$tmp/ekf.csv" | cut -d, -f1-22 > "$tmp/ekf_notruth.csv"
$P "$tmp/ekf.csv" > "$tmp/rep_own.txt"; $P --truth "$tmp/truth.csv" "$tmp/ekf_notruth.csv" > "$tmp/rep_join.txt"
tail -n +2 "$tmp/rep_own.txt" > "$tmp/rep_own.body"; tail -n +2 "$tmp/rep_join.txt" > "$tmp/rep_join.body"
check "report --truth joined by time equals the carried truth" cmp -s "$tmp/rep_own.body" "$tmp/rep_join.body"
# a truth file is a step function from its first row: every estimate at or
# after it is scored (scores computed by hand: estimates m = t at t = 0..9)
{ echo t,m; for i in 0 1 2 3 4 5 6 7 8 9; do echo $i,$i; done; } > "$tmp/ramp.csv"
truth_case() { # NAME TRUTH-ROWS N MAE RMSE [--truth-interp]
	printf "t,m\n$2" > "$tmp/tr.csv"
	$P "$tmp/ramp.csv" --truth "$tmp/tr.csv" ${6:-} --format csv > "$tmp/trs.csv" 2> "$tmp/trs.err"
	check "truth $1: n $3, MAE $4, RMSE $5 (by hand)" awk -F, -v n=$3 -v mae=$4 -v rmse=$5 \
		'$1 == "parameter" && $2 == "m" { ok = $4 == n && (($6 - mae)^2 < 1e-18) && (($5 - rmse)^2 < 1e-16) } END { exit !ok }' \
		"$tmp/trs.csv"
}
truth_case "of one row" '0,1\n' 10 3.7 4.527692569
truth_case "of two rows, the first at t = 2" '2,1\n5,2\n' 8 3.875 4.315669125
check "... the two estimates before it said on stderr" grep -q "2 estimates before the first truth row were not scored" "$tmp/trs.err"
truth_case "of three rows, one between samples" '0,1\n3.5,2\n7,3\n' 10 2.8 3.346640106
truth_case "of irregular rows, the last after the estimates" '0.5,5\n0.7,4\n9.33,100\n' 9 2.333333333 2.768874621
truth_case "of two rows, joined by a line" '2,1\n5,2\n' 8 3.75 4.245913068 --truth-interp

finish
