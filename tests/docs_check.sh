#!/bin/sh
# docs_check.sh: re-run the command behind every figure the README and the
# manuals quote, and report each figure that no longer comes out.
# `make docs-check` runs it; it is not part of make check (some commands
# take minutes each: tagk-design(7), "Figures that stay true").
#
#   sh tests/docs_check.sh [-n] [-g REGEX] [FILE...]   (default: README.md man/*)
#
# -n lists the commands without running them; -g runs only the commands
# whose text matches the extended REGEX (e.g. -g grasp-table); FILEs pick
# pages (`make docs-check DOCS=man/tagk-papers.7`).
#
# A figure is tied to its command by comment lines in the source, just
# before the prose or table that quotes it (the command is also shown to
# the reader next to the figure):
#
#   man page:   .\" docs-check: COMMAND
#               .\" docs-want: FIGURE...
#               .\" docs-table: [TOLERANCE...]
#   README:     <!-- docs-check: COMMAND -->
#               <!-- docs-want: FIGURE... -->
#               <!-- docs-table: [TOLERANCE...] -->
#
# COMMAND is one line of sh, run in a scratch directory with the commands
# of BIN (default bin/) first on PATH, datasets/ beside it, and $REAL the
# directory of the real Crazyflie logs (../shared/realdata/crazyflie) and
# $SRC the source tree (for its scripts, bench/demo.sh): a
# command that names $REAL is skipped, and said so, when they are absent.
# Its stdout and stderr together are its output. A command may print the
# figure as the prose words it (awk turns 0.03434 into 3.43). A command
# quoted twice (several tables of one run) runs once. DOCS_CACHE=DIR keeps
# each command's output in DIR and reuses it on the next run (to judge the
# figures again after editing them, without the minutes of running).
#
# Each FIGURE of docs-want is a number the output must contain, with its
# tolerance:
#   3.43        as written: within half a unit of its last digit (3.425-3.435)
#   105+-2      within 2 (absolute)
#   0.0019+-10% within 10 % of 0.0019
#   0.77*2      within a factor of 2 (0.385-1.54): a time on another machine
#   time<300    the command took less than 300 s of wall time (for a run
#               time the prose states loosely: "a few minutes")
#   time=60     the command took 30 to 120 s (a run time the prose states)
#
# docs-table checks the next table of the page (.TS to .TE or .nf to .fi;
# in the README the next ``` block or | table): each of its rows that holds
# a number must come out on one line of the output, its numbers in order
# (other numbers may stand between them), each as written; a number glued
# to a letter before it (log201, HDF5) is part of a name, not a figure. Skipped: a .TS
# table's rows above its `_` rule (the header) and rows in italics (the
# paper's own figures). A TOLERANCE N=TOL gives the row's Nth number
# (1 = first) a tolerance as above (+-2, +-10%, *2), all=TOL every number;
# /REGEX/N=TOL only on the rows REGEX matches (no spaces in REGEX); `any`
# takes each number of a row alone, anywhere in the output (a table that
# digests the output rather than copies its lines; for exact figures: a
# loose tolerance there would match any number near it).
# A command that exits non-zero fails all its figures. Several docs-want
# and docs-table lines may follow one docs-check.
# Exit status 0 when every figure came out, 1 otherwise.
list=0 only=
while :; do
	case $1 in
	-n) list=1; shift ;;
	-g) only=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- README.md man/*.[157]
BIN=${BIN:-bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
REAL=${REAL:-$PWD/../shared/realdata/crazyflie}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cache=${DOCS_CACHE:-$tmp/cache}
mkdir -p "$tmp/run" "$cache"
ln -s "$PWD/datasets" "$tmp/run/datasets"

# the markers, one line each: FILE<TAB>LINE<TAB>check|want|table|row<TAB>TEXT;
# a table's rows follow its table line, one row line each, troff undone
for f in "$@"; do
	awk -v file="$f" '
		function untroff(s) {
			gsub(/\\-/, "-", s); gsub(/\\&/, "", s); gsub(/\\\[aq\]/, "\047", s)
			gsub(/\\f\[[A-Z]*\]/, "", s); gsub(/\\f[BIRCP]/, "", s); gsub(/\\e/, "\\", s)
			gsub(/\\\[mu\]/, "x", s); gsub(/\t/, " ", s); return s
		}
		function row(s, at) { if (s ~ /[0-9]/ && !italic) printf "%s\t%d\trow\t%s\n", file, at, untroff(s); italic = 0 }
		# inside a table: .nf/.fi and ``` blocks row by row; .TS cells joined
		intable == 1 && /^\.nf/ { intable = 2; kind = "nf"; next }
		intable == 1 && /^\.TS/ { intable = 2; kind = "ts"; spec = 1; head = 1; cells = ""; next }
		intable == 1 && /^```/ { intable = 2; kind = "md"; next }
		intable == 1 && /^\|/ { intable = 2; kind = "bar"; head = 1 }
		intable == 2 && kind == "nf" { if (/^\.fi/) intable = 0; else if (!/^\\f\[[CR]\]$/ && !/^\.br/) row($0, NR); next }
		intable == 2 && kind == "md" { if (/^```/) intable = 0; else row($0, NR); next }
		intable == 2 && kind == "bar" {
			if (!/^\|/) { intable = 0 }
			else { if (head || /^\|[-|: ]*\|$/) head = /^\|[-|: ]*\|$/ ? 0 : head; else row($0, NR); next }
		}
		intable == 2 && kind == "ts" {
			if (/^\.TE/) { intable = 0; next }
			if (spec) { if (/\.$/) spec = 0; next }
			if (/^_$/ || /^=$/) { head = 0; next }
			if (/\\f\[I\]/) it = 1
			if ($0 == "T}") { if (!head) { italic = it; row(cells, start) } cells = ""; it = 0; next }
			if (/^T\{$/) { start = NR; next }
			if (/^T\}@T\{$/) { cells = cells " |"; next }
			if (cells == "" && !/^T/) start = NR
			cells = cells " " $0
			if (index($0, "@") && !/T\{/) { if (!head) { italic = it; row(cells, NR) } cells = ""; it = 0 }
			next
		}
		{ line = $0 }
		sub(/^\.\\" docs-check: */, "", line) || sub(/^<!-- docs-check: */, "", line) {
			sub(/ *-->$/, "", line); printf "%s\t%d\tcheck\t%s\n", file, NR, line; next }
		sub(/^\.\\" docs-want: */, "", line) || sub(/^<!-- docs-want: */, "", line) {
			sub(/ *-->$/, "", line); printf "%s\t%d\twant\t%s\n", file, NR, line; next }
		sub(/^\.\\" docs-table:? */, "", line) || sub(/^<!-- docs-table:? */, "", line) {
			sub(/ *-->$/, "", line); printf "%s\t%d\ttable\t%s\n", file, NR, line; intable = 1; next }
	' "$f"
