/* The example kernels of configs/kernels/, read from their C files and
 * analysed end to end: instances, dependences, space-time candidates and
 * the I/O type of every group, or the refusal of a kernel dse does not
 * map.
 *
 * Every expected value is worked out by hand from the C text, never
 * taken from dse's output:
 * - instances: the closed form of the loop bounds (n (n + 1) / 2 for a
 *   triangle); the bounding box is the product of the loops' extents;
 * - dependences: a read-only element is reused along every loop its
 *   subscripts do not use (one unit step of that loop, the others fixed);
 *   the accumulated output flows along the innermost reduction loop;
 * - candidates: AutoSA's enumeration, every space loop alone, then every
 *   pair, in loop order, where a space loop is one of the outermost
 *   permutable band that no dependence crosses by more than one step;
 * - I/O groups: exterior (data moves from PE to PE) when a dependence of
 *   the group is carried by a space loop of the candidate, interior when
 *   not; a read the kernel never reuses has no dependence and is fed to
 *   every PE directly, which counts as exterior.  Groups come in the
 *   order of their arrays' names, a flow before its output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cfront/cfront.h"
#include "tests/cfront/cfront_test.h"

#ifndef DSE_SOURCE_DIR
#define DSE_SOURCE_DIR "."
#endif

struct example_case {
	const char *file;	/* under configs/kernels/ */
	const char *defines;	/* comma-separated, as -D takes them */
	const char *reduction;	/* as the example's config names it */
	uint64_t points, box;
	int ops;
	/* "kind array distance" in dse's order: reads, flows, outputs, each
	 * by array name; "*" for a loop along which the distance varies.
	 */
	const char *deps;
	const char *candidates;	/* space loops, candidates split by "|" */
	const char *types;	/* e/i of each group, candidates split by "|" */
	int line, col;		/* of a refusal; 0 when the kernel maps */
	const char *stmt;	/* the statement refused */
};

