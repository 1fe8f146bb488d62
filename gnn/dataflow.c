/* gnn: dataflow (being written). */
