#!/bin/sh
# memory_test.sh: the commands that read a whole stream keep their memory
# flat as it grows (tagk-bench memory: the kernel's peak resident memory),
# through the optimised binaries: ASan's quarantine would blur the
# figures. Temporaries go to this script's directory ($TMPDIR).
set -u
BIN=${MEMBIN:-bin}
. "$(dirname "$0")/lib.sh"
# from 100000 rows, past the 65536 the summary holds before it spills
$BIN/tagk-bench memory --rows 100000,400000 > "$tmp/mem.txt" 2>&1 || { echo "FAIL tagk-bench memory: $(tail -1 "$tmp/mem.txt")"; exit 1; }
for what in "tagk-report (summary)" "tagk-report (scores)" "tagk-estimate --batch -a ols" "tagk-filter (read, write)"; do
	g=$(awk -v w="$what" 'substr($0, 1, length(w)) == w && $(NF - 3) == 400000 { print $(NF - 1) }' "$tmp/mem.txt")
	check "$what: peak memory at 400000 rows is $g times that at 100000 (at most 1.25)" \
		awk -v g="$g" 'BEGIN { exit !(g != "" && g <= 1.25) }'
done
# past 65536 estimates the summary's quantiles come from its spill file, by
# radix selection: the same order statistics as NumPy's sort
PY=/usr/bin/python3
if [ -x $PY ] && $PY -c 'import numpy' 2>/dev/null; then
	$PY -c '
import numpy as np
rng = np.random.default_rng(3)
n = 200003
t = np.arange(n) * 0.01
m = 0.035 + 0.01 * rng.standard_t(2, n)
m[10] = -0.0; m[11] = 0.0; m[12:20] = 0.035
with open("'"$tmp"'/long.csv", "w") as f:
    f.write("t,m\n")
    f.writelines("%r,%r\n" % (float(a), float(b)) for a, b in zip(t, m))
q = np.quantile(m, [0.5, 0.25, 0.75])
open("'"$tmp"'/long.want", "w").write(" ".join(repr(float(x)) for x in q) + "\n")
'
	$BIN/tagk-report --format json "$tmp/long.csv" > "$tmp/long.json"
	check "the summary of 200003 estimates (spilled to disk): median and quartiles equal NumPy's, bit for bit" \
		$PY -c '
import json, sys
r = json.load(open(sys.argv[1]))["parameters"][0]
w = [float(x) for x in open(sys.argv[2]).read().split()]
g = [r["median"], r["q1"], r["q3"]]
sys.exit(g != w)' "$tmp/long.json" "$tmp/long.want"
else
	echo "skip the spilled summary against NumPy: no python3-numpy"
fi
finish
