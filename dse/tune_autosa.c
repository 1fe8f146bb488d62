/* "dse tune --emit autosa": what AutoSA needs to build the chosen design.
 *
 * AutoSA reads the loop order from the C file and permutes nothing in
 * it: its space-time candidates are numbered over the loops as written,
 * and array_part and latency list the loops in that order with the space
 * loops moved outermost.  dse's analysis numbers them the same way from
 * the same order, so the design's --sa-sizes holds for the C file the
 * analysis read.  That file is written as it is (AutoSA gets the
 * config's defines and include folders as -D and -I); a kernel given as
 * isl strings, or one scop picked out of a file with several, is written
 * from the model by isl's AST generator (poly_kernel_c), with its loops
 * in the analysis's order.
 *
 * With -o DIR, the folder gets the C file, simd_info.json (AutoSA's
 * --simd-info) and autosa.sh, the full command line, which runs from
 * AutoSA's folder ($AUTOSA_ROOT, else the current one) and names the
 * files by their absolute paths.  Without -o, the command line prints
 * the same as one shell snippet (cli/tune.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"

#define AUTOSA_CMD_LEN 16384

/* The C element type of a dse data type. */
static const char *c_type(const arch_dtype *dtype)
{
	static const char *const names[][2] = {
		{ "fp32", "float" }, { "fp16", "_Float16" }, { "int32", "int" },
		{ "int16", "short" }, { "int8", "char" },
	};

	for (size_t i = 0; dtype && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(dtype->name, names[i][0]))
			return names[i][1];
	return "float";
}

/* Whether the kernel's C file is written as it is: a C kernel whose file
 * AutoSA reads whole (no scop picked out of several) in its own loops (no
 * schedule transforms them).
 */
static int c_as_written(const dse_ctx *ctx)
{
	return dse_cfg_has(ctx->cfg, "kernel", "source") &&
		!dse_cfg_has(ctx->cfg, "kernel", "scop") &&
		!dse_cfg_has(ctx->cfg, "kernel", "schedule");
}

/* The whole of file "path" as a string into *text. */
static dse_stat read_whole(const char *path, char **text, dse_error *err)
{
	FILE *f = fopen(path, "rb");
	size_t len = 0, cap = 4096;
	char *buf = f ? malloc(cap) : NULL;

	while (buf) {
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		char *grown;

		len += n;
		if (n == 0)
			break;
		if (len + 1 < cap)
			continue;
		grown = cap < (size_t) 1 << 26 ? realloc(buf, cap * 2) : NULL;
		if (!grown) {
			free(buf);
			buf = NULL;
		}
		buf = grown;
		cap *= 2;
	}
	if (!buf || ferror(f)) {
		int e = errno;

		free(buf);
		if (f)
			fclose(f);
		return dse_error_set(err, DSE_E_IO, "cannot read %s: %s", path,
			strerror(e));
	}
	fclose(f);
	buf[len] = '\0';
	*text = buf;
	return dse_stat_ok;
}

/* The kernel's C text into *text (the caller frees it). */
static dse_stat kernel_text(const dse_ctx *ctx, char **text, dse_error *err)
{
	poly_kernel_desc d;
	cfront_kernel *c;
	char path[DSE_PATH_LEN];

	if (c_as_written(ctx)) {
		dse_config_path(ctx, dse_cfg_string(ctx->cfg, "kernel",
			"source", ""), path, sizeof(path));
		return read_whole(path, text, err);
	}
	if (dse_ctx_kernel_desc(ctx, &d, &c, err))
		return dse_stat_error;
	*text = poly_kernel_c(&d, c_type(ctx->dtype),
		ctx->analysis->ops_per_point, err);
	cfront_free(c);
	return *text ? dse_stat_ok : dse_stat_error;
}

/* Appends word to buf quoted for a POSIX shell when it needs it. */
static void put_word(char *buf, size_t size, const char *word)
{
	int plain = *word != '\0';

	for (const char *p = word; *p; p++)
		plain &= !!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
			"QRSTUVWXYZ0123456789_-+=./:,@%", *p);
	if (plain) {
		dse_appendf(buf, size, " %s", word);
		return;
	}
	dse_appendf(buf, size, " '");
	for (const char *p = word; *p; p++)
		dse_appendf(buf, size, *p == '\'' ? "'\\''" : "%c", *p);
	dse_appendf(buf, size, "'");
}

