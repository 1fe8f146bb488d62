/* gnn: the gnn-overlay family, GraphAGILE (Zhang et al., "GraphAGILE: An
 * FPGA-based Overlay Accelerator for Low-latency GNN Inference"): N_pe PEs,
 * each an Adaptive Computation Kernel (ACK) of p_sys x p_sys ALUs with a
 * weight, an edge and a feature buffer, running a model that the compiler
 * passes of gnn/ir.h turned into Tiling Blocks.
 *
 * A design point is the eight knobs of gnn/family.c's overlay table.  What
 * the family builds once:
 *   - alloc: a copy of the model through computation-order optimisation
 *     and layer fusion (section 6.3, 6.4);
 *   - prepare: the values of n_pe, feat_rows and feat_cols; one
 *     fiber-shard partition (gnn_shards) per shard height n1 the compiler
 *     may choose for them (gnn__ovl_shard_heights in overlay_prep.c: n1
 *     is the compiler's choice, bounded by feat_rows), laid out in the
 *     compiler's edge order with the counts the models need, and one
 *     plan (gnn_plan) per pair of n1 and a fiber width n2 it leaves room
 *     for (gnn__ovl_fiber_widths: n2 from feat_cols up, n1 n2 within the
 *     buffer's feat_rows x feat_cols words), with the per-shard sums eval
 *     needs; eval takes the fastest pair (choose).  A partition takes
 *     about 8 bytes an edge (0.93 GB for the 116 M edges of the Reddit
 *     preset), so a sweep should ask for few n_pe and feat_rows values
 *     on large graphs.
 *
 * The time of a design (T_LoH, section 8) is the sum over layers of the
 * layer's time (layers run one after the other, Algorithm 9) and a
 * per-layer CSI overhead.  A layer's Tiling Blocks are dealt to the first
 * idle PE (gnn_schedule).  Each block costs its compute cycles and its
 * DRAM bytes: the kernels stream their data through the double (weight,
 * edge) and triple (feature) buffers of section 7, so within a block the
 * loads overlap the compute and only the first load is exposed.  The PEs
 * share one DRAM channel: a block cannot move its bytes faster than the
 * whole channel, nor a layer all of its blocks' bytes; the layer takes the
 * longer of the schedule's makespan and that channel bound.  (Charging
 * every PE a fixed 1/N_pe of the channel instead would make more PEs
 * slower whenever the blocks do not divide evenly among them, which a
 * shared channel does not do: the PEs still busy get the bandwidth the
 * idle ones leave.)
 *
 * The compiler lays out every subshard with its destinations interleaved
 * (gnn/ack.h, "the compiler's edge order": all first in-edges, then all
 * second ones, ...), since back-to-back updates of one destination would
 * each wait for the RAW window.  The compute of SpDMM and SDDMM blocks
 * is, in the analytic model, each subshard's load (p_sys/2 edges a cycle
 * per slice of p_sys features at the closed-form conflict factor of
 * random indices, or the slices of its busiest Feature Buffer bank or UR
 * pipeline when the ids are skewed: gnn__ack_order_build), the RAW stall
 * of the short rounds of hub destinations in that order
 * (gnn__ack_round_stall, from counts made at prepare), and the
 * pipeline's fill for every Edge Buffer load.  The full and sampled
 * models run the real edges of every subshard, in the compiler's order,
 * through the ACK cycle model (gnn/ack.c), an Edge Buffer load (half the
 * edge buffer: the other half is being filled) at a time; such a load is
 * the unit ("tile") they simulate or sample.  GEMM, vector-add and
 * element-wise blocks are dense and regular and keep their closed forms
 * in every model.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlay_internal.h"


/* --- tables ---------------------------------------------------------------
 *
 * Figures of GraphAGILE's implementation on the Alveo U250 (section 7)
 * and the estimates the paper leaves open.
 */
static const struct overlay_costs {
	int edge_words;		/* an edge is (src, dst, weight) of 32 bits
				 * each: 96 bits (section 7) */
	int index_bits;
	int mode_switch;	/* an ACK mode switch costs one cycle
				 * (section 5.4) */
	int instr;		/* decoding and issuing one high-level
				 * instruction from the Instruction Queue
				 * (estimate) */
	int csi;		/* the Scheduler reading a layer's CSI and
				 * dispatching its blocks, beyond the DRAM
				 * latency of the read (estimate) */
} costs = { 3, 32, 1, 2, 64 };

/* Fabric of a PE beside its DSPs and memories, calibrated on the paper's
 * 778K LUT for 8 PEs of p_sys = 16 in fp32 (section 7):
 *   - a shuffle network is a butterfly of log2(p_sys) stages of 2x2
 *     switches; a switch output is a registered 2:1 multiplexer per bit,
 *     about half a LUT6 (two such multiplexers share a LUT6_2) and one FF.
 *     The ISN has p_sys ports of an edge's 96 bits, the DSN p_sys ports of
 *     p_sys features and the edge, (16 + 3) x 32 bits (section 7): at the
 *     default point (16 x 96 + 16 x 608) x 4 stages x 0.5 = 22,528 LUT;
 *   - control (Instruction Queue, decoder, microcode table, three data
 *     loaders, the 16-element Activation Unit with exp and division, the
 *     RAW unit): 8,000 LUT and 10,000 FF (estimate);
 *   - the ALUs take the rest: 778,000 / 8 - 22,528 - 8,000 = 66,722 LUT
 *     for 256 ALUs, 260.6 each, 0.745 times the fp32 MAC lane of
 *     arch/cost.c (350 LUT: the ALU's multiplier and adder share the DSPs
 *     with fewer pipeline registers than a free-standing MAC lane); the
 *     same factor scales the lane's FF and the lane of any other type.
 */
static const struct overlay_fabric {
	double lut_per_bit_stage, ff_per_bit_stage;
	int ctrl_lut, ctrl_ff;
	double alu_scale;
} fabric = { 0.5, 1.0, 8000, 10000, 0.745 };

/* Where the buffers live.  The paper's 1,050 URAM (section 7) match the
 * eight triple-buffered 1 MB feature buffers (1,024 URAM with p_sys banks
 * of p_sys words) with the edge buffers taking most of the rest, and its
 * 1,853 BRAM36 the eight 1 MB weight buffers: the weight buffer is kept in
 * BRAM, the others go where arch_buffer_map puts them.
 */
