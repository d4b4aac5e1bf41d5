/*
 * mkh5links.c: HDF5 files that point outside themselves, for
 * tests/hdf5_safety_test.sh and the HDF5 fuzz corpus.
 *
 *   build/mkh5links DIR
 *
 * writes into DIR (an absolute path: the external names below are DIR's):
 *   secret.bin        8 doubles, 7001 .. 7008: "another file's bytes"
 *   src.h5            /data (8 doubles 5001 .. 5008) and /g/data
 *   ext.h5            t, and x kept in DIR/secret.bin (external storage)
 *   extzero.h5        x: 2^33 doubles kept in /dev/zero
 *   vds.h5            t, and v a virtual dataset of src.h5's /data
 *   vdsmissing.h5     t, and v mapping DIR/nosuch.h5
 *   vdsself.h5        t, and v a virtual dataset of its own /t (".")
 *   elink.h5          t, and x an external link to src.h5's /data
 *   elinkgrp.h5       t, and g an external link to src.h5's group /g
 *   elinknested.h5    imu/t, and imu/deep/x an external link
 *   softds.h5         t, x, and alias a soft link to /x
 *   softrel.h5        g/t, g/x, and g/alias a soft link to "x" (relative)
 *   softgrp.h5        g/t, and s a soft link to /g
 *   softloop.h5       t, and a -> /b, b -> /a
 *   softdangling.h5   t, and d -> /nope
 *   softviaelink.h5   g/t, g/s -> /e/data, and /e an external link to
 *                     src.h5's / (outside g: read with --group g)
 *   udlink.h5         t, and u a user-defined link (class 100)
 *   pandasitems.h5    a pandas fixed frame whose block0_items is kept in
 *                     DIR/secret.bin (names read before values)
 * Every file's own datasets hold t = 0 .. 7.
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[4096];
static const double T[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };

static char *
at(const char *name)
{
	static char buf[2][4200];
	static int i;
	i ^= 1;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static hid_t
create(const char *name)
{
	hid_t f = H5Fcreate(at(name), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	if (f < 0) {
		fprintf(stderr, "mkh5links: cannot create %s\n", at(name));
		exit(1);
	}
	return f;
}

/* A 1-D dataset of n doubles, values v (or none written), with dcpl. */
static void
dataset(hid_t loc, const char *name, hsize_t n, const double *v, hid_t dcpl)
{
	hid_t sp = H5Screate_simple(1, &n, NULL);
	hid_t ds = H5Dcreate2(loc, name, H5T_IEEE_F64LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	if (ds < 0) {
		fprintf(stderr, "mkh5links: cannot create dataset %s\n", name);
		exit(1);
	}
	if (v)
		H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
	H5Dclose(ds);
	H5Sclose(sp);
}

static void
external(const char *file, const char *efile, hsize_t n, hsize_t size)
{
	hid_t f = create(file), dcpl = H5Pcreate(H5P_DATASET_CREATE);
	if (n == 8)
		dataset(f, "t", 8, T, H5P_DEFAULT);
	H5Pset_external(dcpl, efile, 0, size);
	dataset(f, "x", n, NULL, dcpl);
	H5Pclose(dcpl);
	H5Fclose(f);
}

static void
virtual(const char *file, const char *src, const char *srcds)
{
	hid_t f = create(file), dcpl = H5Pcreate(H5P_DATASET_CREATE);
	dataset(f, "t", 8, T, H5P_DEFAULT);
	hsize_t n = 8;
	hid_t sp = H5Screate_simple(1, &n, NULL);
	H5Pset_virtual(dcpl, sp, src, srcds, sp);
	hid_t ds = H5Dcreate2(f, "v", H5T_IEEE_F64LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	H5Dclose(ds);
	H5Sclose(sp);
	H5Pclose(dcpl);
	H5Fclose(f);
}

static void
soft(const char *file, const char *group, const char *names[], const char *targets[], int n)
{
	hid_t f = create(file);
	hid_t g = group ? H5Gcreate2(f, group, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : f;
	dataset(g, "t", 8, T, H5P_DEFAULT);
	for (int i = 0; i < n; i++)
		if (targets[i][0] == '!')
			dataset(g, names[i], 8, T, H5P_DEFAULT);
		else
			H5Lcreate_soft(targets[i], g, names[i], H5P_DEFAULT, H5P_DEFAULT);
	if (g != f)
		H5Gclose(g);
	H5Fclose(f);
}

/* A user-defined link class nothing traverses: the reader must refuse
 * the link by its kind, not by what libhdf5 makes of it. */
static hid_t
ud_traverse(const char *name, hid_t cur, const void *udata, size_t size, hid_t lapl, hid_t dxpl)
{
	(void)name, (void)cur, (void)udata, (void)size, (void)lapl, (void)dxpl;
	return -1;
}

static void
udlink(void)
{
	static const H5L_class_t cls = { H5L_LINK_CLASS_T_VERS, (H5L_type_t)100, "tagk-test", NULL, NULL, NULL,
		ud_traverse, NULL, NULL };
	H5Lregister(&cls);
	hid_t f = create("udlink.h5");
	dataset(f, "t", 8, T, H5P_DEFAULT);
	H5Lcreate_ud(f, "u", (H5L_type_t)100, "x", 1, H5P_DEFAULT, H5P_DEFAULT);
	H5Fclose(f);
}

/* pandas' fixed format: axis0 (names), axis1 (index), block0_items,
 * block0_values; here block0_items, the names read before any value,
 * kept in secret.bin. */
static void
pandasitems(void)
{
	hid_t f = create("pandasitems.h5"), dcpl = H5Pcreate(H5P_DATASET_CREATE);
	dataset(f, "axis1", 8, T, H5P_DEFAULT);
	hid_t st = H5Tcopy(H5T_C_S1);
	H5Tset_size(st, 8);
	hsize_t one = 1, d2[2] = { 8, 1 };
	hid_t sp = H5Screate_simple(1, &one, NULL);
	H5Pset_external(dcpl, at("secret.bin"), 0, 8);
	hid_t ds = H5Dcreate2(f, "block0_items", st, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	H5Dclose(ds);
	H5Sclose(sp);
	sp = H5Screate_simple(2, d2, NULL);
	ds = H5Dcreate2(f, "block0_values", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, T);
	H5Dclose(ds);
	H5Sclose(sp);
	H5Tclose(st);
	H5Pclose(dcpl);
	H5Fclose(f);
}

int
main(int argc, char **argv)
{
	if (argc != 2 || argv[1][0] != '/') {
		fprintf(stderr, "usage: mkh5links /ABSOLUTE/DIR\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	double secret[8], data[8];
	for (int i = 0; i < 8; i++)
		secret[i] = 7001 + i, data[i] = 5001 + i;
	FILE *s = fopen(at("secret.bin"), "wb");
	if (!s || fwrite(secret, sizeof(secret), 1, s) != 1 || fclose(s) != 0)
		return 1;

	hid_t f = create("src.h5");
	dataset(f, "data", 8, data, H5P_DEFAULT);
	hid_t g = H5Gcreate2(f, "g", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	dataset(g, "data", 8, data, H5P_DEFAULT);
	H5Gclose(g);
	H5Fclose(f);

	external("ext.h5", at("secret.bin"), 8, 64);
	external("extzero.h5", "/dev/zero", (hsize_t)1 << 33, H5F_UNLIMITED);
	virtual("vds.h5", at("src.h5"), "/data");
	virtual("vdsmissing.h5", at("nosuch.h5"), "/data");
	virtual("vdsself.h5", ".", "/t");

	f = create("elink.h5");
	dataset(f, "t", 8, T, H5P_DEFAULT);
	H5Lcreate_external(at("src.h5"), "/data", f, "x", H5P_DEFAULT, H5P_DEFAULT);
	H5Fclose(f);
	f = create("elinkgrp.h5");
	dataset(f, "t", 8, T, H5P_DEFAULT);
	H5Lcreate_external(at("src.h5"), "/g", f, "g", H5P_DEFAULT, H5P_DEFAULT);
	H5Fclose(f);
	f = create("elinknested.h5");
	g = H5Gcreate2(f, "imu", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	dataset(g, "t", 8, T, H5P_DEFAULT);
	hid_t g2 = H5Gcreate2(g, "deep", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	H5Lcreate_external(at("src.h5"), "/data", g2, "x", H5P_DEFAULT, H5P_DEFAULT);
	H5Gclose(g2);
	H5Gclose(g);
	H5Fclose(f);

	const char *n1[] = { "x", "alias" }, *t1[] = { "!", "/x" };
	soft("softds.h5", NULL, n1, t1, 2);
	const char *t2[] = { "!", "x" };
	soft("softrel.h5", "g", n1, t2, 2);
	const char *n3[] = { "s" }, *t3[] = { "/g" };
	soft("softgrp.h5", "g", NULL, NULL, 0);
	f = H5Fopen(at("softgrp.h5"), H5F_ACC_RDWR, H5P_DEFAULT);
	H5Lcreate_soft(t3[0], f, n3[0], H5P_DEFAULT, H5P_DEFAULT);
	H5Fclose(f);
	const char *n4[] = { "a", "b" }, *t4[] = { "/b", "/a" };
	soft("softloop.h5", NULL, n4, t4, 2);
	const char *n5[] = { "d" }, *t5[] = { "/nope" };
	soft("softdangling.h5", NULL, n5, t5, 1);
	f = create("softviaelink.h5");
	g = H5Gcreate2(f, "g", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	dataset(g, "t", 8, T, H5P_DEFAULT);
	H5Lcreate_soft("/e/data", g, "s", H5P_DEFAULT, H5P_DEFAULT);
	H5Gclose(g);
	H5Lcreate_external(at("src.h5"), "/", f, "e", H5P_DEFAULT, H5P_DEFAULT);
	H5Fclose(f);
	udlink();
	pandasitems();
	return 0;
}
