/*
 * The fake uinput node (fake-uinput.h).
 */
#include "fake-uinput.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CALLS 1024

struct fu_call fu_calls[MAX_CALLS];
int fu_ncalls;
static char node[PATH_MAX];

static int (*chained)(int fd, unsigned long req, void *arg, int *rc);

void
fu_set_chain(int (*chain)(int fd, unsigned long req, void *arg, int *rc))
{
	chained = chain;
}

void
fu_set_node(const char *path)
{
	snprintf(node, sizeof(node), "%s", path);
}

/* Preloaded into another program (LD_PRELOAD), the node comes from the
 * environment. */
__attribute__((constructor)) static void
from_environment(void)
{
	const char *path = getenv("UTOUCH_TEST_FAKE_UINPUT");

	if (path && *path)
		fu_set_node(path);
}

int
fu_reset(void)
{
	int fd = open(node, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	close(fd);
	fu_ncalls = 0;
	return 0;
}

int
fu_is_node(int fd)
{
	char link[64], target[PATH_MAX];
	ssize_t n;

	if (!node[0])
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	return strcmp(target, node) == 0;
}

int
fu_find(unsigned long req, int value, int from)
{
	for (int i = from < 0 ? 0 : from; i < fu_ncalls; i++)
		if (fu_calls[i].req == req && (value < 0 || fu_calls[i].value == value))
			return i;
	return -1;
}

int
fu_count(unsigned long req)
{
	int n = 0;
	for (int i = 0; i < fu_ncalls; i++)
		n += fu_calls[i].req == req;
	return n;
}

struct input_event *
fu_written(size_t *n)
{
	struct stat st;
	int fd = open(node, O_RDONLY | O_CLOEXEC);
	struct input_event *ev = NULL;

	*n = 0;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size % (off_t)sizeof(*ev) == 0) {
		*n = (size_t)st.st_size / sizeof(*ev);
		ev = calloc(*n ? *n : 1, sizeof(*ev));
		if (ev && read(fd, ev, *n * sizeof(*ev)) != (ssize_t)(*n * sizeof(*ev))) {
			free(ev);
			ev = NULL;
		}
	}
	close(fd);
	return ev;
}

__attribute__((visibility("default")))
int
ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	int rc;
	if (chained && chained(fd, req, arg, &rc))
		return rc;
	if (!fu_is_node(fd)) {
		if (!real)
			real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
		return real(fd, req, arg);
	}
	if (fu_ncalls == MAX_CALLS) {
		errno = ENOSPC;
		return -1;
	}
	struct fu_call *c = &fu_calls[fu_ncalls++];

	memset(c, 0, sizeof(*c));
	c->req = req;
	if (req == UI_DEV_SETUP) {
		const struct uinput_setup *s = arg;

		memcpy(c->name, s->name, sizeof(c->name));
		c->id = s->id;
	} else if (req == UI_ABS_SETUP) {
		const struct uinput_abs_setup *s = arg;

		c->value = s->code;
		c->abs = s->absinfo;
	} else if (req != UI_DEV_CREATE && req != UI_DEV_DESTROY && req != UI_SET_PHYS) {
		c->value = (int)(intptr_t)arg;
	}
	return 0;
}
