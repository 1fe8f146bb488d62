/* The kernel handed on: the statements of the walk as the isl strings
 * polyhedral/ takes, the parameters with their values, the statements'
 * operations and positions, the on-chip arrays and the data type.
 *
 * The domain string lists the statements in program order (polyhedral/
 * keeps the order a domain is written in).  The schedule is the
 * statements' places in their blocks interleaved with their loops, as
 * pet writes it: S[i,j] inside the second loop of a block goes to
 * [1, i, 0, j, 0, ...], padded with zeros to the deepest statement, with
 * a loop that counts down entering negated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/map.h>
#include <isl/space.h>
#include <isl/union_map.h>

#include "cfront/internal.h"

struct cf_stmt_out {
	char name[8];
	int ops;
	int line, col;
	char text[POLY_TEXT_LEN];
};

struct cfront_kernel {
	char *domain, *reads, *writes, *schedule;
	int n_params;
	char param_name[POLY_MAX_PARAMS][POLY_NAME_LEN];
	int64_t param_value[POLY_MAX_PARAMS];
	int n_stmts;
	struct cf_stmt_out stmt[POLY_MAX_STMTS];
	int n_local;
	char local[POLY_MAX_LOCAL][POLY_NAME_LEN];
	char file[CF_FILE_LEN];
	char function[POLY_NAME_LEN];
	int scop_line, scop_col;
	const char *dtype;
	char type_note[CF_NOTE_LEN];
	int type_line, type_col;	/* of the array the note names */
	double seconds;
};

/* The parameter space of the kernel, in the order the parameters were
 * met.
 */
static __isl_give isl_space *param_space(struct cf_walk *w)
{
	isl_space *space = isl_space_params_alloc(w->ctx,
		(unsigned) w->n_params);

	for (int i = 0; i < w->n_params; i++)
		space = isl_space_set_dim_name(space, isl_dim_param,
			(unsigned) i, w->param[i].name);
	return space;
}

