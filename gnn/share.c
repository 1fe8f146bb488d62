/* gnn: one copy of the graph and the partitions per node (gnn/share.h).
 *
 * Each copy is one window of MPI_Win_allocate_shared, all of it the
 * builder's (the other ranks ask for 0 bytes and find the builder's
 * segment with MPI_Win_shared_query): a header of counts, then the
 * arrays, each at a 64-byte aligned offset that follows from the counts
 * alone.  The builder lists the arrays of the objects it built, copies
 * each into the segment, frees its own and points the object at the copy
 * (one array at a time, so the builder's peak is one copy and the largest
 * array, not two copies); the others build objects of the same counts
 * without arrays (shells), list the same arrays and point them at the
 * same offsets.  Nothing in the segment is a pointer, so each rank may
 * map it at its own address.
 *
 * The builder writes the segment between two MPI_Win_fence calls, which
 * order its stores before any other rank's loads; after the second the
 * copy is only read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "graph_internal.h"
#include "overlay_internal.h"
#include "gnn/share.h"

#define ALIGN 64
#define MAGIC_GRAPH UINT64_C(0x676e6e2d67726170)
#define MAGIC_PARTS UINT64_C(0x676e6e2d70617274)

enum { W_GRAPH = 0, W_PARTS, N_WINDOWS };

struct gnn_share {
	MPI_Comm node;
	int rank, size;		/* in the node */
	MPI_Win win[N_WINDOWS];
	char *base[N_WINDOWS];	/* this rank's address of the segment */
	size_t bytes[N_WINDOWS];
	int n_parts;		/* in the copy */
};

/* The header of the graph's copy; the name's bytes follow it. */
struct head_graph {
	uint64_t magic;
	int64_t n_vertices, n_edges;
	uint64_t name_bytes;	/* with its terminating NUL */
};

/* The header of the partitions' copy: n_parts of these follow it. */
struct head_parts {
	uint64_t magic;
	int64_t n_parts;
};

struct head_part {
	int64_t n1, count, n_sub, n_runs, n_blocks;
};

static size_t align_up(size_t x)
{
	return (x + ALIGN - 1) / ALIGN * ALIGN;
}

static dse_stat mpi_check(int rc, const char *what, dse_error *err)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (rc == MPI_SUCCESS)
		return dse_stat_ok;
	MPI_Error_string(rc, msg, &len);
	return dse_error_set(err, DSE_E_MPI, "%s failed: %s", what, msg);
}

gnn_share *gnn_share_alloc(MPI_Comm comm, dse_error *err)
{
	gnn_share *s = calloc(1, sizeof(*s));
	int rank = 0, w;

	if (!s) {
		dse_error_nomem(err, "the node's shared graph", sizeof(*s));
		return NULL;
	}
	s->node = MPI_COMM_NULL;
	for (w = 0; w < N_WINDOWS; w++)
		s->win[w] = MPI_WIN_NULL;
	if (mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", err) ||
	    mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank,
			MPI_INFO_NULL, &s->node), "MPI_Comm_split_type", err) ||
	    mpi_check(MPI_Comm_rank(s->node, &s->rank), "MPI_Comm_rank",
			err) ||
	    mpi_check(MPI_Comm_size(s->node, &s->size), "MPI_Comm_size", err))
		return gnn_share_free(s);
	return s;
}

gnn_share *gnn_share_free(gnn_share *s)
{
	int w;

	if (!s)
		return NULL;
	for (w = 0; w < N_WINDOWS; w++)
		if (s->win[w] != MPI_WIN_NULL)
			MPI_Win_free(&s->win[w]);
	if (s->node != MPI_COMM_NULL)
		MPI_Comm_free(&s->node);
	free(s);
	return NULL;
}

int gnn_share_builds(const gnn_share *s)
{
	return !s || s->rank == 0;
}

int gnn_share_node_ranks(const gnn_share *s)
{
	return s ? s->size : 1;
}

