#!/bin/sh
# docs_check.sh: re-run the command behind every figure the README and the
# manuals quote, and report each figure that no longer comes out.
# `make docs-check` runs it; it is not part of make check (some commands
# take minutes).
#
#   sh tests/docs_check.sh [-n] [FILE...]     (default: README.md man/*)
#
# A figure is tied to its command by two comment lines in the source, just
# before the prose that quotes it (the command is also shown to the reader
# next to the figure):
#
#   man page:   .\" docs-check: COMMAND
#               .\" docs-want: FIGURE...
#   README:     <!-- docs-check: COMMAND -->
#               <!-- docs-want: FIGURE... -->
#
# COMMAND is one line of sh, run in a scratch directory with the commands
# of BIN (default bin/) first on PATH, datasets/ beside it, and $REAL the
# directory of the real Crazyflie logs (../shared/realdata/crazyflie): a
# command that names $REAL is skipped, and said so, when they are absent.
# Its stdout and stderr together are its output. A command may print the
# figure as the prose words it (awk turns 0.03434 into 3.43).
#
# Each FIGURE is a number the output must contain, with its tolerance:
#   3.43        as written: within half a unit of its last digit (3.425-3.435)
#   105+-2      within 2 (absolute)
#   0.0019+-10% within 10 % of 0.0019
#   time<300    the command took less than 300 s of wall time (for a run
#               time the prose states loosely: "a few minutes")
# A command that exits non-zero fails all its figures. Several docs-want
# lines may follow one docs-check. -n lists the commands without running.
# Exit status 0 when every figure came out, 1 otherwise.
list=0
[ "$1" = "-n" ] && { list=1; shift; }
[ $# -gt 0 ] || set -- README.md man/*.[157]
BIN=${BIN:-bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
REAL=${REAL:-$PWD/../shared/realdata/crazyflie}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/run"
ln -s "$PWD/datasets" "$tmp/run/datasets"

# the markers, one line each: FILE<TAB>LINE<TAB>check|want<TAB>TEXT
for f in "$@"; do
	awk -v file="$f" '
		{ line = $0 }
		sub(/^\.\\" docs-check: */, "", line) || sub(/^<!-- docs-check: */, "", line) {
			sub(/ *-->$/, "", line); printf "%s\t%d\tcheck\t%s\n", file, NR, line; next }
		sub(/^\.\\" docs-want: */, "", line) || sub(/^<!-- docs-want: */, "", line) {
			sub(/ *-->$/, "", line); printf "%s\t%d\twant\t%s\n", file, NR, line }
	' "$f"
done > "$tmp/markers"

# judge OUT WANTS: one line per figure that did not come out
judge() {
	grep -oE '[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?' "$1" > "$tmp/nums"
	for w in $2; do
		case $w in
		time\<*)
			awk -v lim="${w#time<}" -v took="$3" 'BEGIN { if (took >= lim) printf "%s: took %d s\n", "time<" lim, took }' ;;
		*)
			awk -v w="$w" '
				BEGIN {
					v = w; tol = ""
					if (index(w, "+-")) { v = substr(w, 1, index(w, "+-") - 1); tol = substr(w, index(w, "+-") + 2) }
					if (tol == "") {
						# as written: half a unit of the last digit
						d = v; sub(/^[-+]?[0-9]*/, "", d); sub(/[eE].*/, "", d)
						e = v; if (!sub(/^[^eE]*[eE]/, "", e)) e = 0
						tol = 0.5 * 10 ^ (e - (length(d) > 1 ? length(d) - 1 : 0))
					} else if (tol ~ /%$/) { sub(/%$/, "", tol); tol = (v < 0 ? -v : v) * tol / 100 }
					best = ""
				}
				{ d = $1 - v; if (d < 0) d = -d; if (d <= tol * (1 + 1e-9)) ok = 1; if (best == "" || d < bd) { best = $1; bd = d } }
				END { if (!ok) printf "%s: not in the output (nearest %s)\n", w, best == "" ? "none" : best }
			' "$tmp/nums" ;;
		esac
	done
}

nfig=0 nbad=0 nskip=0 ncmd=0
exec 3< "$tmp/markers"
pending=
flush() {
	[ -n "$pending" ] || return 0
	set -- $pending
	at=$1:$2
	cmd=$(sed -n "${3}p" "$tmp/cmds")
	wants=$(cat "$tmp/wants")
	pending=
	n=$(echo $wants | wc -w)
	if [ "$list" = 1 ]; then printf "%s: %s  [%s]\n" "$at" "$cmd" "$wants"; return 0; fi
	case $cmd in *'$REAL'*)
		if [ ! -d "$REAL" ]; then echo "skip $at: needs the real logs ($REAL)"; nskip=$((nskip + n)); return 0; fi ;;
	esac
	ncmd=$((ncmd + 1))
	start=$(date +%s)
	(cd "$tmp/run" && PATH="$BIN:$PATH" REAL="$REAL" TAGK_DATADIR="$OLDPWD/datasets" sh -c "$cmd") > "$tmp/out" 2>&1 < /dev/null
	rc=$?
	took=$(( $(date +%s) - start ))
	nfig=$((nfig + n))
	if [ $rc -ne 0 ]; then
		printf "FAIL %s: exit %d: %s\n" "$at" "$rc" "$cmd"; tail -3 "$tmp/out" | sed "s/^/     /"
		nbad=$((nbad + n)); return 0
	fi
	judge "$tmp/out" "$wants" "$took" > "$tmp/bad"
	if [ -s "$tmp/bad" ]; then
		printf "FAIL %s: %s\n" "$at" "$cmd"; sed "s/^/     /" "$tmp/bad"
		nbad=$((nbad + $(wc -l < "$tmp/bad")))
	else
		echo "ok   $at ($n figures, ${took} s): $(printf "%s\n" "$cmd" | cut -c1-90)"
	fi
}
: > "$tmp/cmds"
k=0
while IFS='	' read -r file line kind text <&3; do
	if [ "$kind" = check ]; then
		flush
		k=$((k + 1)); printf '%s\n' "$text" >> "$tmp/cmds"
		pending="$file $line $k"; : > "$tmp/wants"
	elif [ -n "$pending" ]; then
		printf '%s ' "$text" >> "$tmp/wants"
	else
		echo "FAIL $file:$line: docs-want without a docs-check before it"; nbad=$((nbad + 1))
	fi
done
flush
[ "$list" = 1 ] && exit 0
echo "docs-check: $ncmd commands, $nfig figures, $nbad not as quoted, $nskip skipped"
[ "$nbad" -eq 0 ]
