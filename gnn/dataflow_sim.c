/* gnn: the cycle models of the gnn-dataflow family (AGILE): an
 * event-driven simulation of AGILE's units over every node task of a
 * pass (the full model), and replays of sampled blocks of node tasks
 * scaled up to the pass by a ratio estimator (the sampled model).  The
 * passes, the design point and the analytic model they build on are in
 * dataflow.c; see there for the sources.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dataflow_internal.h"

/* The sampled model (see "the sampled model" below): default_k blocks
 * per replay when opt->samples is 0; blocks of block_slots x nodeslots
 * vertices; a replay's steady part at least fill_ratio times the
 * pipeline's fill and drain; a pass needing more than whole_above of its
 * blocks runs whole; no replayed node longer than 1/long_share of the
 * replay, nor cut below cut_min times its fixed cost; the interval
 * widened by "resolution" of each replayed pass.  The values were chosen
 * on R-MAT graphs of 6,000 to 14,000 vertices and the Pubmed-, Flickr-
 * and Reddit-sized presets against the full model.
 */
static const struct sampling {
	int default_k, block_slots;
	double fill_ratio, whole_above, long_share, cut_min, resolution;
} samp = { 4, 4, 40.0, 0.25, 3.0, 5.0, 0.03 };

/* Independent replays of a sampled pass. */
enum { REPLICATES = 4 };

/* The sampled model's strata: stratum h holds the blocks whose largest
 * in-degree is in [2^(h-1), 2^h) (0: no in-edge), the last one every
 * degree from 2^38 up.
 */
#define MAX_STRATA 40

static int stratum_of(int64_t d)
{
	int h = 0;

	while (d > 0 && h < MAX_STRATA - 1) {
		d >>= 1;
		h++;
	}
	return h;
}

/* --- the cycle model -------------------------------------------------------
 *
 * An event-driven simulation of one pass over a sequence of node tasks
 * (every vertex in order for the full model).  Each node takes a free
 * nodeslot (one programmed per cycle), waits for a fetch tag (a node
 * without neighbours too: the prefetcher answers it at once), fetches its
 * adjacency list (4 bytes per message) and, after the scoreboard's
 * handshake, its messages; each request pays the DRAM latency, then its
 * bytes flow at an equal share of the bandwidth with every other active
 * transfer (the round-robin arbiters of the tags and of the memory
 * interconnect, served beat by beat).  The message queue holds
 * msgq_bytes: a longer fetch answers "partial" when the queue is full and
 * goes on while the node is aggregated, and the stream cannot end before
 * the last message is in (it then still sends that message).
 *
 * The mesh (Choice: the knobs count the aggregation cores): mesh_rows x
 * mesh_cols cores at rows 1..mesh_rows, with a row 0 of mesh_cols
 * aggregation managers below them and a column of mesh_rows buffer
 * managers to their right (column mesh_cols), as the seed's Figure 5
 * places them.
 *
 * The aggregation request waits, in order, for a free aggregation manager
 * (Choice: round-robin over the free ones), for ceil(f/16) allocatable
 * cores and for the allocator, which grants one core per cycle, round-
 * robin over the cores in row-major order from the bottom (Choice: it
 * starts when enough cores are free, so that two nodes never hold half of
 * what each needs).  The manager then streams: a 2-flit allocation packet
 * per core, then every message as one packet per core of ceil(f_i/2)
 * body flits and a head and a tail, one flit per cycle into its router.
 * The streams share the links of the bottom row (east- and westbound
 * between columns) and each column's link up from it; every packet uses
 * those its X-then-Y route crosses.  The link model is fluid: each stream
 * has the fraction of its flits that cross each link, a link overloaded
 * by a factor L slows every stream crossing it to 1/L, and a stream runs
 * at the rate of its most loaded link (a proportional share; it does not
 * hand back the part of a link it cannot use because another link limits
 * it, and wormhole blocking beyond the links' capacity is not modelled).
 * The tail reaches the farthest core after its hops.  Then the node waits
 * for a buffer manager and an aggregation buffer slot (Choice: the buffer
 * managers on the right column, one per core row, are held while the
 * cores send their sums, the slot until the transformation has read it);
 * the manager sends each core a 2-flit packet, the cores' sums arrive one
 * flit per cycle at the buffer manager, which sends a done packet back;
 * the cores and the manager are then released.
 *
 * The transformation engine takes a snapshot of the buffered nodes when
 * it is idle and at least the wait count of them are buffered (or when
 * no node of the pass is still on its way), runs 16 rows at a time on
 * "fte" 16x16 modules (k = f cycles of operands plus the skew, the MAC
 * pipeline, the bias and activation pulses and the 16-cycle shift-out,
 * once per round of fte column blocks), frees their buffer slots and
 * writes their outputs through DRAM; a node's slot is freed when its
 * write is done.
 */
enum ev_kind { E_ISSUE, E_ADJ, E_MSG, E_AGEREQ, E_ALLOC, E_DRAIN, E_BUF,
	E_FTE };
enum xf_kind { X_ADJ, X_MSG, X_REST, X_WRITE };

struct ev {
	double t;
	uint64_t seq;
	int kind, id;
};

struct xfer {
	double left;
	int id, kind;
};

struct nd {
	int64_t m, out;		/* messages, write-back bytes */
	double rest;		/* message bytes beyond the queue */
	double t0, t_tag, t_drain;
	int tag, agm, fetched, waiting, next;
};

