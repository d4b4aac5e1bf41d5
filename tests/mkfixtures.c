/*
 * mkfixtures.c DIR: write the files the pipeline tests read, into DIR.
 *
 *   v2.cfusd, v1.cfusd      Crazyflie uSD logs (versions 2 and 1) with the
 *                           Lee-controller variables the crazyflie preset maps,
 *                           a second event type, and a valid CRC-32
 *   v2.expected.csv         the values written into v2.cfusd (event
 *                           fixedFrequency), as the reader must return them
 *   badcrc.cfusd            v2.cfusd with one low bit of a value flipped
 *   truncated.cfusd         v2.cfusd cut in the middle of a record (CRC of
 *                           the cut content, so only the record is bad)
 *   h5py.h5                 a log as h5py users write it: t (N), acc (N x 3,
 *                           "columns" attribute), gyro (N x 3, no attribute)
 *   rank3.h5, lengths.h5, text.h5   wrong shapes and types
 *
 * The encoder here is written from the format description, independently of
 * formats/cfusd_in.c.
 */
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char buf[1 << 20];
static size_t len;

static void put(const void *p, size_t n) { memcpy(buf + len, p, n); len += n; }
static void u16(unsigned v) { unsigned char b[2] = { (unsigned char)v, (unsigned char)(v >> 8) }; put(b, 2); }
static void u32(uint32_t v) { for (int i = 0; i < 4; i++) { unsigned char c = (unsigned char)(v >> (8 * i)); put(&c, 1); } }
static void u64(uint64_t v) { for (int i = 0; i < 8; i++) { unsigned char c = (unsigned char)(v >> (8 * i)); put(&c, 1); } }
static void str(const char *s) { put(s, strlen(s) + 1); }
static void f32(float x) { uint32_t u; memcpy(&u, &x, 4); u32(u); }
static void i16(int v) { u16((unsigned)(uint16_t)(int16_t)v); }

static uint32_t
crc32(const unsigned char *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
	}
	return ~c;
}

static void
save(const char *dir, const char *name, const unsigned char *p, size_t n)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* A Crazyflie log of 50 samples at 100 Hz: hovering at thrust 0.39 N with a
 * 0.04 kg vehicle (acc.z = 0.39 / 0.04 / 9.80665 g), gentle rates. */
static size_t rec0; /* offset of the first record */

static size_t
cfusd(int version, FILE *expected)
{
	static const char *vars[] = { "acc.x(f)", "acc.y(f)", "acc.z(f)", "ctrlLee.omegax(f)",
		"ctrlLee.omegay(f)", "ctrlLee.omegaz(f)", "ctrlLee.thrustSI(f)", "ctrlLee.torquex(f)",
		"ctrlLee.torquey(f)", "ctrlLee.torquez(f)", "stateEstimateZ.z(h)" };
	enum { NV = 11 };
	len = 0;
	unsigned char magic = 0xBC;
	put(&magic, 1);
	u16((unsigned)version);
	u16(2);
	u16(7);
	str("fixedFrequency");
	u16(NV);
	for (int i = 0; i < NV; i++)
		str(vars[i]);
	u16(9);
	str("other");
	u16(1);
	str("x(B)");
	if (expected) {
		fprintf(expected, "t");
		for (int i = 0; i < NV; i++)
			fprintf(expected, ",%.*s", (int)(strchr(vars[i], '(') - vars[i]), vars[i]);
		fprintf(expected, "\n");
	}
	rec0 = len;
	for (int k = 0; k < 50; k++) {
		double t = 1.5 + k * 0.01;
		float v[NV - 1] = {
			(float)(0.01 * sin(k)), (float)(0.01 * cos(k)), (float)(0.39 / 0.04 / 9.80665),
			(float)(0.1 * sin(0.3 * k)), (float)(0.1 * cos(0.2 * k)), (float)(0.05 * sin(0.1 * k)),
			0.39f, (float)(1e-5 * sin(k)), (float)(1e-5 * cos(k)), (float)(1e-6 * sin(2.0 * k)) };
		int z = 1000 + k % 7 - 3;
		u16(7);
		if (version == 1)
			u32((uint32_t)llround(t * 1e3));
		else
			u64((uint64_t)llround(t * 1e6));
		for (int i = 0; i < NV - 1; i++)
			f32(v[i]);
		i16(z);
		if (k % 10 == 3) { /* a record of the other event type */
			u16(9);
			if (version == 1) u32((uint32_t)llround(t * 1e3)); else u64((uint64_t)llround(t * 1e6));
			unsigned char x = 42;
			put(&x, 1);
		}
		if (expected) {
			fprintf(expected, "%.17g", version == 1 ? llround(t * 1e3) / 1e3 : llround(t * 1e6) / 1e6);
			for (int i = 0; i < NV - 1; i++)
				fprintf(expected, ",%.9g", (double)v[i]);
			fprintf(expected, ",%d\n", z);
		}
	}
	u32(crc32(buf, len));
	return len;
}

