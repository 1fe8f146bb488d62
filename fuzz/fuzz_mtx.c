/* Fuzz target: the Matrix Market reader of gnn/graph.h
 * (gnn_graph_read_mtx), on the input written to a scratch .mtx file.
 * See fuzz_graph.h for what is checked.
 */
#include "fuzz/fuzz_graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_graph_one(data, size, ".mtx", gnn_graph_read_mtx);
}
