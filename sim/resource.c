/* sim: the resources of a design point, counted over every module, buffer
 * and FIFO that AutoSA's code generator emits for it.
 *
 * AutoSA (src/autosa_codegen.cpp, autosa_comm.cpp, autosa_common.cpp and
 * autosa_xilinx_hls_c.cpp) builds, for a 2-D array:
 * - PEs, each with a local variable per array: the accumulator of the
 *   array it updates over its tile (local_C[lat_i][lat_j] in matrix
 *   multiply) and the operands of one step (local_A[1][S]);
 * - per I/O group, modules at each level: interior groups a module beside
 *   every PE at L1 holding the group's buffer, chained into one L2 module
 *   per column of PEs; exterior groups one L2 module per PE line holding
 *   the buffer (their L1 modules are embedded in the PEs) and a dummy
 *   module ending each line; every group one L3 module at DRAM;
 * - buffers double-buffered (ping and pong) except in the PEs and in the
 *   drain modules, which write final results out;
 * - buffer words packed: data_pack_inter at each level is the largest
 *   power-of-two multiple of the group's SIMD lane (S when the access
 *   moves along the simd loop, else 1) that divides the innermost
 *   dimension of the buffer's tile and is at most max(lane, the level's
 *   --data-pack-sizes bound / element bytes); levels without a buffer
 *   keep the packing of the level below, and the outermost level widens
 *   again from the nearest buffer's tile;
 * - memory (extract_memory_type): a buffer of a module at DRAM goes to
 *   URAM with --uram, else to BRAM; any other buffer to registers when
 *   its words are single elements and it has at most 8 of them, else to
 *   BRAM (RAM_1P_BRAM or RAM_2P_BRAM); AutoSA's current generator binds
 *   no buffer to LUTRAM.  A PE variable is partitioned cyclically by the
 *   lane of its groups; partitions of one word each make the array a set
 *   of registers (the partitioning is complete), whatever the binding;
 * - FIFOs of depth 2 between every pair of connected modules, always in
 *   shift registers (core=FIFO_SRL), of the width of the words they carry.
 * BRAM18K of a buffer is, per partition, ceil(w/36) * ceil(depth/512)
 * for words wider than 18 bits and ceil(w/18) * ceil(depth/1024)
 * otherwise, as in AutoSA's resource_model.py (BRAM_array_predict_HLS).
 *
 * One walk serves sim_eval and the breakdown: sim_eval sums the rows, the
 * breakdown also names them, so the two can never disagree.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The pieces of the walk are inlined into it, so that sim_eval's
 * instance (no breakdown) drops the naming and keeps a row's fields in
 * registers.
 */
#define ROW_INLINE static inline __attribute__((always_inline))

/* AutoSA's default --data-pack-sizes, in bytes: innermost, intermediate
 * and outermost I/O level (the option's documented default,
 * kernel[]->data_pack[8,32,64]).
 */
static const int default_pack_bytes[3] = { 8, 32, 64 };

/* The most single elements AutoSA keeps in registers rather than BRAM. */
#define FF_MAX_WORDS 8

/* One row of the walk: "count" instances of a module, or of a buffer or
 * FIFO kind, with the cost of one instance (all its copies).
 */
struct row {
	int kind;		/* enum sim_part_kind */
	int level;
	int io;			/* its network in m->io; -1 in the PEs */
	int pe_var;		/* its PE variable; -1 otherwise */
	int dummy;		/* a line's dummy module */
	int pe_fifo;		/* FIFOs between the PEs and their module */
	int width, copies, mem;
	int64_t count, depth, banks;
	int64_t dsp, bram, uram, lut, ff;	/* of one instance */
};

/* The running totals, the I/O network's logic (what the multicast
 * crossbar makes larger) and, for a breakdown, the named rows.  The sums
 * are 128 bits wide: a row is a product of two 64-bit numbers, and a few
 * dozen such rows cannot overflow them, so the walk needs no check per
 * row; the totals are checked against the resource limit at the end.
 */
typedef __int128 wide;

struct tally {
	wide dsp, bram, uram, lut, ff;
	wide net_lut, net_ff;
	int too_large;		/* a buffer beyond the limit */
	sim_part *parts;
	int n;
};

