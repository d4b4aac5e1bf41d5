/* status.c: descriptions of tagk_status values. */
#include "status.h"

const char *
tagk_strerror(tagk_status s)
{
	switch (s) {
	case TAGK_OK: return "success";
	case TAGK_EINVAL: return "invalid argument";
	case TAGK_ESPACE: return "workspace too small";
	case TAGK_ENONFINITE: return "NaN or Inf in input";
	case TAGK_EZERO: return "window carries no information (all rows zero)";
	case TAGK_ENOTPD: return "matrix not positive definite";
	case TAGK_EDIVERGED: return "update diverged (non-finite result)";
	case TAGK_EOUTLIER: return "outlier: prediction error far outside the filter's prediction (--outlier)";
	}
	return "unknown status";
}
