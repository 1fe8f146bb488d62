/* sim: building the analytic model of a systolic-array template, its
 * knobs, and the AutoSA --sa-sizes string of a design point.
 *
 * A template describes any space-time candidate of any affine kernel: the
 * band of tiled loops, the space loops of a 1-D, 2-D or 3-D array, the
 * latency-hiding loops, the simd loop and the I/O groups.  Everything that
 * does not depend on the design point is worked out here once: the knob
 * list, the role each I/O group plays in the model (loaded every tile,
 * written out, buffered in the PEs or along PE lines) and the footprint
 * formula of its access with the zero coefficients dropped.  sim_eval
 * (model.c) then costs a few hundred integer operations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const kind_names[SIM__N_KINDS] = {
	[SIM__ARRAY_PART] = "array_part",
	[SIM__ARRAY_PART_L2] = "array_part_L2",
	[SIM__LATENCY] = "latency",
	[SIM__SIMD] = "simd",
	[SIM__IO_NETWORK] = "io_network",
	[SIM__DOUBLE_BUFFER] = "double_buffer",
};

/* Whether "v" lies in [lo, hi). */
static int in_range(int v, int lo, int hi)
{
	return v >= lo && v < hi;
}

/* Checks a list of loop indices: each in [0, hi), none twice. */
static dse_stat check_loops(const poly_template *t, const char *what,
	const int *loops, int n, int hi, dse_error *err)
{
	int i, j;

	for (i = 0; i < n; i++) {
		if (!in_range(loops[i], 0, hi))
			return dse_error_set(err, DSE_E_INPUT,
				"kernel '%s': %s loop %d is %d, not one of the "
				"%d tiled loops", t->kernel, what, i, loops[i],
				hi);
		for (j = 0; j < i; j++)
			if (loops[j] == loops[i])
				return dse_error_set(err, DSE_E_INPUT,
					"kernel '%s': loop '%s' is listed "
					"twice as a %s loop", t->kernel,
					t->loop[loops[i]], what);
	}
	return dse_stat_ok;
}

/* The loop nest of the template: loop counts and indices in range. */
static dse_stat check_nest(const poly_template *t, dse_error *err)
{
	int l;

	if (!in_range(t->n_loops, 1, POLY_MAX_LOOPS + 1))
		return dse_error_set(err, DSE_E_INPUT,
			"kernel '%s': the template has %d loops (1 to %d "
			"expected)", t->kernel, t->n_loops, POLY_MAX_LOOPS);
	if (!in_range(t->band, 1, t->n_loops + 1))
		return dse_error_set(err, DSE_E_INPUT,
			"kernel '%s': the tiled band has %d loops (1 to %d "
			"expected)", t->kernel, t->band, t->n_loops);
	for (l = 0; l < t->n_loops; l++)
		if (t->extent[l] <= 0)
			return dse_error_set(err, DSE_E_INPUT,
				"kernel '%s': loop '%s' has no iterations",
				t->kernel, t->loop[l]);
	if (!in_range(t->n_space, 1, POLY_MAX_SPACE + 1))
		return dse_error_set(err, DSE_E_INPUT,
			"kernel '%s': the array has %d space loops (1 to %d "
			"expected)", t->kernel, t->n_space, POLY_MAX_SPACE);
	if (!in_range(t->n_latency, 0, t->band + 1))
		return dse_error_set(err, DSE_E_INPUT,
			"kernel '%s': %d latency loops in a band of %d",
			t->kernel, t->n_latency, t->band);
	if (check_loops(t, "space", t->space_loop, t->n_space, t->band,
			err) ||
	    check_loops(t, "latency", t->latency_loop, t->n_latency, t->band,
			err))
		return dse_stat_error;
	if (!in_range(t->simd_loop, -1, t->n_loops) ||
	    !in_range(t->reduction, -1, t->n_loops))
		return dse_error_set(err, DSE_E_INPUT,
			"kernel '%s': simd loop %d or reduction loop %d out of "
			"range", t->kernel, t->simd_loop, t->reduction);
	if (t->ops_per_point < 0)
		return dse_error_set(err, DSE_E_INPUT,
			"kernel '%s': negative operations per point",
			t->kernel);
	return dse_stat_ok;
}