/* The config's defines (as -D) and include folders (as -I, absolute), for
 * a C file written as it is.
 */
static void put_c_options(const dse_ctx *ctx, char *buf, size_t size)
{
	char list[4096], path[DSE_PATH_LEN], abs[PATH_MAX];
	const char *keys[2] = { "defines", "include" };

	for (int k = 0; k < 2 && c_as_written(ctx); k++) {
		snprintf(list, sizeof(list), "%s", dse_cfg_string(ctx->cfg,
			"kernel", keys[k], ""));
		for (char *save = NULL, *w = strtok_r(list, ",", &save); w;
		     w = strtok_r(NULL, ",", &save)) {
			char opt[DSE_PATH_LEN + 4];

			while (*w == ' ' || *w == '\t')
				w++;
			for (char *e = w + strlen(w); e > w && (e[-1] == ' ' ||
			     e[-1] == '\t');)
				*--e = '\0';
			if (!*w)
				continue;
			if (k == 1) {
				dse_config_path(ctx, w, path, sizeof(path));
				w = realpath(path, abs) ? abs : path;
			}
			snprintf(opt, sizeof(opt), "-%c%s", k ? 'I' : 'D', w);
			put_word(buf, size, opt);
		}
	}
}

/* AutoSA's command line for the design: the C file "c", the SIMD file
 * "info" and the --sa-sizes string "sa".
 */
static void command(const dse_ctx *ctx, const char *c, const char *info,
	const char *sa, char *buf, size_t size)
{
	char opt[DSE_PATH_LEN + 128];

	snprintf(buf, size, "./autosa");
	put_word(buf, size, c);
	dse_appendf(buf, size, " --config=./autosa_config/autosa_config.json "
		"--target=autosa_hls_c --output-dir=./autosa.tmp/output");
	/* As AutoSA's documentation writes it; the string holds no
	 * character a shell expands inside double quotes.
	 */
	dse_appendf(buf, size, " --sa-sizes=\"%s\"", sa);
	snprintf(opt, sizeof(opt), "--simd-info=%s", info);
	put_word(buf, size, opt);
	dse_appendf(buf, size, " --host-serialize --hls");
	put_c_options(ctx, buf, size);
}

/* "<dir>/<name>" into buf. */
static void in_dir(const char *dir, const char *name, char *buf, size_t size)
{
	size_t n = strlen(dir);

	snprintf(buf, size, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/",
		name);
}

/* The name of the kernel's C file in the folder. */
static void c_name(const dse_ctx *ctx, char *buf, size_t size)
{
	snprintf(buf, size, "%s.c", ctx->tmpl.kernel);
}

dse_stat dse_tune_autosa_check(const dse_ctx *ctx, const char *dir,
	dse_error *err)
{
	const char *files[3] = { NULL, "simd_info.json", "autosa.sh" };
	char name[POLY_NAME_LEN + 8], path[DSE_PATH_LEN], real[DSE_PATH_LEN];
	struct stat st;

	/* An existing path that is not a folder is refused, with the
	 * reason the checks of every output give first (a device node, an
	 * input file such as the config), as they name what the path is.
	 */
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		if (dse_output_check(ctx, dir, "-o", real, sizeof(real), err))
			return dse_stat_error;
		return dse_error_set(err, DSE_E_INPUT, "-o: '%s' exists and is "
			"not a folder; --emit autosa writes a folder (the C "
			"file, simd_info.json and autosa.sh)", dir);
	}
	c_name(ctx, name, sizeof(name));
	files[0] = name;
	for (int i = 0; i < 3; i++) {
		in_dir(dir, files[i], path, sizeof(path));
		if (dse_output_check(ctx, path, "-o", real, sizeof(real), err))
			return dse_stat_error;
	}
	return dse_stat_ok;
}