static const struct buffer_place {
	int weight_in_uram, edge_in_uram, feature_in_uram;
} place = { 0, 1, 1 };

/* --- the family object --------------------------------------------------- */

static void part_clear(struct ovl_part *p)
{
	gnn_shards_free(p->shards);
	if (p->shared) {
		memset(p, 0, sizeof(*p));
		return;
	}
	free(p->rows);
	free(p->row_edges);
	free(p->row_src_rows);
	free(p->row_first);
	free(p->sub_col);
	free(p->sub_off);
	free(p->sub_edges);
	free(p->sub_src);
	free(p->sub_dst);
	gnn__ack_order_clear(&p->ord);
	free(p->row_load);
	memset(p, 0, sizeof(*p));
}

static void overlay_free(void *self)
{
	struct overlay *o = self;
	int i;

	if (!o)
		return;
	for (i = 0; i < o->n_plans; i++)
		gnn_plan_free(o->plans[i].plan);
	for (i = 0; i < o->n_parts; i++)
		part_clear(&o->parts[i]);
	free(o->plans);
	free(o->parts);
	for (i = 0; i < N_KNOBS; i++)
		free(o->prepared[i].v);
	gnn_model_free(o->model);
	free(o);
}

/* The closed-form rates and pipeline depths of every p_sys. */
static void ack_tables(struct overlay *o)
{
	int mode, l;

	for (mode = 0; mode < 2; mode++)
		for (l = 1; l < N_PSYS; l++) {
			struct gnn__ack_cfg c;

			gnn__ack_default_cfg(&c, 1 << l, mode, 1, &o->dtype);
			o->rate[mode][l] = gnn__ack_random_rate(&c);
			o->fill[mode][l] = c.lat.isn + c.lat.bank + c.lat.dsn +
				c.lat.update + (mode == GNN__ACK_SPDMM ?
				c.lat.reduce : c.lat.tree);
			o->reduce = c.lat.reduce;
		}
}

static void *overlay_alloc(const gnn_model *model, const gnn_graph *graph,
	const arch_board *board, const arch_dtype *dtype, dse_error *err)
{
	struct overlay *o = calloc(1, sizeof(*o));
	const gnn_layer *l0;
	int k;

	if (!o || !(o->model = gnn_model_copy(model))) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		overlay_free(o);
		return NULL;
	}
	l0 = gnn_model_layer(o->model, 0);
	if (!l0 || l0->n_vertices != gnn_graph_n_vertices(graph) ||
	    l0->n_edges != gnn_graph_n_edges(graph) || dtype->bits <= 0) {
		dse_error_set(err, DSE_E_INPUT, "gnn-overlay: model %s is for "
			"%lld vertices and %lld edges, graph %s has %lld and "
			"%lld", gnn_model_name(model),
			(long long) (l0 ? l0->n_vertices : 0),
			(long long) (l0 ? l0->n_edges : 0),
			gnn_graph_name(graph),
			(long long) gnn_graph_n_vertices(graph),
			(long long) gnn_graph_n_edges(graph));
		overlay_free(o);
		return NULL;
	}
	for (k = 0; k < N_KNOBS; k++) {
		o->knob[k] = gnn_family_knob_find(GNN_OVERLAY, knob_names[k]);
		if (o->knob[k] < 0) {
			dse_error_set(err, DSE_E_RUNTIME, "gnn-overlay: no "
				"knob %s in the family table", knob_names[k]);
			overlay_free(o);
			return NULL;
		}
	}
	gnn_pass_order(o->model);
	gnn_pass_fuse(o->model);
	for (k = 0; k < gnn_model_n_layers(o->model); k++) {
		const gnn_layer *l = gnn_model_layer(o->model, k);

		o->widest = l->f_in > o->widest ? l->f_in : o->widest;
		o->widest = l->f_out > o->widest ? l->f_out : o->widest;
	}
	o->graph = graph;
	o->board = *board;
	o->dtype = *dtype;
	o->ops = gnn_model_ops(o->model);
	ack_tables(o);
	return o;
}


/* --- a design point ------------------------------------------------------ */

struct point {
	int n_pe, p, lp, k;	/* p_sys, log2 p_sys, p_sys / 2 */
	int64_t n_w, n_e, half;	/* weight rows, edge rows, an Edge Buffer
				 * load (half the buffer) */
	int64_t rows, cols;	/* feat_rows x feat_cols: the feature
				 * buffer */
	int64_t n1, n2;		/* the shard height and the fiber width
				 * chosen */
	double mhz, bpc;	/* channel bytes per cycle */
	int bytes;		/* of a feature */
	const struct ovl_plan *pl;
	const struct ovl_part *pt;
};

/* What is wrong with a point's knobs "v" (in knob order): a value out of
 * its range, a p_sys that is no power of two or does not divide the
 * feature buffer, an n_pe, feat_rows or feat_cols that was not prepared.
 * Writes the sentence into buf (which may be NULL when size is 0) and
 * returns its length; 0 when nothing is wrong.
 */
static int knob_fault(const struct overlay *o, const int32_t *v, char *buf,
	size_t size)
{
	/* Automatic, not static: the limits are not constant expressions
	 * in C.
	 */
	const struct {
		int k;
		int64_t lo, hi;
	} range[] = {
		{ K_PE, 1, limits.max_pe }, { K_PSYS, limits.min_psys,
		limits.max_psys }, { K_WROWS, 2, INT32_MAX },
		{ K_EROWS, 2, INT32_MAX }, { K_N1, 1, INT32_MAX },
		{ K_N2, 1, INT32_MAX }, { K_MHZ, 1, (int64_t) limits.max_mhz },
		{ K_GBPS, 1, INT32_MAX },
	};
	size_t i;
	int k;

	for (i = 0; i < sizeof(range) / sizeof(range[0]); i++)
		if (v[range[i].k] < range[i].lo || v[range[i].k] > range[i].hi)
			return snprintf(buf, size, "%s is %d, outside "
				"%lld..%lld", knob_names[range[i].k],
				(int) v[range[i].k], (long long) range[i].lo,
				(long long) range[i].hi);
	if (log2_of(v[K_PSYS]) < 0)
		return snprintf(buf, size, "p_sys is %d, not a power of two",
			(int) v[K_PSYS]);
	if (v[K_N1] % v[K_PSYS] || v[K_N2] % v[K_PSYS])
		return snprintf(buf, size, "%s (%d) is not a multiple of p_sys "
			"(%d): the feature buffer is split among p_sys banks",
			v[K_N1] % v[K_PSYS] ? "feat_rows" : "feat_cols",
			(int) v[v[K_N1] % v[K_PSYS] ? K_N1 : K_N2],
			(int) v[K_PSYS]);
	for (k = 0; k < N_KNOBS; k++)
		if ((k == K_PE || k == K_N1 || k == K_N2) &&
		    !gnn__ovl_has_value(&o->prepared[k], v[k]))
			return snprintf(buf, size, "%s = %d is not among the "
				"values the sweep was prepared for",
				knob_names[k], (int) v[k]);
	return 0;
}

