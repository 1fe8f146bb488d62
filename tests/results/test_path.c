/* Tests of output paths and the one-writer lock (results/res_path.c):
 * what an output name resolves to, what is refused before any work, the
 * lock a second writer meets, and the removal of temporary files that
 * killed writers left.  Real files, links, FIFOs and (as root) device
 * nodes in a temporary folder.
 */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "results/res.h"
#include "scratch.h"

static void touch(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* What a case puts at its name before resolving it. */
enum make {
	M_NONE,		/* nothing */
	M_FILE,		/* a regular file */
	M_DIR,		/* a directory */
	M_FIFO,		/* a named pipe */
	M_SOCKET,	/* a Unix socket */
	M_CHARDEV,	/* a character device like /dev/null (root only) */
	M_LINK,		/* a link to "target" (relative) */
	M_LINK_ABS,	/* a link to "target" made absolute */
	M_LINK_LOOP	/* a link to itself */
};

struct resolve_case {
	const char *name;	/* under the test folder; "" for "" */
	enum make make;
	const char *target;	/* link target, relative to the folder */
	enum make target_make;	/* what the target is */
	int ok;
	const char *expect;	/* ok: the resolved name's last part; else a
				 * piece of the message */
};

static const struct resolve_case resolve_cases[] = {
	{ "new.h5", M_NONE, NULL, M_NONE, 1, "new.h5" },
	{ "old.h5", M_FILE, NULL, M_NONE, 1, "old.h5" },
	{ "sub/deeper/x.h5", M_NONE, NULL, M_NONE, 1, "x.h5" },
	{ "link.h5", M_LINK, "target.h5", M_FILE, 1, "target.h5" },
	{ "abs.h5", M_LINK_ABS, "target2.h5", M_FILE, 1, "target2.h5" },
	/* A dangling link: its target is created, the link stays. */
	{ "dangling.h5", M_LINK, "made.h5", M_NONE, 1, "made.h5" },
	{ "chain.h5", M_LINK, "link.h5", M_NONE, 1, "target.h5" },
	{ "", M_NONE, NULL, M_NONE, 0, "empty" },
	{ "adir/", M_NONE, NULL, M_NONE, 0, "ends in '/'" },
	{ "isdir", M_DIR, NULL, M_NONE, 0, "is a directory" },
	{ "pipe", M_FIFO, NULL, M_NONE, 0, "is a FIFO" },
	{ "sock", M_SOCKET, NULL, M_NONE, 0, "is a socket" },
	{ "null", M_CHARDEV, NULL, M_NONE, 0, "is a character device" },
	{ "todir", M_LINK, "adir2", M_DIR, 0, "is a directory" },
	{ "topipe", M_LINK, "pipe2", M_FIFO, 0, "(a link to '" },
	{ "loop", M_LINK_LOOP, NULL, M_NONE, 0, "symbolic links" },
};

/* Makes "what" at "path"; 0, or -1 when this process may not (a device
 * node needs root).
 */
static int make_at(const char *path, enum make what, const char *target)
{
	struct sockaddr_un sa;
	int fd;

	switch (what) {
	case M_NONE:
		return 0;
	case M_FILE:
		touch(path, "old");
		return 0;
	case M_DIR:
		return mkdir(path, 0777);
	case M_FIFO:
		return mkfifo(path, 0666);
	case M_SOCKET:
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		memset(&sa, 0, sizeof(sa));
		sa.sun_family = AF_UNIX;
		if (fd < 0 || strlen(path) >= sizeof(sa.sun_path))
			return -1;
		strcpy(sa.sun_path, path);
		if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
			close(fd);
			return -1;
		}
		close(fd);
		return 0;
	case M_CHARDEV:
		return mknod(path, S_IFCHR | 0666, makedev(1, 3));
	case M_LINK:
	case M_LINK_ABS:
		return symlink(target, path);
	case M_LINK_LOOP:
		return symlink(path, path);
	}
	return -1;
}

static void test_resolve(void **state)
{
	size_t n = sizeof(resolve_cases) / sizeof(resolve_cases[0]);
	const char *dir = *state;

	for (size_t i = 0; i < n; i++) {
		const struct resolve_case *rc = &resolve_cases[i];
		char path[PATH_MAX], target[PATH_MAX], real[RES_PATH_LEN];
		const char *base;
		struct stat sb;
		dse_error err;

		if (rc->name[0])
			scratch_join(path, dir, rc->name);
		else
			path[0] = '\0';
		if (rc->target) {
			scratch_join(target, dir, rc->target);
			if (make_at(target, rc->target_make, NULL) < 0 &&
			    errno != EEXIST)
				fail_msg("cannot make %s", target);
		}
		if (make_at(path, rc->make, rc->make == M_LINK_ABS ? target :
				rc->target) < 0) {
			/* mknod needs root (CAP_MKNOD). */
			print_message("skipped '%s': cannot make it here "
				"(%s)\n", rc->name, strerror(errno));
			continue;
		}
		dse_error_clear(&err);
		real[0] = '\0';
		if (!rc->ok) {
			assert_int_equal(res_path_resolve(path, real,
				sizeof(real), &err), dse_stat_error);
			if (!strstr(err.msg, rc->expect))
				fail_msg("case %s: '%s' not in '%s'", rc->name,
					rc->expect, err.msg);
			assert_int_equal(err.code, DSE_E_INPUT);
			/* Whatever was there is still there. */
			if (rc->make != M_NONE)
				assert_int_equal(lstat(path, &sb), 0);
			continue;
		}
		assert_int_equal(res_path_resolve(path, real, sizeof(real),
			&err), dse_stat_ok);
		base = strrchr(real, '/');
		base = base ? base + 1 : real;
		if (strcmp(base, rc->expect))
			fail_msg("case %s: resolved to '%s', not '%s'",
				rc->name, real, rc->expect);
	}
}

