/* gnn: the gnn-dataflow family, a model of AGILE (seed 000, "2.
 * Microarchitecture Specification"): a node scoreboard of nodeslots, a
 * prefetcher whose fetch tags read adjacency lists and messages through
 * round-robin arbitration onto the AXI read masters, an aggregation engine
 * (a mesh of aggregation cores of 16 accumulators, aggregation managers on
 * its bottom row, buffer managers on its right column, dimension-order
 * wormhole routing of 64-bit flits) and a transformation engine of 16x16
 * systolic modules fed in batches of the transformation wait count.
 *
 * How a model runs.  AGILE runs a GNN layer as one sweep of node tasks:
 * every vertex takes a nodeslot, has its neighbour list and its incoming
 * messages fetched, is aggregated on ceil(f/16) cores and transformed.
 * The layers of the IR are turned into such sweeps ("passes"):
 *  - an Aggregate is a pass over the graph's in-edges; the Linear that is
 *    its only child becomes the pass's transformation; a Vector-Add that
 *    adds the Aggregate's own input (GIN) becomes one more message per
 *    node, its own features, as the head flit's scale factor allows;
 *  - a Linear without such an Aggregate (GraphSAGE's self weight, GAT's
 *    first Linear, GraphGym's pre- and post-processing, GIN's second MLP
 *    layer) is a pass whose nodes have one message, their own features;
 *  - any other Vector-Add is a pass of two messages per node (its
 *    operands, summed by the cores) without transformation;
 *  - a Vector-Inner (GAT's SDDMM) is a pass over the in-edges plus the
 *    node's own features, without transformation, writing one score per
 *    edge back;
 *  - Activation and BatchNorm layers are free: the systolic modules' PEs
 *    apply bias and activation before write-back (section "Systolic
 *    Module"); a pass without transformation writes its aggregates back
 *    through the transformation engine's write path.
 * Passes run one after the other (Choice: the next layer's messages are
 * this layer's outputs, so no node of it starts before the last write of
 * the previous one), each after its weights are loaded row by row as the
 * Weight Bank's state machine does (a request and 16 features written in
 * 16 cycles per beat).
 *
 * Choices where the source is silent are marked "Choice" below.
 *
 * This file holds the passes, the design point, the analytic model, the
 * resources, the energy and the report; the cycle model and its sampled
 * version are in dataflow_sim.c, what both share in dataflow_internal.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataflow_internal.h"

enum { K_SLOTS, K_TAGS, K_ROWS, K_COLS, K_FTE, K_FEAT_KB, K_MHZ, K_GBPS,
	N_KNOBS };

/* Fabric of AGILE's units beside their DSP slices, MAC lanes and FIFOs.
 * Estimates (the seed gives no utilisation table): a 5-port router is a
 * 5:1 multiplexer per output over 66 wires (about 2 LUTs per wire and
 * output) plus arbitration, with registered outputs; an aggregation core
 * is its state machine, flit counter and coordinate check; a manager
 * keeps 64 allocation slots of coordinates; a fetch tag is its queue
 * pointers and request logic; a nodeslot is about eight 32-bit
 * registers; a systolic module's control drives its diagonals; the four
 * AXI masters (adjacency, messages, weights, write) cost as the
 * AutoSA L3 modules of arch_logic_costs.
 */
static const struct fabric {
	int router_lut, router_ff, agc_lut, agc_ff, agm_lut, agm_ff;
	int bm_lut, bm_ff, tag_lut, tag_ff, slot_lut, slot_ff, sm_lut, sm_ff;
	int axi_masters;
} fab = { 750, 400, 300, 400, 500, 600, 400, 700, 300, 400, 150, 250,
	200, 300, 4 };

/* Knob limits: beyond them a point is SIM_BAD_KNOB (arrays stay small). */
#define MAX_COLS 256
static const int64_t knob_max[N_KNOBS] = { 65536, 65536, 256, MAX_COLS,
	4096, 1 << 22, 2000, 100000 };

/* --- from IR layers to passes ------------------------------------------ */

static int only_child(const gnn_model *m, int id)
{
	const gnn_layer *l = gnn_model_layer(m, id);

	return l && l->n_child == 1 ? l->child[0] : -1;
}