struct mgr {
	int node, busy, active, bm, maxhop;
	double left, rate, t0, bm_wait;
};

struct fifo {
	int head, tail;
};

/* Least-squares sums of the engine's service of a node (manager grant
 * to buffered, without the wait for a buffer manager) on its messages.
 */
struct fit {
	double n, m, mm, y, my;
};

struct sim {
	const struct dflow *d;
	const struct dpt *p;
	const struct pass *q;
	const struct pgeo *g;
	double now, last_issue;
	struct ev *heap;
	int nh, caph, oom;
	uint64_t seq;
	struct nd *nd;
	int *free_slot, n_free, issue_pending;
	const int64_t *ms;
	int64_t n_seq, next, done, before_buf, fte_count;
	struct fifo tagq, ageq, bmq, fteq;
	int tags_free, ab_free, fte_busy, alloc_busy, rr_agm, rr_core;
	int cores_free, nx, nact, nl, maxnc;
	struct xfer *x;
	struct mgr *a;
	int *act, *core_of;
	double *link, *load, *colsum;
	uint64_t *core_free;
	char *bm_busy;
	struct stats st;
	struct fit fit;
};

static int ev_less(const struct ev *a, const struct ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void push(struct sim *s, int kind, double t, int id)
{
	struct ev e = { t, s->seq++, kind, id }, tmp;
	int i;

	if (s->nh == s->caph) {
		int cap = s->caph * 2;
		struct ev *h = realloc(s->heap, (size_t) cap * sizeof(*h));

		if (!h) {
			s->oom = 1;
			return;
		}
		s->heap = h;
		s->caph = cap;
	}
	i = s->nh++;
	s->heap[i] = e;
	while (i > 0 && ev_less(&s->heap[i], &s->heap[(i - 1) / 2])) {
		tmp = s->heap[i];
		s->heap[i] = s->heap[(i - 1) / 2];
		s->heap[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
}

static struct ev pop(struct sim *s)
{
	struct ev top = s->heap[0], tmp;
	int i = 0;

	s->heap[0] = s->heap[--s->nh];
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < s->nh && ev_less(&s->heap[l], &s->heap[m]))
			m = l;
		if (r < s->nh && ev_less(&s->heap[r], &s->heap[m]))
			m = r;
		if (m == i)
			break;
		tmp = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = tmp;
		i = m;
	}
	return top;
}

static void fifo_push(struct sim *s, struct fifo *f, int id)
{
	s->nd[id].next = -1;
	if (f->tail < 0)
		f->head = id;
	else
		s->nd[f->tail].next = id;
	f->tail = id;
}

static int fifo_pop(struct sim *s, struct fifo *f)
{
	int id = f->head;

	f->head = s->nd[id].next;
	if (f->head < 0)
		f->tail = -1;
	return id;
}

/* --- DRAM: equal shares of the bandwidth among active transfers --- */

static void xfer_add(struct sim *s, int kind, int id, double bytes)
{
	struct xfer *x = &s->x[s->nx++];

	x->left = bytes;
	x->id = id;
	x->kind = kind;
	s->st.bytes += bytes;
}

static double dram_next(const struct sim *s, int *which)
{
	double least = INFINITY;
	int i;

	for (i = 0; i < s->nx; i++)
		if (s->x[i].left < least) {
			least = s->x[i].left;
			*which = i;
		}
	return s->nx ? s->now + fmax(least, 0) * s->nx / s->p->bw :
		INFINITY;
}

/* --- the mesh: fluid streams on the bottom row's links --- */

static double mesh_next(const struct sim *s, int *which)
{
	double best = INFINITY;
	int i;

	for (i = 0; i < s->nact; i++) {
		const struct mgr *m = &s->a[s->act[i]];
		double t = s->now + fmax(m->left, 0) / m->rate;

		if (t < best) {
			best = t;
			*which = s->act[i];
		}
	}
	return best;
}

static void mesh_rates(struct sim *s)
{
	int i, k, nl = s->nl;

	memset(s->load, 0, (size_t) nl * sizeof(double));
	for (i = 0; i < s->nact; i++) {
		const double *l = s->link + (size_t) s->act[i] * nl;

		for (k = 0; k < nl; k++)
			s->load[k] += l[k];
	}
	for (i = 0; i < s->nact; i++) {
		const double *l = s->link + (size_t) s->act[i] * nl;
		double r = 1;

		for (k = 0; k < nl; k++)
			if (l[k] > 0 && s->load[k] > 1)
				r = fmin(r, 1 / s->load[k]);
		s->a[s->act[i]].rate = r;
	}
}

static void stream_start(struct sim *s, int a, double flits)
{
	s->a[a].left = flits;
	s->a[a].active = 1;
	s->act[s->nact++] = a;
	mesh_rates(s);
}

static void stream_stop(struct sim *s, int a)
{
	int i;

	for (i = 0; i < s->nact; i++)
		if (s->act[i] == a) {
			s->act[i] = s->act[--s->nact];
			break;
		}
	s->a[a].active = 0;
	mesh_rates(s);
}

/* The fraction of manager a's message flits on each link: eastbound
 * link j (columns j to j+1) at index j, westbound at cols-1+j, the up-
 * link of column c at 2(cols-1)+c; and the hops to its farthest core.
 */
static void stream_links(struct sim *s, int a)
{
	const struct pgeo *g = s->g;
	int cols = s->p->cols, i, j, *cs = s->core_of + (size_t) a * s->maxnc;
	double *l = s->link + (size_t) a * s->nl, run, tot = (double) g->flits;

	memset(s->colsum, 0, (size_t) cols * sizeof(double));
	memset(l, 0, (size_t) s->nl * sizeof(double));
	s->a[a].maxhop = 0;
	for (i = 0; i < g->nc; i++) {
		int x = cs[i] % cols, h = abs(x - a) + 1 + cs[i] / cols;

		s->colsum[x] += (double) (i == g->nc - 1 ? g->pk_last :
			g->pk_full);
		s->a[a].maxhop = h > s->a[a].maxhop ? h : s->a[a].maxhop;
	}
	for (j = 0, run = 0; j < cols - 1; j++) {
		run += s->colsum[j];
		if (j < a)
			l[cols - 1 + j] = run / tot;
	}
	for (j = cols - 2, run = 0; j >= 0; j--) {
		run += s->colsum[j + 1];
		if (j >= a)
			l[j] = run / tot;
	}
	for (j = 0; j < cols; j++)
		l[2 * (cols - 1) + j] = s->colsum[j] / tot;
}

static void advance(struct sim *s, double t)
{
	double dt = t - s->now;
	int i;

	if (dt > 0) {
		if (s->nx) {
			double share = s->p->bw / s->nx * dt;

			for (i = 0; i < s->nx; i++)
				s->x[i].left -= share;
			s->st.dram += dt;
		}
		for (i = 0; i < s->nact; i++) {
			struct mgr *m = &s->a[s->act[i]];

			m->left -= m->rate * dt;
		}
	}
	s->now = t;
}

/* --- the node's way through the units --- */

/* Write-back bytes of a node with "m" messages: a Vector-Inner writes a
 * score per in-edge, the others a feature vector.
 */
static int64_t node_out(const struct pass *q, const struct pgeo *g,
	const struct dpt *p, int64_t m)
{
	if (q->kind != P_VINNER)
		return g->out_bytes;
	m -= q->extra;
	return dse_cdiv(m * p->bytes, agile.axi_bytes) * agile.axi_bytes;
}

static int64_t seq_messages(const struct sim *s, int64_t k)
{
	if (s->ms)
		return s->ms[k];
	return (s->q->graph ? s->d->in_ptr[k + 1] - s->d->in_ptr[k] : 0) +
		s->q->extra;
}

static void schedule_issue(struct sim *s)
{
	double t = s->last_issue + agile.issue;

	if (s->issue_pending || !s->n_free || s->next >= s->n_seq)
		return;
	push(s, E_ISSUE, t > s->now ? t : s->now, -1);
	s->issue_pending = 1;
}

static void try_tag(struct sim *s)
{
	while (s->tags_free > 0 && s->tagq.head >= 0) {
		int id = fifo_pop(s, &s->tagq);

		s->tags_free--;
		s->nd[id].tag = 1;
		s->nd[id].t_tag = s->now;
		if (s->nd[id].m > 0) {
			push(s, E_ADJ, s->now + s->p->lat, id);
		} else {
			/* An empty list: the prefetcher answers at once. */
			s->nd[id].fetched = 1;
			push(s, E_AGEREQ, s->now + agile.nsb, id);
		}
	}
}

static void on_issue(struct sim *s)
{
	int id;
	struct nd *n;

	s->issue_pending = 0;
	if (!s->n_free || s->next >= s->n_seq)
		return;
	id = s->free_slot[--s->n_free];
	n = &s->nd[id];
	memset(n, 0, sizeof(*n));
	n->m = seq_messages(s, s->next++);
	n->out = node_out(s->q, s->g, s->p, n->m);
	n->t0 = s->last_issue = s->now;
	n->tag = n->agm = -1;
	fifo_push(s, &s->tagq, id);
	try_tag(s);
	schedule_issue(s);
}

/* The next free core at or after "from", cyclically; -1 when none. */
static int next_free_core(const struct sim *s, int from)
{
	int n = s->p->cores, i, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = pass ? 0 : from; i < (pass ? from : n);) {
			uint64_t bits = s->core_free[i >> 6] >> (i & 63);

			if (bits)
				return i + __builtin_ctzll(bits);
			i = ((i >> 6) + 1) << 6;
		}
	}
	return -1;
}

