/* gnn: graph_gen (being written). */
