#!/bin/sh
# docs_check_test.sh: tests/docs_check.sh (make docs-check) passes a figure
# its command prints, within the tolerance written, and reports one that no
# longer comes out, a failing command and a slow one, with exit status 1;
# a quoted table passes row by row, and one stale cell fails its row.
. tests/lib.sh
cat > "$tmp/good.7" <<'PAGE'
.\" docs-check: echo 'mean 0.03434, final 104.6' | awk '{ print $2 * 100 }'; echo 104.6
.\" docs-want: 3.43 105+-1 100+-5%
PAGE
cat > "$tmp/stale.md" <<'PAGE'
<!-- docs-check: echo 3.43 -->
<!-- docs-want: 3.1 -->
PAGE
cat > "$tmp/broken.7" <<'PAGE'
.\" docs-check: sh -c 'sleep 2; exit 3'
.\" docs-want: 1
.\" docs-check: sleep 2; echo 7
.\" docs-want: 7 time<1
PAGE
# a table as a command prints it (log201 and HDF5 are names, not figures;
# the italic row is the paper's and is not compared; the time column has a
# factor of 2); then one cell gone stale, one time out of its factor, and
# a digest table whose numbers need only appear somewhere
printf 'log201 hdf5 0.0407 12.5 3.0\nlog182 hdf5 0.0543 12.25 9.0\n' > "$tmp/table.out"
cat > "$tmp/table.7" <<PAGE
.\" docs-check: cat $tmp/table.out
.\" docs-table: 3=*2
.TS
tab(@);
l l r r.
T{
log
T}@T{
format
T}@T{
mass (kg), p95
T}@T{
time (s)
T}
_
T{
log201
T}@T{
HDF5
T}@T{
0.0407
T}@T{
12.5 5
T}
T{
\f[I]paper\f[R]
T}@T{
T}@T{
\f[I]0.0400\f[R]
T}@T{
T}
T{
log182
T}@T{
HDF5
T}@T{
0.0543
T}@T{
12.25 18
T}
.TE
PAGE
sed 's/12.25 18/12.26 18/' "$tmp/table.7" > "$tmp/stalecell.7"
sed 's/12.5 5/12.5 7/' "$tmp/table.7" > "$tmp/slow.7"
printf '<!-- docs-check: cat %s -->\n<!-- docs-table: any -->\n```\n3.0 9.0 0.0543\n```\n' "$tmp/table.out" > "$tmp/digest.md"
sed 's/9.0 0.0543/9.0 0.0544/' "$tmp/digest.md" > "$tmp/digest-stale.md"
expect "docs-check: a table as printed passes row by row" 0 "ok .*table.7:1 \(2 figures" "" -- sh tests/docs_check.sh "$tmp/table.7"
expect "docs-check: one stale cell fails its row" 1 "stalecell.7:.*row not in the output: log182 [|] HDF5 [|] 0.0543 [|] 12.26 18" "" -- sh tests/docs_check.sh "$tmp/stalecell.7"
expect "docs-check: ... and names the nearest line" 1 "nearest \(1 of 3 numbers\): log182 hdf5 0.0543 12.25 9.0" "" -- sh tests/docs_check.sh "$tmp/stalecell.7"
expect "docs-check: a time out of its factor of 2 fails" 1 "row not in the output: log201 [|] HDF5 [|] 0.0407 [|] 12.5 7" "" -- sh tests/docs_check.sh "$tmp/slow.7"
expect "docs-check: a digest table's numbers anywhere in the output" 0 "ok .*digest.md:1 \(1 figures" "" -- sh tests/docs_check.sh "$tmp/digest.md"
expect "docs-check: ... and one that is not there" 1 "missing: 0.0544" "" -- sh tests/docs_check.sh "$tmp/digest-stale.md"
expect "docs-check: -g runs only the commands it names" 0 "0 commands, 0 figures" "" -- sh tests/docs_check.sh -g nomatch "$tmp/stale.md"
expect "docs-check: figures as printed pass" 0 "ok .*good.7:1 \(3 figures" "" -- sh tests/docs_check.sh "$tmp/good.7"
expect "docs-check: a stale figure is named with the nearest number" 1 "stale.md:1: echo 3.43" "" -- sh tests/docs_check.sh "$tmp/stale.md"
expect "docs-check: ... and what it printed instead" 1 "3.1: not in the output \(nearest 3.43\)" "" -- sh tests/docs_check.sh "$tmp/stale.md"
expect "docs-check: a failing command fails its figures" 1 "FAIL .*broken.7:1: exit 3" "" -- sh tests/docs_check.sh "$tmp/broken.7"
expect "docs-check: a run time over its bound is reported" 1 "time<1: took [23] s" "" -- sh tests/docs_check.sh "$tmp/broken.7"
expect "docs-check: the summary counts the figures" 1 "4 commands, 7 figures, 3 not as quoted" "" -- sh tests/docs_check.sh "$tmp/good.7" "$tmp/stale.md" "$tmp/broken.7"
finish
