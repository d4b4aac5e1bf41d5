#!/bin/sh
# hac_wide_mc.sh SEEDS SD RHO: the whole-arm intervals' coverage on MuJoCo's
# Panda (not run by make check: minutes, and libmujoco-dev). For each seed,
# the Panda with every link perturbed 20-30 % (tests/perturb_mjcf.py)
# replays a tagk-bench excite trajectory (10 s at 1 kHz) in MuJoCo
# (build/wholearm_oracle), AR(1) torque noise of sd SD and coefficient RHO
# is added (tests/hac_wide_oracle.py colour), tagk-regress writes the base
# rows (viscous friction), and tagk-estimate --batch -a ols and wls give
# the 50 base parameters: counted within 1.96 sd of the truth. OLD=DIR
# counts DIR's tagk-estimate beside BIN's (e.g. a build before a change).
# Prints per seed "seed ols K N [K N] wls ..." and the totals.
#   make build/wholearm_oracle && sh tests/hac_wide_mc.sh 40 0.5 0.99
set -u
BIN=${BIN:-bin}
N=$1 SD=$2 RHO=$3
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
PL="--q-min -2.8973,-1.7628,-2.8973,-3.0718,-2.8973,-0.0175,-2.8973 --q-max 2.8973,1.7628,2.8973,-0.0698,2.8973,3.7525,2.8973
	--qd-max 2.175,2.175,2.175,2.175,2.61,2.61,2.61 --qdd-max 15,7.5,10,12.5,15,20,20"
$BIN/tagk-bench excite --robot panda_nohand $PL -o "$d/ex.csv" 2>/dev/null || exit 1
score() {
	grep -v '^#' "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ for (k in c) if (k ~ /^b[0-9]+$/) { e = $c[k] - $c["true_" k]; e = e < 0 ? -e : e; n++; if (e <= 1.96 * $c["sd_" k]) k2++ } }
		END { printf "%d %d", k2, n }'
}
for s in $(seq 1 "$N"); do
	/usr/bin/python3 tests/perturb_mjcf.py datasets/panda_nohand.xml "$d/pert.xml" "$s"
	ASAN_OPTIONS=detect_leaks=0 build/wholearm_oracle "$d/pert.xml" "@$d/ex.csv" "$s" > "$d/tl.csv"
	/usr/bin/python3 tests/hac_wide_oracle.py colour "$d/tl.csv" "$d/n.csv" "$s" "$SD" "$RHO"
	$BIN/tagk-regress -m multibody --robot panda_nohand --unknown all --base --friction-terms viscous --stream csv \
		"$d/n.csv" > "$d/n.reg" 2>/dev/null
	line=$s
	for m in ols wls; do
		$BIN/tagk-estimate -a $m --batch "$d/n.reg" > "$d/n.est" 2>/dev/null
		line="$line $m $(score "$d/n.est")"
		if [ -n "${OLD:-}" ]; then
			"$OLD/tagk-estimate" -a $m --batch "$d/n.reg" > "$d/o.est" 2>/dev/null
			line="$line $(score "$d/o.est")"
		fi
	done
	echo "$line"
done | awk '{ print; for (i = 2; i <= NF; i++) if ($i ~ /[a-z]/) { m = $i; c = 0 } else t[m, ++c] += $i }
	END { printf "total:"; split("ols wls", M, " ")
		for (x = 1; x <= 2; x++) { m = M[x]; printf " %s %d of %d (%.1f %%)", m, t[m, 1], t[m, 2], 100 * t[m, 1] / t[m, 2]
			if (t[m, 4]) printf ", old %d of %d (%.1f %%)", t[m, 3], t[m, 4], 100 * t[m, 3] / t[m, 4] }
		print "" }'