/* The accesses the model reads: those of groups that are not pruned. */
static dse_stat check_groups(const poly_template *t, dse_error *err)
{
	int g, d;

	if (!in_range(t->n_accesses, 0, POLY_MAX_ACCESSES + 1) ||
	    !in_range(t->n_groups, 0, POLY_MAX_GROUPS + 1))
		return dse_error_set(err, DSE_E_INPUT,
			"kernel '%s': %d accesses and %d I/O groups are beyond "
			"the template's limits", t->kernel, t->n_accesses,
			t->n_groups);
	for (g = 0; g < t->n_groups; g++) {
		const poly_group *gr = &t->group[g];
		const poly_access *a;

		if (gr->pruned)
			continue;
		if (!in_range(gr->access, 0, t->n_accesses))
			return dse_error_set(err, DSE_E_INPUT,
				"kernel '%s': I/O group %s names access %d, "
				"the template has %d", t->kernel, gr->name,
				gr->access, t->n_accesses);
		a = &t->access[gr->access];
		if (!in_range(a->n_dims, 0, POLY_MAX_ARRAY_DIMS + 1))
			return dse_error_set(err, DSE_E_INPUT,
				"kernel '%s': access %s has %d dimensions",
				t->kernel, a->text, a->n_dims);
		for (d = 0; d < a->n_dims; d++)
			if (a->extent[d] <= 0)
				return dse_error_set(err, DSE_E_INPUT,
					"kernel '%s': dimension %d of access "
					"%s has no extent", t->kernel, d,
					a->text);
	}
	return dse_stat_ok;
}

static dse_stat check_arch(const arch_board *b, const arch_dtype *d,
	dse_error *err)
{
	if (!(b->mhz > 0) || !(b->dram_gbps > 0) || b->dram_port_bits <= 0 ||
	    b->dram_latency < 0)
		return dse_error_set(err, DSE_E_INPUT,
			"board '%s': clock, DRAM bandwidth and port width must "
			"be positive", b->name);
	if (d->bits <= 0 || d->acc_latency < 1 || d->dsp_mul < 0 ||
	    d->dsp_add < 0 || d->mul_per_dsp < 1)
		return dse_error_set(err, DSE_E_INPUT,
			"data type '%s': width, accumulation latency and "
			"multiplies per DSP must be positive, DSP per operator "
			"not negative", d->name);
	return dse_stat_ok;
}

static dse_stat check_options(const sim_options *opt, dse_error *err)
{
	int i;

	for (i = 0; opt && i < 3; i++)
		if (opt->data_pack[i] < 0)
			return dse_error_set(err, DSE_E_INPUT,
				"data packing bound %d of level L%d is "
				"negative", opt->data_pack[i], i + 1);
	return dse_stat_ok;
}

void sim__footprint_compile(const poly_template *t, int acc,
	sim__footprint *fp)
{
	const poly_access *a = &t->access[acc];
	int d, l;

	memset(fp, 0, sizeof(*fp));
	fp->n_dims = a->n_dims;
	for (d = 0; d < a->n_dims; d++) {
		struct sim__fp_dim *dim = &fp->dim[d];

		dim->extent = a->extent[d];
		dim->whole = !a->exact[d];
		for (l = 0; l < t->n_loops && !dim->whole; l++) {
			int64_t c = a->coef[d][l];

			if (c == 0)
				continue;
			dim->loop[dim->n_terms] = l;
			/* A coefficient too large to negate spans the whole
			 * dimension for any tile of more than one iteration;
			 * the extent clamps it anyway.
			 */
			dim->coef[dim->n_terms++] = c == INT64_MIN ?
				INT64_MAX : c < 0 ? -c : c;
		}
		dim->unit_loop = dim->n_terms == 1 && dim->coef[0] == 1 ?
			dim->loop[0] : -1;
	}
}

/* The band loops whose index appears in access "a". */
static unsigned access_loops(const poly_access *a, int band)
{
	unsigned mask = 0;
	int d, l;

	for (d = 0; d < a->n_dims; d++)
		for (l = 0; l < band; l++)
			if (a->exact[d] && a->coef[d][l] != 0)
				mask |= 1u << l;
	return mask;
}

/* The space loops (bits, in the candidate's order) along which group
 * "gr" does not move: one PE line per PE of those loops.
 */