/* Whether the footprint moves along "loop" (in any dimension). */
static int fp_moves(const sim__footprint *fp, int loop)
{
	int d, i;

	for (d = 0; loop >= 0 && d < fp->n_dims; d++)
		for (i = 0; i < fp->dim[d].n_terms; i++)
			if (fp->dim[d].loop[i] == loop)
				return 1;
	return 0;
}

/* Whether the access walks its innermost dimension with stride one along
 * "loop" and no other dimension with it: AutoSA then packs its words S
 * wide for the simd loop (update_group_simd); other accesses under the
 * simd loop keep single elements.
 */
static int fp_unit_inner(const sim__footprint *fp, int loop)
{
	const struct sim__fp_dim *in;
	int d, i, unit = 0;

	if (loop < 0 || fp->n_dims < 1)
		return 0;
	in = &fp->dim[fp->n_dims - 1];
	for (i = 0; i < in->n_terms; i++)
		unit |= in->loop[i] == loop && in->coef[i] == 1;
	for (d = 0; unit && d + 1 < fp->n_dims; d++)
		for (i = 0; i < fp->dim[d].n_terms; i++)
			if (fp->dim[d].loop[i] == loop)
				return 0;
	return unit;
}

static void add_io(sim_model *m, const poly_group *gr,
	const sim__footprint *fp, unsigned dir0, int input, int drain)
{
	sim__io *io = &m->io[m->n_io++];

	memcpy(io->array, gr->array, sizeof(io->array));
	io->fp = *fp;
	io->input = input;
	io->drain = drain;
	io->interior = gr->type == POLY_IO_INTERIOR;
	io->levels = gr->levels < 2 ? 2 : gr->levels > 3 ? 3 : gr->levels;
	io->buffer_level = gr->buffer_level;
	io->dir0_mask = dir0;
	io->packed = fp_unit_inner(fp, m->simd_loop);
}

/* Whether the array's values accumulate inside one PE: it has a flow
 * group that stays in the PE (pruned or interior).
 */
static int accumulates(const poly_template *t, const char *array)
{
	int g;

	for (g = 0; g < t->n_groups; g++)
		if (t->group[g].kind == POLY_DEP_FLOW &&
		    t->group[g].type == POLY_IO_INTERIOR &&
		    !strcmp(t->group[g].array, array))
			return 1;
	return 0;
}

/* One PE variable per array the statement touches, from its written
 * access when there is one; an array with a flow of values that stays in
 * the PE is its accumulator.
 */
static void setup_pe_vars(sim_model *m)
{
	const poly_template *t = &m->tmpl;
	int a, v;

	for (a = 0; a < t->n_accesses; a++) {
		const poly_access *x = &t->access[a];
		sim__pe_var *pv = NULL;

		for (v = 0; v < m->n_pe_var; v++)
			if (!strcmp(m->pe_var[v].array, x->array))
				pv = &m->pe_var[v];
		if (pv && !x->write)
			continue;
		if (!pv) {
			pv = &m->pe_var[m->n_pe_var++];
			snprintf(pv->array, sizeof(pv->array), "%s",
				x->array);
		}
		sim__footprint_compile(t, a, &pv->fp);
		pv->acc = accumulates(t, x->array);
		pv->moves = fp_moves(&pv->fp, m->simd_loop);
		pv->packed = fp_unit_inner(&pv->fp, m->simd_loop);
	}
}

/* The operators of one lane.  A statement of n operations that
 * accumulates is a sum of a product: n - 1 multipliers and one adder (a
 * multiply-add is 2 operations, MTTKRP's A*B*C summed 3); one that does
 * not accumulate is a product of n + 1 operands.
 */
static void setup_lane(sim_model *m, const sim_options *opt)
{
	int ops = m->tmpl.ops_per_point > 0 ? m->tmpl.ops_per_point : 1;
	int adds = ops >= 2 || m->carried ? 1 : 0;
	int muls = ops - adds;

	m->dsp_mul_lane = muls * m->dtype.dsp_mul;
	m->dsp_add_lane = adds * m->dtype.dsp_add;
	m->mul_per_dsp = opt && opt->dsp_packing && m->dtype.mul_per_dsp > 1 ?
		m->dtype.mul_per_dsp : 1;
	m->lane_lut = muls * m->lane.lut_mul + adds * m->lane.lut_add;
	m->lane_ff = muls * m->lane.ff_mul + adds * m->lane.ff_add;
}

