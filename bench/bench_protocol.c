/* bench_protocol.c: the closed-loop trials' protocols; see bench_protocol.h. */
#include <string.h>
#include <stdio.h>
#include "bench_protocol.h"
#include "../cmd/common/cli.h"

static const bench_protocol tagk_text = { "tagk", 0, 0, TAGK_TRIAL_GATE_EQ15, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0 };
static const bench_protocol authors_code = { "authors", 1, 1, TAGK_TRIAL_GATE_AUTHORS, 1, 1, 1, 1, 1, 1, 1,
	TAGK_KF_EXPLICIT, 1, 0 };

void
protocol_named(bench_protocol *p, const char *name)
{
	if (strcmp(name, "tagk") == 0)
		*p = tagk_text;
	else if (strcmp(name, "authors") == 0)
		*p = authors_code;
	else
		cli_die(EXIT_USAGE, "--protocol: '%s' is not tagk or authors", name);
}

void
protocol_unset(bench_protocol *o)
{
	o->name = NULL;
	o->b_oracle = o->noise = o->gate = o->gate_all = o->success = o->payload = o->reference = o->rotors = o->dynamics = -1;
	o->window = o->kf_form = o->regressor = o->refs = -1;
}

const struct option protocol_options[PROTO_OPT_COUNT] = {
	{ "b", required_argument, NULL, PROTO_OPT_FIRST },
	{ "noise-model", required_argument, NULL, PROTO_OPT_FIRST + 1 },
	{ "gate", required_argument, NULL, PROTO_OPT_FIRST + 2 },
	{ "success", required_argument, NULL, PROTO_OPT_FIRST + 3 },
	{ "payload", required_argument, NULL, PROTO_OPT_FIRST + 4 },
	{ "reference", required_argument, NULL, PROTO_OPT_FIRST + 5 },
	{ "rotors", required_argument, NULL, PROTO_OPT_FIRST + 6 },
	{ "dynamics", required_argument, NULL, PROTO_OPT_FIRST + 7 },
	{ "window", required_argument, NULL, PROTO_OPT_FIRST + 8 },
	{ "kf-form", required_argument, NULL, PROTO_OPT_FIRST + 9 },
	{ "regressor", required_argument, NULL, PROTO_OPT_FIRST + 10 },
	{ "refs", required_argument, NULL, PROTO_OPT_FIRST + 11 },
};

/* 0 for paper (or its other name), 1 for authors */
static int
two_way(const char *opt, const char *arg, const char *paper)
{
	if (strcmp(arg, paper) == 0)
		return 0;
	if (strcmp(arg, "authors") == 0)
		return 1;
	cli_die(EXIT_USAGE, "--%s: '%s' is not %s or authors", opt, arg, paper);
	return -1;
}

void
protocol_parse(bench_protocol *o, int c, const char *arg)
{
	switch (c - PROTO_OPT_FIRST) {
	case 0:
		if (strcmp(arg, "oracle") == 0)
			o->b_oracle = 1;
		else if (strcmp(arg, "wrench") == 0)
			o->b_oracle = 0;
		else
			cli_die(EXIT_USAGE, "--b: '%s' is not wrench or oracle", arg);
		break;
	case 1: o->noise = two_way("noise-model", arg, "tagk"); break;
	case 2:
		if (strcmp(arg, "none") == 0)
			o->gate = TAGK_TRIAL_GATE_NONE, o->gate_all = 1;
		else if (strcmp(arg, "baselines") == 0)
			o->gate = TAGK_TRIAL_GATE_EQ15, o->gate_all = 0;
		else if (strcmp(arg, "eq15") == 0 || strcmp(arg, "all") == 0)
			o->gate = TAGK_TRIAL_GATE_EQ15, o->gate_all = 1;
		else if (strcmp(arg, "authors") == 0)
			o->gate = TAGK_TRIAL_GATE_AUTHORS, o->gate_all = 1;
		else
			cli_die(EXIT_USAGE, "--gate: '%s' is not none, baselines, eq15 (or all) or authors", arg);
		break;
	case 3: o->success = two_way("success", arg, "paper"); break;
	case 4: o->payload = two_way("payload", arg, "paper"); break;
	case 5: o->reference = two_way("reference", arg, "paper"); break;
	case 6: o->rotors = two_way("rotors", arg, "paper"); break;
	case 7: o->dynamics = two_way("dynamics", arg, "tagk"); break;
	case 8: o->window = (int)cli_long("--window", arg, 1, 5); break;
	case 9: {
		tagk_config probe;
		tagk_config_defaults(&probe, tagk_window_method("kf"), TAGK_NPARAM, 30);
		if ((o->kf_form = tagk_config_form_index(&probe, arg)) < 0)
			cli_die(EXIT_USAGE, "--kf-form: '%s' is not a form of the KF methods (auto, joseph, info, "
			    "downdate, explicit)", arg);
		break;
	}
	case 10: o->regressor = two_way("regressor", arg, "tagk"); break;
	case 11: o->refs = two_way("refs", arg, "paper"); break;
	default: break;
	}
}