/* Reads a point's knobs: SIM_BAD_KNOB for any knob_fault.  The partition
 * is chosen later (choose).
 */
static int read_point(const struct overlay *o, const int32_t *knobs,
	struct point *pt)
{
	int32_t v[N_KNOBS];
	int k;

	memset(pt, 0, sizeof(*pt));
	for (k = 0; k < N_KNOBS; k++)
		v[k] = knobs[o->knob[k]];
	if (knob_fault(o, v, NULL, 0))
		return SIM_BAD_KNOB;
	pt->lp = log2_of(v[K_PSYS]);
	/* The feature buffer's words must count in 64 bits. */
	if (3.0 * v[K_N1] * (double) v[K_N2] > 9e18)
		return SIM_TOO_LARGE;
	pt->n_pe = v[K_PE];
	pt->p = v[K_PSYS];
	pt->k = pt->p / 2;
	pt->n_w = v[K_WROWS];
	pt->n_e = v[K_EROWS];
	pt->half = v[K_EROWS] / 2;
	pt->rows = v[K_N1];
	pt->cols = v[K_N2];
	pt->n2 = v[K_N2];
	pt->mhz = v[K_MHZ];
	pt->bpc = v[K_GBPS] * 1e9 / (pt->mhz * 1e6);
	pt->bytes = (o->dtype.bits + 7) / 8;
	return SIM_OK;
}

/* --- resources ----------------------------------------------------------- */

/* BRAM18K and URAM of one buffer, mapped by arch_buffer_map on the board,
 * or on the board without its URAM when the buffer is kept in BRAM.
 */
static void map_buffer(const struct overlay *o, int in_uram, int width,
	int64_t depth, int64_t banks, double *bram, double *uram)
{
	arch_board b = o->board;
	int64_t br, ur;

	if (!in_uram)
		b.uram = 0;
	arch_buffer_map(&b, width, depth, banks, &br, &ur);
	*bram += (double) br;
	*uram += (double) ur;
}

/* The buffers of one PE (section 7).  The dimensions are those of the
 * paper's section 4.2 and 7: the weight buffer holds N_W x p_sys words and
 * the edge buffer N_E edges in all, each split in two halves for double
 * buffering (the paper's 1 MB weight buffer is 16384 x 16 fp32 words with
 * its double buffering); the feature buffer holds one N_F1 x N_F2
 * partition three times over (the paper's 3 MB).  Banks: the weight
 * buffer has p_sys banks of one word (section 5.5); the edge buffer one
 * port of p_sys edges (section 5.5); the feature buffer p_sys banks, a
 * vertex's p_sys-word slice a read, the three copies one above the other
 * in each bank.
 */
static void pe_memory(const struct overlay *o, const struct point *pt,
	double *bram, double *uram)
{
	int w = o->dtype.bits, ew = costs.edge_words * costs.index_bits;

	*bram = *uram = 0;
	map_buffer(o, place.weight_in_uram, w, pt->n_w * pt->p, pt->p, bram,
		uram);
	map_buffer(o, place.edge_in_uram, pt->p * ew, dse_cdiv(pt->n_e, pt->p), 1,
		bram, uram);
	map_buffer(o, place.feature_in_uram, pt->p * w,
		3 * pt->rows * pt->cols / pt->p, pt->p, bram, uram);
}

static int to_count(double x, int64_t *out)
{
	if (!(x >= 0) || x > 9.2e18)
		return 0;
	*out = (int64_t) llround(x);
	return 1;
}

static int resources(const struct overlay *o, const struct point *pt,
	sim_metrics *out)
{
	arch_lane_cost lane = arch_lane_cost_of(&o->dtype);
	double alus = (double) pt->p * pt->p, n = pt->n_pe, bram, uram;
	int ew = costs.edge_words * costs.index_bits;
	double bit_stages = (double) pt->lp * pt->p *
		(ew + (double) pt->p * o->dtype.bits + ew);
	double lut = alus * lane.lut * fabric.alu_scale +
		bit_stages * fabric.lut_per_bit_stage + fabric.ctrl_lut;
	double ff = alus * lane.ff * fabric.alu_scale +
		bit_stages * fabric.ff_per_bit_stage + fabric.ctrl_ff;

	pe_memory(o, pt, &bram, &uram);
	return to_count(n * alus * o->dtype.dsp_per_mac, &out->dsp) &&
		to_count(n * bram, &out->bram18k) &&
		to_count(n * uram, &out->uram) &&
		to_count(n * lut, &out->lut) && to_count(n * ff, &out->ff);
}

/* --- the cost of a Tiling Block ------------------------------------------ */

/* What one block costs: compute cycles, DRAM bytes, the bytes of its first
 * load (not overlapped), and for the energy its multiply-accumulates,
 * buffer words and network word-hops.
 */
struct bcost {
	double comp, bytes, first;
	double macs, buf, hops;
};

/* The SpDMM and SDDMM compute of the cycle models: per (mode, passes) the
 * ACK cycles of every shard row (SpDMM) or nonempty subshard (SDDMM),
 * measured ("exact") and estimated from a sample ("est"), and the Edge
 * Buffer loads of each row.
 */
struct ack_pair {
	int mode, passes;
	double uses;		/* how often the design runs these cycles */
	struct gnn__ack_result res;	/* per row (SpDMM) or nonempty
					 * subshard (SDDMM) */
};

