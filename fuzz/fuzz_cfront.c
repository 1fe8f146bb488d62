/* Fuzz target: the C reader (cfront/), a kernel file's text.
 *
 * The input is the C file itself, given to libclang as an unsaved file
 * "fuzz.c" (nothing touches the disk), with -DN=8 so that the seeds'
 * #ifndef defaults can be overridden.  When the scop is read, the kernel
 * goes on to the polyhedral analysis as a config would hand it over.  A
 * refusal must be an input error with a message (at a line of the file,
 * or at position 0 for a file without a usable scop), or out of memory;
 * an analysis error may also be an isl failure it reports as such.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfront/cfront.h"
#include "fuzz/fuzz_util.h"
#include "polyhedral/poly.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_refusal(const dse_error *err, int analysis)
{
	if (err->code == DSE_E_NOMEM)
		return;
	if (err->code == DSE_E_INPUT && err->msg[0])
		return;
	if (analysis && err->code == DSE_E_ISL && err->msg[0])
		return;
	fprintf(stderr, "fuzz_cfront: a refusal that is not an input error "
		"(code %d, %s:%d:%d): %s\n", (int) err->code, err->file,
		err->line, err->col, err->msg);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	cfront_opts o;
	cfront_kernel *k;
	dse_error err;

	if (!text)
		return 0;
	memset(&o, 0, sizeof(o));
	o.file = "fuzz.c";
	o.text = text;
	o.text_len = strlen(text);
	o.define[o.n_defines++] = "N=8";
	dse_error_clear(&err);
	k = cfront_read(&o, &err);
	if (k) {
		poly_kernel_desc d;
		poly_analysis *a;

		memset(&d, 0, sizeof(d));
		d.name = "fuzz";
		cfront_fill_desc(k, &d);
		dse_error_clear(&err);
		a = poly_analyze(&d, &err);
		if (!a)
			check_refusal(&err, 1);
		poly_analysis_free(a);
		cfront_free(k);
	} else {
		check_refusal(&err, 0);
	}
	free(text);
	return 0;
}
