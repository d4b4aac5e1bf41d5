#!/bin/sh
# mutate.sh: does a test fail when a line is wrong? Applies one mutant at
# a time to a scratch copy of the tree, rebuilds what changed, runs the
# tests that can see the mutated file, and says whether they noticed.
#
#   tests/mutate.sh [-j JOBS] [-t SECONDS] [-m PERCENT] [-k] LIST [PATTERN...]
#
# LIST holds one mutant a line, four fields separated by tabs:
#
#   FILE:LINE <TAB> FROM <TAB> TO <TAB> what a user would see
#
# The mutant replaces the first occurrence of the literal text FROM on
# line LINE of FILE by TO (TO may be empty: the text is deleted). Blank
# lines and lines whose first character is # are ignored. A mutant whose
# FROM is not on its line is STALE (the file moved under it): reported,
# not counted, and the exit status is 1. PATTERNs (shell globs on
# FILE:LINE, e.g. 'lib/pcls.c*') select the mutants to run.
#
# Each mutant prints one line, in the order they finish:
#   KILLED FILE:LINE      a test failed, crashed or ran out of time
#   SURVIVED FILE:LINE    every test passed: nothing checks that line
#   BUILD-FAIL FILE:LINE  the mutant does not compile (not counted)
#   STALE FILE:LINE       FROM is not on the line (not counted; exit 1)
# then `killed K of N (P %)`. The exit status is 1 when P is below the
# threshold (-m, 95 by default), a mutant is STALE, or the unmutated tree
# fails a test it runs (BASELINE-FAIL: every mutant would look killed).
#
# A mutant that runs past -t SECONDS (120 by default) counts as killed: the
# tests under make check have no time limit of their own, so a hang is a
# failure a developer sees (make check never ends); an endless loop is the
# usual such mutant (a loop bound or step changed). The limit is several
# times the slowest mapping's run.
#
# Workers: -j JOBS (2 by default) scratch copies of the tracked files, in
# one temporary directory, made once with the real tree's build/ and bin/
# (their times kept, so make reuses every object); each mutant rebuilds only
# the objects of its file and the drivers that link them; the file is put
# back and touched after each mutant. The real tree is only read. -k keeps
# the scratch directory and each mutant's test log (mutate.log in it).
#
# The tests each file's mutants run are chosen by tests_for below (the
# mapping): the cmocka drivers of the module, under ASan as make check
# builds them, and the narrowest command batteries that exercise it. Add a
# file there when you add mutants to a file it does not match.
set -u

usage() {
	echo "usage: tests/mutate.sh [-j JOBS] [-t SECONDS] [-m PERCENT] [-k] LIST [PATTERN...]" >&2
	exit 2
}
jobs=2 limit=120 min=95 keep=0
while getopts j:t:m:k o; do
	case $o in
	j) jobs=$OPTARG ;;
	t) limit=$OPTARG ;;
	m) min=$OPTARG ;;
	k) keep=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
case $jobs$limit$min in *[!0-9]*) usage ;; esac
[ "$jobs" -ge 1 ] || usage
list=$1
shift
[ -r "$list" ] || { echo "mutate.sh: $list: cannot read" >&2; exit 2; }
top=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "mutate.sh: not in a git tree" >&2; exit 2; }
list=$(cd "$(dirname "$list")" && pwd)/$(basename "$list")

