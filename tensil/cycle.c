/* tensil: the cycle-level model of a layer program.
 *
 * The instruction stream the scheduler plans runs through an in-order
 * machine shaped like Tensil's processing unit: a decoder issues one
 * instruction a cycle into a short queue per functional unit; the units
 * (the DRAM0 and DRAM1 ports, the systolic array, the accumulators with
 * their SIMD ALUs) each run their own queue in order and overlap one
 * another unless an instruction reads or writes a local memory or
 * accumulator region that an instruction of another unit, earlier in the
 * program, still writes or reads.  Each stage reuses the same local and
 * accumulator regions (Tensil's allocator starts afresh for every stage),
 * so a stage's loads wait for the previous stage's reads of the same
 * region.  Both DRAM ports share one channel with the board's bandwidth;
 * a read sees the board's latency before its first beat (later reads on
 * the same port pipeline behind it), a write completes with its response
 * a latency after its last beat.
 *
 * What this captures beyond the analytic (latency-model) evaluation: the
 * overlap of weight loads with the previous stage's MatMuls, SIMD work and
 * write-back, and of DRAM1 with DRAM0 transfers; the shared channel and
 * real latency instead of a fixed setup; decoder stalls behind long runs
 * of one-cycle instructions (SIMD, one-pixel MatMuls).  Per unit the
 * instruction costs are the latency model's (vectors a cycle on chip,
 * Tensil's 128-bit DRAM transfers), so the two models differ only by what
 * the machine overlaps and waits for.
 *
 * Identical consecutive instructions run as one group (a run of SIMD
 * instructions, the MatMuls of a tile, the row loads of a stage).  The
 * sampled model simulates the first three output-channel blocks of each
 * layer (every block runs the same stages) and advances the machine by
 * the mean period of the second and third for the rest.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "internal.h"
#include "cycle_internal.h"

/* Instructions a unit's queue holds between the decoder and the unit (an
 * estimate: a two-entry queue per unit, the usual decoupling queue of a
 * Chisel design).
 */
#define QUEUE_DEPTH 2

enum region { R_WEIGHTS, R_INPUTS, R_RESID, R_SAVE, R_ACC, N_REGIONS };

#define BIT(r) (1u << (r))

struct machine {
	/* parameters */
	int a;
	double vb;		/* bytes a vector */
	double latency;		/* DRAM cycles to the first beat */
	double rd_rate;		/* bytes a cycle of one port reading */
	double wr_rate;		/* ... writing */
	double chan_rate;	/* bytes a cycle of the board's channel */
	/* state: times in cycles */
	double dec;		/* the decoder's next issue */
	double unit_free[TENSIL__N_UNITS];
	double q_ready[TENSIL__N_UNITS];
	double w_done[N_REGIONS][TENSIL__N_UNITS];
	double r_done[N_REGIONS][TENSIL__N_UNITS];
	double port_data[2];	/* end of the last transfer of each port */
	double chan_free;
	double makespan;
	struct tensil__cycle_stats st;
};

/* One group of identical instructions. */
struct group {
	int unit;		/* -1: the decoder alone (NoOp) */
	int op;			/* enum tensil_op */
	int64_t n;		/* instructions */
	int64_t v;		/* vectors in all */
	unsigned reads, writes;	/* regions */
	double extra;		/* extra cycles of the group (a MatMul after
				 * its LoadWeights) */
};

static double maxd(double a, double b)
{
	return a > b ? a : b;
}

static int unit_of(int op)
{
	switch (op) {
	case TENSIL_OP_DRAM0_LOAD:
	case TENSIL_OP_DRAM0_STORE:
		return TENSIL__U_DRAM0;
	case TENSIL_OP_DRAM1_LOAD:
		return TENSIL__U_DRAM1;
	case TENSIL_OP_LOAD_WEIGHTS:
	case TENSIL_OP_MATMUL:
		return TENSIL__U_ARRAY;
	case TENSIL_OP_NOOP:
		return -1;
	default:
		return TENSIL__U_ACC;
	}
}