struct ack_source {
	int n_pairs;
	struct ack_pair *pair;
	double lambda;		/* factor on the estimated parts */
	double spread;		/* standard deviations added to each */
	const struct ovl_plan *pl;	/* the plan the pairs were run on */
};

/* The cycles of row or subshard "at" of a pair (the estimated part, moved
 * to an end of its interval, never below none).
 */
static double pair_value(const struct ack_source *src,
	const struct ack_pair *pr, int64_t at)
{
	const struct gnn__ack_result *r = &pr->res;
	double est = src->lambda * r->est[at] + src->spread * sqrt(r->var[at]);

	return r->exact[at] + (est > 0 ? est : 0) + (double) r->loads[at] *
		(costs.instr + costs.mode_switch);
}

static const struct ack_pair *find_pair(const struct ack_source *src,
	int mode, int passes)
{
	int i;

	for (i = 0; src && i < src->n_pairs; i++)
		if (src->pair[i].mode == mode && src->pair[i].passes == passes)
			return &src->pair[i];
	return NULL;
}

/* The nonempty subshard (i, j) in the partition's list; -1 if empty. */
static int64_t sub_index(const struct ovl_part *p, int64_t i, int64_t j)
{
	int64_t lo = p->row_first[i], hi = p->row_first[i + 1];

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (p->sub_col[mid] < j)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->row_first[i + 1] && p->sub_col[lo] == j ? lo : -1;
}

/* Cycles of the Activation Unit over "n" elements (a fused activation or
 * batch norm at a block's output).  The unit has 16 elements at p_sys =
 * 16 (section 7), one per lane of the kernel's p_sys-wide datapath: p_sys
 * elements a cycle.
 */
static double act_unit(const struct point *pt, double n)
{
	return ceil(n / pt->p);
}

static double act_cycles(const struct point *pt, const gnn_layer *l,
	double n)
{
	return l->act_fused || l->bn_fused ? act_unit(pt, n) : 0;
}

/* Linear: an output of rows x cols from rows x k features and k x cols
 * weights, output-stationary on the p_sys x p_sys array (Algorithm 1):
 * every p_sys x p_sys output tile takes k cycles, plus the array's fill
 * and drain; the features stream in k-chunks of n2 columns (one
 * instruction each).  When a chunk's weights (n2 x cols) do not fit in
 * half the weight buffer they are streamed again for every p_sys-row tile.
 */
static void gemm_cost(const struct overlay *o, const struct point *pt,
	const gnn_block *b, const gnn_layer *l, struct bcost *c)
{
	double r = (double) b->rows, cl = (double) b->cols, k = (double) b->k;
	double tiles_r = (double) dse_cdiv(b->rows, pt->p);
	double steps = (double) dse_cdiv(b->k, pt->n2), wb = k * cl * pt->bytes;
	double chunk = (double) (b->k < pt->n2 ? b->k : pt->n2);

	(void) o;
	if (chunk * cl > (double) (pt->n_w / 2) * pt->p)
		wb *= tiles_r;
	c->comp = tiles_r * (double) dse_cdiv(b->cols, pt->p) * k + 2.0 * pt->p +
		steps * (costs.instr + costs.mode_switch) +
		act_cycles(pt, l, r * cl);
	c->bytes = r * k * pt->bytes + wb + r * cl * pt->bytes;
	c->first = (r * chunk + chunk * cl) * pt->bytes;
	c->macs = r * cl * k;
	c->buf = r * k * (double) dse_cdiv(b->cols, pt->p) +
		k * cl * tiles_r + r * cl;
	c->hops = 2.0 * c->macs;
}

/* The ACK compute of an SpDMM block: the analytic model, or the cycle
 * model's cycles of its shard row.  The analytic one streams every edge's
 * slices at the row's load (gnn__ack_part_loads: the random-index rate or
 * the busiest bank or pipeline, subshard by subshard), adds the RAW stall
 * of the row's short rounds in the compiler's order at that stream's pace
 * (gnn__ack_round_stall, with the counts made at prepare), and a pipeline
 * fill per Edge Buffer load.
 */
static double spdmm_ack(const struct overlay *o, const struct point *pt,
	const gnn_block *b, int passes, const struct ack_source *src)
{
	const struct ovl_part *p = pt->pt;
	const struct ack_pair *pr = find_pair(src, GNN__ACK_SPDMM, passes);
	int64_t i = b->shard, w = GNN__ACK_ROUND_CLASSES + 1;
	double load = passes * p->row_load[i * GNN__ACK_N_PSYS + pt->lp];
	double hold = o->reduce > passes ? o->reduce : passes;

	if (pr)
		return pair_value(src, pr, i);
	return load + gnn__ack_round_stall(p->ord.row_n + i * w,
		p->ord.row_d + i * w, load / (double) b->edges, hold) +
		(double) (p->row_first[i + 1] - p->row_first[i] +
		b->edges / pt->half) * (o->fill[0][pt->lp] + costs.instr +
		costs.mode_switch);
}

/* Aggregate (Algorithm 6): output shard i, fiber of cols features; for
 * every nonempty subshard (i, k) the edges and the rows of the source
 * sub-fiber its edges touch (loaded_rows) are loaded, the output is
 * stored once.  The first exposed load is one Edge Buffer load of an
 * average subshard and its source rows.
 */
static void spdmm_cost(const struct overlay *o, const struct point *pt,
	const gnn_block *b, const gnn_layer *l, const struct ack_source *src,
	struct bcost *c)
{
	const struct ovl_part *p = pt->pt;
	int64_t i = b->shard, ne = p->row_first[i + 1] - p->row_first[i];
	int passes = (int) dse_cdiv(b->cols, pt->p);
	double e = (double) b->edges, cl = (double) b->cols;
	double eb = costs.edge_words * costs.index_bits / 8.0;
	double avg = ne ? e / (double) ne : 0, lb = log2((double) pt->p);