/* Appends the part of isl text "str" between its outer braces. */
static int append_inner(char **buf, size_t *len, const char *str)
{
	const char *open = str ? strchr(str, '{') : NULL;
	const char *close = str ? strrchr(str, '}') : NULL;
	size_t n;
	char *grown;

	if (!open || !close || close < open)
		return -1;
	n = (size_t) (close - open - 1);
	grown = realloc(*buf, *len + n + 3);
	if (!grown)
		return -1;
	*buf = grown;
	if (*len > 0) {
		memcpy(*buf + *len, "; ", 2);
		*len += 2;
	}
	memcpy(*buf + *len, open + 1, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 0;
}

/* "[N, M] -> { S0[...] : ...; S1[...] : ... }" in program order. */
static char *domain_text(struct cf_walk *w, __isl_keep isl_space *params)
{
	char *inner = NULL, *prefix, *out;
	size_t len = 0;
	isl_set *none = isl_set_universe(isl_space_copy(params));
	char *head = isl_set_to_str(none);

	isl_set_free(none);
	for (int s = 0; s < w->n_stmts && head; s++) {
		isl_set *set = isl_set_align_params(isl_set_copy(
			w->stmt[s].domain), isl_space_copy(params));
		char *str = isl_set_to_str(set);
		int empty = isl_set_is_empty(set) == isl_bool_true;

		isl_set_free(set);
		if (!str || (!empty && append_inner(&inner, &len, str) < 0)) {
			free(str);
			free(inner);
			free(head);
			return NULL;
		}
		free(str);
	}
	/* The parameter part of "[N] -> {  : }" or "{  : }". */
	prefix = head ? strchr(head, '{') : NULL;
	if (!prefix) {
		free(inner);
		free(head);
		return NULL;
	}
	*prefix = '\0';
	out = malloc(strlen(head) + (inner ? strlen(inner) : 0) + 8);
	if (out)
		sprintf(out, "%s{ %s }", head, inner ? inner : "");
	free(inner);
	free(head);
	return out;
}

/* The union of every statement's reads (or writes). */
static char *access_text(struct cf_walk *w, __isl_keep isl_space *params,
	int write)
{
	isl_union_map *all = isl_union_map_empty(isl_space_copy(params));
	char *str;

	for (int s = 0; s < w->n_stmts; s++)
		all = isl_union_map_union(all, isl_union_map_copy(write ?
			w->stmt[s].writes : w->stmt[s].reads));
	all = isl_union_map_align_params(all, isl_space_copy(params));
	str = isl_union_map_to_str(all);
	isl_union_map_free(all);
	return str;
}

/* The schedule of statement s, padded to "depth" loops. */
static __isl_give isl_union_map *stmt_schedule(struct cf_walk *w,
	const struct cf_stmt
	*s, int depth)
{
	char text[1024];
	size_t len;

	len = (size_t) snprintf(text, sizeof(text), "{ %s[", s->name);
	for (int d = 0; d < s->depth; d++)
		len += (size_t) snprintf(text + len, sizeof(text) - len,
			"%sc%d", d ? "," : "", d);
	len += (size_t) snprintf(text + len, sizeof(text) - len, "] -> [");
	for (int d = 0; d <= depth; d++) {
		int here = d <= s->depth;

		len += (size_t) snprintf(text + len, sizeof(text) - len, "%d",
			here ? s->pos[d] : 0);
		if (d == depth)
			break;
		if (d < s->depth)
			len += (size_t) snprintf(text + len, sizeof(text) - len,
				", %sc%d, ", s->step[d] < 0 ? "-" : "", d);
		else
			len += (size_t) snprintf(text + len, sizeof(text) - len,
				", 0, ");
	}
	snprintf(text + len, sizeof(text) - len, "] }");
	return isl_union_map_read_from_str(w->ctx, text);
}

static char *schedule_text(struct cf_walk *w, __isl_keep isl_space *params)
{
	isl_union_map *all = isl_union_map_empty(isl_space_copy(params));
	int depth = 0;
	char *str;

	for (int s = 0; s < w->n_stmts; s++)
		depth = w->stmt[s].depth > depth ? w->stmt[s].depth : depth;
	for (int s = 0; s < w->n_stmts; s++)
		all = isl_union_map_union(all, stmt_schedule(w, &w->stmt[s],
			depth));
	all = isl_union_map_align_params(all, isl_space_copy(params));
	str = isl_union_map_to_str(all);
	isl_union_map_free(all);
	return str;
}

static const char *type_name(enum cf_type t)
{
	switch (t) {
	case CF_T_FLOAT: return "fp32";
	case CF_T_HALF: return "fp16";
	case CF_T_SHORT: return "int16";
	case CF_T_CHAR: return "int8";
	case CF_T_INT: return "int32";
	default: return NULL;
	}
}

/* The data type of the arrays whose elements the statements compute
 * with and that travel to and from DRAM: one for all, or none with a note
 * saying which arrays disagree.
 */
static void pick_dtype(struct cf_walk *w, cfront_kernel *k)
{
	const struct cf_array *first = NULL;

	for (int i = 0; i < w->n_arrays; i++) {
		const struct cf_array *a = &w->array[i];

		/* Index arrays (an edge list) only steer the accesses. */
		if (a->local || !a->data)
			continue;
		k->type_line = a->line;
		k->type_col = a->col;
		if (!type_name(a->type)) {
			snprintf(k->type_note, sizeof(k->type_note), "the "
				"array '%s' (line %d) holds %s, which dse does "
				"not model (float, half, short, char, int)",
				a->name, a->line, a->type_name);
			return;
		}
		if (first && first->type != a->type) {
			snprintf(k->type_note, sizeof(k->type_note), "the "
				"arrays '%s' (line %d, %s) and '%s' (line %d, "
				"%s) hold different types", first->name,
				first->line, first->type_name, a->name,
				a->line, a->type_name);
			return;
		}
		first = first ? first : a;
	}
	k->dtype = first ? type_name(first->type) : "fp32";
	k->type_line = k->type_col = 0;
}

static void copy_stmts(struct cf_walk *w, cfront_kernel *k)
{
	k->n_stmts = w->n_stmts;
	for (int s = 0; s < w->n_stmts; s++) {
		struct cf_stmt_out *o = &k->stmt[s];

		strcpy(o->name, w->stmt[s].name);
		o->ops = w->stmt[s].ops;
		o->line = w->stmt[s].line;
		o->col = w->stmt[s].col;
		strcpy(o->text, w->stmt[s].text);
	}
	for (int i = 0; i < w->n_arrays && k->n_local < POLY_MAX_LOCAL; i++)
		if (w->array[i].local)
			strcpy(k->local[k->n_local++], w->array[i].name);
}

/* Every value the caller gave must name a variable the scop uses. */
static dse_stat check_given(struct cf_walk *w)
{
	const cfront_opts *o = w->opts;

	for (int i = 0; i < o->n_params; i++) {
		int used = 0;

		for (int p = 0; p < w->n_params && !used; p++)
			used = !w->param[p].macro && o->param_name[i] &&
				!strcmp(w->param[p].name, o->param_name[i]);
		if (!used) {
			const poly_source *s = &o->params_src;

			w->failed = 1;
			return dse_error_set_at(w->err, s->file ? s->file :
				o->file, s->line, s->col, s->key, "'%s' is not "
				"an integer variable that the scop's loop "
				"bounds or subscripts use (macros take their "
				"values from defines)", o->param_name[i] ?
				o->param_name[i] : "");
		}
	}
	return dse_stat_ok;
}

cfront_kernel *cf__assemble(struct cf_walk *w)
{
	cfront_kernel *k;
	isl_space *params;

	if (check_given(w) != dse_stat_ok)
		return NULL;
	k = calloc(1, sizeof(*k));
	if (!k) {
		dse_error_set(w->err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	params = param_space(w);
	k->domain = domain_text(w, params);
	k->reads = access_text(w, params, 0);
	k->writes = access_text(w, params, 1);
	k->schedule = schedule_text(w, params);
	isl_space_free(params);
	if (!k->domain || !k->reads || !k->writes || !k->schedule) {
		cf__isl_error(w, "printing the model");
		return cfront_free(k);
	}
	k->n_params = w->n_params;
	for (int i = 0; i < w->n_params; i++) {
		strcpy(k->param_name[i], w->param[i].name);
		k->param_value[i] = w->param[i].value;
	}
	copy_stmts(w, k);
	snprintf(k->file, sizeof(k->file), "%s", w->opts->file);
	strcpy(k->function, w->function);
	k->scop_line = w->scop_line;
	k->scop_col = w->scop_col;
	pick_dtype(w, k);
	return k;
}

void cf__set_seconds(cfront_kernel *k, double s)
{
	k->seconds = s;
}

cfront_kernel *cfront_free(cfront_kernel *k)
{
	if (!k)
		return NULL;
	free(k->domain);
	free(k->reads);
	free(k->writes);
	free(k->schedule);
	free(k);
	return NULL;
}

void cfront_fill_desc(const cfront_kernel *k, poly_kernel_desc *d)
{
	poly_source at = { k->file, k->scop_line, k->scop_col, NULL };

	d->domain = k->domain;
	d->reads = k->reads;
	d->writes = k->writes;
	d->schedule = k->schedule;
	d->domain_src = d->reads_src = d->writes_src = d->schedule_src = at;
	d->n_params = k->n_params;
	for (int i = 0; i < k->n_params; i++) {
		d->param_name[i] = k->param_name[i];
		d->param_value[i] = k->param_value[i];
	}
	d->n_stmt_info = k->n_stmts;
	for (int s = 0; s < k->n_stmts; s++) {
		poly_stmt_info *o = &d->stmt_info[s];

		o->name = k->stmt[s].name;
		o->ops = k->stmt[s].ops;
		o->text = k->stmt[s].text;
		o->src.file = k->file;
		o->src.line = k->stmt[s].line;
		o->src.col = k->stmt[s].col;
		o->src.key = NULL;
	}
	d->n_local = k->n_local;
	for (int i = 0; i < k->n_local; i++)
		d->local[i] = k->local[i];
}

const char *cfront_dtype(const cfront_kernel *k)
{
	return k->dtype;
}

const char *cfront_type_note(const cfront_kernel *k)
{
	return k->type_note;
}

void cfront_type_where(const cfront_kernel *k, int *line, int *col)
{
	*line = k->type_line;
	*col = k->type_col;
}

const char *cfront_file(const cfront_kernel *k)
{
	return k->file;
}

const char *cfront_function(const cfront_kernel *k)
{
	return k->function;
}

int cfront_n_statements(const cfront_kernel *k)
{
	return k->n_stmts;
}

const char *cfront_statement_text(const cfront_kernel *k, int i)
{
	return i >= 0 && i < k->n_stmts ? k->stmt[i].text : "";
}

double cfront_seconds(const cfront_kernel *k)
{
	return k->seconds;
}