/* When the regions a group touches are free of other units' accesses. */
static double hazard(const struct machine *m, const struct group *g)
{
	double t = 0;
	int r, u;

	for (r = 0; r < N_REGIONS; r++)
		for (u = 0; u < TENSIL__N_UNITS; u++) {
			if (u == g->unit)
				continue;
			if (g->reads & BIT(r))
				t = maxd(t, m->w_done[r][u]);
			if (g->writes & BIT(r))
				t = maxd(t, maxd(m->w_done[r][u],
					m->r_done[r][u]));
		}
	return t;
}

/* A DRAM transfer of "bytes" on port "p" from "start": the finish time.
 * The port moves its own data at "rate"; the channel serves every port's
 * transfers one after another at its own rate.
 */
static double transfer(struct machine *m, int p, double start, double bytes,
	double rate, int read)
{
	double t0 = maxd(read ? start + m->latency : start, m->port_data[p]);
	double c0 = maxd(t0, m->chan_free), end;

	m->chan_free = c0 + bytes / m->chan_rate;
	m->st.chan_busy += bytes / m->chan_rate;
	end = maxd(t0 + bytes / rate, m->chan_free);
	m->port_data[p] = end;
	return read ? end : end + m->latency;
}

/* The busy cycles of a group on its unit and its finish time. */
static double execute(struct machine *m, const struct group *g, double start,
	double *busy)
{
	double bytes = (double) g->v * m->vb;

	switch (g->op) {
	case TENSIL_OP_DRAM0_LOAD:
	case TENSIL_OP_DRAM1_LOAD:
		*busy = (double) g->n;
		return transfer(m, g->op == TENSIL_OP_DRAM1_LOAD, start, bytes,
			m->rd_rate, 1);
	case TENSIL_OP_DRAM0_STORE:
		*busy = (double) g->n;
		return transfer(m, 0, start, bytes, m->wr_rate, 0);
	case TENSIL_OP_SIMD:
		*busy = (double) g->n;
		return start + *busy;
	default:
		*busy = (double) g->v + g->extra;
		return start + *busy;
	}
}

static void run(struct machine *m, const struct group *g)
{
	double issue, ready, start, finish, busy, h;
	int u = g->unit, r;

	if (g->n <= 0)
		return;
	m->st.instructions += g->n;
	m->st.count[g->op] += g->n;
	if (u < 0) {
		m->dec += (double) g->n;
		return;
	}
	issue = maxd(m->dec, m->q_ready[u]);
	m->st.dec_stall += issue - m->dec;
	ready = maxd(issue + 1, m->unit_free[u]);
	h = hazard(m, g);
	start = maxd(ready, h);
	m->st.stall[u] += start - ready;
	finish = execute(m, g, start, &busy);
	m->st.busy[u] += busy;
	m->unit_free[u] = start + busy;
	m->q_ready[u] = g->n > QUEUE_DEPTH ?
		start + busy * (double) (g->n - QUEUE_DEPTH) / (double) g->n :
		start;
	m->dec = issue + (double) g->n;
	for (r = 0; r < N_REGIONS; r++) {
		if (g->reads & BIT(r))
			m->r_done[r][u] = maxd(m->r_done[r][u], finish);
		if (g->writes & BIT(r))
			m->w_done[r][u] = finish;
	}
	if (g->op == TENSIL_OP_MATMUL)
		m->st.mac_vectors += (double) g->v;
	m->makespan = maxd(m->makespan, finish);
}

static void emit(struct machine *m, int op, int64_t n, int64_t v,
	unsigned reads, unsigned writes, double extra)
{
	struct group g;

	g.unit = unit_of(op);
	g.op = op;
	g.n = n;
	g.v = v;
	g.reads = reads;
	g.writes = writes;
	g.extra = extra;
	run(m, &g);
}

/* The instruction stream of one stage, in the order Tensil's scheduler
 * emits it.
 */