/* The FIFOs' memory and, in shift registers, the two coefficients of
 * their cost in the width (read back from arch_fifo_cost).
 */
static void setup_fifos(sim_model *m)
{
	int64_t l1, f1, l2, f2, b;

	m->fifo_mem = arch_fifo_mem(m->logic.fifo_depth);
	arch_fifo_cost(1, m->logic.fifo_depth, &l1, &f1, &b);
	arch_fifo_cost(2, m->logic.fifo_depth, &l2, &f2, &b);
	m->fifo_lut[1] = l2 - l1;
	m->fifo_lut[0] = l1 - m->fifo_lut[1];
	m->fifo_ff[1] = f2 - f1;
	m->fifo_ff[0] = f1 - m->fifo_ff[1];
	/* The coefficients stand only where the cost is linear. */
	arch_fifo_cost(1000, m->logic.fifo_depth, &l2, &f2, &b);
	m->fifo_linear = m->fifo_mem == ARCH_MEM_SRL && b == 0 &&
		l2 == m->fifo_lut[0] + 1000 * m->fifo_lut[1] &&
		f2 == m->fifo_ff[0] + 1000 * m->fifo_ff[1];
}

void sim__res_setup(sim_model *m, const sim_options *opt)
{
	const poly_template *t = &m->tmpl;
	int bytes = (m->bits + 7) / 8, g, i;

	setup_lane(m, opt);
	setup_fifos(m);
	m->uram = opt && opt->uram;
	for (i = 0; i < 3; i++)
		m->pack_words[i] = (opt && opt->data_pack[i] > 0 ?
			opt->data_pack[i] : default_pack_bytes[i]) / bytes;
	m->n_io = 0;
	for (g = 0; g < m->n_in; g++)
		add_io(m, &t->group[m->in[g].group], &m->in[g].fp,
			m->in[g].dir0_mask, 1, 0);
	for (g = 0; g < m->n_out; g++)
		add_io(m, &t->group[m->out[g].group], &m->out[g].fp,
			m->out[g].dir0_mask, 0, !m->out[g].every_tile);
	m->n_pe_var = 0;
	setup_pe_vars(m);
}

/* The module a row belongs to, as AutoSA names it ("A_IO_L2_in",
 * "C_drain_IO_L1_out", "A_PE_dummy_in", "PE").
 */
static void module_name(const sim_model *m, const struct row *r, char *buf,
	size_t size)
{
	const sim__io *io = r->io >= 0 ? &m->io[r->io] : NULL;

	if (!io)
		snprintf(buf, size, "%s", r->level < 0 ? "multicast" : "PE");
	else if (r->dummy)
		snprintf(buf, size, "%s_PE_dummy_%s", io->array,
			io->input ? "in" : "out");
	else
		snprintf(buf, size, "%s_%sIO_L%d_%s", io->array,
			io->drain ? "drain_" : "", r->level,
			io->input ? "in" : "out");
}

/* Names the row in the breakdown: a buffer after its array, a FIFO
 * after the array and the modules it joins.
 */
static __attribute__((noinline, cold)) void record(const sim_model *m,
	const struct row *r, struct tally *t)
{
	sim_part *p = &t->parts[t->n++];
	const sim__io *io = r->io >= 0 ? &m->io[r->io] : NULL;
	const char *array = io ? io->array :
		r->pe_var >= 0 ? m->pe_var[r->pe_var].array : "";

	memset(p, 0, sizeof(*p));
	p->kind = r->kind;
	module_name(m, r, p->module, sizeof(p->module));
	if (r->kind == SIM_PART_BUFFER)
		snprintf(p->name, sizeof(p->name), "local_%s", array);
	else if (r->kind == SIM_PART_FIFO)
		snprintf(p->name, sizeof(p->name), "fifo_%s%s_%.48s", array,
			io && io->drain ? "_drain" : "",
			r->pe_fifo ? "PE" : p->module);
	else
		snprintf(p->name, sizeof(p->name), "%s", p->module);
	p->level = r->level < 0 || r->pe_var >= 0 ? 0 : r->level;
	p->count = r->count;
	p->width = r->width;
	p->depth = r->depth;
	p->banks = r->banks;
	p->copies = r->copies;
	p->mem = r->kind == SIM_PART_MODULE ? -1 : r->mem;
	(void) sim__count((double) r->count * (double) r->dsp, &p->dsp);
	(void) sim__count((double) r->count * (double) r->bram, &p->bram18k);
	(void) sim__count((double) r->count * (double) r->uram, &p->uram);
	(void) sim__count((double) r->count * (double) r->lut, &p->lut);
	(void) sim__count((double) r->count * (double) r->ff, &p->ff);
}

