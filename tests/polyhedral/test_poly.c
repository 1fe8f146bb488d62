/* Tests of polyhedral/: the shared helpers and the entry point, which runs
 * one group of tests by name (ctest runs each group on its own, and again
 * under valgrind).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include "polyhedral/internal.h"
#include "tests/polyhedral/poly_test.h"

const poly_source test_sources[N_SRC] = {
	[SRC_NONE] = { NULL, 0, 0, NULL },
	[SRC_DOMAIN] = { "kernel.cfg", 3, 10, "domain" },
	[SRC_READS] = { "kernel.cfg", 4, 9, "reads" },
	[SRC_WRITES] = { "kernel.cfg", 5, 10, "writes" },
	[SRC_SCHEDULE] = { "kernel.cfg", 6, 12, "schedule" },
	[SRC_PARAMS] = { "kernel.cfg", 7, 1, "params" },
	[SRC_REDUCTION] = { "kernel.cfg", 8, 13, "reduction" },
	[SRC_SPACE_TIME] = { "kernel.cfg", 12, 14, "space_time" },
};

poly_kernel_desc test_desc(const char *name, const int64_t *values)
{
	const example_kernel *k = example_kernel_find(name);
	poly_kernel_desc d;

	if (!k) {
		fprintf(stderr, "no example kernel '%s'\n", name);
		abort();
	}
	d = example_kernel_desc(k, values);
	d.domain_src = test_sources[SRC_DOMAIN];
	d.reads_src = test_sources[SRC_READS];
	d.writes_src = test_sources[SRC_WRITES];
	d.schedule_src = test_sources[SRC_SCHEDULE];
	d.params_src = test_sources[SRC_PARAMS];
	d.reduction_src = test_sources[SRC_REDUCTION];
	d.space_time_src = test_sources[SRC_SPACE_TIME];
	return d;
}

poly_analysis *test_analyze(const poly_kernel_desc *desc, const char *what)
{
	dse_error err;
	poly_analysis *a;

	dse_error_clear(&err);
	a = poly_analyze(desc, &err);
	if (!a)
		fail_msg("%s: analysis failed: %s", what, err.msg);
	assert_int_equal(err.code, DSE_E_NONE);
	return a;
}

#define CACHE_SIZE 32

struct cache_entry {
	const char *kernel;
	int64_t values[MAX_VALUES];
	int max_space;
	poly_analysis *a;
};

struct analysis_cache {
	int n;
	struct cache_entry entry[CACHE_SIZE];
};

int cache_setup(void **state)
{
	*state = calloc(1, sizeof(analysis_cache));
	return *state ? 0 : -1;
}

int cache_teardown(void **state)
{
	analysis_cache *cache = *state;

	for (int i = 0; cache && i < cache->n; i++)
		poly_analysis_free(cache->entry[i].a);
	free(cache);
	return 0;
}

const poly_analysis *cache_get(analysis_cache *cache, const char *kernel,
	const int64_t *values, int max_space)
{
	struct cache_entry *e;
	poly_kernel_desc d;

	for (int i = 0; i < cache->n; i++) {
		e = &cache->entry[i];
		if (!strcmp(e->kernel, kernel) && e->max_space == max_space &&
		    !memcmp(e->values, values, sizeof(e->values)))
			return e->a;
	}
	if (cache->n == CACHE_SIZE)
		fail_msg("analysis cache full: raise CACHE_SIZE");
	e = &cache->entry[cache->n];
	e->kernel = kernel;
	memcpy(e->values, values, sizeof(e->values));
	e->max_space = max_space;
	d = test_desc(kernel, values);
	d.max_space = max_space;
	e->a = test_analyze(&d, kernel);
	cache->n++;
	return e->a;
}

const char *loop_name(const poly_analysis *a, int l)
{
	return l >= 0 && l < a->n_loops ? a->loop[l] : "-";
}

void fmt_loop_set(const poly_analysis *a, const int *flag, char *buf,
	size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int l = 0; l < a->n_loops; l++)
		if (flag[l])
			poly__append(buf, size, &len, "%s%s", len ? " " : "", a->loop[l]);
	if (!len)
		poly__append(buf, size, &len, "-");
}

void fmt_access(const poly_access *x, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	poly__append(buf, size, &len, "%s %s%s ", x->text, x->write ? "W" : "R",
		x->may ? " may" : "");
	for (int d = 0; d < x->n_dims; d++)
		poly__append(buf, size, &len, "%s%lld", d ? "x" : "",
			(long long) x->extent[d]);
}

void fmt_dep(const poly_analysis *a, const poly_dep *d, char *buf,
	size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	poly__append(buf, size, &len, "%s %s %s (", d->name, poly_dep_kind_name(d->kind),
		d->access >= 0 && d->access < a->n_accesses ?
		a->access[d->access].text : "?");
	for (int l = 0; l < a->n_loops; l++) {
		poly__append(buf, size, &len, "%s%lld", l ? "," : "",
			(long long) d->dist_min[l]);
		if (d->dist_max[l] != d->dist_min[l])
			poly__append(buf, size, &len, "..%lld",
				(long long) d->dist_max[l]);
	}
	poly__append(buf, size, &len, ")%s%s", d->uniform ? " uniform" : "",
		d->unknown ? " unknown" : "");
}

void fmt_candidate(const poly_analysis *a, const poly_candidate *c,
	char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int s = 0; s < c->n_space; s++)
		poly__append(buf, size, &len, "%s%s", s ? "," : "",
			loop_name(a, c->space[s]));
	poly__append(buf, size, &len, "|");
	for (int t = 0; t < c->n_time; t++)
		poly__append(buf, size, &len, "%s%s", t ? "," : "",
			loop_name(a, c->time[t]));
}

void fmt_group(const poly_group *g, int n_space, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	poly__append(buf, size, &len, "%s %s %s ", g->name, g->array,
		poly_dep_kind_name(g->kind));
	for (int i = 0; i < g->n_deps; i++)
		poly__append(buf, size, &len, "%sD%d", i ? "," : "", g->dep[i] + 1);
	if (!g->n_deps)
		poly__append(buf, size, &len, "-");
	poly__append(buf, size, &len, " (");
	for (int s = 0; s < n_space; s++)
		poly__append(buf, size, &len, "%s%d", s ? "," : "", g->dir[s]);
	poly__append(buf, size, &len, ")%s %s%s%s L%d buf=L%d%s%s",
		g->dir_known ? "" : "?",
		g->type == POLY_IO_EXTERIOR ? "ext" : "int",
		g->pruned ? " pruned" : "", g->embedded ? " emb" : "",
		g->levels, g->buffer_level + 1, g->copy_in ? " in" : "",
		g->copy_out ? " out" : "");
}

void expect_str(const char *what, const char *item, const char *got,
	const char *want)
{
	if (strcmp(got, want))
		fail_msg("%s: %s\n   got '%s'\n  want '%s'", what, item, got,
			want);
}

/* Fixes the parameters of set named in desc and projects them out. */
static isl_set *fix_set(const poly_kernel_desc *desc, isl_set *set)
{
	for (int p = 0; set && p < desc->n_params; p++) {
		int pos = isl_set_find_dim_by_name(set, isl_dim_param,
			desc->param_name[p]);

		if (pos >= 0)
			set = isl_set_project_out(isl_set_fix_si(set,
				isl_dim_param, pos, (int) desc->param_value[p]),
				isl_dim_param, pos, 1);
	}
	return set;
}

