/* The sweep configuration language: reading, checking and querying.
 *
 * The text is read line by line with a cursor that knows the current line
 * number and where the line starts, so that every token can be given its
 * 1-based line and column.  Columns count bytes: a tab is one column, as
 * in the messages of C compilers.  Only a triple-quoted string moves the
 * cursor over several lines.  A '#' starts a comment anywhere outside a
 * quoted string, so a bare value ends at the first '#'; values that need a
 * '#' are written in quotes.
 *
 * Each "key = value" is checked against the schema below as soon as it is
 * read, and the value is converted to its typed form right away (numbers,
 * lists, integer-set items, ...), so a parsed dse_cfg never holds a value
 * of the wrong type and the getters need no error path.  Integer sets are
 * the exception that needs outside knowledge: "divisors" depends on the
 * loop trip count, so the items are kept and resolved on request by
 * dse_cfg_int_set().  The value conversions live in cfg_value.c.
 *
 * Errors stop the parse at the first one.  Every error carries the file
 * name, the line and column of the offending token, and a key:
 *  - for "key = value" lines, the key as written ("array_part.i");
 *  - for section header errors, the section name as written (empty when
 *    the header has no name), because the header has no key and the name
 *    is what the user has to fix;
 *  - for a line that starts with neither a key nor a header, no key;
 *  - for an unreadable file, no key and position 0:0.
 * A missing required key is reported at the header of its section, or at
 * 1:1 when the whole section is missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "dse/cfg_internal.h"
#include "search/strategies.h"
#include "sim/sim.h"

struct sec_schema {
	const char *name;
	const struct key_schema *keys;
	int n_keys;
	int required;
	/* The schema of every other plain key (no '.'), or NULL: such a
	 * key is refused here.  The keys of a workload family are open
	 * so: the family says which it has (dse/families.c), and the setup
	 * refuses the rest with the keys it knows.
	 */
	const struct key_schema *other;
};

static const char *const dtype_names[] = {
	"fp32", "fp16", "int32", "int16", "int8", NULL
};
/* A code-generation switch, off (0) or on (1). */
static const char *const off_on_names[] = { "off", "on", NULL };
/* The search strategies and the I/O networks come from the tables of
 * their enums, so a name's index is its value.
 */
#define CFG_NAME(id, name) name,
static const char *const strategy_names[] = {
	SEARCH_STRATEGY_TABLE(CFG_NAME) NULL
};
/* The model of the search's last word: "analytic" alone, or "sampled"
 * re-evaluating the band around the analytic front (enum sim_model_kind
 * order, which setup relies on through sim_model_kind_find).
 */
static const char *const search_model_names[] = { "analytic", "sampled",
	NULL };
/* Pruning by bounds of an exhaustive sweep: on (the default) or off. */
static const char *const on_off_names[] = { "on", "off", NULL };
/* How an exhaustive sweep's blocks reach the ranks: as they free up (the
 * default) or by index, for benchmarks that compare the two.
 */
static const char *const deal_names[] = { "dynamic", "index", NULL };
static const char *const io_network_names[] = {
	SIM_IO_NETWORK_TABLE(CFG_NAME) NULL
};
#undef CFG_NAME
/* Double buffering is off (0) or on (1); an integer set would reject 0
 * and accept any other number, so it is a list of these two values.
 */
static const char *const double_buffer_names[] = { "0", "1", NULL };

/* A kernel is given in isl (name, domain, reads, writes) or as a C file
 * (source, with optional defines, include folders and the scop to read);
 * check_kernel_form keeps the two apart.
 */
static const struct key_schema kernel_keys[] = {
	{ "name", V_STRING, K_REQUIRED, NULL },
	{ "domain", V_ISL, K_REQUIRED, NULL },
	{ "reads", V_ISL, K_REQUIRED, NULL },
	{ "writes", V_ISL, K_REQUIRED, NULL },
	{ "source", V_STRING, 0, NULL },
	{ "defines", V_STRING, 0, NULL },
	{ "include", V_STRING, 0, NULL },
	{ "scop", V_STRING, 0, NULL },
	{ "params", V_PARAMS, 0, NULL },
	{ "reduction", V_STRING, 0, NULL },
	{ "dtype", V_ENUM, 0, dtype_names },
	{ "schedule", V_ISL, 0, NULL },
	{ "ops", V_INT_POS, 0, NULL },
	{ "max_space", V_INT_POS, 0, NULL },
	{ "analysis_seconds", V_INT_POS, 0, NULL },
	/* AutoSA's code-generation options that change the hardware:
	 * --data-pack-sizes (three byte counts, checked by the setup),
	 * --uram, and packing two int8 multiplies in a DSP.
	 */
	{ "data_pack", V_STRING, 0, NULL },
	{ "uram_buffers", V_ENUM, 0, off_on_names },
	{ "dsp_packing", V_ENUM, 0, off_on_names },
};

/* A workload instead of a kernel: a GNN model on a graph, explored over
 * one of the GNN accelerator families, or a network of layers over the
 * overlay systolic family.  The values are checked by the setup, which
 * knows the families, models and graph presets.
 */