/* Whether Vector-Add "va" adds Aggregate "a"'s own input to it. */
static int adds_own_input(const gnn_layer *a, const gnn_layer *va)
{
	int other;

	if (va->n_parent == 1)
		return a->n_parent == 0;
	other = va->parent[0] == a->id ? va->parent[1] : va->parent[0];
	return a->n_parent >= 1 && other == a->parent[0];
}

/* The layers an Aggregate pass takes in: a self-adding Vector-Add, then
 * the Linear after it.
 */
static void absorb(const gnn_model *m, const gnn_layer *a, struct pass *p,
	int *done)
{
	int c = only_child(m, a->id);
	const gnn_layer *l = gnn_model_layer(m, c);

	if (l && l->kind == GNN_VECTOR_ADD && adds_own_input(a, l)) {
		p->extra = 1;
		done[c] = 1;
		c = only_child(m, c);
		l = gnn_model_layer(m, c);
	}
	if (l && l->kind == GNN_LINEAR) {
		p->g = l->f_out;
		done[c] = 1;
	}
}

static int build_passes(const gnn_model *m, struct pass *out)
{
	int done[GNN_MAX_LAYERS] = { 0 };
	int i, n = 0;

	for (i = 0; i < gnn_model_n_layers(m); i++) {
		const gnn_layer *l = gnn_model_layer(m, i);
		struct pass *p = &out[n];

		if (done[i] || l->kind == GNN_ACTIVATION ||
		    l->kind == GNN_BATCHNORM)
			continue;
		memset(p, 0, sizeof(*p));
		p->f = l->f_in;
		p->kind = l->kind == GNN_AGGREGATE ? P_AGG :
			l->kind == GNN_LINEAR ? P_LINEAR :
			l->kind == GNN_VECTOR_ADD ? P_VADD : P_VINNER;
		p->graph = p->kind == P_AGG || p->kind == P_VINNER;
		p->extra = p->kind == P_LINEAR || p->kind == P_VINNER ? 1 :
			p->kind == P_VADD ? 2 : 0;
		if (p->kind == P_LINEAR)
			p->g = l->f_out;
		if (p->kind == P_AGG)
			absorb(m, l, p, done);
		n++;
	}
	return n;
}

/* --- the graph's sums, taken once --------------------------------------- */

static dse_stat degree_tables(struct dflow *d, dse_error *err)
{
	int64_t v, *cnt, i, k = 0;

	d->chunk_max = calloc((size_t) dse_cdiv(d->nv, CHUNK), sizeof(int64_t));
	for (v = 0; d->chunk_max && v < d->nv; v++) {
		int64_t dv = d->in_ptr[v + 1] - d->in_ptr[v];

		d->dmax = dv > d->dmax ? dv : d->dmax;
		if (dv > d->chunk_max[v / CHUNK])
			d->chunk_max[v / CHUNK] = dv;
	}
	cnt = d->chunk_max ? calloc((size_t) d->dmax + 1, sizeof(*cnt)) : NULL;
	if (!cnt)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	for (v = 0; v < d->nv; v++)
		cnt[d->in_ptr[v + 1] - d->in_ptr[v]]++;
	for (i = 0; i <= d->dmax; i++)
		d->n_hist += cnt[i] > 0;
	d->hist_deg = malloc((size_t) d->n_hist * sizeof(int64_t));
	d->hist_cnt = malloc((size_t) d->n_hist * sizeof(int64_t));
	for (i = 0; d->hist_deg && d->hist_cnt && i <= d->dmax; i++)
		if (cnt[i]) {
			d->hist_deg[k] = i;
			d->hist_cnt[k++] = cnt[i];
		}
	free(cnt);
	if (!d->hist_deg || !d->hist_cnt)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	return dse_stat_ok;
}

static void df_free(void *self)
{
	struct dflow *d = self;

	if (!d)
		return;
	free(d->hist_deg);
	free(d->hist_cnt);
	free(d->chunk_max);
	free(d);
}