/* A results file written through a link writes the link's target and
 * keeps the link: replacing the link by a file would leave the file the
 * user pointed at unwritten.
 */
static void test_write_through_link(void **state)
{
	char link[PATH_MAX], target[PATH_MAX];
	struct stat sb;
	dse_error err;
	res_file *f;

	scratch_join(link, *state, "wl.h5");
	scratch_join(target, *state, "wl-target.h5");
	touch(target, "old");
	assert_int_equal(symlink("wl-target.h5", link), 0);
	f = res_file_create(link, &err);
	assert_non_null(f);
	assert_int_equal(res_attr_i64(f, "x", 7, &err), dse_stat_ok);
	assert_int_equal(res_file_commit(f, &err), dse_stat_ok);
	assert_int_equal(lstat(link, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(stat(target, &sb), 0);
	assert_true(sb.st_size > 100);
}

/* The lock: a second writer (another open file description, as another
 * process would have) is refused, as bad input, with the holder's process
 * number; once the first lets go, the lock file is gone and a new writer
 * gets it.
 */
static void test_lock(void **state)
{
	char file[PATH_MAX], lockname[PATH_MAX], pid[32];
	res_lock *a, *b;
	struct stat sb;
	dse_error err;

	scratch_join(file, *state, "locked.h5");
	scratch_join(lockname, *state, "locked.h5.lock");
	a = res_lock_take(file, &err);
	assert_non_null(a);
	assert_int_equal(stat(lockname, &sb), 0);
	b = res_lock_take(file, &err);
	assert_null(b);
	assert_int_equal(err.code, DSE_E_INPUT);
	snprintf(pid, sizeof(pid), "process %ld on host", (long) getpid());
	if (!strstr(err.msg, pid))
		fail_msg("'%s' not in '%s'", pid, err.msg);
	assert_null(res_lock_release(a));
	assert_int_not_equal(stat(lockname, &sb), 0);
	b = res_lock_take(file, &err);
	assert_non_null(b);
	assert_null(res_lock_release(b));
	assert_null(res_lock_release(NULL));
}

struct stale_case {
	const char *name;
	int removed;
};

/* Temporary files of the locked name with any process number go; other
 * names stay, however alike.
 */
static const struct stale_case stale_cases[] = {
	{ "st.h5.tmp.12345", 1 },
	{ "st.h5.tmp.1", 1 },
	{ "st.h5.tmp.", 0 },
	{ "st.h5.tmp.12x", 0 },
	{ "st.h5.tmpx.1", 0 },
	{ "xst.h5.tmp.1", 0 },
	{ "st.h5", 0 },
	{ "other.h5.tmp.1", 0 },
};

static void test_stale(void **state)
{
	size_t n = sizeof(stale_cases) / sizeof(stale_cases[0]);
	char file[PATH_MAX], path[PATH_MAX];
	int want = 0;
	res_lock *l;
	struct stat sb;
	dse_error err;

	scratch_join(file, *state, "st.h5");
	for (size_t i = 0; i < n; i++) {
		scratch_join(path, *state, stale_cases[i].name);
		touch(path, "x");
		want += stale_cases[i].removed;
	}
	assert_int_equal(res_path_sweep_stale(NULL, file), 0);
	l = res_lock_take(file, &err);
	assert_non_null(l);
	assert_int_equal(res_path_sweep_stale(l, file), want);
	for (size_t i = 0; i < n; i++) {
		scratch_join(path, *state, stale_cases[i].name);
		assert_int_equal(stat(path, &sb) != 0,
			stale_cases[i].removed);
	}
	res_lock_release(l);
}

/* The probe makes the folders and leaves nothing behind; an unwritable
 * folder fails it (unless this process ignores permissions, as root).
 */
static void test_probe(void **state)
{
	char file[PATH_MAX], dir[PATH_MAX], tmp[PATH_MAX + 32];
	struct stat sb;
	dse_error err;

	scratch_join(file, *state, "p/q/probe.h5");
	assert_int_equal(res_path_probe(file, &err), dse_stat_ok);
	scratch_join(dir, *state, "p/q");
	assert_int_equal(stat(dir, &sb), 0);
	assert_int_equal(res_path_tmp(file, tmp, sizeof(tmp)), 0);
	assert_int_not_equal(stat(tmp, &sb), 0);
	assert_int_not_equal(stat(file, &sb), 0);
	assert_int_equal(chmod(dir, 0555), 0);
	if (access(dir, W_OK) == 0) {
		print_message("skipped the unwritable folder: this process "
			"writes anywhere (root)\n");
	} else {
		assert_int_equal(res_path_probe(file, &err), dse_stat_error);
		assert_int_equal(err.code, DSE_E_IO);
		assert_non_null(strstr(err.msg, "probe.h5.tmp."));
	}
	assert_int_equal(chmod(dir, 0755), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_write_through_link),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_probe),
	};

	return cmocka_run_group_tests(tests, scratch_make, scratch_remove);
}