static void run_stage(struct machine *m, const struct tensil__geom *g,
	const tensil_plan *p, const tensil_stage *s)
{
	int64_t t, simd, out_runs = dse_cdiv(s->outputs, g->max_size);
	int64_t res_runs = dse_cdiv(s->pixels, g->max_size);

	if (!g->pool_layer)
		emit(m, TENSIL_OP_DRAM1_LOAD, dse_cdiv(g->weights, g->max_size),
			g->weights, 0, BIT(R_WEIGHTS), 0);
	emit(m, TENSIL_OP_DRAM0_LOAD, s->in_runs, s->in_vectors, 0,
		BIT(R_INPUTS), 0);
	if (g->resid)
		emit(m, TENSIL_OP_DRAM0_LOAD, res_runs, s->pixels, 0,
			BIT(R_RESID), 0);
	for (t = 0; t < p->tiles; t++) {
		emit(m, TENSIL_OP_LOAD_WEIGHTS, 1, g->a + 1, BIT(R_WEIGHTS), 0,
			0);
		emit(m, TENSIL_OP_MATMUL, s->mm_runs, s->pixels,
			BIT(R_INPUTS), BIT(R_ACC), g->a);
	}
	if (g->pool_layer)
		emit(m, TENSIL_OP_LOCAL_TO_ACC, s->in_runs, s->in_vectors,
			BIT(R_INPUTS), BIT(R_ACC), 0);
	if (g->resid)
		emit(m, TENSIL_OP_LOCAL_TO_ACC, res_runs, s->pixels,
			BIT(R_RESID), BIT(R_ACC), 0);
	if (g->acc_consts)
		emit(m, TENSIL_OP_LOCAL_TO_ACC, 1, g->acc_consts,
			BIT(R_WEIGHTS), BIT(R_ACC), 0);
	simd = g->simd_per_pixel * s->pixels + g->simd_per_output *
		s->outputs + g->simd_per_stage;
	emit(m, TENSIL_OP_SIMD, simd, simd, BIT(R_ACC), BIT(R_ACC), 0);
	if (simd)
		emit(m, TENSIL_OP_NOOP, 2, 2, 0, 0, 0);
	emit(m, TENSIL_OP_ACC_TO_LOCAL, g->saves * out_runs,
		g->saves * s->outputs, BIT(R_ACC), BIT(R_SAVE), 0);
	emit(m, TENSIL_OP_DRAM0_STORE, g->saves * out_runs,
		g->saves * s->outputs, BIT(R_SAVE), 0, 0);
}

/* Moves every time of the machine "dt" cycles later: the skipped blocks
 * ran in between.
 */
static void shift(struct machine *m, double dt)
{
	int u, r;

	m->dec += dt;
	for (u = 0; u < TENSIL__N_UNITS; u++) {
		m->unit_free[u] += dt;
		m->q_ready[u] += dt;
		for (r = 0; r < N_REGIONS; r++) {
			m->w_done[r][u] += dt;
			m->r_done[r][u] += dt;
		}
	}
	m->port_data[0] += dt;
	m->port_data[1] += dt;
	m->chan_free += dt;
	m->makespan += dt;
}

/* The statistics of the skipped blocks: "k" times what one block added. */
static void add_scaled(struct tensil__cycle_stats *to,
	const struct tensil__cycle_stats *after,
	const struct tensil__cycle_stats *before, double k)
{
	int u, op;

	for (u = 0; u < TENSIL__N_UNITS; u++) {
		to->busy[u] += k * (after->busy[u] - before->busy[u]);
		to->stall[u] += k * (after->stall[u] - before->stall[u]);
	}
	for (op = 0; op < TENSIL_N_OPS; op++)
		to->count[op] += (int64_t) (k * (double) (after->count[op] -
			before->count[op]));
	to->instructions += (int64_t) (k * (double) (after->instructions -
		before->instructions));
	to->dec_stall += k * (after->dec_stall - before->dec_stall);
	to->chan_busy += k * (after->chan_busy - before->chan_busy);
	to->mac_vectors += k * (after->mac_vectors - before->mac_vectors);
}