static void *df_alloc(const gnn_model *model, const gnn_graph *graph,
	const arch_board *board, const arch_dtype *dtype, dse_error *err)
{
	struct dflow *d = calloc(1, sizeof(*d));

	if (!d) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	d->n_pass = build_passes(model, d->pass);
	if (!d->n_pass) {
		dse_error_set(err, DSE_E_INPUT, "gnn-dataflow: model '%s' has "
			"no layer that runs on AGILE's pipeline",
			gnn_model_name(model));
		df_free(d);
		return NULL;
	}
	d->in_ptr = gnn_graph_in_ptr(graph);
	d->nv = gnn_graph_n_vertices(graph);
	d->ne = gnn_graph_n_edges(graph);
	d->ops = gnn_model_ops(model);
	d->board = *board;
	d->dtype = *dtype;
	d->lane = arch_lane_cost_of(dtype);
	if (degree_tables(d, err)) {
		df_free(d);
		return NULL;
	}
	return d;
}

/* Every knob value is usable as it comes: nothing is built per value. */
static dse_stat df_prepare(void *self, int knob, const int64_t *values,
	int n, dse_error *err)
{
	(void) self;
	(void) knob;
	(void) values;
	(void) n;
	(void) err;
	return dse_stat_ok;
}

/* --- a design point ------------------------------------------------------ */

/* The first knob outside 1..knob_max, or -1. */
static int bad_knob(const int32_t *k)
{
	int i;

	for (i = 0; i < N_KNOBS; i++)
		if (k[i] < 1 || k[i] > knob_max[i])
			return i;
	return -1;
}

static int read_point(const struct dflow *d, const int32_t *k,
	struct dpt *p)
{
	if (bad_knob(k) >= 0)
		return SIM_BAD_KNOB;
	p->slots = k[K_SLOTS];
	p->tags = k[K_TAGS];
	p->rows = k[K_ROWS];
	p->cols = k[K_COLS];
	p->fte = k[K_FTE];
	p->cores = p->rows * p->cols;
	p->ab_bytes = (int64_t) k[K_FEAT_KB] * 1024;
	p->mhz = k[K_MHZ];
	p->bytes = d->dtype.bits >= 8 ? d->dtype.bits / 8 : 1;
	/* The board's latency is in cycles of its own clock. */
	p->lat = (int) ceil(d->board.dram_latency * p->mhz /
		(d->board.mhz > 0 ? d->board.mhz : p->mhz) - 1e-9);
	p->bw = fmin(k[K_GBPS] * 1e3 / p->mhz, agile.axi_bytes);
	return SIM_OK;
}

/* The per-node figures of pass "q"; SIM_BAD_KNOB when the mesh cannot
 * hold a node's cores or the aggregation buffer cannot double-buffer.
 */
int gnn__df_pass_geo(const struct dpt *p, const struct pass *q,
	struct pgeo *g)
{
	int64_t per_flit = agile.flit_bits / (8 * p->bytes);
	int64_t beat = agile.axi_bytes / p->bytes, f_last;

	memset(g, 0, sizeof(*g));
	g->slots = p->slots;
	per_flit = per_flit < 1 ? 1 : per_flit;
	g->nc = (int) dse_cdiv(q->f, agile.acc);
	if (g->nc > p->cores)
		return SIM_BAD_KNOB;
	g->par = p->cols < p->cores / g->nc ? p->cols : p->cores / g->nc;
	f_last = q->f - (int64_t) agile.acc * (g->nc - 1);
	g->pk_full = dse_cdiv(agile.acc, per_flit) + agile.head_tail;
	g->pk_last = dse_cdiv(f_last, per_flit) + agile.head_tail;
	g->flits = (g->nc - 1) * g->pk_full + g->pk_last;
	g->n_ab = p->ab_bytes / ((int64_t) g->nc * agile.acc * p->bytes);
	if (g->n_ab < 2)
		return SIM_BAD_KNOB;
	/* Half the buffer slots double-buffer (the "Systolic Module"
	 * section), at most the modules' height.  Choice: at most half the
	 * nodeslots too, so that a second batch fills while one is
	 * transformed instead of every slot waiting for the slowest node of
	 * its batch (and at least 1).
	 */
	g->w = (int) (g->n_ab / 2 < agile.wait_max ? g->n_ab / 2 :
		agile.wait_max);
	g->w = g->w < p->slots / 2 ? g->w : p->slots / 2;
	g->w = g->w > 1 ? g->w : 1;
	g->msg_bytes = dse_cdiv(q->f * p->bytes, agile.axi_bytes) *
		agile.axi_bytes;
	g->out_bytes = dse_cdiv((q->g ? q->g : q->f) * p->bytes,
		agile.axi_bytes) * agile.axi_bytes;
	if (q->g) {
		int64_t rounds = dse_cdiv(dse_cdiv(q->g, agile.sys), p->fte);

		g->t_block = rounds * (q->f + 3 * agile.sys + agile.mac +
			agile.post);
		g->wload = q->f * (p->lat + dse_cdiv(q->g, beat) * beat);
	}
	return SIM_OK;
}