	if (avg > (double) pt->half)
		avg = (double) pt->half;
	c->comp = (e > 0 ? spdmm_ack(o, pt, b, passes, src) : 0) +
		act_cycles(pt, l, (double) b->rows * cl);
	c->bytes = e * eb + (double) p->row_src_rows[i] * cl * pt->bytes +
		(double) b->rows * cl * pt->bytes;
	c->first = ne ? avg * eb + (double) p->row_src_rows[i] / (double) ne *
		cl * pt->bytes : 0;
	c->macs = e * cl;
	c->buf = e * (costs.edge_words + 3.0 * cl);
	c->hops = e * lb * (1.0 + cl + costs.edge_words);
}

/* The ACK compute of an SDDMM block over one fiber of "passes" slices:
 * the cycle model's, or the subshard's load (gnn__ack_part_loads) and a
 * pipeline fill per Edge Buffer load.
 */
static double sddmm_ack(const struct overlay *o, const struct point *pt,
	const gnn_block *b, int64_t loads, int passes,
	const struct ack_source *src)
{
	const struct ack_pair *pr = find_pair(src, GNN__ACK_SDDMM, passes);
	int64_t s = sub_index(pt->pt, b->shard, b->col_shard);
	double load = s >= 0 ? pt->pt->ord.sub_load[gnn__ack_load_at(s,
		GNN__ACK_SDDMM, pt->lp)] : (double) b->edges *
		o->rate[1][pt->lp];

	if (pr && s >= 0)
		return pair_value(src, pr, s);
	return passes * load + (double) loads * (o->fill[1][pt->lp] +
		costs.instr + costs.mode_switch);
}

/* Vector-Inner (Algorithm 7): subshard (i, j) over the fibers of k =
 * f_in features.  Its two sub-fibers are loaded as the rows its edges
 * touch (loaded_rows of its destinations and of its sources).  When its
 * edges fit in an Edge Buffer load they are read once and every fiber's
 * sub-fibers streamed past them; otherwise the
 * compiler picks the cheaper of re-reading the sub-fibers for every load
 * and re-reading the edges (and the partial products, 4 bytes an edge)
 * for every fiber.  The edges with their new weights are stored.
 */
static void sddmm_cost(const struct overlay *o, const struct point *pt,
	const gnn_block *b, const gnn_layer *l, const struct ack_source *src,
	struct bcost *c)
{
	const struct ovl_part *p = pt->pt;
	double e = (double) b->edges, k = (double) b->k;
	double eb = costs.edge_words * costs.index_bits / 8.0;
	int64_t s = sub_index(p, b->shard, b->col_shard);
	double sub = s < 0 ? (double) (p->rows[b->shard] +
		p->rows[b->col_shard]) : (double) (loaded_rows(p->sub_dst[s],
		p->rows[b->shard]) + loaded_rows(p->sub_src[s],
		p->rows[b->col_shard]));
	int64_t loads = dse_cdiv(b->edges, pt->half), f, fibers = dse_cdiv(b->k, pt->n2);
	double lb = log2((double) pt->p), a, bb;

	c->comp = act_cycles(pt, l, e);
	for (f = 0; f < fibers; f++) {
		int64_t w = f + 1 < fibers ? pt->n2 : b->k - f * pt->n2;

		c->comp += sddmm_ack(o, pt, b, loads, (int) dse_cdiv(w, pt->p),
			src);
	}
	a = (double) loads * sub * k * pt->bytes;
	bb = sub * k * pt->bytes + (double) (fibers - 1) * e * (eb + 8.0);
	c->bytes = 2.0 * e * eb + (loads > 1 && bb < a ? bb : a);
	c->first = (e < (double) pt->half ? e : (double) pt->half) * eb +
		sub * (double) (b->k < pt->n2 ? b->k : pt->n2) * pt->bytes;
	c->macs = e * k;
	c->buf = e * (costs.edge_words + 2.0 * k + 1.0);
	c->hops = 2.0 * e * lb * (1.0 + k);
}

/* Vector-Add: p_sys/2 additions of p_sys-wide slices a cycle (section
 * 5.4), the two inputs streaming in and the sum out; an element-wise
 * layer (activation or batch norm left unfused) goes through the
 * Activation Unit.  Both stream in p_sys-row steps.
 */
static void dense_cost(const struct overlay *o, const struct point *pt,
	const gnn_block *b, struct bcost *c)
{
	double r = (double) b->rows, cl = (double) b->cols;
	double lb = log2((double) pt->p);

	if (b->kernel == GNN_K_VADD) {
		c->comp = (double) dse_cdiv(b->rows * dse_cdiv(b->cols, pt->p), pt->k) +
			o->fill[0][pt->lp] + costs.instr + costs.mode_switch;
		c->bytes = 3.0 * r * cl * pt->bytes;
		c->first = 2.0 * pt->p * cl * pt->bytes;
		c->buf = 3.0 * r * cl;
		c->hops = 2.0 * r * cl * lb;
	} else {
		c->comp = act_unit(pt, r * cl) + costs.instr;
		c->bytes = 2.0 * r * cl * pt->bytes;
		c->first = pt->p * cl * pt->bytes;
		c->buf = 2.0 * r * cl;
		c->hops = 0;
	}
	c->macs = r * cl;
}

static void block_cost(const struct overlay *o, const struct point *pt,
	const gnn_block *b, const gnn_layer *l, const struct ack_source *src,
	struct bcost *c)
{
	memset(c, 0, sizeof(*c));
	switch (b->kernel) {
	case GNN_K_GEMM:
		gemm_cost(o, pt, b, l, c);
		break;
	case GNN_K_SPDMM:
		spdmm_cost(o, pt, b, l, src, c);
		break;
	case GNN_K_SDDMM:
		sddmm_cost(o, pt, b, l, src, c);
		break;
	default:
		dense_cost(o, pt, b, c);
		break;
	}
}

/* --- the time of a design ------------------------------------------------ */

/* Sums over a design's run. */
struct totals {
	double cycles;
	double busy;		/* PE compute cycles */
	double bytes, macs, buf, hops;
};

/* The time of one layer: the blocks' times dealt to the PEs, bounded below
 * by the channel moving all of the layer's bytes.  "times" has room for
 * the layer's blocks.  Returns 0 when a figure overflows.
 */
static int layer_time(const struct overlay *o, const struct point *pt,
	int layer, const struct ack_source *src, uint64_t *times,
	struct totals *t)
{
	const gnn_plan *plan = pt->pl->plan;
	const gnn_layer *l = gnn_model_layer(gnn_plan_model(plan), layer);
	int64_t first, count, i;
	double bytes = 0, span;
	uint64_t made;