static void run_block(struct machine *m, const struct tensil__geom *g,
	const tensil_plan *p, const tensil_stage *stages)
{
	int64_t s;

	for (s = 0; s < p->stages_per_block; s++)
		run_stage(m, g, p, &stages[s]);
}

/* Blocks of a layer simulated before the sampled model extrapolates. */
#define SAMPLED_BLOCKS 3

/* Runs one layer's blocks: all of them, or with "sampled" the first
 * three and the rest by the mean period of the second and third.  The
 * spread of the two periods, times the blocks skipped, widens the
 * result's interval.
 */
static void run_layer(struct machine *m, const struct tensil__geom *g,
	const tensil_plan *p, const tensil_stage *stages, int sampled,
	struct tensil__cycle_result *res)
{
	int64_t b, nb = p->blocks;
	double mark[SAMPLED_BLOCKS + 1];
	struct tensil__cycle_stats before;

	if (!sampled || nb <= SAMPLED_BLOCKS + 1) {
		for (b = 0; b < nb; b++)
			run_block(m, g, p, stages);
		res->stages_simulated += p->stages;
		return;
	}
	mark[0] = m->makespan;
	before = m->st;
	for (b = 0; b < SAMPLED_BLOCKS; b++) {
		if (b == SAMPLED_BLOCKS - 1)
			before = m->st;
		run_block(m, g, p, stages);
		mark[b + 1] = m->makespan;
	}
	{
		double d1 = mark[2] - mark[1], d2 = mark[3] - mark[2];
		double mean = (d1 + d2) / 2, k = (double) (nb - SAMPLED_BLOCKS);
		double lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1;

		struct tensil__cycle_stats after = m->st;

		add_scaled(&m->st, &after, &before, k);
		shift(m, k * mean);
		res->low_delta += k * (lo - mean);
		res->high_delta += k * (hi - mean);
	}
	res->stages_simulated += SAMPLED_BLOCKS * p->stages_per_block;
}

static void init_machine(struct machine *m, const tensil_arch *a)
{
	const tensil_costs *c = tensil_latency_costs();
	double beat = c->dram_beat_bits / 8.0;

	memset(m, 0, sizeof(*m));
	m->a = a->array_size;
	m->vb = tensil_arch_vector_bytes(a);
	m->latency = a->dram_latency;
	m->rd_rate = beat / c->dram_read_beat;
	m->wr_rate = beat / c->dram_write_beat;
	m->chan_rate = a->dram_gbps * 1e3 / a->mhz;
}

/* The stages of one block of a planned layer (NULL when out of memory). */
static tensil_stage *block_stages(const tensil_layer *l, const tensil_arch *a,
	const tensil_plan *p)
{
	tensil_stage *s = malloc((size_t) p->stages_per_block * sizeof(*s));
	int64_t i;

	for (i = 0; s && i < p->stages_per_block; i++)
		tensil_plan_stage(l, a, p, i, &s[i]);
	return s;
}

dse_stat tensil__simulate(const tensil_model *model, const tensil_arch *a,
	int sampled, struct tensil__cycle_result *res, dse_error *err)
{
	struct machine m;
	int i;

	memset(res, 0, sizeof(*res));
	init_machine(&m, a);
	for (i = 0; i < tensil_model_n_layers(model); i++) {
		const tensil_layer *l = tensil_model_layer(model, i);
		struct tensil__geom g;
		tensil_plan p;
		tensil_stage *stages;

		tensil_plan_layer(l, a, &p);
		if (p.status != TENSIL_FIT_OK)
			return dse_error_set(err, DSE_E_RUNTIME, "layer '%s' "
				"does not fit: %s", l->name,
				tensil_fit_name(p.status));
		tensil__geom(l, a, &g);
		stages = block_stages(l, a, &p);
		if (!stages)
			return dse_error_set(err, DSE_E_NOMEM,
				"out of memory in the cycle model");
		run_layer(&m, &g, &p, stages, sampled, res);
		res->stages += p.stages;
		free(stages);
	}
	res->cycles = maxd(m.makespan, m.dec);
	res->stats = m.st;
	return dse_stat_ok;
}
