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

int
gd_instance_lock(pid_t *holder, char *err, size_t errlen)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");
	char path[PATH_MAX];

	*holder = 0;
	if (dir && *dir == '/')
		snprintf(path, sizeof(path), "%s/utouch-gestured.lock", dir);
	else
		snprintf(path, sizeof(path), "/tmp/utouch-gestured-%u.lock", (unsigned)getuid());
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
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
		/* the pid is only for the message of a second daemon */
	}
	return fd;
}