static const struct key_schema workload_keys[] = {
	{ "family", V_STRING, K_REQUIRED, NULL },
	{ "name", V_STRING, 0, NULL },
	{ "model", V_STRING, 0, NULL },
	{ "layers", V_STRING, 0, NULL },
	{ "graph", V_STRING, 0, NULL },
	{ "topology", V_STRING, 0, NULL },
	{ "features", V_INT_POS, 0, NULL },
	{ "classes", V_INT_POS, 0, NULL },
	{ "graph_seed", V_INT_NONNEG, 0, NULL },
	{ "dtype", V_ENUM, 0, dtype_names },
};

static const struct key_schema platform_keys[] = {
	{ "board", V_STRING, 0, NULL },
	{ "dsp", V_INT_POS, 0, NULL },
	{ "bram18k", V_INT_POS, 0, NULL },
	{ "uram", V_INT_POS, 0, NULL },
	{ "lut", V_INT_POS, 0, NULL },
	{ "ff", V_INT_POS, 0, NULL },
	{ "dram_gbps", V_FLOAT_POS, 0, NULL },
	{ "mhz", V_FLOAT_POS, 0, NULL },
	{ "dram_port_bits", V_INT_POS, 0, NULL },
};

static const struct key_schema space_keys[] = {
	{ "space_time", V_CANDIDATES, 0, NULL },
	{ "array_part", V_INTSET, K_PER_LOOP, NULL },
	{ "array_part_L2", V_INTSET, K_PER_LOOP, NULL },
	{ "latency", V_INTSET, K_PER_LOOP, NULL },
	{ "simd", V_INTSET, K_PER_LOOP, NULL },
	{ "io_network", V_CHOICES, 0, io_network_names },
	{ "double_buffer", V_CHOICES, 0, double_buffer_names },
};

static const struct key_schema search_keys[] = {
	{ "strategy", V_ENUM, 0, strategy_names },
	{ "objectives", V_NAMES, 0, NULL },
	{ "constraints", V_CONSTRAINTS, 0, NULL },
	{ "seed", V_INT_NONNEG, 0, NULL },
	{ "block", V_INT_POS, 0, NULL },
	{ "prune", V_ENUM, 0, on_off_names },
	{ "deal", V_ENUM, 0, deal_names },
	{ "model", V_ENUM, 0, search_model_names },
	/* A fraction ("0.1") or a percentage ("10%"), 0 allowed: checked by
	 * the setup, which the float type (> 0) cannot express.
	 */
	{ "band", V_STRING, 0, NULL },
	{ "band_max", V_INT_POS, 0, NULL },
	{ "samples", V_INT_POS, 0, NULL },
	{ "fifo_depth", V_INT_POS, 0, NULL },
	/* The bound on fronts and their starting box size (a fraction or a
	 * percentage, 0 allowed), both checked by the setup.
	 */
	{ "front_max", V_INT_POS, 0, NULL },
	{ "front_resolution", V_STRING, 0, NULL },
	/* The heuristic strategies' budgets and islands.  "budget" is an
	 * evaluation count or a percentage of the space ("5%"), "weights"
	 * one number per objective, "checkpoint" seconds or "off": the setup
	 * checks them, since it knows the space, the objectives and which
	 * strategy takes which key.
	 */
	{ "budget", V_STRING, 0, NULL },
	{ "budget_seconds", V_FLOAT_POS, 0, NULL },
	{ "islands", V_INT_POS, 0, NULL },
	{ "population", V_INT_POS, 0, NULL },
	{ "migrate_every", V_INT_POS, 0, NULL },
	{ "migrants", V_INT_POS, 0, NULL },
	{ "weights", V_STRING, 0, NULL },
	{ "checkpoint", V_STRING, 0, NULL },
};

/* A knob of a workload family in [space], and a key of the family's own
 * in [workload] (beside those listed above, which every family shares or
 * which the built-in families read).
 */
static const struct key_schema family_knob = { "", V_INTSET, 0, NULL };
static const struct key_schema family_key = { "", V_STRING, 0, NULL };

static const struct key_schema output_keys[] = {
	{ "file", V_STRING, 0, NULL },
	/* Points of the cloud table (0: none); the setup bounds it. */
	{ "cloud", V_INT_NONNEG, 0, NULL },
};


static const struct sec_schema sections[] = {
	{ "kernel", kernel_keys, DSE_N_OF(kernel_keys), 1, NULL },
	{ "workload", workload_keys, DSE_N_OF(workload_keys), 0,
		&family_key },
	{ "platform", platform_keys, DSE_N_OF(platform_keys), 0, NULL },
	{ "space", space_keys, DSE_N_OF(space_keys), 0, &family_knob },
	{ "search", search_keys, DSE_N_OF(search_keys), 0, NULL },
	{ "output", output_keys, DSE_N_OF(output_keys), 0, NULL },
};

struct section {
	const struct sec_schema *schema;
	int line;		/* position of the '[' of the header */
	int col;
	struct entry *entries;
	int n;
};

struct dse_cfg {
	char *text;
	char *file;
	struct section *secs;
	int n_secs;
};

/* The reading state: the cursor and the line it is on. */
struct parser {
	dse_cfg *cfg;
	dse_error *err;
	const char *p;
	const char *bol;	/* the first character of the current line */
	int line;
	struct section *sec;	/* NULL before the first header */
};

