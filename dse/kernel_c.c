/* A [kernel] read from C: the source, defines, include and scop keys
 * turned into the C reader's options, and the kernel it reads turned into
 * the description the analysis takes.
 *
 *   [kernel]
 *   source  = gemm.c               # relative to the config's folder
 *   defines = NI=1024, LAYOUT2     # as -D
 *   include = include, ../common   # as -I, relative to the config
 *   scop    = kernel_gemm          # the scop's function, or its number
 *   params  = n=512                # values of integer variables
 *
 * "dse kernel.c" and "dse analyze kernel.c" make such a config from the
 * command line (dse_c_config).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

/* Storage for the split lists: the option strings point into it. */
struct c_lists {
	char defines[4096];
	char include[CFRONT_MAX_INCLUDES][DSE_PATH_LEN];
	char source[DSE_PATH_LEN];
};

/* Splits the comma-separated defines into o->define, checking each is
 * NAME or NAME=VALUE; errors point into the value.
 */
static dse_stat split_defines(const dse_ctx *ctx, cfront_opts *o,
	struct c_lists *l, dse_error *err)
{
	const char *text = dse_cfg_string(ctx->cfg, "kernel", "defines", "");
	char *p;

	snprintf(l->defines, sizeof(l->defines), "%s", text);
	for (p = l->defines; *p;) {
		char *start, *end = strchr(p, ',');
		char *q;

		if (end)
			*end = '\0';
		while (isspace((unsigned char) *p))
			p++;
		start = p;
		for (q = p + strlen(p); q > p && isspace((unsigned char) q[-1]);)
			*--q = '\0';
		q = start;
		if (*q && !isalpha((unsigned char) *q) && *q != '_')
			return dse_ctx_error(ctx, "kernel", "defines",
				(int) (start - l->defines), err, "a define is "
				"NAME or NAME=VALUE, as -D takes: '%s'", start);
		while (isalnum((unsigned char) *q) || *q == '_')
			q++;
		if (*q && *q != '=')
			return dse_ctx_error(ctx, "kernel", "defines",
				(int) (start - l->defines), err, "a define is "
				"NAME or NAME=VALUE, as -D takes: '%s'", start);
		if (*start && o->n_defines == CFRONT_MAX_DEFINES)
			return dse_ctx_error(ctx, "kernel", "defines", -1, err,
				"at most %d defines", CFRONT_MAX_DEFINES);
		if (*start)
			o->define[o->n_defines++] = start;
		if (!end)
			break;
		p = end + 1;
	}
	return dse_stat_ok;
}

/* Splits the include folders, each relative to the config's folder. */
static dse_stat split_include(const dse_ctx *ctx, cfront_opts *o,
	struct c_lists *l, dse_error *err)
{
	const char *p = dse_cfg_string(ctx->cfg, "kernel", "include", "");

	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t) (end - p) : strlen(p);
		char dir[DSE_PATH_LEN];

		while (n && isspace((unsigned char) *p)) {
			p++;
			n--;
		}
		while (n && isspace((unsigned char) p[n - 1]))
			n--;
		if (n && o->n_includes == CFRONT_MAX_INCLUDES)
			return dse_ctx_error(ctx, "kernel", "include", -1, err,
				"at most %d include folders",
				CFRONT_MAX_INCLUDES);
		if (n) {
			snprintf(dir, sizeof(dir), "%.*s", (int) n, p);
			dse_config_path(ctx, dir, l->include[o->n_includes],
				DSE_PATH_LEN);
			o->include[o->n_includes] = l->include[o->n_includes];
			o->n_includes++;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return dse_stat_ok;
}

static poly_source c_source(const dse_ctx *ctx, const char *key)
{
	poly_source s;

	s.file = dse_cfg_file(ctx->cfg);
	s.key = key;
	dse_cfg_pos(ctx->cfg, "kernel", key, &s.line, &s.col);
	return s;
}

/* The kernel's name when the config gives none: the function that holds
 * the scop, else "kernel".
 */