static int free_manager(struct sim *s)
{
	int c = s->p->cols, i;

	for (i = 0; i < c; i++) {
		int a = (s->rr_agm + i) % c;

		if (!s->a[a].busy) {
			s->rr_agm = (a + 1) % c;
			return a;
		}
	}
	return -1;
}

static void try_age(struct sim *s)
{
	while (!s->alloc_busy && s->ageq.head >= 0 &&
	       s->cores_free >= s->g->nc) {
		int a = free_manager(s), id, i, *cs;

		if (a < 0)
			return;
		id = fifo_pop(s, &s->ageq);
		s->a[a].busy = 1;
		s->a[a].node = id;
		s->a[a].t0 = s->now;
		s->nd[id].agm = a;
		cs = s->core_of + (size_t) a * s->maxnc;
		for (i = 0; i < s->g->nc; i++) {
			int c = next_free_core(s, s->rr_core);

			cs[i] = c;
			s->core_free[c >> 6] &= ~((uint64_t) 1 << (c & 63));
			s->rr_core = (c + 1) % s->p->cores;
		}
		s->cores_free -= s->g->nc;
		s->alloc_busy = 1;
		push(s, E_ALLOC, s->now + s->g->nc, a);
	}
}

/* Cycles of the buffer manager phase of manager a with buffer manager b
 * (in row 1 + b of the right column, column index cols).
 */