static int col_of(const struct parser *ps, const char *q)
{
	return (int) (q - ps->bol) + 1;
}

static dse_stat fail(dse_error *err, const char *file, int line, int col,
	const char *key, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Records an input error at file:line:col about "key". */
static dse_stat fail(dse_error *err, const char *file, int line, int col,
	const char *key, const char *fmt, ...)
{
	char msg[DSE_ERROR_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dse_error_set_at(err, file, line, col, key, "%s", msg);
}

/* ---- Lines ------------------------------------------------------------- */

static void free_entry(struct entry *e)
{
	int i;

	for (i = 0; e->names && i < e->n; i++)
		free(e->names[i]);
	free(e->names);
	free(e->cols);
	free(e->pvals);
	free(e->cons);
	free(e->items);
	free(e->text);
	free(e->key);
}

static const struct sec_schema *find_sec_schema(const char *name, size_t len)
{
	int i;

	for (i = 0; i < (int) DSE_N_OF(sections); i++)
		if (strlen(sections[i].name) == len &&
		    !strncmp(sections[i].name, name, len))
			return &sections[i];
	return NULL;
}

static struct section *find_sec(const dse_cfg *cfg, const char *name)
{
	int i;

	if (!cfg || !name)
		return NULL;
	for (i = 0; i < cfg->n_secs; i++)
		if (!strcmp(cfg->secs[i].schema->name, name))
			return &cfg->secs[i];
	return NULL;
}

/* Checks that nothing but blanks and a comment follow on the line, and
 * moves the cursor to the end of the line.
 */
static dse_stat expect_line_end(struct parser *ps, const char *key,
	const char *what)
{
	const char *p = skip_blanks(ps->p);

	if (*p != '#' && *p != '\n' && *p != '\0')
		return fail(ps->err, ps->cfg->file, ps->line, col_of(ps, p),
			key, "unexpected text after %s", what);
	while (*p != '\n' && *p != '\0')
		p++;
	ps->p = p;
	return dse_stat_ok;
}

/* Whether a section is one of SCALE-Sim's config, which "dse scalesim"
 * reads: a user who gives it to the sweep is told so.
 */
static int scalesim_section(const char *name)
{
	return !strcmp(name, "general") ||
		!strcmp(name, "architecture_presets") ||
		!strcmp(name, "run_presets");
}

/* Reads a "[section]" header; the cursor is on the '['. */
static dse_stat parse_header(struct parser *ps)
{
	const char *open = ps->p, *name, *end, *p;
	const struct sec_schema *ss;
	char sname[DSE_ERROR_KEY_LEN];
	const char *file = ps->cfg->file;
	struct section *sec;

	name = skip_blanks(open + 1);
	end = skip_ident(name);
	snprintf(sname, sizeof(sname), "%.*s", (int) (end - name), name);
	if (end == name)
		return fail(ps->err, file, ps->line, col_of(ps, name), "",
			"expected a section name after '['");
	p = skip_blanks(end);
	if (*p != ']')
		return fail(ps->err, file, ps->line, col_of(ps, p), sname,
			"malformed section header: expected ']' after the "
			"section name");
	ss = find_sec_schema(name, end - name);
	if (!ss && scalesim_section(sname))
		return fail(ps->err, file, ps->line, col_of(ps, name), sname,
			"unknown section [%s]: this is a SCALE-Sim config; "
			"run it with 'dse scalesim -c %s'", sname, file);
	if (!ss)
		return fail(ps->err, file, ps->line, col_of(ps, name), sname,
			"unknown section [%s]; known sections: kernel, platform, "
			"space, search, output", sname);
	sec = find_sec(ps->cfg, ss->name);
	if (sec)
		return fail(ps->err, file, ps->line, col_of(ps, name), sname,
			"duplicate section [%s] (first at line %d)", sname,
			sec->line);
	ps->p = p + 1;
	if (expect_line_end(ps, sname, "the section header") < 0)
		return dse_stat_error;
	sec = grow(ps->cfg->secs, ps->cfg->n_secs, sizeof(*sec));
	if (!sec)
		return no_memory(ps->err);
	ps->cfg->secs = sec;
	sec = &ps->cfg->secs[ps->cfg->n_secs++];
	memset(sec, 0, sizeof(*sec));
	sec->schema = ss;
	sec->line = ps->line;
	sec->col = col_of(ps, open);
	ps->sec = sec;
	return dse_stat_ok;
}

static int is_loop_name(const char *s)
{
	return is_alpha(*s) && *skip_ident(s) == '\0';
}

/* Finds the schema of "key" in section "ss": an exact name, or a per-loop
 * override "base.<loop>".  Sets *per_loop_base when the key starts with a
 * per-loop base name but the loop part is malformed, so the message can
 * say what is wrong.
 */
static const struct key_schema *find_key_schema(const struct sec_schema *ss,
	const char *key, int *per_loop_base)
{
	const char *dot = strchr(key, '.');
	int i;

	*per_loop_base = 0;
	for (i = 0; i < ss->n_keys; i++) {
		const struct key_schema *ks = &ss->keys[i];

		if (!dot) {
			if (!strcmp(ks->name, key))
				return ks;
			continue;
		}
		if (!(ks->flags & K_PER_LOOP) ||
		    strlen(ks->name) != (size_t) (dot - key) ||
		    strncmp(ks->name, key, dot - key))
			continue;
		if (is_loop_name(dot + 1))
			return ks;
		*per_loop_base = 1;
	}
	return NULL;
}

/* The keys a section's schema lists, per-loop ones as "name.<loop>". */
static void known_keys(const struct sec_schema *ss, char *buf, size_t size)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < ss->n_keys; i++) {
		if (i)
			append(buf, size, ", ");
		append(buf, size, ss->keys[i].name);
	}
	for (i = 0; i < ss->n_keys; i++)
		if (ss->keys[i].flags & K_PER_LOOP) {
			append(buf, size, ", ");
			append(buf, size, ss->keys[i].name);
			append(buf, size, ".<loop>");
		}
}