static const struct example_case cases[] = {
	/* C[i][j] += alpha * A[i][k] * B[k][j] in PolyBench's order i, k, j:
	 * A is reused along j, B along i, C accumulates along k.
	 */
	{ "gemm.c", "NI=6,NJ=5,NK=4", "k", 6 * 4 * 5, 6 * 4 * 5, 3,
	  "read A 0,0,1; read B 1,0,0; flow C 0,1,0; output C 0,1,0",
	  "i|k|j|i,k|i,j|k,j", "ieii|iiee|eiii|ieee|eeii|eiee", 0, 0, NULL },
	/* The lower triangle j <= i: N (N + 1) / 2 * M instances.  A is read
	 * through two references, each with its own reuse: A[i][k] along j
	 * (it does not use j), A[j][k] along i; C accumulates along k.  So
	 * every loop is a space loop and AutoSA's six candidates come in its
	 * order.  The references are groups of their own (g1 A[i][k], g2
	 * A[j][k], then C's flow and output): on [i] A[j][k] moves between
	 * PEs and A[i][k] stays; on [k] only C moves; on [j] only A[i][k];
	 * on a pair, each group moves when its loop is one of the two.
	 */
	{ "syrk.c", "N=6,M=4", "k", 6 * 7 / 2 * 4, 6 * 4 * 6, 3,
	  "read A 0,0,1; read A 1,0,0; flow C 0,1,0; output C 0,1,0",
	  "i|k|j|i,k|i,j|k,j", "ieii|iiee|eiii|ieee|eeii|eiee", 0, 0, NULL },
	/* Two products summed: four multiplies and two additions.  A and B
	 * are each read as [i][k] (reused along j) and [j][k] (along i), so
	 * the candidates are syrk's, with A's and B's references side by
	 * side in the groups.
	 */
	{ "syr2k.c", "N=6,M=4", "k", 6 * 7 / 2 * 4, 6 * 4 * 6, 6,
	  "read A 0,0,1; read A 1,0,0; read B 0,0,1; read B 1,0,0; "
	  "flow C 0,1,0; output C 0,1,0", "i|k|j|i,k|i,j|k,j",
	  "ieieii|iiiiee|eieiii|ieieee|eeeeii|eieiee", 0, 0, NULL },
	/* out[o][r][c] += W[o][i][p][q] * In[i][2r+p][2c+q]: In is reused
	 * along o only (a step of r moves its row by 2), W along r and c;
	 * out accumulates over i, p, q, so its flow steps q, or wraps q
	 * back while p or i steps: it varies along i, p and q, and the band
	 * ends before p, where the distance can be negative.
	 */
	{ "conv-s2.c", "O=2,I=3,R=4,C=4,P=3,Q=2", "i",
	  2 * 3 * 4 * 4 * 3 * 2, 2 * 3 * 4 * 4 * 3 * 2, 2,
	  "read In 1,0,0,0,0,0; read W 0,1,0,0,0,0; read W 0,0,1,0,0,0; "
	  "flow out 0,0,0,*,*,*; output out 0,0,0,*,*,*",
	  "o|r|c|i|o,r|o,c|o,i|r,c|r,i|c,i",
	  "eiii|ieii|ieii|iiee|eeii|eeii|eiee|ieii|ieee|ieee", 0, 0, NULL },
	/* out[c][r][s] += W[c][p][q] * In[c][r+p][s+q]: every step of one
	 * loop moves In's element, so In has no reuse; W is reused along r
	 * and s; out accumulates over p and q.
	 */
	{ "depthwise.c", "C=2,R=4,S=4,P=3,Q=3", "p",
	  2 * 4 * 4 * 3 * 3, 2 * 4 * 4 * 3 * 3, 2,
	  "read W 0,1,0,0,0; read W 0,0,1,0,0; flow out 0,0,0,*,*; "
	  "output out 0,0,0,*,*", "c|r|s|p|c,r|c,s|c,p|r,s|r,p|s,p",
	  "eiii|eeii|eeii|eiee|eeii|eeii|eiee|eeii|eeee|eeee", 0, 0, NULL },
	/* C[b][i][j] += A[b][i][k] * W[b][k][j]: A reused along j, W along
	 * i, C accumulates along k; nothing is shared across b.  The groups
	 * come by array name: A, C (flow, output), W.
	 */
	{ "bmm.c", "B=2,M=3,N=4,K=5", "k", 2 * 3 * 4 * 5, 2 * 3 * 4 * 5, 2,
	  "read A 0,0,1,0; read W 0,1,0,0; flow C 0,0,0,1; output C 0,0,0,1",
	  "b|i|j|k|b,i|b,j|b,k|i,j|i,k|j,k",
	  "iiii|iiie|eiii|ieei|iiie|eiii|ieei|eiie|ieee|eeei", 0, 0, NULL },
	/* Y[i][j][k] += X[i][j][l] * U[l][k]: U reused along i and j, X
	 * along k, Y accumulates along l.
	 */
	{ "ttm.c", "I=2,J=3,K=4,L=5", "l", 2 * 3 * 4 * 5, 2 * 3 * 4 * 5, 2,
	  "read U 1,0,0,0; read U 0,1,0,0; read X 0,0,1,0; flow Y 0,0,0,1; "
	  "output Y 0,0,0,1", "i|j|k|l|i,j|i,k|i,l|j,k|j,l|k,l",
	  "eiii|eiii|ieii|iiee|eiii|eeii|eiee|eeii|eiee|ieee", 0, 0, NULL },
	/* out[v][f] += Adj[v][u] * H[u][f]: Adj reused along f, H along v,
	 * out accumulates along u.
	 */
	{ "gnn-agg-dense.c", "V=3,U=4,F=5", "u", 3 * 4 * 5, 3 * 4 * 5, 2,
	  "read Adj 0,0,1; read H 1,0,0; flow out 0,1,0; output out 0,1,0",
	  "v|u|f|v,u|v,f|u,f", "ieii|iiee|eiii|ieee|eeii|eiee", 0, 0, NULL },
	/* Several computations: the statement the array would leave out,
	 * at its position in the file (tabs count one column).
	 */
	{ "2mm.c", "NI=4,NJ=4,NK=4,NL=4", NULL, 0, 0, 0, NULL, NULL, NULL,
	  31, 5, "S3" },
	{ "3mm.c", "NI=4,NJ=4,NK=4,NL=4,NM=4", NULL, 0, 0, 0, NULL, NULL,
	  NULL, 34, 5, "S3" },
	{ "trmm.c", "M=4,N=3", NULL, 0, 0, 0, NULL, NULL, NULL, 19, 4, "S1" },
	{ "lu.c", "N=4", NULL, 0, 0, 0, NULL, NULL, NULL, 20, 5, "S2" },
	{ "cholesky.c", "N=4", NULL, 0, 0, 0, NULL, NULL, NULL, 17, 4, "S1" },
	{ "jacobi-1d.c", "T=2,N=8", NULL, 0, 0, 0, NULL, NULL, NULL, 18, 4,
	  "S1" },
	{ "jacobi-2d.c", "T=2,N=6", NULL, 0, 0, 0, NULL, NULL, NULL, 21, 5,
	  "S1" },
};

/* The dependences as the table writes them. */
static void deps_text(const poly_analysis *a, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < a->n_deps; i++) {
		const poly_dep *d = &a->dep[i];

		cf_put(buf, n, &len, "%s%s %s ", i ? "; " : "",
			poly_dep_kind_name(d->kind), d->array);
		for (int l = 0; l < a->n_loops; l++) {
			if (d->dist_min[l] == d->dist_max[l])
				cf_put(buf, n, &len, "%s%lld", l ? "," : "",
					(long long) d->dist_min[l]);
			else
				cf_put(buf, n, &len, "%s*", l ? "," : "");
		}
	}
}