static double buffer_cycles(const struct sim *s, int a, int b)
{
	const int *cs = s->core_of + (size_t) a * s->maxnc;
	int cols = s->p->cols, i, far = 0;

	for (i = 0; i < s->g->nc; i++) {
		int y = 1 + cs[i] / cols;
		int h = cols - cs[i] % cols + abs(y - (1 + b));

		far = h > far ? h : far;
	}
	return (double) agile.ctrl_flits * s->g->nc + (double) s->g->flits +
		agile.ctrl_flits + agile.nsb + (double) agile.hop *
		(s->a[a].maxhop + far + (cols - a) + 1 + b);
}

static void try_bm(struct sim *s)
{
	while (s->bmq.head >= 0 && s->ab_free > 0) {
		int b, id, a;
		double t;

		for (b = 0; b < s->p->rows && s->bm_busy[b]; b++)
			;
		if (b == s->p->rows)
			return;
		id = fifo_pop(s, &s->bmq);
		a = s->nd[id].agm;
		s->bm_busy[b] = 1;
		s->a[a].bm = b;
		s->a[a].bm_wait = s->now - s->nd[id].t_drain;
		s->ab_free--;
		t = buffer_cycles(s, a, b);
		s->st.bm += t;
		push(s, E_BUF, s->now + t, a);
	}
}

static void try_fte(struct sim *s)
{
	int64_t b = 0, bytes = 0;
	int id;
	double t;

	if (s->fte_busy || !s->fte_count ||
	    (s->fte_count < s->g->w && s->before_buf > 0))
		return;
	for (id = s->fteq.head; id >= 0; id = s->nd[id].next) {
		b++;
		bytes += s->nd[id].out;
	}
	t = s->g->t_block ? gnn__df_batch_cycles(s->g, b, 0) :
		(double) dse_cdiv(bytes, agile.axi_bytes);
	id = s->fteq.head;
	s->fteq.head = s->fteq.tail = -1;
	s->fte_count = 0;
	s->fte_busy = 1;
	s->st.fte += t;
	push(s, E_FTE, s->now + t, id);
}

static void complete_chain(struct sim *s, int id)
{
	for (; id >= 0; id = s->nd[id].next) {
		s->done++;
		s->st.slot += s->now - s->nd[id].t0;
		s->free_slot[s->n_free++] = id;
	}
	schedule_issue(s);
}

static void on_fte(struct sim *s, int chain)
{
	int64_t bytes = 0, b = 0;
	int id;

	s->fte_busy = 0;
	for (id = chain; id >= 0; id = s->nd[id].next) {
		b++;
		bytes += s->nd[id].out;
	}
	s->ab_free += (int) b;
	if (bytes > 0)
		xfer_add(s, X_WRITE, chain, (double) bytes);
	else
		complete_chain(s, chain);
	try_bm(s);
	try_fte(s);
}

static void on_buffered(struct sim *s, int a)
{
	struct mgr *m = &s->a[a];
	const int *cs = s->core_of + (size_t) a * s->maxnc;
	double y, mm;
	int i;

	s->bm_busy[m->bm] = 0;
	for (i = 0; i < s->g->nc; i++)
		s->core_free[cs[i] >> 6] |= (uint64_t) 1 << (cs[i] & 63);
	s->cores_free += s->g->nc;
	m->busy = 0;
	y = s->now - m->t0 - m->bm_wait;
	mm = (double) s->nd[m->node].m;
	s->fit.n++;
	s->fit.m += mm;
	s->fit.mm += mm * mm;
	s->fit.y += y;
	s->fit.my += mm * y;
	s->st.agm += s->now - m->t0;
	s->st.core += s->g->nc * (s->now - m->t0);
	fifo_push(s, &s->fteq, m->node);
	s->fte_count++;
	s->before_buf--;
	try_bm(s);
	try_age(s);
	try_fte(s);
}

static void on_drained(struct sim *s, int a)
{
	int id = s->a[a].node;
	struct nd *n = &s->nd[id];

	n->t_drain = s->now;
	if (n->tag >= 0) {
		n->tag = -1;
		s->tags_free++;
		s->st.tag += s->now - n->t_tag;
		try_tag(s);
	}
	fifo_push(s, &s->bmq, id);
	try_bm(s);
}

static void on_dram(struct sim *s, int i)
{
	struct xfer x = s->x[i];
	struct nd *n = &s->nd[x.id];

	s->x[i] = s->x[--s->nx];
	if (x.kind == X_ADJ) {
		push(s, E_MSG, s->now + agile.nsb + s->p->lat, x.id);
	} else if (x.kind == X_MSG) {
		if (n->rest > 0)
			xfer_add(s, X_REST, x.id, n->rest);
		else
			n->fetched = 1;
		push(s, E_AGEREQ, s->now + agile.nsb, x.id);
	} else if (x.kind == X_REST) {
		n->fetched = 1;
		if (n->waiting) {
			/* The last message goes out once it is in. */
			n->waiting = 0;
			stream_start(s, n->agm, (double) s->g->flits);
		}
	} else {
		complete_chain(s, x.id);
	}
}

static void on_stream_end(struct sim *s, int a)
{
	struct nd *n = &s->nd[s->a[a].node];

	stream_stop(s, a);
	if (!n->fetched)
		n->waiting = 1;
	else
		push(s, E_DRAIN, s->now + (double) agile.hop * s->a[a].maxhop,
			a);
}

