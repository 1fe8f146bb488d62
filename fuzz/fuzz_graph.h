/* The body of the two graph-reader targets (fuzz_mtx.c, fuzz_edges.c):
 * the input is written to a scratch file and read back with one reader.
 * A graph that reads must be consistent (every endpoint below the vertex
 * count, the in-edge index ascending and ending at the edge count, edges
 * sorted by destination) and survive the degree statistics and a
 * fiber-shard partition of at most FUZZ_SHARDS shards a side; a refusal
 * must be an input error at a line of the file, or out of memory.
 *
 * A one-line file "400000000 0" is a graph of 400 M vertices, which takes
 * seconds and gigabytes to build: inputs with a number between
 * FUZZ_MAX_VERTEX and 2^32 are skipped, so that the fuzzer spends its time
 * on the readers.  Larger numbers stay in: they are refused before any
 * allocation (vertex indices are 32-bit).
 */
#ifndef FUZZ_FUZZ_GRAPH_H
#define FUZZ_FUZZ_GRAPH_H

#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_util.h"
#include "gnn/graph.h"

/* At most this many shards per side in the partition tried on every graph
 * that reads (the subshard index has their square of entries).
 */
#define FUZZ_SHARDS 16
#define FUZZ_MAX_VERTEX (INT64_C(1) << 22)

/* Whether the text holds a decimal number in (FUZZ_MAX_VERTEX, 2^32). */
static inline int fuzz_large_vertex(const uint8_t *data, size_t size)
{
	size_t i = 0;

	while (i < size) {
		uint64_t v = 0;
		int digits = 0;

		while (i < size && data[i] >= '0' && data[i] <= '9') {
			if (v < (UINT64_C(1) << 40))
				v = 10 * v + (data[i] - '0');
			digits = 1;
			i++;
		}
		if (digits && v > (uint64_t) FUZZ_MAX_VERTEX &&
		    v < (UINT64_C(1) << 32))
			return 1;
		if (!digits)
			i++;
	}
	return 0;
}

static inline void fuzz_check_graph(const gnn_graph *g)
{
	int64_t nv = gnn_graph_n_vertices(g), ne = gnn_graph_n_edges(g), v, e;
	const uint32_t *src = gnn_graph_src(g), *dst = gnn_graph_dst(g);
	const int64_t *in = gnn_graph_in_ptr(g);
	gnn_degree_stats st;
	gnn_shards *s;
	dse_error err;

	if (nv < 1 || ne < 0 || in[0] != 0 || in[nv] != ne)
		abort();
	for (v = 0; v < nv; v++)
		if (in[v] > in[v + 1])
			abort();
	for (e = 0; e < ne; e++)
		if (src[e] >= nv || dst[e] >= nv ||
		    (e > 0 && dst[e] < dst[e - 1]))
			abort();
	gnn_graph_degree_stats(g, &st);
	if (st.n_vertices != nv || st.n_edges != ne)
		abort();
	dse_error_clear(&err);
	s = gnn_shards_alloc(g, nv / FUZZ_SHARDS + 1, &err);
	if (!s && err.code != DSE_E_NOMEM)
		abort();
	gnn_shards_free(s);
}

static inline void fuzz_check_refusal(const dse_error *err,
	const char *path)
{
	if (err->code == DSE_E_NOMEM)
		return;
	if (err->code == DSE_E_INPUT && err->msg[0] &&
	    !strcmp(err->file, path) && err->line > 0)
		return;
	fprintf(stderr, "fuzz: refusal without a line or not an input error "
		"(code %d, %s:%d): %s\n", (int) err->code, err->file,
		err->line, err->msg);
	abort();
}

static inline int fuzz_graph_one(const uint8_t *data, size_t size,
	const char *suffix,
	gnn_graph *(*reader)(const char *path, dse_error *err))
{
	char path[512];
	gnn_graph *g;
	dse_error err;

	if (fuzz_large_vertex(data, size) ||
	    fuzz_write_file(data, size, suffix, path, sizeof(path)) < 0)
		return 0;
	dse_error_clear(&err);
	g = reader(path, &err);
	unlink(path);
	if (g)
		fuzz_check_graph(g);
	else
		fuzz_check_refusal(&err, path);
	gnn_graph_free(g);
	return 0;
}

#endif
