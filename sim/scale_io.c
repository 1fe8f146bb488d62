/* sim_scale_io: SCALE-Sim's config, topology and report files (see
 * scale_io.h).  The readers follow SCALE-Sim v2's scale_config.py (Python's
 * configparser underneath) and topology_utils.py; the writers its
 * simulator.py.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim/scale_io.h"

/* A topology of more layers than this (depthwise rows expand to one layer
 * per channel) is refused rather than run for hours.
 */
#define MAX_LAYERS (1 << 20)
/* Longest line, and longest field, read. */
#define LINE_LEN 4096

/* A line of the text: [s, e), its number, and where it starts. */
struct line {
	const char *s, *e;
	int no;
};

/* Steps to the next line of [*p, end); CRLF and lone CR end lines too,
 * as Python's text files read them.  Returns 0 at the end.
 */
static int next_line(const char **p, const char *end, struct line *l)
{
	const char *q = *p;

	if (q >= end)
		return 0;
	l->s = q;
	while (q < end && *q != '\n' && *q != '\r')
		q++;
	l->e = q;
	if (q < end && *q == '\r' && q + 1 < end && q[1] == '\n')
		q++;
	*p = q < end ? q + 1 : q;
	l->no++;
	return 1;
}

/* Trims blanks from both ends of [*s, *e). */
static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char) **s))
		(*s)++;
	while (*e > *s && isspace((unsigned char) (*e)[-1]))
		(*e)--;
}

/* Reads [s, e) as a decimal integer with an optional sign.  Returns -1
 * when it is anything else or does not fit int64_t.
 */
static int parse_i64(const char *s, const char *e, int64_t *out)
{
	char buf[32], *end;
	size_t n = (size_t) (e - s), i;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	for (i = buf[0] == '-' || buf[0] == '+'; i < n; i++)
		if (!isdigit((unsigned char) buf[i]))
			return -1;
	errno = 0;
	*out = strtoll(buf, &end, 10);
	return errno || *end || end == buf ? -1 : 0;
}

/* Copies [s, e) into buf (size bytes); returns -1 when it does not fit. */
static int copy_text(char *buf, size_t size, const char *s, const char *e)
{
	size_t n = (size_t) (e - s);

	if (n >= size)
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return 0;
}

/* ------------------------------------------------------------------ */
/* scale.cfg */

enum key {
	K_RUN_NAME, K_HEIGHT, K_WIDTH, K_IFMAP_KB, K_FILTER_KB, K_OFMAP_KB,
	K_IFMAP_OFF, K_FILTER_OFF, K_OFMAP_OFF, K_DATAFLOW, K_BANDWIDTH,
	K_BANKS, K_MODE, K_TOPOLOGY, N_KEYS
};

/* The sections, and per key its section and whether it must be given. */
static const char *const sections[] = {
	"general", "architecture_presets", "run_presets", "network_presets"
};

static const struct {
	const char *name;
	int section;
	int required;
} keys[N_KEYS] = {
	[K_RUN_NAME] = { "run_name", 0, 1 },
	[K_HEIGHT] = { "ArrayHeight", 1, 1 },
	[K_WIDTH] = { "ArrayWidth", 1, 1 },
	[K_IFMAP_KB] = { "IfmapSramSzkB", 1, 1 },
	[K_FILTER_KB] = { "FilterSramSzkB", 1, 1 },
	[K_OFMAP_KB] = { "OfmapSramSzkB", 1, 1 },
	[K_IFMAP_OFF] = { "IfmapOffset", 1, 1 },
	[K_FILTER_OFF] = { "FilterOffset", 1, 1 },
	[K_OFMAP_OFF] = { "OfmapOffset", 1, 1 },
	[K_DATAFLOW] = { "Dataflow", 1, 1 },
	[K_BANDWIDTH] = { "Bandwidth", 1, 0 },
	[K_BANKS] = { "MemoryBanks", 1, 0 },
	[K_MODE] = { "InterfaceBandwidth", 2, 1 },
	[K_TOPOLOGY] = { "TopologyCsvLoc", 3, 0 }
};

