/* tensil: the CSV readers of layer lists (SCALE-Sim's topology form and a
 * GEMM list), with file:line:column errors.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "internal.h"

/* A row has at most the twelve columns of the extended topology form; a
 * few more are split so that "too many fields" can point at the first
 * extra.
 */
#define MAX_FIELDS 14
#define FIELD_LEN 96

/* The most multiply-accumulates one layer, and a whole list, may ask for.
 * The per-field bounds alone allow M x N x K up to 2^104, far past 64-bit
 * arithmetic.  2^40 (1.1 T) is over a thousand times the largest layer of
 * the built-in networks (0.6 G, in YOLOv4-tiny), and 2^50 keeps the
 * models' sums of per-layer counts, cycles and bytes far from overflowing.
 */
#define MAX_LAYER_MACS (INT64_C(1) << 40)
#define MAX_MODEL_MACS (INT64_C(1) << 50)

/* A layer list is a few KB; reading stops past this (and so ends on
 * /dev/zero).
 */
#define MAX_CSV_BYTES (16u << 20)

enum form { FORM_CONV, FORM_GEMM };

struct field {
	char text[FIELD_LEN];
	int col;		/* 1-based column of the field's first character */
	int too_long;
};

struct row {
	int n;
	struct field f[MAX_FIELDS];
	int end_col;		/* column just past the line's last character */
};

struct reader {
	const char *file;
	int line;
	dse_error *err;
};

static const char *const conv_columns[] = {
	"Layer name", "IFMAP Height", "IFMAP Width", "Filter Height",
	"Filter Width", "Channels", "Num Filter", "Strides", "Padding",
	"Activation", "Residual", "Pooling"
};

static const char *const gemm_columns[] = { "name", "M", "N", "K" };

/* Splits the line [s, e) into trimmed fields and drops the empty fields
 * at its end (the trailing commas SCALE-Sim's files carry).
 */
static void split(const char *s, const char *e, struct row *r)
{
	const char *p = s;

	memset(r, 0, sizeof(*r));
	r->end_col = (int) (e - s) + 1;
	while (r->n < MAX_FIELDS) {
		const char *a = p, *b;
		struct field *f = &r->f[r->n++];
		size_t len;

		while (a < e && *a != ',' && isspace((unsigned char) *a))
			a++;
		b = a;
		while (b < e && *b != ',')
			b++;
		p = b;
		while (b > a && isspace((unsigned char) b[-1]))
			b--;
		len = (size_t) (b - a);
		f->col = (int) (a - s) + 1;
		f->too_long = len >= FIELD_LEN;
		if (f->too_long)
			len = FIELD_LEN - 1;
		memcpy(f->text, a, len);
		f->text[len] = '\0';
		if (p >= e)
			break;
		p++;
	}
	while (r->n > 0 && !r->f[r->n - 1].text[0] &&
	    !r->f[r->n - 1].too_long)
		r->n--;
}

static dse_stat fail(struct reader *rd, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Records an input error at column "col" of the current line. */
static dse_stat fail(struct reader *rd, int col, const char *fmt, ...)
{
	char msg[DSE_ERROR_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dse_error_set_at(rd->err, rd->file, rd->line, col, NULL, "%s",
		msg);
}

/* Parses a decimal integer in [lo, hi] from field "f" named "what". */
static dse_stat parse_int(struct reader *rd, const struct field *f,
	const char *what, int64_t lo, int64_t hi, int64_t *out)
{
	const char *p = f->text;
	int64_t v = 0;

	if (*p == '+')
		p++;
	/* "-3" is an integer, just not one a layer can have. */
	if (*p == '-' && p[1] && strspn(p + 1, "0123456789") ==
			strlen(p + 1) && !f->too_long)
		return fail(rd, f->col, "%s: must be at least %lld, not %s",
			what, (long long) lo, f->text);
	if (!*p || f->too_long)
		return fail(rd, f->col, "%s: '%s' is not an integer", what,
			f->text);
	for (; *p; p++) {
		if (!isdigit((unsigned char) *p))
			return fail(rd, f->col, "%s: '%s' is not an integer",
				what, f->text);
		if (v > (INT64_MAX - 9) / 10)
			v = INT64_MAX / 2;	/* saturate: reported below */
		else
			v = 10 * v + (*p - '0');
	}
	if (v < lo)
		return fail(rd, f->col, "%s: must be at least %lld, not %s",
			what, (long long) lo, f->text);
	if (v > hi)
		return fail(rd, f->col, "%s: %s is out of range (at most "
			"%lld)", what, f->text, (long long) hi);
	*out = v;
	return dse_stat_ok;
}

static int is_integer(const char *s)
{
	if (*s == '+')
		s++;
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char) *s))
			return 0;
	return 1;
}