	gnn_plan_layer_blocks(plan, layer, &first, &count);
	if (!count)
		return 1;
	for (i = 0; i < count; i++) {
		struct bcost c;
		double own;

		block_cost(o, pt, gnn_plan_block(plan, first + i), l, src, &c);
		own = (c.bytes - c.first) / pt->bpc;
		own = (c.comp > own ? c.comp : own) + c.first / pt->bpc;
		if (!(own < 1.8e19))
			return 0;
		times[i] = (uint64_t) ceil(own);
		bytes += c.bytes;
		t->busy += c.comp;
		t->macs += c.macs;
		t->buf += c.buf;
		t->hops += c.hops;
	}
	made = gnn_schedule(times, count, pt->n_pe, NULL);
	span = (double) made;
	if (bytes / pt->bpc > span)
		span = ceil(bytes / pt->bpc);
	t->bytes += bytes;
	t->cycles += span + costs.csi + o->board.dram_latency;
	return made != UINT64_MAX;
}

/* The whole run; 0 when a figure overflows or memory runs out. */
static int design_time(const struct overlay *o, const struct point *pt,
	const struct ack_source *src, struct totals *t)
{
	uint64_t stack[1024], *times = stack;
	int l, ok = 1;

	memset(t, 0, sizeof(*t));
	if (pt->pl->max_blocks > 1024) {
		times = malloc((size_t) pt->pl->max_blocks * sizeof(*times));
		if (!times)
			return 0;
	}
	for (l = 0; ok && l < gnn_model_n_layers(o->model); l++)
		ok = layer_time(o, pt, l, src, times, t);
	if (times != stack)
		free(times);
	return ok && t->cycles < 1.8e19;
}

/* Energy: every MAC with its register accesses, buffer words, network
 * word-hops and DRAM words, each at its cost relative to a MAC of the
 * data type (arch_energy_costs, arch_lane_cost_of).
 */
static double energy(const struct overlay *o, const struct point *pt,
	const struct totals *t)
{
	const arch_energy *e = arch_energy_costs();
	arch_lane_cost lane = arch_lane_cost_of(&o->dtype);
	double units = t->macs * (1.0 + e->rf * e->rf_per_mac) +
		e->buffer * t->buf + e->hop * t->hops +
		e->dram * t->bytes / pt->bytes;

	return units * lane.pj_per_mac * 1e-12;
}

/* Fills the time-dependent metrics from "t". */
static void set_time(const struct overlay *o, const struct point *pt,
	const struct totals *t, sim_metrics *out)
{
	out->cycles = (uint64_t) t->cycles;
	out->mhz = pt->mhz;
	out->latency_s = t->cycles / (pt->mhz * 1e6);
	out->gops = out->latency_s > 0 ? o->ops / out->latency_s / 1e9 : 0;
	out->offchip_bytes = (int64_t) llround(t->bytes);
	out->energy_j = energy(o, pt, t);
	out->edp = out->energy_j * out->latency_s;
}

/* The compiler's choice of partition for "pt": the time of the design
 * with the plan of every shard height of the ladder
 * (gnn__ovl_shard_heights) and every fiber width that height leaves room
 * for (gnn__ovl_fiber_widths), the fastest kept in pt and t; with
 * cycle-model figures ("src") only the plan they were run on.  Returns
 * the status.
 */
static int choose(const struct overlay *o, struct point *pt,
	const struct ack_source *src, struct totals *t)
{
	int64_t h[MAX_HEIGHTS], w[MAX_WIDTHS];
	int n = gnn__ovl_shard_heights(o, pt->n_pe, pt->rows, h), i, j, nw;
	int st = SIM_BAD_KNOB;
	const struct ovl_plan *best = NULL;
	struct totals tt;

	for (i = 0; i < n; i++) {
		nw = h[i] % pt->p ? 0 : gnn__ovl_fiber_widths(o, h[i],
			pt->rows, pt->cols, w);
		for (j = 0; j < nw; j++) {
			const struct ovl_plan *pl = gnn__ovl_find_plan(o, h[i],
				w[j]);

			if (!pl || (src && src->pl && pl != src->pl))
				continue;
			pt->pl = pl;
			pt->pt = &o->parts[pl->part];
			pt->n1 = h[i];
			pt->n2 = w[j];
			st = SIM_TOO_LARGE;
			if (design_time(o, pt, src, &tt) && (!best ||
			    tt.cycles < t->cycles)) {
				best = pl;
				*t = tt;
			}
		}
	}
	if (!best)
		return st;
	pt->pl = best;
	pt->pt = &o->parts[best->part];
	pt->n1 = pt->pt->n1;
	pt->n2 = best->n2;
	return SIM_OK;
}

/* Evaluates a point with "src" for the ACK compute; out->status says
 * whether it is legal.
 */
static void evaluate(const struct overlay *o, const int32_t *knobs,
	const struct ack_source *src, struct point *pt, struct totals *t,
	sim_metrics *out)
{
	int st;

	memset(out, 0, sizeof(*out));
	memset(t, 0, sizeof(*t));
	st = read_point(o, knobs, pt);
	if (st == SIM_OK)
		st = choose(o, pt, src, t);
	if (st == SIM_OK && !resources(o, pt, out))
		st = SIM_TOO_LARGE;
	if (st != SIM_OK) {
		memset(out, 0, sizeof(*out));
		out->status = st;
		return;
	}
	set_time(o, pt, t, out);
	out->n_pe = pt->n_pe;
	out->pe_rows = pt->p;
	out->pe_cols = pt->p;
	out->ii = 1;
	out->status = SIM_OK;
}

static void overlay_eval(const void *self, const int32_t *knobs,
	sim_metrics *out)
{
	struct point pt;
	struct totals t;

	evaluate(self, knobs, NULL, &pt, &t, out);
}

/* --- the cycle models ------------------------------------------------------
 *
 * Every (mode, passes) pair the plan needs runs over every tile of the
 * partition (gnn__ack_partition): a subshard's cycles depend on nothing
 * else, so each is run once per pair and the fibers sharing the pair
 * reuse it.  The sampled model's interval on the design's time comes from
 * the interval of the ACK cycles (their estimated total's variance summed
 * over pairs, weighted by how often the design uses each, with
 * Satterthwaite's degrees of freedom): the time is monotone in them.
 */

