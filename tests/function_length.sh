#!/bin/sh
# function_length.sh [LIMIT] DIR...: every C or C++ function in DIR/*.c and
# DIR/*.cpp whose body runs over LIMIT lines (default 120) unless the
# comment above it gives a reason starting "Long:". A function is a line at
# column 0 holding a name and "(" (the C house style puts the name alone,
# C++ "type name(") with its body's "{" and "}" at column 0. Lambdas and
# member functions count within the function or namespace around them.
# Prints "FILE:LINE NAME LINES" for each and exits 1 if there is one.
set -eu
limit=120
case "${1:-}" in [0-9]*) limit=$1; shift ;; esac
bad=$(for d in "$@"; do for f in "$d"/*.c "$d"/*.cpp; do
	[ -f "$f" ] || continue
	awk -v f="$f" -v limit="$limit" '
	/^[A-Za-z_][^;=]*\(/ && !/^(struct|typedef|extern|namespace|#)/ {
		name = $0; sub(/\(.*/, "", name); sub(/.*[ *&]/, "", name); at = NR; reason = long
	}
	/^\{/ && at { open = NR }
	/^\}/ && open {
		if (NR - open - 1 > limit && !reason) print f ":" at " " name " " NR - open - 1
		open = 0; at = 0
	}
	/^\/\*/ { long = 0 }
	/Long:/ { long = 1 }
	/^$/ { long = 0 }
	' "$f"
done; done)
if [ -n "$bad" ]; then
	echo "function_length: over $limit lines without a reason (a comment saying \"Long: ...\" above it):"
	printf '%s\n' "$bad" | sed 's/^/  /'
	exit 1
fi
echo "function_length: no function in $* over $limit lines without a written reason - ok"
