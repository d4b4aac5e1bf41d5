#!/bin/sh
# table.sh CSV: the Table III shape from the device benchmark's CSV lines:
# instructions (or cycles) per update at m = 30, and TAG-K's speedups over
# the paper's forms and over the best forms.
awk -F, '
	/^#/ && !/done/ { print; next }
	/^row/ { t[$3, $6] = $8; if (!seen[$6]++) ns[++nn] = $6 }
	END {
		printf "\n%4s %14s %14s %14s %14s %13s %13s %13s %10s | %9s %9s %9s %9s %9s\n", "n",
		    "rls-low(paper)", "rls-high(ppr)", "kf-low(Jsph)", "kf-high(Jsph)", "rls-low(info)",
		    "kf-low(info)", "kf-low(ddt)", "tagk", "x rls-ppr", "x kf-Jsph", "x rls-inf", "x kf-info", "x kf-ddt"
		for (i = 1; i <= nn; i++) {
			n = ns[i]; g = t["tagk", n]
			printf "%4s %14d %14d %14d %14d %13d %13d %13d %10d | %8.1fx %8.1fx %8.1fx %8.1fx %8.1fx\n", n,
			    t["rls-low:paper", n], t["rls-high:paper", n], t["kf-low:joseph", n],
			    t["kf-high:joseph", n], t["rls-low:info", n], t["kf-low:info", n], t["kf-low:downdate", n], g,
			    t["rls-low:paper", n] / g, t["kf-low:joseph", n] / g, t["rls-low:info", n] / g,
			    (t["kf-low:info", n] ? t["kf-low:info", n] / g : 0), t["kf-low:downdate", n] / g
		}
	}' "$1"