static void on_event(struct sim *s, const struct ev *e)
{
	struct nd *n = e->id >= 0 ? &s->nd[e->id] : NULL;
	double bytes;

	switch (e->kind) {
	case E_ISSUE:
		on_issue(s);
		break;
	case E_ADJ:
		xfer_add(s, X_ADJ, e->id, (double) (agile.ptr_bytes * n->m));
		break;
	case E_MSG:
		bytes = (double) n->m * (double) s->g->msg_bytes;
		n->rest = bytes > agile.msgq_bytes ?
			bytes - agile.msgq_bytes : 0;
		xfer_add(s, X_MSG, e->id, bytes - n->rest);
		break;
	case E_AGEREQ:
		fifo_push(s, &s->ageq, e->id);
		try_age(s);
		break;
	case E_ALLOC:
		s->alloc_busy = 0;
		stream_links(s, e->id);
		stream_start(s, e->id, (double) agile.ctrl_flits * s->g->nc +
			(double) s->nd[s->a[e->id].node].m *
			(double) s->g->flits);
		try_age(s);
		break;
	case E_DRAIN:
		on_drained(s, e->id);
		break;
	case E_BUF:
		on_buffered(s, e->id);
		break;
	default:
		on_fte(s, e->id);
	}
}

/* Runs the events until every node of the sequence is done.  Returns 1,
 * 0 when out of memory, -1 when the simulation stalls (a defect).
 */
static int sim_loop(struct sim *s)
{
	while (s->done < s->n_seq) {
		int ix = -1, im = -1;
		double tx = dram_next(s, &ix), tm = mesh_next(s, &im);
		double th = s->nh ? s->heap[0].t : INFINITY;

		if (s->oom)
			return 0;
		if (tx <= tm && tx <= th && tx < INFINITY) {
			advance(s, tx);
			on_dram(s, ix);
		} else if (tm <= th && tm < INFINITY) {
			advance(s, tm);
			on_stream_end(s, im);
		} else if (th < INFINITY) {
			struct ev e = pop(s);

			advance(s, e.t);
			on_event(s, &e);
		} else {
			return -1;
		}
	}
	return s->oom ? 0 : 1;
}

static void sim_fini(struct sim *s)
{
	free(s->heap);
	free(s->nd);
	free(s->free_slot);
	free(s->x);
	free(s->a);
	free(s->act);
	free(s->core_of);
	free(s->link);
	free(s->load);
	free(s->colsum);
	free(s->core_free);
	free(s->bm_busy);
}

/* Allocates the simulator of point "p" for every pass of "d"; 0 when out
 * of memory.
 */
static int sim_init(struct sim *s, const struct dflow *d,
	const struct dpt *p)
{
	size_t slots = (size_t) p->slots, cols = (size_t) p->cols;
	int i;

	memset(s, 0, sizeof(*s));
	s->d = d;
	s->p = p;
	for (i = 0; i < d->n_pass; i++)
		if (dse_cdiv(d->pass[i].f, agile.acc) > s->maxnc)
			s->maxnc = (int) dse_cdiv(d->pass[i].f, agile.acc);
	s->nl = 3 * p->cols - 2;
	s->caph = 2 * p->slots + 64;
	s->heap = malloc((size_t) s->caph * sizeof(*s->heap));
	s->nd = malloc(slots * sizeof(*s->nd));
	s->free_slot = malloc(slots * sizeof(int));
	s->x = malloc((2 * slots + 4) * sizeof(*s->x));
	s->a = calloc(cols, sizeof(*s->a));
	s->act = malloc(cols * sizeof(int));
	s->core_of = malloc(cols * (size_t) s->maxnc * sizeof(int));
	s->link = malloc(cols * (size_t) s->nl * sizeof(double));
	s->load = malloc((size_t) s->nl * sizeof(double));
	s->colsum = malloc(cols * sizeof(double));
	s->core_free = malloc((size_t) (p->cores / 64 + 1) * 8);
	s->bm_busy = malloc((size_t) p->rows);
	return s->heap && s->nd && s->free_slot && s->x && s->a && s->act &&
		s->core_of && s->link && s->load && s->colsum &&
		s->core_free && s->bm_busy;
}

/* Runs pass "q" over n node tasks (messages ms[k], or every vertex in
 * order when ms is NULL).  Returns as sim_loop; the makespan is s->now.
 */
static int sim_pass(struct sim *s, const struct pass *q, const struct pgeo *g,
	const int64_t *ms, int64_t n)
{
	const struct dpt *p = s->p;
	int i;

	s->q = q;
	s->g = g;
	s->ms = ms;
	s->n_seq = s->before_buf = n;
	s->now = 0;
	s->last_issue = -agile.issue;
	s->nh = s->nx = s->nact = s->issue_pending = 0;
	s->next = s->done = s->fte_count = 0;
	s->tagq.head = s->tagq.tail = s->ageq.head = s->ageq.tail = -1;
	s->bmq.head = s->bmq.tail = s->fteq.head = s->fteq.tail = -1;
	s->tags_free = p->tags;
	s->ab_free = (int) g->n_ab;
	s->fte_busy = s->alloc_busy = s->rr_agm = s->rr_core = 0;
	s->cores_free = p->cores;
	memset(&s->fit, 0, sizeof(s->fit));
	for (i = 0; i < p->slots; i++)
		s->free_slot[i] = p->slots - 1 - i;
	s->n_free = p->slots;
	memset(s->a, 0, (size_t) p->cols * sizeof(*s->a));
	memset(s->bm_busy, 0, (size_t) p->rows);
	memset(s->core_free, 0, (size_t) (p->cores / 64 + 1) * 8);
	for (i = 0; i < p->cores; i++)
		s->core_free[i >> 6] |= (uint64_t) 1 << (i & 63);
	schedule_issue(s);
	return sim_loop(s);
}