/* Tiles drawn per stratum when the options ask for none (core/report.h's
 * default of 4 is for the tile classes of systolic arrays; the strata
 * here are fewer and wider, and 8 keeps the sampled model within a few
 * percent of the full one on the presets, bench/bench_gnn.c).
 */
#define DEFAULT_SAMPLES 8

/* The (mode, passes) pairs of a plan and how often each is used: an
 * SpDMM pair once per fiber of an Aggregate layer, an SDDMM pair once per
 * fiber of a Vector-Inner layer.
 */
static int collect_pairs(const struct overlay *o, const struct point *pt,
	struct ack_source *src)
{
	const gnn_plan *plan = pt->pl->plan;
	int64_t b, nb = gnn_plan_n_blocks(plan), f;
	double rows = (double) (pt->pt->count ? pt->pt->count : 1);
	double subs = (double) (pt->pt->n_sub ? pt->pt->n_sub : 1);

	(void) o;
	for (b = 0; b < nb; b++) {
		const gnn_block *bl = gnn_plan_block(plan, b);
		int64_t fibers = bl->kernel == GNN_K_SDDMM ?
			dse_cdiv(bl->k, pt->n2) : 1;

		if (bl->kernel != GNN_K_SPDMM && bl->kernel != GNN_K_SDDMM)
			continue;
		for (f = 0; f < fibers; f++) {
			int64_t w = bl->kernel == GNN_K_SPDMM ? bl->cols :
				f + 1 < fibers ? pt->n2 : bl->k - f * pt->n2;
			int mode = bl->kernel == GNN_K_SPDMM ? GNN__ACK_SPDMM :
				GNN__ACK_SDDMM, passes = (int) dse_cdiv(w, pt->p), i;
			struct ack_pair *grown;

			for (i = 0; i < src->n_pairs; i++)
				if (src->pair[i].mode == mode &&
				    src->pair[i].passes == passes)
					break;
			if (i == src->n_pairs) {
				grown = realloc(src->pair, (size_t) (i + 1) *
					sizeof(*grown));
				if (!grown)
					return 0;
				src->pair = grown;
				memset(&grown[i], 0, sizeof(grown[i]));
				grown[i].mode = mode;
				grown[i].passes = passes;
				src->n_pairs++;
			}
			src->pair[i].uses += 1.0 / (mode == GNN__ACK_SPDMM ?
				rows : subs);
		}
	}
	return 1;
}

static void source_free(struct ack_source *src)
{
	int i;

	for (i = 0; i < src->n_pairs; i++)
		gnn__ack_result_clear(&src->pair[i].res);
	free(src->pair);
}

/* Adds a module class to a report. */
static void module(sim_cycle_report *out, const char *name, double count,
	double busy, double stall_in, double stall_out)
{
	sim_module_stat *m;

	if (out->n_modules >= SIM_MAX_MODULES || count <= 0)
		return;
	m = &out->module[out->n_modules++];
	memset(m, 0, sizeof(*m));
	strncpy(m->name, name, sizeof(m->name) - 1);
	m->count = (int) count;
	m->busy = (uint64_t) llround(busy / count);
	m->stall_in = (uint64_t) llround((stall_in > 0 ? stall_in : 0) / count);
	m->stall_out = (uint64_t) llround(stall_out / count);
}

/* The module classes: the ACK's parts summed over the design's runs (per
 * module of the class), the PEs and the DRAM channel.  The ISN and DSN
 * figures are per port: index-cycles and pair-cycles spent waiting.
 */
static void report_modules(const struct point *pt, const struct totals *t,
	const struct ack_source *src, sim_cycle_report *out)
{
	struct gnn__ack_stats a;
	double n = pt->n_pe, k = pt->k, p = pt->p, ack = 0;
	int i;

	memset(&a, 0, sizeof(a));
	for (i = 0; src && i < src->n_pairs; i++) {
		const struct ack_pair *pr = &src->pair[i];
		const struct gnn__ack_stats *s = &pr->res.st;

		a.issue_cycles += (uint64_t) (pr->uses * s->issue_cycles);
		a.eb_stall += (uint64_t) (pr->uses * s->eb_stall);
		a.isn_wait += (uint64_t) (pr->uses * s->isn_wait);
		a.bank_reads += (uint64_t) (pr->uses * s->bank_reads);
		a.bank_blocked += (uint64_t) (pr->uses * s->bank_blocked);
		a.dsn_wait += (uint64_t) (pr->uses * s->dsn_wait);
		a.ur_busy += (uint64_t) (pr->uses * s->ur_busy);
		a.raw_stall += (uint64_t) (pr->uses * s->raw_stall);
		ack += pr->uses * pr->res.cycles;
	}
	module(out, "PE", n, t->busy, n * t->cycles - t->busy, 0);
	if (src && src->n_pairs) {
		module(out, "edge_buffer", n, (double) a.issue_cycles,
			0, (double) a.eb_stall);
		module(out, "isn", n * p, (double) a.issue_cycles * p, 0,
			(double) a.isn_wait);
		module(out, "feature_banks", n * p, (double) a.bank_reads, 0,
			(double) a.bank_blocked);
		module(out, "dsn", n * k, (double) a.ur_busy, 0,
			(double) a.dsn_wait);
		module(out, "ur_pipelines", n * k, (double) a.ur_busy,
			ack * k - (double) a.ur_busy - (double) a.raw_stall,
			(double) a.raw_stall);
		module(out, "raw_unit", n * k, 0, 0, (double) a.raw_stall);
	}
	module(out, "dram", 1, t->bytes / pt->bpc, 0, 0);
}

/* Runs every pair; fills the tile counts, the simulated PE-cycles, the
 * t quantile of the interval and its half-width on the weighted ACK
 * cycles, and their estimated part.
 */
