/*
 * utouch-gestured: the single-instance lock (gd-instance.h).
 */
#include "gd-instance.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static void
lock_path(char *path, size_t len)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");

	if (dir && *dir == '/')
		snprintf(path, len, "%s/utouch-gestured.lock", dir);
	else
		snprintf(path, len, "/tmp/utouch-gestured-%u.lock", (unsigned)getuid());
}

/* 1 when @p fd is the file at @p path (not one a daemon that was
 * ending removed, or its successor's) */
static int
is_path(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static int lock_once(const char *path, pid_t *holder, char *err, size_t errlen);

int
gd_instance_lock(pid_t *holder, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int fd = -ESTALE;

	*holder = 0;
	lock_path(path, sizeof(path));
	/* a daemon that ends removes the file it locked: a lock taken on a
	 * file it has just removed guards nothing, so take the new one
	 * (-ESTALE: the file locked was no longer the one at the path) */
	for (int tries = 0; tries < 5 && fd == -ESTALE; tries++)
		fd = lock_once(path, holder, err, errlen);
	if (fd == -ESTALE)
		snprintf(err, errlen, "the lock %s keeps being replaced", path);
	return fd;
}

void
gd_instance_unlock(int fd)
{
	char path[PATH_MAX];

	if (fd < 0)
		return;
	/* removed while still held: the next daemon makes a new one */
	lock_path(path, sizeof(path));
	if (is_path(fd, path))
		unlink(path);
	close(fd);
}

static int
lock_once(const char *path, pid_t *holder, char *err, size_t errlen)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot open the lock %s: %s", path, strerror(e));
		return -e;
	}
	/* without XDG_RUNTIME_DIR the lock is in /tmp, where anyone may have
	 * made it first: another user's lock file guards nothing of ours
	 * (held, it would keep the daemon from starting at all) */
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_uid != getuid()) {
		snprintf(err, errlen, "the lock %s belongs to uid %u, not to this user",
			 path, (unsigned)st.st_uid);
		close(fd);
		return -EPERM;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		char buf[32] = "";
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

		if (n > 0) {
			buf[n] = '\0';
			*holder = (pid_t)atol(buf);
		}
		close(fd);
		if (e == EWOULDBLOCK)
			return -EWOULDBLOCK;
		snprintf(err, errlen, "cannot lock %s: %s", path, strerror(e));
		return -e;
	}
	if (!is_path(fd, path)) {
		close(fd);
		return -ESTALE;
	}
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
		/* the pid is only for the message of a second daemon */
	}
	return fd;
}