static void stats_add(struct stats *to, const struct stats *from, double w)
{
	to->slot += w * from->slot;
	to->tag += w * from->tag;
	to->agm += w * from->agm;
	to->core += w * from->core;
	to->bm += w * from->bm;
	to->fte += w * from->fte;
	to->dram += w * from->dram;
	to->bytes += w * from->bytes;
}

/* What a full or sampled run gives the report. */
static int run_full(struct sim *s, struct outcome *o)
{
	const struct dflow *d = s->d;
	int i, r;

	for (i = 0; i < d->n_pass; i++) {
		struct pgeo g;

		gnn__df_pass_geo(s->p, &d->pass[i], &g);
		memset(&s->st, 0, sizeof(s->st));
		r = sim_pass(s, &d->pass[i], &g, NULL, d->nv);
		if (r <= 0)
			return r;
		stats_add(&o->st, &s->st, 1);
		o->cycles += (double) g.wload + s->now;
		o->sim_cycles += s->now;
		o->simulated += d->nv;
		o->tiles += d->nv;
	}
	return 1;
}

/* --- the sampled model ------------------------------------------------------
 *
 * A node's cost depends on what runs beside it.  A node of 800,000
 * messages streams for millions of cycles on one manager while the others
 * serve thousands of small nodes, so its share of the makespan is its
 * share of the engine, not its latency; and the link contention a message
 * meets depends on which nodes stream at the same time, which in an R-MAT
 * graph depends on where in the vertex order the node is (low vertex
 * numbers are the heavy ones).  A sampled node is therefore simulated
 * among its real neighbours in the order, inside a miniature of the whole
 * pass: a replay.
 *
 * The vertex order is cut into blocks of block_slots x nodeslots vertices
 * (a multiple of 64), several times the nodes in flight at once.  The
 * blocks are stratified by log2 of the largest in-degree they hold, and
 * each stratum gives a fraction phi of its blocks, systematically from a
 * random start (proportional allocation, spread along the order).  A
 * replay is every node of the chosen blocks, in vertex order, through the
 * whole machine: the nodeslots, tags and managers are occupied, the
 * queues are as long and the links as loaded as in the full run when it
 * passes there.  A node that would keep the engine for more than
 * 1/long_share of the replay's steady part keeps only that many of its
 * messages (never fewer than cut_min times its fixed cost is worth), so
 * that one huge node does not outlast the replay around it.
 *
 * The replays of a pass (REPLICATES of them, drawn independently) become
 * an estimate through a ratio estimator whose auxiliary variable x is the
 * node cost of gnn__df_node_x, known for every node through the degree
 * histogram: T = F + (sum of (M_r - F)) X / (sum of X_r), with M_r a
 * replay's makespan, X the sum of x over the pass, X_r over replay r as
 * simulated (cut nodes with their cut messages) and F the analytic fill
 * and drain, which a replay has once as the full run has.  The engine's
 * cost in x is first fitted to the replays themselves (calibrate), so
 * that the link contention x carries is the one the replays met.  The
 * ratio is pooled over the replicates, which keeps its small-sample bias
 * low, and its variance is the replicates' jackknife; the passes'
 * variances add up, with Welch-Satterthwaite's degrees of freedom, into
 * a Student's t interval.  The replicates cannot show the replays' own
 * bias: a heavy block, drawn rarely, raises the contention of the whole
 * replay when it is, and the cut nodes are shorter than the real ones.
 * Measured against the full model the error stayed within about 5%,
 * mostly below 2% (on small R-MAT graphs the estimate tends to fall a
 * little short); the interval is widened by "resolution" of each
 * replayed pass for it.
 *
 * phi is K blocks out of all, raised until the replay's steady part is
 * fill_ratio times F; a pass that would need more than whole_above of its
 * blocks runs whole.  With K at least the number of blocks every pass
 * runs whole, which is the full model.  A replay that draws no block (all
 * strata smaller than 1/phi) takes one at random.  The draws depend only
 * on the seed, the pass and the replicate.
 */
struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double rng_unit(struct rng *r)
{
	return (double) (rng_next(r) >> 11) * 0x1.0p-53;
}

/* The replays of a pass: their fraction of the blocks, the most messages
 * a node keeps, whether the blocks were stratified by in-degree (graph
 * passes) and their size; the blocks by stratum, ascending within each;
 * the scratch space of the replays.
 */
struct replay {
	double phi, cut;
	int graph;
	int64_t block, n_blocks, cap, *order, *pick, *ms;
	int64_t off[MAX_STRATA + 1];
};

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return x < y ? -1 : x > y;
}

/* Groups the blocks of size rp->block by stratum; graph-less passes have
 * one stratum.  0 when out of memory.
 */
