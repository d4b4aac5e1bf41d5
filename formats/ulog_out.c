/* ulog_out.c: a PX4 ULog writer; see ulog_out.h. */
#include <string.h>
#include "ulog_out.h"

static void
put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* One message: u16 size, type, payload (n <= 65535). */
static int
message(FILE *f, int type, const void *a, size_t na, const void *b, size_t nb)
{
	unsigned char h[3];
	if (na + nb > 65535)
		return -1;
	put_le(h, na + nb, 2);
	h[2] = (unsigned char)type;
	return fwrite(h, 1, 3, f) == 3 && fwrite(a, 1, na, f) == na && (nb == 0 || fwrite(b, 1, nb, f) == nb)
	    ? 0 : -1;
}

int
ulog_begin(FILE *f, uint64_t t0)
{
	unsigned char h[16] = { 'U', 'L', 'o', 'g', 0x01, 0x12, 0x35, 1 };
	put_le(h + 8, t0, 8);
	unsigned char flags[40] = { 0 };
	if (fwrite(h, 1, 16, f) != 16)
		return -1;
	return message(f, 'B', flags, sizeof(flags), NULL, 0);
}

int
ulog_format(FILE *f, const char *def)
{
	return message(f, 'F', def, strlen(def), NULL, 0);
}

static int
keyed(FILE *f, int type, const char *key, const void *v, size_t nv)
{
	unsigned char buf[256];
	size_t k = strlen(key);
	if (k > 255)
		return -1;
	buf[0] = (unsigned char)k;
	memcpy(buf + 1, key, k);
	return message(f, type, buf, k + 1, v, nv);
}

int
ulog_info(FILE *f, const char *key, const char *value)
{
	char k[200];
	snprintf(k, sizeof(k), "char[%zu] %s", strlen(value), key);
	return keyed(f, 'I', k, value, strlen(value));
}

int
ulog_param_float(FILE *f, const char *name, float v)
{
	char k[200];
	unsigned char b[4];
	uint32_t w;
	memcpy(&w, &v, 4);
	put_le(b, w, 4);
	snprintf(k, sizeof(k), "float %s", name);
	return keyed(f, 'P', k, b, 4);
}

int
ulog_param_int(FILE *f, const char *name, int32_t v)
{
	char k[200];
	unsigned char b[4];
	put_le(b, (uint32_t)v, 4);
	snprintf(k, sizeof(k), "int32_t %s", name);
	return keyed(f, 'P', k, b, 4);
}

int
ulog_add(FILE *f, int multi, int msg_id, const char *name)
{
	unsigned char h[3] = { (unsigned char)multi };
	put_le(h + 1, (uint64_t)msg_id, 2);
	return message(f, 'A', h, 3, name, strlen(name));
}

int
ulog_data(FILE *f, int msg_id, const void *data, size_t n)
{
	unsigned char h[2];
	put_le(h, (uint64_t)msg_id, 2);
	return message(f, 'D', h, 2, data, n);
}

int
ulog_logged(FILE *f, int level, uint64_t ts, const char *msg)
{
	unsigned char h[9] = { (unsigned char)level };
	put_le(h + 1, ts, 8);
	return message(f, 'L', h, 9, msg, strlen(msg));
}

int
ulog_dropout(FILE *f, int ms)
{
	unsigned char h[2];
	put_le(h, (uint64_t)ms, 2);
	return message(f, 'O', h, 2, NULL, 0);
}
