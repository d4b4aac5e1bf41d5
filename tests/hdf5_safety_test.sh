#!/bin/sh
# hdf5_safety_test.sh: an HDF5 input reads only itself. Files that point
# outside themselves (external storage, virtual datasets, external and
# user-defined links, soft links through them, to groups, in loops or to
# nothing), written by build/mkh5links into this script's temporary
# directory, are refused by name; soft links to datasets are read; and
# with the reader's checks turned off (TAGK_HDF5_TEST_SKIP_CHECKS=1, for
# tests only) the confinement of the reader's child (Landlock, seccomp)
# still stops libhdf5 opening the other file. The other files' values
# (7001..7008 in secret.bin, 5001..5008 in src.h5) must never show.
set -u
BIN=${BIN:-bin}
MKH5=${MKH5:-build/mkh5links}
NOSANDBOX=${NOSANDBOX:-build/nosandbox}
. "$(dirname "$0")/lib.sh"
F=$BIN/tagk-filter R=$BIN/tagk-regress

"$MKH5" "$tmp" || { echo "FAIL mkh5links"; exit 1; }
refuse="tagk reads only the file it is given"
# the values 0..7 the crafted files hold themselves, one column
seq 0 7 > "$tmp/t.txt"
# expect, keeping every output and message for the last check
: > "$tmp/all.txt"
expect_kept() {
	expect "$@"
	cat "$tmp/out" "$tmp/err" >> "$tmp/all.txt"
}
column_of() { # column_of FILE NAME: the column NAME of a CSV tagk wrote, header dropped
	awk -F, -v n="$2" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == n) c = i; h = 1; next } { print $c }' "$1"
}

# --- bytes kept outside the file -------------------------------------------
expect_kept "external storage (H5Pset_external) is refused, naming the dataset and the file" 1 "" \
	"^tagk-filter: $tmp/ext.h5: dataset 'x' keeps its rows in another file, '$tmp/secret.bin' \(external storage\): $refuse$" \
	-- $F "$tmp/ext.h5"
expect_kept "... by tagk-regress too" 1 "" "ext.h5: dataset 'x' keeps its rows in another file" -- $R "$tmp/ext.h5"
# HDF5 is never read from a pipe; standard input redirected from a file
# is, by the name /dev/stdin, and checked and confined the same way
expect_kept "... and read as /dev/stdin, redirected from the file" 1 "" \
	"^tagk-filter: /dev/stdin: dataset 'x' keeps its rows in another file, '$tmp/secret.bin'" \
	-- sh -c "$F /dev/stdin < '$tmp/ext.h5'"
# the issue's reproducer: 2^33 rows of /dev/zero in a 1.4 kB file streamed
# 1.3e9 rows; refused before any is read (timeout 20 exits 124)
expect_kept "external storage in /dev/zero, 2^33 rows: refused at once" 1 "" \
	"extzero.h5: dataset 'x' keeps its rows in another file, '/dev/zero' \(external storage\)" \
	-- timeout 20 $F "$tmp/extzero.h5"
expect_kept "a virtual dataset (H5Pset_virtual) of another file is refused, naming both" 1 "" \
	"^tagk-filter: $tmp/vds.h5: dataset 'v' is a virtual dataset reading '/data' in another file, '$tmp/src.h5': $refuse$" \
	-- $F "$tmp/vds.h5"
expect_kept "... and one whose source file is missing (libhdf5 reads fill values)" 1 "" \
	"vdsmissing.h5: dataset 'v' is a virtual dataset reading '/data' in another file, '$tmp/nosuch.h5'" \
	-- $F "$tmp/vdsmissing.h5"
$F "$tmp/vdsself.h5" > "$tmp/vdsself.csv"
{ column_of "$tmp/vdsself.csv" t; column_of "$tmp/vdsself.csv" v; } > "$tmp/vdsself.got"
check "a virtual dataset of its own file ('.') is read: t and v are both 0..7" \
	sh -c "cat '$tmp/t.txt' '$tmp/t.txt' | cmp -s - '$tmp/vdsself.got'"
