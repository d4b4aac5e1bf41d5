# lib.sh: sourced by the command-line test scripts. Runs real binaries and
# checks exit status, stdout and stderr separately; counts and reports.
#
#   expect NAME STATUS STDOUT_PATTERN STDERR_PATTERN -- COMMAND...
#
# A pattern of "" means the stream must be empty, "*" anything; otherwise an
# extended regular expression one of its lines must match.
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the commands' own temporaries (tagk-report's spill and spool) go here too
TMPDIR=$tmp
export TMPDIR

check_stream() {
	if [ "$2" = "" ]; then
		[ ! -s "$1" ] || { ok=0; why="$(basename "$1") not empty"; }
	elif [ "$2" != "*" ]; then
		grep -Eq -- "$2" "$1" || { ok=0; why="$(basename "$1") lacks /$2/"; }
	fi
}

expect() {
	name=$1 want=$2 outpat=$3 errpat=$4
	shift 5
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	ok=1
	[ "$got" -eq "$want" ] || { ok=0; why="exit $got, wanted $want"; }
	[ $ok -eq 1 ] && check_stream "$tmp/out" "$outpat"
	[ $ok -eq 1 ] && check_stream "$tmp/err" "$errpat"
	if [ $ok -eq 1 ]; then
		pass=$((pass + 1))
		echo "ok   $name"
	else
		fail=$((fail + 1))
		echo "FAIL $name: $why"
		sed 's/^/     stdout: /' "$tmp/out" | head -5
		sed 's/^/     stderr: /' "$tmp/err" | head -5
	fi
}

# check NAME COMMAND...: a shell condition that must hold.
check() {
	name=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
		echo "ok   $name"
	else
		fail=$((fail + 1))
		echo "FAIL $name"
	fi
}

# plain FILE: a stream tagk wrote, without its declaration and end marker
# lines: what a hand-made CSV file looks like (tagk-formats(5)).
plain() {
	grep -v '^#tagk-' "$1"
}

# same_rows A B: A and B hold the same header and rows, marker lines aside.
same_rows() {
	plain "$1" > "$tmp/same_rows.a"
	plain "$2" > "$tmp/same_rows.b"
	cmp -s "$tmp/same_rows.a" "$tmp/same_rows.b"
}

# pipeline_setup: for the pipeline battery (tests/pipeline_*_test.sh, after
# BIN and MKFIX are set): the commands as $R, $E, $F, $P and $S, the
# fixtures of build/mkfixtures in $tmp, a 4 s synthetic log ($tmp/syn.tagk),
# its plain CSV copy (syn.csv: the edits change rows by line number) and
# its first 30 samples (small.csv, whose lines `line N` prints).
pipeline_setup() {
	R=$BIN/tagk-regress E=$BIN/tagk-estimate F=$BIN/tagk-filter P=$BIN/tagk-report S=$BIN/tagk-bench
	"$MKFIX" "$tmp" || { echo "FAIL mkfixtures"; exit 1; }
	$S synth --duration 4 --seed 3 -o "$tmp/syn.tagk" || { echo "FAIL synth"; exit 1; }
	plain "$tmp/syn.tagk" > "$tmp/syn.csv"
	head -31 "$tmp/syn.csv" > "$tmp/small.csv"
}
line() { sed -n "${1}p" "$tmp/small.csv"; }

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
