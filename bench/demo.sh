#!/bin/sh
# demo.sh LOG: the README's first command. Runs every method of the TAG-K
# paper over one log through the pipeline, and prints one table:
#
#   tagk-regress LOG | tagk-estimate -a METHOD | tagk-report
#
# plus how many of each method's estimates the paper's safety gate (eq. 15,
# tagk-filter --physical) would reject.
set -eu
BIN=${BIN:-bin}
log=${1:-datasets/synth-payload-noisy.csv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$BIN/tagk-regress "$log" > "$tmp/rows.csv"
echo "tagk demo: $log"
echo "  tagk-regress $log | tagk-estimate -a METHOD | tagk-report"
echo "  (window 5 samples, an update every 20; relative error = ||theta^ - theta|| / ||theta||)"
echo
printf '%-9s %10s %9s %9s | %-22s | %-22s | %s\n' "" "mass" "mean" "final" "payload attached" "payload released" "eq. 15"
printf '%-9s %10s %9s %9s | %10s %11s | %10s %11s | %s\n' "method" "RMSPE_%" "rel_err" "rel_err" \
	"(t+1)_err" "within_5%" "(t+1)_err" "within_5%" "rejects"
for m in tagk grk tark rk rls-low rls-high kf-low kf-high; do
	$BIN/tagk-estimate -a "$m" "$tmp/rows.csv" > "$tmp/est.csv"
	$BIN/tagk-report --format csv "$tmp/est.csv" > "$tmp/rep.csv"
	rej=$($BIN/tagk-filter --physical "$tmp/est.csv" 2>&1 >/dev/null | sed -n \
	    -e 's/.*rejected \([0-9]*\) of \([0-9]*\) estimates.*/\1\/\2/p' \
	    -e 's/.*rejected all \([0-9]*\) estimates.*/\1\/\1/p' | head -1)
	awk -F, -v m="$m" -v rej="$rej" '
		$1 == "parameter" && $2 == "m" { rmspe = $8 }
		$1 == "relative_error" && $2 == "mean" { mean = $6 }
		$1 == "relative_error" && $2 == "final" { fin = $6 }
		$1 == "event" { n++; e1[n] = $9; rec[n] = $10 == "" ? "never" : sprintf("%.1f s", $10) }
		END {
			printf "%-9s %10.3g %9.3g %9.3g | %10.3g %11s | %10.3g %11s | %s\n", m, rmspe, mean, fin,
			    e1[1], rec[1], e1[2], rec[2], rej
		}' "$tmp/rep.csv"
done