expect_kept "pandas' block0_items (column names, read before any value) in another file: refused" 1 "" \
	"pandasitems.h5: dataset 'block0_items' keeps its rows in another file, '$tmp/secret.bin'" \
	-- $F "$tmp/pandasitems.h5"

# --- links ------------------------------------------------------------------
expect_kept "an external link to a dataset is refused, naming the link, its file and object" 1 "" \
	"^tagk-filter: $tmp/elink.h5: link 'x' is an external link to '/data' in another file, '$tmp/src.h5': $refuse$" \
	-- $F "$tmp/elink.h5"
expect_kept "an external link to a group (its datasets would be read from there)" 1 "" \
	"elinkgrp.h5: link 'g' is an external link to '/g' in another file, '$tmp/src.h5'" -- $F "$tmp/elinkgrp.h5"
expect_kept "... and --group naming it" 1 "" \
	"elinkgrp.h5: group 'g' is an external link to '/g' in another file, '$tmp/src.h5'" \
	-- $F --group g "$tmp/elinkgrp.h5"
expect_kept "an external link two groups down" 1 "" \
	"elinknested.h5: link 'imu/deep/x' is an external link to '/data' in another file" -- $F "$tmp/elinknested.h5"
expect_kept "a user-defined link is refused by its kind" 1 "" \
	"udlink.h5: link 'u' is a user-defined link \(type 100\)" -- $F "$tmp/udlink.h5"
expect_kept "a soft link whose path goes through an external link outside the group read" 1 "" \
	"softviaelink.h5: link 's' goes through '/e', an external link to '/' in another file, '$tmp/src.h5'" \
	-- $F --group g "$tmp/softviaelink.h5"
expect_kept "a soft link loop is refused, not followed forever" 1 "" \
	"softloop.h5: link 'a' leads round a loop of soft links" -- timeout 20 $F "$tmp/softloop.h5"
expect_kept "a dangling soft link is refused, naming its target" 1 "" \
	"softdangling.h5: link 'd' leads to '/nope', which does not exist" -- $F "$tmp/softdangling.h5"
expect_kept "a soft link to a group is refused, naming the --group that reads it" 1 "" \
	"softgrp.h5: link 's' is a soft link to the group '/g': .*--group /g" -- $F "$tmp/softgrp.h5"
$F "$tmp/softgrp.h5" --group s > "$tmp/softgrp.csv"
column_of "$tmp/softgrp.csv" t > "$tmp/softgrp.t"
check "--group through a soft link reads the group it names (t = 0..7)" cmp -s "$tmp/softgrp.t" "$tmp/t.txt"
$F "$tmp/softds.h5" > "$tmp/softds.csv"
column_of "$tmp/softds.csv" alias > "$tmp/softds.alias"
check "a soft link to a dataset is read under the link's name (alias = x's 0..7)" cmp -s "$tmp/softds.alias" "$tmp/t.txt"
check "... after the group's own datasets (t,x,alias)" \
	sh -c "grep -v '^#' '$tmp/softds.csv' | head -1 | grep -qx 't,x,alias'"
$F "$tmp/softrel.h5" > "$tmp/softrel.csv"
column_of "$tmp/softrel.csv" g/alias > "$tmp/softrel.alias"
check "... and a relative one (g/alias -> x) reads g/x" cmp -s "$tmp/softrel.alias" "$tmp/t.txt"

# --- the confinement under the checks ---------------------------------------
# TAGK_HDF5_TEST_SKIP_CHECKS=1 turns the checks above off, in a confined
# child only: what stops libhdf5 then is the confinement alone.
if $F "$tmp/softds.h5" 2>&1 >/dev/null | grep -q "runs less confined"; then
	echo "skip the confinement checks: this kernel cannot confine the HDF5 reader ($($F "$tmp/softds.h5" 2>&1 >/dev/null))"
