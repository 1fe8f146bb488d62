/* Example kernels for tests and benchmarks (see mm_kernel.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm_kernel.h"

/* The same strings as the example configs in configs/, so that the
 * tests and benchmarks analyse what users run.
 */
static const example_kernel examples[] = {
	{ "mm",
	  "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and "
	  "0 <= k < K }",
	  "[M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; "
	  "S0[i,j,k] -> C[i,j] }",
	  "[M,N,K] -> { S0[i,j,k] -> C[i,j] }",
	  NULL, 3, { "M", "N", "K" }, NULL },
	{ "mm-init",
	  "[M,N,K] -> { S0[i,j] : 0 <= i < M and 0 <= j < N; "
	  "S1[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K }",
	  "[M,N,K] -> { S1[i,j,k] -> A[i,k]; S1[i,j,k] -> B[k,j]; "
	  "S1[i,j,k] -> C[i,j] }",
	  "[M,N,K] -> { S0[i,j] -> C[i,j]; S1[i,j,k] -> C[i,j] }",
	  NULL, 3, { "M", "N", "K" }, "k" },
	{ "conv",
	  "[O,I,R,C,P,Q] -> { S0[o,r,c,i,p,q] : 0 <= o < O and 0 <= r < R "
	  "and 0 <= c < C and 0 <= i < I and 0 <= p < P and 0 <= q < Q }",
	  "[O,I,R,C,P,Q] -> { S0[o,r,c,i,p,q] -> W[o,i,p,q]; "
	  "S0[o,r,c,i,p,q] -> In[i,r+p,c+q]; S0[o,r,c,i,p,q] -> out[o,r,c] }",
	  "[O,I,R,C,P,Q] -> { S0[o,r,c,i,p,q] -> out[o,r,c] }",
	  NULL, 6, { "O", "I", "R", "C", "P", "Q" }, "i" },
	{ "mttkrp",
	  "[I,J,K,L] -> { S0[i,j,k,l] : 0 <= i < I and 0 <= j < J and "
	  "0 <= k < K and 0 <= l < L }",
	  "[I,J,K,L] -> { S0[i,j,k,l] -> A[i,k,l]; S0[i,j,k,l] -> B[k,j]; "
	  "S0[i,j,k,l] -> C[l,j]; S0[i,j,k,l] -> D[i,j] }",
	  "[I,J,K,L] -> { S0[i,j,k,l] -> D[i,j] }",
	  NULL, 4, { "I", "J", "K", "L" }, "l" },
	{ "ttmc",
	  "[I,J,K,L,M] -> { S0[i,j,k,l,m] : 0 <= i < I and 0 <= j < J and "
	  "0 <= k < K and 0 <= l < L and 0 <= m < M }",
	  "[I,J,K,L,M] -> { S0[i,j,k,l,m] -> A[i,l,m]; "
	  "S0[i,j,k,l,m] -> B[l,j]; S0[i,j,k,l,m] -> C[m,k]; "
	  "S0[i,j,k,l,m] -> D[i,j,k] }",
	  "[I,J,K,L,M] -> { S0[i,j,k,l,m] -> D[i,j,k] }",
	  NULL, 5, { "I", "J", "K", "L", "M" }, "m" },
	{ "fir",
	  "[N,T] -> { S0[i,j] : 0 <= i < N and 0 <= j < T }",
	  "[N,T] -> { S0[i,j] -> x[i+j]; S0[i,j] -> h[j]; S0[i,j] -> y[i] }",
	  "[N,T] -> { S0[i,j] -> y[i] }",
	  NULL, 2, { "N", "T" }, "j" },
	{ "gnn-agg",
	  "[E,F,V] -> { S[e,f] : 0 <= e < E and 0 <= f < F }",
	  "[E,F,V] -> { S[e,f] -> val[e]; S[e,f] -> H[v,f] : 0 <= v < V; "
	  "S[e,f] -> out[v,f] : 0 <= v < V }",
	  "[E,F,V] -> { S[e,f] -> out[v,f] : 0 <= v < V }",
	  NULL, 3, { "E", "F", "V" }, "e" },
};

int n_example_kernels(void)
{
	return (int) (sizeof(examples) / sizeof(examples[0]));
}

const example_kernel *example_kernel_at(int i)
{
	return i >= 0 && i < n_example_kernels() ? &examples[i] : NULL;
}

const example_kernel *example_kernel_find(const char *name)
{
	for (int i = 0; name && i < n_example_kernels(); i++)
		if (!strcmp(examples[i].name, name))
			return &examples[i];
	return NULL;
}

poly_kernel_desc example_kernel_desc(const example_kernel *k,
	const int64_t *values)
{
	poly_kernel_desc d;

	memset(&d, 0, sizeof(d));
	d.name = k->name;
	d.domain = k->domain;
	d.reads = k->reads;
	d.writes = k->writes;
	d.schedule = k->schedule;
	d.reduction = k->reduction;
	d.n_params = k->n_params;
	for (int p = 0; p < k->n_params; p++) {
		d.param_name[p] = k->param[p];
		d.param_value[p] = values[p];
	}
	return d;
}

poly_template mm_kernel_template(int64_t m, int64_t n, int64_t k)
{
	const int64_t values[] = { m, n, k };
	poly_kernel_desc d = example_kernel_desc(example_kernel_find("mm"),
		values);
	poly_template t;
	dse_error err;

	if (poly_template_build(&d, 3, &t, &err) != dse_stat_ok) {
		fprintf(stderr, "mm_kernel_template: %s\n", err.msg);
		abort();
	}
	return t;
}