static int replay_blocks(struct replay *rp, const struct dflow *d, int graph)
{
	int64_t b, c, fill[MAX_STRATA] = { 0 };
	int h;

	rp->n_blocks = dse_cdiv(d->nv, rp->block);
	free(rp->order);
	free(rp->pick);
	rp->order = malloc((size_t) rp->n_blocks * sizeof(int64_t));
	rp->pick = malloc((size_t) rp->n_blocks * sizeof(int64_t));
	if (!rp->order || !rp->pick)
		return 0;
	memset(rp->off, 0, sizeof(rp->off));
	for (b = 0; b < rp->n_blocks; b++) {
		int64_t top = 0, per = rp->block / CHUNK;

		for (c = b * per; graph && c < (b + 1) * per && c * CHUNK <
		     d->nv; c++)
			top = d->chunk_max[c] > top ? d->chunk_max[c] : top;
		rp->pick[b] = stratum_of(top);
		rp->off[rp->pick[b] + 1]++;
	}
	for (h = 0; h < MAX_STRATA; h++)
		rp->off[h + 1] += rp->off[h];
	for (b = 0; b < rp->n_blocks; b++)
		rp->order[rp->off[rp->pick[b]] + fill[rp->pick[b]]++] = b;
	return 1;
}

/* Draws one replay of pass q into rp->ms from "at" on; returns its node
 * count, -1 when out of memory.
 */
static int64_t replay_draw(struct replay *rp, const struct dflow *d,
	const struct pass *q, struct rng *r, int64_t at0)
{
	int64_t np = 0, n = at0, i, v;
	int h;

	for (h = 0; h < MAX_STRATA; h++) {
		int64_t nh = rp->off[h + 1] - rp->off[h];
		double at = rng_unit(r) / rp->phi;

		for (; at < (double) nh; at += 1 / rp->phi)
			rp->pick[np++] = rp->order[rp->off[h] + (int64_t) at];
	}
	if (!np)
		rp->pick[np++] = rp->order[(int64_t) (rng_unit(r) *
			(double) rp->n_blocks)];
	qsort(rp->pick, (size_t) np, sizeof(int64_t), i64_cmp);
	if (at0 + np * rp->block > rp->cap) {
		int64_t *ms = realloc(rp->ms, (size_t) (at0 + np * rp->block) *
			sizeof(int64_t));

		if (!ms)
			return -1;
		rp->ms = ms;
		rp->cap = at0 + np * rp->block;
	}
	for (i = 0; i < np; i++)
		for (v = rp->pick[i] * rp->block; v < d->nv &&
		     v < (rp->pick[i] + 1) * rp->block; v++) {
			int64_t m = q->graph ? d->in_ptr[v + 1] - d->in_ptr[v] :
				0;

			if ((double) m > rp->cut)
				m = (int64_t) floor(rp->cut + rng_unit(r));
			rp->ms[n++] = m + q->extra;
		}
	return n - at0;
}

/* The sum of the node cost over every node of the pass. */
static double x_total(const struct dflow *d, const struct dpt *p,
	const struct pass *q, const struct pgeo *g, const struct nodecost *c)
{
	double x = 0;
	int64_t i;

	if (!q->graph)
		return (double) d->nv * gnn__df_node_x(p, g, c,
			(double) q->extra);
	for (i = 0; i < d->n_hist; i++)
		x += (double) d->hist_cnt[i] * gnn__df_node_x(p, g, c,
			(double) (d->hist_deg[i] + q->extra));
	return x;
}

/* The replays' fraction and cut for pass q with k blocks; phi = 1 when
 * the pass is to run whole.  0 when out of memory.
 */
static int replay_plan(struct replay *rp, const struct dflow *d,
	const struct pass *q, int64_t k, const struct pgeo *g,
	const struct nodecost *c, double fill, double bound)
{
	int64_t block = dse_cdiv((int64_t) samp.block_slots * g->slots, CHUNK) *
		CHUNK;

	if (block != rp->block || q->graph != rp->graph || !rp->order) {
		rp->block = block;
		rp->graph = q->graph;
		if (!replay_blocks(rp, d, q->graph))
			return 0;
	}
	rp->phi = k >= rp->n_blocks ? 1 : (double) k / (double) rp->n_blocks;
	if (bound > 0)
		rp->phi = fmax(rp->phi, samp.fill_ratio * fill / bound);
	if (rp->phi >= samp.whole_above)
		rp->phi = 1;
	/* One server takes the nodes one after the other: nothing to cut. */
	rp->cut = INFINITY;
	if (g->par > 1)
		rp->cut = fmax(samp.cut_min * c->s0, rp->phi * bound /
			samp.long_share - c->s0) / c->s1;
	return 1;
}

/* The auxiliary variable fitted to a replay: the engine's service of a
 * node as the replay measured it (a least-squares line in the messages)
 * replaces the analytic one in the manager's hold, the tag's and the
 * node's lifetime; the other units' costs stay analytic (they do not
 * depend on what runs beside the node).  Without two distinct message
 * counts the analytic line stays.
 */
static void calibrate(const struct fit *f, const struct nodecost *c,
	struct nodecost *out)
{
	double det = f->n * f->mm - f->m * f->m, a, b;

	*out = *c;
	if (f->n < 2 || !(det > 1e-9 * f->n * f->mm))
		return;
	b = (f->n * f->my - f->m * f->y) / det;
	a = (f->y - b * f->m) / f->n;
	out->s0 = a;
	out->s1 = b;
	out->life0 += a - c->s0;
	out->life1 += b - c->s1;
	out->tag0 += a - c->s0;
	out->tag1 += b - c->s1;
}

