#!/bin/sh
# targets.sh DOUBLE.csv FLOAT.csv: TAG-K's instructions per update under
# QEMU against issue 17's targets (at most 72,000 at n = 40 and 150,000 at
# n = 120, in double), and float against double at every n.
awk -F, '
	FNR == 1 { file++ }
	/^row/ && $3 == "tagk" { t[file, $6] = $8; if (file == 1 && !seen[$6]++) ns[++nn] = $6 }
	END {
		print "TAG-K instructions per update against issue 17 targets (double; float no slower than double):"
		printf "%4s %10s %10s %8s %5s %10s %12s\n", "n", "double", "target", "met", "", "float", "float<=double"
		for (i = 1; i <= nn; i++) {
			n = ns[i]; d = t[1, n]; f = t[2, n]
			tgt = n == 40 ? 72000 : n == 120 ? 150000 : 0
			printf "%4s %10d %10s %8s %5s %10d %12s\n", n, d, tgt ? tgt : "-",
			    tgt ? (d <= tgt ? "yes" : "no") : "-", "", f, f <= d ? "yes" : "no"
		}
	}' "$1" "$2"
