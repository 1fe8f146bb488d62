#include <stdio.h>
#include <stdlib.h>

#include "mm_kernel.h"

poly_template mm_kernel_template(int64_t m, int64_t n, int64_t k)
{
	poly_kernel_desc d = { 0 };
	poly_template t;
	dse_error err;

	d.name = "mm";
	d.domain = "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and "
		"0 <= k < K }";
	d.reads = "[M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; "
		"S0[i,j,k] -> C[i,j] }";
	d.writes = "[M,N,K] -> { S0[i,j,k] -> C[i,j] }";
	d.n_params = 3;
	d.param_name[0] = "M";
	d.param_name[1] = "N";
	d.param_name[2] = "K";
	d.param_value[0] = m;
	d.param_value[1] = n;
	d.param_value[2] = k;
	if (poly_template_build(&d, 3, &t, &err) != dse_stat_ok) {
		fprintf(stderr, "mm_kernel_template: %s\n", err.msg);
		abort();
	}
	return t;
}
