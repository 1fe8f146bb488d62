/* results: where output files go, and who may write them.
 *
 * dse replaces its output files by renaming a finished temporary file
 * over them, which replaces whatever the name held.  So before any work
 * the name is resolved (a symbolic link is followed to the file it names,
 * and that file is written; the link stays) and anything but a regular
 * file there is refused: a rename over /dev/null or a FIFO would destroy
 * something that is not dse's.  One writer at a time holds an advisory
 * lock beside the file, and the temporary files that killed writers left
 * behind are removed once that lock is held.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "results/res.h"

/* The most symbolic links followed, as the kernel's own limit (40). */
#define MAX_LINKS 40

/* The target of link "cur", relative targets taken from the link's own
 * folder, into "next".  Returns 0, or -1 with errno set.
 */
static int follow(const char *cur, char *next, size_t size)
{
	char target[RES_PATH_LEN];
	const char *slash = strrchr(cur, '/');
	ssize_t n = readlink(cur, target, sizeof(target) - 1);
	int len;

	if (n < 0)
		return -1;
	target[n] = '\0';
	if (target[0] == '/' || !slash)
		len = snprintf(next, size, "%s", target);
	else
		len = snprintf(next, size, "%.*s/%s", (int) (slash - cur),
			cur, target);
	if (len < 0 || (size_t) len >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

dse_stat res_path_resolve(const char *path, char *real, size_t size,
	dse_error *err)
{
	char cur[RES_PATH_LEN], next[RES_PATH_LEN];
	struct stat sb;
	size_t len = path ? strlen(path) : 0;
	int links = 0;

	if (len == 0)
		return dse_error_set(err, DSE_E_INPUT, "the output file name "
			"is empty");
	if (path[len - 1] == '/')
		return dse_error_set(err, DSE_E_INPUT, "output file '%s' ends "
			"in '/', which names a directory; give a file name "
			"(e.g. '%sresults.h5')", path, path);
	if (len >= sizeof(cur))
		return dse_error_set(err, DSE_E_INPUT, "output file name '%.64s"
			"...' is longer than %d characters", path,
			(int) sizeof(cur) - 1);
	memcpy(cur, path, len + 1);
	while (lstat(cur, &sb) == 0 && S_ISLNK(sb.st_mode)) {
		if (++links > MAX_LINKS)
			return dse_error_set(err, DSE_E_INPUT, "output file "
				"'%s': more than %d symbolic links (a loop?)",
				path, MAX_LINKS);
		if (follow(cur, next, sizeof(next)) < 0)
			return dse_error_set(err, DSE_E_IO, "cannot follow the "
				"symbolic link '%s': %s", cur, strerror(errno));
		memcpy(cur, next, strlen(next) + 1);
	}
	if (lstat(cur, &sb) == 0 && !S_ISREG(sb.st_mode))
		return dse_error_set(err, DSE_E_INPUT, "output file '%s'%s%s%s "
			"is %s, not a regular file; dse writes its results "
			"only to regular files, never over anything else",
			path, links ? " (a link to '" : "", links ? cur : "",
			links ? "')" : "", dse_file_kind(sb.st_mode));
	if (strlen(cur) >= size)
		return dse_error_set(err, DSE_E_INPUT, "output file name '%.64s"
			"...' is too long", cur);
	memcpy(real, cur, strlen(cur) + 1);
	return dse_stat_ok;
}

/* mkdir -p: makes "dir" and any missing parents.  A component that exists
 * but is not a directory is reported here, where the message can say so
 * plainly, rather than later as an obscure failure to create the file.
 */
static dse_stat make_dirs(char *dir, dse_error *err)
{
	struct stat sb;
	size_t len = strlen(dir);

	for (size_t i = 1; i <= len; i++) {
		if (i < len && dir[i] != '/')
			continue;
		dir[i] = '\0';
		if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
			dse_error_set(err, DSE_E_IO,
				"cannot create directory '%s': %s", dir,
				strerror(errno));
			return dse_stat_error;
		}
		if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
			dse_error_set(err, DSE_E_INPUT,
				"cannot create an output file under '%s': "
				"it is not a directory", dir);
			return dse_stat_error;
		}
		if (i < len)
			dir[i] = '/';
	}
	return dse_stat_ok;
}

dse_stat res_path_make_parent(const char *path, dse_error *err)
{
	const char *slash = strrchr(path, '/');
	char dir[RES_PATH_LEN];

	if (!slash || slash == path)
		return dse_stat_ok;
	if ((size_t) (slash - path) >= sizeof(dir))
		return dse_error_set(err, DSE_E_INPUT, "output file name '%.64s"
			"...' is too long", path);
	memcpy(dir, path, slash - path);
	dir[slash - path] = '\0';
	return make_dirs(dir, err);
}

int res_path_tmp(const char *real, char *tmp, size_t size)
{
	int n = snprintf(tmp, size, "%s.tmp.%ld", real, (long) getpid());

	return n < 0 || (size_t) n >= size ? -1 : 0;
}