/* The error for a key "ss" does not list, at file:line:col: the keys it
 * lists, then "more" (a workload family's own; NULL or "" for none).
 */
static dse_stat unknown_key_at(dse_error *err, const char *file, int line,
	int col, const struct sec_schema *ss, const char *key,
	const char *more)
{
	char known[DSE_ERROR_MSG_LEN];

	known_keys(ss, known, sizeof(known));
	if (more && more[0]) {
		append(known, sizeof(known), ", ");
		append(known, sizeof(known), more);
	}
	return fail(err, file, line, col, key, "unknown key in section [%s]; "
		"known keys: %s", ss->name, known);
}

static dse_stat unknown_key(struct parser *ps, const struct sec_schema *ss,
	const char *key, int col, int per_loop_base)
{
	if (per_loop_base)
		return fail(ps->err, ps->cfg->file, ps->line, col, key,
			"bad per-loop key: expected '%.*s.<loop>' where <loop> "
			"is a loop name", (int) (strchr(key, '.') - key), key);
	return unknown_key_at(ps->err, ps->cfg->file, ps->line, col, ss, key,
		NULL);
}

static const struct entry *find_entry_in(const struct section *sec,
	const char *key)
{
	int i;

	for (i = 0; sec && i < sec->n; i++)
		if (!strcmp(sec->entries[i].key, key))
			return &sec->entries[i];
	return NULL;
}

/* Reads a "..." string at the cursor into e->text, handling the \" and \\
 * escapes.
 */
static dse_stat read_quoted(struct parser *ps, struct entry *e)
{
	const char *open = ps->p, *p;
	char *out;
	size_t n = 0;

	out = malloc(strlen(open));
	if (!out)
		return no_memory(ps->err);
	e->text = out;
	for (p = open + 1; *p != '"'; p++) {
		if (*p == '\n' || *p == '\0')
			return fail(ps->err, ps->cfg->file, ps->line,
				col_of(ps, open), e->key, "unterminated string: "
				"missing closing '\"' on this line");
		if (*p == '\\') {
			if (p[1] != '"' && p[1] != '\\')
				return fail(ps->err, ps->cfg->file, ps->line,
					col_of(ps, p), e->key, "unknown escape "
					"in a quoted string: only \\\" and \\\\ "
					"are allowed");
			p++;
		}
		out[n++] = *p;
	}
	out[n] = '\0';
	ps->p = p + 1;
	return dse_stat_ok;
}

/* Reads a """...""" string at the cursor into e->text; it may span lines,
 * and its newlines are kept.
 */
static dse_stat read_triple(struct parser *ps, struct entry *e)
{
	const char *start = ps->p + 3, *p = start;

	while (strncmp(p, "\"\"\"", 3)) {
		if (*p == '\0')
			return fail(ps->err, ps->cfg->file, e->line, e->col,
				e->key, "unterminated \"\"\" string: no closing "
				"\"\"\" before the end of the file");
		if (*p == '\n') {
			ps->line++;
			ps->bol = p + 1;
		}
		p++;
	}
	e->text = dup_range(start, p - start);
	if (!e->text)
		return no_memory(ps->err);
	ps->p = p + 3;
	return dse_stat_ok;
}

/* Reads the value at the cursor into e->text and its position; sets
 * *quoted when it was written in quotes.
 */
static dse_stat read_value(struct parser *ps, struct entry *e, int *quoted)
{
	const char *start = ps->p, *end;

	e->line = ps->line;
	e->col = col_of(ps, start);
	*quoted = *start == '"';
	if (!strncmp(start, "\"\"\"", 3)) {
		if (read_triple(ps, e) < 0)
			return dse_stat_error;
	} else if (*start == '"') {
		if (read_quoted(ps, e) < 0)
			return dse_stat_error;
	} else {
		for (end = start; *end && *end != '\n' && *end != '#'; end++)
			;
		while (end > start && is_blank(end[-1]))
			end--;
		e->text = dup_range(start, end - start);
		if (!e->text)
			return no_memory(ps->err);
		ps->p = end;
	}
	if (e->text[0] == '\0')
		return fail(ps->err, ps->cfg->file, e->line, e->col, e->key,
			"empty value: expected %s",
			dse__cfg_type_desc(e->schema->type));
	return expect_line_end(ps, e->key, "the closing quote");
}

