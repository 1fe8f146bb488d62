/* core: the names of the model kinds and the Student's t quantile of the
 * sampled models' confidence intervals.
 */
#include <math.h>
#include <string.h>

#include "core/report.h"

static const char *const kind_names[SIM_N_MODEL_KINDS] = {
#define SIM_MODEL_KIND_NAME(id, name) [id] = name,
	SIM_MODEL_KIND_TABLE(SIM_MODEL_KIND_NAME)
#undef SIM_MODEL_KIND_NAME
};

const char *sim_model_kind_name(int kind)
{
	return kind >= 0 && kind < SIM_N_MODEL_KINDS ? kind_names[kind] : NULL;
}

int sim_model_kind_find(const char *name)
{
	int k;

	for (k = 0; name && k < SIM_N_MODEL_KINDS; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return -1;
}

/* The standard normal quantile (Acklam's rational approximation, relative
 * error below 1.2e-9).
 */
static double normal_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01,
		2.209460984245205e+02, -2.759285104469687e+02,
		1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01,
		1.615858368580409e+02, -1.556989798598866e+02,
		6.680131188771972e+01, -1.328068155288572e+01 };
	static const double cc[] = { -7.784894002430293e-03,
		-3.223964580411365e-01, -2.400758277161838e+00,
		-2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03,
		3.224671290700398e-01, 2.445134137142996e+00,
		3.754408661907416e+00 };
	double q, r;

	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		return (((((cc[0] * q + cc[1]) * q + cc[2]) * q + cc[3]) * q +
			cc[4]) * q + cc[5]) / ((((d[0] * q + d[1]) * q +
			d[2]) * q + d[3]) * q + 1);
	}
	if (p > 1 - 0.02425)
		return -normal_quantile(1 - p);
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r +
		a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r +
		b[4]) * r + 1);
}

/* Student's t quantile: exact for 1 and 2 degrees of freedom, else the
 * Cornish-Fisher expansion around the normal quantile (within 1e-3 for 3
 * and more).
 */
double sim_t_quantile(double p, double df)
{
	double z, z2, a;

	if (df < 1.5) {
		return tan(3.14159265358979323846 * (p - 0.5));
	}
	if (df < 2.5) {
		a = 2 * p - 1;
		return a * sqrt(2.0 / (1 - a * a));
	}
	z = normal_quantile(p);
	z2 = z * z;
	return z + z * (z2 + 1) / (4 * df) +
		z * ((5 * z2 + 16) * z2 + 3) / (96 * df * df) +
		z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * df * df * df) +
		z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) /
		(92160 * df * df * df * df);
}