size_t gnn_share_bytes(const gnn_share *s)
{
	return s ? s->bytes[W_GRAPH] + s->bytes[W_PARTS] : 0;
}

int gnn_share_n_parts(const gnn_share *s)
{
	return s ? s->n_parts : 0;
}

int gnn_share_holds(const gnn_share *s, const void *p)
{
	int w;

	for (w = 0; s && w < N_WINDOWS; w++)
		if (s->base[w] && (const char *) p >= s->base[w] &&
		    (const char *) p < s->base[w] + s->bytes[w])
			return 1;
	return 0;
}

/* On failure the builder's error itself goes to the node's other ranks,
 * so that they stop with its exit status (2 for bad input) and message:
 * a launcher reports one of its ranks' statuses, and they must agree.
 */
dse_stat gnn_share_agree(gnn_share *s, dse_stat st, dse_error *err)
{
	int ok = st == dse_stat_ok;
	dse_error e;

	if (!s || s->size == 1)
		return st;
	if (mpi_check(MPI_Bcast(&ok, 1, MPI_INT, 0, s->node), "MPI_Bcast",
			err))
		return dse_stat_error;
	if (ok)
		return dse_stat_ok;
	memset(&e, 0, sizeof(e));
	if (s->rank == 0 && err)
		e = *err;
	if (mpi_check(MPI_Bcast(&e, (int) sizeof(e), MPI_BYTE, 0, s->node),
			"MPI_Bcast", err))
		return dse_stat_error;
	e.msg[sizeof(e.msg) - 1] = e.file[sizeof(e.file) - 1] = '\0';
	e.key[sizeof(e.key) - 1] = '\0';
	if (err)
		*err = e;
	return dse_stat_error;
}

/* The bytes of a header of "head" bytes followed by the arrays "a". */
static size_t layout_bytes(size_t head, const struct gnn__array *a, int n)
{
	size_t bytes = align_up(head);
	int i;

	for (i = 0; i < n; i++)
		bytes += align_up(a[i].bytes);
	return bytes;
}

/* Makes window "w" of the builder's "bytes" (which every rank learns
 * here) and sets this rank's address of it.  Collective over the node.
 */
static dse_stat make_window(gnn_share *s, int w, size_t bytes,
	dse_error *err)
{
	uint64_t n = bytes;
	MPI_Aint size;
	int unit, rc;

	if (mpi_check(MPI_Bcast(&n, 1, MPI_UINT64_T, 0, s->node),
			"MPI_Bcast", err))
		return dse_stat_error;
	/* A builder that failed before its copy was sized says 0. */
	if (!n)
		return dse_error_set(err, DSE_E_RUNTIME, "the first rank of "
			"this node could not share the graph");
	if (n > (uint64_t) (SIZE_MAX / 2))
		return dse_error_set(err, DSE_E_NOMEM, "a shared graph of "
			"%llu bytes", (unsigned long long) n);
	rc = MPI_Win_allocate_shared(s->rank == 0 ? (MPI_Aint) n : 0, 1,
		MPI_INFO_NULL, s->node, &s->base[w], &s->win[w]);
	if (rc != MPI_SUCCESS) {
		s->win[w] = MPI_WIN_NULL;
		s->base[w] = NULL;
		return mpi_check(rc, "MPI_Win_allocate_shared", err);
	}
	s->bytes[w] = (size_t) n;
	if (s->rank != 0 && mpi_check(MPI_Win_shared_query(s->win[w], 0,
			&size, &unit, &s->base[w]), "MPI_Win_shared_query",
			err))
		return dse_stat_error;
	return mpi_check(MPI_Win_fence(0, s->win[w]), "MPI_Win_fence", err);
}

/* The other ranks: window "w" once the builder has written it (its
 * second fence).
 */
static dse_stat open_window(gnn_share *s, int w, dse_error *err)
{
	if (make_window(s, w, 0, err))
		return dse_stat_error;
	return mpi_check(MPI_Win_fence(0, s->win[w]), "MPI_Win_fence", err);
}

