/* Fuzz target: the SNAP-style edge-list reader of gnn/graph.h
 * (gnn_graph_read_edges), on the input written to a scratch file.  See
 * fuzz_graph.h for what is checked.
 */
#include "fuzz/fuzz_graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_graph_one(data, size, ".edges", gnn_graph_read_edges);
}
