/* gnn: graph_io (being written). */
