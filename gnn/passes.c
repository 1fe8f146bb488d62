/* gnn: passes (being written). */
