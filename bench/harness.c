/* harness.c: per-update timing of every estimator; see harness.h. */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "naive_kaczmarz.h"

size_t
tagk_bench_scratch_len(int m, int n)
{
	/* A, b, theta*, out, naive work, plus a sort buffer is the caller's times */
	return (size_t)m * (size_t)n + (size_t)m + 3 * (size_t)n + TAGK_NAIVE_WORK(m, n);
}

size_t
tagk_bench_workspace_len(int m, int n)
{
	size_t best = 0;
	for (int i = 0; i < tagk_method_count(); i++) {
		const tagk_window_ops *ops = tagk_window_ops_of(tagk_method_at(i));
		if (!ops)
			continue;
		tagk_config c;
		tagk_config_defaults(&c, tagk_method_at(i), n, m);
		for (int f = 0; f == 0 || (ops->forms && ops->forms[f]); f++) {
			if (ops->forms)
				tagk_config_set(&c, "form", f);
			size_t l = tagk_est_workspace_len(&c);
			if (l > best)
				best = l;
		}
	}
	return best;
}

/* Insertion sort is enough for a few thousand samples and needs no libc. */
static void
sort_doubles(int k, double *x)
{
	for (int i = 1; i < k; i++) {
		double v = x[i];
		int j = i;
		for (; j > 0 && x[j - 1] > v; j--)
			x[j] = x[j - 1];
		x[j] = v;
	}
}

/* Nearest-rank percentile of sorted x (p in (0, 1]). */
static double
percentile(int k, const double *x, double p)
{
	int idx = (int)(p * k + 0.999999) - 1;
	if (idx < 0)
		idx = 0;
	if (idx >= k)
		idx = k - 1;
	return x[idx];
}

static tagk_real
draw(tagk_rng *g, int uniform)
{
	return uniform ? 2 * tagk_rng_uniform(g) - 1 : tagk_rng_gaussian(g);
}

static void
make_window(tagk_rng *g, int m, int n, const tagk_real *xs, tagk_real noise, int uniform,
    tagk_real *A, tagk_real *b)
{
	for (int i = 0; i < m * n; i++)
		A[i] = draw(g, uniform);
	tagk_gemv(m, n, A, xs, b);
	for (int i = 0; i < m; i++)
		b[i] += noise * draw(g, uniform);
}

tagk_status
tagk_bench_run(const tagk_bench_setup *su, const char *name, int m, int n,
    tagk_real *ws, size_t ws_len, tagk_real *scratch, size_t scratch_len, double *times)
{
	if (!su || !name || m < 1 || n < 1 || su->updates < 1 || !su->ticks || !su->emit)
		return TAGK_EINVAL;
	if (scratch_len < tagk_bench_scratch_len(m, n))
		return TAGK_ESPACE;

	char base[32];
	size_t bl = 0;
	while (name[bl] && name[bl] != ':' && bl < sizeof(base) - 1) {
		base[bl] = name[bl];
		bl++;
	}
	base[bl] = 0;
	const char *suffix = name[bl] == ':' ? name + bl + 1 : "";
	int naive = strcmp(base, "tagk-naive") == 0;
	const tagk_method *mt = tagk_method_find_kind(naive ? "tagk" : base, TAGK_KIND_WINDOW);
	if (!mt)
		return TAGK_EINVAL;

	tagk_config cfg;
	tagk_config_defaults(&cfg, mt, n, m);
	cfg.seed = su->seed;
	if (tagk_method_accepts(mt, "iters"))
		tagk_config_set(&cfg, "iters", su->iters);
	if (*suffix) {
		int f = tagk_config_form_index(&cfg, suffix);
		if (f <= 0 || tagk_config_set(&cfg, "form", f) != TAGK_OK)
			return TAGK_EINVAL;
	}
	if (ws_len < tagk_est_workspace_len(&cfg))
		return TAGK_ESPACE;

	tagk_real *A = scratch, *b = A + (size_t)m * n, *xs = b + m, *out = xs + n,
	    *x = out + n, *work = x + n;
	tagk_estimator est;
	tagk_status st = tagk_est_init(&est, &cfg, ws, ws_len);
	if (st == TAGK_ENOTPD) {
		/* a method that needs a physical start (rls-ld) starts from unit
		 * bodies (m 1, mc 0, I = 1), written in x, which init copies */
		for (int j = 0; j < n; j++)
			x[j] = j % TAGK_NPARAM == TAGK_P_M || j % TAGK_NPARAM == TAGK_P_IXX || j % TAGK_NPARAM == TAGK_P_IYY
			    || j % TAGK_NPARAM == TAGK_P_IZZ ? 1 : 0;
		cfg.theta0 = x;
		st = tagk_est_init(&est, &cfg, ws, ws_len);
	}
	if (st != TAGK_OK)
		return st;
	tagk_rng g, gk;
	tagk_rng_seed(&g, su->seed ^ ((uint64_t)n << 32) ^ (uint64_t)m);
	tagk_rng_seed(&gk, su->seed);
	for (int j = 0; j < n; j++) {
		xs[j] = draw(&g, su->uniform);
		x[j] = 0;
	}

	tagk_bench_row row;
	memset(&row, 0, sizeof(row));
	row.method = name;
	row.form = naive ? "straightforward" : tagk_est_form(&est);
	row.m = m;
	row.n = n;
	row.updates = su->updates;
	int greedy = !naive && strcmp(tagk_est_form(&est), "greedy-gram") == 0;
	long columns = 0;
	long a0 = su->alloc_count ? su->alloc_count() : -1;
	for (int k = 0; k < su->updates; k++) {
		make_window(&g, m, n, xs, su->noise, su->uniform, A, b);
		uint64_t t0 = su->ticks();
		if (naive) {
			st = tagk_naive_greedy(m, n, A, b, x, su->iters, cfg.u.kz.burnin, 1,
			    cfg.u.kz.tol, &gk, work, out);
			if (st == TAGK_OK)
				memcpy(x, out, sizeof(*x) * (size_t)n);
		} else {
			st = tagk_est_update(&est, A, b, m, NULL);
		}
		uint64_t t1 = su->ticks();
		times[k] = (double)(t1 - t0);
		row.failures += st != TAGK_OK;
		if (greedy)
			columns += est.s.kz.columns;
	}
	row.allocs = su->alloc_count ? su->alloc_count() - a0 : -1;
	const tagk_real *th = naive ? x : tagk_est_theta(&est);
	double num = 0, den = 0;
	for (int j = 0; j < n; j++) {
		double d = (double)th[j] - (double)xs[j];
		num += d * d;
		den += (double)xs[j] * (double)xs[j];
	}
	row.rel_err = sqrt(den > 0 ? num / den : num);
	row.columns = greedy ? (double)columns / su->updates : -1;
	row.theta = th;
	sort_doubles(su->updates, times);
	row.median = percentile(su->updates, times, 0.5);
	row.p95 = percentile(su->updates, times, 0.95);
	su->emit(&row, su->ctx);
	return TAGK_OK;
}