/* Converts e->text to the typed form its schema asks for. */
static dse_stat convert_value(struct parser *ps, struct entry *e, int quoted)
{
	struct where w = { ps->err, ps->cfg->file, e->key, e->text, e->line,
		e->col };

	return dse__cfg_convert(&w, e, quoted);
}

/* Checks the key of a "key = value" line; the cursor is past the '='. */
static dse_stat check_key(struct parser *ps, struct entry *e, int key_col)
{
	const struct entry *first;
	int per_loop_base;

	if (!ps->sec)
		return fail(ps->err, ps->cfg->file, ps->line, key_col, e->key,
			"key outside any section: put it under a header such "
			"as [kernel]");
	e->key_col = key_col;
	e->schema = find_key_schema(ps->sec->schema, e->key, &per_loop_base);
	if (!e->schema && !per_loop_base && !strchr(e->key, '.'))
		e->schema = ps->sec->schema->other;
	if (!e->schema)
		return unknown_key(ps, ps->sec->schema, e->key, key_col,
			per_loop_base);
	first = find_entry_in(ps->sec, e->key);
	if (first)
		return fail(ps->err, ps->cfg->file, ps->line, key_col, e->key,
			"duplicate key (first set at line %d)", first->key_line);
	return dse_stat_ok;
}

/* The error for a line that starts with neither a key nor a header.  A
 * byte outside printable ASCII is named by its value (quoting it would
 * print half a UTF-8 sequence), and a UTF-8 byte-order mark, which some
 * editors write at the start of a file, by its name.
 */
static dse_stat bad_line_start(struct parser *ps, const char *start)
{
	const unsigned char *u = (const unsigned char *) start;

	if (ps->line == 1 && start == ps->cfg->text && u[0] == 0xef &&
	    u[1] == 0xbb && u[2] == 0xbf)
		return fail(ps->err, ps->cfg->file, ps->line, 1, "",
			"the file starts with a UTF-8 byte-order mark; save it "
			"as plain UTF-8 or ASCII, without the mark");
	if (u[0] < 0x20 || u[0] > 0x7e)
		return fail(ps->err, ps->cfg->file, ps->line, col_of(ps, start),
			"", "expected a 'key = value' line or a '[section]' "
			"header, found the byte 0x%02x: is this a text file?",
			u[0]);
	return fail(ps->err, ps->cfg->file, ps->line, col_of(ps, start), "",
		"expected a 'key = value' line or a '[section]' header, found "
		"'%c'", *start);
}

/* Reads the key and '=' of a "key = value" line into e. */
static dse_stat read_key(struct parser *ps, struct entry *e, int *key_col)
{
	const char *start = ps->p, *end, *p;

	for (end = start; is_key_char(*end); end++)
		;
	*key_col = col_of(ps, start);
	if (end == start)
		return bad_line_start(ps, start);
	e->key = dup_range(start, end - start);
	if (!e->key)
		return no_memory(ps->err);
	e->key_line = ps->line;
	p = skip_blanks(end);
	if (*p != '=')
		return fail(ps->err, ps->cfg->file, ps->line, col_of(ps, p),
			e->key, "expected '=' after the key");
	ps->p = skip_blanks(p + 1);
	return dse_stat_ok;
}

/* Reads a "key = value" line; the cursor is on its first character. */
static dse_stat parse_assignment(struct parser *ps)
{
	struct entry e, *entries;
	int key_col, quoted;

	memset(&e, 0, sizeof(e));
	if (read_key(ps, &e, &key_col) < 0 || check_key(ps, &e, key_col) < 0 ||
	    read_value(ps, &e, &quoted) < 0 || convert_value(ps, &e, quoted) < 0)
		goto error;
	entries = grow(ps->sec->entries, ps->sec->n, sizeof(e));
	if (!entries) {
		no_memory(ps->err);
		goto error;
	}
	ps->sec->entries = entries;
	ps->sec->entries[ps->sec->n++] = e;
	return dse_stat_ok;
error:
	free_entry(&e);
	return dse_stat_error;
}

/* Reads one line (or several for a """ string); the cursor ends on the
 * '\n' or the final '\0'.
 */
static dse_stat parse_line(struct parser *ps)
{
	ps->p = skip_blanks(ps->p);
	if (*ps->p == '#' || *ps->p == '\n' || *ps->p == '\0')
		return expect_line_end(ps, NULL, "a comment");
	if (*ps->p == '[')
		return parse_header(ps);
	return parse_assignment(ps);
}

/* A C kernel takes its domain and accesses from the file: the isl keys
 * are then neither required nor accepted (but for a schedule, which
 * transforms the C loops as it does an isl kernel's), and the C keys make
 * no sense without a source.
 */
static dse_stat check_kernel_form(const dse_cfg *cfg, const struct section
	*sec, dse_error *err, int *c_kernel)
{
	static const char *const isl_only[] = { "domain", "reads", "writes" };
	static const char *const c_only[] = { "defines", "include", "scop" };
	const struct entry *src = find_entry_in(sec, "source");
	int i;

	*c_kernel = src != NULL;
	for (i = 0; src && i < (int) DSE_N_OF(isl_only); i++) {
		const struct entry *e = find_entry_in(sec, isl_only[i]);

		if (e)
			return fail(err, cfg->file, e->line, e->col,
				isl_only[i], "this kernel is read from its C "
				"source; %s comes from the C file and cannot "
				"be given too", isl_only[i]);
	}
	for (i = 0; !src && i < (int) DSE_N_OF(c_only); i++) {
		const struct entry *e = find_entry_in(sec, c_only[i]);

		if (e)
			return fail(err, cfg->file, e->line, e->col,
				c_only[i], "%s applies to a kernel read from C; "
				"give source = kernel.c too", c_only[i]);
	}
	return dse_stat_ok;
}