/* The candidates' space loops and their groups' types. */
static void cand_text(const poly_analysis *a, char *space, char *types,
	size_t n)
{
	size_t ls = 0, lt = 0;

	space[0] = types[0] = '\0';
	for (int c = 0; c < a->n_candidates; c++) {
		const poly_candidate *k = &a->cand[c];

		cf_put(space, n, &ls, "%s", c ? "|" : "");
		cf_put(types, n, &lt, "%s", c ? "|" : "");
		for (int s = 0; s < k->n_space; s++)
			cf_put(space, n, &ls, "%s%s", s ? "," : "",
				a->loop[k->space[s]]);
		for (int g = 0; g < k->n_groups; g++)
			cf_put(types, n, &lt, "%c", k->group[g].type ==
				POLY_IO_EXTERIOR ? 'e' : 'i');
	}
}

/* Reads configs/kernels/FILE with the case's definitions. */
static cfront_kernel *read_example(const struct example_case *c,
	char *defs, size_t n, dse_error *err)
{
	char path[512];
	cfront_opts o;

	memset(&o, 0, sizeof(o));
	snprintf(path, sizeof(path), "%s/configs/kernels/%s", DSE_SOURCE_DIR,
		c->file);
	o.file = path;
	snprintf(defs, n, "%s", c->defines);
	for (char *p = strtok(defs, ","); p; p = strtok(NULL, ","))
		o.define[o.n_defines++] = p;
	dse_error_clear(err);
	return cfront_read(&o, err);
}

/* Checks one mapped kernel; returns the number of mismatches printed. */
static int check_mapped(const struct example_case *c, const poly_analysis *a)
{
	char deps[1024], space[512], types[512];
	int bad = 0;

	deps_text(a, deps, sizeof(deps));
	cand_text(a, space, types, sizeof(space));
	if (a->points != c->points || a->box_points != c->box ||
	    a->ops_per_point != c->ops)
		print_error("%s: %llu instances in a box of %llu, %d ops; want "
			"%llu in %llu, %d\n", c->file,
			(unsigned long long) a->points,
			(unsigned long long) a->box_points, a->ops_per_point,
			(unsigned long long) c->points,
			(unsigned long long) c->box, c->ops), bad++;
	if (strcmp(deps, c->deps))
		print_error("%s: dependences\n   got %s\n  want %s\n", c->file,
			deps, c->deps), bad++;
	if (strcmp(space, c->candidates))
		print_error("%s: candidates\n   got %s\n  want %s\n", c->file,
			space, c->candidates), bad++;
	else if (strcmp(types, c->types))
		print_error("%s: group types\n   got %s\n  want %s\n", c->file,
			types, c->types), bad++;
	return bad;
}

/* Checks one refusal: an input error at the statement's position. */
static int check_refused(const struct example_case *c, const dse_error *err)
{
	char want[64];

	snprintf(want, sizeof(want), "statement %s '", c->stmt);
	if (err->code == DSE_E_INPUT && err->line == c->line &&
	    err->col == c->col && strstr(err->file, c->file) &&
	    strstr(err->msg, want) && strstr(err->msg, "second computation"))
		return 0;
	print_error("%s: got %d %s:%d:%d: %s\n  want %d:%d: %s...\n", c->file,
		err->code, err->file, err->line, err->col, err->msg, c->line,
		c->col, want);
	return 1;
}

static void test_examples(void **state)
{
	int bad = 0;

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct example_case *c = &cases[i];
		char defs[256];
		dse_error err;
		cfront_kernel *k = read_example(c, defs, sizeof(defs), &err);
		poly_kernel_desc d;
		poly_analysis *a;

		if (!k)
			fail_msg("%s: the reader refused it: %d:%d: %s",
				c->file, err.line, err.col, err.msg);
		memset(&d, 0, sizeof(d));
		cfront_fill_desc(k, &d);
		d.name = "example";
		d.reduction = c->reduction;
		dse_error_clear(&err);
		a = poly_analyze(&d, &err);
		if (a && c->stmt)
			print_error("%s: accepted\n", c->file), bad++;
		else if (a)
			bad += check_mapped(c, a);
		else if (c->stmt)
			bad += check_refused(c, &err);
		else
			print_error("%s: refused: %s:%d:%d: %s\n", c->file,
				err.file, err.line, err.col, err.msg), bad++;
		poly_analysis_free(a);
		cfront_free(k);
	}
	assert_int_equal(bad, 0);
}

int run_example_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples),
	};

	return cmocka_run_group_tests_name("cfront.examples", tests, NULL,
		NULL);
}
