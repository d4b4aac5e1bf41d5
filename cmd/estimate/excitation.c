/* excitation.c: the unexcited parameters as words; see excitation.h. */
#include <stdio.h>
#include "excitation.h"

int
excitation_report(const tagk_excitation *x, double eps, char *buf, size_t len)
{
	int named[TAGK_NPARAM], combo;
	int found = tagk_excitation_unexcited(x, eps, named, &combo);
	buf[0] = 0;
	if (found == 0 || found == x->n)
		return found; /* the caller says "any parameter" when all are */
	size_t used = 0;
	for (int j = 0, c = 0; j < x->n; j++)
		if (named[j] && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", c++ ? ", " : "", tagk_param_names[j]);
	if (combo && used < len)
		snprintf(buf + used, len - used, " (in combination: not each alone)");
	return found;
}