static dse_stat check_required(const dse_cfg *cfg, dse_error *err)
{
	int i, j;

	for (i = 0; i < (int) DSE_N_OF(sections); i++) {
		const struct sec_schema *ss = &sections[i];
		const struct section *sec = find_sec(cfg, ss->name);

		/* A sweep explores a kernel or a GNN workload, never both. */
		if (!strcmp(ss->name, "kernel") && find_sec(cfg, "workload")) {
			const struct section *w = find_sec(cfg, "workload");

			if (sec)
				return fail(err, cfg->file, w->line, w->col,
					"workload", "a config has a [kernel] or "
					"a [workload] section, not both");
			continue;
		}
		if (!strcmp(ss->name, "kernel") && sec) {
			int c_kernel;

			if (check_kernel_form(cfg, sec, err, &c_kernel))
				return dse_stat_error;
			if (c_kernel)
				continue;
		}
		for (j = 0; j < ss->n_keys; j++) {
			const char *key = ss->keys[j].name;

			if (!(ss->keys[j].flags & K_REQUIRED))
				continue;
			if (!sec && ss->required)
				return fail(err, cfg->file, 1, 1, key,
					"missing required key: the config has "
					"no [%s] section", ss->name);
			if (sec && !find_entry_in(sec, key))
				return fail(err, cfg->file, sec->line, sec->col,
					key, "missing required key in section "
					"[%s]", ss->name);
		}
	}
	return dse_stat_ok;
}

/* ---- Public functions -------------------------------------------------- */

dse_cfg *dse_cfg_free(dse_cfg *cfg)
{
	int i, j;

	if (!cfg)
		return NULL;
	for (i = 0; i < cfg->n_secs; i++) {
		for (j = 0; j < cfg->secs[i].n; j++)
			free_entry(&cfg->secs[i].entries[j]);
		free(cfg->secs[i].entries);
	}
	free(cfg->secs);
	free(cfg->text);
	free(cfg->file);
	free(cfg);
	return NULL;
}

/* Lines end with "\n" or "\r\n".  A carriage return alone (the line ends
 * of classic Mac OS) would make the whole file one comment line and the
 * error a puzzling "no [kernel] section", so it is named where it is.
 */
static dse_stat lone_cr(const dse_cfg *cfg, dse_error *err)
{
	const char *c, *bol = cfg->text;
	int line = 1;

	for (c = cfg->text; *c; c++) {
		if (*c == '\n') {
			line++;
			bol = c + 1;
		} else if (*c == '\r' && c[1] != '\n') {
			return fail(err, cfg->file, line, (int) (c - bol) + 1,
				"", "a carriage return without a line feed: "
				"save the file with Unix (LF) or Windows (CRLF) "
				"line ends");
		}
	}
	return dse_stat_ok;
}

dse_cfg *dse_cfg_parse_string(const char *text, const char *name,
	dse_error *err)
{
	struct parser ps;
	dse_cfg *cfg;

	if (!text) {
		dse_error_set(err, DSE_E_RUNTIME, "no config text given");
		return NULL;
	}
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg || !(cfg->text = strdup(text)) ||
	    !(cfg->file = strdup(name ? name : "<string>"))) {
		no_memory(err);
		return dse_cfg_free(cfg);
	}
	if (lone_cr(cfg, err) < 0)
		return dse_cfg_free(cfg);
	memset(&ps, 0, sizeof(ps));
	ps.cfg = cfg;
	ps.err = err;
	ps.p = ps.bol = cfg->text;
	ps.line = 1;
	for (;;) {
		if (parse_line(&ps) < 0)
			return dse_cfg_free(cfg);
		if (*ps.p == '\0')
			break;
		ps.bol = ++ps.p;
		ps.line++;
	}
	if (check_required(cfg, err) < 0)
		return dse_cfg_free(cfg);
	return cfg;
}

/* Reads the whole file into a new string; sets errno on failure. */
/* A sweep config is a few KB; anything past this is not one (and reading
 * /dev/zero must end).
 */
#define MAX_CONFIG_BYTES (16u << 20)

/* Reads the whole file; its length (which may count NUL bytes) goes to
 * *len_out.
 */
int dse_open_regular(const char *path, const char **kind)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	*kind = NULL;
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    fcntl(fd, F_SETFL, 0) < 0) {
		int e = errno;

		if (!S_ISREG(sb.st_mode))
			*kind = dse_file_kind(sb.st_mode);
		close(fd);
		errno = *kind ? EINVAL : e;
		return -1;
	}
	return fd;
}