else
	expect_kept "checks off: the confined reader refuses libhdf5's open of the external file, naming it" 1 "" \
		"^tagk-filter: $tmp/ext.h5: the HDF5 library tried to open another file, '$tmp/secret.bin': refused" \
		-- env TAGK_HDF5_TEST_SKIP_CHECKS=1 $F "$tmp/ext.h5"
	expect_kept "checks off, the file as /dev/stdin: the confinement holds (Landlock's rule is the file's inode)" 1 "" \
		"^tagk-filter: /dev/stdin: the HDF5 library tried to open another file, '$tmp/secret.bin': refused" \
		-- sh -c "TAGK_HDF5_TEST_SKIP_CHECKS=1 $F /dev/stdin < '$tmp/ext.h5'"
	expect_kept "checks off: /dev/zero's 2^33 rows are not streamed" 1 "" "tried to open another file, '/dev/zero'" \
		-- env TAGK_HDF5_TEST_SKIP_CHECKS=1 timeout 20 $F "$tmp/extzero.h5"
	# libhdf5 reads a virtual dataset whose source it cannot open as fill
	# values: the refused open fails the read instead
	expect_kept "checks off: a virtual dataset's source is not opened, and no fill values stand in" 1 "" \
		"vds.h5: the HDF5 library tried to open another file, '$tmp/src.h5': refused" \
		-- env TAGK_HDF5_TEST_SKIP_CHECKS=1 $F "$tmp/vds.h5"
	expect_kept "checks off: pandas' names are not read from another file either" 1 "" \
		"pandasitems.h5: the HDF5 library tried to open another file, '$tmp/secret.bin'" \
		-- env TAGK_HDF5_TEST_SKIP_CHECKS=1 $F "$tmp/pandasitems.h5"
	expect_kept "TAGK_REQUIRE_SANDBOX=1 on a kernel that confines: the log is read" 0 "^t,x,alias$" "" \
		-- env TAGK_REQUIRE_SANDBOX=1 $F "$tmp/softds.h5"
fi

# --- where the kernel cannot confine ------------------------------------------
# build/nosandbox runs a command as a kernel without Landlock and seccomp
# would: both calls fail with ENOSYS (its own seccomp filter)
if [ -x "$NOSANDBOX" ] && "$NOSANDBOX" true 2>/dev/null; then
	expect_kept "no Landlock, no seccomp: the log is read, with one note saying the reader is not confined" 0 "^t,x,alias$" \
		"^tagk-filter: note: $tmp/softds.h5: the HDF5 reader runs less confined than it can \(Landlock: not in this kernel; seccomp: Function not implemented\): see tagk-formats\(5\)$" \
		-- "$NOSANDBOX" $F "$tmp/softds.h5"
	expect_kept "... TAGK_REQUIRE_SANDBOX=1 makes it an error" 1 "" \
		"^tagk-filter: $tmp/softds.h5: the HDF5 reader cannot be confined \(Landlock: not in this kernel\) and TAGK_REQUIRE_SANDBOX=1 asks it to be$" \
		-- env TAGK_REQUIRE_SANDBOX=1 "$NOSANDBOX" $F "$tmp/softds.h5"
	expect_kept "... and the test switch does not turn the checks off unconfined" 1 "" \
		"ext.h5: dataset 'x' keeps its rows in another file" \
		-- env TAGK_HDF5_TEST_SKIP_CHECKS=1 "$NOSANDBOX" $F "$tmp/ext.h5"
	expect_kept "Landlock alone (no seccomp) still stops the external file's open" 1 "" \
		"ext.h5: cannot read dataset rows 0" \
		-- env TAGK_HDF5_TEST_SKIP_CHECKS=1 NOSANDBOX_KEEP_LANDLOCK=1 "$NOSANDBOX" $F "$tmp/ext.h5"
	expect_kept "... and lets the file itself be read, named as /dev/stdin too" 0 "^t,x$" "seccomp: Function not implemented" \
		-- sh -c "TAGK_HDF5_TEST_SKIP_CHECKS=1 NOSANDBOX_KEEP_LANDLOCK=1 '$NOSANDBOX' $F /dev/stdin < '$tmp/softds.h5'"
else
	echo "skip the no-confinement checks: $NOSANDBOX cannot run here"
fi

# nothing above may have printed the other files' values
check "no output or message carried the other files' values (7001.., 5001..)" \
	sh -c "! cat '$tmp'/*.csv '$tmp/all.txt' | grep -Eq '(700|500)[1-8]'"

echo "hdf5_safety: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
