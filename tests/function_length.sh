#!/bin/sh
# function_length.sh [LIMIT] DIR...: every C or C++ function in DIR/*.c and
# DIR/*.cpp whose body runs over LIMIT lines (default 120) unless the
# comment above it gives a reason starting "Long:", or tests/function_length.allow
# names it (FILE FUNCTION REASON; FUNCTION * for every function of FILE:
# a file another branch is restructuring). The Makefile's check-lib runs it
# on every layer's C: lib/, formats/, cmd/, bench/ and tests/ (generated
# headers such as lib/cnn_weights.h hold no functions). A function is a line at
# column 0 holding a name and "(" (the C house style puts the name alone,
# C++ "type name(") with its body's "{" and "}" at column 0. Lambdas and
# member functions count within the function or namespace around them.
# Prints "FILE:LINE NAME LINES" for each and exits 1 if there is one.
set -eu
limit=120
case "${1:-}" in [0-9]*) limit=$1; shift ;; esac
allow=$(dirname "$0")/function_length.allow
bad=$(for d in "$@"; do for f in "$d"/*.c "$d"/*.cpp; do
	[ -f "$f" ] || continue
	awk -v f="$f" -v limit="$limit" -v allow="$allow" '
	BEGIN {
		while ((getline line < allow) > 0) {
			if (line ~ /^#/ || line !~ /[^ \t]/) continue
			split(line, w, /[ \t]+/)
			if (w[1] == f) ok[w[2]] = 1
		}
	}
	/^[A-Za-z_][^;=]*\(/ && !/^(struct|typedef|extern|namespace|#)/ {
		name = $0; sub(/\(.*/, "", name); sub(/.*[ *&]/, "", name); at = NR; reason = long
	}
	/^\{/ && at { open = NR }
	/^\}/ && open {
		if (NR - open - 1 > limit && !reason && !(name in ok) && !("*" in ok)) print f ":" at " " name " " NR - open - 1
		open = 0; at = 0
	}
	/^\/\*/ { long = 0 }
	/Long:/ { long = 1 }
	/^$/ { long = 0 }
	' "$f"
done; done)
if [ -n "$bad" ]; then
	echo "function_length: over $limit lines without a reason (a comment saying \"Long: ...\" above it, or a line in tests/function_length.allow):"
	printf '%s\n' "$bad" | sed 's/^/  /'
	exit 1
fi
echo "function_length: no function in $* over $limit lines without a written reason - ok"
