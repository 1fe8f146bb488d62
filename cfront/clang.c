/* cfront: loading libclang on first use (see clang.h for why).
 *
 * This file alone must see libclang's names undisturbed: it takes each
 * function's address from the loaded library by name, so it includes
 * clang-c/Index.h for the types and never the call macros' effect on its
 * own code (it calls no libclang function), hence CFRONT_CLANG_NO_CALLS.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The table's members keep libclang's names; the call macros would
 * rewrite them here.
 */
#define CFRONT_CLANG_NO_CALLS
#include "cfront/clang.h"
#include "core/util.h"

/* The path the build found; the loader's search by file name comes
 * second, for a copy of dse moved with its libraries.
 */
#ifndef CFRONT_LIBCLANG
#define CFRONT_LIBCLANG "libclang.so"
#endif

/* What the one load produced: the table, or the reason it failed.  It is
 * written only inside pthread_once and read-only after, so it is shared
 * state that never changes once anyone can see it.
 */
struct cf_load {
	pthread_once_t once;
	int ok;
	struct cfront__clang_api api;
	char why[512];
};

static struct cf_load cf_loaded = { .once = PTHREAD_ONCE_INIT };

static void *open_libclang(struct cf_load *l)
{
	void *h = dlopen(CFRONT_LIBCLANG, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);

	if (!h && strcmp(dse_base_name(CFRONT_LIBCLANG), CFRONT_LIBCLANG))
		h = dlopen(dse_base_name(CFRONT_LIBCLANG),
			RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!h) {
		const char *e = dlerror();

		snprintf(l->why, sizeof(l->why), "cannot load libclang (%s), "
			"which reading C kernels needs: %s; install "
			"libclang-19 (scripts/bootstrap.sh does)",
			CFRONT_LIBCLANG, e ? e : "unknown reason");
	}
	return h;
}

static void load_once(void)
{
	struct cf_load *l = &cf_loaded;
	void *h = open_libclang(l);

	if (!h)
		return;
	/* Each member is set from the symbol of the same name; the cast
	 * through void * is how POSIX says dlsym's result is used.
	 */
#define CF_SYM(f) \
	if (!l->why[0]) { \
		*(void **) &l->api.f = dlsym(h, #f); \
		if (!l->api.f) \
			snprintf(l->why, sizeof(l->why), "libclang (%s) lacks " \
				"%s, which cfront needs: it is older than " \
				"LLVM 17", CFRONT_LIBCLANG, #f); \
	}
	CFRONT_CLANG_FUNCS(CF_SYM)
#undef CF_SYM
	l->ok = !l->why[0];
}

const struct cfront__clang_api *cfront__clang_load(dse_error *err)
{
	if (pthread_once(&cf_loaded.once, load_once) != 0) {
		dse_error_set(err, DSE_E_RUNTIME,
			"pthread_once failed while loading libclang");
		return NULL;
	}
	if (!cf_loaded.ok) {
		dse_error_set(err, DSE_E_RUNTIME, "%s", cf_loaded.why);
		return NULL;
	}
	return &cf_loaded.api;
}

const struct cfront__clang_api *cfront__clang(void)
{
	return &cf_loaded.api;
}
