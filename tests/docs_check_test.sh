#!/bin/sh
# docs_check_test.sh: tests/docs_check.sh (make docs-check) passes a figure
# its command prints, within the tolerance written, and reports one that no
# longer comes out, a failing command and a slow one, with exit status 1.
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
expect "docs-check: figures as printed pass" 0 "ok .*good.7:1 \(3 figures" "" -- sh tests/docs_check.sh "$tmp/good.7"
expect "docs-check: a stale figure is named with the nearest number" 1 "stale.md:1: echo 3.43" "" -- sh tests/docs_check.sh "$tmp/stale.md"
expect "docs-check: ... and what it printed instead" 1 "3.1: not in the output \(nearest 3.43\)" "" -- sh tests/docs_check.sh "$tmp/stale.md"
expect "docs-check: a failing command fails its figures" 1 "FAIL .*broken.7:1: exit 3" "" -- sh tests/docs_check.sh "$tmp/broken.7"
expect "docs-check: a run time over its bound is reported" 1 "time<1: took 2 s" "" -- sh tests/docs_check.sh "$tmp/broken.7"
expect "docs-check: the summary counts the figures" 1 "4 commands, 7 figures, 3 not as quoted" "" -- sh tests/docs_check.sh "$tmp/good.7" "$tmp/stale.md" "$tmp/broken.7"
finish