done > "$tmp/markers"

# the awk functions that judge a number against a figure with its tolerance
tolfn='
function num(w) { sub(/(\+-|\*).*$/, "", w); return w + 0 }
# hit(X, W, TOL): X is the figure W within TOL (as written when TOL is "")
function hit(x, w, tol,   v, d, e, t, f) {
	v = w + 0
	if (tol == "") {
		d = w; sub(/^[-+]?[0-9]*/, "", d); sub(/[eE].*/, "", d)
		e = w; if (!sub(/^[^eE]*[eE]/, "", e)) e = 0
		t = 0.5 * 10 ^ (e - (length(d) > 1 ? length(d) - 1 : 0))
	} else if (tol ~ /^\*/) {
		f = substr(tol, 2) + 0
		return v < 0 ? (x <= v / f && x >= v * f) : (x >= v / f * (1 - 1e-9) && x <= v * f * (1 + 1e-9))
	} else {
		t = substr(tol, 3)
		if (t ~ /%$/) { sub(/%$/, "", t); t = (v < 0 ? -v : v) * t / 100 }
	}
	d = x - v; if (d < 0) d = -d
	return d <= t * (1 + 1e-9)
}
# split W into its figure and its tolerance: FIG[1], FIG[2]
function parse(w) {
	fig[2] = ""
	if (index(w, "+-")) { fig[2] = substr(w, index(w, "+-")); w = substr(w, 1, index(w, "+-") - 1) }
	else if (index(w, "*")) { fig[2] = substr(w, index(w, "*")); w = substr(w, 1, index(w, "*") - 1) }
	fig[1] = w
}
'
numre='[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?'