/* Writes text to dir/name atomically (a temporary name renamed). */
static dse_stat write_file(const char *dir, const char *name,
	const char *text, int mode, dse_error *err)
{
	char path[DSE_PATH_LEN], tmp[DSE_PATH_LEN + 32];
	size_t len = strlen(text);
	int fd, bad;

	in_dir(dir, name, path, sizeof(path));
	if (res_path_tmp(path, tmp, sizeof(tmp)) < 0)
		return dse_error_set(err, DSE_E_INPUT, "-o: the path '%s' is "
			"too long", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0)
		return dse_error_set(err, DSE_E_IO, "cannot write %s: %s", tmp,
			strerror(errno));
	bad = write(fd, text, len) != (ssize_t) len;
	bad |= fsync(fd) != 0;
	bad |= close(fd) != 0;
	if (bad || rename(tmp, path) != 0) {
		int e = errno;

		remove(tmp);
		return dse_error_set(err, DSE_E_IO, "cannot write %s: %s", path,
			strerror(e));
	}
	return dse_stat_ok;
}

dse_stat dse_autosa_build(const dse_ctx *ctx, const int32_t *knobs,
	const char *dir, dse_autosa *a, dse_error *err)
{
	char cpath[DSE_PATH_LEN + 64], ipath[DSE_PATH_LEN + 64];
	const poly_template *t;
	const sim_model *m;
	int32_t local[SEARCH_MAX_KNOBS];

	memset(a, 0, sizeof(*a));
	/* Of a sweep over several candidates, the design's own: the C file
	 * is the same for all, as AutoSA numbers its candidates over the
	 * loops as written.
	 */
	if (dse_point_design(ctx, knobs, &t, &m, local) < 0)
		return dse_error_set(err, DSE_E_RUNTIME, "space_time[%d] is "
			"not a candidate of this sweep", (int) knobs[0]);
	dse_sa_write(t, m, local, a->sa, sizeof(a->sa));
	dse_sa_simd_info(t, m, local, a->info, sizeof(a->info));
	c_name(ctx, a->c_name, sizeof(a->c_name));
	a->command = malloc(AUTOSA_CMD_LEN);
	if (!a->command)
		return dse_error_nomem(err, "the AutoSA command",
			AUTOSA_CMD_LEN);
	if (dir) {
		in_dir(dir, a->c_name, cpath, sizeof(cpath));
		in_dir(dir, "simd_info.json", ipath, sizeof(ipath));
	} else {
		snprintf(cpath, sizeof(cpath), "./%s", a->c_name);
		snprintf(ipath, sizeof(ipath), "./simd_info.json");
	}
	command(ctx, cpath, ipath, a->sa, a->command, AUTOSA_CMD_LEN);
	if (kernel_text(ctx, &a->c, err)) {
		dse_autosa_free(a);
		return dse_stat_error;
	}
	return dse_stat_ok;
}

dse_stat dse_autosa_write(const dse_ctx *ctx, const dse_autosa *a,
	const char *dir, dse_error *err)
{
	size_t size = strlen(a->command) + 512;
	char *sh = malloc(size);
	dse_stat st;

	if (!sh)
		return dse_error_nomem(err, "the AutoSA script", (double) size);
	snprintf(sh, size, "#!/bin/sh\n# AutoSA build of the best design of "
		"%s on %s; runs in AutoSA's folder.\ncd \"${AUTOSA_ROOT:-.}\" "
		"|| exit 1\nexec %s\n", ctx->tmpl.kernel, ctx->board.name,
		a->command);
	st = write_file(dir, a->c_name, a->c, 0666, err);
	if (st == dse_stat_ok)
		st = write_file(dir, "simd_info.json", a->info, 0666, err);
	if (st == dse_stat_ok)
		st = write_file(dir, "autosa.sh", sh, 0777, err);
	free(sh);
	return st;
}

dse_stat dse_autosa_dir(const char *dir, char *abs, size_t size,
	dse_error *err)
{
	char path[DSE_PATH_LEN + 8], real[PATH_MAX];

	in_dir(dir, "x", path, sizeof(path));
	if (res_path_make_parent(path, err))
		return dse_stat_error;
	if (!realpath(dir, real))
		return dse_error_set(err, DSE_E_IO, "-o: cannot make the folder "
			"'%s': %s", dir, strerror(errno));
	snprintf(abs, size, "%s", real);
	return dse_stat_ok;
}

void dse_autosa_free(dse_autosa *a)
{
	free(a->c);
	free(a->command);
	a->c = NULL;
	a->command = NULL;
}
