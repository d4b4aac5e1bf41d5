/*
 * m7_link.c: a bare-metal program that calls every window and batch estimator
 * (the consistent least squares among them), the projection
 * and the regressor, linked against newlib for a Cortex-M7 by `make check-m7`
 * to prove that lib/ builds and links with no operating system. It is linked,
 * not run (running it under QEMU is the Teensy benchmark's job).
 */
#include "tagk.h"

static tagk_real ws[8192], A[300], b[30], Y[60];
static const tagk_real unit[10] = { 1, 0, 0, 0, 1, 0, 1, 0, 0, 1 };
static tagk_batch q;

int
main(void)
{
	tagk_rng g;
	tagk_rng_seed(&g, 1);
	for (int i = 0; i < tagk_method_count(); i++) {
		tagk_config c;
		tagk_estimator e;
		if (!tagk_window_ops_of(tagk_method_at(i)))
			continue;
		tagk_config_defaults(&c, tagk_method_at(i), 10, 30);
		c.theta0 = unit; /* rls-ld needs a physical start */
		if (tagk_est_init(&e, &c, ws, sizeof(ws) / sizeof(ws[0])) != TAGK_OK)
			return 1;
		for (int k = 0; k < 300; k++)
			A[k] = tagk_rng_gaussian(&g);
		for (int k = 0; k < 30; k++)
			b[k] = tagk_rng_gaussian(&g);
		if (tagk_est_update(&e, A, b, 30, 0) != TAGK_OK)
			return 2;
	}
	/* every batch method, the consistent least squares among them */
	for (int i = 0; i < tagk_method_count(); i++) {
		if (tagk_method_at(i)->kind != TAGK_KIND_BATCH || tagk_batch_init(&q, tagk_method_at(i), 10) != TAGK_OK)
			continue;
		for (int k = 0; k < 30; k++) {
			double y[10];
			for (int j = 0; j < 10; j++)
				y[j] = (double)tagk_rng_gaussian(&g);
			tagk_batch_add(&q, k % 6, y, (double)tagk_rng_gaussian(&g));
		}
		if (tagk_batch_solve(&q, b) != TAGK_OK)
			return 3;
	}
	tagk_real a[3] = { 0, 0, 9.8f }, w[3] = { 0 }, al[3] = { 0 }, t[10] = { 0 }, p[10];
	tagk_regressor_rigid(a, w, al, Y);
	return tagk_project(t, 0, p) != TAGK_OK || tagk_gate(p, 0.0325f, 1e-4f) == 0;
}
