#!/bin/sh
# add_method_test.sh: adding a method is one new file and one registry row.
#
# Copies the source tree, adds lib/zero.c (a test-only window method whose
# estimate is always zero, its state kept in the workspace) and one row in
# lib/methods.def, builds the commands there with no other edit, and checks
# that tagk-estimate --list, tagk-estimate -a zero, the option checks and
# tagk-bench timing all see it. Touches nothing outside its temporary
# directory.
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/.." && pwd)
tree="$tmp/tree"
mkdir -p "$tree"
(cd "$src" && tar cf - Makefile cmd lib formats bench datasets scripts man tests/*.h) | (cd "$tree" && tar xf -)
rm -f "$tree/lib/libtagk.a"

cat > "$tree/lib/zero.c" <<'ZERO'
/* zero.c: a test-only window method: the estimate is always zero. */
#include <string.h>
#include "estimator.h"

static const char *const zero_keys[] = { NULL };

static void zero_defaults(tagk_config *cfg) { (void)cfg; }

static tagk_status
zero_set(tagk_config *cfg, const char *key, double v)
{
	(void)cfg; (void)key; (void)v;
	return TAGK_EINVAL;
}

static size_t
zero_len(const tagk_config *cfg)
{
	return cfg->n >= 1 && cfg->m_max >= 1 ? (size_t)cfg->n : 0;
}

static tagk_status
zero_init(tagk_estimator *e, const tagk_config *cfg, tagk_real *ws, size_t len)
{
	if (zero_len(cfg) == 0)
		return TAGK_EINVAL;
	if (len < zero_len(cfg))
		return TAGK_ESPACE;
	memset(ws, 0, sizeof(*ws) * (size_t)cfg->n);
	(void)e;
	return TAGK_OK;
}

static tagk_status
zero_update(tagk_estimator *e, const tagk_real *A, const tagk_real *b, int m)
{
	(void)e; (void)A; (void)b;
	return m >= 1 ? TAGK_OK : TAGK_EINVAL;
}

static const tagk_real *zero_theta(const tagk_estimator *e) { return e->ws; }
static void zero_reset(tagk_estimator *e) { (void)e; }
static const char *zero_form(const tagk_estimator *e) { (void)e; return "zero"; }
static tagk_real zero_prior(const tagk_config *cfg) { (void)cfg; return 0; }

const tagk_window_ops tagk_zero_ops = {
	.head = { zero_keys },
	.defaults = zero_defaults,
	.set = zero_set,
	.forms = NULL,
	.workspace_len = zero_len,
	.init = zero_init,
	.update = zero_update,
	.theta = zero_theta,
	.reset = zero_reset,
	.form = zero_form,
	.prior_information = zero_prior,
};
ZERO
cat >> "$tree/lib/methods.def" <<'ROW'
TAGK_METHOD("zero", "test only: the estimate is always zero", "test", window, "theta", tagk_zero_ops, 0, 0, 0)
ROW

check() {
	name=$1
	shift
	if "$@"; then pass=$((pass + 1)); echo "ok   $name"; else fail=$((fail + 1)); echo "FAIL $name"; fi
}

# the new file and the one row are the whole change
check "the copy differs from the tree by lib/zero.c and one row" \
	sh -c "diff -r '$src/lib' '$tree/lib' 2>/dev/null | grep -v '^Only in $src/lib: libtagk.a' | grep -c '^[<>]' | grep -qx 1 &&
	       diff -r '$src/lib' '$tree/lib' | grep -q '^Only in $tree/lib: zero.c'"
if ! (cd "$tree" && make -s bin/tagk-estimate bin/tagk-bench bin/tagk-regress >"$tmp/build.log" 2>&1); then
	cat "$tmp/build.log"
	fail=$((fail + 1))
	echo "FAIL the tree with zero.c builds"
	echo "$pass passed, $fail failed"
	exit 1
fi
pass=$((pass + 1))
echo "ok   the tree with zero.c builds"
B="$tree/bin"
expect "--list shows it" 0 "^zero +test only: the estimate is always zero \[test\]$" "" -- "$B/tagk-estimate" --list
"$B/tagk-regress" -m rigid-body "$src/datasets/synth-payload-noisy.csv" > "$tmp/reg.csv"
expect "tagk-estimate -a zero runs" 0 "*" "" -- "$B/tagk-estimate" -q -a zero -o "$tmp/zero.csv" "$tmp/reg.csv"
check "every estimate is zero" sh -c "grep -v '^#' '$tmp/zero.csv' | awk -F, 'NR > 1 { for (i = 2; i <= 11; i++) if (\$i != 0) bad = 1; n++ } END { exit bad || n < 10 }'"
expect "its options are checked from its keys" 2 "" "--lambda applies to the RLS methods, not zero" -- \
	"$B/tagk-estimate" -a zero --lambda 0.9 "$tmp/reg.csv"
expect "tagk-bench timing runs it" 0 "^zero +zero " "" -- "$B/tagk-bench" timing --methods zero --updates 3 -n 10
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
