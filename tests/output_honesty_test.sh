#!/bin/sh
# output_honesty_test.sh: outputs never report a success they did not have
# and never replace what they must not (tagk(7), OUTPUT FILES).
#
# - Names that stand for a descriptor (/dev/stdout, /dev/fd/N,
#   /proc/self/fd/N) and links to a FIFO, with standard output redirected
#   to a file: the bytes arrive there, at the descriptor's offset, and the
#   link stays a link. The /dev names are a fake /dev in this script's
#   temporary directory (links to /proc/self/fd/1 and /proc/self/fd), and
#   the literal /dev/stdout only inside a private mount namespace with a
#   tmpfs of its own on /dev: the real /dev is never written. Another
#   process's /proc/PID/fd/1 (a file here) is appended to.
# - Long names: a 250-byte file name works, a 300-byte one is refused in
#   one line naming the problem.
# - tagk-report with 70 inputs: no output replaces any of them.
# - A full disk (a 64 KiB tmpfs in a private mount namespace, skipped with
#   a message where namespaces are not allowed): every writer kind exits
#   non-zero with one line, the old file intact, no temporary left; HDF5
#   over a range of free space where the failure moves through the file,
#   each run either whole and readable or failed and clean.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
B=$(cd "$BIN" && pwd)

cp datasets/synth-payload.csv "$tmp/log.csv"
"$B/tagk-regress" "$tmp/log.csv" -o "$tmp/reg.csv" 2>/dev/null
"$B/tagk-estimate" -q -a kf-low "$tmp/reg.csv" -o "$tmp/est.csv" 2>/dev/null
# what each command writes to standard output: the bytes -o NAME must give
"$B/tagk-filter" "$tmp/log.csv" --from 1 > "$tmp/ref.csv"
"$B/tagk-report" "$tmp/est.csv" > "$tmp/ref.txt"
"$B/tagk-report" --plot "$tmp/ref.svg" "$tmp/est.csv" > /dev/null

# ---- names that stand for a descriptor, in a fake /dev -------------------
dev=$tmp/dev
mkdir "$dev"
ln -s /proc/self/fd/1 "$dev/stdout"
ln -s /proc/self/fd "$dev/fd"
ln -s stdout "$dev/out"            # a link to a link to a descriptor
ln -s /proc/self/fd/1 "$dev/x.svg"
mkfifo "$dev/fifo"
ln -s fifo "$dev/pipe"

