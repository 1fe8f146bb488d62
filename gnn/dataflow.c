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
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "family_internal.h"

enum { K_SLOTS, K_TAGS, K_ROWS, K_COLS, K_FTE, K_FEAT_KB, K_MHZ, K_GBPS,
	N_KNOBS };

/* Timing of AGILE's units in kernel cycles, and its fixed sizes.
 *  - axi_bytes 64: the memory interconnect's 512-bit data bus ("Internal
 *    Interconnects"); it bounds the read bandwidth per cycle.
 *  - ptr_bytes 4: one adjacency pointer ("Feature Bank").
 *  - msgq_bytes: the message queue of a fetch tag, sized in "Fetch Tag"
 *    at 262 kB (256 KiB); a node with more message bytes is streamed
 *    partially.  adjq_depth: the address queue, 4096 pointers (Choice:
 *    one URAM's depth).
 *  - nsb 2: one valid-ready request and response between the node
 *    scoreboard and a unit (Choice: a cycle each way).
 *  - issue 1: nodeslots are programmed one per cycle (Choice: the host
 *    writes them ahead; the register bank's 50 MHz domain is not
 *    modelled).
 *  - acc 16: accumulators per aggregation core; flit_bits 64 (2 fp32
 *    features); head_tail 2 flits per packet; ctrl_flits 2: the
 *    allocation and buffer-manager packets ("Aggregation Manager").
 *  - hop 2: cycles per router hop (Choice: input buffer and switch
 *    traversal of the Politecnico di Milano router, an estimate).
 *  - sys 16: systolic module side; mac 2: the MAC's two pipeline stages;
 *    post 2: the bias and activation pulses ("Systolic Module").
 *  - wait_max 16: the transformation wait count of the common use case.
 *  - ab_banks 16: the aggregation buffer is read 16 slots at a time by
 *    the Systolic Module Driver.
 *  - flit_wires 66: a flit and its valid/last bits in a router FIFO of
 *    router_fifo 4 entries (Choice).
 */
static const struct timing {
	int axi_bytes, ptr_bytes;
	int64_t msgq_bytes;
	int adjq_depth, nsb, issue, acc, flit_bits, head_tail, ctrl_flits;
	int hop, sys, mac, post, wait_max, ab_banks, flit_wires, router_fifo;
} agile = { 64, 4, 256 * 1024, 4096, 2, 1, 16, 64, 2, 2, 2, 16, 2, 2, 16,
	16, 66, 4 };

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

enum pass_kind { P_AGG = 0, P_LINEAR, P_VADD, P_VINNER };

/* One sweep of node tasks through the accelerator. */
struct pass {
	int kind;
	int graph;		/* 1: a node's messages are its in-edges */
	int extra;		/* messages per node beside the in-edges */
	int64_t f;		/* features per message */
	int64_t g;		/* features out of the transformation; 0: none */
};

#define MAX_STRATA 40
#define CHUNK 64

struct dflow {
	struct pass pass[GNN_MAX_LAYERS];
	int n_pass;
	const int64_t *in_ptr;
	int64_t nv, ne, dmax;
	double ops;		/* the model's operations */
	arch_board board;
	arch_dtype dtype;
	arch_lane_cost lane;
	/* The in-degree histogram: n_hist distinct degrees, ascending; and
	 * the largest in-degree of every CHUNK consecutive vertices.
	 */
	int64_t *hist_deg, *hist_cnt, *chunk_max;
	int64_t n_hist;
};

