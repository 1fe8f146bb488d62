/* How far the analytic model is from the full cycle simulation, over
 * random designs of the example kernels written in random loop orders
 * (tests/support/designs.h draws them: random sizes, loop order,
 * space-time candidate, data type, knob options and legal design).
 *
 * Prints the distribution of the error of the analytic cycles against
 * the full simulation's (median, 95th percentile and worst of |error|,
 * and the mean signed error) over the designs where DRAM bandwidth does
 * not decide (the analytic model's bound_by is not "dram"), then over
 * every design, how often both models name the same bound (bound_by),
 * then the worst designs with their bound.  Never fails on an error figure or a time; exits with
 * status 1 only when the front end or a simulation fails.
 *
 * Usage: bench_agree [DESIGNS [SEED [WORST]]]   (default 2000 designs,
 * seed 1, the 8 worst designs listed)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/cycle.h"
#include "tests/support/designs.h"

#define GOAL_PCT 2.0
#define GOAL_SHARE 0.95

struct sample {
	double err;		/* (analytic - full) / full */
	int dram;		/* DRAM bandwidth decides the design */
	int same_bound;		/* both models name the same bound */
	char what[768];
};

static int by_abs(const void *a, const void *b)
{
	double x = fabs(((const struct sample *) a)->err);
	double y = fabs(((const struct sample *) b)->err);

	return x < y ? -1 : x > y;
}

/* Median, 95th percentile and worst |error| of the samples with dram ==
 * "dram" (or all when dram < 0), sorted by |error|; the share within the
 * goal and the mean signed error.
 */
static void report(const char *what, const struct sample *s, size_t n,
	int dram)
{
	double *e = malloc(sizeof(double) * (n ? n : 1)), sum = 0;
	size_t m = 0, in = 0;

	if (!e)
		return;
	for (size_t i = 0; i < n; i++)
		if (dram < 0 || s[i].dram == dram) {
			e[m++] = fabs(s[i].err);
			sum += s[i].err;
			in += fabs(s[i].err) <= GOAL_PCT / 100.0;
		}
	if (m == 0) {
		printf("%-28s no designs\n", what);
		free(e);
		return;
	}
	/* Already in order of |error|. */
	printf("%-28s %6zu designs  median %6.2f%%  p95 %7.2f%%  worst "
		"%8.2f%%  mean %+6.2f%%  within %.0f%%: %5.1f%%\n", what, m,
		100 * e[m / 2], 100 * e[(size_t) ceil(0.95 * (double) m) - 1],
		100 * e[m - 1], 100 * sum / (double) m, GOAL_PCT,
		100.0 * (double) in / (double) m);
	free(e);
}

/* The design as "name=value" per knob, cut to fit buf. */
static void knob_text(const sim_model *m, const int32_t *knobs, char *buf,
	size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < sim_model_n_knobs(m) && len + 1 < size; k++) {
		int n = snprintf(buf + len, size - len, "%s%s=%d", k ? " " : "",
			sim_model_knob_name(m, k), (int) knobs[k]);

		len = n < 0 ? size : len + (size_t) n;
	}
}

/* Runs one drawn case through both models into *s; returns 0, 1 when the
 * case has no design (skipped), -1 on failure.
 */
static int run_case(agree_case *c, struct sample *s)
{
	sim_cycle_report full;
	sim_metrics an;
	dse_error err;
	char sa[256];

	dse_error_clear(&err);
	sim_eval(c->model, c->knobs, &an);
	if (sim_simulate(c->model, c->knobs, SIM_MODEL_FULL, NULL, &full,
			&err) != dse_stat_ok) {
		fprintf(stderr, "bench_agree: %s: %s\n", c->label, err.msg);
		return -1;
	}
	if (an.status != SIM_OK || full.metrics.cycles == 0)
		return 1;
	s->err = ((double) an.cycles - (double) full.metrics.cycles) /
		(double) full.metrics.cycles;
	s->dram = an.bound_by == SIM_BOUND_DRAM;
	s->same_bound = an.bound_by == full.metrics.bound_by &&
		an.bound_group == full.metrics.bound_group;
	knob_text(c->model, c->knobs, sa, sizeof(sa));
	snprintf(s->what, sizeof(s->what), "%s {%s} analytic %llu full "
		"%llu bound %s %.0f%% (full: %s %.0f%%)", c->label, sa,
		(unsigned long long) an.cycles,
		(unsigned long long) full.metrics.cycles,
		sim_bound_name(an.bound_by), 100 * an.bound_share,
		sim_bound_name(full.metrics.bound_by),
		100 * full.metrics.bound_share);
	return 0;
}

int main(int argc, char **argv)
{
	long want = argc > 1 ? atol(argv[1]) : 2000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1, state;
	design_caps caps = { 4096, 256, getenv("NO_L2") != NULL };
	struct sample *s;
	size_t n = 0, draws = 0, same = 0;
	size_t n_worst = argc > 3 ? strtoul(argv[3], NULL, 10) : 8;
	clock_t t0 = clock();

	if (want < 1)
		want = 1;
	s = calloc((size_t) want, sizeof(*s));
	if (!s)
		return 1;
	state = seed;
	printf("analytic model against the full cycle simulation: %ld random "
		"designs of the example kernels in random loop orders "
		"(seed %llu)\n", want, (unsigned long long) seed);
	while ((long) n < want && draws < (size_t) want * 20) {
		agree_case c;
		dse_error err;
		int r;

		dse_error_clear(&err);
		draws++;
		r = agree_case_draw(&state, &caps, &c, &err);
		if (r == 0)
			r = run_case(&c, &s[n]);
		agree_case_clear(&c);
		if (r < 0) {
			fprintf(stderr, "bench_agree: %s\n", err.msg[0] ?
				err.msg : "simulation failed");
			free(s);
			return 1;
		}
		n += r == 0;
	}
	qsort(s, n, sizeof(*s), by_abs);
	report("DRAM does not decide", s, n, 0);
	report("DRAM decides", s, n, 1);
	report("all designs", s, n, -1);
	for (size_t i = 0; i < n; i++)
		same += s[i].same_bound;
	printf("bound_by (kind and array) the same in both models on "
		"%.1f%% of the designs\n", n ? 100.0 * (double) same /
		(double) n : 0.0);
	printf("goal: within %.0f%% on %.0f%% of the designs where DRAM does "
		"not decide\n", GOAL_PCT, 100 * GOAL_SHARE);
	printf("worst designs where DRAM does not decide:\n");
	for (size_t i = n, k = 0; i > 0 && k < n_worst; i--)
		if (!s[i - 1].dram) {
			printf("  %+7.2f%%  %s\n", 100 * s[i - 1].err,
				s[i - 1].what);
			k++;
		}
	printf("%zu designs in %.1f s of CPU\n", n,
		(double) (clock() - t0) / CLOCKS_PER_SEC);
	free(s);
	return 0;
}