static char *read_all(const char *path, size_t *len_out, const char **kind)
{
	int fd = dse_open_regular(path, kind);
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	int saved;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	do {
		if (len > MAX_CONFIG_BYTES) {
			errno = EFBIG;
			goto error;
		}
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 8192;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				errno = ENOMEM;
				goto error;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got > 0);
	if (ferror(f))
		goto error;
	fclose(f);
	buf[len] = '\0';
	*len_out = len;
	return buf;
error:
	saved = errno ? errno : EIO;
	fclose(f);
	free(buf);
	errno = saved;
	return NULL;
}

dse_cfg *dse_cfg_parse_file(const char *path, dse_error *err)
{
	const char *kind = NULL;
	char *text, *nul;
	size_t len = 0;
	dse_cfg *cfg;

	errno = 0;
	text = read_all(path, &len, &kind);
	if (!text && kind) {
		dse_error_set_at(err, path, 0, 0, NULL, "%s, not a regular "
			"file: a config is read from a regular file", kind);
		return NULL;
	}
	if (!text) {
		dse_error_set_at(err, path, 0, 0, NULL, "cannot read file: %s",
			strerror(errno ? errno : EIO));
		return NULL;
	}
	/* The parser stops at the first NUL; text after one would be
	 * silently ignored, so a file with one is not a config.
	 */
	nul = memchr(text, '\0', len);
	if (nul) {
		int line = 1, col = 1;
		const char *c;

		for (c = text; c < nul; c++, col++)
			if (*c == '\n') {
				line++;
				col = 0;
			}
		dse_error_set_at(err, path, line, col, NULL,
			"a NUL byte: this is not a text file");
		free(text);
		return NULL;
	}
	cfg = dse_cfg_parse_string(text, path, err);
	free(text);
	return cfg;
}

const char *dse_cfg_text(const dse_cfg *cfg)
{
	return cfg ? cfg->text : NULL;
}

const char *dse_cfg_file(const dse_cfg *cfg)
{
	return cfg ? cfg->file : NULL;
}

static const struct entry *find_entry(const dse_cfg *cfg,
	const char *section, const char *key)
{
	if (!key)
		return NULL;
	return find_entry_in(find_sec(cfg, section), key);
}

/* The entry of "key" when it exists and has type "t". */
static const struct entry *find_typed(const dse_cfg *cfg,
	const char *section, const char *key, enum vtype t)
{
	const struct entry *e = find_entry(cfg, section, key);

	return e && e->schema->type == t ? e : NULL;
}

int dse_cfg_has(const dse_cfg *cfg, const char *section, const char *key)
{
	return find_entry(cfg, section, key) != NULL;
}

int dse_cfg_key_listed(const dse_cfg *cfg, const char *section,
	const char *key)
{
	const struct entry *e = find_entry(cfg, section, key);

	return e && e->schema && e->schema->name[0];
}

dse_stat dse_cfg_unknown_key(const dse_cfg *cfg, const char *section,
	const char *key, const char *more, dse_error *err)
{
	const struct entry *e = find_entry(cfg, section, key);
	size_t i;

	for (i = 0; i < DSE_N_OF(sections); i++)
		if (!strcmp(sections[i].name, section))
			break;
	if (i == DSE_N_OF(sections))
		return dse_error_set(err, DSE_E_RUNTIME, "dse_cfg_unknown_key: "
			"no section [%s]", section);
	return unknown_key_at(err, cfg->file, e ? e->key_line : 0, e ?
		e->key_col : 0, &sections[i], key, more);
}

int dse_cfg_pos(const dse_cfg *cfg, const char *section, const char *key,
	int *line, int *col)
{
	const struct section *sec = find_sec(cfg, section);
	const struct entry *e = key ? find_entry_in(sec, key) : NULL;
	int l = 0, c = 0;

	if (e) {
		l = e->line;
		c = e->col;
	} else if (sec) {
		l = sec->line;
		c = sec->col;
	}
	if (line)
		*line = l;
	if (col)
		*col = c;
	return e != NULL;
}

int dse_cfg_n_keys(const dse_cfg *cfg, const char *section)
{
	const struct section *sec = find_sec(cfg, section);

	return sec ? sec->n : 0;
}

const char *dse_cfg_key_at(const dse_cfg *cfg, const char *section, int i)
{
	const struct section *sec = find_sec(cfg, section);

	if (!sec || i < 0 || i >= sec->n)
		return NULL;
	return sec->entries[i].key;
}

int64_t dse_cfg_int(const dse_cfg *cfg, const char *section, const char *key,
	int64_t dflt)
{
	const struct entry *e = find_entry(cfg, section, key);

	if (!e || (e->schema->type != V_INT_NONNEG &&
		   e->schema->type != V_INT_POS &&
		   (e->schema->type != V_CANDIDATES || e->ival < 0)))
		return dflt;
	return e->ival;
}

int dse_cfg_candidates(const dse_cfg *cfg, const char *section,
	const char *key, int *values, int max)
{
	const struct entry *e = find_typed(cfg, section, key, V_CANDIDATES);
	int i, n = 0;
	int64_t v;

	if (!e)
		return 0;
	if (e->ival == -1)
		return -1;
	/* Sorted and without repeats, like any set of the config. */
	for (v = 0; v <= INT32_MAX; v++) {
		int next = INT32_MAX, in = 0;

		for (i = 0; i < e->n; i++) {
			if (v >= e->items[i].lo && v <= e->items[i].hi)
				in = 1;
			if (e->items[i].lo > v && e->items[i].lo < next)
				next = (int) e->items[i].lo;
		}
		if (in) {
			if (n < max)
				values[n] = (int) v;
			n++;
		} else if (next == INT32_MAX) {
			break;
		} else {
			v = next - 1;
		}
	}
	return n;
}