/* Arrays of at least this many bytes are handed back to the system as
 * soon as they are moved (see move_arrays).
 */
#define TRIM_BYTES ((size_t) 1 << 20)

/* The builder: copies every array into the segment after a header of
 * "head" bytes, frees its own and points the owner at the copy.
 *
 * glibc serves an allocation below its mmap threshold (which grows to
 * 32 MiB once a large block is freed) from the heap, and free() keeps
 * such memory in the process: without malloc_trim, which hands the
 * free pages in the heap back, the builder would hold its own copy
 * beside the shared one (measured: 123 MB more on the Yelp-sized
 * preset, two copies on the node).
 */
static void move_arrays(char *base, size_t head, struct gnn__array *a,
	int n)
{
	size_t off = align_up(head);
	int i;

	for (i = 0; i < n; i++) {
		if (a[i].bytes)
			memcpy(base + off, *a[i].p, a[i].bytes);
		free(*a[i].p);
		*a[i].p = base + off;
		off += align_up(a[i].bytes);
#ifdef __GLIBC__
		if (a[i].bytes >= TRIM_BYTES)
			malloc_trim(0);
#endif
	}
}

/* The other ranks: points every array at its offset in the segment. */
static void bind_arrays(char *base, size_t head, struct gnn__array *a,
	int n)
{
	size_t off = align_up(head);
	int i;

	for (i = 0; i < n; i++) {
		*a[i].p = base + off;
		off += align_up(a[i].bytes);
	}
}

/* The builder's half of gnn_share_graph. */
static dse_stat give_graph(gnn_share *s, gnn_graph *g, dse_error *err)
{
	struct gnn__array a[GNN__MAX_ARRAYS];
	const char *name = gnn_graph_name(g);
	struct head_graph h = { MAGIC_GRAPH, gnn_graph_n_vertices(g),
		gnn_graph_n_edges(g), strlen(name) + 1 };
	int n = gnn__graph_arrays(g, a);
	size_t head = sizeof(h) + h.name_bytes;
	char *base;

	if (make_window(s, W_GRAPH, layout_bytes(head, a, n), err))
		return dse_stat_error;
	base = s->base[W_GRAPH];
	memcpy(base, &h, sizeof(h));
	memcpy(base + sizeof(h), name, h.name_bytes);
	move_arrays(base, head, a, n);
	gnn__graph_borrow(g, base + sizeof(h));
	return mpi_check(MPI_Win_fence(0, s->win[W_GRAPH]), "MPI_Win_fence",
		err);
}

/* The other ranks' half of gnn_share_graph. */
static gnn_graph *take_graph(gnn_share *s, dse_error *err)
{
	struct gnn__array a[GNN__MAX_ARRAYS];
	struct head_graph h;
	gnn_graph *g;
	char *base;
	int n;

	if (open_window(s, W_GRAPH, err))
		return NULL;
	base = s->base[W_GRAPH];
	memcpy(&h, base, sizeof(h));
	if (h.magic != MAGIC_GRAPH) {
		dse_error_set(err, DSE_E_RUNTIME, "the node's shared graph "
			"has no header");
		return NULL;
	}
	g = gnn__graph_shell(h.n_vertices, h.n_edges);
	if (!g) {
		dse_error_nomem(err, "the graph", sizeof(h));
		return NULL;
	}
	n = gnn__graph_arrays(g, a);
	bind_arrays(base, sizeof(h) + h.name_bytes, a, n);
	gnn__graph_borrow(g, base + sizeof(h));
	return g;
}

dse_stat gnn_share_graph(gnn_share *s, gnn_graph **g, dse_error *err)
{
	if (!s || s->size == 1)
		return dse_stat_ok;
	if (s->rank == 0)
		return give_graph(s, *g, err);
	*g = take_graph(s, err);
	return *g ? dse_stat_ok : dse_stat_error;
}