/* Adds a row to the totals (and to the breakdown when there is one).
 * The row writers are inlined into the walk, so that a row's fields stay
 * in registers on sim_eval's path.
 */
ROW_INLINE void put(const sim_model *m, const struct row *r, struct tally *t,
	int network)
{
	wide n = r->count, lut, ff;

	if (r->count <= 0)
		return;
	/* Only a PE has DSP and only a buffer or a FIFO BRAM or URAM. */
	if (r->kind != SIM_PART_MODULE) {
		t->bram += n * r->bram;
		t->uram += n * r->uram;
	} else if (r->io < 0 && r->level == 0) {
		t->dsp += n * r->dsp;
	}
	lut = n * r->lut;
	ff = n * r->ff;
	t->lut += lut;
	t->ff += ff;
	if (network) {
		t->net_lut += lut;
		t->net_ff += ff;
	}
	if (t->parts && t->n < SIM_MAX_PARTS)
		record(m, r, t);
}

/* A total as a count: 0 when it is beyond the resource limit. */
static inline int total(wide v, int64_t *out)
{
	if (v < 0 || v > (wide) SIM__RESOURCE_LIMIT)
		return 0;
	*out = (int64_t) v;
	return 1;
}

/* A buffer row: "words" elements packed "lane" to a word, in "banks"
 * cyclic partitions and "copies" copies, bound by AutoSA's rule.
 */
ROW_INLINE void put_buffer(const sim_model *m, struct row *r, int64_t words,
	int64_t lane, int to_dram, struct tally *t)
{
	arch_mem_cost c;
	int64_t depth = (lane & (lane - 1)) == 0 ? (words + lane - 1) >>
		__builtin_ctzll((unsigned long long) lane) :
		(words + lane - 1) / lane;
	double bits = (double) m->bits * (double) lane;

	if (bits * (double) depth * (double) r->copies > 1e18 ||
	    bits > INT_MAX) {
		t->too_large = 1;
		return;
	}
	r->kind = SIM_PART_BUFFER;
	r->width = (int) bits;
	r->depth = depth;
	if (to_dram)
		r->mem = m->uram ? ARCH_MEM_URAM : ARCH_MEM_BRAM;
	else if ((lane == 1 && depth <= FF_MAX_WORDS) ||
		 (r->banks > 1 && (depth + r->banks - 1) / r->banks <= 1))
		r->mem = ARCH_MEM_FF;
	else
		r->mem = ARCH_MEM_BRAM;
	arch_buffer_cost(r->mem, r->width, depth, r->banks, &c);
	r->dsp = 0;
	r->bram = c.bram18k * r->copies;
	r->uram = c.uram * r->copies;
	r->lut = c.lut * r->copies;
	r->ff = c.ff * r->copies;
	put(m, r, t, 0);
}

/* "count" FIFOs of words "lane" elements wide.  A FIFO's cost is linear
 * in its width when it sits in shift registers (arch_fifo_cost), as every
 * depth-2 FIFO of AutoSA's does: then the model's two coefficients give it
 * without a call.
 */