# judge OUT WANTS TOOK: one line per figure that did not come out
judge() {
	grep -oE -- "$numre" "$1" > "$tmp/nums"
	for w in $2; do
		case $w in
		time\<*)
			awk -v lim="${w#time<}" -v took="$3" 'BEGIN { if (took >= lim) printf "%s: took %d s\n", "time<" lim, took }' ;;
		time=*)
			awk -v t="${w#time=}" -v took="$3" 'BEGIN { if (took < t / 2 || took > t * 2) printf "%s: took %d s, not within 2x\n", "time=" t, took }' ;;
		*)
			awk -v w="$w" "$tolfn"'
				BEGIN { parse(w); best = "" }
				{ d = $1 - fig[1]; if (d < 0) d = -d; if (hit($1, fig[1], fig[2])) ok = 1; if (best == "" || d < bd) { best = $1; bd = d } }
				END { if (!ok) printf "%s: not in the output (nearest %s)\n", w, best == "" ? "none" : best }
			' "$tmp/nums" ;;
		esac
	done
}

# judge_rows OUT ROWS: one line per table row that did not come out. ROWS
# holds FILE:LINE<TAB>TOLERANCES<TAB>ROW lines.
judge_rows() {
	awk "$tolfn"'
		# the numbers of S in A; one glued to a letter before it is part
		# of a name (log201, HDF5, p95, t+1), not a figure
		function nums(s, a,   n, c, pre, tok) {
			n = 0; pre = ""
			while (match(s, /[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?/)) {
				c = RSTART > 1 ? substr(s, RSTART - 1, 1) : pre
				tok = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH); pre = substr(tok, length(tok))
				if (c !~ /[A-Za-z_]/) a[++n] = tok
			}
			return n
		}
		FNR == NR { nl++; line[nl] = $0; next }
		{
			split($0, f, "\t"); at = f[1]; ntol = split(f[2], tl, " "); r = f[3]
			for (k in tol) delete tol[k]
			for (k = 1; k <= ntol; k++) {
				# /REGEX/N=TOL: only on the rows REGEX matches
				if (tl[k] ~ /^\//) {
					re = substr(tl[k], 2); re = substr(re, 1, index(re, "/") - 1)
					if (r !~ re) continue
					tl[k] = substr(tl[k], length(re) + 3)
				}
				if (tl[k] == "any") { tol["any"] = 1; continue }
				split(tl[k], kv, "="); tol[kv[1]] = kv[2]
			}
			nw = nums(r, want)
			if ("any" in tol) {
				# a digest of the output: each number anywhere in it
				miss = ""
				for (j = 1; j <= nw; j++) {
					t = (j in tol) ? tol[j] : (("all") in tol ? tol["all"] : "")
					for (i = 1; i <= nl && !found; i++) { ng = nums(line[i], got); for (g = 1; g <= ng; g++) if (hit(got[g] + 0, want[j], t)) { found = 1; break } }
					if (!found) miss = miss " " want[j]
					found = 0
				}
				if (miss != "") { gsub(/  +/, " ", r); sub(/^ /, "", r); printf "%s: row not in the output: %s\n       missing:%s\n", at, substr(r, 1, 110), miss }
				next
			}
			bestn = -1
			for (i = 1; i <= nl; i++) {
				ng = nums(line[i], got); j = 1
				for (g = 1; g <= ng && j <= nw; g++) {
					t = (j in tol) ? tol[j] : (("all") in tol ? tol["all"] : "")
					if (hit(got[g] + 0, want[j], t)) j++
				}
				if (j > nw) next
				if (j - 1 > bestn) { bestn = j - 1; best = line[i] }
			}
			gsub(/  +/, " ", r); gsub(/  +/, " ", best); sub(/^ /, "", r); sub(/^ /, "", best)
			printf "%s: row not in the output: %s\n       nearest (%d of %d numbers): %s\n", at, substr(r, 1, 300), bestn, nw, substr(best, 1, 300)
		}
	' "$1" "$2"
}

