/* The files a sweep reads, and what their contents were.
 *
 * Every file the config names (a graph, a topology, and whatever input
 * files later front ends add) is registered here through one call before
 * its reader opens it.  Registration refuses what is not a regular file
 * (a FIFO would block the reader forever, a device would never end) and,
 * on rank 0, records the file's size and a hash of its contents.  The
 * list serves two checks: no output may overwrite an input, and a
 * checkpoint resumes only on the inputs it was made from (the config text
 * alone does not say that a graph file kept its edges).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* FNV-1a over the file behind "fd": any one changed byte changes it. */
static int hash_fd(int fd, uint64_t *hash, uint64_t *bytes)
{
	unsigned char buf[1 << 16];
	uint64_t h = FNV_OFFSET, n = 0;
	ssize_t got;

	while ((got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		for (ssize_t i = 0; i < got; i++)
			h = (h ^ buf[i]) * FNV_PRIME;
		n += (uint64_t) got;
	}
	*hash = h;
	*bytes = n;
	return 0;
}

static dse_stat grow(dse_ctx *ctx, dse_error *err)
{
	dse_input *in;
	int cap = ctx->n_inputs ? 2 * ctx->n_inputs : 4;

	if (ctx->n_inputs < ctx->cap_inputs)
		return dse_stat_ok;
	in = realloc(ctx->inputs, (size_t) cap * sizeof(*in));
	if (!in)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory (the list "
			"of %d input files, %zu bytes)", cap,
			(size_t) cap * sizeof(*in));
	ctx->inputs = in;
	ctx->cap_inputs = cap;
	return dse_stat_ok;
}

dse_stat dse_input_add(dse_ctx *ctx, const char *section, const char *key,
	const char *path, dse_error *err)
{
	const char *kind = NULL;
	struct stat sb;
	dse_input *in;
	int fd = dse_open_regular(path, &kind);

	if (fd < 0 && kind)
		return dse_ctx_error(ctx, section, key, 0, err, "'%s' is %s, "
			"not a regular file; dse reads its inputs only from "
			"regular files", path, kind);
	/* A file that cannot be opened is left to its reader, whose
	 * message says why at the key.
	 */
	if (fd < 0)
		return dse_stat_ok;
	if (grow(ctx, err) < 0) {
		close(fd);
		return dse_stat_error;
	}
	in = &ctx->inputs[ctx->n_inputs];
	memset(in, 0, sizeof(*in));
	snprintf(in->section, sizeof(in->section), "%s", section ? section :
		"");
	snprintf(in->key, sizeof(in->key), "%s", key ? key : "");
	snprintf(in->path, sizeof(in->path), "%s", path);
	/* The path is the last field of a line of the "input_files"
	 * attribute.
	 */
	for (char *c = in->path; *c; c++)
		if (*c == '\n')
			*c = '?';
	if (fstat(fd, &sb) == 0) {
		in->dev = (uint64_t) sb.st_dev;
		in->ino = (uint64_t) sb.st_ino;
		in->bytes = (uint64_t) sb.st_size;
	}
	/* Only rank 0 writes checkpoints and checks them, so only it pays
	 * for reading the file twice.
	 */
	if (ctx->rank == 0 && section && hash_fd(fd, &in->hash, &in->bytes) <
			0) {
		int e = errno;

		close(fd);
		return dse_ctx_error(ctx, section, key, 0, err, "cannot read "
			"'%s': %s", path, strerror(e));
	}
	close(fd);
	ctx->n_inputs++;
	return dse_stat_ok;
}

/* One input as a line of the "input_files" attribute: key, size, hash and
 * path, tab-separated, the path last.
 */
static int input_line(const dse_input *in, char *buf, size_t size)
{
	return snprintf(buf, size, "%s\t%" PRIu64 "\t%016" PRIx64 "\t%s\n",
		in->key, in->bytes, in->hash, in->path);
}

char *dse_inputs_text(const dse_ctx *ctx)
{
	size_t size = 1, len = 0;
	char *text;
	int i;

	for (i = 0; i < ctx->n_inputs; i++)
		size += strlen(ctx->inputs[i].path) + DSE_ERROR_KEY_LEN + 48;
	text = malloc(size);
	if (!text)
		return NULL;
	text[0] = '\0';
	for (i = 0; i < ctx->n_inputs; i++) {
		int n;

		if (!ctx->inputs[i].section[0])
			continue;
		n = input_line(&ctx->inputs[i], text + len, size - len);
		if (n > 0 && (size_t) n < size - len)
			len += (size_t) n;
	}
	return text;
}

/* The line of "stored" for key "key" (its first), parsed; 0 when there
 * is none.
 */
static int stored_line(const char *stored, const char *key, uint64_t *bytes,
	uint64_t *hash)
{
	size_t klen = strlen(key);

	for (const char *p = stored; p && *p; p = strchr(p, '\n'),
			p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == '\t')
			return sscanf(p + klen + 1, "%" SCNu64 "\t%" SCNx64,
				bytes, hash) == 2;
	return 0;
}

dse_stat dse_inputs_check(const dse_ctx *ctx, const char *stored,
	const char *file, dse_error *err)
{
	for (int i = 0; i < ctx->n_inputs; i++) {
		const dse_input *in = &ctx->inputs[i];
		uint64_t bytes = 0, hash = 0;

		if (!in->section[0])
			continue;
		if (!stored_line(stored, in->key, &bytes, &hash))
			return dse_ctx_error(ctx, in->section, in->key, 0,
				err, "%s records no '%s' input file, so it cannot "
				"show that '%s' is the file the sweep started "
				"with; start the sweep again with --restart",
				file, in->key, in->path);
		if (bytes != in->bytes || hash != in->hash)
			return dse_ctx_error(ctx, in->section, in->key, 0,
				err, "'%s' changed since the checkpoint in %s was "
				"written (%" PRIu64 " bytes then, %" PRIu64 " "
				"now%s): the points evaluated so far were "
				"evaluated on the old file; resume with the "
				"file the sweep started with, or start again "
				"with --restart", in->path, file, bytes,
				in->bytes, bytes == in->bytes ? ", other "
				"contents" : "");
	}
	return dse_stat_ok;
}

const dse_input *dse_input_same_file(const dse_ctx *ctx, const char *path)
{
	struct stat sb;

	if (stat(path, &sb) != 0)
		return NULL;
	for (int i = 0; i < ctx->n_inputs; i++)
		if (ctx->inputs[i].dev == (uint64_t) sb.st_dev &&
		    ctx->inputs[i].ino == (uint64_t) sb.st_ino)
			return &ctx->inputs[i];
	return NULL;
}

void dse_inputs_clear(dse_ctx *ctx)
{
	free(ctx->inputs);
	ctx->inputs = NULL;
	ctx->n_inputs = ctx->cap_inputs = 0;
}
