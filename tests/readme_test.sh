#!/bin/sh
# readme_test.sh: every ```sh block of README.md runs as printed, in a
# scratch directory with the commands on PATH and datasets/ beside it, and
# prints the lines the README says it prints. Skipped: the first block (the
# set-up, which CI itself runs) and a block right after the line
# "<!-- not run: ... -->" (its input is the reader's own log). A block's
# lines that start with "#   " are output it must print: each must appear,
# spacing aside, among the lines of its stdout and stderr.
. tests/lib.sh
BIN=${BIN:-bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
mkdir -p "$tmp/run/bench/figures"
ln -s "$PWD/datasets" "$tmp/run/datasets"
awk -v dir="$tmp" '
	/^<!-- not run:/ { skip = 1; next }
	/^```sh/ { n++; on = 1; f = dir "/block" n (n == 1 || skip ? ".skip" : ".sh"); skip = 0; printf "" > f; next }
	/^```/ && on { on = 0; close(f); next }
	on { print >> f }
	!/^[ \t]*$/ && !on { skip = skip && /^<!--/ }
' README.md
nrun=0
for b in "$tmp"/block*.sh; do
	[ -f "$b" ] || continue
	n=$(basename "$b" .sh)
	nrun=$((nrun + 1))
	(cd "$tmp/run" && PATH="$BIN:$PATH" TAGK_DATADIR="$OLDPWD/datasets" sh -e "$b") > "$tmp/$n.out" 2>&1
	rc=$?
	first=$(grep -v '^#' "$b" | head -1 | cut -c1-70)
	check "README $n ($first ...) exits 0" test $rc -eq 0
	[ $rc -eq 0 ] || sed 's/^/     /' "$tmp/$n.out" | tail -5
	squeeze() { tr -s ' \t' '  ' | sed 's/^ //; s/ $//'; }
	squeeze < "$tmp/$n.out" > "$tmp/$n.sq"
	grep '^#   ' "$b" | sed 's/^#   //' | squeeze | while IFS= read -r want; do
		grep -Fxq -- "$want" "$tmp/$n.sq" || echo "$want"
	done > "$tmp/$n.missing"
	if grep -q '^#   ' "$b"; then
		check "README $n prints what the README shows" test ! -s "$tmp/$n.missing"
		sed 's/^/     missing: /' "$tmp/$n.missing"
	fi
done
check "README: some blocks were run ($nrun)" test "$nrun" -ge 3
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