/* The same for a map. */
static isl_map *fix_map(const poly_kernel_desc *desc, isl_map *map)
{
	for (int p = 0; map && p < desc->n_params; p++) {
		int pos = isl_map_find_dim_by_name(map, isl_dim_param,
			desc->param_name[p]);

		if (pos >= 0)
			map = isl_map_project_out(isl_map_fix_si(map,
				isl_dim_param, pos, (int) desc->param_value[p]),
				isl_dim_param, pos, 1);
	}
	return map;
}

int isl_text_equal(const poly_kernel_desc *desc, const char *got,
	const char *want, int is_map)
{
	isl_ctx *ctx = isl_ctx_alloc();
	isl_bool eq = isl_bool_error;

	if (is_map) {
		isl_map *g = isl_map_read_from_str(ctx, got);
		isl_map *w = fix_map(desc, isl_map_read_from_str(ctx, want));

		if (g && w)
			eq = isl_map_is_equal(g, w);
		isl_map_free(g);
		isl_map_free(w);
	} else {
		isl_set *g = isl_set_read_from_str(ctx, got);
		isl_set *w = fix_set(desc, isl_set_read_from_str(ctx, want));

		if (g && w)
			eq = isl_set_is_equal(g, w);
		isl_set_free(g);
		isl_set_free(w);
	}
	isl_ctx_free(ctx);
	return eq == isl_bool_true;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(void);
	} groups[] = {
		{ "analysis", run_analysis_tests },
		{ "groups", run_groups_tests },
		{ "template", run_template_tests },
		{ "formulas", run_formulas_tests },
		{ "bad", run_bad_tests },
		{ "threads", run_threads_tests },
	};
	const char *group = argc > 1 ? argv[1] : "all";
	int all = !strcmp(group, "all"), failed = 0, ran = 0;

	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (all || !strcmp(group, groups[i].name)) {
			failed += groups[i].run();
			ran = 1;
		}
	if (!ran) {
		fprintf(stderr, "unknown test group '%s'\n", group);
		return 2;
	}
	return failed ? 1 : 0;
}
