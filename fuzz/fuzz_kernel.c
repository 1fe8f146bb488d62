/* Fuzz target: the kernel intake of polyhedral/, the isl strings of a
 * config's [kernel] section.
 *
 * The input is split into lines, each one field of a poly_kernel_desc:
 *
 *   1 domain       (isl union set)
 *   2 reads        (isl union map)
 *   3 writes       (isl union map)
 *   4 schedule     (isl union map; empty: none)
 *   5 params       ("M=8, N=8, K=8"; malformed items are dropped)
 *   6 reduction    (a loop name; empty: none)
 *   7 max_space    (1, 2 or 3; anything else: the default)
 *
 * A missing line is an empty one.  poly_analyze reads and analyses the
 * kernel; when it succeeds, the template of every candidate is built and
 * the footprint formulas are evaluated on it.  A refusal must be an input
 * error at the line of the string to blame (what "dse" prints as
 * file:line), or out of memory.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_util.h"
#include "polyhedral/poly.h"

#define N_FIELDS 7
#define PARAM_NAME_LEN 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Splits "text" in place into at most N_FIELDS lines. */
static void split_lines(char *text, char *field[N_FIELDS])
{
	char *p = text;
	int i;

	for (i = 0; i < N_FIELDS; i++) {
		char *nl = p ? strchr(p, '\n') : NULL;

		field[i] = p ? p : (char *) "";
		if (nl)
			*nl = '\0';
		p = nl ? nl + 1 : NULL;
	}
}

/* Reads "NAME=VALUE" items separated by commas or blanks into the
 * description; names are copied into "names".
 */
static void read_params(const char *s, poly_kernel_desc *d,
	char names[POLY_MAX_PARAMS][PARAM_NAME_LEN])
{
	while (*s && d->n_params < POLY_MAX_PARAMS) {
		const char *eq;
		char *end;
		size_t len;
		long long v;

		while (*s == ',' || isspace((unsigned char) *s))
			s++;
		eq = s;
		while (*eq && *eq != '=' && *eq != ',' &&
		       !isspace((unsigned char) *eq))
			eq++;
		len = (size_t) (eq - s);
		if (*eq != '=' || len == 0 || len >= PARAM_NAME_LEN) {
			s = *eq ? eq + 1 : eq;
			continue;
		}
		errno = 0;
		v = strtoll(eq + 1, &end, 10);
		if (end == eq + 1 || errno == ERANGE) {
			s = *end ? end + 1 : end;
			continue;
		}
		memcpy(names[d->n_params], s, len);
		names[d->n_params][len] = '\0';
		d->param_name[d->n_params] = names[d->n_params];
		d->param_value[d->n_params] = v;
		d->n_params++;
		s = end;
	}
}

static poly_source at_line(int line, const char *key)
{
	poly_source s = { "fuzz.kernel", line, 1, key };

	return s;
}

/* Every candidate's template, and the footprints of one-point and whole
 * tiles: they must stay within the formulas' saturating arithmetic.
 */
static void use_analysis(const poly_analysis *a)
{
	poly_template *t = malloc(sizeof(*t));
	int c, acc, l;

	if (!t)
		return;
	for (c = 0; c < a->n_candidates; c++) {
		int64_t one[POLY_MAX_LOOPS], whole[POLY_MAX_LOOPS];
		dse_error err;

		dse_error_clear(&err);
		if (poly_template_from(a, c, t, &err) != dse_stat_ok)
			abort();
		for (l = 0; l < POLY_MAX_LOOPS; l++) {
			one[l] = 1;
			whole[l] = l < t->n_loops ? t->extent[l] : 1;
		}
		for (acc = 0; acc < t->n_accesses; acc++) {
			if (poly_footprint(t, acc, one) < 1 ||
			    poly_footprint(t, acc, whole) < 1 ||
			    poly_inner_run(t, acc, whole) < 1)
				abort();
		}
	}
	free(t);
}

static void check_refusal(const dse_error *err)
{
	if (err->code == DSE_E_NOMEM)
		return;
	if (err->code == DSE_E_INPUT && err->msg[0] &&
	    !strcmp(err->file, "fuzz.kernel") && err->line > 0)
		return;
	fprintf(stderr, "fuzz_kernel: refusal without a line or not an input "
		"error (code %d, %s:%d): %s\n", (int) err->code, err->file,
		err->line, err->msg);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char names[POLY_MAX_PARAMS][PARAM_NAME_LEN];
	char *text = fuzz_text(data, size), *field[N_FIELDS];
	poly_kernel_desc d;
	poly_analysis *a;
	dse_error err;

	if (!text)
		return 0;
	split_lines(text, field);
	memset(&d, 0, sizeof(d));
	d.name = "fuzz";
	d.domain = field[0];
	d.reads = field[1];
	d.writes = field[2];
	d.schedule = field[3][0] ? field[3] : NULL;
	read_params(field[4], &d, names);
	d.reduction = field[5][0] ? field[5] : NULL;
	d.max_space = atoi(field[6]);
	if (d.max_space < 1 || d.max_space > POLY_MAX_SPACE)
		d.max_space = 0;
	d.domain_src = at_line(1, "domain");
	d.reads_src = at_line(2, "reads");
	d.writes_src = at_line(3, "writes");
	d.schedule_src = at_line(4, "schedule");
	d.params_src = at_line(5, "params");
	d.reduction_src = at_line(6, "reduction");
	d.space_time_src = at_line(7, "space_time");
	dse_error_clear(&err);
	a = poly_analyze(&d, &err);
	if (a)
		use_analysis(a);
	else
		check_refusal(&err);
	poly_analysis_free(a);
	free(text);
	return 0;
}
