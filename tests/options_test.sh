#!/bin/sh
# options_test.sh: every command's options, three ways: the getopt table
# in its source, its --help (one line per option) and its man page
# (SYNOPSIS and OPTIONS). An option added to one and not the others fails.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
for c in tagk-regress tagk-estimate tagk-filter tagk-report; do
	src=cmd/${c#tagk-}/$c.c
	{
		grep -oE '\{ "[a-z0-9-]+", (no|required|optional)_argument' "$src"
		# the shared option groups, expanded (CMDIO_OPTIONS_END holds both)
		for m in CMDIO_OPTIONS_END CMDIO_INPUT_OPTIONS CMDIO_OUTPUT_OPTIONS; do
			{ grep -q "$m," "$src" || { [ $m != CMDIO_OPTIONS_END ] && grep -q CMDIO_OPTIONS_END, "$src"; }; } && awk -v m="$m" '$0 ~ "#define " m { on = 1 } on; on && !/\\$/ { on = 0 }' cmd/common/cmdio.h \
				| grep -oE '\{ "[a-z0-9-]+", (no|required|optional)_argument'
		done
	} | sed -E 's/^\{ "([^"]+)".*/--\1/' | sort -u > "$tmp/$c.src"
	"$BIN/$c" --help | grep -E '^  ' | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u > "$tmp/$c.help"
	awk '/^\.SH / { keep = ($2 == "SYNOPSIS" || $2 == "OPTIONS") } keep' "man/$c.1" \
		| grep -oE -- '\\-\\-[a-z0-9][a-z0-9-]*' | sed 's/\\-/-/g' | sort -u > "$tmp/$c.man"
	check "$c: --help lists every option of the source, and no other ($(comm -3 "$tmp/$c.src" "$tmp/$c.help" | tr -d '\t' | tr '\n' ' '))" \
		cmp -s "$tmp/$c.src" "$tmp/$c.help"
	check "$c: the man page lists every option of the source, and no other ($(comm -3 "$tmp/$c.src" "$tmp/$c.man" | tr -d '\t' | tr '\n' ' '))" \
		cmp -s "$tmp/$c.src" "$tmp/$c.man"
	check "$c: --help lines fit 100 columns" sh -c "! '$BIN/$c' --help | awk 'length > 100' | grep -q ."
done
# tagk-bench: each subcommand's getopt table (in the function that runs it)
# against its --help
for pair in timing:cmd_timing synth:cmd_synth pipeline:cmd_pipeline io-floor:cmd_iofloor device:cmd_device \
	simulate:bench_simulate table2:bench_table2 ablation:bench_ablation massflight:bench_massflight \
	rmspe:bench_rmspe grasp:bench_grasp grasp-table:bench_grasp_table shake:bench_shake \
	shake-table:bench_shake_table coordinv:bench_coordinv excite:excite_parse; do
	sub=${pair%%:*} fn=${pair#*:}
	cat bench/tagk-bench.c bench/bench_pipeline.c bench/bench_iofloor.c bench/bench_sim.c bench/bench_mass.c bench/bench_grasp.c bench/grasp_table.c bench/bench_shake.c bench/bench_coordinv.c bench/bench_excite.c | awk -v fn="$fn" '
		$0 ~ "^" fn "\\(int argc" { on = 1 } on && /^}/ { on = 0 }
		on && match($0, /\{ "[a-z0-9-]+", (no|required)_argument/) { s = substr($0, RSTART + 3); sub(/".*/, "", s); print "--" s }' \
		> "$tmp/b_$sub.raw"
	# table2 takes the protocol's settings too (bench/bench_protocol.c)
	[ "$sub" = table2 ] && grep -oE '\{ "[a-z0-9-]+", required_argument' bench/bench_protocol.c \
		| sed -E 's/^\{ "([^"]+)".*/--\1/' >> "$tmp/b_$sub.raw"
	sort -u "$tmp/b_$sub.raw" > "$tmp/b_$sub.src"
	"$BIN/tagk-bench" "$sub" --help | grep -E '^  ' | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u > "$tmp/b_$sub.help"
	awk '/^\.SH / { keep = ($2 == "SYNOPSIS" || $2 == "OPTIONS") } keep' man/tagk-bench.1 \
		| grep -oE -- '\\-\\-[a-z0-9][a-z0-9-]*' | sed 's/\\-/-/g' | sort -u > "$tmp/b_man"
	check "tagk-bench $sub: the man page names every option of its table ($(comm -23 "$tmp/b_$sub.src" "$tmp/b_man" | tr '\n' ' '))" \
		sh -c "test -z \"\$(comm -23 '$tmp/b_$sub.src' '$tmp/b_man')\""
	check "tagk-bench $sub: --help lists every option of its table, and no other ($(comm -3 "$tmp/b_$sub.src" "$tmp/b_$sub.help" | tr -d '\t' | tr '\n' ' '))" \
		sh -c "test -s '$tmp/b_$sub.src' && cmp -s '$tmp/b_$sub.src' '$tmp/b_$sub.help'"
done
finish