static int run_pairs(const struct overlay *o, const struct point *pt,
	struct ack_source *src, int samples, const sim_cycle_opts *opt,
	sim_cycle_report *out, double *tq, double *half, double *est)
{
	double var = 0, dfd = 0, conf = opt && opt->confidence > 0 &&
		opt->confidence < 1 ? opt->confidence : 0.95;
	uint64_t seed = opt ? opt->seed : 0;
	int i;

	*tq = *half = *est = 0;
	for (i = 0; i < src->n_pairs; i++) {
		struct ack_pair *pr = &src->pair[i];
		struct gnn__ack_result *r = &pr->res;
		struct gnn__ack_cfg c;
		int per_sub = pr->mode == GNN__ACK_SDDMM;
		int64_t j, n = per_sub ? pt->pt->n_sub : pt->pt->count;

		gnn__ack_default_cfg(&c, pt->p, pr->mode, pr->passes,
			&o->dtype);
		if (!gnn__ack_partition(&c, &pt->pt->view, pt->half, per_sub,
		    samples, seed ^ (0x632be59bd9b4e019ull *
		    (uint64_t) (i + 1)), r))
			return 0;
		out->tiles += r->tiles;
		out->tiles_simulated += r->simulated;
		out->pe_cycles += (uint64_t) r->sim_cycles;
		var += pr->uses * pr->uses * r->var_total;
		dfd += pr->uses * pr->uses * pr->uses * pr->uses * r->dfd;
		for (j = 0; j < n; j++)
			*est += pr->uses * r->est[j];
	}
	if (var > 0) {
		*tq = sim_t_quantile(0.5 + conf / 2, dfd > 0 ?
			var * var / dfd : 1);
		*half = *tq * sqrt(var);
	}
	return 1;
}

/* The interval's ends: the estimated parts at the ends of the interval of
 * their total ("rel" of it either way), and every row or subshard "tq"
 * standard deviations of its own estimate further out (the design's time
 * follows its slowest blocks, not only the total).
 */
static void interval(const struct overlay *o, const int32_t *knobs,
	struct ack_source *src, double rel, double tq, sim_cycle_report *out)
{
	struct point pt;
	struct totals t;
	sim_metrics m;

	src->lambda = 1 - rel > 0 ? 1 - rel : 0;
	src->spread = -tq;
	evaluate(o, knobs, src, &pt, &t, &m);
	out->cycles_low = t.cycles;
	src->lambda = 1 + rel;
	src->spread = tq;
	evaluate(o, knobs, src, &pt, &t, &m);
	out->cycles_high = t.cycles;
	src->lambda = 1.0;
	src->spread = 0;
}

static dse_stat overlay_simulate(const void *self, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	const struct overlay *o = self;
	struct ack_source src = { 0, NULL, 1.0, 0.0, NULL };
	struct point pt;
	struct totals t;
	double half = 0, est = 0, tq = 0;
	int samples = opt && opt->samples > 0 ? opt->samples :
		DEFAULT_SAMPLES;

	memset(out, 0, sizeof(*out));
	if (kind < 0 || kind >= SIM_N_MODEL_KINDS)
		return dse_error_set(err, DSE_E_RUNTIME, "gnn-overlay: "
			"unknown model %d", kind);
	out->model = kind;
	evaluate(o, knobs, NULL, &pt, &t, &out->metrics);
	if (out->metrics.status != SIM_OK)
		return dse_stat_ok;
	if (kind != SIM_MODEL_ANALYTIC) {
		src.pl = pt.pl;
		if (!collect_pairs(o, &pt, &src) ||
		    !run_pairs(o, &pt, &src, kind == SIM_MODEL_FULL ? 0 :
		    samples, opt, out, &tq, &half, &est)) {
			source_free(&src);
			return dse_error_set(err, DSE_E_NOMEM,
				"out of memory in the overlay cycle model");
		}
		evaluate(o, knobs, &src, &pt, &t, &out->metrics);
	} else {
		/* The tiles the cycle models would run. */
		int64_t s;

		for (s = 0; s < pt.pt->n_sub; s++)
			out->tiles += (uint64_t) dse_cdiv(pt.pt->sub_edges[s],
				pt.half);
	}
	out->cycles_low = out->cycles_high = (double) out->metrics.cycles;
	if (half > 0 && est > 0)
		interval(o, knobs, &src, half / est, tq, out);
	out->fraction = out->tiles ? (double) out->tiles_simulated /
		(double) out->tiles : 0;
	if (out->metrics.latency_s > 0)
		out->dram_gbps = (double) out->metrics.offchip_bytes /
			out->metrics.latency_s / 1e9;
	if (t.cycles > 0)
		out->pe_utilisation = t.busy / (pt.n_pe * t.cycles);
	report_modules(&pt, &t, &src, out);
	source_free(&src);
	return dse_stat_ok;
}

/* --- why a point is illegal ---------------------------------------------- */

static int overlay_why(const void *self, const int32_t *knobs, char *buf,
	size_t size)
{
	const struct overlay *o = self;
	int32_t v[N_KNOBS];
	int64_t h[MAX_HEIGHTS];
	int k, n, i, any = 0, len;

	for (k = 0; k < N_KNOBS; k++)
		v[k] = knobs[o->knob[k]];
	len = knob_fault(o, v, buf, size);
	if (len > 0)
		return len;
	{
		struct point pt;
		struct totals t;
		sim_metrics m;

		evaluate(o, knobs, NULL, &pt, &t, &m);
		if (m.status != SIM_BAD_KNOB)
			return snprintf(buf, size, "%s", "");
	}
	/* read_point passed, so choose found no partition: no shard
	 * height of the ladder is a multiple of p_sys.
	 */
	n = gnn__ovl_shard_heights(o, v[K_PE], v[K_N1], h);
	for (i = 0; i < n; i++)
		any |= h[i] % v[K_PSYS] == 0;
	if (!any)
		return snprintf(buf, size, "none of the %d shard heights the "
			"compiler derives from feat_rows = %d and n_pe = %d "
			"(the largest %lld) is a multiple of p_sys = %d", n,
			(int) v[K_N1], (int) v[K_PE],
			(long long) (n ? h[0] : 0), (int) v[K_PSYS]);
	return snprintf(buf, size, "no partition of the graph fits "
		"feat_rows = %d x feat_cols = %d", (int) v[K_N1],
		(int) v[K_N2]);
}

const struct gnn__family_ops gnn__overlay_ops = {
	overlay_alloc,
	overlay_free,
	gnn__ovl_prepare,
	overlay_eval,
	overlay_simulate,
	overlay_why,
};