static unsigned dir0_mask(const sim_model *m, const poly_group *gr)
{
	unsigned mask = 0;
	int s;

	for (s = 0; s < m->n_space; s++)
		if (gr->dir[s] == 0)
			mask |= 1u << s;
	return mask;
}

/* Whether the group's access moves along the simd loop, so that its
 * words are packed S data values wide for the PE.
 */
static int packed(const sim_model *m, const poly_group *gr)
{
	const poly_access *a = &m->tmpl.access[gr->access];

	return m->simd_loop >= 0 &&
		(access_loops(a, m->n_loops) >> m->simd_loop & 1u);
}

static void add_buffer(sim_model *m, const poly_group *gr)
{
	sim__buffer *b = &m->buf[m->n_buf++];

	sim__footprint_compile(&m->tmpl, gr->access, &b->fp);
	b->per_pe = gr->buffer_level == POLY_L1;
	b->dir0_mask = dir0_mask(m, gr);
	b->packed = packed(m, gr);
}

/* An input group: data every tile loads.  Exterior inputs are the ones
 * the multicast crossbar can serve (one write to a whole PE line).
 */
static void add_input(sim_model *m, const poly_group *gr)
{
	sim__input *in = &m->in[m->n_in++];

	sim__footprint_compile(&m->tmpl, gr->access, &in->fp);
	in->dir0_mask = dir0_mask(m, gr);
	in->interior = gr->type == POLY_IO_INTERIOR;
	in->multicast = !in->interior;
	in->packed = packed(m, gr);
	in->group = (int) (gr - m->tmpl.group);
}

/* Sorts the groups that are not pruned by the roles they play.  An
 * unpruned flow group carries partial results out of the array and back
 * after every tile, so it is both loaded and stored every tile, and the
 * other groups of its array (their copy-in, copy-out and buffers) add
 * nothing to that (poly_template_superseded).  An output leaves once per
 * tile of its drain loops in the template's order, which is the order the
 * tiles run in (poly_template_drain_loops).
 */
static void classify_groups(sim_model *m)
{
	const poly_template *t = &m->tmpl;
	int g;

	for (g = 0; g < t->n_groups; g++) {
		const poly_group *gr = &t->group[g];
		int flow = gr->kind == POLY_DEP_FLOW;

		if (gr->pruned || poly_template_superseded(t, g))
			continue;
		if (flow || gr->copy_in)
			add_input(m, gr);
		if (flow || gr->copy_out) {
			sim__output *o = &m->out[m->n_out++];

			sim__footprint_compile(t, gr->access, &o->fp);
			o->every_tile = flow;
			o->loop_mask = poly_template_drain_loops(t, g);
			o->dir0_mask = dir0_mask(m, gr);
			o->interior = gr->type == POLY_IO_INTERIOR;
			o->group = g;
		}
		if (gr->buffer_level == POLY_L1 || gr->buffer_level == POLY_L2)
			add_buffer(m, gr);
	}
}

static void add_knob(sim_model *m, int kind, int loop)
{
	char name[SIM__KNOB_NAME_LEN];
	int k = m->n_knobs++;

	if (loop < 0)
		snprintf(name, sizeof(name), "%s", kind_names[kind]);
	else
		snprintf(name, sizeof(name), "%s_%s", kind_names[kind],
			m->tmpl.loop[loop]);
	memcpy(m->knob_name[k], name, sizeof(name));
	m->knob_loop[k] = loop;
	m->knob_kind[k] = kind;
}

static void name_knobs(sim_model *m)
{
	int l;

	for (l = 0; l < m->band; l++)
		add_knob(m, SIM__ARRAY_PART, l);
	for (l = 0; m->l2 && l < m->band; l++)
		add_knob(m, SIM__ARRAY_PART_L2, l);
	for (l = 0; l < m->n_latency; l++)
		add_knob(m, SIM__LATENCY, m->latency_loop[l]);
	if (m->simd_loop >= 0)
		add_knob(m, SIM__SIMD, m->simd_loop);
	if (m->net_knob)
		add_knob(m, SIM__IO_NETWORK, -1);
	if (m->db_knob)
		add_knob(m, SIM__DOUBLE_BUFFER, -1);
}

/* A PE waits for its own previous result only when a dependence is
 * carried through it: a reduction, or another flow of values.
 */
