/* Fuzz target: the config parser, then the whole run-context setup.
 *
 * The input is a config's text.  dse_cfg_parse_string reads it; when it
 * parses, dse_ctx_setup builds what a sweep needs (board, kernel analysis
 * through isl, model, search space; or a workload's graph, model, family
 * and space) exactly as "dse" does before its search, and the context is
 * cleared again.  The sweep itself is not run.  Any input must end in a
 * context or an error, never in a crash, a leak or undefined behaviour.
 *
 * Limits, so that one input stays well under a second (they skip inputs;
 * they are not checks of dse):
 *  - graph presets other than cora and citeseer are skipped (the others
 *    generate graphs of up to 1.6 M vertices and 264 M edges);
 *  - generated graphs, rmat(V, E, ...) and uniform(V, E), with more than
 *    MAX_GEN_VERTICES vertices or MAX_GEN_EDGES edges are skipped;
 *  - graph and topology files are skipped (their readers have targets of
 *    their own, and a fuzzed path could name any file on the machine);
 *  - a workload whose [space] lists more than MAX_WORKLOAD_VALUES knob
 *    values in all is skipped (a GNN family prepares a partition and a
 *    plan for every value before the search).
 * MPI is initialised once, in LLVMFuzzerInitialize, as "dse" does before
 * reading its config; the setup calls MPI_Wtime.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <sanitizer/lsan_interface.h>

#include "dse/cfg.h"
#include "dse/ctx.h"
#include "fuzz/fuzz_util.h"
#include "gnn/graph.h"

#define MAX_GEN_VERTICES 20000
#define MAX_GEN_EDGES 200000
#define MAX_WORKLOAD_VALUES 64

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	dse_error err;

	/* OpenMPI keeps part of what MPI_Init allocates until the process
	 * ends; that is not the code under test.
	 */
	__lsan_disable();
	if (search_mpi_init(argc, argv, &err))
		return 1;
	__lsan_enable();
	return 0;
}

/* Reads an unsigned decimal integer at *s (after blanks); -1 when there
 * is none, INT64_MAX when it does not fit.
 */
static long long read_count(const char **s)
{
	const char *p = *s;
	char *end;
	long long v;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char) *p))
		return -1;
	errno = 0;
	v = strtoll(p, &end, 10);
	*s = end;
	return errno == ERANGE ? INT64_MAX : v;
}

/* Whether a generator spec "name(V, E, ...)" asks for a large graph.  A
 * spec that does not read as one is left to the setup to reject.
 */
static int large_generated(const char *spec)
{
	const char *s = strchr(spec, '(');
	long long nv, ne;

	if (!s)
		return 0;
	s++;
	nv = read_count(&s);
	while (*s == ' ' || *s == '\t')
		s++;
	if (nv < 0 || *s++ != ',')
		return 0;
	ne = read_count(&s);
	return nv > MAX_GEN_VERTICES || ne > MAX_GEN_EDGES;
}

/* Whether [workload] graph asks for more than this target allows. */
static int graph_too_costly(const dse_cfg *cfg)
{
	const char *spec = dse_cfg_string(cfg, "workload", "graph", NULL);
	const gnn_preset *p;

	if (!spec)
		return 0;
	p = gnn_preset_find(spec);
	if (p)
		return strcmp(p->name, "cora") && strcmp(p->name, "citeseer");
	if (strchr(spec, '('))
		return large_generated(spec);
	return strchr(spec, '/') || strchr(spec, '.');
}

/* The number of values the [space] keys of a workload list, in all. */
static int64_t workload_values(const dse_cfg *cfg)
{
	int i, n = dse_cfg_n_keys(cfg, "space");
	int64_t total = 0;

	for (i = 0; i < n; i++) {
		const char *key = dse_cfg_key_at(cfg, "space", i);
		int64_t *values = NULL;
		int nv = 0;
		dse_error err;

		dse_error_clear(&err);
		if (dse_cfg_int_set(cfg, "space", key, INT32_MAX, &values, &nv,
				&err) == dse_stat_ok)
			total += nv;
		free(values);
	}
	return total;
}

static int too_costly(const dse_cfg *cfg)
{
	if (!dse_cfg_has(cfg, "workload", "family"))
		return 0;
	return graph_too_costly(cfg) ||
		dse_cfg_has(cfg, "workload", "topology") ||
		workload_values(cfg) > MAX_WORKLOAD_VALUES;
}

/* What every refusal must be: an input error naming the config and a
 * line (exit status 2 and a file:line message in "dse"), or running out
 * of memory.  Anything else is reported as a crash, with the message.
 */
static void check_refusal(const dse_error *err)
{
	char line[DSE_ERROR_MSG_LEN + DSE_ERROR_FILE_LEN + 128];

	if (err->code == DSE_E_NOMEM)
		return;
	if (err->code == DSE_E_INPUT && err->msg[0] &&
	    !strcmp(err->file, "fuzz.cfg") && err->line > 0)
		return;
	dse_error_format(err, line, sizeof(line));
	fprintf(stderr, "fuzz_cfg: refusal without file:line or not an input "
		"error (code %d): %s\n", (int) err->code, line);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	dse_error err;
	dse_ctx ctx;

	if (!text)
		return 0;
	dse_error_clear(&err);
	memset(&ctx, 0, sizeof(ctx));
	ctx.comm = MPI_COMM_WORLD;
	ctx.rank = 0;
	ctx.size = 1;
	ctx.quiet = 1;
	ctx.cfg = dse_cfg_parse_string(text, "fuzz.cfg", &err);
	free(text);
	if (!ctx.cfg) {
		check_refusal(&err);
		return 0;
	}
	if (!too_costly(ctx.cfg) &&
	    dse_ctx_setup(&ctx, "/dev/null", &err) != dse_stat_ok)
		check_refusal(&err);
	dse_ctx_clear(&ctx);
	return 0;
}