static void fit_add(struct fit *to, const struct fit *f)
{
	to->n += f->n;
	to->m += f->m;
	to->mm += f->mm;
	to->y += f->y;
	to->my += f->my;
}

/* The pooled ratio estimate of pass q from the replicates' makespans m[]
 * and auxiliary sums x[], and its jackknife variance.
 */
static void pooled(const double *m, const double *x, double fill,
	double big_x, double *est, double *var)
{
	double sm = 0, sx = 0, t[REPLICATES], mean = 0;
	int r;

	for (r = 0; r < REPLICATES; r++) {
		sm += m[r] - fill;
		sx += x[r];
	}
	*est = fill + sm / sx * big_x;
	for (r = 0; r < REPLICATES; r++) {
		t[r] = fill + (sm - m[r] + fill) / (sx - x[r]) * big_x;
		mean += t[r] / REPLICATES;
	}
	*var = 0;
	for (r = 0; r < REPLICATES; r++)
		*var += (t[r] - mean) * (t[r] - mean) * (REPLICATES - 1) /
			REPLICATES;
}

/* Replays pass pi REPLICATES times into o; returns 2, or as sim_loop. */
static int replay_pass(struct sim *s, int pi, struct replay *rp,
	uint64_t seed, double fill, struct outcome *o)
{
	const struct pass *q = &s->d->pass[pi];
	double m[REPLICATES], x[REPLICATES] = { 0 }, big_x, est, var;
	int64_t off[REPLICATES + 1] = { 0 }, i;
	struct nodecost c, cc;
	struct fit pool;
	int r, rc;

	memset(&pool, 0, sizeof(pool));
	for (r = 0; r < REPLICATES; r++) {
		struct rng rg = { seed ^ (0x632be59bd9b4e019ULL *
			(uint64_t) (pi + 1)) ^ (0xd6e8feb86659fd93ULL *
			(uint64_t) (r + 1)) };
		int64_t n = replay_draw(rp, s->d, q, &rg, off[r]);

		if (n < 0)
			return 0;
		memset(&s->st, 0, sizeof(s->st));
		rc = sim_pass(s, q, s->g, rp->ms + off[r], n);
		if (rc <= 0)
			return rc;
		off[r + 1] = off[r] + n;
		m[r] = s->now;
		fit_add(&pool, &s->fit);
		stats_add(&o->st, &s->st, 1 / (rp->phi * REPLICATES));
		o->sim_cycles += s->now;
		o->simulated += n;
	}
	gnn__df_node_cost(s->p, q, s->g, gnn__df_stream_rate(s->p->cols,
		s->g->par), &c);
	calibrate(&pool, &c, &cc);
	big_x = x_total(s->d, s->p, q, s->g, &cc);
	for (r = 0; r < REPLICATES; r++)
		for (i = off[r]; i < off[r + 1]; i++)
			x[r] += gnn__df_node_x(s->p, s->g, &cc,
				(double) rp->ms[i]);
	pooled(m, x, fill, big_x, &est, &var);
	o->bias += samp.resolution * (1 - rp->phi) * est;
	o->cycles += est;
	o->var += var;
	o->dfd += var * var / (REPLICATES - 1);
	return 2;
}

static int run_sampled(struct sim *s, const sim_cycle_opts *opt,
	struct outcome *o)
{
	const struct dflow *d = s->d;
	int64_t k = opt && opt->samples > 0 ? opt->samples : samp.default_k;
	struct replay rp;
	int i, rc = 1;

	memset(&rp, 0, sizeof(rp));
	for (i = 0; i < d->n_pass && rc > 0; i++) {
		const struct pass *q = &d->pass[i];
		struct pgeo g;
		struct nodecost c;
		double bound, fill;

		gnn__df_pass_geo(s->p, q, &g);
		gnn__df_node_cost(s->p, q, &g, gnn__df_stream_rate(s->p->cols,
			g.par), &c);
		bound = gnn__df_pass_bound(d, s->p, q, &g, &c);
		fill = gnn__df_pass_fill(d, q, &c, bound);
		o->cycles += (double) g.wload;
		o->tiles += d->nv;
		s->g = &g;
		if (!replay_plan(&rp, d, q, k, &g, &c, fill, bound)) {
			rc = 0;
		} else if (rp.phi < 1) {
			rc = replay_pass(s, i, &rp, opt ? opt->seed : 0, fill,
				o);
		} else {
			memset(&s->st, 0, sizeof(s->st));
			rc = sim_pass(s, q, &g, NULL, d->nv);
			stats_add(&o->st, &s->st, 1);
			o->cycles += s->now;
			o->sim_cycles += s->now;
			o->simulated += d->nv;
		}
	}
	free(rp.order);
	free(rp.pick);
	free(rp.ms);
	return rc > 0 ? 1 : rc;
}

/* Each model builds the simulator of point "p" for its run and frees it
 * after, whatever the run gave.
 */
int gnn__df_run_full(const struct dflow *d, const struct dpt *p,
	struct outcome *o)
{
	struct sim s;
	int rc = sim_init(&s, d, p) ? run_full(&s, o) : 0;

	sim_fini(&s);
	return rc;
}

int gnn__df_run_sampled(const struct dflow *d, const struct dpt *p,
	const sim_cycle_opts *opt, struct outcome *o)
{
	struct sim s;
	int rc = sim_init(&s, d, p) ? run_sampled(&s, opt, o) : 0;

	sim_fini(&s);
	return rc;
}