static void
h5file(const char *dir, const char *name, int kind)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	enum { N = 40 };
	double t[N], v3[N][3];
	for (int i = 0; i < N; i++) {
		t[i] = i * 0.02;
		for (int j = 0; j < 3; j++)
			v3[i][j] = sin(i + j);
	}
	hsize_t d1 = N, d2[2] = { N, 3 }, d3[3] = { N, 3, 2 };
	hid_t s1 = H5Screate_simple(1, &d1, NULL), s2 = H5Screate_simple(2, d2, NULL);
	hid_t ds = H5Dcreate2(f, "t", H5T_IEEE_F64LE, s1, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t);
	H5Dclose(ds);
	if (kind == 0) {
		ds = H5Dcreate2(f, "acc", H5T_IEEE_F32LE, s2, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v3);
		hid_t st = H5Tcopy(H5T_C_S1);
		H5Tset_size(st, H5T_VARIABLE);
		hid_t as = H5Screate(H5S_SCALAR);
		hid_t a = H5Acreate2(ds, "columns", st, as, H5P_DEFAULT, H5P_DEFAULT);
		const char *cols = "ax,ay,az";
		H5Awrite(a, st, &cols);
		H5Aclose(a);
		H5Sclose(as);
		H5Tclose(st);
		H5Dclose(ds);
		ds = H5Dcreate2(f, "gyro", H5T_IEEE_F64LE, s2, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v3);
		H5Dclose(ds);
	} else if (kind == 1) {
		hid_t s3 = H5Screate_simple(3, d3, NULL);
		double v[N][3][2] = { { { 0 } } };
		ds = H5Dcreate2(f, "cube", H5T_IEEE_F64LE, s3, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
		H5Dclose(ds);
		H5Sclose(s3);
	} else if (kind == 2) {
		hsize_t dn = N - 5;
		hid_t s = H5Screate_simple(1, &dn, NULL);
		ds = H5Dcreate2(f, "short", H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t);
		H5Dclose(ds);
		H5Sclose(s);
	} else {
		hid_t st = H5Tcopy(H5T_C_S1);
		H5Tset_size(st, 8);
		char txt[N][8];
		for (int i = 0; i < N; i++)
			snprintf(txt[i], 8, "row%d", i);
		ds = H5Dcreate2(f, "label", st, s1, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		H5Dwrite(ds, st, H5S_ALL, H5S_ALL, H5P_DEFAULT, txt);
		H5Dclose(ds);
		H5Tclose(st);
	}
	H5Sclose(s1);
	H5Sclose(s2);
	H5Fclose(f);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mkfixtures DIR\n");
		return 2;
	}
	const char *dir = argv[1];
	char path[4096];
	snprintf(path, sizeof(path), "%s/v2.expected.csv", dir);
	FILE *e = fopen(path, "w");
	if (!e) {
		perror(path);
		return 1;
	}
	size_t n = cfusd(2, e);
	fclose(e);
	save(dir, "v2.cfusd", buf, n);
	static unsigned char copy[sizeof(buf)];
	memcpy(copy, buf, n);
	copy[rec0 + 2 + 8 + 5 * 52] ^= 0x01; /* a low bit of acc.x in the 6th record */
	save(dir, "badcrc.cfusd", copy, n);
	/* cut inside the 30th record, then append the CRC of what is left */
	size_t cut = n - 4 - 20 * (2 + 8 + 42) - 17;
	memcpy(copy, buf, cut);
	uint32_t c = crc32(copy, cut);
	for (int i = 0; i < 4; i++)
		copy[cut + (size_t)i] = (unsigned char)(c >> (8 * i));
	save(dir, "truncated.cfusd", copy, cut + 4);
	n = cfusd(1, NULL);
	save(dir, "v1.cfusd", buf, n);
	h5file(dir, "h5py.h5", 0);
	h5file(dir, "rank3.h5", 1);
	h5file(dir, "lengths.h5", 2);
	h5file(dir, "text.h5", 3);
	return 0;
}