/* Reads the header row and decides the form. */
static dse_stat read_header(struct reader *rd, const struct row *r,
	enum form *form)
{
	if (r->n >= 2 && is_integer(r->f[1].text))
		return fail(rd, r->f[1].col, "the first line must be a header"
			" (SCALE-Sim's 'Layer name, IFMAP Height, ...' or "
			"'name, M, N, K'), not a layer");
	if (r->n == 4) {
		*form = FORM_GEMM;
		return dse_stat_ok;
	}
	if (r->n >= 8 && r->n <= 12) {
		*form = FORM_CONV;
		return dse_stat_ok;
	}
	return fail(rd, 1, "the header must have the 8 columns of SCALE-Sim's"
		" topology (up to 12 with Padding, Activation, Residual and "
		"Pooling) or the 4 of "
		"a GEMM list (name, M, N, K)");
}

static dse_stat read_word(struct reader *rd, const struct field *f,
	const char *what, const char *const *words, int n, int *out)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(f->text, words[i])) {
			*out = i;
			return dse_stat_ok;
		}
	return fail(rd, f->col, "%s: '%s' is not one of %s", what, f->text,
		n == 3 ? "none, relu, leaky" : words[0][0] == 'v' ?
		"same, valid" : "none, add");
}

static dse_stat check_count(struct reader *rd, const struct row *r, int lo,
	int hi)
{
	if (r->n > hi)
		return fail(rd, r->f[hi].col, "too many fields: a row has at "
			"most %s", hi == 4 ? "4 (name, M, N, K)" :
			"12 columns");
	if (r->n < lo)
		return fail(rd, r->end_col, "expected %d fields, found %d",
			lo, r->n);
	if (!r->f[0].text[0])
		return fail(rd, r->f[0].col, "empty layer name");
	if (r->f[0].too_long || strlen(r->f[0].text) >= TENSIL_NAME_LEN)
		return fail(rd, r->f[0].col, "layer name '%.20s...' is longer "
			"than %d characters", r->f[0].text,
			TENSIL_NAME_LEN - 1);
	return dse_stat_ok;
}

/* The Pooling column: "none", "global" (the average of all outputs) or
 * "max<k>/<s>" (k x k windows at stride s, SAME padding).
 */
static dse_stat read_pool(struct reader *rd, const struct field *f,
	tensil_layer *l)
{
	int k, s, n = 0;

	if (!strcasecmp(f->text, "none"))
		return dse_stat_ok;
	if (!strcasecmp(f->text, "global")) {
		l->global_pool = 1;
		return dse_stat_ok;
	}
	if (sscanf(f->text, "max%d/%d%n", &k, &s, &n) != 2 ||
	    f->text[n] || k < 1 || k > TENSIL_MAX_DIM || s < 1 || s > k)
		return fail(rd, f->col, "Pooling: '%s' is not none, global or "
			"max<k>/<s> (a k x k max pool at stride s <= k, e.g. "
			"max3/2)", f->text);
	l->pool_k = k;
	l->pool_stride = s;
	return dse_stat_ok;
}

/* One row of SCALE-Sim's form: name, H, W, FH, FW, C, F, S [, pad, act,
 * residual, pool].
 */
