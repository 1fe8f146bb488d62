/* gnn: ir (being written). */