/* --- the analytic model --------------------------------------------------
 *
 * A node of m messages costs, at each shared unit, a linear form a + b m
 * (the unit's occupancy when the node runs with the machine otherwise in
 * its steady state).  A pass takes the largest of the units' sums over
 * its nodes divided by how many nodes the unit serves at once, plus the
 * fill and drain of the pipeline (one node's latency minus what it adds
 * to the steady state) and the weight load.
 *
 * The mesh: a stream injects one flit per cycle at its manager and its
 * cores are spread evenly over the columns; "par" managers stream at
 * once, side by side as the round-robin allocation leaves them (see
 * gnn__df_stream_rate).  Each column's up-link carries par/cols <= 1
 * flits per cycle and never limits.  The linear forms of a node are a
 * struct nodecost (dataflow_internal.h).
 */

/* Average hop counts of the mesh's three kinds of trips. */
struct hops {
	double in_max, bm, back;
};

static void mesh_hops(const struct dpt *p, struct hops *h)
{
	double c = p->cols, r = p->rows;

	/* The tail of a stream reaches its farthest core. */
	h->in_max = c - 1 + r;
	h->bm = (c + 1) / 2 + (r * r - 1) / (3 * r);
	h->back = (c + 1) / 2 + (r + 1) / 2;
}

double gnn__df_batch_cycles(const struct pgeo *g, int64_t b, int64_t out)
{
	if (g->t_block)
		return (double) (dse_cdiv(b, agile.sys) * g->t_block);
	return (double) (b * dse_cdiv(out, agile.axi_bytes));
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The mean rate of "par" streams from managers in consecutive columns,
 * averaged over where the window starts (at most 16 starts, evenly
 * spaced, which keeps it O(cols)), with the cycle model's link sharing:
 * the eastbound link after column j carries (cols-1-j)/cols of the flits
 * of every manager at or left of j, the westbound one (j+1)/cols of those
 * right of it, and a stream runs at 1 over the most loaded link it
 * crosses (1 when none is above 1).
 */
double gnn__df_stream_rate(int cols, int par)
{
	double east[MAX_COLS], west[MAX_COLS], sum = 0;
	int a0, j, k, step = cols > 16 ? cols / 16 : 1, n = 0;

	for (a0 = 0; a0 < cols; a0 += step, n++) {
		for (j = 0; j < cols - 1; j++) {
			/* Managers of the window a0 .. a0 + par - 1 (modulo
			 * cols) in columns 0 .. j: before the wrap, then after.
			 */
			int left = clampi(j - a0 + 1, 0, cols - a0 < par ?
				cols - a0 : par) + clampi(j + 1, 0,
				a0 + par > cols ? a0 + par - cols : 0);

			east[j] = left * (double) (cols - 1 - j) / cols;
			west[j] = (par - left) * (double) (j + 1) / cols;
		}
		/* Suffix maxima of east, prefix maxima of west. */
		for (j = cols - 3; j >= 0; j--)
			east[j] = east[j] > east[j + 1] ? east[j] : east[j + 1];
		for (j = 1; j < cols - 1; j++)
			west[j] = west[j] > west[j - 1] ? west[j] : west[j - 1];
		for (k = 0; k < par; k++) {
			int a = (a0 + k) % cols;
			double e = a < cols - 1 ? east[a] : 0;
			double w = a > 0 ? west[a - 1] : 0;
			double l = e > w ? e : w;

			sum += l > 1 ? 1 / l : 1;
		}
	}
	return sum / ((double) n * par);
}

/* The node cost of pass q; rho is gnn__df_stream_rate(cols, par) (a
 * caller that evaluates several passes computes it once per par).
 */
void gnn__df_node_cost(const struct dpt *p, const struct pass *q,
	const struct pgeo *g, double rho, struct nodecost *c)
{
	struct hops h;

	mesh_hops(p, &h);
	c->rho = rho;
	c->buf = agile.ctrl_flits * (g->nc + 1) + (double) g->flits +
		agile.nsb + agile.hop * (h.in_max + h.bm + h.back);
	c->s0 = g->nc + agile.ctrl_flits * g->nc / c->rho +
		agile.hop * h.in_max + c->buf;
	c->s1 = g->flits / c->rho;
	c->pre0 = agile.issue + 2 * p->lat + 2 * agile.nsb;
	c->pre1 = (agile.ptr_bytes + g->msg_bytes) / p->bw;
	/* A Vector-Inner writes a score per in-edge, rounded up to beats
	 * (half a beat on average); the others a vector.
	 */
	c->out0 = q->kind == P_VINNER ? agile.axi_bytes / 2.0 -
		q->extra * p->bytes : (double) g->out_bytes;
	c->out1 = q->kind == P_VINNER ? p->bytes : 0;
	c->byte0 = c->out0;
	c->byte1 = agile.ptr_bytes + (double) g->msg_bytes + c->out1;
	c->batch = gnn__df_batch_cycles(g, g->w, g->out_bytes);
	c->tag0 = c->pre0 - agile.issue + c->s0 - c->buf;
	c->tag1 = c->pre1 + c->s1;
	c->life0 = c->pre0 + c->s0 + c->batch + g->w * c->out0 / p->bw;
	c->life1 = c->pre1 + c->s1 + g->w * c->out1 / p->bw;
}

/* The steady-state cost of one node of m messages: its occupancy of the
 * unit that limits it most, divided by that unit's parallelism.
 */
double gnn__df_node_x(const struct dpt *p, const struct pgeo *g,
	const struct nodecost *c, double m)
{
	double x = (c->s0 + c->s1 * m) / g->par;

	x = fmax(x, (c->byte0 + c->byte1 * m) / p->bw);
	x = fmax(x, g->nc);
	x = fmax(x, c->buf / p->rows);
	x = fmax(x, c->batch / g->w);
	x = fmax(x, (c->life0 + c->life1 * m) / p->slots);
	return fmax(x, (c->tag0 + c->tag1 * m) / p->tags);
}

static double pass_messages(const struct dflow *d, const struct pass *q)
{
	return (q->graph ? (double) d->ne : 0) + q->extra * (double) d->nv;
}

/* The bound of a pass without its fill and weight load. */
double gnn__df_pass_bound(const struct dflow *d, const struct dpt *p,
	const struct pass *q, const struct pgeo *g, const struct nodecost *c)
{
	double n = (double) d->nv, m = pass_messages(d, q);
	double heavy = (double) (q->graph ? d->dmax : 0) + q->extra;
	double t = (n * c->s0 + m * c->s1) / g->par;

	t = fmax(t, (n * c->byte0 + m * c->byte1) / p->bw);
	t = fmax(t, n * g->nc);
	t = fmax(t, n * c->buf / p->rows);
	t = fmax(t, (double) dse_cdiv(d->nv, g->w) * c->batch);
	t = fmax(t, (n * c->life0 + m * c->life1) / p->slots);
	t = fmax(t, (n * c->tag0 + m * c->tag1) / p->tags);
	return fmax(t, c->life0 + c->life1 * heavy);
}

/* Fill and drain: a mean node's latency beyond its steady-state cost. */
double gnn__df_pass_fill(const struct dflow *d, const struct pass *q,
	const struct nodecost *c, double bound)
{
	double n = (double) d->nv;
	double mean = pass_messages(d, q) / (n > 0 ? n : 1);
	double f = c->life0 + c->life1 * mean - bound / (n > 0 ? n : 1);

	return f > 0 ? f : 0;
}

/* Rounds a non-negative count up; 0 when it does not fit. */
static int to_count(double v, int64_t *out)
{
	if (!(v >= 0) || v > 9e18)
		return 0;
	*out = (int64_t) ceil(v - 1e-9);
	return 1;
}

/* The largest weight matrix of the model, in words. */
static int64_t max_weights(const struct dflow *d)
{
	int64_t w = 0;
	int i;

	for (i = 0; i < d->n_pass; i++)
		if (d->pass[i].f * d->pass[i].g > w)
			w = d->pass[i].f * d->pass[i].g;
	return w;
}

/* On-chip memories: the fetch tags' adjacency and message queues in URAM
 * (BRAM on boards without it), as the "Fetch Tag" section says; the
 * aggregation buffer (64-bit writes of the buffer managers) and the
 * weight bank (one word per systolic column and cycle) through
 * arch_buffer_map; the routers' input FIFOs.
 */
static void point_memory(const struct dflow *d, const struct dpt *p,
	double *bram, double *uram, double *lut, double *ff)
{
	int64_t b, u, fl, ff1, fb;
	int64_t routers = p->cores + p->cols + p->rows;
	int qbits = agile.axi_bytes * 8;
	int64_t qdepth = agile.msgq_bytes / agile.axi_bytes;

	if (d->board.uram > 0) {
		*uram += (double) p->tags * (double) (arch_uram(qbits, qdepth)
			+ arch_uram(8 * agile.ptr_bytes, agile.adjq_depth));
	} else {
		*bram += (double) p->tags * (double) (arch_bram18k(qbits,
			qdepth) + arch_bram18k(8 * agile.ptr_bytes,
			agile.adjq_depth));
	}
	arch_buffer_map(&d->board, agile.flit_bits,
		p->ab_bytes * 8 / agile.flit_bits, agile.ab_banks, &b, &u);
	*bram += (double) b;
	*uram += (double) u;
	arch_buffer_map(&d->board, d->dtype.bits, max_weights(d),
		(int64_t) agile.sys * p->fte, &b, &u);
	*bram += (double) b;
	*uram += (double) u;
	arch_fifo_cost(agile.flit_wires, agile.router_fifo, &fl, &ff1, &fb);
	*lut += 5.0 * (double) routers * (double) fl;
	*ff += 5.0 * (double) routers * (double) ff1;
	*bram += 5.0 * (double) routers * (double) fb;
}

static int point_resources(const struct dflow *d, const struct dpt *p,
	sim_metrics *out)
{
	double macs = (double) p->fte * agile.sys * agile.sys +
		(double) p->cores * agile.acc;
	double routers = (double) p->cores + p->cols + p->rows;
	double bram = 0, uram = 0, lut, ff;
	const arch_logic *lg = arch_logic_costs();

	lut = routers * fab.router_lut + p->cores * (double) fab.agc_lut +
		p->cols * (double) fab.agm_lut + p->rows * (double) fab.bm_lut +
		p->tags * (double) fab.tag_lut +
		p->slots * (double) fab.slot_lut +
		p->fte * (double) fab.sm_lut + macs * d->lane.lut +
		fab.axi_masters * (double) lg->dram_lut;
	ff = routers * fab.router_ff + p->cores * (double) fab.agc_ff +
		p->cols * (double) fab.agm_ff + p->rows * (double) fab.bm_ff +
		p->tags * (double) fab.tag_ff + p->slots * (double) fab.slot_ff
		+ p->fte * (double) fab.sm_ff + macs * d->lane.ff +
		fab.axi_masters * (double) lg->dram_ff;
	point_memory(d, p, &bram, &uram, &lut, &ff);
	if (!to_count(macs * d->dtype.dsp_per_mac, &out->dsp) ||
	    !to_count(bram, &out->bram18k) || !to_count(uram, &out->uram) ||
	    !to_count(lut, &out->lut) || !to_count(ff, &out->ff))
		return SIM_TOO_LARGE;
	return SIM_OK;
}

/* Energy of one run, in MAC units: the aggregation's scale-and-add and
 * the systolic MACs with their register accesses; every feature of a
 * message hops to its core and every aggregate to its buffer manager;
 * messages pass the message queue and aggregates the aggregation buffer
 * (a write and a read each), weights are read once per batch; and the
 * DRAM words.
 */
static double point_energy(const struct dflow *d, const struct dpt *p,
	double dram_bytes)
{
	const arch_energy *e = arch_energy_costs();
	double macs = 0, hops = 0, buf = 0, n = (double) d->nv;
	struct hops h;
	int i;

	mesh_hops(p, &h);
	for (i = 0; i < d->n_pass; i++) {
		const struct pass *q = &d->pass[i];
		double m = pass_messages(d, q), f = (double) q->f;

		macs += m * f + n * f * (double) q->g;
		hops += m * f * (h.in_max / 2 + 0.5) + n * f * h.bm;
		buf += 2 * m * f + 2 * n * f +
			n / agile.wait_max * f * (double) q->g;
	}
	return (macs * (1 + e->rf * e->rf_per_mac) + e->hop * hops +
		e->buffer * buf + e->dram * dram_bytes / p->bytes) *
		d->lane.pj_per_mac * 1e-12;
}

/* Cycles and DRAM bytes of the analytic model; SIM_BAD_KNOB when a pass
 * cannot run on the point.
 */
static int analytic_cycles(const struct dflow *d, const struct dpt *p,
	double *cycles, double *bytes)
{
	int i, st, last_par = 0;
	double rho = 1;

	*cycles = *bytes = 0;
	for (i = 0; i < d->n_pass; i++) {
		const struct pass *q = &d->pass[i];
		struct pgeo g;
		struct nodecost c;
		double b;

		st = gnn__df_pass_geo(p, q, &g);
		if (st != SIM_OK)
			return st;
		if (g.par != last_par)
			rho = gnn__df_stream_rate(p->cols, g.par);
		last_par = g.par;
		gnn__df_node_cost(p, q, &g, rho, &c);
		b = gnn__df_pass_bound(d, p, q, &g, &c);
		*cycles += (double) g.wload + b +
			gnn__df_pass_fill(d, q, &c, b);
		*bytes += (double) d->nv * c.byte0 +
			pass_messages(d, q) * c.byte1 +
			(double) (q->f * q->g * p->bytes);
	}
	return SIM_OK;
}

/* Fills the time-derived metrics from "cycles". */
static int set_time(const struct dflow *d, const struct dpt *p,
	double cycles, sim_metrics *out)
{
	if (!(cycles >= 0) || cycles > 1.8e19)
		return SIM_TOO_LARGE;
	out->cycles = (uint64_t) llround(cycles);
	out->latency_s = (double) out->cycles / (p->mhz * 1e6);
	out->gops = out->latency_s > 0 ? d->ops / out->latency_s / 1e9 : 0;
	out->edp = out->energy_j * out->latency_s;
	return SIM_OK;
}

static void df_eval(const void *self, const int32_t *knobs,
	sim_metrics *out)
{
	const struct dflow *d = self;
	struct dpt p;
	double cycles, bytes;
	int st;

	memset(out, 0, sizeof(*out));
	st = read_point(d, knobs, &p);
	if (st == SIM_OK)
		st = analytic_cycles(d, &p, &cycles, &bytes);
	if (st == SIM_OK && !to_count(bytes, &out->offchip_bytes))
		st = SIM_TOO_LARGE;
	if (st == SIM_OK) {
		out->mhz = p.mhz;
		out->energy_j = point_energy(d, &p, bytes);
		st = set_time(d, &p, cycles, out);
	}
	if (st == SIM_OK)
		st = point_resources(d, &p, out);
	if (st != SIM_OK) {
		memset(out, 0, sizeof(*out));
		out->status = st;
		return;
	}
	out->n_pe = p.cores;
	out->pe_rows = p.rows;
	out->pe_cols = p.cols;
	out->ii = 1;
}
static void add_module(sim_cycle_report *out, const char *name, int count,
	double busy)
{
	sim_module_stat *m;

	if (out->n_modules >= SIM_MAX_MODULES)
		return;
	m = &out->module[out->n_modules++];
	memset(m, 0, sizeof(*m));
	strncpy(m->name, name, SIM_MODULE_NAME_LEN - 1);
	m->count = count;
	m->busy = (uint64_t) llround(busy / (count > 0 ? count : 1));
}

static void report(const struct dflow *d, const struct dpt *p,
	const struct outcome *o, const sim_cycle_opts *opt,
	sim_cycle_report *out)
{
	double conf = opt && opt->confidence > 0 ? opt->confidence : 0.95;
	double half = 0, cyc;
	int st = set_time(d, p, o->cycles, &out->metrics);

	if (st != SIM_OK) {
		out->metrics.status = st;
		return;
	}
	if (o->var > 0) {
		double df = o->dfd > 0 ? o->var * o->var / o->dfd : 1;

		half = sim_t_quantile(0.5 + conf / 2, df < 1 ? 1 : df) *
			sqrt(o->var);
	}
	cyc = (double) out->metrics.cycles;
	half += o->bias;
	out->cycles_low = cyc - half;
	out->cycles_high = cyc + half;
	out->tiles = (uint64_t) o->tiles;
	out->tiles_simulated = (uint64_t) o->simulated;
	out->fraction = o->tiles ? (double) o->simulated / o->tiles : 0;
	out->pe_cycles = (uint64_t) llround(p->cores * o->sim_cycles);
	out->dram_gbps = (double) out->metrics.offchip_bytes /
		out->metrics.latency_s / 1e9;
	out->pe_utilisation = cyc > 0 ? o->st.core / (p->cores * cyc) : 0;
	add_module(out, "nodeslot", p->slots, o->st.slot);
	add_module(out, "fetch_tag", p->tags, o->st.tag);
	add_module(out, "dram", 1, o->st.dram);
	add_module(out, "AGM", p->cols, o->st.agm);
	add_module(out, "AGC", p->cores, o->st.core);
	add_module(out, "BM", p->rows, o->st.bm);
	add_module(out, "FTE", 1, o->st.fte);
}

static dse_stat df_simulate(const void *self, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	const struct dflow *d = self;
	struct outcome o;
	struct dpt p;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!d || !knobs || kind < 0 || kind >= SIM_N_MODEL_KINDS)
		return dse_error_set(err, DSE_E_RUNTIME, "gnn-dataflow: no "
			"family, no knobs or unknown model %d", kind);
	out->model = kind;
	df_eval(d, knobs, &out->metrics);
	if (out->metrics.status != SIM_OK)
		return dse_stat_ok;
	read_point(d, knobs, &p);
	out->tiles = (uint64_t) (d->n_pass * d->nv);
	out->cycles_low = out->cycles_high = (double) out->metrics.cycles;
	out->dram_gbps = (double) out->metrics.offchip_bytes /
		out->metrics.latency_s / 1e9;
	if (kind == SIM_MODEL_ANALYTIC)
		return dse_stat_ok;
	memset(&o, 0, sizeof(o));
	rc = kind == SIM_MODEL_FULL ? gnn__df_run_full(d, &p, &o) :
		gnn__df_run_sampled(d, &p, opt, &o);
	if (rc == 0)
		return dse_error_set(err, DSE_E_NOMEM,
			"out of memory in the gnn-dataflow cycle model");
	if (rc < 0)
		return dse_error_set(err, DSE_E_RUNTIME, "gnn-dataflow: the "
			"cycle model stalled (a defect)");
	report(d, &p, &o, opt, out);
	return dse_stat_ok;
}

