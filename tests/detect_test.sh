#!/bin/sh
# detect_test.sh: tagk-estimate --detect (online change detection on the
# recursive methods) and tagk-report's scoring of detections with truth.
#
# Independent references: a NumPy recomputation of the detector from its
# definition on the same windows and estimates (tests/detect_oracle.py:
# same alarm updates, on changes and on false alarms forced by a short
# --detect-arl); the truth columns of the bundled simulated flights (the
# drop flight 1.0 -> 0.7463 kg at 9.87 s; synth-payload's pick-up at 5.06 s
# and drop at 13.5 s); constant-mass runs (the bundled arm and Panda runs,
# the real Crazyflie logs) where nothing must be found; and a hand-made
# estimate stream whose hits, misses, false alarms, timing errors and
# delays are counted by hand.
set -u
BIN=${BIN:-bin}
D=${REALDATA:-../shared/realdata/crazyflie}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate P=$BIN/tagk-report
ORACLE="/usr/bin/python3 $(dirname "$0")/detect_oracle.py"

$R -m mass datasets/uav-square-drop.csv > "$tmp/drop.reg" 2>/dev/null
$R datasets/synth-payload.csv > "$tmp/sp.reg" 2>/dev/null
$R datasets/synth-payload-noisy.csv > "$tmp/spn.reg" 2>/dev/null

# the column of name $2 in stream $1, one value a line
column() {
	plain "$1" | awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }'
}
# the event_t of the event rows, one a line
events() {
	plain "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "event") e = i; if ($i == "event_t") f = i }
	next } $e == 1 { print $f }'
}
# 1 if every value on stdin is within $2 of the matching one of the list $1
near() {
	awk -v want="$1" -v tol="$2" 'BEGIN { n = split(want, w, " ") } { k++; d = $1 - w[k]; if (d < 0) d = -d
	if (d > tol) bad = 1 } END { exit bad || k != n }'
}

# --- the detector against the oracle ------------------------------------------
for c in "drop rls-low 3600" "spn kf-low 3600" "spn tagk 3600" "spn rls-low 1" "sp kf-high 3600"; do
	set -- $c
	$E -q --raw -a "$2" --detect-arl "$3" "$tmp/$1.reg" > "$tmp/o.est" 2>/dev/null
	check "oracle: $1 with $2, --detect-arl $3: the same alarms" $ORACLE "$tmp/$1.reg" "$tmp/o.est" "$3"
done

# --- the bundled changes are found ------------------------------------------------
for m in rls-low kf-low kf-high rls-high; do
	expect "drop flight, $m: one change at 9.87 s on stderr" 0 "*" \
		"^tagk-estimate: change at 9\.8[5-9][0-9] s \(detected 9\.[89][0-9]+ s, delay 0\.0[0-9]+ s\): $m re-opened$" -- \
		$E -q -a $m --detect "$tmp/drop.reg"
	events "$tmp/out" | near "9.87" 0.03
	check "... one event row, its event_t within 0.03 s of 9.87" test $? -eq 0
done
for f in sp spn; do
	for m in rls-low kf-low; do
		$E -q -a $m --detect "$tmp/$f.reg" > "$tmp/ev.est" 2>"$tmp/ev.err"
		events "$tmp/ev.est" | near "5.06 13.5" 0.06
		check "synth-payload ($f), $m: two events, at 5.06 and 13.5 s" test $? -eq 0
		check "... and two lines on stderr" test "$(grep -c '^tagk-estimate: change at' "$tmp/ev.err")" -eq 2
	done
done

# overlapping windows re-open until the alarm's samples have left them, and
# the detector lets the re-opened estimator settle: one event per change
for w in "--window 5 --every 1" "--window 2"; do
	for m in rls-low tagk; do
		$E -q -a $m --detect $w "$tmp/sp.reg" > "$tmp/ev.est" 2>/dev/null
		events "$tmp/ev.est" | near "5.06 13.5" 0.06
		check "synth-payload, $m $w: two events, at 5.06 and 13.5 s, no more" test $? -eq 0
	done
