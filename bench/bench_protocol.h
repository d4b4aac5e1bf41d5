/*
 * bench_protocol.h: the protocol of the TAG-K paper's closed-loop trials,
 * setting by setting (bench/sim/trial.h): "tagk" reads the paper's text,
 * "authors" does what the authors' code does. tagk-bench table2, ablation
 * and simulate fly trials under one.
 */
#ifndef BENCH_PROTOCOL_H
#define BENCH_PROTOCOL_H

#include <getopt.h>
#include <stddef.h>
#include "../lib/method.h"
#include "sim/tagk_sim.h"

/* Each setting 0 (the paper's text, tagk's reading) or 1 (the authors'
 * code); gate is a TAGK_TRIAL_GATE_*, gate_all 0 when only the baselines
 * are gated (TAG-K's estimates used as they come); window the control
 * steps per update (5, the paper's text; 1, their script's default); kf_form
 * the KF methods' form (an index of the KF forms: 0 auto, 3 explicit, the
 * authors' numerics); refs 0 for the paper's five references at random,
 * 1 for the figure-8 alone. -1: not set (overrides). */
typedef struct {
	const char *name;
	int b_oracle, noise, gate, gate_all, success, payload, reference, rotors, dynamics, window, kf_form,
	    regressor, refs;
} bench_protocol;

/* The named protocol ("tagk" or "authors"); dies with a usage error else. */
void protocol_named(bench_protocol *p, const char *name);
/* All settings -1. */
void protocol_unset(bench_protocol *o);
/* The long options of the settings, for a getopt table; their codes are
 * PROTO_OPT_FIRST and up. */
enum { PROTO_OPT_FIRST = 1000, PROTO_OPT_COUNT = 12 };
extern const struct option protocol_options[PROTO_OPT_COUNT];
/* Parse setting option code c with argument arg into o; dies on a bad value. */
void protocol_parse(bench_protocol *o, int c, const char *arg);
/* 1 if o sets anything. */
int protocol_overridden(const bench_protocol *o);
/* p with the settings o sets replaced. */
void protocol_override(bench_protocol *p, const bench_protocol *o);
/* Configure tc for a trial of method mt at noise level 0-3 under p. */
void protocol_apply(const bench_protocol *p, const tagk_method *mt, int level, tagk_trial_config *tc);
/* "b=oracle noise-model=authors gate=authors ..." */
void protocol_settings(const bench_protocol *p, char *buf, size_t len);

#endif
