/* tensil: the family interface: knobs, the analytic evaluation of a
 * design point (latency model, resources, energy) and the cycle models
 * behind sim_cycle_report.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "internal.h"
#include "cycle_internal.h"

static const family_knob knobs_table[TENSIL_N_KNOBS] = {
	{ "array_size", "PE a side", "the systolic array's size" },
	{ "local_depth", "vectors", "the local memory's depth" },
	{ "accumulator_depth", "vectors", "the accumulators' depth" },
	{ "data_type", "0=FP16BP8,1=FP32B16", "the data type" },
	{ "mhz", "MHz", "the clock (default: the board's)" },
	{ "dram_mbps", "MB/s", "the DRAM bandwidth (default: the board's)" },
};

/* The "Example value" column of Tensil's architectural parameters table:
 * an 8 x 8 array, 16384 local vectors, 4096 accumulators, FP16BP8.
 */
static const int64_t doc_defaults[TENSIL_N_KNOBS] = {
	8, 16384, 4096, TENSIL_FP16BP8, 0, 0
};

/* Knob ranges: the architectural parameters' allowed values; clocks up to
 * 1 GHz and bandwidths up to 1 TB/s are beyond any FPGA board.
 */
static const struct range {
	int64_t lo, hi;
} ranges[TENSIL_N_KNOBS] = {
	{ TENSIL_MIN_ARRAY, TENSIL_MAX_ARRAY },
	{ 2, TENSIL_MAX_ONCHIP_DEPTH },
	{ 2, TENSIL_MAX_ONCHIP_DEPTH },
	{ 0, TENSIL_N_DTYPES - 1 },
	{ 1, 1000 },
	{ 1, 1000000 },
};

struct tensil_family {
	tensil_model *model;
	char *onnx;	/* owned; the ONNX file the model was read from */
	arch_board board;
	int64_t true_macs;
};

int tensil_family_n_knobs(void)
{
	return TENSIL_N_KNOBS;
}

const char *tensil_family_knob_name(int knob)
{
	return knob >= 0 && knob < TENSIL_N_KNOBS ? knobs_table[knob].name : NULL;
}

int tensil_family_knob_find(const char *name)
{
	int k;

	for (k = 0; name && k < TENSIL_N_KNOBS; k++)
		if (!strcmp(name, knobs_table[k].name))
			return k;
	return -1;
}

int64_t tensil_family_knob_default(const tensil_family *f, int knob)
{
	tensil_arch a;

	if (knob < 0 || knob >= TENSIL_N_KNOBS)
		return 0;
	if (!f)
		return doc_defaults[knob];
	tensil_arch_default(&f->board, &a);
	switch (knob) {
	case TENSIL_K_ARRAY:
		return a.array_size;
	case TENSIL_K_LOCAL:
		return a.local_depth;
	case TENSIL_K_ACC:
		return a.accumulator_depth;
	case TENSIL_K_DTYPE:
		return a.data_type;
	case TENSIL_K_MHZ:
		return llround(a.mhz);
	default:
		return llround(a.dram_gbps * 1e3);
	}
}

void tensil_family_defaults(const tensil_family *f, int32_t *knobs)
{
	int k;

	for (k = 0; k < TENSIL_N_KNOBS; k++)
		knobs[k] = (int32_t) tensil_family_knob_default(f, k);
}