done

# --- re-opening: rls-low follows the drop as tagk does ------------------------------
last_m() { column "$1" m | tail -1; }
$E -q -a rls-low "$tmp/drop.reg" > "$tmp/plain.est"
$E -q -a rls-low --detect "$tmp/drop.reg" > "$tmp/det.est" 2>/dev/null
check "rls-low without --detect lags: final m more than 3 % above 0.74629" \
	awk -v m="$(last_m "$tmp/plain.est")" 'BEGIN { exit !(m > 0.74629 * 1.03) }'
check "rls-low --detect re-opens: final m within 0.1 % of 0.74629 ($(last_m "$tmp/det.est"))" \
	awk -v m="$(last_m "$tmp/det.est")" 'BEGIN { d = m / 0.74629 - 1; exit !(d < 0.001 && d > -0.001) }'
at_10_2() { plain "$1" | awk -F, 'NR > 1 && $1 >= 10.2 { print $2; exit }'; }
check "rls-low --detect: within 1 % of 0.74629 at 10.2 s, 0.33 s after the drop ($(at_10_2 "$tmp/det.est"))" \
	awk -v m="$(at_10_2 "$tmp/det.est")" 'BEGIN { d = m / 0.74629 - 1; exit !(m != "" && d < 0.01 && d > -0.01) }'
check "... without --detect, more than 20 % above it ($(at_10_2 "$tmp/plain.est"))" \
	awk -v m="$(at_10_2 "$tmp/plain.est")" 'BEGIN { exit !(m > 0.74629 * 1.2) }'
check "without --detect the stream has no event column" test -z "$(plain "$tmp/plain.est" | head -1 | grep event)"

# --- constant-mass runs: nothing found ------------------------------------------------
$R -m multibody --robot datasets/arm.model --held forearm datasets/shake-4500.csv > "$tmp/shake.reg" 2>/dev/null
for p in empty payload; do
	zcat datasets/panda-$p.csv.gz > "$tmp/panda.csv"
	$R -m multibody --held link7 --map t=time --map 'q=pos_{1..7}' --map 'qd=vel_*' --map 'tau=eff_{1..7}' \
		--robot datasets/panda.model "$tmp/panda.csv" > "$tmp/panda-$p.reg" 2>/dev/null
done
for log in shake panda-empty panda-payload; do
	for m in rls-low kf-low tagk; do
		expect "$log, $m --detect: no change" 0 "*" "" -- $E -q -a $m --detect "$tmp/$log.reg"
		check "... no event row" test -z "$(events "$tmp/out")"
	done
done
if [ -f "$D/log182" ] && [ -f "$D/log201" ]; then
	for log in 182 201; do
		$R --vehicle crazyflie2 --airborne "$D/log$log" > "$tmp/cf.reg" 2>/dev/null
		for m in rls-low kf-low tagk kf-high rls-high rk; do
			expect "crazyflie log$log --airborne, $m --detect: no change" 0 "*" "" -- \
				$E -q -a $m --detect "$tmp/cf.reg"
		done
	done
	# the oracle on a real log's coloured residuals, false alarms forced
	$E -q --raw -a kf-low --detect-arl 2 "$tmp/cf.reg" > "$tmp/o.est" 2>/dev/null
	check "oracle: crazyflie log201, kf-low, --detect-arl 2: the same (false) alarms" \
		$ORACLE "$tmp/cf.reg" "$tmp/o.est" 2
else
	echo "skip crazyflie logs: none in $D"
fi

expect "-v says the threshold: ln(3600 s / 0.05 s) = 11.184" 0 "*" \
	"^tagk-estimate: --detect: h = ln\(3600 s / 0.05 s per update\) = 11\.184" -- $E -v -q --detect "$tmp/drop.reg"

# --- usage ---------------------------------------------------------------------------
expect "--detect with a batch method: refused" 2 "" "^tagk-estimate: --detect applies to the recursive" -- \
	$E --batch -a wls --detect "$tmp/drop.reg"