/* The arrays of partition "p" of a graph of "n_edges" edges, its shards'
 * first, each with the bytes its counts say are used (never more than
 * overlay_prep.c and gnn__ack_order_build allocate).
 */
static int part_arrays(struct ovl_part *p, int64_t n_edges, int64_t n_blocks,
	struct gnn__array *a)
{
	size_t c = (size_t) p->count, ns = (size_t) p->n_sub;
	size_t nz = ns ? ns : 1, ne = (size_t) n_edges;
	size_t runs = (size_t) p->ord.n_runs;
	size_t w = c * (GNN__ACK_ROUND_CLASSES + 1);
	struct gnn__ack_order *o = &p->ord;
	int n = gnn__shards_arrays(p->shards, a);

#define ARR(field, size) \
	(a[n++] = (struct gnn__array) { (void **) &(field), (size) })
	ARR(p->rows, c * 8);
	ARR(p->row_edges, c * 8);
	ARR(p->row_src_rows, c * 8);
	ARR(p->row_first, (c + 1) * 8);
	ARR(p->sub_col, nz * 8);
	ARR(p->sub_off, nz * 8);
	ARR(p->sub_edges, nz * 8);
	ARR(p->sub_src, nz * 4);
	ARR(p->sub_dst, nz * 4);
	ARR(p->row_load, c * GNN__ACK_N_PSYS * 8);
	ARR(o->perm, ne * 4);
	ARR(o->run_first, (ns + 1) * 8);
	ARR(o->run_pos, runs * 4);
	ARR(o->run_d, runs * 4);
	ARR(o->run_n, runs * 4);
	ARR(o->sub_block, (ns + 1) * 8);
	ARR(o->hist, (size_t) n_blocks * 2 * GNN__ACK_MAX_PSYS * 2);
	ARR(o->sub_load, ns * 2 * GNN__ACK_N_PSYS * 4);
	ARR(o->row_n, w * 8);
	ARR(o->row_d, w * 8);
#undef ARR
	return n;
}

/* The overlay behind "f", or NULL for a family without partitions. */
static struct overlay *overlay_of(gnn_family *f)
{
	return gnn_family_kind(f) == GNN_OVERLAY ? gnn__family_self(f) : NULL;
}

/* The arrays of every partition of "o" into *a (allocated). */
static dse_stat list_parts(struct overlay *o, struct gnn__array **a,
	int *n, dse_error *err)
{
	int64_t ne = gnn_graph_n_edges(o->graph);
	int i;

	*n = 0;
	*a = malloc(((size_t) o->n_parts + 1) * GNN__MAX_ARRAYS *
		sizeof(**a));
	if (!*a)
		return dse_error_nomem(err, "the list of shared arrays",
			(double) (o->n_parts + 1) * GNN__MAX_ARRAYS *
			sizeof(**a));
	for (i = 0; i < o->n_parts; i++) {
		struct ovl_part *p = &o->parts[i];

		*n += part_arrays(p, ne, p->ord.sub_block[p->n_sub], *a + *n);
	}
	return dse_stat_ok;
}

/* The builder's half of gnn_share_family. */
static dse_stat give_parts(gnn_share *s, struct overlay *o, dse_error *err)
{
	struct gnn__array *a = NULL;
	size_t head = sizeof(struct head_parts) + (size_t) o->n_parts *
		sizeof(struct head_part);
	struct head_parts h = { MAGIC_PARTS, o->n_parts };
	char *base;
	int n, i;

	if (list_parts(o, &a, &n, err)) {
		make_window(s, W_PARTS, 0, NULL);
		return dse_stat_error;
	}
	if (make_window(s, W_PARTS, layout_bytes(head, a, n), err)) {
		free(a);
		return dse_stat_error;
	}
	base = s->base[W_PARTS];
	memcpy(base, &h, sizeof(h));
	for (i = 0; i < o->n_parts; i++) {
		const struct ovl_part *p = &o->parts[i];
		struct head_part hp = { p->n1, p->count, p->n_sub,
			p->ord.n_runs, p->ord.sub_block[p->n_sub] };

		memcpy(base + sizeof(h) + (size_t) i * sizeof(hp), &hp,
			sizeof(hp));
	}
	move_arrays(base, head, a, n);
	free(a);
	s->n_parts = o->n_parts;
	for (i = 0; i < o->n_parts; i++) {
		o->parts[i].shared = 1;
		gnn__shards_borrow(o->parts[i].shards);
		gnn__ovl_view(&o->parts[i], o->graph);
	}
	return mpi_check(MPI_Win_fence(0, s->win[W_PARTS]), "MPI_Win_fence",
		err);
}