static const char *default_name(const cfront_kernel *k)
{
	const char *f = cfront_function(k);
	size_t n = strlen(f);

	if (n == 0 || n >= POLY_NAME_LEN)
		return "kernel";
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char) f[i]) && f[i] != '_')
			return "kernel";
	return f;
}

dse_stat dse_c_kernel(const dse_ctx *ctx, poly_kernel_desc *d,
	cfront_kernel **c, dse_error *err)
{
	struct c_lists *l = calloc(1, sizeof(*l));
	cfront_opts o;
	dse_stat st = dse_stat_ok;

	*c = NULL;
	if (!l)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	memset(&o, 0, sizeof(o));
	dse_config_path(ctx, dse_cfg_string(ctx->cfg, "kernel", "source", ""),
		l->source, sizeof(l->source));
	o.file = l->source;
	o.scop = dse_cfg_string(ctx->cfg, "kernel", "scop", "");
	o.src = c_source(ctx, "source");
	o.scop_src = c_source(ctx, "scop");
	o.params_src = c_source(ctx, "params");
	o.n_params = dse_cfg_n_params(ctx->cfg, "kernel", "params");
	if (o.n_params > POLY_MAX_PARAMS)
		st = dse_ctx_error(ctx, "kernel", "params", -1, err,
			"too many parameters (at most %d)", POLY_MAX_PARAMS);
	for (int i = 0; st == dse_stat_ok && i < o.n_params; i++) {
		o.param_name[i] = dse_cfg_param_name(ctx->cfg, "kernel",
			"params", i);
		o.param_value[i] = dse_cfg_param_value(ctx->cfg, "kernel",
			"params", i);
	}
	if (st == dse_stat_ok)
		st = split_defines(ctx, &o, l, err);
	if (st == dse_stat_ok)
		st = split_include(ctx, &o, l, err);
	if (st == dse_stat_ok)
		*c = cfront_read(&o, err);
	free(l);
	if (!*c)
		return dse_stat_error;
	cfront_fill_desc(*c, d);
	if (!dse_cfg_has(ctx->cfg, "kernel", "name"))
		d->name = default_name(*c);
	return dse_stat_ok;
}

/* Appends s as a quoted config string (escaping '"' and '\\') and a
 * line end; the caller sized buf for twice s.
 */
static void append_quoted(char *buf, size_t size, size_t *len, const char *s)
{
	if (*len + 2 < size)
		buf[(*len)++] = '"';
	for (; *s && *len + 4 < size; s++) {
		if (*s == '"' || *s == '\\')
			buf[(*len)++] = '\\';
		buf[(*len)++] = *s;
	}
	if (*len + 2 < size) {
		buf[(*len)++] = '"';
		buf[(*len)++] = '\n';
	}
	buf[*len] = '\0';
}

/* Appends "key = "v1, v2"" for the values of one option. */
static void append_list(char *buf, size_t size, size_t *len, const char *key,
	const char *const *v, int n)
{
	size_t total = 1;
	char *joined;

	if (n == 0)
		return;
	for (int i = 0; i < n; i++)
		total += strlen(v[i]) + 2;
	joined = malloc(total);
	if (!joined)
		return;
	joined[0] = '\0';
	for (int i = 0; i < n; i++)
		strcat(strcat(joined, i ? ", " : ""), v[i]);
	*len += (size_t) snprintf(buf + *len, size - *len, "%s", key);
	append_quoted(buf, size, len, joined);
	free(joined);
}

char *dse_c_config(const char *path, const char *const *defines,
	int n_defines, const char *const *includes, int n_includes)
{
	size_t size = 512 + 2 * strlen(path);
	size_t len;
	char *text;

	for (int i = 0; i < n_defines; i++)
		size += 2 * strlen(defines[i]) + 4;
	for (int i = 0; i < n_includes; i++)
		size += 2 * strlen(includes[i]) + 4;
	text = malloc(size);
	if (!text)
		return NULL;
	len = (size_t) snprintf(text, size, "[kernel]\nsource = ");
	append_quoted(text, size, &len, path);
	append_list(text, size, &len, "defines = ", defines, n_defines);
	append_list(text, size, &len, "include = ", includes, n_includes);
	return text;
}
