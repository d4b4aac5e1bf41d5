#!/bin/sh
# check_lib_symbols.sh OBJECT...: fail if lib/ code references anything but
# libm, freestanding string routines and the compiler's own runtime helpers
# (__aeabi_* on ARM) -- no heap, stdio, exit or clocks -- so
# that the same objects link on a bare-metal Cortex-M7. Symbols that lib/
# defines itself are not external and are left out. On x86-64 hosts the
# AVX2 dispatch (__builtin_cpu_supports, under __x86_64__ only) reads the
# compiler runtime's __cpu_model, through the GOT (_GLOBAL_OFFSET_TABLE_,
# the linker's own): neither can appear in an M7 object. pow: the
# Newey-West bandwidth rule (lib/hac.c), in newlib's libm as in glibc's.
set -eu
allowed='^(__aeabi_[a-z0-9]+|memcpy|memset|memmove|strcmp|sqrt|sqrtf|log|logf|cos|cosf|sin|sinf|sincos|sincosf|atan2|atan2f|pow|powf|__stack_chk_fail|__stack_chk_guard|__cpu_model|_GLOBAL_OFFSET_TABLE_)$'
tmp=${TMPDIR:-/tmp}/tagk-syms.$$
trap 'rm -f "$tmp".u "$tmp".d' EXIT
nm -u "$@" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u > "$tmp".u
nm --defined-only "$@" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u > "$tmp".d
ext=$(comm -23 "$tmp".u "$tmp".d)
bad=$(printf '%s\n' "$ext" | grep -Ev "$allowed" | grep . || true)
if [ -n "$bad" ]; then
	echo "check_lib_symbols: lib/ references symbols outside libm and string.h:" >&2
	printf '%s\n' "$bad" | sed 's/^/  /' >&2
	exit 1
fi
echo "check_lib_symbols: lib/ uses only: $(printf '%s ' $ext)- ok"