nfig=0 nbad=0 nskip=0 ncmd=0
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
exec 3< "$tmp/markers"
pending=
flush() {
	[ -n "$pending" ] || return 0
	set -- $pending
	at=$1:$2
	cmd=$(sed -n "${3}p" "$tmp/cmds")
	wants=$(cat "$tmp/wants")
	pending=
	nrow=$(wc -l < "$tmp/rows")
	n=$(( $(echo $wants | wc -w) + nrow ))
	if [ -n "$only" ] && ! printf '%s\n' "$cmd" | grep -Eq -- "$only"; then return 0; fi
	if [ "$list" = 1 ]; then printf "%s: %s  [%s; %d table rows]\n" "$at" "$cmd" "$wants" "$nrow"; return 0; fi
	case $cmd in *'$REAL'*)
		if [ ! -d "$REAL" ]; then echo "skip $at: needs the real logs ($REAL)"; nskip=$((nskip + n)); return 0; fi ;;
	esac
	key=$(printf '%s' "$cmd" | cksum | tr ' ' _)
	if [ -f "$cache/$key.rc" ]; then
		cp "$cache/$key.out" "$tmp/out"; rc=$(cat "$cache/$key.rc"); took=$(cat "$cache/$key.took")
	else
		ncmd=$((ncmd + 1))
		start=$(date +%s)
		(cd "$tmp/run" && PATH="$BIN:$PATH" BIN="$BIN" REAL="$REAL" SRC="$OLDPWD" TAGK_DATADIR="$OLDPWD/datasets" sh -c "$cmd") > "$tmp/out" 2>&1 < /dev/null
		rc=$?
		took=$(( $(date +%s) - start ))
		cp "$tmp/out" "$cache/$key.out"; echo $rc > "$cache/$key.rc"; echo $took > "$cache/$key.took"
	fi
	nfig=$((nfig + n))
	if [ $rc -ne 0 ]; then
		printf "FAIL %s: exit %d: %s\n" "$at" "$rc" "$cmd"; tail -3 "$tmp/out" | sed "s/^/     /"
		nbad=$((nbad + n)); return 0
	fi
	judge "$tmp/out" "$wants" "$took" > "$tmp/bad"
	nb=$(wc -l < "$tmp/bad")
	judge_rows "$tmp/out" "$tmp/rows" >> "$tmp/bad"
	nb=$((nb + $(grep -c 'row not in the output' "$tmp/bad")))
	if [ -s "$tmp/bad" ]; then
		printf "FAIL %s: %s\n" "$at" "$cmd"; sed "s/^/     /" "$tmp/bad"
		nbad=$((nbad + nb))
	else
		echo "ok   $at ($n figures, ${took} s): $(printf "%s\n" "$cmd" | cut -c1-90)"
	fi
}
: > "$tmp/cmds"
k=0
tols=
while IFS='	' read -r file line kind text <&3; do
	if [ "$kind" = check ]; then
		flush
		k=$((k + 1)); printf '%s\n' "$text" >> "$tmp/cmds"
		pending="$file $line $k"; : > "$tmp/wants"; : > "$tmp/rows"; tols=
	elif [ -z "$pending" ]; then
		echo "FAIL $file:$line: docs-$kind without a docs-check before it"; nbad=$((nbad + 1))
	elif [ "$kind" = want ]; then
		printf '%s ' "$text" >> "$tmp/wants"
	elif [ "$kind" = table ]; then
		tols=$text
	else
		printf '%s:%s\t%s\t%s\n' "$file" "$line" "$tols" "$text" >> "$tmp/rows"
	fi
done
flush
[ "$list" = 1 ] && exit 0
echo "docs-check: $ncmd commands, $nfig figures, $nbad not as quoted, $nskip skipped"
# times and speed ratios are compared within their factors; on a loaded
# machine they are not this machine's figures
echo "docs-check: load average at the start $load0, at the end $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) ($(nproc 2>/dev/null) cores)"
[ "$nbad" -eq 0 ]