/* A value as found: its text and where it starts. */
struct value {
	const char *s, *e;
	int line, col;
	int set;
};

struct cfg_reader {
	const char *file;
	dse_error *err;
	struct value v[N_KEYS];
	int section_line[4];
};

static dse_stat cfg_fail(struct cfg_reader *rd, int line, int col,
	const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static dse_stat cfg_fail(struct cfg_reader *rd, int line, int col,
	const char *key, const char *fmt, ...)
{
	char msg[DSE_ERROR_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dse_error_set_at(rd->err, rd->file, line, col, key, "%s", msg);
}

/* The key named [s, e) in section "sec", or -1. */
static int find_key(const char *s, const char *e, int sec)
{
	int k;

	for (k = 0; k < N_KEYS; k++)
		if (keys[k].section == sec &&
		    strlen(keys[k].name) == (size_t) (e - s) &&
		    !strncasecmp(keys[k].name, s, (size_t) (e - s)))
			return k;
	return -1;
}

/* The keys of section "sec", for a message. */
static void section_keys(int sec, char *buf, size_t size)
{
	int k;

	buf[0] = 0;
	for (k = 0; k < N_KEYS; k++)
		if (keys[k].section == sec)
			snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
				buf[0] ? ", " : "", keys[k].name);
}

/* A "[section]" line. */
static dse_stat cfg_section(struct cfg_reader *rd, const struct line *l,
	const char *s, const char *e, int *sec)
{
	const char *close = e;
	size_t i;

	while (close > s && close[-1] != ']')
		close--;
	if (close <= s + 1 || close != e)
		return cfg_fail(rd, l->no, (int) (s - l->s) + 1, NULL,
			"a section header is '[name]'");
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (strlen(sections[i]) == (size_t) (close - s - 2) &&
		    !strncmp(sections[i], s + 1, (size_t) (close - s - 2)))
			break;
	if (i == sizeof(sections) / sizeof(sections[0]))
		return cfg_fail(rd, l->no, (int) (s - l->s) + 2, NULL,
			"unknown section '%.*s' (SCALE-Sim's are general, "
			"architecture_presets, run_presets and "
			"network_presets)", (int) (close - s - 2), s + 1);
	if (rd->section_line[i])
		return cfg_fail(rd, l->no, (int) (s - l->s) + 2, NULL,
			"section [%s] given twice (first on line %d)",
			sections[i], rd->section_line[i]);
	rd->section_line[i] = l->no;
	*sec = (int) i;
	return dse_stat_ok;
}

/* A "key = value" (or "key: value") line in section "sec". */
static dse_stat cfg_option(struct cfg_reader *rd, const struct line *l,
	const char *s, const char *e, int sec)
{
	const char *d = s, *ks = s, *ke, *vs, *ve = e, *c;
	char known[256];
	int k;

	while (d < e && *d != '=' && *d != ':')
		d++;
	if (d == e || sec < 0)
		return cfg_fail(rd, l->no, (int) (s - l->s) + 1, NULL,
			sec < 0 ? "a key before the first [section]" :
			"expected 'key = value' or 'key: value'");
	ke = d;
	trim(&ks, &ke);
	/* A '#' or ';' after a blank starts a comment. */
	for (c = d + 1; c < e; c++)
		if ((*c == '#' || *c == ';') && isspace((unsigned char) c[-1]))
			break;
	vs = d + 1;
	ve = c;
	trim(&vs, &ve);
	k = find_key(ks, ke, sec);
	if (k < 0) {
		section_keys(sec, known, sizeof(known));
		return cfg_fail(rd, l->no, (int) (ks - l->s) + 1, NULL,
			"unknown key '%.*s' in [%s] (known: %s)",
			(int) (ke - ks), ks, sections[sec], known);
	}
	if (rd->v[k].set)
		return cfg_fail(rd, l->no, (int) (ks - l->s) + 1,
			keys[k].name, "given twice (first on line %d)",
			rd->v[k].line);
	rd->v[k] = (struct value) { vs, ve, l->no, (int) (vs - l->s) + 1, 1 };
	return dse_stat_ok;
}

/* Reads the lines into rd->v. */
static dse_stat cfg_lines(struct cfg_reader *rd, const char *text,
	size_t len)
{
	const char *p = text, *end = text + len;
	struct line l = { 0 };
	int sec = -1;

	while (next_line(&p, end, &l)) {
		const char *s = l.s, *e = l.e;

		if (memchr(s, 0, (size_t) (e - s)))
			return cfg_fail(rd, l.no, 1, NULL, "a NUL byte: this "
				"is not a text file");
		trim(&s, &e);
		if (s == e || *s == '#' || *s == ';')
			continue;
		if (*s == '[' ? cfg_section(rd, &l, s, e, &sec) :
		    cfg_option(rd, &l, s, e, sec))
			return dse_stat_error;
	}
	return dse_stat_ok;
}

/* An integer value of at least "lo". */
static dse_stat cfg_int(struct cfg_reader *rd, int k, int64_t lo,
	int64_t *out)
{
	struct value *v = &rd->v[k];

	if (parse_i64(v->s, v->e, out) || *out < lo)
		return cfg_fail(rd, v->line, v->col, keys[k].name, "'%.*s' is "
			"not %s", (int) (v->e - v->s), v->s, lo > 0 ?
			"a positive integer" : "an integer");
	return dse_stat_ok;
}

/* Bandwidth: a comma-separated list of positive integers; the first is
 * the one SCALE-Sim uses.
 */
static dse_stat cfg_bandwidth(struct cfg_reader *rd, sim_scale_config *cfg)
{
	struct value *v = &rd->v[K_BANDWIDTH];
	const char *p = v->s;

	while (p <= v->e) {
		const char *q = p, *s, *e;
		int64_t bw;

		while (q < v->e && *q != ',')
			q++;
		s = p;
		e = q;
		trim(&s, &e);
		if (parse_i64(s, e, &bw) || bw < 1)
			return cfg_fail(rd, v->line, v->col + (int) (s - v->s),
				keys[K_BANDWIDTH].name, "'%.*s' is not a "
				"positive integer (words a cycle)",
				(int) (e - s), s);
		if (!cfg->n_bandwidths++)
			cfg->arch.bandwidth = bw;
		p = q + 1;
	}
	return dse_stat_ok;
}

/* The text values: run name, dataflow, mode, topology. */
static dse_stat cfg_texts(struct cfg_reader *rd, sim_scale_config *cfg)
{
	struct value *v = &rd->v[K_RUN_NAME];
	char buf[16];

	if (v->s == v->e || copy_text(cfg->run_name, sizeof(cfg->run_name),
		v->s, v->e) || strchr(cfg->run_name, '/') ||
	    !strcmp(cfg->run_name, ".") || !strcmp(cfg->run_name, ".."))
		return cfg_fail(rd, v->line, v->col, keys[K_RUN_NAME].name,
			"the run name names the reports' folder: 1 to %d "
			"characters, no '/'", SIM_SCALE_NAME_LEN - 1);
	v = &rd->v[K_DATAFLOW];
	if (copy_text(buf, sizeof(buf), v->s, v->e) ||
	    sim_scale_dataflow_parse(buf, &cfg->arch.dataflow))
		return cfg_fail(rd, v->line, v->col, keys[K_DATAFLOW].name,
			"'%.*s' is no dataflow (os, ws or is)",
			(int) (v->e - v->s), v->s);
	v = &rd->v[K_MODE];
	if (!copy_text(buf, sizeof(buf), v->s, v->e) &&
	    (!strcmp(buf, "CALC") || !strcmp(buf, "USER")))
		cfg->arch.bw_mode = buf[0] == 'U' ? SIM_SCALE_USER :
			SIM_SCALE_CALC;
	else
		return cfg_fail(rd, v->line, v->col, keys[K_MODE].name,
			"'%.*s' is neither CALC nor USER",
			(int) (v->e - v->s), v->s);
	v = &rd->v[K_TOPOLOGY];
	if (v->set) {
		const char *s = v->s, *e = v->e;

		if (e - s >= 2 && *s == '"' && e[-1] == '"') {
			s++;
			e--;
		}
		if (s == e || copy_text(cfg->topology, sizeof(cfg->topology),
			s, e))
			return cfg_fail(rd, v->line, v->col,
				keys[K_TOPOLOGY].name, "a path of 1 to %d "
				"characters", SIM_SCALE_PATH_LEN - 1);
		cfg->topology_line = v->line;
	}
	return dse_stat_ok;
}

/* The integer values. */
static dse_stat cfg_numbers(struct cfg_reader *rd, sim_scale_config *cfg)
{
	static const int pos[] = { K_HEIGHT, K_WIDTH, K_IFMAP_KB, K_FILTER_KB,
		K_OFMAP_KB };
	int64_t v[5];
	int i;

	for (i = 0; i < 5; i++)
		if (cfg_int(rd, pos[i], 1, &v[i]))
			return dse_stat_error;
	cfg->arch.rows = v[0];
	cfg->arch.cols = v[1];
	for (i = 0; i < SIM_SCALE_N_OPERANDS; i++) {
		cfg->arch.sram_kb[i] = v[2 + i];
		if (cfg_int(rd, K_IFMAP_OFF + i, INT64_MIN, &cfg->offsets[i]))
			return dse_stat_error;
	}
	cfg->banks = 1;
	if (rd->v[K_BANKS].set && cfg_int(rd, K_BANKS, 1, &cfg->banks))
		return dse_stat_error;
	if (rd->v[K_BANDWIDTH].set)
		return cfg_bandwidth(rd, cfg);
	if (cfg->arch.bw_mode == SIM_SCALE_USER)
		return cfg_fail(rd, rd->section_line[1], 1,
			keys[K_BANDWIDTH].name, "USER mode needs the "
			"bandwidth in words a cycle ('Bandwidth : 10')");
	return dse_stat_ok;
}

dse_stat sim_scale_parse_config(const char *text, size_t len,
	const char *file, sim_scale_config *cfg, dse_error *err)
{
	struct cfg_reader rd;
	int k;

	memset(&rd, 0, sizeof(rd));
	rd.file = file;
	rd.err = err;
	memset(cfg, 0, sizeof(*cfg));
	sim_scale_arch_default(&cfg->arch, 1, 1, SIM_SCALE_OS);
	if (cfg_lines(&rd, text, len))
		return dse_stat_error;
	for (k = 0; k < N_KEYS; k++)
		if (keys[k].required && !rd.v[k].set)
			return cfg_fail(&rd, rd.section_line[keys[k].section] ?
				rd.section_line[keys[k].section] : 1, 1,
				keys[k].name, "[%s] has no %s, which SCALE-Sim "
				"needs", sections[keys[k].section],
				keys[k].name);
	/* The mode decides whether Bandwidth is needed: read it first. */
	if (cfg_texts(&rd, cfg) || cfg_numbers(&rd, cfg))
		return dse_stat_error;
	return dse_stat_ok;
}

/* ------------------------------------------------------------------ */
/* Topologies */

struct sim_scale_topology {
	sim_scale_topo_layer *layers;
	int n, cap;
};

/* One field of a row: [s, e) trimmed, and its column. */
struct field {
	const char *s, *e;
	int col;
};

#define MAX_FIELDS 16

sim_scale_topology *sim_scale_topology_free(sim_scale_topology *t)
{
	if (t) {
		free(t->layers);
		free(t);
	}
	return NULL;
}

int sim_scale_topology_n_layers(const sim_scale_topology *t)
{
	return t ? t->n : 0;
}

const sim_scale_topo_layer *sim_scale_topology_layer(
	const sim_scale_topology *t, int i)
{
	return t && i >= 0 && i < t->n ? &t->layers[i] : NULL;
}

/* Splits a line at its separator (a comma, or a tab in a file whose
 * header has no comma, as SCALE-Sim's UNet_maestro.csv).  A '#' starts a
 * note that runs to the end of the line (SCALE-Sim's mobilnet_4k.csv marks
 * its depthwise rows ",#dw" after the last comma, which SCALE-Sim drops
 * with the last field).  SCALE-Sim drops what follows the last separator
 * (its rows end in one); a row without the final separator keeps all its
 * fields here.  Returns the number of fields, MAX_FIELDS + 1 when there
 * are more.
 */
static int split_row(const struct line *l, char sep, struct field *f)
{
	const char *p = l->s, *end = memchr(l->s, '#',
		(size_t) (l->e - l->s));
	int n = 0;

	if (!end)
		end = l->e;
	for (;;) {
		const char *q = p;

		while (q < end && *q != sep)
			q++;
		if (n == MAX_FIELDS)
			return MAX_FIELDS + 1;
		f[n].s = p;
		f[n].e = q;
		trim(&f[n].s, &f[n].e);
		f[n].col = (int) (f[n].s - l->s) + 1;
		n++;
		if (q == end)
			break;
		p = q + 1;
	}
	if (n > 1 && f[n - 1].s == f[n - 1].e)
		n--;
	return n;
}

static int add_layer(sim_scale_topology *t, const sim_scale_topo_layer *l)
{
	if (t->n == t->cap) {
		int cap = t->cap ? 2 * t->cap : 64;
		sim_scale_topo_layer *p = realloc(t->layers,
			(size_t) cap * sizeof(*p));

		if (!p)
			return -1;
		t->layers = p;
		t->cap = cap;
	}
	t->layers[t->n++] = *l;
	return 0;
}

/* The column names, for messages. */
static const char *const conv_cols[] = { "layer name", "IFMAP height",
	"IFMAP width", "filter height", "filter width", "channels",
	"filters", "stride", "stride width" };
static const char *const gemm_cols[] = { "layer name", "M", "N", "K" };

/* Reads the numbers of a row into v[] (v[i] for field i + 1). */
static dse_stat row_numbers(const char *file, const struct line *l,
	const struct field *f, int n, int gemm, int64_t *v, dse_error *err)
{
	int i;

	for (i = 1; i < n; i++)
		if (parse_i64(f[i].s, f[i].e, &v[i - 1]) || v[i - 1] < 1)
			return dse_error_set_at(err, file, l->no, f[i].col,
				NULL, "the %s must be a positive integer, not "
				"'%.*s'", gemm ? gemm_cols[i] : conv_cols[i],
				(int) (f[i].e - f[i].s), f[i].s);
	return dse_stat_ok;
}

/* The layer of a row: SCALE-Sim's GEMM M,N,K is the IFMAP M x K under a
 * 1 x K filter, one channel, N filters, stride 1.
 */
static void row_layer(const int64_t *v, int n, int gemm, sim_scale_layer *l)
{
	if (gemm) {
		sim_scale_gemm(l, v[0], v[1], v[2]);
		return;
	}
	*l = (sim_scale_layer) { v[0], v[1], v[2], v[3], v[4], v[5], v[6],
		n == 9 ? v[7] : v[6] };
}

/* Whether the name [s, e) marks a depthwise layer: SCALE-Sim looks for
 * "DP" anywhere in it.
 */
static int depthwise(const char *s, const char *e)
{
	for (; s + 1 < e; s++)
		if (s[0] == 'D' && s[1] == 'P')
			return 1;
	return 0;
}

/* Adds the layer of one row; a depthwise row ("DP" in its name) becomes
 * one single-channel layer per channel, named "<name>Channel_<i>" as
 * SCALE-Sim names them.
 */
static dse_stat row_add(sim_scale_topology *t, const char *file,
	const struct line *l, const struct field *f, int n, int gemm,
	dse_error *err)
{
	sim_scale_topo_layer tl;
	int64_t v[MAX_FIELDS], copies = 1, i;

	memset(&tl, 0, sizeof(tl));
	tl.line = l->no;
	if (row_numbers(file, l, f, n, gemm, v, err))
		return dse_stat_error;
	row_layer(v, n, gemm, &tl.layer);
	if (tl.layer.r > tl.layer.h || tl.layer.s > tl.layer.w)
		return dse_error_set_at(err, file, l->no, f[3].col, NULL,
			"the filter (%lldx%lld) is larger than the IFMAP "
			"(%lldx%lld)", (long long) tl.layer.r,
			(long long) tl.layer.s, (long long) tl.layer.h,
			(long long) tl.layer.w);
	if (!gemm && depthwise(f[0].s, f[0].e)) {
		copies = tl.layer.c;
		tl.layer.c = 1;
	}
	if (t->n + copies > MAX_LAYERS)
		return dse_error_set_at(err, file, l->no, 1, NULL, "more than "
			"%d layers", MAX_LAYERS);
	for (i = 0; i < copies; i++) {
		int w = snprintf(tl.name, sizeof(tl.name), "%.*s",
			(int) (f[0].e - f[0].s), f[0].s);

		if (copies > 1)
			w = snprintf(tl.name + w, sizeof(tl.name) - (size_t) w,
				"Channel_%lld", (long long) i) + w;
		if (w >= (int) sizeof(tl.name))
			return dse_error_set_at(err, file, l->no, f[0].col,
				NULL, "a layer name of at most %d characters",
				SIM_SCALE_NAME_LEN - 16);
		if (add_layer(t, &tl))
			return dse_error_set(err, DSE_E_NOMEM, "out of memory "
				"reading %s", file);
	}
	return dse_stat_ok;
}

/* Whether the fields of a row are all empty. */
static int row_empty(const struct field *f, int n)
{
	int i;

	for (i = 0; i < n && i < MAX_FIELDS; i++)
		if (f[i].s != f[i].e)
			return 0;
	return n <= MAX_FIELDS;
}

/* The fields a row's layer is read from.  A spreadsheet saved as CSV
 * carries its own columns after the layer's (SCALE-Sim's Resnet50.csv:
 * two empty columns, then the output size it worked out); an empty field
 * after the last column a layer may have ends the row, and what follows
 * it is the sheet's, not the layer's.
 */
static int row_fields(const struct field *f, int n, int gemm)
{
	int i, lo = gemm ? 4 : 8;

	for (i = lo; i < n && i < MAX_FIELDS; i++)
		if (f[i].s == f[i].e)
			return i;
	return n;
}

/* Whether a row is a title: one field, not a number, no tab (SCALE-Sim's
 * MLPERF.csv names each network on a row of its own before its layers; a
 * row of tabs in a file of commas is a mistake, not a title).
 */
static int row_title(const struct field *f, int n)
{
	int64_t v;

	return n == 1 && parse_i64(f[0].s, f[0].e, &v) &&
		!memchr(f[0].s, '\t', (size_t) (f[0].e - f[0].s));
}

/* One row after the header. */
static dse_stat topo_row(sim_scale_topology *t, const char *file,
	const struct line *l, char sep, int gemm, dse_error *err)
{
	struct field f[MAX_FIELDS];
	int n, lo = gemm ? 4 : 8, hi = gemm ? 4 : 9;

	if (memchr(l->s, 0, (size_t) (l->e - l->s)))
		return dse_error_set_at(err, file, l->no, 1, NULL, "a NUL "
			"byte: this is not a text file");
	n = split_row(l, sep, f);
	if (row_empty(f, n) || row_title(f, n))
		return dse_stat_ok;
	n = row_fields(f, n, gemm);
	if (n < lo || n > hi)
		return dse_error_set_at(err, file, l->no,
			n > hi ? f[hi].col : 1, NULL, "a %s row has %s "
			"(%s) and a comma after the last; this one has %d "
			"field%s", gemm ? "GEMM" : "convolution", gemm ?
			"4 fields" : "8 or 9 fields", gemm ? "name, M, N, K" :
			"name, IFMAP height, width, filter height, width, "
			"channels, filters, stride[, stride width]",
			n > MAX_FIELDS ? MAX_FIELDS + 1 : n, n == 1 ? "" : "s");
	if (!gemm && f[0].s == f[0].e)
		return dse_error_set_at(err, file, l->no, 1, NULL, "the layer "
			"has no name");
	return row_add(t, file, l, f, n, gemm, err);
}

/* The separator of a topology: a comma, or a tab where the header has
 * tabs and no comma.
 */
static char topo_separator(const struct line *l)
{
	size_t n = (size_t) (l->e - l->s);

	return !memchr(l->s, ',', n) && memchr(l->s, '\t', n) ? '\t' : ',';
}

sim_scale_topology *sim_scale_parse_topology(const char *text, size_t len,
	const char *file, int gemm, dse_error *err)
{
	sim_scale_topology *t = calloc(1, sizeof(*t));
	const char *p = text, *end = text + len;
	struct line l = { 0 };
	char sep;

	if (!t) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory reading %s",
			file);
		return NULL;
	}
	/* The first line is the header, whatever it holds. */
	next_line(&p, end, &l);
	sep = topo_separator(&l);
	while (next_line(&p, end, &l))
		if (l.e - l.s > LINE_LEN) {
			dse_error_set_at(err, file, l.no, LINE_LEN, NULL,
				"a line longer than %d characters", LINE_LEN);
			return sim_scale_topology_free(t);
		} else if (topo_row(t, file, &l, sep, gemm, err))
			return sim_scale_topology_free(t);
	if (!t->n) {
		dse_error_set_at(err, file, l.no > 1 ? 2 : 1, 1, NULL,
			"no layers: the first line is the header and at "
			"least one row must follow");
		return sim_scale_topology_free(t);
	}
	return t;
}

