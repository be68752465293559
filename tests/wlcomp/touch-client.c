/*
 * A Wayland test client: one xdg toplevel of a given size and colour that
 * prints every wl_touch event, one line each, and the toplevel's
 * configures (the tests' in-order barrier):
 *
 *   ready                   the window is mapped (a buffer is attached)
 *   down ID SX SY           wl_touch.down, surface-local position
 *   motion ID SX SY         wl_touch.motion
 *   up ID                   wl_touch.up
 *   frame                   wl_touch.frame
 *   cancel                  wl_touch.cancel
 *   configure W H           xdg_toplevel.configure with a size
 *
 * With TOUCH_CLIENT_TIMES=1 in the environment every line starts with the
 * CLOCK_MONOTONIC time it was received at, in microseconds (the latency
 * benchmark, bench/wlcomp-latency.py).  TOUCH_CLIENT_SEAT=N binds wl_seat
 * at version N (at most the advertised one; `max`: the advertised one;
 * default min(advertised, 5)); the line `seat V` says which.
 *
 * Commands on stdin (the misbehaving clients of the tests), one a line,
 * each answered `did CMD` after a round trip (or, for `error`, when the
 * compositor has closed the connection):
 *
 *   sync             nothing: everything sent before the command came
 *                    is printed before its `did sync`
 *   release-touch    wl_touch.release (wl_touch_destroy below seat v3)
 *   get-touch        wl_seat.get_touch again
 *   release-seat     wl_seat.release (wl_seat_destroy below v5)
 *   destroy-surface  the toplevel, its xdg_surface and wl_surface go
 *   error            a protocol error (a second xdg_surface for the surface)
 *   stall            the client stops reading its socket (prints `did
 *                    stall`, then sleeps until it is killed)
 *
 * usage: touch-client TITLE WIDTH HEIGHT
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"

static int stamp;
static uint32_t seat_want;   /* TOUCH_CLIENT_SEAT; 0: the default, UINT32_MAX: max */

static void
out(const char *fmt, ...)
{
	va_list ap;

	if (stamp) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		printf("%llu ", (unsigned long long)ts.tv_sec * 1000000ull +
				(unsigned long long)ts.tv_nsec / 1000u);
	}
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

struct client {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct wl_touch *touch;
	struct xdg_wm_base *wm_base;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wl_buffer *buffer;
	uint32_t seat_version;
	int width, height;
	int configured, mapped;
};

