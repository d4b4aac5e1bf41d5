#!/bin/sh
# include_rules.sh: the layers' include rules (README, "Layout"),
# read from every quoted #include, resolved as the compiler does: against
# the including file's directory, then, for cmd/ and bench/, the Makefile's
# CMD_INC (-iquote cmd/common -iquote cmd: cmd/'s files kept the include
# lines they had when cmd/ was one folder):
#   lib/      includes only lib/ (it builds alone for the Cortex-M7);
#   formats/  includes formats/ and lib/, never cmd/ or bench/;
#   cmd/ and formats/ include from lib/ only the public API, lib/tagk.h
#             and the headers it includes;
#   cmd/      the four pipeline commands, one folder each (cmd/regress/,
#             cmd/estimate/, cmd/filter/, cmd/report/), over cmd/common/: a
#             command's folder includes its own files and cmd/common/, never
#             another command's; cmd/common/ includes no command's folder;
#             no file of cmd/ includes bench/ (tagk-bench, the
#             reproductions, the simulators);
#   bench/sim/ includes only bench/sim/ and lib/ (the Cortex-M7 image
#             builds the simulators with the library);
#   bench/    may include any lib/ header, internal ones too, formats/
#             and cmd/common/ (no command's folder): the benchmarks time and check the
#             library's internals (a method's state, its workspace layout)
#             and are not an API anyone builds on, so no rule binds them
#             but the circle check below;
#   datasets/ holds no C that anything includes.
#   formats/  table.c's dispatch (tbl_open) sits above the readers
#             (*_in.c, csv_fast.c), which sit above what they share
#             (table_impl.c): only table.c and the readers include
#             table_readers.h, the readers' entry points. With the formats
#             archive as argument (the Makefile's check-lib passes it), its
#             objects' calls are checked for a circle too: the real
#             dependency, which includes alone do not show (a header may
#             declare what is defined above it).
# Prints each breach as FILE: includes PATH (RULE) and exits 1 if any.
# Usage: include_rules.sh [FORMATS-ARCHIVE]
set -eu
fmtlib=${1:-}
case "$fmtlib" in ""|/*) ;; *) fmtlib=$PWD/$fmtlib ;; esac
cd "$(dirname "$0")/.."
# every quoted include as "FILE PATH", the path folded to the project's
pairs=$(for f in lib/*.c lib/*.h bench/sim/*.c bench/sim/*.h formats/*.c formats/*.h cmd/*/*.c cmd/*/*.h bench/*.c bench/*.h; do
	[ -f "$f" ] || continue
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | awk -v f="$f" '
	function fold(dir, rel,   d, n, k, i, s, m, p, out) {
		n = split(dir, d, "/"); k = 0
		for (i = 1; i <= n; i++) s[++k] = d[i]
		m = split(rel, p, "/")
		for (i = 1; i <= m; i++) {
			if (p[i] == "..") k--; else if (p[i] != ".") s[++k] = p[i]
		}
		out = s[1]; for (i = 2; i <= k; i++) out = out "/" s[i]
		return out
	}
	function found(path) { if ((getline line < path) >= 0) { close(path); return 1 } return 0 }
	{
		dir = f; sub(/\/[^\/]*$/, "", dir)
		out = fold(dir, $0)
		if (!found(out) && f ~ /^(cmd|bench)\//) {
			if (found(fold("cmd/common", $0))) out = fold("cmd/common", $0)
			else if (found(fold("cmd", $0))) out = fold("cmd", $0)
		}
		print f, out }'
done)
# the public API: lib/tagk.h and what it includes
public=" lib/tagk.h $(sed -n 's/^#include "\([a-z_0-9]*\.h\)".*/lib\/\1/p' lib/tagk.h | tr '\n' ' ')"
bad=0
while read -r f p; do
	rule=
	case "$f:$p" in
	cmd/*:lib/* | formats/*:lib/*)
		case "$public" in *" $p "*) ;; *) rule="outside lib/, only the public API (lib/tagk.h and what it includes)" ;; esac ;;
	esac
	[ -n "$rule" ] || case "$f:$p" in
	lib/*:lib/*) ;;
	lib/*) rule="lib/ includes only lib/" ;;
	formats/*:formats/* | formats/*:lib/*) ;;
	formats/*) rule="formats/ includes formats/ and lib/ only" ;;
	cmd/*:bench/*) rule="cmd/ never includes bench/" ;;
	cmd/common/*:cmd/common/*) ;;
	cmd/common/*:cmd/*) rule="cmd/common/ includes no command's folder" ;;
	bench/*:cmd/common/*) ;;
	bench/*:cmd/*) rule="bench/ uses cmd/common/ only, no command's folder" ;;
	cmd/*/*:cmd/*/*)
		a=${f#cmd/}; a=${a%%/*}; b=${p#cmd/}; b=${b%%/*}
		[ "$a" = "$b" ] || [ "$b" = common ] || rule="a command's folder includes its own and cmd/common/, never another command's" ;;
	bench/sim/*:bench/sim/* | bench/sim/*:lib/*) ;;
	bench/sim/*) rule="bench/sim/ includes bench/sim/ and lib/ only" ;;
	esac
	case "$p" in
	datasets/*) rule="nothing includes C from datasets/" ;;
	formats/table_readers.h)
		case "$f" in
		formats/table.c | formats/*_in.c | formats/csv_fast.c) ;;
		*) rule="only table.c's dispatch and the readers include the readers' entry points" ;;
		esac ;;
	esac
	if [ -n "$rule" ]; then
		echo "$f: includes $p ($rule)"
		bad=1
	fi
done <<EOF
$pairs
EOF
# no circle between the modules of cmd/ and bench/ (a file stem: X.c with
# X.h): X.c including Y.h is an edge X -> Y, and tsort refuses a graph
# with a loop. lib/ and formats/ keep theirs on purpose: a method kind and
# the estimator, a reader and the table's dispatch, know each other.
loops=$(printf '%s\n' "$pairs" | awk '$1 ~ /^(cmd|bench)\// && $2 ~ /^(cmd|bench)\// {
	a = $1; b = $2; sub(/\.[ch]$/, "", a); sub(/\.[ch]$/, "", b)
	if (a != b) print a, b }' | LC_ALL=C tsort 2>&1 >/dev/null | sed -n 's/^tsort: \([^-].*\)$/\1/p' | sort -u | tr '\n' ' ')
if [ -n "$loops" ]; then
	echo "include_rules: a circle of includes through $loops"
	bad=1
fi
# formats/: which object calls which (nm), and no circle. csv_fast.o is
# the CSV reader's fast path, one module with csv_in.o (they call each
# other's functions through csv_in.h, the reader's private header).
if [ -n "$fmtlib" ]; then
	[ -f "$fmtlib" ] || { echo "include_rules: $fmtlib: no such archive"; exit 1; }
	floops=$(nm -A "$fmtlib" 2>/dev/null | awk '{
		n = split($1, a, ":"); m = a[n - 1]; sub(/\.o$/, "", m); if (m == "csv_fast") m = "csv_in"
		if ($(NF - 1) ~ /^[TDBRCVW]$/) def[$NF] = m; else if ($(NF - 1) == "U") { u[++k] = m; us[k] = $NF }
	} END { for (i = 1; i <= k; i++) if ((us[i] in def) && def[us[i]] != u[i]) print u[i], def[us[i]] }' |
		sort -u | LC_ALL=C tsort 2>&1 >/dev/null | sed -n 's/^tsort: \([^-].*\)$/\1/p' | sort -u | tr '\n' ' ')
	if [ -n "$floops" ]; then
		echo "include_rules: formats/: a circle of calls through $floops"
		bad=1
	fi
fi
[ "$bad" -eq 0 ] || exit 1
echo "include_rules: lib/, formats/, cmd/ (each command in its folder, over cmd/common/) and bench/ keep their layers, no circle of includes${fmtlib:+ nor of formats/' calls} - ok"