/* ------------------------------------------------------------------ */
/* Reports */

void sim_scale_pyfloat(char *buf, size_t size, double v)
{
	char tmp[40], out[64], *o = out;
	int p, exp10, nd = 0, i;
	const char *c;

	if (isnan(v) || isinf(v)) {
		snprintf(buf, size, "%s", isnan(v) ? "nan" :
			v > 0 ? "inf" : "-inf");
		return;
	}
	/* The fewest digits that read back to v (the correctly rounded
	 * ones are then the closest, as Python picks).
	 */
	for (p = 1; p < 17; p++) {
		snprintf(tmp, sizeof(tmp), "%.*e", p - 1, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	snprintf(tmp, sizeof(tmp), "%.*e", p - 1, v);
	c = tmp;
	if (*c == '-')
		*o++ = *c++;
	for (; *c != 'e'; c++)
		if (isdigit((unsigned char) *c))
			tmp[nd++] = *c;
	exp10 = atoi(c + 1);
	while (nd > 1 && tmp[nd - 1] == '0')
		nd--;
	if (exp10 < -4 || exp10 >= 16) {
		/* 1.5e-05, 1e+16 */
		*o++ = tmp[0];
		if (nd > 1)
			*o++ = '.';
		for (i = 1; i < nd; i++)
			*o++ = tmp[i];
		snprintf(o, sizeof(out) - (size_t) (o - out), "e%c%02d",
			exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
	} else if (exp10 < 0) {
		/* 0.00125 */
		*o++ = '0';
		*o++ = '.';
		for (i = 0; i < -exp10 - 1; i++)
			*o++ = '0';
		for (i = 0; i < nd; i++)
			*o++ = tmp[i];
		*o = 0;
	} else {
		/* 21442.0, 75.42250570324504 */
		for (i = 0; i <= exp10; i++)
			*o++ = i < nd ? tmp[i] : '0';
		*o++ = '.';
		if (nd <= exp10 + 1)
			*o++ = '0';
		for (i = exp10 + 1; i < nd; i++)
			*o++ = tmp[i];
		*o = 0;
	}
	snprintf(buf, size, "%s", out);
}

static const char *const report_files[] = {
	"COMPUTE_REPORT.csv", "BANDWIDTH_REPORT.csv",
	"DETAILED_ACCESS_REPORT.csv"
};

static const char *const report_headers[] = {
	"LayerID, Total Cycles, Stall Cycles, Overall Util %, "
	"Mapping Efficiency %, Compute Util %,\n",
	"LayerID, Avg IFMAP SRAM BW, Avg FILTER SRAM BW, Avg OFMAP SRAM BW, "
	"Avg IFMAP DRAM BW, Avg FILTER DRAM BW, Avg OFMAP DRAM BW,\n",
	"LayerID, SRAM IFMAP Start Cycle, SRAM IFMAP Stop Cycle, "
	"SRAM IFMAP Reads, SRAM Filter Start Cycle, SRAM Filter Stop Cycle, "
	"SRAM Filter Reads, SRAM OFMAP Start Cycle, SRAM OFMAP Stop Cycle, "
	"SRAM OFMAP Writes, DRAM IFMAP Start Cycle, DRAM IFMAP Stop Cycle, "
	"DRAM IFMAP Reads, DRAM Filter Start Cycle, DRAM Filter Stop Cycle, "
	"DRAM Filter Reads, DRAM OFMAP Start Cycle, DRAM OFMAP Stop Cycle, "
	"DRAM OFMAP Writes,\n"
};

const char *sim_scale_report_file(enum sim_scale_report_kind kind)
{
	return (unsigned) kind < SIM_SCALE_N_REPORTS ? report_files[kind] :
		NULL;
}

int sim_scale_report_header(FILE *f, enum sim_scale_report_kind kind)
{
	if ((unsigned) kind >= SIM_SCALE_N_REPORTS)
		return -1;
	return fputs(report_headers[kind], f) < 0 ? -1 : 0;
}

/* Writes ", " and v as a Python float. */
static int put_float(FILE *f, double v)
{
	char buf[40];

	sim_scale_pyfloat(buf, sizeof(buf), v);
	return fprintf(f, ", %s", buf) < 0 ? -1 : 0;
}

/* The detailed report's triple of one memory: start and stop cycles (as
 * floats, SCALE-Sim takes them from its traces) and the access count.
 */
static int put_triple(FILE *f, int64_t start, int64_t stop, int64_t n)
{
	if (put_float(f, (double) start) || put_float(f, (double) stop))
		return -1;
	return fprintf(f, ", %lld", (long long) n) < 0 ? -1 : 0;
}

int sim_scale_report_line(FILE *f, enum sim_scale_report_kind kind, int id,
	const sim_scale_report *r)
{
	int bad = fprintf(f, "%d", id) < 0, i;

	if (kind == SIM_SCALE_COMPUTE_REPORT)
		bad |= fprintf(f, ", %lld, %lld", (long long) r->total_cycles,
			(long long) r->stall_cycles) < 0 ||
			put_float(f, r->overall_util) ||
			put_float(f, r->mapping_eff) ||
			put_float(f, r->compute_util);
	else if (kind == SIM_SCALE_BANDWIDTH_REPORT)
		for (i = 0; i < 6; i++)
			bad |= put_float(f, i < 3 ? r->sram_bw[i] :
				r->dram_bw[i - 3]);
	else if (kind == SIM_SCALE_DETAIL_REPORT) {
		for (i = 0; i < SIM_SCALE_N_OPERANDS; i++)
			bad |= put_triple(f, r->sram_start[i], r->sram_stop[i],
				r->sram_accesses[i]);
		for (i = 0; i < SIM_SCALE_N_OPERANDS; i++)
			bad |= put_triple(f, r->dram_start[i], r->dram_stop[i],
				r->dram_accesses[i]);
	} else
		return -1;
	return bad || fputs(",\n", f) < 0 ? -1 : 0;
}