static dse_stat read_conv(struct reader *rd, const struct row *r,
	tensil_layer *l)
{
	static const char *const pads[] = { "valid", "same" };
	static const char *const acts[] = { "none", "relu", "leaky" };
	static const char *const res[] = { "none", "add" };
	int64_t v[7];
	int i, same = 0, act = TENSIL_ACT_NONE, residual = 0;

	if (check_count(rd, r, 8, 12) != dse_stat_ok)
		return dse_stat_error;
	for (i = 0; i < 7; i++) {
		int64_t hi = i == 4 || i == 5 ? TENSIL_MAX_CHANNELS :
			TENSIL_MAX_DIM;

		if (parse_int(rd, &r->f[i + 1], conv_columns[i + 1], 1, hi,
		    &v[i]) != dse_stat_ok)
			return dse_stat_error;
	}
	if (r->n > 8 && r->f[8].text[0] &&
	    read_word(rd, &r->f[8], "Padding", pads, 2, &same) != dse_stat_ok)
		return dse_stat_error;
	if (r->n > 9 && r->f[9].text[0] &&
	    read_word(rd, &r->f[9], "Activation", acts, 3, &act) !=
	    dse_stat_ok)
		return dse_stat_error;
	if (r->n > 10 && r->f[10].text[0] &&
	    read_word(rd, &r->f[10], "Residual", res, 2, &residual) !=
	    dse_stat_ok)
		return dse_stat_error;
	if (!same && (v[2] > v[0] || v[3] > v[1]))
		return fail(rd, r->f[v[2] > v[0] ? 3 : 4].col, "the filter is "
			"larger than the IFMAP (VALID padding: the IFMAP is "
			"taken as already padded)");
	tensil_layer_conv(l, r->f[0].text, (int) v[0], (int) v[1], (int) v[4],
		(int) v[2], (int) v[3], (int) v[5], (int) v[6], same);
	l->act = act;
	l->residual = residual;
	if (r->n > 11 && r->f[11].text[0])
		return read_pool(rd, &r->f[11], l);
	return dse_stat_ok;
}

/* One row of the GEMM form: name, M, N, K. */
static dse_stat read_gemm(struct reader *rd, const struct row *r,
	tensil_layer *l)
{
	int64_t v[3];
	int i;

	if (check_count(rd, r, 4, 4) != dse_stat_ok)
		return dse_stat_error;
	for (i = 0; i < 3; i++) {
		int64_t hi = i == 0 ? TENSIL_MAX_DIM : TENSIL_MAX_CHANNELS;

		if (parse_int(rd, &r->f[i + 1], gemm_columns[i + 1], 1, hi,
		    &v[i]) != dse_stat_ok)
			return dse_stat_error;
	}
	tensil_layer_gemm(l, r->f[0].text, v[0], (int) v[1], (int) v[2]);
	return dse_stat_ok;
}

/* The model's name: the file's base name without its extension. */
static void model_name(const char *file, char *buf, size_t size)
{
	char *dot;

	snprintf(buf, size, "%s", dse_base_name(file));
	dot = strrchr(buf, '.');
	if (dot && dot != buf)
		*dot = '\0';
}

/* Whether m x n x k, each >= 0, is above "limit" (no overflow). */
static int product_above(int64_t m, int64_t n, int64_t k, int64_t limit)
{
	if (m == 0 || n == 0 || k == 0)
		return 0;
	return m > limit / n || m * n > limit / k;
}

/* Bounds a layer's multiply-accumulates and the running total "*sum". */
static dse_stat check_size(struct reader *rd, const tensil_layer *l,
	int64_t *sum)
{
	int64_t m, n, k;

	tensil_layer_gemm_dims(l, &m, &n, &k);
	if (product_above(m, n, k, MAX_LAYER_MACS))
		return fail(rd, 1, "layer '%s' has %lld x %lld x %lld "
			"multiply-accumulates; at most 2^40 (%lld) per layer",
			l->name, (long long) m, (long long) n, (long long) k,
			(long long) MAX_LAYER_MACS);
	*sum += tensil_layer_macs(l);
	if (*sum > MAX_MODEL_MACS)
		return fail(rd, 1, "the layers up to '%s' have more than 2^50 "
			"(%lld) multiply-accumulates in all", l->name,
			(long long) MAX_MODEL_MACS);
	return dse_stat_ok;
}

