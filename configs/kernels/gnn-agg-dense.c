/* A graph neural network's aggregation over a dense adjacency block
 * (configs/gnn-agg-dense.cfg): out(v,f) = sum over u of Adj(v,u) H(u,f), each
 * vertex v gathering the features of its neighbours u.  The edge list
 * form, whose indices are read from memory, is configs/gnn-agg.cfg.
 */
#ifndef V
#define V 128
#endif
#ifndef U
#define U 128
#endif
#ifndef F
#define F 64
#endif

void gnn_agg(float Adj[V][U], float H[U][F], float out[V][F])
{
#pragma scop
	for (int v = 0; v < V; v++)
		for (int u = 0; u < U; u++)
			for (int f = 0; f < F; f++)
				out[v][f] += Adj[v][u] * H[u][f];
#pragma endscop
}
