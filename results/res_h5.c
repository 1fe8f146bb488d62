#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/res_h5.h"

void res__quiet_begin(struct res_quiet *q)
{
	/* H5Eget_auto2 fails when the caller installed an old-style (v1)
	 * handler; that handler is then left alone rather than replaced by
	 * something we could not restore.
	 */
	q->saved = H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data) >= 0;
	if (q->saved && H5Eset_auto2(H5E_DEFAULT, NULL, NULL) < 0)
		q->saved = 0;
}

void res__quiet_end(const struct res_quiet *q)
{
	/* Nothing useful can be done if restoring fails: the caller's
	 * handler stays off, which is harmless for our own results.
	 */
	if (q->saved)
		(void) H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

/* Keeps the first entry of an upward walk, which is the innermost and
 * most specific one (for example "unable to open file: ... errno = 20,
 * error message = 'Not a directory'").
 */
static herr_t keep_innermost(unsigned n, const H5E_error2_t *e, void *data)
{
	char *buf = data;

	if (n == 0 && e->desc)
		snprintf(buf, DSE_ERROR_MSG_LEN, "%s", e->desc);
	return 0;
}

dse_stat res__h5_fail(dse_error *err, const char *fmt, ...)
{
	char what[DSE_ERROR_MSG_LEN];
	char detail[DSE_ERROR_MSG_LEN] = "";
	va_list ap;

	if (!err)
		return dse_stat_error;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keep_innermost, detail) < 0)
		detail[0] = '\0';
	/* HDF5 descriptions sometimes carry a newline (a time stamp); the
	 * message must stay on one line.
	 */
	for (char *p = detail; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	if (detail[0])
		return dse_error_set(err, DSE_E_HDF5, "%s (HDF5: %s)", what,
			detail);
	return dse_error_set(err, DSE_E_HDF5, "%s", what);
}

static herr_t close_by_type(hid_t id)
{
	switch (H5Iget_type(id)) {
	case H5I_FILE:
		return H5Fclose(id);
	case H5I_GROUP:
		return H5Gclose(id);
	case H5I_DATATYPE:
		return H5Tclose(id);
	case H5I_DATASPACE:
		return H5Sclose(id);
	case H5I_DATASET:
		return H5Dclose(id);
	case H5I_ATTR:
		return H5Aclose(id);
	case H5I_GENPROP_LST:
		return H5Pclose(id);
	default:
		return -1;
	}
}

dse_stat res__close(hid_t id, dse_stat st, const char *what, dse_error *err)
{
	if (id < 0)
		return st;
	if (close_by_type(id) < 0 && st == dse_stat_ok)
		return res__h5_fail(err, "cannot close %s", what);
	return st;
}

hid_t res__string_type(size_t size, H5T_str_t pad)
{
	hid_t t = H5Tcopy(H5T_C_S1);

	if (t < 0)
		return t;
	if (H5Tset_size(t, size ? size : 1) < 0 ||
	    H5Tset_strpad(t, pad) < 0 ||
	    H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
		H5Tclose(t);
		return -1;
	}
	return t;
}

/* Checks that the existing prefix "dir" of a longer path is a group, so
 * that looking further down does not fail with an obscure message.
 */
static htri_t is_group(hid_t file, const char *dir, const char *path,
	const char *fname, dse_error *err)
{
	hid_t obj = H5Oopen(file, dir, H5P_DEFAULT);
	H5I_type_t t;

	if (obj < 0) {
		res__h5_fail(err, "cannot open '%s' in '%s'", dir, fname);
		return -1;
	}
	t = H5Iget_type(obj);
	if (H5Oclose(obj) < 0) {
		res__h5_fail(err, "cannot close '%s' in '%s'", dir, fname);
		return -1;
	}
	if (t != H5I_GROUP) {
		dse_error_set(err, DSE_E_HDF5, "cannot reach '%s' in '%s': "
			"'%s' is not a group", path, fname, dir);
		return -1;
	}
	return 1;
}

htri_t res__path_exists(hid_t file, const char *path, const char *fname,
	dse_error *err)
{
	size_t len = strlen(path);
	char *buf = malloc(len + 1);
	htri_t ex = 1;

	if (!buf) {
		dse_error_nomem(err, "a path inside a results file",
			(double) len + 1);
		return -1;
	}
	memcpy(buf, path, len + 1);
	/* Each '/' after the first character ends a prefix to check; the
	 * whole path is checked last.
	 */
	for (size_t i = 1; i <= len && ex > 0; i++) {
		if (i < len && (buf[i] != '/' || buf[i - 1] == '/'))
			continue;
		buf[i] = '\0';
		ex = H5Lexists(file, buf, H5P_DEFAULT);
		if (ex < 0)
			res__h5_fail(err, "cannot look up '%s' in '%s'", buf,
				fname);
		else if (ex > 0 && i < len)
			ex = is_group(file, buf, path, fname, err);
		if (i < len)
			buf[i] = '/';
	}
	free(buf);
	return ex;
}

void res_init(void)
{
	/* Fails only once the library is initialised, which res_init,
	 * called first, rules out; nothing else depends on it.
	 */
	(void) H5dont_atexit();
}
