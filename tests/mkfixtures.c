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
 *   layouts.h5              "columns" as 1-D arrays (variable and fixed
 *                           length), a nested group, a compound dataset and
 *                           a text dataset beside the numbers
 *   unwritten.h5            2^31 rows declared, 40 written
 *   declared.h5             2^60 rows declared, 40 written
 *   longname.h5             a dataset name of 70000 bytes
 *   dupname.cfusd           two event types named fixedFrequency
 *
 * The encoder here is written from the format description, independently of
 * formats/cfusd_in.c.
 */
#include <hdf5.h>
#include <math.h>
#include <stddef.h>
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
static const char *other_name = "other"; /* the second event type's name */

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
	str(other_name);
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

/* A string attribute "columns" as a 1-D array of names, as h5py writes
 * attrs['columns'] = ['ax', 'ay', 'az']: variable length, or fixed. */
static void
names_attr(hid_t obj, int var, const char *const *names, int n)
{
	hsize_t dn = (hsize_t)n;
	hid_t sp = H5Screate_simple(1, &dn, NULL), st = H5Tcopy(H5T_C_S1);
	H5Tset_cset(st, H5T_CSET_UTF8);
	if (var) {
		H5Tset_size(st, H5T_VARIABLE);
		hid_t a = H5Acreate2(obj, "columns", st, sp, H5P_DEFAULT, H5P_DEFAULT);
		H5Awrite(a, st, names);
		H5Aclose(a);
	} else {
		char fixed[8][4] = { { 0 } };
		for (int i = 0; i < n && i < 8; i++)
			snprintf(fixed[i], sizeof(fixed[i]), "%s", names[i]);
		H5Tset_size(st, 4);
		H5Tset_strpad(st, H5T_STR_NULLPAD);
		hid_t a = H5Acreate2(obj, "columns", st, sp, H5P_DEFAULT, H5P_DEFAULT);
		H5Awrite(a, st, fixed);
		H5Aclose(a);
	}
	H5Tclose(st);
	H5Sclose(sp);
}

/* Layouts users write (array attributes, nested groups, a compound
 * dataset, text beside numbers) and damaged ones (rows declared but never
 * written, a name longer than a line). */
static void
h5layouts(const char *dir)
{
	char path[4096];
	enum { N = 40 };
	double t[N], v3[N][3];
	for (int i = 0; i < N; i++) {
		t[i] = i * 0.02;
		for (int j = 0; j < 3; j++)
			v3[i][j] = sin(i + j);
	}
	hsize_t d1 = N, d2[2] = { N, 3 };
	snprintf(path, sizeof(path), "%s/layouts.h5", dir);
	hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	hid_t s1 = H5Screate_simple(1, &d1, NULL), s2 = H5Screate_simple(2, d2, NULL);
	hid_t ds = H5Dcreate2(f, "t", H5T_IEEE_F64LE, s1, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t);
	H5Dclose(ds);
	static const char *acc[] = { "ax", "ay", "az" }, *gyr[] = { "wx", "wy", "wz" };
	ds = H5Dcreate2(f, "acc", H5T_IEEE_F64LE, s2, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v3);
	names_attr(ds, 1, acc, 3);
	H5Dclose(ds);
	ds = H5Dcreate2(f, "gyro", H5T_IEEE_F32LE, s2, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v3);
	names_attr(ds, 0, gyr, 3);
	H5Dclose(ds);
	hid_t g = H5Gcreate2(f, "imu", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	ds = H5Dcreate2(g, "mag", H5T_IEEE_F64LE, s2, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v3);
	H5Dclose(ds);
	H5Gclose(g);
	struct rec { int32_t id; double thrust; float torque[3]; };
	struct rec recs[N];
	for (int i = 0; i < N; i++) {
		recs[i].id = i;
		recs[i].thrust = 0.3 + 0.001 * i;
		for (int j = 0; j < 3; j++)
			recs[i].torque[j] = (float)(1e-4 * (i + j));
	}
	hid_t ct = H5Tcreate(H5T_COMPOUND, sizeof(struct rec));
	hsize_t three = 3;
	hid_t arr = H5Tarray_create2(H5T_NATIVE_FLOAT, 1, &three);
	H5Tinsert(ct, "id", offsetof(struct rec, id), H5T_NATIVE_INT32);
	H5Tinsert(ct, "thrust", offsetof(struct rec, thrust), H5T_NATIVE_DOUBLE);
	H5Tinsert(ct, "torque", offsetof(struct rec, torque), arr);
	ds = H5Dcreate2(f, "motor", ct, s1, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Dwrite(ds, ct, H5S_ALL, H5S_ALL, H5P_DEFAULT, recs);
	H5Dclose(ds);
	H5Tclose(arr);
	H5Tclose(ct);
	hid_t st = H5Tcopy(H5T_C_S1);
	H5Tset_size(st, 8);
	char txt[N][8];
	for (int i = 0; i < N; i++)
		snprintf(txt[i], 8, "row%d", i);
	ds = H5Dcreate2(f, "label", st, s1, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Dwrite(ds, st, H5S_ALL, H5S_ALL, H5P_DEFAULT, txt);
	H5Dclose(ds);
	H5Tclose(st);
	H5Fclose(f);

	/* 2^31 rows declared (within the row limit), 40 written; and 2^60 */
	for (int big = 0; big < 2; big++) {
		snprintf(path, sizeof(path), "%s/%s.h5", dir, big ? "declared" : "unwritten");
		f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
		hsize_t huge = (hsize_t)1 << (big ? 60 : 31), maxd = H5S_UNLIMITED, chunk = 64;
		hid_t sh = H5Screate_simple(1, &huge, &maxd), dcpl = H5Pcreate(H5P_DATASET_CREATE);
		H5Pset_chunk(dcpl, 1, &chunk);
		ds = H5Dcreate2(f, "t", H5T_IEEE_F64LE, sh, H5P_DEFAULT, dcpl, H5P_DEFAULT);
		hsize_t start = 0, cnt = N;
		H5Sselect_hyperslab(sh, H5S_SELECT_SET, &start, NULL, &cnt, NULL);
		H5Dwrite(ds, H5T_NATIVE_DOUBLE, s1, sh, H5P_DEFAULT, t);
		H5Dclose(ds);
		H5Pclose(dcpl);
		H5Sclose(sh);
		H5Fclose(f);
	}

	/* a dataset name of 70000 bytes */
	snprintf(path, sizeof(path), "%s/longname.h5", dir);
	f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	static char longname[70001];
	memset(longname, 'x', 70000);
	ds = H5Dcreate2(f, longname, H5T_IEEE_F64LE, s1, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t);
	H5Dclose(ds);
	H5Fclose(f);
	H5Sclose(s1);
	H5Sclose(s2);
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
	other_name = "fixedFrequency"; /* two event types of one name */
	n = cfusd(2, NULL);
	save(dir, "dupname.cfusd", buf, n);
	other_name = "other";
	h5file(dir, "h5py.h5", 0);
	h5file(dir, "rank3.h5", 1);
	h5file(dir, "lengths.h5", 2);
	h5file(dir, "text.h5", 3);
	h5layouts(dir);
	return 0;
}
