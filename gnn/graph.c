/* gnn: graph (being written). */
