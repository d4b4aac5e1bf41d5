/*
 * ulog_out.h: write a PX4 ULog (PX4's "ULog File Format", version 1), for
 * tagk-bench's simulated flights: the header and flag bits, formats,
 * information and parameters, then subscriptions, data, logged strings and
 * dropouts. The caller lays the data out as its format says, little-endian.
 */
#ifndef TAGK_ULOG_OUT_H
#define TAGK_ULOG_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Begin a ULog on f (which the caller closes) with start time t0 (us). */
int ulog_begin(FILE *f, uint64_t t0);
/* F: "name:type field;type[n] field;..." */
int ulog_format(FILE *f, const char *def);
/* I: an info string, key "sys_name" written as "char[len] sys_name". */
int ulog_info(FILE *f, const char *key, const char *value);
/* P: a float or int32 parameter. */
int ulog_param_float(FILE *f, const char *name, float v);
int ulog_param_int(FILE *f, const char *name, int32_t v);
/* A: subscribe msg_id to topic name, instance multi. */
int ulog_add(FILE *f, int multi, int msg_id, const char *name);
/* D: one sample of msg_id, its n bytes. */
int ulog_data(FILE *f, int msg_id, const void *data, size_t n);
/* L: a logged string at time ts (us). */
int ulog_logged(FILE *f, int level, uint64_t ts, const char *msg);
/* O: a dropout of ms milliseconds. */
int ulog_dropout(FILE *f, int ms);

#endif