ROW_INLINE void put_fifos(const sim_model *m, struct row *r, int64_t count,
	int64_t lane, struct tally *t)
{
	int64_t lut, ff, bram, w = (int64_t) m->bits * lane;

	r->kind = SIM_PART_FIFO;
	r->count = count;
	r->width = (int) (w > INT_MAX ? INT_MAX : w);
	r->depth = m->logic.fifo_depth;
	r->banks = r->copies = 1;
	r->mem = m->fifo_mem;
	if (m->fifo_linear) {
		lut = m->fifo_lut[0] + m->fifo_lut[1] * r->width;
		ff = m->fifo_ff[0] + m->fifo_ff[1] * r->width;
		bram = 0;
	} else {
		arch_fifo_cost(r->width, r->depth, &lut, &ff, &bram);
	}
	r->dsp = r->uram = 0;
	r->bram = bram;
	r->lut = lut;
	r->ff = ff;
	put(m, r, t, 1);
}

/* A module row of the network: its control logic. */
ROW_INLINE void put_module(const sim_model *m, struct row *r, int64_t count,
	int to_dram, struct tally *t)
{
	r->kind = SIM_PART_MODULE;
	r->count = count;
	r->width = r->copies = 0;
	r->depth = r->banks = 0;
	r->mem = -1;
	r->dsp = r->bram = r->uram = 0;
	r->lut = r->dummy ? m->logic.dummy_lut : to_dram ?
		m->logic.dram_lut : m->logic.io_lut;
	r->ff = r->dummy ? m->logic.dummy_ff : to_dram ?
		m->logic.dram_ff : m->logic.io_ff;
	put(m, r, t, 1);
}

/* The data packing of a level: the largest power-of-two multiple of
 * "cur" that divides "run" and is at most max(lane, cap); "cur" when
 * none does.  AutoSA doubles the factor from "cur" while it stays within
 * the bound and keeps the last that divides the run; as divisibility by
 * cur x 2^b holds for every b up to the twos in run / cur, that is cur x
 * the smaller of those twos and the largest power of two within
 * bound / cur.
 */
static inline int64_t widen(int64_t cur, int64_t lane, int64_t cap,
	int64_t run)
{
	int64_t top = cap > lane ? cap : lane, q, lim, twos;

	if (cur <= 0 || run <= 0 || cur > top)
		return cur;
	if ((cur & (cur - 1)) == 0) {
		int sh = __builtin_ctzll((unsigned long long) cur);

		if (run & (cur - 1))
			return cur;
		q = run >> sh;
		lim = top >> sh;
	} else {
		if (run % cur)
			return cur;
		q = run / cur;
		lim = top / cur;
	}
	twos = q & -q;
	lim = (int64_t) 1 << (63 - __builtin_clzll((unsigned long long) lim));
	return cur * (twos < lim ? twos : lim);
}

/* The modules of a network at each level (index 0 is L1), and the tile
 * of its buffers.
 */
struct levels {
	int n;
	int64_t count[3];
	int has[3];
	int64_t words[3], run[3], lane[3];
};

ROW_INLINE void io_levels(const sim_model *m, const sim__shape *sh,
	const sim__io *io, struct levels *v)
{
	int64_t lt[POLY_MAX_LOOPS], g = io->packed ? sh->s : 1, cur = g;
	int top = io->levels - 1, i, last = -1;

	for (i = 0; i < 3; i++) {
		v->count[i] = 0;
		v->has[i] = 0;
	}
	v->n = io->levels;
	if (io->interior) {
		v->count[0] = sh->n_pe;
		if (top >= 2)
			v->count[1] = sh->n_pe / sh->p[0];
	} else {
		v->count[1] = sim__lines(m, sh->lat, io->dir0_mask, sh->t1,
			lt);
	}
	if (io->interior || top >= 2)
		v->count[top] = 1;
	if (io->buffer_level == POLY_L1) {
		v->has[0] = 1;
		v->words[0] = sim__footprint_words(&io->fp, sh->pe);
		v->run[0] = sim__footprint_run(&io->fp, sh->pe);
	} else if (io->buffer_level == POLY_L2) {
		/* lt was filled above: exterior networks buffer at L2. */
		if (io->interior)
			(void) sim__lines(m, sh->lat, io->dir0_mask, sh->t1,
				lt);
		v->has[1] = 1;
		v->words[1] = sim__footprint_words(&io->fp, lt);
		v->run[1] = sim__footprint_run(&io->fp, lt);
	}
	/* With a second tiling level an input's DRAM module holds an L2
	 * tile.
	 */
	if (m->l2 && io->input) {
		v->has[top] = 1;
		v->words[top] = sim__footprint_words(&io->fp, sh->t2);
		v->run[top] = sim__footprint_run(&io->fp, sh->t2);
	}
	for (i = 0; i < v->n && i < 3; i++) {
		int64_t cap = m->pack_words[i == 0 ? 0 : i < top ? 1 : 2];

		if (v->has[i]) {
			cur = widen(cur, g, cap, v->run[i]);
			last = i;
		} else if (i == top && last >= 0) {
			cur = widen(cur, g, cap, v->run[last]);
		}
		v->lane[i] = cur;
	}
}