/* --- why a point is illegal ---------------------------------------------- */

static int df_why(const void *self, const int32_t *knobs, char *buf,
	size_t size)
{
	const struct dflow *d = self;
	struct dpt p;
	int i = bad_knob(knobs);

	if (i >= 0)
		return snprintf(buf, size, "%s is %d, outside 1..%lld",
			gnn_family_knob_name(GNN_DATAFLOW, i), (int) knobs[i],
			(long long) knob_max[i]);
	read_point(d, knobs, &p);
	for (i = 0; i < d->n_pass; i++) {
		const struct pass *q = &d->pass[i];
		struct pgeo g;

		if (gnn__df_pass_geo(&p, q, &g) == SIM_OK)
			continue;
		if (g.nc > p.cores)
			return snprintf(buf, size, "pass %d of %d: a node's "
				"%lld features need %d aggregation cores, the "
				"%d x %d mesh has %d", i + 1, d->n_pass,
				(long long) q->f, g.nc, p.rows, p.cols,
				p.cores);
		return snprintf(buf, size, "pass %d of %d: feat_kb = %d has "
			"room for %lld of a node's %lld-feature aggregations, "
			"fewer than the 2 double-buffering needs", i + 1,
			d->n_pass, (int) knobs[K_FEAT_KB], (long long) g.n_ab,
			(long long) q->f);
	}
	return snprintf(buf, size, "%s", "");
}

const struct gnn__family_ops gnn__dataflow_ops = {
	df_alloc, df_free, df_prepare, df_eval, df_simulate, df_why
};