# --- the mapping: FILE -> make targets and test commands ----------------
# Prints lines "make TARGET..." and "run NAME COMMAND": the targets are
# built, then each command run in order until one fails. U NAME is the
# unit driver build/asan/test_NAME; B SCRIPT a command battery over the
# sanitizer builds of the commands, as make check's test-cli runs it.
ASANB="build/asan-bin/tagk-regress build/asan-bin/tagk-estimate build/asan-bin/tagk-filter \
build/asan-bin/tagk-report build/asan-bin/tagk-bench build/mkfixtures"
U() { for u in "$@"; do echo "make build/asan/test_$u"; echo "run test_$u ./build/asan/test_$u"; done; }
# B SCRIPT...: the batteries, after every command is rebuilt (a file of
# lib/ or formats/ feeds them all); C CMDS SCRIPT...: after only the
# commands CMDS ("regress filter") are: a cmd/ file is compiled into those
# alone, and the others, built from the unmutated tree, stay as they are.
B() { C "regress estimate filter report bench" "$@"; }
C() {
	t="build/mkfixtures"
	for c in $1; do t="$t build/asan-bin/tagk-$c"; done
	echo "make $t"
	shift
	for b in "$@"; do
		echo "run $b env ASAN_OPTIONS=detect_leaks=0 TAGK_DATADIR=\$PWD/datasets BIN=build/asan-bin sh tests/${b}_test.sh"
	done
}
# O NAME BIN: the oracle script tests/NAME_test.sh and the driver it runs
O() { echo "make $2"; echo "run $1 sh tests/$1_test.sh"; }
tests_for() {
	case $1 in
	lib/kaczmarz.c | lib/kz_robust.c) U kaczmarz estimator ;;
	lib/rls.c) U rls estimator ;;
	lib/rls_ld.c) U rls_ld estimator; O rls_ld_oracle build/rls_ld_run ;;
	lib/kf.c) U kf estimator ;;
	lib/mass_kf.c | lib/mass_ukf.c | lib/mass_swls.c | lib/massest.c) U mass; C estimate mass ;;
	lib/dmls.c) U dmls; O dmls_oracle build/dmls_solve ;;
	lib/batch*.c) U estimator ;;
	lib/coordinv.c) U coordinv ;;
	lib/regressor.c | lib/so3.c | lib/inertia.c) U regressor quad ;;
	lib/multibody.c) U multibody arm ;;
	lib/consistency.c) U consistency ;;
	lib/pcls.c) U pcls estimator; O pcls_oracle build/pcls_solve ;;
	lib/uncert.c) U uncert ;;
	lib/metrics.c) U metrics ;;
	lib/signals.c) U signals ;;
	lib/outlier.c) U outlier ;;
	lib/linalg.c) U linalg pcls ;;
	lib/excitation.c) U excitation ;;
	lib/estimator.c | lib/methods.c) U estimator ;;
	lib/*.c) U estimator ;;
	formats/numconv.c) U numconv; B stream ;;
	formats/streamsum.h) B stream ;;
	formats/outfile.c) U outfile; B output_safety ;;
	formats/table_impl.c) B stream reliability verdicts ;;
	formats/table.c | formats/csv_in.c | formats/binary_in.c | formats/cfusd_in.c | formats/units.c) B stream reliability ;;
	formats/binary_enc.c | formats/binary_dec.c) U binary_enc; B stream4 stream ;;
	formats/*) B stream reliability ;;
	cmd/report/report_score.c) C report handcheck stream ;;
	cmd/report/report_check.c | cmd/report/report_summary.c) C report verdicts stream ;;
	cmd/regress/airborne.c) C regress handcheck flight airborne ;;
	cmd/regress/friction_fit.c | cmd/regress/friction_fwl.c) echo "make build/arm_mujoco"; C regress arm_mujoco ;;
	cmd/common/unitguard.c) C "regress filter" handcheck flight arm mass ;;
	cmd/regress/consistency_guard.c) C regress handcheck flight arm mass ;;
	cmd/regress/sgderive.c) C regress arm ;;
	cmd/filter/join.c) C filter handcheck ;;
	cmd/common/*) B stream reliability ;;
	cmd/regress/*) C regress stream reliability ;;
	cmd/estimate/rowfit.c) C estimate fitcheck ;;
	cmd/estimate/*) C estimate stream reliability ;;
	cmd/filter/*) C filter stream reliability ;;
	cmd/report/*) C report stream reliability ;;
	*) return 1 ;;
	esac
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mutate.XXXXXX") || exit 2
if [ $keep -eq 0 ]; then
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
else
	echo "mutate.sh: scratch in $tmp"
fi

# --- the mutants: LIST filtered by PATTERNs, grouped by file -------------
n=0
: >"$tmp/all"
tab=$(printf '\t')
while IFS= read -r line || [ -n "$line" ]; do
	case $line in '' | '#'*) continue ;; esac
	where=${line%%"$tab"*}
	if [ $# -gt 0 ]; then
		hit=0
		for p in "$@"; do
			# shellcheck disable=SC2254
			case $where in $p) hit=1 ;; esac
		done
		[ $hit -eq 1 ] || continue
	fi
	case $where in *:*) ;; *)
		echo "mutate.sh: $list: '$where': not FILE:LINE" >&2
		exit 2 ;;
	esac
	tests_for "${where%:*}" >/dev/null || {
		echo "mutate.sh: ${where%:*}: no tests mapped (add it to tests_for in tests/mutate.sh)" >&2
		exit 2
	}
	n=$((n + 1))
	printf '%s\t%s\n' "$n" "$line" >>"$tmp/all"
done <"$list"
[ $n -gt 0 ] || { echo "mutate.sh: no mutant selected" >&2; exit 2; }
[ "$jobs" -le "$n" ] || jobs=$n

# Whole files to workers, the next to the least loaded: a file's mutants
# then share one scratch copy and its rebuilt objects.
sort -t "$tab" -k2,2 -s "$tmp/all" | awk -F '\t' -v j="$jobs" -v d="$tmp" '
	{ split($2, w, ":"); f = w[1]; if (!(f in who)) { best = 0
	    for (i = 1; i < j; i++) if (load[i] < load[best]) best = i
	    who[f] = best }
	  load[who[f]]++; print > (d "/queue" who[f]) }'

# --- the scratch copies --------------------------------------------------
# make -j per worker: the machine's two cores shared among the workers
mj=$((2 / jobs))
[ $mj -ge 1 ] || mj=1
start=$(date +%s)
w0=$tmp/w0
mkdir -p "$w0"
# tar keeps the files' times: make then sees the copied objects up to date
(cd "$top" && git ls-files -z | tar --null -T - -cf -) | (cd "$w0" && tar -xf -) || exit 2
# the sanitizer builds only: the mutants' tests run nothing else
mkdir -p "$w0/build"
for d in build/asan build/asan-obj build/asan-bin build/mkfixtures; do
	[ -e "$top/$d" ] && cp -a "$top/$d" "$w0/$d"
done
# every target a queued mutant needs, built once before the copies
targets=$(cut -f2 "$tmp/all" | cut -d: -f1 | sort -u | while read -r f; do
	tests_for "$f" | sed -n 's/^make //p'; done | tr ' ' '\n' | sort -u | tr '\n' ' ')
# every command, when a battery runs: those a mutant does not rebuild
case $targets in *asan-bin*) targets="$targets $ASANB" ;; esac
echo "mutate.sh: $n mutants, $jobs workers; building the scratch tree"
# shellcheck disable=SC2086
(cd "$w0" && make -j2 $targets >"$tmp/baseline-build.log" 2>&1) || {
	echo "mutate.sh: the unmutated tree does not build (see $tmp/baseline-build.log)" >&2
	trap - EXIT
	exit 1
}
# the unmutated tree must pass every test the mutants will run
cut -f2 "$tmp/all" | cut -d: -f1 | sort -u | while read -r f; do
	tests_for "$f" | sed -n 's/^run //p'; done | sort -u >"$tmp/runs"
: >"$tmp/baseline-fail"
while read -r name cmd; do
	(cd "$w0" && timeout "$limit" sh -c "$cmd" >"$tmp/baseline-$name.log" 2>&1) ||
		echo "$name" >>"$tmp/baseline-fail"
done <"$tmp/runs"
if [ -s "$tmp/baseline-fail" ]; then
	for b in $(cat "$tmp/baseline-fail"); do
		echo "BASELINE-FAIL $b (the unmutated tree fails it; log: $tmp/baseline-$b.log)"
	done
	trap - EXIT
	exit 1
fi
i=1
while [ $i -lt "$jobs" ]; do
	cp -a "$w0" "$tmp/w$i"
	i=$((i + 1))
done

# --- one mutant ------------------------------------------------------------
# mutant DIR NUM FILE LINE FROM TO: prints the verdict word
mutant() {
	dir=$1 num=$2 file=$3 ln=$4 from=$5 to=$6
	src=$dir/$file
	[ -f "$src" ] || { echo STALE; return; }
	cp -p "$src" "$dir/.orig"
	FROM=$from TO=$to awk -v ln="$ln" '
		NR == ln { i = index($0, ENVIRON["FROM"]); if (i == 0 || ENVIRON["FROM"] == "") { bad = 1 }
		  else { $0 = substr($0, 1, i - 1) ENVIRON["TO"] substr($0, i + length(ENVIRON["FROM"])) } }
		{ print }
		END { exit bad || NR < ln }' "$dir/.orig" >"$src" || {
		cp -p "$dir/.orig" "$src"
		echo STALE
		return
	}
	log=$tmp/log.$num
	verdict=SURVIVED
	tests_for "$file" >"$dir/.plan"
	# in the mapping's order: each make, then the tests after it, so that
	# a unit driver can kill the mutant before any command is relinked
	while read -r kind rest; do
		if [ "$kind" = make ]; then
			# shellcheck disable=SC2086
			(cd "$dir" && make -j$mj $rest >>"$log" 2>&1 </dev/null) || { verdict=BUILD-FAIL; break; }
			continue
		fi
		name=${rest%% *} cmd=${rest#* }
		echo "== $name" >>"$log"
		(cd "$dir" && timeout -k 5 "$limit" sh -c "$cmd" >>"$log" 2>&1 </dev/null)
		rc=$?
		if [ $rc -ne 0 ]; then
			verdict=KILLED
			[ $rc -eq 124 ] && echo "== $name: out of time ($limit s)" >>"$log"
			break
		fi
	done <"$dir/.plan"
	# back as it was, and newer than the objects the mutant made
	cp -p "$dir/.orig" "$src"
	touch "$src"
	echo "$verdict"
}

worker() {
	k=$1
	[ -s "$tmp/queue$k" ] || return 0
	# split on each tab by hand: read would merge the two tabs around an
	# empty TO (tab is IFS white space)
	while IFS= read -r line; do
		num=${line%%"$tab"*} line=${line#*"$tab"}
		where=${line%%"$tab"*} line=${line#*"$tab"}
		from=${line%%"$tab"*} line=${line#*"$tab"}
		to=${line%%"$tab"*}
		v=$(mutant "$tmp/w$k" "$num" "${where%:*}" "${where##*:}" "$from" "$to")
		printf '%s %s\n' "$v" "$where"
		printf '%s\t%s\t%s\n' "$num" "$v" "$where" >>"$tmp/verdicts"
	done <"$tmp/queue$k"
}

: >"$tmp/verdicts"
i=0
while [ $i -lt "$jobs" ]; do
	worker $i &
	i=$((i + 1))
done
wait

if [ $keep -eq 1 ]; then
	sort -n "$tmp/verdicts" | while IFS="$tab" read -r num v where; do
		printf '%s %s\n' "$v" "$where"
		sed 's/^/    /' "$tmp/log.$num" | tail -5
	done >"$tmp/mutate.log"
fi
awk -F '\t' -v min="$min" -v secs=$(($(date +%s) - start)) '
	{ c[$2]++ }
	END { k = c["KILLED"] + 0; s = c["SURVIVED"] + 0; n = k + s
	  p = n ? 100 * k / n : 100
	  printf "killed %d of %d (%.1f %%)", k, n, p
	  if (c["BUILD-FAIL"]) printf ", %d build-fail", c["BUILD-FAIL"]
	  if (c["STALE"]) printf ", %d STALE", c["STALE"]
	  printf ", %d s\n", secs
	  exit (p < min || c["STALE"] > 0) }' "$tmp/verdicts"