expect "--detect-arl shorter than two updates: refused" 2 "" "^tagk-estimate: --detect-arl 0.01 s is not longer" -- \
	$E -a rls-low --detect-arl 0.01 "$tmp/drop.reg"
expect "--detect-arl not a number: refused" 2 "" "detect-arl" -- $E -a rls-low --detect-arl x "$tmp/drop.reg"

# --- tagk-report scores detection ------------------------------------------------------
expect "report: the drop flight's event is a hit" 0 \
	"change detection \(online, the column event\), within 0.5 s: 1 truth change, 1 hit, 0 misses, 0 false alarms" "*" -- \
	$P "$tmp/det.est"
plain datasets/uav-square-drop.csv | awk -F, 'NR == 1 { print "t,true_m"; next } { print $1 "," $19 }' > "$tmp/truth.csv"
expect "report --truth FILE: the change at 9.87 s exactly, delay 0.02 s" 0 \
	"^ +9\.87 +9\.865 +-0\.005 +0\.02$" "*" -- $P --truth "$tmp/truth.csv" "$tmp/det.est"
# a hand-made stream: truth changes at 1.05 (rows 1.0, 1.1) and 3.05; events
# reported at 1.2 (for 1.1) and 2.0 (for 1.9); none after 3.05
cat > "$tmp/hand.csv" <<'EOF'
t,m,true_m,event,event_t
0.9,1,1,0,
1.0,1,1,0,
1.1,1,2,0,
1.2,2,2,1,1.1
1.9,2,2,0,
2.0,2,2,1,1.9
3.0,2,2,0,
3.1,2,1,0,
3.2,1,1,0,
EOF
expect "report, hand-made: 2 truth changes, 1 hit, 1 miss, 1 false alarm" 0 \
	"within 0.5 s: 2 truth changes, 1 hit, 1 miss, 1 false alarm$" "*" -- $P "$tmp/hand.csv"
check "... the hit: truth 1.05 s, reported 1.1, timing error 0.05, delay 0.15" grep -Eq "^ +1\.05 +1\.1 +0\.05 +0\.15$" "$tmp/out"
check "... the miss at 3.05 s" grep -Eq "^ +3\.05 +missed" "$tmp/out"
check "... the false alarm at 1.9 s" grep -q "false alarm: change reported at 1.9 s" "$tmp/out"
expect "report --detect-tol 0.01: the hit becomes a miss and a false alarm" 0 \
	"2 truth changes, 0 hits, 2 misses, 2 false alarms" "*" -- $P --detect-tol 0.01 "$tmp/hand.csv"
expect "report --format json: the detection member" 0 '"detection": \{"source": "event"' "*" -- \
	$P --format json "$tmp/hand.csv"
check "... valid JSON with hits 1, misses 1, false alarms [1.9], delay 0.15" /usr/bin/python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))['detection']
c = d['changes'][0]
assert (d['hits'], d['misses'], d['false_alarms'], d['false_alarm_t']) == (1, 1, 1, [1.9]), d
assert abs(c['delay_s'] - 0.15) < 1e-12 and abs(c['timing_error_s'] - 0.05) < 1e-12, c
assert d['changes'][1]['reported_t'] is None" "$tmp/out"
# offline: the segments' starts, scored against a truth file only
$E -q --batch -a wls --segment auto "$tmp/drop.reg" > "$tmp/seg.est" 2>/dev/null
expect "report on --segment auto with --truth FILE: the change a hit, timing error under 0.01 s" 0 \
	"^ +9\.87 +9\.8[6-8][0-9]* +-?0(\.00[0-9]*)? +n/a$" "*" -- $P --truth "$tmp/truth.csv" "$tmp/seg.est"
expect "report on --segment auto with the stream's truth: not scored, says why" 0 \
	"change detection: not scored; a segment row carries the truth at its end" "*" -- $P "$tmp/seg.est"
finish