/* One network: its modules, buffers and FIFOs at each level, and its
 * dummy modules.
 */
ROW_INLINE void io_parts(const sim_model *m, const sim__shape *sh, int k,
	struct tally *t)
{
	const sim__io *io = &m->io[k];
	struct levels v;
	struct row r;
	int i, top = io->levels - 1;
	int64_t g = io->packed ? sh->s : 1;

	io_levels(m, sh, io, &v);
	/* Every field a row uses is set by put_module, put_buffer and
	 * put_fifos; these are the row's identity.
	 */
	r.io = k;
	r.pe_var = -1;
	r.dummy = r.pe_fifo = 0;
	for (i = 0; i < v.n && i < 3; i++) {
		if (v.count[i] <= 0)
			continue;
		r.level = i + 1;
		put_module(m, &r, v.count[i], i == top, t);
		if (v.has[i]) {
			r.banks = 1;
			r.copies = sh->db && !io->drain ? 2 : 1;
			put_buffer(m, &r, v.words[i], v.lane[i], i == top, t);
		}
		/* The FIFOs into (or out of) every PE, one more per line
		 * that an exterior network passes on to its dummy module,
		 * belong to the modules beside the PEs.
		 */
		if (i == (io->interior ? 0 : 1)) {
			r.pe_fifo = 1;
			put_fifos(m, &r, sh->n_pe + (io->interior ? 0 :
				v.count[1]), g, t);
			r.pe_fifo = 0;
		}
		/* The chain of a level, one FIFO a module and one into (or
		 * out of) each module of the level above, which heads it.
		 */
		if (i < top)
			put_fifos(m, &r, v.count[i] + v.count[i + 1],
				v.lane[i], t);
	}
	if (!io->interior) {
		r.level = 1;
		r.dummy = 1;
		put_module(m, &r, v.count[1], 0, t);
	}
}

/* DSP of one PE: S lanes of multipliers, packed mul_per_dsp to a slice
 * when packing is on, and of adders.
 */
static inline int64_t pe_dsp(const sim_model *m, int64_t s)
{
	int64_t mul = s * m->dsp_mul_lane;

	return (mul + m->mul_per_dsp - 1) / m->mul_per_dsp +
		s * m->dsp_add_lane;
}

/* The PE module row: control, lanes and DSP of one PE. */
ROW_INLINE void pe_row(const sim_model *m, const sim__shape *sh, struct row *r)
{
	memset(r, 0, sizeof(*r));
	r->kind = SIM_PART_MODULE;
	r->io = r->pe_var = -1;
	r->mem = -1;
	r->count = sh->n_pe;
	r->dsp = pe_dsp(m, sh->s);
	r->lut = m->logic.pe_lut + sh->s * m->lane_lut;
	r->ff = m->logic.pe_ff + sh->s * m->lane_ff;
}

/* The words of a PE variable: the accumulator over the PE's tile, the
 * operands of one step.
 */
ROW_INLINE int64_t pe_var_words(const sim__pe_var *v, const sim__shape *sh)
{
	if (v->acc)
		return sim__footprint_words(&v->fp, sh->pe);
	return v->moves ? sh->s : 1;
}

/* The PEs and their variables. */
ROW_INLINE void pe_parts(const sim_model *m, const sim__shape *sh,
	struct tally *t)
{
	struct row r;
	int v;

	pe_row(m, sh, &r);
	put(m, &r, t, 0);
	for (v = 0; v < m->n_pe_var; v++) {
		r.pe_var = v;
		r.level = 0;
		r.banks = m->pe_var[v].packed ? sh->s : 1;
		r.copies = 1;
		put_buffer(m, &r, pe_var_words(&m->pe_var[v], sh), 1, 0, t);
	}
}