static int64_t cdiv(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

static int stratum_of(int64_t d)
{
	int h = 0;

	while (d > 0 && h < MAX_STRATA - 1) {
		d >>= 1;
		h++;
	}
	return h;
}

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

	d->chunk_max = calloc((size_t) cdiv(d->nv, CHUNK), sizeof(int64_t));
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

struct dpt {
	int slots, tags, rows, cols, fte, cores, lat, bytes;
	int64_t ab_bytes;	/* aggregation buffer */
	double mhz;
	double bw;		/* DRAM bytes per cycle */
};

/* What a pass costs per node on a design point. */
struct pgeo {
	int slots;		/* nodeslots */
	int nc;			/* aggregation cores per node */
	int par;		/* nodes the engine can aggregate at once */
	int w;			/* transformation wait count */
	int64_t n_ab;		/* aggregation buffer slots */
	int64_t pk_full, pk_last, flits;	/* flits per packet, message */
	int64_t msg_bytes, out_bytes;	/* per message read, node written */
	int64_t t_block;	/* FTE cycles per 16-row block; 0: none */
	int64_t wload;		/* cycles to load the weights */
};

static int read_point(const struct dflow *d, const int32_t *k,
	struct dpt *p)
{
	int i;

	for (i = 0; i < N_KNOBS; i++)
		if (k[i] < 1 || k[i] > knob_max[i])
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
static int pass_geo(const struct dpt *p, const struct pass *q,
	struct pgeo *g)
{
	int64_t per_flit = agile.flit_bits / (8 * p->bytes);
	int64_t beat = agile.axi_bytes / p->bytes, f_last;

	memset(g, 0, sizeof(*g));
	g->slots = p->slots;
	per_flit = per_flit < 1 ? 1 : per_flit;
	g->nc = (int) cdiv(q->f, agile.acc);
	if (g->nc > p->cores)
		return SIM_BAD_KNOB;
	g->par = p->cols < p->cores / g->nc ? p->cols : p->cores / g->nc;
	f_last = q->f - (int64_t) agile.acc * (g->nc - 1);
	g->pk_full = cdiv(agile.acc, per_flit) + agile.head_tail;
	g->pk_last = cdiv(f_last, per_flit) + agile.head_tail;
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
	g->msg_bytes = cdiv(q->f * p->bytes, agile.axi_bytes) *
		agile.axi_bytes;
	g->out_bytes = cdiv((q->g ? q->g : q->f) * p->bytes,
		agile.axi_bytes) * agile.axi_bytes;
	if (q->g) {
		int64_t rounds = cdiv(cdiv(q->g, agile.sys), p->fte);

		g->t_block = rounds * (q->f + 3 * agile.sys + agile.mac +
			agile.post);
		g->wload = q->f * (p->lat + cdiv(q->g, beat) * beat);
	}
	return SIM_OK;
}

/* Write-back bytes of a node with "m" messages: a Vector-Inner writes a
 * score per in-edge, the others a feature vector.
 */
static int64_t node_out(const struct pass *q, const struct pgeo *g,
	const struct dpt *p, int64_t m)
{
	if (q->kind != P_VINNER)
		return g->out_bytes;
	m -= q->extra;
	return cdiv(m * p->bytes, agile.axi_bytes) * agile.axi_bytes;
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
 * stream_rate).  Each column's up-link carries par/cols <= 1 flits per
 * cycle and never limits.
 */
struct nodecost {
	double rho;		/* a stream's rate, flits per cycle */
	double s0, s1;		/* aggregation manager hold */
	double pre0, pre1;	/* issue to aggregation request */
	double out0, out1;	/* bytes written back */
	double byte0, byte1;	/* DRAM bytes */
	double buf;		/* buffer manager phase */
	double batch;		/* transformation of a batch of w */
	double life0, life1;	/* issue to write-back, alone */
	double tag0, tag1;	/* fetch tag hold */
};

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

static double batch_cycles(const struct pgeo *g, int64_t b, int64_t out)
{
	if (g->t_block)
		return (double) (cdiv(b, agile.sys) * g->t_block);
	return (double) (b * cdiv(out, agile.axi_bytes));
}

/* The mean rate of "par" streams from managers in consecutive columns,
 * averaged over where the window starts (at most 16 starts, evenly
 * spaced, which keeps it O(cols)), with the cycle model's link sharing:
 * the eastbound link after column j carries (cols-1-j)/cols of the flits
 * of every manager at or left of j, the westbound one (j+1)/cols of those
 * right of it, and a stream runs at 1 over the most loaded link it
 * crosses (1 when none is above 1).
 */
static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static double stream_rate(int cols, int par)
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

/* The node cost of pass q; rho is stream_rate(cols, par) (a caller that
 * evaluates several passes computes it once per par).
 */
static void node_cost(const struct dpt *p, const struct pass *q,
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
	c->batch = batch_cycles(g, g->w, g->out_bytes);
	c->tag0 = c->pre0 - agile.issue + c->s0 - c->buf;
	c->tag1 = c->pre1 + c->s1;
	c->life0 = c->pre0 + c->s0 + c->batch + g->w * c->out0 / p->bw;
	c->life1 = c->pre1 + c->s1 + g->w * c->out1 / p->bw;
}

/* The steady-state cost of one node of m messages: its occupancy of the
 * unit that limits it most, divided by that unit's parallelism.
 */
static double node_x(const struct dpt *p, const struct pgeo *g,
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
static double pass_bound(const struct dflow *d, const struct dpt *p,
	const struct pass *q, const struct pgeo *g, const struct nodecost *c)
{
	double n = (double) d->nv, m = pass_messages(d, q);
	double heavy = (double) (q->graph ? d->dmax : 0) + q->extra;
	double t = (n * c->s0 + m * c->s1) / g->par;

	t = fmax(t, (n * c->byte0 + m * c->byte1) / p->bw);
	t = fmax(t, n * g->nc);
	t = fmax(t, n * c->buf / p->rows);
	t = fmax(t, (double) cdiv(d->nv, g->w) * c->batch);
	t = fmax(t, (n * c->life0 + m * c->life1) / p->slots);
	t = fmax(t, (n * c->tag0 + m * c->tag1) / p->tags);
	return fmax(t, c->life0 + c->life1 * heavy);
}

/* Fill and drain: a mean node's latency beyond its steady-state cost. */
static double pass_fill(const struct dflow *d, const struct pass *q,
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

		st = pass_geo(p, q, &g);
		if (st != SIM_OK)
			return st;
		if (g.par != last_par)
			rho = stream_rate(p->cols, g.par);
		last_par = g.par;
		node_cost(p, q, &g, rho, &c);
		b = pass_bound(d, p, q, &g, &c);
		*cycles += (double) g.wload + b + pass_fill(d, q, &c, b);
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

struct stats {
	double slot, tag, agm, core, bm, fte, dram, bytes;
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
	t = s->g->t_block ? batch_cycles(s->g, b, 0) :
		(double) cdiv(bytes, agile.axi_bytes);
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
static int sim_init(struct sim *s, const struct dflow *d, const struct dpt *p)
{
	size_t slots = (size_t) p->slots, cols = (size_t) p->cols;
	int i;

	memset(s, 0, sizeof(*s));
	s->d = d;
	s->p = p;
	for (i = 0; i < d->n_pass; i++)
		if (cdiv(d->pass[i].f, agile.acc) > s->maxnc)
			s->maxnc = (int) cdiv(d->pass[i].f, agile.acc);
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
struct outcome {
	double cycles, var, dfd;	/* estimate, its variance, the
					 * denominator of its degrees of
					 * freedom */
	double bias;			/* the replays' resolution */
	double sim_cycles;		/* cycles simulated */
	int64_t tiles, simulated;
	struct stats st;		/* busy times, scaled to the run */
};

static int run_full(struct sim *s, struct outcome *o)
{
	const struct dflow *d = s->d;
	int i, r;

	for (i = 0; i < d->n_pass; i++) {
		struct pgeo g;

		pass_geo(s->p, &d->pass[i], &g);
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
 * node cost of node_x, known for every node through the degree
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

	rp->n_blocks = cdiv(d->nv, rp->block);
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
		return (double) d->nv * node_x(p, g, c, (double) q->extra);
	for (i = 0; i < d->n_hist; i++)
		x += (double) d->hist_cnt[i] * node_x(p, g, c,
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
	int64_t block = cdiv((int64_t) samp.block_slots * g->slots, CHUNK) *
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
	node_cost(s->p, q, s->g, stream_rate(s->p->cols, s->g->par), &c);
	calibrate(&pool, &c, &cc);
	big_x = x_total(s->d, s->p, q, s->g, &cc);
	for (r = 0; r < REPLICATES; r++)
		for (i = off[r]; i < off[r + 1]; i++)
			x[r] += node_x(s->p, s->g, &cc, (double) rp->ms[i]);
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

		pass_geo(s->p, q, &g);
		node_cost(s->p, q, &g, stream_rate(s->p->cols, g.par), &c);
		bound = pass_bound(d, s->p, q, &g, &c);
		fill = pass_fill(d, q, &c, bound);
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

/* The standard normal quantile (Acklam's rational approximation, relative
 * error below 1.2e-9).
 */
static double normal_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01,
		2.209460984245205e+02, -2.759285104469687e+02,
		1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01,
		1.615858368580409e+02, -1.556989798598866e+02,
		6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03,
		-3.223964580411365e-01, -2.400758277161838e+00,
		-2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double e[] = { 7.784695709041462e-03,
		3.224671290700398e-01, 2.445134137142996e+00,
		3.754408661907416e+00 };
	double r, u;

	if (p > 0.5)
		return -normal_quantile(1 - p);
	if (p < 0.02425) {
		u = sqrt(-2 * log(p));
		return (((((c[0] * u + c[1]) * u + c[2]) * u + c[3]) * u +
			c[4]) * u + c[5]) / ((((e[0] * u + e[1]) * u + e[2]) *
			u + e[3]) * u + 1);
	}
	u = p - 0.5;
	r = u * u;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r +
		a[5]) * u / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r +
		b[4]) * r + 1);
}

/* Student's t quantile: exact for 1 and 2 degrees of freedom, the
 * Cornish-Fisher expansion around the normal quantile above.
 */
static double t_quantile(double p, double df)
{
	double z, z2, a;

	if (df < 1.5)
		return tan(M_PI * (p - 0.5));
	if (df < 2.5) {
		a = 2 * p - 1;
		return a * sqrt(2 / (1 - a * a));
	}
	z = normal_quantile(p);
	z2 = z * z;
	return z + z * (z2 + 1) / (4 * df) +
		z * ((5 * z2 + 16) * z2 + 3) / (96 * df * df) +
		z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) /
		(384 * df * df * df);
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

		half = t_quantile(0.5 + conf / 2, df < 1 ? 1 : df) *
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
	struct sim s;
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
	rc = sim_init(&s, d, &p);
	if (rc)
		rc = kind == SIM_MODEL_FULL ? run_full(&s, &o) :
			run_sampled(&s, opt, &o);
	sim_fini(&s);
	if (rc == 0)
		return dse_error_set(err, DSE_E_NOMEM,
			"out of memory in the gnn-dataflow cycle model");
	if (rc < 0)
		return dse_error_set(err, DSE_E_RUNTIME, "gnn-dataflow: the "
			"cycle model stalled (a defect)");
	report(d, &p, &o, opt, out);
	return dse_stat_ok;
}

const struct gnn__family_ops gnn__dataflow_ops = {
	df_alloc, df_free, df_prepare, df_eval, df_simulate
};