dse_stat res_path_probe(const char *real, dse_error *err)
{
	char tmp[RES_PATH_LEN + 32];
	int fd;

	if (res_path_make_parent(real, err) < 0)
		return dse_stat_error;
	if (res_path_tmp(real, tmp, sizeof(tmp)) < 0)
		return dse_error_set(err, DSE_E_INPUT, "output file name '%.64s"
			"...' is too long", real);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return dse_error_set(err, DSE_E_IO, "cannot create '%s' beside "
			"the output file: %s", tmp, strerror(errno));
	close(fd);
	unlink(tmp);
	return dse_stat_ok;
}

/* ---- one writer ---- */

struct res_lock {
	int fd;
	char path[RES_PATH_LEN + 8];
};

/* What the lock file says of its holder ("pid host"), for the message. */
static void read_holder(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);
	char *nl;

	buf[n > 0 ? n : 0] = '\0';
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
}

/* Opens and locks "path"; 1 when this process now holds the lock, 0 when
 * another does (its words in "holder"), -1 with errno on failure.  The
 * file may be unlinked by its holder between our open and our lock; a
 * lock on a file no longer at "path" protects nothing, so that case
 * tries again.
 */
static int try_lock(const char *path, int *out, char *holder, size_t size)
{
	for (int tries = 0; tries < 100; tries++) {
		struct stat a, b;
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int e = errno;

			if (e == EWOULDBLOCK)
				read_holder(fd, holder, size);
			close(fd);
			errno = e;
			return e == EWOULDBLOCK ? 0 : -1;
		}
		if (fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			*out = fd;
			return 1;
		}
		close(fd);
	}
	errno = EAGAIN;
	return -1;
}

res_lock *res_lock_take(const char *real, dse_error *err)
{
	res_lock *l = calloc(1, sizeof(*l));
	char holder[128], host[64], line[160];
	int got, n;

	if (!l) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory (a lock of %zu "
			"bytes)", sizeof(*l));
		return NULL;
	}
	n = snprintf(l->path, sizeof(l->path), "%s.lock", real);
	if (n < 0 || (size_t) n >= sizeof(l->path)) {
		free(l);
		dse_error_set(err, DSE_E_INPUT, "output file name '%.64s...' is "
			"too long", real);
		return NULL;
	}
	holder[0] = '\0';
	got = try_lock(l->path, &l->fd, holder, sizeof(holder));
	if (got <= 0) {
		if (got == 0)
			dse_error_set(err, DSE_E_INPUT, "'%s' is being written "
				"by another dse (process %s, which holds "
				"'%s'); wait for it to finish or stop it, or "
				"write to another file", real, holder[0] ?
				holder : "unknown", l->path);
		else
			dse_error_set(err, DSE_E_IO, "cannot lock '%s': %s",
				l->path, strerror(errno));
		free(l);
		return NULL;
	}
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "?");
	host[sizeof(host) - 1] = '\0';
	n = snprintf(line, sizeof(line), "%ld on host %s\n", (long) getpid(),
		host);
	/* The holder's words are only for another writer's message. */
	if (ftruncate(l->fd, 0) < 0 || pwrite(l->fd, line, n, 0) != n)
		line[0] = '\0';
	return l;
}

res_lock *res_lock_release(res_lock *l)
{
	if (!l)
		return NULL;
	/* Removed while still held: a writer that opened it meanwhile finds
	 * its lock on a file no longer at the name and tries again.
	 */
	unlink(l->path);
	close(l->fd);
	free(l);
	return NULL;
}

/* Whether "name" is "base" followed by ".tmp." and a process number. */
static long tmp_pid(const char *name, const char *base)
{
	size_t n = strlen(base);
	const char *p;
	char *end;
	long pid;

	if (strncmp(name, base, n) || strncmp(name + n, ".tmp.", 5))
		return -1;
	p = name + n + 5;
	if (*p < '0' || *p > '9')
		return -1;
	pid = strtol(p, &end, 10);
	return *end ? -1 : pid;
}

int res_path_sweep_stale(const res_lock *lock, const char *real)
{
	const char *slash = strrchr(real, '/');
	char dir[RES_PATH_LEN], file[RES_PATH_LEN + 300];
	const char *base = slash ? slash + 1 : real;
	struct dirent *d;
	DIR *dp;
	int removed = 0;

	if (!lock)
		return 0;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == real)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int) (slash - real), real);
	dp = opendir(dir);
	if (!dp)
		return 0;
	/* Every writer of "real" holds the lock while its temporary file
	 * exists, and this process holds it now: any other temporary file
	 * of "real" was left by a writer that is gone, on whatever host it
	 * ran.
	 */
	while ((d = readdir(dp)) != NULL) {
		long pid = tmp_pid(d->d_name, base);

		if (pid < 0 || pid == (long) getpid())
			continue;
		snprintf(file, sizeof(file), "%s/%s", dir, d->d_name);
		if (unlink(file) == 0)
			removed++;
	}
	closedir(dp);
	return removed;
}