static int has_carried_dep(const poly_template *t)
{
	int g;

	if (t->reduction >= 0)
		return 1;
	for (g = 0; g < t->n_groups; g++)
		if (t->group[g].kind == POLY_DEP_FLOW)
			return 1;
	return 0;
}

static void setup_numbers(sim_model *m)
{
	const poly_template *t = &m->tmpl;
	int ops = t->ops_per_point;
	int macs = ops > 2 ? (ops + 1) / 2 : 1;

	m->carried = has_carried_dep(t);
	m->bits = m->dtype.bits;
	m->bytes = m->bits / 8.0;
	/* A beat of the DRAM port carries this many whole words; a word wider
	 * than the port still moves one per beat.
	 */
	m->port_words = m->board.dram_port_bits / m->bits;
	if (m->port_words < 1)
		m->port_words = 1;
	m->bytes_per_s = m->board.dram_gbps * 1e9;
	m->mhz = m->board.mhz;
	m->dram_latency = m->board.dram_latency;
	m->acc_latency = m->dtype.acc_latency;
	/* A multiplier-adder pair does two operations of a point: three
	 * operations (MTTKRP's two multiplies and an add) need two, for the
	 * energy of a point; the resource model counts the multipliers and
	 * adders themselves (resource.c).
	 */
	m->macs_per_point = macs;
	m->ops = (double) t->points * ops;
	m->lane = arch_lane_cost_of(&m->dtype);
	m->logic = *arch_logic_costs();
	m->energy = *arch_energy_costs();
}

sim_model *sim_model_alloc(const poly_template *tmpl, const arch_board *board,
	const arch_dtype *dtype, const sim_options *opt, dse_error *err)
{
	sim_model *m;

	if (!tmpl || !board || !dtype) {
		dse_error_set(err, DSE_E_RUNTIME,
			"sim_model_alloc: missing template, board or data type");
		return NULL;
	}
	if (check_nest(tmpl, err) || check_groups(tmpl, err) ||
	    check_arch(board, dtype, err) || check_options(opt, err))
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	m->tmpl = *tmpl;
	m->board = *board;
	m->dtype = *dtype;
	m->l2 = opt && opt->array_part_L2;
	m->net_knob = opt && opt->io_network;
	m->db_knob = opt && opt->double_buffer;
	m->n_loops = tmpl->n_loops;
	m->band = tmpl->band;
	memcpy(m->extent, tmpl->extent, sizeof(m->extent));
	m->n_space = tmpl->n_space;
	memcpy(m->space_loop, tmpl->space_loop, sizeof(m->space_loop));
	m->n_latency = tmpl->n_latency;
	memcpy(m->latency_loop, tmpl->latency_loop, sizeof(m->latency_loop));
	m->simd_loop = tmpl->simd_loop;
	classify_groups(m);
	setup_numbers(m);
	sim__res_setup(m, opt);
	name_knobs(m);
	return m;
}

sim_model *sim_model_free(sim_model *model)
{
	free(model);
	return NULL;
}

int sim_model_n_knobs(const sim_model *model)
{
	return model ? model->n_knobs : 0;
}

static int knob_valid(const sim_model *model, int knob)
{
	return model && knob >= 0 && knob < model->n_knobs;
}

const char *sim_model_knob_name(const sim_model *model, int knob)
{
	return knob_valid(model, knob) ? model->knob_name[knob] : NULL;
}

int sim_model_knob_loop(const sim_model *model, int knob)
{
	return knob_valid(model, knob) ? model->knob_loop[knob] : -1;
}

const char *sim_model_knob_kind(const sim_model *model, int knob)
{
	return knob_valid(model, knob) ?
		kind_names[model->knob_kind[knob]] : NULL;
}

double sim_metric_capacity(const arch_board *board, enum sim_metric m)
{
	if (!board)
		return 0.0;
	switch (m) {
	case SIM_M_DSP:
		return (double) board->dsp;
	case SIM_M_BRAM18K:
		return (double) board->bram18k;
	case SIM_M_URAM:
		return (double) board->uram;
	case SIM_M_LUT:
		return (double) board->lut;
	case SIM_M_FF:
		return (double) board->ff;
	default:
		return 0.0;
	}
}