tensil_family *tensil_family_alloc(const tensil_model *model,
	const arch_board *board, dse_error *err)
{
	tensil_family *f;

	if (!model || !board || tensil_model_n_layers(model) == 0) {
		dse_error_set(err, DSE_E_RUNTIME, "tensil_family_alloc: no "
			"model, an empty model or no board");
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	f->model = tensil_model_copy(model, err);
	if (!f->model) {
		free(f);
		return NULL;
	}
	f->board = *board;
	f->true_macs = tensil_model_true_macs(model);
	return f;
}

tensil_family *tensil_family_free(tensil_family *f)
{
	if (!f)
		return NULL;
	tensil_model_free(f->model);
	free(f->onnx);
	free(f);
	return NULL;
}

const tensil_model *tensil_family_model(const tensil_family *f)
{
	return f->model;
}

const arch_board *tensil_family_board(const tensil_family *f)
{
	return &f->board;
}

static int64_t pow2_at_least(int64_t v)
{
	int64_t p = 2;

	while (p < v && p < TENSIL_MAX_DRAM_DEPTH)
		p *= 2;
	return p;
}

/* The DRAM vectors the model needs: DRAM1 holds every layer's weights,
 * biases and SIMD constants; DRAM0 at least the largest layer's input,
 * outputs and residual operand at once.
 */
static void dram_needs(const tensil_model *m, const tensil_arch *a,
	int64_t *vars, int64_t *consts)
{
	int i;

	*vars = *consts = 0;
	for (i = 0; i < tensil_model_n_layers(m); i++) {
		const tensil_layer *l = tensil_model_layer(m, i);
		struct tensil__geom g;
		int fh, fw;
		int64_t in, out;

		tensil__geom(l, a, &g);
		tensil_layer_final_dims(l, &fh, &fw);
		in = (int64_t) l->in_h * l->in_w * g.kv;
		out = (int64_t) fh * fw * g.fv;
		if (!g.pool_layer)
			*consts += g.fv * g.weights;
		if (in + l->saves * out + l->residual * out > *vars)
			*vars = in + l->saves * out + l->residual * out;
	}
}

static int knob_ok(int k, int32_t v)
{
	return v >= ranges[k].lo && v <= ranges[k].hi;
}

/* The first knob outside its range, or -1. */
static int bad_knob(const int32_t *knobs)
{
	int k;

	for (k = 0; k < TENSIL_N_KNOBS; k++)
		if (!knob_ok(k, knobs[k]))
			return k;
	return -1;
}

int tensil_family_arch(const tensil_family *f, const int32_t *knobs,
	tensil_arch *a)
{
	int k, ok = 1;
	int64_t vars, consts;

	int32_t v[TENSIL_N_KNOBS];

	/* A knob out of range keeps the board's default in "a". */
	tensil_family_defaults(f, v);
	for (k = 0; k < TENSIL_N_KNOBS; k++) {
		if (!knob_ok(k, knobs[k]))
			ok = 0;
		else
			v[k] = knobs[k];
	}
	tensil_arch_default(&f->board, a);
	a->array_size = v[TENSIL_K_ARRAY];
	a->local_depth = v[TENSIL_K_LOCAL];
	a->accumulator_depth = v[TENSIL_K_ACC];
	a->data_type = v[TENSIL_K_DTYPE];
	a->mhz = v[TENSIL_K_MHZ];
	a->dram_gbps = v[TENSIL_K_DRAM_MBPS] / 1e3;
	dram_needs(f->model, a, &vars, &consts);
	if (vars > a->dram0_depth)
		a->dram0_depth = pow2_at_least(vars);
	if (consts > a->dram1_depth)
		a->dram1_depth = pow2_at_least(consts);
	return ok && tensil_arch_check(a) == NULL;
}

/* Energy of a run: the array's multiply-accumulates with their register
 * accesses, the local memory and accumulator vector accesses, the DRAM
 * words, in the Eyeriss-style units of arch_energy_costs() times the
 * energy of one MAC of the data type.
 */
static double energy(const tensil_arch *a, const tensil_totals *t)
{
	const arch_energy *e = arch_energy_costs();
	arch_dtype dt = { "fixed", tensil_dtype_bits(a->data_type), 0, 1, 0,
		0, 0, 1 };
	arch_lane_cost lane = arch_lane_cost_of(&dt);
	double n = a->array_size, word = dt.bits / 8.0;
	double units = (double) t->mac_vectors * n * n *
		(1.0 + e->rf * e->rf_per_mac) +
		e->buffer * (double) (t->local_accesses + t->acc_accesses) *
		n + e->dram * (double) (t->dram_read_bytes +
		t->dram_write_bytes) / word;

	return units * lane.pj_per_mac * 1e-12;
}

static void set_time(const tensil_family *f, const tensil_arch *a,
	double cycles, sim_metrics *out)
{
	out->cycles = (uint64_t) llround(cycles);
	out->mhz = a->mhz;
	out->latency_s = (double) out->cycles / (a->mhz * 1e6);
	out->gops = out->latency_s > 0 ? 2.0 * (double) f->true_macs /
		out->latency_s / 1e9 : 0;
	out->edp = out->energy_j * out->latency_s;
}

/* Evaluates a point; the plan totals are left in *t. */
static void evaluate(const tensil_family *f, const int32_t *knobs,
	tensil_arch *a, tensil_totals *t, sim_metrics *out)
{
	tensil_resources r;

	memset(out, 0, sizeof(*out));
	memset(t, 0, sizeof(*t));
	if (!tensil_family_arch(f, knobs, a)) {
		out->status = SIM_BAD_KNOB;
		return;
	}
	tensil_plan_model(f->model, a, t);
	if (t->status != TENSIL_FIT_OK) {
		out->status = t->status == TENSIL_FIT_ARCH ? SIM_BAD_KNOB :
			SIM_NO_FIT;
		return;
	}
	tensil_arch_resources(a, &f->board, &r);
	out->dsp = r.dsp;
	out->bram18k = r.bram18k;
	out->uram = r.uram;
	out->lut = r.lut;
	out->ff = r.ff;
	out->offchip_bytes = t->dram_read_bytes + t->dram_write_bytes;
	out->energy_j = energy(a, t);
	set_time(f, a, t->cycles, out);
	out->n_pe = (int64_t) a->array_size * a->array_size;
	out->pe_rows = out->pe_cols = a->array_size;
	out->ii = 1;
	out->status = SIM_OK;
}

void tensil_family_eval(const tensil_family *f, const int32_t *knobs,
	sim_metrics *out)
{
	tensil_arch a;
	tensil_totals t;

	evaluate(f, knobs, &a, &t, out);
}

static void add_module(sim_cycle_report *out, const char *name, int count,
	double busy, double stall_in, double stall_out)
{
	sim_module_stat *m;

	if (out->n_modules >= SIM_MAX_MODULES)
		return;
	m = &out->module[out->n_modules++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->count = count;
	m->busy = (uint64_t) llround(busy);
	m->stall_in = (uint64_t) llround(stall_in);
	m->stall_out = (uint64_t) llround(stall_out);
}

static void report_modules(const struct tensil__cycle_result *r,
	sim_cycle_report *out)
{
	static const char *const names[TENSIL__N_UNITS] = {
		"dram0", "dram1", "array", "acc"
	};
	const struct tensil__cycle_stats *s = &r->stats;
	int u;

	add_module(out, "decoder", 1, (double) s->instructions, 0,
		s->dec_stall);
	for (u = 0; u < TENSIL__N_UNITS; u++)
		add_module(out, names[u], 1, s->busy[u], s->stall[u], 0);
	add_module(out, "dram", 1, s->chan_busy, 0, 0);
}

dse_stat tensil_family_simulate(const tensil_family *f, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	struct tensil__cycle_result r;
	tensil_arch a;
	tensil_totals t;
	double macs;

	(void) opt;
	memset(out, 0, sizeof(*out));
	if (kind < 0 || kind >= SIM_N_MODEL_KINDS)
		return dse_error_set(err, DSE_E_RUNTIME, "tensil: unknown "
			"model %d", kind);
	out->model = kind;
	evaluate(f, knobs, &a, &t, &out->metrics);
	if (out->metrics.status != SIM_OK)
		return dse_stat_ok;
	out->tiles = (uint64_t) t.stages;
	macs = (double) t.mac_vectors;
	if (kind != SIM_MODEL_ANALYTIC) {
		if (tensil__simulate(f->model, &a, kind == SIM_MODEL_SAMPLED,
		    &r, err) != dse_stat_ok)
			return dse_stat_error;
		set_time(f, &a, r.cycles, &out->metrics);
		out->tiles_simulated = (uint64_t) r.stages_simulated;
		/* The cycles simulated: the sampled model skips the
		 * blocks it extrapolates.
		 */
		out->pe_cycles = (uint64_t) llround(r.cycles *
			(double) out->metrics.n_pe * (double)
			r.stages_simulated / (double) r.stages);
		out->cycles_low = r.cycles + r.low_delta;
		out->cycles_high = r.cycles + r.high_delta;
		macs = r.stats.mac_vectors;
		report_modules(&r, out);
	} else {
		out->cycles_low = out->cycles_high =
			(double) out->metrics.cycles;
	}
	out->fraction = out->tiles ? (double) out->tiles_simulated /
		(double) out->tiles : 0;
	if (out->metrics.latency_s > 0)
		out->dram_gbps = (double) out->metrics.offchip_bytes /
			out->metrics.latency_s / 1e9;
	if (out->metrics.cycles > 0)
		out->pe_utilisation = macs / (double) out->metrics.cycles;
	return dse_stat_ok;
}

void tensil_family_describe(const tensil_family *f, const int32_t *knobs,
	char *buf, int size)
{
	const char *dt = tensil_dtype_name(knobs[TENSIL_K_DTYPE]);

	(void) f;
	if (size <= 0)
		return;
	snprintf(buf, (size_t) size, "array_size=%d local_depth=%d "
		"accumulator_depth=%d data_type=%s mhz=%d dram_mbps=%d",
		(int) knobs[TENSIL_K_ARRAY], (int) knobs[TENSIL_K_LOCAL],
		(int) knobs[TENSIL_K_ACC], dt ? dt : "?",
		(int) knobs[TENSIL_K_MHZ], (int) knobs[TENSIL_K_DRAM_MBPS]);
}

/* The sentence for a layer that does not fit: which memory is short, by
 * how much, and the knob that sets it.
 */
static int why_layer(const tensil_family *f, const tensil_arch *a, int i,
	char *buf, size_t size)
{
	const tensil_layer *l = tensil_model_layer(f->model, i);
	int n = tensil_model_n_layers(f->model);
	tensil_plan p;

	tensil_plan_layer(l, a, &p);
	if (p.status == TENSIL_FIT_LOCAL)
		return snprintf(buf, size, "layer '%s' (%d of %d): local "
			"memory too small: its smallest stage needs %lld "
			"vectors, local_depth is %lld", l->name, i + 1, n,
			(long long) p.local_used, (long long) a->local_depth);
	if (p.status == TENSIL_FIT_ACC)
		return snprintf(buf, size, "layer '%s' (%d of %d): "
			"accumulators too small: its smallest stage needs "
			"%lld vectors, accumulator_depth is %lld", l->name,
			i + 1, n, (long long) p.acc_used,
			(long long) a->accumulator_depth);
	return snprintf(buf, size, "layer '%s' (%d of %d): %s needs %lld "
		"local and %lld accumulator vectors (local_depth %lld, "
		"accumulator_depth %lld)", l->name, i + 1, n, l->global_pool ?
		"its global pool takes every output at once and" :
		"its pooling takes whole rows of outputs, and one pooled row",
		(long long) p.local_used, (long long) p.acc_used,
		(long long) a->local_depth, (long long) a->accumulator_depth);
}

int tensil_family_why(const tensil_family *f, const int32_t *knobs,
	char *buf, int size)
{
	size_t n = size > 0 ? (size_t) size : 0;
	tensil_arch a;
	tensil_totals t;
	const char *bad;
	int k = bad_knob(knobs);

	if (k >= 0)
		return snprintf(buf, n, "%s is %lld, outside %lld..%lld",
			tensil_family_knob_name(k), (long long) knobs[k],
			(long long) ranges[k].lo, (long long) ranges[k].hi);
	tensil_family_arch(f, knobs, &a);
	bad = tensil_arch_check(&a);
	if (bad)
		return snprintf(buf, n, "%s", bad);
	tensil_plan_model(f->model, &a, &t);
	if (t.status == TENSIL_FIT_OK || t.bad_layer < 0)
		return snprintf(buf, n, "%s", "");
	return why_layer(f, &a, t.bad_layer, buf, n);
}

int tensil_tarch_json(const tensil_family *f, const int32_t *knobs,
	char *buf, int size)
{
	tensil_arch a;

	tensil_family_arch(f, knobs, &a);
	return tensil_arch_json(&a, buf, size > 0 ? (size_t) size : 0);
}

dse_stat tensil_family_set_onnx(tensil_family *f, const char *path,
	dse_error *err)
{
	char *copy = strdup(path);

	if (!copy)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	free(f->onnx);
	f->onnx = copy;
	return dse_stat_ok;
}

/* The family interface (core/family.h) over a tensil_family. */

static int64_t ops_default(const void *self, int knob)
{
	return tensil_family_knob_default(self, knob);
}

/* Every value a sweep gives a knob must be in the knob's range: the
 * default design with that one value changed must still be an
 * architecture (the ranges are independent of each other).  When the
 * default design itself is not one (a model too large for the DRAM
 * depths), the sweep reports its points as illegal instead.
 */
static dse_stat ops_prepare(void *self, int knob, const int64_t *values,
	int n, dse_error *err)
{
	int32_t knobs[TENSIL_N_KNOBS];
	tensil_arch a;
	int i;

	if (knob < 0 || knob >= TENSIL_N_KNOBS)
		return dse_error_set(err, DSE_E_RUNTIME, "tensil: no knob %d",
			knob);
	tensil_family_defaults(self, knobs);
	if (!tensil_family_arch(self, knobs, &a))
		return dse_stat_ok;
	for (i = 0; i < n; i++) {
		knobs[knob] = (int32_t) values[i];
		if (values[i] != knobs[knob] ||
		    !tensil_family_arch(self, knobs, &a))
			return dse_error_set(err, DSE_E_INPUT, "%s = %lld is "
				"out of the range the overlay-systolic family "
				"takes for this knob", knobs_table[knob].name,
				(long long) values[i]);
	}
	return dse_stat_ok;
}

static void ops_eval(const void *self, const int32_t *knobs,
	sim_metrics *out)
{
	tensil_family_eval(self, knobs, out);
}

static dse_stat ops_simulate(const void *self, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	return tensil_family_simulate(self, knobs, kind, opt, out, err);
}

static int ops_why(const void *self, const int32_t *knobs, char *buf,
	int size)
{
	return tensil_family_why(self, knobs, buf, size);
}

static void ops_describe(const void *self, const int32_t *knobs, char *buf,
	int size)
{
	tensil_family_describe(self, knobs, buf, size);
}

static int ops_emit(const void *self, const int32_t *knobs, char *buf,
	int size)
{
	return tensil_tarch_json(self, knobs, buf, size);
}

/* For a model read from ONNX, Tensil's compiler command that compiles it
 * for the architecture file at "path" ("design.tarch" when the file went
 * to standard output), its output nodes read from the model (a
 * placeholder where the file does not give them).
 */
static int ops_emit_hint(const void *self, const char *path, char *buf,
	int size)
{
	const tensil_family *f = self;
	char outputs[512];

	if (size <= 0)
		return 0;
	if (!f->onnx)
		return snprintf(buf, (size_t) size, "%s", "");
	if (tensil_onnx_outputs(f->onnx, outputs, sizeof(outputs)) ||
	    !outputs[0])
		snprintf(outputs, sizeof(outputs), "<output node>");
	return snprintf(buf, (size_t) size, "compile it with Tensil: tensil "
		"compile -a %s -m %s -o \"%s\" -s true", path ? path :
		"design.tarch", f->onnx, outputs);
}

static void *ops_free(void *self)
{
	return tensil_family_free(self);
}

const family_ops tensil_overlay_family = {
	.name = "overlay-systolic",
	.summary = "Tensil's overlay: one systolic array with local and "
		"accumulator memories running a compiled network",
	.n_knobs = TENSIL_N_KNOBS,
	.knobs = knobs_table,
	.knob_default = ops_default,
	.prepare = ops_prepare,
	.eval = ops_eval,
	.simulate = ops_simulate,
	.why = ops_why,
	.describe = ops_describe,
	.emit_name = "tensil",
	.emit = ops_emit,
	.emit_hint = ops_emit_hint,
	.free = ops_free,
};