/* Reads every row after the header into "m". */
static dse_stat read_rows(struct reader *rd, const char *p, enum form form,
	tensil_model *m)
{
	int64_t sum = 0;

	while (*p) {
		const char *e = p, *next;
		struct row r;
		tensil_layer l;
		const char *why;

		while (*e && *e != '\n')
			e++;
		next = *e ? e + 1 : e;
		if (e > p && e[-1] == '\r')
			e--;
		rd->line++;
		split(p, e, &r);
		p = next;
		if (r.n == 0 || r.f[0].text[0] == '#')
			continue;
		if ((form == FORM_CONV ? read_conv(rd, &r, &l) :
		    read_gemm(rd, &r, &l)) != dse_stat_ok)
			return dse_stat_error;
		why = tensil_layer_check(&l);
		if (why)
			return fail(rd, 1, "layer '%s': %s", l.name, why);
		if (check_size(rd, &l, &sum) != dse_stat_ok)
			return dse_stat_error;
		if (tensil_model_add_layer(m, &l, rd->err) != dse_stat_ok)
			return dse_stat_error;
	}
	return dse_stat_ok;
}

tensil_model *tensil_model_parse_csv(const char *text, const char *file,
	dse_error *err)
{
	struct reader rd = { file ? file : "<csv>", 0, err };
	const char *p = text;
	char name[TENSIL_NAME_LEN];
	tensil_model *m;
	enum form form = FORM_CONV;
	int have_header = 0;

	/* Find and read the header. */
	while (*p && !have_header) {
		const char *e = p;
		struct row r;

		while (*e && *e != '\n')
			e++;
		rd.line++;
		split(p, (e > p && e[-1] == '\r') ? e - 1 : e, &r);
		p = *e ? e + 1 : e;
		if (r.n == 0 || r.f[0].text[0] == '#')
			continue;
		if (read_header(&rd, &r, &form) != dse_stat_ok)
			return NULL;
		have_header = 1;
	}
	if (!have_header) {
		dse_error_set_at(err, rd.file, rd.line ? rd.line : 1, 1, NULL,
			"empty layer list: no header and no layers");
		return NULL;
	}
	model_name(rd.file, name, sizeof(name));
	m = tensil_model_alloc(name, err);
	if (!m)
		return NULL;
	if (read_rows(&rd, p, form, m) != dse_stat_ok)
		return tensil_model_free(m);
	if (tensil_model_n_layers(m) == 0) {
		dse_error_set_at(err, rd.file, rd.line, 1, NULL,
			"no layers after the header");
		return tensil_model_free(m);
	}
	return m;
}

/* Reports the first NUL byte of text[0, len) at its line and column. */
static void nul_error(const char *text, size_t len, const char *path,
	dse_error *err)
{
	const char *nul = memchr(text, '\0', len), *c;
	int line = 1, col = 1;

	for (c = text; c < nul && line < INT_MAX && col < INT_MAX; c++, col++)
		if (*c == '\n') {
			line++;
			col = 0;
		}
	dse_error_set_at(err, path, line, col, NULL,
		"not a text file (NUL byte)");
}

tensil_model *tensil_model_read_csv(const char *path, dse_error *err)
{
	FILE *f;
	char *text = NULL;
	size_t len = 0, cap = 0;
	tensil_model *m;

	f = fopen(path, "rb");
	if (!f) {
		dse_error_set(err, DSE_E_IO, "cannot open '%s': %s", path,
			strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		if (len > MAX_CSV_BYTES) {
			free(text);
			fclose(f);
			dse_error_set_at(err, path, 1, 1, NULL, "larger than "
				"16 MiB: not a layer list");
			return NULL;
		}
		if (cap - len < 4096) {
			char *grown = realloc(text, cap ? 2 * cap : 65536);

			if (!grown) {
				free(text);
				fclose(f);
				dse_error_nomem(err, "the text of the "
					"topology file", cap ? 2.0 * cap :
					65536);
				return NULL;
			}
			text = grown;
			cap = cap ? 2 * cap : 65536;
		}
		got = fread(text + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(text);
		fclose(f);
		dse_error_set(err, DSE_E_IO, "cannot read '%s'", path);
		return NULL;
	}
	fclose(f);
	text[len] = '\0';
	if (memchr(text, '\0', len)) {
		nul_error(text, len, path, err);
		free(text);
		return NULL;
	}
	m = tensil_model_parse_csv(text, path, err);
	free(text);
	return m;
}