static void
touch_down(void *data, struct wl_touch *t, uint32_t serial, uint32_t time,
	   struct wl_surface *surface, int32_t id, wl_fixed_t x, wl_fixed_t y)
{
	out("down %d %.2f %.2f\n", id, wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void
touch_up(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id)
{
	out("up %d\n", id);
}

static void
touch_motion(void *data, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x,
	     wl_fixed_t y)
{
	out("motion %d %.2f %.2f\n", id, wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void
touch_frame(void *data, struct wl_touch *t)
{
	out("frame\n");
}

static void
touch_cancel(void *data, struct wl_touch *t)
{
	out("cancel\n");
}

static void
touch_shape(void *data, struct wl_touch *t, int32_t id, wl_fixed_t major, wl_fixed_t minor)
{
}

static void
touch_orientation(void *data, struct wl_touch *t, int32_t id, wl_fixed_t orientation)
{
}

static const struct wl_touch_listener touch_listener = {
	.down = touch_down,
	.up = touch_up,
	.motion = touch_motion,
	.frame = touch_frame,
	.cancel = touch_cancel,
	.shape = touch_shape,
	.orientation = touch_orientation,
};

static void
seat_capabilities(void *data, struct wl_seat *seat, uint32_t caps)
{
	struct client *c = data;

	if ((caps & WL_SEAT_CAPABILITY_TOUCH) && !c->touch) {
		c->touch = wl_seat_get_touch(seat);
		wl_touch_add_listener(c->touch, &touch_listener, c);
	}
}

static void
seat_name(void *data, struct wl_seat *seat, const char *name)
{
}

static const struct wl_seat_listener seat_listener = {
	.capabilities = seat_capabilities,
	.name = seat_name,
};

static void
wm_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_listener = { .ping = wm_ping };

static void
registry_global(void *data, struct wl_registry *reg, uint32_t name, const char *iface,
		uint32_t version)
{
	struct client *c = data;

	if (!strcmp(iface, wl_compositor_interface.name))
		c->compositor = wl_registry_bind(reg, name, &wl_compositor_interface, 4);
	else if (!strcmp(iface, wl_shm_interface.name))
		c->shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	else if (!strcmp(iface, wl_seat_interface.name) && !c->seat) {
		uint32_t v = seat_want ? seat_want : 5;

		c->seat_version = v < version ? v : version;
		if (c->seat_version > (uint32_t)wl_seat_interface.version)
			c->seat_version = (uint32_t)wl_seat_interface.version;
		c->seat = wl_registry_bind(reg, name, &wl_seat_interface, c->seat_version);
		wl_seat_add_listener(c->seat, &seat_listener, c);
	} else if (!strcmp(iface, xdg_wm_base_interface.name)) {
		c->wm_base = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(c->wm_base, &wm_listener, c);
	}
}

static void
registry_remove(void *data, struct wl_registry *reg, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_remove,
};

static void
xdg_surface_configure(void *data, struct xdg_surface *s, uint32_t serial)
{
	struct client *c = data;

	xdg_surface_ack_configure(s, serial);
	c->configured = 1;
	if (c->mapped)
		wl_surface_commit(c->surface);
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = xdg_surface_configure,
};

static void
toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
		   struct wl_array *states)
{
	if (w > 0 && h > 0)
		out("configure %d %d\n", w, h);
}

static void
toplevel_close(void *data, struct xdg_toplevel *t)
{
	printf("close\n");
	fflush(stdout);
	exit(0);
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

static struct wl_buffer *
make_buffer(struct client *c)
{
	int stride = c->width * 4, size = stride * c->height;
	int fd = memfd_create("touch-client", MFD_CLOEXEC);
	uint32_t *px;
	struct wl_shm_pool *pool;
	struct wl_buffer *buf;

	if (fd < 0 || ftruncate(fd, size) < 0)
		return NULL;
	px = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	for (int i = 0; i < c->width * c->height; i++)
		px[i] = 0xff3060a0;
	munmap(px, (size_t)size);
	pool = wl_shm_create_pool(c->shm, fd, size);
	buf = wl_shm_pool_create_buffer(pool, 0, c->width, c->height, stride,
					WL_SHM_FORMAT_ARGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return buf;
}

/* One command of stdin; false: the client is to end. */
static bool
command(struct client *c, const char *cmd)
{
	if (!strcmp(cmd, "sync")) {
		/* the round trip below is all */
	} else if (!strcmp(cmd, "release-touch") && c->touch) {
		if (c->seat_version >= 3)
			wl_touch_release(c->touch);
		else
			wl_touch_destroy(c->touch);
		c->touch = NULL;
	} else if (!strcmp(cmd, "get-touch") && !c->touch && c->seat) {
		c->touch = wl_seat_get_touch(c->seat);
		wl_touch_add_listener(c->touch, &touch_listener, c);
	} else if (!strcmp(cmd, "release-seat") && c->seat) {
		if (c->seat_version >= 5)
			wl_seat_release(c->seat);
		else
			wl_seat_destroy(c->seat);
		c->seat = NULL;
	} else if (!strcmp(cmd, "destroy-surface") && c->surface) {
		xdg_toplevel_destroy(c->toplevel);
		xdg_surface_destroy(c->xdg_surface);
		wl_surface_destroy(c->surface);
		c->surface = NULL;
	} else if (!strcmp(cmd, "error") && c->surface) {
		/* a surface has one xdg_surface: already_constructed */
		xdg_wm_base_get_xdg_surface(c->wm_base, c->surface);
		while (wl_display_dispatch(c->display) >= 0) {
		}
		out("did error %d\n", wl_display_get_error(c->display));
		return false;
	} else if (!strcmp(cmd, "stall")) {
		out("did stall\n");
		for (;;)
			pause();
	} else {
		out("bad command %s\n", cmd);
		return true;
	}
	if (wl_display_roundtrip(c->display) < 0)
		return false;
	out("did %s\n", cmd);
	return true;
}

/* Events from the compositor and commands from stdin until either ends. */
static void
run(struct client *c)
{
	char line[128];
	size_t len = 0;
	bool stdin_open = true;

	for (;;) {
		struct pollfd fds[2] = {
			{ .fd = wl_display_get_fd(c->display), .events = POLLIN },
			{ .fd = stdin_open ? 0 : -1, .events = POLLIN },
		};

		if (wl_display_flush(c->display) < 0 && errno != EAGAIN)
			return;
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (fds[0].revents && wl_display_dispatch(c->display) < 0)
			return;
		if (fds[1].revents) {
			ssize_t n = read(0, line + len, sizeof(line) - 1 - len);

			if (n <= 0) {
				stdin_open = false;
				continue;
			}
			len += (size_t)n;
			for (char *nl; (nl = memchr(line, '\n', len));) {
				*nl = '\0';
				if (!command(c, line))
					return;
				len -= (size_t)(nl + 1 - line);
				memmove(line, nl + 1, len);
			}
			if (len == sizeof(line) - 1)
				len = 0;   /* a line too long for any command */
		}
	}
}

int
main(int argc, char **argv)
{
	struct client c = { 0 };
	const char *sv = getenv("TOUCH_CLIENT_SEAT");

	if (argc != 4 || (c.width = atoi(argv[2])) <= 0 || (c.height = atoi(argv[3])) <= 0) {
		fprintf(stderr, "usage: touch-client TITLE WIDTH HEIGHT\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	stamp = getenv("TOUCH_CLIENT_TIMES") && !strcmp(getenv("TOUCH_CLIENT_TIMES"), "1");
	if (sv && *sv)
		seat_want = !strcmp(sv, "max") ? UINT32_MAX : (uint32_t)strtoul(sv, NULL, 10);
	c.display = wl_display_connect(NULL);
	if (!c.display) {
		fprintf(stderr, "touch-client: cannot connect to the compositor\n");
		return 1;
	}
	wl_registry_add_listener(wl_display_get_registry(c.display), &registry_listener, &c);
	wl_display_roundtrip(c.display);
	if (!c.compositor || !c.shm || !c.wm_base || !c.seat) {
		fprintf(stderr, "touch-client: the compositor lacks a global we need\n");
		return 1;
	}
	c.surface = wl_compositor_create_surface(c.compositor);
	c.xdg_surface = xdg_wm_base_get_xdg_surface(c.wm_base, c.surface);
	xdg_surface_add_listener(c.xdg_surface, &xdg_surface_listener, &c);
	c.toplevel = xdg_surface_get_toplevel(c.xdg_surface);
	xdg_toplevel_add_listener(c.toplevel, &toplevel_listener, &c);
	xdg_toplevel_set_title(c.toplevel, argv[1]);
	wl_surface_commit(c.surface);
	while (!c.configured)
		if (wl_display_dispatch(c.display) < 0)
			return 1;
	c.buffer = make_buffer(&c);
	if (!c.buffer) {
		fprintf(stderr, "touch-client: cannot make a buffer: %s\n", strerror(errno));
		return 1;
	}
	wl_surface_attach(c.surface, c.buffer, 0, 0);
	wl_surface_commit(c.surface);
	c.mapped = 1;
	wl_display_roundtrip(c.display);
	out("seat %u\n", c.seat_version);
	printf("ready\n");
	run(&c);
	return 0;
}
