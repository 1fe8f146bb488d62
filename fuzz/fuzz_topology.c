/* Fuzz target: the layer-list CSV reader of tensil/model.h
 * (tensil_model_parse_csv), on the input as text.
 *
 * A model that reads must hold at least one layer, each passing
 * tensil_layer_check, and its multiply-accumulate counts must be
 * consistent (true MACs never above MACs, neither negative); a copy must
 * hold the same; and the overlay family built on it must evaluate the
 * board's default design, and the smallest and largest arrays, with the
 * analytic model (the first thing a sweep does with a topology) without
 * overflowing.  A refusal must be an input error at a line of the file, or
 * out of memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "fuzz/fuzz_util.h"
#include "tensil/family.h"
#include "tensil/model.h"
#include "tensil/tarch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The analytic model at the board's default design and at both ends of
 * the array sizes.
 */
static void evaluate(const tensil_model *m)
{
	static const int32_t sizes[] = { TENSIL_MIN_ARRAY, TENSIL_MAX_ARRAY };
	int32_t knobs[SIM_MAX_KNOBS] = { 0 };
	const arch_board *b = arch_board_find("u250");
	tensil_family *f;
	sim_metrics out;
	dse_error err;
	size_t i;

	dse_error_clear(&err);
	f = b ? tensil_family_alloc(m, b, &err) : NULL;
	if (!f) {
		if (b && err.code != DSE_E_NOMEM)
			abort();
		return;
	}
	tensil_family_defaults(f, knobs);
	tensil_family_eval(f, knobs, &out);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		knobs[tensil_family_knob_find("array_size")] = sizes[i];
		tensil_family_eval(f, knobs, &out);
	}
	tensil_family_free(f);
}

static void check_model(const tensil_model *m)
{
	int i, n = tensil_model_n_layers(m), h, w;
	tensil_model *c;
	dse_error err;

	if (n < 1 || tensil_model_macs(m) < tensil_model_true_macs(m) ||
	    tensil_model_true_macs(m) < 0)
		abort();
	for (i = 0; i < n; i++) {
		const tensil_layer *l = tensil_model_layer(m, i);
		int64_t gm, gn, gk;

		if (!l || tensil_layer_check(l))
			abort();
		tensil_layer_gemm_dims(l, &gm, &gn, &gk);
		tensil_layer_final_dims(l, &h, &w);
		if (gm < 0 || gn < 0 || gk < 0 || h < 1 || w < 1 ||
		    tensil_layer_macs(l) < tensil_layer_true_macs(l))
			abort();
	}
	dse_error_clear(&err);
	c = tensil_model_copy(m, &err);
	if (c && (tensil_model_n_layers(c) != n ||
		  tensil_model_macs(c) != tensil_model_macs(m)))
		abort();
	tensil_model_free(c);
	evaluate(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	tensil_model *m;
	dse_error err;

	if (!text)
		return 0;
	dse_error_clear(&err);
	m = tensil_model_parse_csv(text, "fuzz.csv", &err);
	free(text);
	if (m) {
		check_model(m);
	} else if (err.code != DSE_E_NOMEM &&
		   (err.code != DSE_E_INPUT || !err.msg[0] || err.line < 1 ||
		    strcmp(err.file, "fuzz.csv"))) {
		fprintf(stderr, "fuzz_topology: refusal without a line or not "
			"an input error (code %d, %s:%d): %s\n",
			(int) err.code, err.file, err.line, err.msg);
		abort();
	}
	tensil_model_free(m);
	return 0;
}