/* Integer keys read as floats too, so callers need not care whether a
 * number was declared an integer.
 */
double dse_cfg_float(const dse_cfg *cfg, const char *section,
	const char *key, double dflt)
{
	const struct entry *e = find_entry(cfg, section, key);

	if (!e)
		return dflt;
	if (e->schema->type == V_FLOAT_POS)
		return e->fval;
	if (e->schema->type == V_INT_NONNEG || e->schema->type == V_INT_POS)
		return (double) e->ival;
	return dflt;
}

/* Every value has a text form, so this works for any key: for lists and
 * sets it is the value as written (without its comment).
 */
const char *dse_cfg_string(const dse_cfg *cfg, const char *section,
	const char *key, const char *dflt)
{
	const struct entry *e = find_entry(cfg, section, key);

	return e ? e->text : dflt;
}

int dse_cfg_n_names(const dse_cfg *cfg, const char *section,
	const char *key)
{
	const struct entry *e = find_typed(cfg, section, key, V_NAMES);

	return e ? e->n : 0;
}

const char *dse_cfg_name_at(const dse_cfg *cfg, const char *section,
	const char *key, int i)
{
	const struct entry *e = find_typed(cfg, section, key, V_NAMES);

	return e && i >= 0 && i < e->n ? e->names[i] : NULL;
}

int dse_cfg_name_col(const dse_cfg *cfg, const char *section,
	const char *key, int i)
{
	const struct entry *e = find_typed(cfg, section, key, V_NAMES);

	return e && i >= 0 && i < e->n ? e->cols[i] : 0;
}

int dse_cfg_n_params(const dse_cfg *cfg, const char *section,
	const char *key)
{
	const struct entry *e = find_typed(cfg, section, key, V_PARAMS);

	return e ? e->n : 0;
}

const char *dse_cfg_param_name(const dse_cfg *cfg, const char *section,
	const char *key, int i)
{
	const struct entry *e = find_typed(cfg, section, key, V_PARAMS);

	return e && i >= 0 && i < e->n ? e->names[i] : NULL;
}

int64_t dse_cfg_param_value(const dse_cfg *cfg, const char *section,
	const char *key, int i)
{
	const struct entry *e = find_typed(cfg, section, key, V_PARAMS);

	return e && i >= 0 && i < e->n ? e->pvals[i] : 0;
}

int dse_cfg_n_choices(const dse_cfg *cfg, const char *section,
	const char *key)
{
	const struct entry *e = find_typed(cfg, section, key, V_CHOICES);

	return e ? e->n : 0;
}

int dse_cfg_choice_at(const dse_cfg *cfg, const char *section,
	const char *key, int i)
{
	const struct entry *e = find_typed(cfg, section, key, V_CHOICES);

	return e && i >= 0 && i < e->n ? (int) e->pvals[i] : -1;
}

int dse_cfg_n_constraints(const dse_cfg *cfg, const char *section,
	const char *key)
{
	const struct entry *e = find_typed(cfg, section, key, V_CONSTRAINTS);

	return e ? e->n : 0;
}

const dse_cfg_constraint *dse_cfg_constraint_at(const dse_cfg *cfg,
	const char *section, const char *key, int i)
{
	const struct entry *e = find_typed(cfg, section, key, V_CONSTRAINTS);

	return e && i >= 0 && i < e->n ? &e->cons[i] : NULL;
}

/* Errors of the resolution (an empty result, too many values) point at
 * the value, the same position dse_cfg_pos() gives for the key.
 */
dse_stat dse_cfg_int_set(const dse_cfg *cfg, const char *section,
	const char *key, int64_t bound, int64_t **values, int *n,
	dse_error *err)
{
	const struct entry *e = find_typed(cfg, section, key, V_INTSET);
	struct where w;

	if (!e)
		return dse_error_set(err, DSE_E_RUNTIME, "the config has no "
			"integer set [%s] %s", section ? section : "",
			key ? key : "");
	w.err = err;
	w.file = cfg->file;
	w.key = e->key;
	w.start = e->text;
	w.line = e->line;
	w.col = e->col;
	return dse__cfg_resolve_set(&w, e->items, e->n, bound, values, n);
}

dse_stat dse_cfg_int_set_text(const char *text, int64_t bound,
	int64_t **values, int *n, dse_error *err)
{
	struct where w = { err, NULL, NULL, text, 0, 1 };
	struct item *items = NULL;
	int n_items = 0;
	dse_stat st;

	if (!text)
		return dse_error_set(err, DSE_E_RUNTIME, "no integer set text");
	st = dse__cfg_parse_set(&w, &items, &n_items);
	if (st == dse_stat_ok)
		st = dse__cfg_resolve_set(&w, items, n_items, bound, values,
			n);
	free(items);
	return st;
}
