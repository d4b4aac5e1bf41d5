#!/bin/sh
# output_safety_test.sh: every command that writes a file, run with links
# planted where an attacker who can write to the output's directory would
# plant them: at the output's own name and at every name the old
# PATH.tmp<PID> scheme could use for the next 2000 processes. No
# link's target may change, no output may replace an input, and a replaced
# file keeps its mode. Run as the current user and, when that is root and
# the machine has a 'nobody' user and setpriv(1), again as nobody in a
# directory nobody owns. (tests/test_outfile.c plants a link at every name
# outfile.c itself will try, through a deterministic random source.)
# Everything happens inside this script's temporary directory.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"

# The binaries and the data they need, where another user can run them.
chmod 755 "$tmp"
mkdir -p "$tmp/bin" "$tmp/datasets"
for c in regress estimate filter report bench; do cp "$BIN/tagk-$c" "$tmp/bin/"; done
cp datasets/panda.model datasets/synth-payload.csv "$tmp/datasets/"
chmod -R a+rX "$tmp/bin" "$tmp/datasets"

cat > "$tmp/battery.sh" <<'EOF'
#!/bin/sh
# battery.sh ROOT W: in the directory W (the caller's, empty), the writes of
# every command, each after planting links; prints "ok NAME" or "FAIL NAME:
# why" per check.
set -u
root=$1 w=$2
B=$root/bin
cd "$w" || exit 1
cp "$root/datasets/synth-payload.csv" log.csv
printf 'precious\n' > target
plant() { # plant OUT: links at OUT and at OUT.tmpPID for the next 2000 PIDs
	# (one perl process, so that the command's PID comes right after)
	perl -e 'symlink($ARGV[0], $ARGV[1]); symlink($ARGV[0], "$ARGV[1].tmp" . ($$ + $_)) for 1 .. 2000' \
		"$w/target" "$1"
}
verify() { # verify NAME OUT: the target unchanged, OUT a regular file
	if [ "$(cat target)" != precious ]; then echo "FAIL $1: the link's target changed"; printf 'precious\n' > target
	elif [ -L "$2" ] || [ ! -f "$2" ]; then echo "FAIL $1: $2 is not a regular file"
	else echo "ok   $1"; fi
	rm -f "$2" "$2".tmp*
}
run() { # run NAME OUT COMMAND...
	name=$1 out=$2; shift 2
	plant "$out"
	"$@" > /dev/null 2> err.txt || { echo "FAIL $name: exit $?: $(head -1 err.txt)"; return; }
	verify "$name" "$out"
}
$B/tagk-regress log.csv -o reg.csv 2>/dev/null
$B/tagk-estimate -q -a kf-low reg.csv -o est.csv 2>/dev/null
run "tagk-regress -o x.csv" x.csv $B/tagk-regress log.csv -o x.csv
run "tagk-regress -o x.h5" x.h5 $B/tagk-regress log.csv -o x.h5
run "tagk-regress -o x.csv.gz" x.csv.gz $B/tagk-regress log.csv -o x.csv.gz
run "tagk-estimate -o" x.csv $B/tagk-estimate -q -a kf-low reg.csv -o x.csv
run "tagk-filter -o" x.csv $B/tagk-filter log.csv --from 1 -o x.csv
run "tagk-report -o" x.txt $B/tagk-report est.csv -o x.txt
run "tagk-report --plot" x.png $B/tagk-report --plot x.png est.csv
run "tagk-report --plot x.svg" x.svg $B/tagk-report --plot x.svg est.csv
run "tagk-bench synth -o" x.csv $B/tagk-bench synth --duration 1 -o x.csv
run "tagk-bench timing -o" x.txt $B/tagk-bench timing -n 10 --methods rk --updates 3 -o x.txt
plant x.model
(cd "$root" && $B/tagk-bench grasp --duration 0.2 --model "$root/datasets/panda.model" --model-out "$w/x.model" -o "$w/g.csv") \
	> /dev/null 2>&1; verify "tagk-bench grasp --model-out" x.model
# the input is never its own output, under any name
cp log.csv keep.csv
ln log.csv hard.csv
for o in log.csv hard.csv; do
	if $B/tagk-filter log.csv -o $o 2> err.txt; then echo "FAIL -o $o over the input: exit 0"
	elif ! cmp -s log.csv keep.csv; then echo "FAIL -o $o over the input: the input changed"
	elif ! grep -q "tagk does not overwrite its own input" err.txt; then echo "FAIL -o $o: $(cat err.txt)"
	else echo "ok   -o $o, the input itself, is refused"; fi
done
if $B/tagk-filter -o log.csv < log.csv 2> err.txt; then echo "FAIL -o the input given as stdin: exit 0"
elif cmp -s log.csv keep.csv; then echo "ok   -o the file standard input reads is refused"
else echo "FAIL -o the input given as stdin: it changed"; fi
# a replaced file keeps its mode
printf 'old\n' > priv.csv; chmod 600 priv.csv
$B/tagk-filter log.csv -o priv.csv 2>/dev/null
m=$(stat -c %a priv.csv)
[ "$m" = 600 ] && echo "ok   a 0600 file replaced stays 0600" || echo "FAIL a 0600 file replaced became $m"
EOF
chmod 755 "$tmp/battery.sh"

tally() { # tally WHO: count the battery's lines
	while read -r line; do
		case $line in
		ok*) pass=$((pass + 1)); echo "$line ($1)" ;;
		*) fail=$((fail + 1)); echo "$line ($1)" ;;
		esac
	done
}
mkdir "$tmp/w-me"
sh "$tmp/battery.sh" "$tmp" "$tmp/w-me" > "$tmp/as-me.txt" 2>&1
tally "as $(id -un)" < "$tmp/as-me.txt"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1; then
	g=$(id -g nobody)
	mkdir "$tmp/w-nobody"; chown nobody "$tmp/w-nobody"
	setpriv --reuid=nobody --regid="$g" --clear-groups sh "$tmp/battery.sh" "$tmp" "$tmp/w-nobody" \
		> "$tmp/as-nobody.txt" 2>&1
	if [ -s "$tmp/as-nobody.txt" ]; then
		tally "as nobody" < "$tmp/as-nobody.txt"
	else
		fail=$((fail + 1)); echo "FAIL the battery as nobody printed nothing"
	fi
	# root writing where nobody planted the links: nobody's directory
	mkdir "$tmp/shared"; chown nobody "$tmp/shared"
	setpriv --reuid=nobody --regid="$g" --clear-groups sh -c "printf 'precious\n' > '$tmp/shared/target'; \
		perl -e 'symlink(\$ARGV[0], \$ARGV[1]); symlink(\$ARGV[0], \"\$ARGV[1].tmp\" . (\$\$ + \$_)) for 1 .. 2000' \
		'$tmp/shared/target' '$tmp/shared/out.csv'"
	"$tmp/bin/tagk-filter" "$tmp/datasets/synth-payload.csv" -o "$tmp/shared/out.csv" 2>/dev/null
	check "root writing into a directory where nobody planted links: the target unchanged" \
		test "$(cat "$tmp/shared/target")" = precious
	check "... and the output a regular file owned by root" sh -c "[ -f '$tmp/shared/out.csv' ] && [ ! -L '$tmp/shared/out.csv' ] && [ \$(stat -c %u '$tmp/shared/out.csv') -eq 0 ]"
else
	echo "skip the battery as an unprivileged user: not root, or no 'nobody' or setpriv here"
fi
finish
