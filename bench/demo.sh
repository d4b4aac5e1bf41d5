#!/bin/sh
# demo.sh LOG [UAV]: the README's first command. Runs every method of the TAG-K
# paper over one log through the pipeline, and prints one table:
#
#   tagk-regress LOG | tagk-estimate -a METHOD | tagk-report
#
# plus how many of each method's estimates the paper's safety gate (eq. 15,
# tagk-filter --physical) would reject. With a second log UAV (a flight of
# tagk-bench massflight), a second table: paper 001's mass estimators and
# the regressor methods on its mass rows.
set -eu
BIN=${BIN:-bin}
log=${1:-datasets/synth-payload-noisy.csv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$BIN/tagk-regress "$log" > "$tmp/rows.csv"
echo "tagk demo: $log"
echo "  tagk-regress $log | tagk-estimate -a METHOD --every 20 | tagk-report"
echo "  (the TAG-K paper's protocol: window 5 samples, an update every 20; relative error = ||theta^ - theta|| / ||theta||)"
echo
printf '%-9s %10s %9s %9s | %-22s | %-22s | %s\n' "" "mass" "mean" "final" "payload attached" "payload released" "eq. 15"
printf '%-9s %10s %9s %9s | %10s %11s | %10s %11s | %s\n' "method" "RMSPE_%" "rel_err" "rel_err" \
	"(t+1)_err" "within_5%" "(t+1)_err" "within_5%" "rejects"
for m in tagk grk tark rk rls-low rls-high kf-low kf-high; do
	# --raw: the methods' own estimates, which the paper's gate judges
	$BIN/tagk-estimate -a "$m" --every 20 --raw "$tmp/rows.csv" > "$tmp/est.csv" 2> "$tmp/note-$m"
	$BIN/tagk-report --format csv "$tmp/est.csv" > "$tmp/rep.csv" 2> /dev/null
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
# tagk-estimate's notes on the data, once each (the Kaczmarz methods share one)
cat "$tmp"/note-* | sed -e 's/^tagk-estimate: [a-z-]*: its windows are ill-conditioned for its/note on the Kaczmarz methods: their windows are ill-conditioned for their/' \
	-e 's/ (-q silences this note)//' | grep -v -e '--every 20 and --window 5' | sort -u | fold -s -w 96 | sed -e 's/ *$//' -e 's/^/  /'

# Part two: paper 001's time-varying mass, on a UAV that releases a quarter
# of its mass half way through a square. The state-space methods read the log
# itself; the regressor methods read its mass rows (the thrust's z row).
uav=${2:-datasets/uav-square-drop.csv}
[ -f "$uav" ] || exit 0
echo
echo "tagk demo: $uav"
echo "  tagk-estimate -a METHOD $uav | tagk-report                                 (ekf msckf ukf swls)"
echo "  tagk-regress -m mass --wrench thrust $uav | tagk-estimate -a METHOD --every 1 | tagk-report"
echo
printf '%-9s %10s %13s %14s %12s\n' "method" "RMSPE_%" "us/update" "(t+1)_err" "within_5%"
$BIN/tagk-regress -m mass --wrench thrust "$uav" > "$tmp/mrows.csv"
for m in ekf msckf ukf swls kf-low rls-low tagk; do
	case $m in
	ekf|msckf|ukf|swls) $BIN/tagk-estimate -v -a "$m" "$uav" > "$tmp/est.csv" 2> "$tmp/err" ;;
	*) $BIN/tagk-estimate -a "$m" --every 1 "$tmp/mrows.csv" > "$tmp/est.csv" 2> "$tmp/err" ;;
	esac
	us=$(sed -n 's/.* updates, mean \([0-9.]*\) us each/\1/p' "$tmp/err")
	$BIN/tagk-report --format csv "$tmp/est.csv" > "$tmp/rep.csv"
	awk -F, -v m="$m" -v us="${us:--}" '
		$1 == "parameter" && $2 == "m" { rmspe = $8 }
		$1 == "event" && !n { n = 1; e1 = $9; rec = $10 == "" ? "never" : sprintf("%.2f s", $10) }
		END { printf "%-9s %10.3g %13s %14.3g %12s\n", m, rmspe, us, e1, rec }' "$tmp/rep.csv"
done
