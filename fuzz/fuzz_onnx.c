/* Fuzz target: the ONNX reader of tensil/model.h (tensil_model_parse_onnx)
 * on the input as the bytes of a model file.
 *
 * A model that reads must hold at least one multiply, every layer must
 * pass tensil_layer_check, and its multiply-accumulate counts must be
 * consistent; the overlay family must evaluate the board's default design
 * on it.  A refusal must be an input error at a node (a line of at least
 * 1) of the file, or out of memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "tensil/family.h"
#include "tensil/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_model(const tensil_model *m)
{
	const arch_board *b = arch_board_find("u250");
	int32_t knobs[SIM_MAX_KNOBS] = { 0 };
	int i, n = tensil_model_n_layers(m);
	tensil_family *f;
	sim_metrics out;
	dse_error err;

	if (n < 1 || tensil_model_n_matmul_layers(m) < 1 ||
	    tensil_model_macs(m) < tensil_model_true_macs(m))
		abort();
	for (i = 0; i < n; i++)
		if (tensil_layer_check(tensil_model_layer(m, i)))
			abort();
	dse_error_clear(&err);
	f = b ? tensil_family_alloc(m, b, &err) : NULL;
	if (!f) {
		if (b && err.code != DSE_E_NOMEM)
			abort();
		return;
	}
	tensil_family_defaults(f, knobs);
	tensil_family_eval(f, knobs, &out);
	tensil_family_free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tensil_model *m;
	dse_error err;

	dse_error_clear(&err);
	m = tensil_model_parse_onnx(data, size, "fuzz.onnx", &err);
	if (m) {
		check_model(m);
	} else if (err.code != DSE_E_NOMEM &&
		   (err.code != DSE_E_INPUT || !err.msg[0] || err.line < 1 ||
		    strcmp(err.file, "fuzz.onnx"))) {
		fprintf(stderr, "fuzz_onnx: refusal without a node or not an "
			"input error (code %d, %s:%d): %s\n", (int) err.code,
			err.file, err.line, err.msg);
		abort();
	}
	tensil_model_free(m);
	return 0;
}
