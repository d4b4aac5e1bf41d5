/*
 * excitation.h: tagk-estimate's note on the parameters a regressor stream
 * leaves undetermined, in words; the numbers are lib/excitation.h's.
 */
#ifndef TAGK_CMD_EXCITATION_H
#define TAGK_CMD_EXCITATION_H

#include <stddef.h>
#include "../lib/tagk.h"

/* eps as tagk_excitation_unexcited. Writes into buf the parameters with a
 * weight of at least 0.3 in an unexcited direction ("mcx, Iyy", with a
 * remark when a direction mixes several; empty when none, or when no
 * direction is excited) and returns the number of unexcited directions
 * (0: everything excited; n: nothing excited). */
int excitation_report(const tagk_excitation *x, double eps, char *buf, size_t len);

#endif