int
protocol_overridden(const bench_protocol *o)
{
	return o->b_oracle >= 0 || o->noise >= 0 || o->gate >= 0 || o->success >= 0 || o->payload >= 0 ||
	    o->reference >= 0 || o->rotors >= 0 || o->dynamics >= 0 || o->window >= 0 || o->kf_form >= 0 ||
	    o->regressor >= 0 || o->refs >= 0;
}

void
protocol_override(bench_protocol *p, const bench_protocol *o)
{
	int *dst[] = { &p->b_oracle, &p->noise, &p->gate, &p->gate_all, &p->success, &p->payload, &p->reference,
		&p->rotors, &p->dynamics, &p->window, &p->kf_form, &p->regressor, &p->refs };
	const int *src[] = { &o->b_oracle, &o->noise, &o->gate, &o->gate_all, &o->success, &o->payload,
		&o->reference, &o->rotors, &o->dynamics, &o->window, &o->kf_form, &o->regressor, &o->refs };
	for (size_t i = 0; i < sizeof(dst) / sizeof(dst[0]); i++)
		if (*src[i] >= 0)
			*dst[i] = *src[i];
}

void
protocol_apply(const bench_protocol *p, const tagk_method *mt, int level, tagk_trial_config *tc)
{
	/* the authors' apply_noise: position and velocity standard deviations */
	static const double state_sd[4][2] = { { 0, 0 }, { 1e-5, 1e-6 }, { 1e-4, 1e-5 }, { 5e-4, 5e-5 } };
	tc->b_oracle = p->b_oracle;
	tc->state_noise = p->noise;
	if (p->noise) {
		tc->sigma_p = (tagk_real)state_sd[level][0];
		tc->sigma_v = (tagk_real)state_sd[level][1];
		tc->sigma_a = 0;
	} else {
		tc->sigma_p = 0;
		tc->sigma_v = (tagk_real)(0.025 * level / 3.0);
		tc->sigma_a = (tagk_real)(0.0025 * level / 3.0);
	}
	/* gated only as a baseline: TAG-K (the paper's, not tagk-robust) is not */
	int exempt = !p->gate_all && mt && strcmp(mt->name, "tagk") == 0;
	tc->gate = exempt ? TAGK_TRIAL_GATE_NONE : p->gate;
	tc->success_authors = p->success;
	tc->payload_authors = p->payload;
	tc->reference_authors = p->reference;
	tc->rotors_authors = p->rotors;
	tc->dynamics_authors = p->dynamics;
	tc->window = p->window;
	tc->regressor_authors = p->regressor;
	if (p->refs)
		tc->traj = TAGK_TRAJ_FIG8; /* their script's default --refs: the figure-8 alone */
}

void
protocol_settings(const bench_protocol *p, char *buf, size_t len)
{
	static const char *const gates[] = { "none", "eq15", "authors" };
	const char *who = p->gate == TAGK_TRIAL_GATE_NONE ? "" : p->gate_all ? "" : "-baselines";
	snprintf(buf, len, "b=%s noise-model=%s gate=%s%s success=%s payload=%s reference=%s rotors=%s dynamics=%s window=%d kf-form=%s regressor=%s refs=%s",
	    p->b_oracle ? "oracle" : "wrench", p->noise ? "authors" : "tagk", gates[p->gate], who,
	    p->success ? "authors" : "paper", p->payload ? "authors" : "paper", p->reference ? "authors" : "paper",
	    p->rotors ? "authors" : "paper", p->dynamics ? "authors" : "tagk", p->window,
	    tagk_kf_form_name((tagk_kf_form_t)p->kf_form), p->regressor ? "authors" : "tagk",
	    p->refs ? "authors" : "paper");
}