/* Fills the zeroed slot "p" from its header, arrays not yet bound. */
static dse_stat part_shell(struct ovl_part *p, const struct head_part *hp,
	const gnn_graph *g, dse_error *err)
{
	p->n1 = hp->n1;
	p->count = hp->count;
	p->n_sub = hp->n_sub;
	p->ord.n_runs = hp->n_runs;
	p->shared = 1;
	p->shards = gnn__shards_shell(g, hp->n1, hp->count);
	return p->shards ? dse_stat_ok : dse_error_nomem(err, "a partition",
		sizeof(*p));
}

/* The other ranks' half of gnn_share_family. */
static dse_stat take_parts(gnn_share *s, struct overlay *o, dse_error *err)
{
	struct gnn__array a[GNN__MAX_ARRAYS];
	struct head_parts h;
	const struct head_part *hp;
	size_t off;
	char *base;
	void *grown;
	int i, n;

	if (open_window(s, W_PARTS, err))
		return dse_stat_error;
	base = s->base[W_PARTS];
	memcpy(&h, base, sizeof(h));
	if (h.magic != MAGIC_PARTS || o->n_parts)
		return dse_error_set(err, DSE_E_RUNTIME, "the node's shared "
			"partitions have no header, or the family has its own");
	grown = gnn__ovl_grow_zeroed(o->parts, 0, (int) h.n_parts,
		sizeof(*o->parts));
	if (!grown)
		return dse_error_nomem(err, "the partitions",
			(double) h.n_parts * sizeof(*o->parts));
	o->parts = grown;
	s->n_parts = (int) h.n_parts;
	hp = (const struct head_part *) (base + sizeof(h));
	off = sizeof(h) + (size_t) h.n_parts * sizeof(*hp);
	for (i = 0; i < h.n_parts; i++) {
		struct ovl_part *p = &o->parts[i];

		o->n_parts = i + 1;
		if (part_shell(p, &hp[i], o->graph, err))
			return dse_stat_error;
		n = part_arrays(p, gnn_graph_n_edges(o->graph),
			hp[i].n_blocks, a);
		/* The arrays start at align_up(off), as move_arrays laid
		 * them out, and the next partition's where these end.
		 */
		bind_arrays(base, off, a, n);
		off = align_up(off) + layout_bytes(0, a, n);
		gnn__ovl_view(p, o->graph);
	}
	return dse_stat_ok;
}

dse_stat gnn_share_family(gnn_share *s, gnn_family *f, dse_error *err)
{
	struct overlay *o = overlay_of(f);
	uint64_t any = o && o->n_parts > 0;

	if (!s || s->size == 1)
		return dse_stat_ok;
	/* Every rank's family is of the config's one kind, but only the
	 * builder knows whether it has partitions to share.
	 */
	if (mpi_check(MPI_Bcast(&any, 1, MPI_UINT64_T, 0, s->node),
			"MPI_Bcast", err))
		return dse_stat_error;
	if (!any)
		return dse_stat_ok;
	if (!o)
		return dse_error_set(err, DSE_E_RUNTIME, "the node's shared "
			"partitions are for another family");
	return s->rank == 0 ? give_parts(s, o, err) : take_parts(s, o, err);
}
