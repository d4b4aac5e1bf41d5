/* units.c: the units of the columns of tagk's schemas (tagk-formats(5)),
 * written into the binary stream's header; see binary.h. */
#include <string.h>
#include "binary.h"

static const struct {
	const char *names;   /* space-separated */
	const char *unit;
} units[] = {
	{ "t", "s" },
	{ "ax ay az", "m/s^2" },
	{ "gx gy gz", "rad/s" },
	{ "alx aly alz", "rad/s^2" },
	{ "fx fy fz thrust", "N" },
	{ "tx ty tz", "N m" },
	{ "qw qx qy qz row physical span", "1" },
	{ "px py pz", "m" },
	{ "vx vy vz", "m/s" },
	{ "m", "kg" },
	{ "mcx mcy mcz", "kg m" },
	{ "Ixx Ixy Iyy Ixz Iyz Izz", "kg m^2" },
};

const char *
binary_unit(const char *name)
{
	if (strncmp(name, "true_", 5) == 0)
		name += 5;
	else if (strncmp(name, "sd_", 3) == 0)
		name += 3;
	size_t n = strlen(name);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		for (const char *p = units[i].names; *p;) {
			size_t l = strcspn(p, " ");
			if (l == n && strncmp(p, name, n) == 0)
				return units[i].unit;
			p += l;
			p += *p == ' ';
		}
	return "";
}
