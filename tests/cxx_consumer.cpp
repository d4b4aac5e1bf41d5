// cxx_consumer.cpp: a C++ program (a ROS node, say) that uses the installed
// libtagk through pkg-config: the headers must declare C linkage. Solves a
// small consistent system with RLS and TAG-K and checks the answer.
#include <tagk.h>
#include <cmath>
#include <cstdio>
#include <vector>

static int
run(const char *method)
{
	const tagk_method *mt = tagk_method_find(method);
	if (!mt)
		return std::printf("%s: not found\n", method), 1;
	const int n = 3, m = 6;
	tagk_config cfg;
	tagk_config_defaults(&cfg, mt, n, m);
	std::vector<tagk_real> ws(tagk_est_workspace_len(&cfg));
	tagk_estimator est;
	if (tagk_est_init(&est, &cfg, ws.data(), ws.size()) != TAGK_OK)
		return std::printf("%s: init failed\n", method), 1;
	const double truth[3] = { 0.5, -2, 1.25 };
	tagk_rng g;
	tagk_rng_seed(&g, 7);
	tagk_real A[m * n], b[m], theta[n];
	for (int k = 0; k < 200; k++) {
		for (int i = 0; i < m; i++) {
			b[i] = 0;
			for (int j = 0; j < n; j++) {
				A[i * n + j] = (tagk_real)tagk_rng_gaussian(&g);
				b[i] += A[i * n + j] * (tagk_real)truth[j];
			}
		}
		if (tagk_est_update(&est, A, b, m, theta) != TAGK_OK)
			return std::printf("%s: update refused\n", method), 1;
	}
	double err = 0;
	for (int j = 0; j < n; j++)
		err = std::fmax(err, std::fabs((double)theta[j] - truth[j]));
	std::printf("%s (%s form): max error %.2g\n", method, tagk_est_form(&est), err);
	return err < 1e-3 ? 0 : 1;
}

int
main()
{
	return run("rls") | run("tagk");
}
