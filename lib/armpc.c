/* armpc.c: a whole arm's consistent parameters and its friction; see armpc.h. */
#include <string.h>
#include "armpc.h"
#include "linalg.h"

enum { P = 10 };

size_t
tagk_armpc_workspace_len(int bodies, int nfree)
{
	if (bodies < 1 || bodies > TAGK_PCLS_MAX_BODIES || nfree < 0 || nfree > TAGK_ARMPC_MAX_FREE)
		return 0;
	size_t nt = (size_t)(P * bodies), f = (size_t)nfree;
	/* the reduced H and h, Lff, Z = Lff^-1 H_phitheta and z = Lff^-1 h_phi,
	 * then pcls's own */
	return nt * nt + nt + f * f + f * nt + f + tagk_pcls_workspace_len(bodies);
}

/* Lff = chol(H_phiphi); Z = Lff^-1 H_phitheta (F x nt), z = Lff^-1 h_phi;
 * Hr = H_thth - Z^T Z, hr = h_th - Z^T z. */
static tagk_status
eliminate(int nt, int f, const tagk_real *H, const tagk_real *h, tagk_real *Hr, tagk_real *hr, tagk_real *Lff,
    tagk_real *Z, tagk_real *z)
{
	const int n = nt + f;
	for (int i = 0; i < f; i++) {
		for (int j = 0; j < f; j++)
			Lff[i * f + j] = H[(nt + i) * n + nt + j];
		for (int j = 0; j < nt; j++)
			Z[i * nt + j] = H[(nt + i) * n + j];
		z[i] = h[nt + i];
	}
	if (f && tagk_cholesky(f, Lff) != TAGK_OK)
		return TAGK_ENOTPD;
	if (f) {
		tagk_trsm_lower(f, nt, Lff, Z);
		tagk_trsm_lower(f, 1, Lff, z);
	}
	for (int i = 0; i < nt; i++) {
		tagk_real s = h[i];
		for (int k = 0; k < f; k++)
			s -= Z[k * nt + i] * z[k];
		hr[i] = s;
		for (int j = i; j < nt; j++) {
			tagk_real t = H[i * n + j];
			for (int k = 0; k < f; k++)
				t -= Z[k * nt + i] * Z[k * nt + j];
			Hr[i * nt + j] = Hr[j * nt + i] = t;
		}
	}
	return TAGK_OK;
}

tagk_status
tagk_armpc_solve(const tagk_pcls_config *cfg, int nfree, const tagk_real *H, const tagk_real *h, tagk_real *x,
    tagk_pcls_info *info, tagk_real *ws, size_t len)
{
	if (!cfg || !H || !h || !x || !ws)
		return TAGK_EINVAL;
	size_t need = tagk_armpc_workspace_len(cfg->bodies, nfree);
	if (need == 0)
		return TAGK_EINVAL;
	if (len < need)
		return TAGK_ESPACE;
	const int nt = P * cfg->bodies, f = nfree, n = nt + f;
	if (!tagk_all_finite(n * n, H) || !tagk_all_finite(n, h))
		return TAGK_ENONFINITE;
	tagk_real *Hr = ws, *hr = Hr + nt * nt, *Lff = hr + nt, *Z = Lff + f * f, *z = Z + f * nt, *rest = z + f;
	tagk_status st = eliminate(nt, f, H, h, Hr, hr, Lff, Z, z);
	if (st != TAGK_OK)
		return st;
	st = tagk_pcls_solve(cfg, Hr, hr, x, info, rest, tagk_pcls_workspace_len(cfg->bodies));
	if (st != TAGK_OK)
		return st;
	/* phi = Lff^-T (z - Z theta) */
	for (int i = 0; i < f; i++) {
		tagk_real s = z[i];
		for (int j = 0; j < nt; j++)
			s -= Z[i * nt + j] * x[j];
		x[nt + i] = s;
	}
	if (f)
		tagk_trsm_lower_t(f, 1, Lff, x + nt);
	return tagk_all_finite(n, x) ? TAGK_OK : TAGK_ENONFINITE;
}