# through NAME: run the command with stdout to red.txt; the bytes are the
# reference's, and NAME is what it was (a link, or a FIFO)
through() { # through LABEL NAME REF COMMAND...
	label=$1 node=$2 ref=$3
	shift 3
	rm -f "$tmp/red.txt"
	"$@" > "$tmp/red.txt" 2> "$tmp/err"
	rc=$?
	check "$label: exit 0 ($rc; $(head -1 "$tmp/err"))" [ $rc -eq 0 ]
	check "$label: the bytes reach the descriptor" cmp -s "$tmp/red.txt" "$ref"
	case $node in
	/proc/*) ;;
	*) check "$label: $node is still a link" [ -L "$node" ] ;;
	esac
}
through "-o dev/stdout" "$dev/stdout" "$tmp/ref.csv" "$B/tagk-filter" "$tmp/log.csv" --from 1 -o "$dev/stdout"
through "-o dev/fd/1" "$dev/fd" "$tmp/ref.csv" "$B/tagk-filter" "$tmp/log.csv" --from 1 -o "$dev/fd/1"
through "-o link to dev/stdout" "$dev/out" "$tmp/ref.csv" "$B/tagk-filter" "$tmp/log.csv" --from 1 -o "$dev/out"
through "-o /proc/self/fd/1" /proc/self/fd/1 "$tmp/ref.csv" "$B/tagk-filter" "$tmp/log.csv" --from 1 \
	-o /proc/self/fd/1
through "tagk-report -o dev/stdout" "$dev/stdout" "$tmp/ref.txt" "$B/tagk-report" "$tmp/est.csv" -o "$dev/stdout"
through "tagk-report --plot dev/x.svg" "$dev/x.svg" "$tmp/ref.svg" "$B/tagk-report" --plot "$dev/x.svg" \
	-o "$tmp/rep.txt" "$tmp/est.csv"

# another process's descriptor in /proc: appended to, not replaced, not
# --plot and -o naming one file, however written: each replaces the name
# when done, so one output was lost and the command said 0
mkdir "$tmp/pd"
expect "tagk-report --plot F -o F: refused, nothing written" 2 "" \
	"^tagk-report: --plot '$tmp/pd/x.svg' and -o '$tmp/pd/../pd/x.svg' name the same file" \
	-- "$B/tagk-report" "$tmp/est.csv" --plot "$tmp/pd/x.svg" -o "$tmp/pd/../pd/x.svg"
check "... and no file at that name" test ! -e "$tmp/pd/x.svg"
ln -s pd "$tmp/pdl"
expect "... through a link to the directory too" 2 "" "name the same file" \
	-- "$B/tagk-report" "$tmp/est.csv" --plot "$tmp/pdl/x.svg" -o "$tmp/pd/x.svg"
"$B/tagk-report" "$tmp/est.csv" --plot "$tmp/pd/x.svg" -o "$tmp/pd/x.txt" > /dev/null
check "... while two names in one directory are both written (svg and the report)" \
	sh -c "grep -q '<svg' '$tmp/pd/x.svg' && cmp -s '$tmp/pd/x.txt' '$tmp/ref.txt'"
# written over from the start (the file is in this test's directory)
if [ -e /proc/self/fd/1 ]; then
	printf 'kept\n' > "$tmp/other.txt"
	sleep 60 >> "$tmp/other.txt" &
	sleeper=$!
	# until the child has made its redirection (it starts with ours)
	n=0
	while [ "$(readlink "/proc/$sleeper/fd/1")" != "$(cd "$tmp" && pwd -P)/other.txt" ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	"$B/tagk-filter" "$tmp/log.csv" --from 1 -o "/proc/$sleeper/fd/1" > "$tmp/red.txt" 2> "$tmp/err"
	rc=$?
	kill $sleeper
	wait $sleeper 2>/dev/null
	{ echo kept; cat "$tmp/ref.csv"; } > "$tmp/want.txt"
	check "-o /proc/PID/fd/1 of another process: exit 0 ($rc; $(head -1 "$tmp/err"))" [ $rc -eq 0 ]
	check "... the rows appended to its file" cmp -s "$tmp/other.txt" "$tmp/want.txt"
else
	echo "skip -o /proc/PID/fd/1 of another process: /proc is not mounted"
fi

# written at the descriptor's offset, not over what is already there
{ echo first; "$B/tagk-filter" "$tmp/log.csv" --from 1 -o "$dev/fd/1"; } > "$tmp/red.txt" 2> "$tmp/err"
{ echo first; cat "$tmp/ref.csv"; } > "$tmp/want.txt"
check "-o dev/fd/1 writes after what the descriptor holds" cmp -s "$tmp/red.txt" "$tmp/want.txt"
# gzip through a descriptor: the name's .gz still asks for compression
ln -s /proc/self/fd/1 "$dev/x.csv.gz"
"$B/tagk-filter" "$tmp/log.csv" --from 1 -o "$dev/x.csv.gz" > "$tmp/red.gz" 2> "$tmp/err"
check "-o dev/x.csv.gz (a link to fd 1): gzip of the rows" sh -c "gzip -dc '$tmp/red.gz' | cmp -s - '$tmp/ref.csv'"
check "-o dev/x.csv.gz: still a link" [ -L "$dev/x.csv.gz" ]

# a FIFO, and a link to one: the reader gets the bytes, the node stays
for node in fifo pipe; do
	cat "$dev/fifo" > "$tmp/got" &
	reader=$!
	"$B/tagk-filter" "$tmp/log.csv" --from 1 -o "$dev/$node" > "$tmp/red.txt" 2> "$tmp/err"
	rc=$?
	wait $reader
	check "-o dev/$node (FIFO): exit 0" [ $rc -eq 0 ]
	check "-o dev/$node (FIFO): the reader gets the rows" cmp -s "$tmp/got" "$tmp/ref.csv"
	check "-o dev/$node (FIFO): nothing on stdout" [ ! -s "$tmp/red.txt" ]
	check "dev/fifo is still a FIFO" [ -p "$dev/fifo" ]
done
check "dev/pipe is still a link" [ -L "$dev/pipe" ]

# a descriptor that is not open, or only for reading: one line, exit 1
expect "-o dev/fd/7 (not open)" 1 "" "descriptor 7, which is not open" -- \
	"$B/tagk-filter" "$tmp/log.csv" -o "$dev/fd/7"
expect "-o dev/fd/0 (read only)" 1 "" "open for reading only" -- \
	sh -c "'$B/tagk-filter' '$tmp/log.csv' -o '$dev/fd/0' < '$tmp/log.csv'"
# nothing was created beside the fake /dev's links and FIFO
check "the fake /dev holds only what the test made" \
	[ "$(ls -A "$dev" | tr '\n' ' ')" = "fd fifo out pipe stdout x.csv.gz x.svg " ]

# a loop of links in the directory part: said as such
mkdir "$tmp/loop"
ln -s b "$tmp/loop/a"
ln -s a "$tmp/loop/b"
expect "-o through a loop of links" 1 "" "loop/a/x.csv: Too many levels of symbolic links" -- \
	"$B/tagk-filter" "$tmp/log.csv" -o "$tmp/loop/a/x.csv"

# ---- long names ----------------------------------------------------------
n250=$(printf '%0250d' 0)
expect "a 250-byte file name" 0 "" "" -- "$B/tagk-filter" "$tmp/log.csv" --from 1 -o "$tmp/$n250"
check "the 250-byte file holds the rows" cmp -s "$tmp/$n250" "$tmp/ref.csv"
check "no temporary left beside it" [ -z "$(ls -A "$tmp" | grep tmp)" ]
n300=$(printf '%0300d' 0)
expect "a 300-byte file name: one line saying so" 1 "" "the name is too long: a part of it has 300 bytes" -- \
	"$B/tagk-filter" "$tmp/log.csv" -o "$tmp/$n300"
check "the 300-byte name: one line" [ "$(wc -l < "$tmp/err")" -eq 1 ]

# ---- many inputs ---------------------------------------------------------
mkdir "$tmp/many"
i=1
while [ $i -le 70 ]; do cp "$tmp/est.csv" "$tmp/many/e$i.csv"; i=$((i + 1)); done
ln "$tmp/many/e67.csv" "$tmp/many/hard.csv"
ins=$(i=1; while [ $i -le 70 ]; do printf '%s ' "$tmp/many/e$i.csv"; i=$((i + 1)); done)
# shellcheck disable=SC2086
expect "tagk-report, 70 inputs, -o the 70th" 1 "" "is also an input" -- "$B/tagk-report" $ins -o "$tmp/many/e70.csv"
check "the 70th input is intact" cmp -s "$tmp/many/e70.csv" "$tmp/est.csv"
# shellcheck disable=SC2086
expect "tagk-report, 70 inputs, -o a hard link to the 67th" 1 "" "same file as the input" -- \
	"$B/tagk-report" $ins -o "$tmp/many/hard.csv"
check "the 67th input is intact" cmp -s "$tmp/many/e67.csv" "$tmp/est.csv"
# a symbolic link at the output's name is replaced, not followed
ln -s e68.csv "$tmp/many/link.csv"
# shellcheck disable=SC2086
expect "tagk-report, 70 inputs, -o a symlink to the 68th" 0 "" "" -- "$B/tagk-report" $ins -o "$tmp/many/link.csv"
check "the 68th input is intact" cmp -s "$tmp/many/e68.csv" "$tmp/est.csv"
check "the symlink was replaced by the report" [ ! -L "$tmp/many/link.csv" ] && [ -s "$tmp/many/link.csv" ]
# standard input among 70 plotted inputs: the figure's own limit answers,
# not a fixed table of 64 names
# shellcheck disable=SC2086
expect "tagk-report --plot, stdin and 70 inputs" 2 "" "at most 8 streams on one figure" -- \
	sh -c "'$B/tagk-report' --plot '$tmp/many/p.png' - $ins < '$tmp/est.csv'"
check "no temporary left among the inputs" [ -z "$(ls -A "$tmp/many" | grep tmp)" ]

# ---- in a private mount namespace: /dev/stdout itself, a full disk -------
cat > "$tmp/ns.sh" <<'EOF'
#!/bin/sh
# ns.sh B TMP: run in a private mount namespace; prints ok/FAIL lines.
B=$1 t=$2
# a /dev of our own: nothing done here reaches the real one
if ! mount -t tmpfs -o size=64k tagkdev /dev 2>/dev/null; then
	echo "skip /dev/stdout and full-disk tests: a private mount namespace here cannot mount a tmpfs"
	exit 0
fi
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd /dev/fd
"$B/tagk-filter" "$t/log.csv" --from 1 -o /dev/stdout > "$t/red.txt" 2> "$t/err.txt"
rc=$?
if [ $rc -ne 0 ]; then echo "FAIL -o /dev/stdout: exit $rc: $(head -1 "$t/err.txt")"
elif ! cmp -s "$t/red.txt" "$t/ref.csv"; then echo "FAIL -o /dev/stdout: the rows did not reach stdout"
elif [ ! -L /dev/stdout ]; then echo "FAIL -o /dev/stdout: /dev/stdout is no longer a link"
else echo "ok   -o /dev/stdout (a private /dev): the rows reach stdout, the link stays"; fi
umount /dev

mkdir -p "$t/full"
mount -t tmpfs -o size=64k tagkfull "$t/full" || { echo "FAIL cannot mount a 64k tmpfs"; exit 1; }
cd "$t" || exit 1
# full NAME OUT FILLKB COMMAND...: OUT holds OLD, FILLKB KiB of filler (all
# that fits when "all"); the command must fail in one line, OUT intact, no
# other file in full/
full() {
	name=$1 out=$2 fill=$3
	shift 3
	rm -f full/* full/.[!.]*
	printf 'OLD\n' > "full/$out"
	if [ "$fill" = all ]; then cat /dev/zero > full/filler 2>/dev/null
	else head -c $((fill * 1024)) /dev/zero > full/filler; fi
	"$@" > /dev/null 2> err.txt
	rc=$?
	left=$(ls -A full | grep -v -x -e "$out" -e filler | tr '\n' ' ')
	if [ $rc -eq 0 ]; then echo "FAIL $name (full disk): exit 0"
	elif [ "$(cat "full/$out")" != OLD ]; then echo "FAIL $name (full disk): the old file was replaced"
	elif [ -n "$left" ]; then echo "FAIL $name (full disk): left $left"
	elif [ "$(wc -l < err.txt)" -ne 1 ]; then echo "FAIL $name (full disk): $(wc -l < err.txt) lines on stderr"
	else echo "ok   $name (full disk): exit $rc, $(cat err.txt)"; fi
}
full "tagk-regress -o .csv" o.csv 0 "$B/tagk-regress" log.csv -o full/o.csv
full "tagk-regress -o .csv.gz" o.csv.gz 0 "$B/tagk-regress" log.csv -o full/o.csv.gz
full "tagk-regress -o .h5" o.h5 0 "$B/tagk-regress" log.csv -o full/o.h5
full "tagk-regress --stream binary -o" o.tkb 0 "$B/tagk-regress" log.csv --stream binary -o full/o.tkb
full "tagk-estimate -o" o.csv 0 "$B/tagk-estimate" -q -a kf-low reg.csv -o full/o.csv
full "tagk-filter -o .h5" o.h5 0 "$B/tagk-filter" log.csv -o full/o.h5
full "tagk-report -o" o.txt all "$B/tagk-report" est.csv -o full/o.txt
full "tagk-report --plot .png" o.png all "$B/tagk-report" --plot full/o.png -o rep.txt est.csv
full "tagk-report --plot .svg" o.svg all "$B/tagk-report" --plot full/o.svg -o rep.txt est.csv
full "tagk-report --plot .pdf" o.pdf all "$B/tagk-report" --plot full/o.pdf -o rep.txt est.csv
full "tagk-bench synth -o .csv" o.csv 0 "$B/tagk-bench" synth -o full/o.csv
full "tagk-bench synth -o .h5" o.h5 0 "$B/tagk-bench" synth -o full/o.h5
full "tagk-bench timing -o" o.txt all "$B/tagk-bench" timing -n 10 --methods tagk -u 10 -o full/o.txt

# HDF5 where the disk fills at every point of the file: a 1 MiB tmpfs
# less a filler, in 16 KiB steps from all-fits to nothing-fits. Each run
# is whole (exit 0, the rows read back equal the CSV's) or failed clean.
umount "$t/full"
mount -t tmpfs -o size=1m tagkfull "$t/full" || exit 1
"$B/tagk-filter" log.csv --to 2 > small.csv
bad=0 okrun=0 failrun=0 f=0
while [ $f -le 1024 ]; do
	rm -f full/* full/.[!.]*
	printf 'OLD\n' > full/o.h5
	head -c $((f * 1024)) /dev/zero > full/filler 2>/dev/null
	"$B/tagk-filter" small.csv -o full/o.h5 > /dev/null 2> err.txt
	rc=$?
	left=$(ls -A full | grep -v -x -e o.h5 -e filler | tr '\n' ' ')
	if [ $rc -eq 0 ]; then
		okrun=$((okrun + 1))
		"$B/tagk-filter" full/o.h5 2> rb.txt | grep -v '^#' > rb.csv
		if ! grep -v '^#' small.csv | cmp -s - rb.csv; then
			echo "FAIL HDF5 with $f KiB filled: exit 0 but the file reads back wrong: $(head -1 rb.txt)"; bad=1
		fi
	else
		failrun=$((failrun + 1))
		if [ "$(cat full/o.h5)" != OLD ] || [ -n "$left" ] || [ "$(wc -l < err.txt)" -ne 1 ]; then
			echo "FAIL HDF5 with $f KiB filled: exit $rc, old $(head -c 3 full/o.h5 | tr -dc A-Z), left [$left]"; bad=1
		fi
	fi
	f=$((f + 16))
done
if [ $okrun -eq 0 ] || [ $failrun -eq 0 ]; then echo "FAIL HDF5 sweep: $okrun whole, $failrun failed: not a sweep"
elif [ $bad -eq 0 ]; then echo "ok   HDF5 sweep: $okrun runs whole and read back, $failrun failed clean"; fi
EOF

if [ "$(id -u)" -eq 0 ]; then ns="unshare --mount --propagation private"
else ns="unshare --mount --map-root-user --propagation private"; fi
if $ns true 2>/dev/null; then
	$ns sh "$tmp/ns.sh" "$B" "$tmp" > "$tmp/ns.out" 2>&1
	while IFS= read -r line; do
		case $line in
		ok*) pass=$((pass + 1)); echo "$line" ;;
		skip*) echo "$line" ;;
		*) fail=$((fail + 1)); echo "$line" ;;
		esac
	done < "$tmp/ns.out"
else
	echo "skip /dev/stdout and full-disk tests: no private mount namespace here ($ns refused)"
fi
finish