/* The multicast crossbar's overhead on the I/O network's logic. */
ROW_INLINE void crossbar(const sim_model *m, const sim__shape *sh,
	struct tally *t)
{
	double over;
	int64_t lut, ff;
	struct row r;

	if (sh->net != SIM_NET_MULTICAST)
		return;
	over = arch_multicast_area(sh->max_p);
	/* Rounded to the nearest unit, so that a product that is a whole
	 * number on paper stays one.
	 */
	if (!sim__count(floor((double) t->net_lut * over + 0.5), &lut) ||
	    !sim__count(floor((double) t->net_ff * over + 0.5), &ff))
		return;
	memset(&r, 0, sizeof(r));
	r.kind = SIM_PART_MODULE;
	r.level = -1;
	r.io = r.pe_var = -1;
	r.mem = -1;
	r.count = 1;
	r.lut = lut;
	r.ff = ff;
	put(m, &r, t, 0);
}

ROW_INLINE int walk(const sim_model *m, const sim__shape *sh,
	sim_metrics *out, sim_part *parts, int *n_parts)
{
	struct tally t;
	int k;

	memset(&t, 0, sizeof(t));
	t.parts = parts;
	pe_parts(m, sh, &t);
	for (k = 0; k < m->n_io; k++)
		io_parts(m, sh, k, &t);
	crossbar(m, sh, &t);
	if (n_parts)
		*n_parts = t.n;
	if (t.too_large || !total(t.dsp, &out->dsp) ||
	    !total(t.bram, &out->bram18k) || !total(t.uram, &out->uram) ||
	    !total(t.lut, &out->lut) || !total(t.ff, &out->ff))
		return SIM_TOO_LARGE;
	return SIM_OK;
}

/* Two instances of the one walk: sim_eval's, which names nothing, and the
 * breakdown's.
 */
int sim__resources(const sim_model *m, const sim__shape *sh,
	sim_metrics *out, sim_part *parts, int *n_parts)
{
	if (!parts)
		return walk(m, sh, out, NULL, NULL);
	return walk(m, sh, out, parts, n_parts);
}

/* The PE module row is the first term of sim__resources' sums and every
 * other term is non-negative, so its DSP (all of the design's), LUT and
 * FF bound the design's; the PEs' accumulators bound its BRAM18K.  A
 * count beyond the limit leaves its bound 0.
 */
void sim__res_bound(const sim_model *m, const sim__shape *sh,
	sim_metrics *lower)
{
	struct tally t;
	struct row r;
	int v;

	pe_row(m, sh, &r);
	(void) sim__count((double) r.count * (double) r.dsp, &lower->dsp);
	(void) sim__count((double) r.count * (double) r.lut, &lower->lut);
	(void) sim__count((double) r.count * (double) r.ff, &lower->ff);
	memset(&t, 0, sizeof(t));
	for (v = 0; v < m->n_pe_var; v++) {
		if (!m->pe_var[v].acc)
			continue;
		r.pe_var = v;
		r.banks = m->pe_var[v].packed ? sh->s : 1;
		r.copies = 1;
		put_buffer(m, &r, pe_var_words(&m->pe_var[v], sh), 1, 0, &t);
	}
	if (!t.too_large)
		(void) total(t.bram, &lower->bram18k);
}

int sim_breakdown(const sim_model *model, const int32_t *knobs,
	sim_part *parts, int *n_parts, sim_metrics *total)
{
	sim__point p;
	sim__shape sh;
	sim_metrics m;
	int st;

	*n_parts = 0;
	sim_eval(model, knobs, &m);
	if (total)
		*total = m;
	if (m.status != SIM_OK)
		return m.status;
	st = sim__read_point(model, knobs, &p);
	if (st != SIM_OK)
		return st;
	sh.t1 = p.t1;
	sh.t2 = p.t2;
	sh.lat = p.lat;
	sh.pe = p.pe;
	sh.p = p.p;
	sh.s = p.s;
	sh.n_pe = p.n_pe;
	sh.max_p = p.max_p;
	sh.net = p.net;
	sh.db = p.db;
	return sim__resources(model, &sh, &m, parts, n_parts);
}
