/* gnn: ack (being written). */
