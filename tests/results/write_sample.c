/* Writes a small results file with known contents, for checks by tools
 * that do not use our reader (h5py, h5dump).  check_h5py.py holds the
 * same values.
 */
#include <stdio.h>
#include <string.h>

#include "results/res.h"

static int report(const dse_error *err)
{
	char buf[DSE_ERROR_MSG_LEN + 64];

	dse_error_format(err, buf, sizeof(buf));
	fprintf(stderr, "write_sample: %s\n", buf);
	return 1;
}

int main(int argc, char **argv)
{
	static const int64_t id[] = { 0, 1, 2 };
	static const double latency[] = { 1200.5, 980.25, -1.0e300 };
	static const int64_t dsp[] = { 512, 1024, -7 };
	char long_str[2 * RES_STR_LEN + 1];
	const char *sizes[] = {
		"kernel[]->space_time[3];kernel[]->array_part[16,16,16]",
		"",
		long_str
	};
	const res_column cols[] = {
		{ "id", "", RES_I64, id },
		{ "latency", "cycles", RES_F64, latency },
		{ "dsp", "DSP", RES_I64, dsp },
		{ "sa_sizes", "", RES_STR, sizes },
	};
	dse_error err;
	res_file *f;

	if (argc != 2) {
		fprintf(stderr, "usage: write_sample FILE.h5\n");
		return 2;
	}
	memset(long_str, 'z', 2 * RES_STR_LEN);
	long_str[2 * RES_STR_LEN] = '\0';
	f = res_file_create(argv[1], &err);
	if (!f)
		return report(&err);
	if (res_attr_string(f, "version", "0.1.0", &err) < 0 ||
	    res_attr_string(f, "config", "[sweep]\nkernel = mm\n", &err) < 0 ||
	    res_attr_i64(f, "seed", 42, &err) < 0 ||
	    res_attr_f64(f, "wall_time", 3.25, &err) < 0 ||
	    res_write_table(f, "/mm/front", cols, 4, 3, &err) < 0 ||
	    res_write_table(f, "/mm/empty", cols, 2, 0, &err) < 0) {
		res_file_abort(f);
		return report(&err);
	}
	if (res_file_commit(f, &err) < 0)
		return report(&err);
	return 0;
}
