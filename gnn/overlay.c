/* gnn: overlay (being written). */
