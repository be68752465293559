/*
 * The control socket (--control PATH): a line protocol that drives virtual
 * touch devices on the headless backend and answers questions for tests.
 * Every command gets one reply line, "ok ..." or "error ...".  The lines
 * are parsed by control-parse.c; here they are carried out.
 *
 *   add-touch                 -> ok N        a new touchscreen, number N
 *   remove-touch N            -> ok
 *   down N ID X Y [TIME]      -> ok          X, Y in layout pixels, inside the layout
 *   motion N ID X Y [TIME]    -> ok
 *   up N ID [TIME]            -> ok
 *   cancel N ID [TIME]        -> ok
 *   frame N                   -> ok
 *   clock MS                  -> ok          touch events from now on happen MS ms after
 *                                            the first clock command; timers run to it
 *   barrier SIZE              -> ok          every window is asked to be SIZE x SIZE
 *   stats                     -> ok points=P touches=T held=H actions=A windows=W
 *   quit                      -> ok          the compositor exits
 *
 * A virtual device stamps every event of a frame (up to `frame N`) with the
 * time of the frame's first event, as the kernel stamps a hardware frame;
 * TIME (manual clock only, at most the current clock) stamps one event
 * with a time of the test's choosing.
 *
 * Every line gets its reply, in order: a line longer than CONTROL_LINE_MAX
 * is refused once and dropped whole, and while a reply waits for the
 * client to read, nothing more is read from that client.
 *
 * The socket is created 0600 and only processes of the compositor's user
 * (or root) may talk to it (SO_PEERCRED).  When no file descriptor is left
 * for a connection, the socket is not watched until a control client goes
 * or a second has passed (the pending connection waits in the backlog).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <wlr/backend/headless.h>
#include <wlr/backend/multi.h>
#include <wlr/interfaces/wlr_input_device.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/util/log.h>

#include "control-parse.h"
#include "wlcomp.h"

/* how long the socket rests when accept4 runs out of descriptors */
#define ACCEPT_RETRY_MS 1000

struct control_client {
	struct wl_list link;
	struct server *server;
	int fd;
	struct wl_event_source *source;
	char buf[CONTROL_LINE_MAX];
	size_t len;
	/* the rest of a line that was too long is dropped up to its newline */
	bool skipping;
	/* a reply the client's socket did not take yet: no further line is
	 * carried out, nor read, until it has gone (every line one reply) */
	char out[CONTROL_LINE_MAX];
	size_t out_len;
};

static struct wlr_backend *
headless_backend(struct server *server)
{
	return server->headless ? server->backend : NULL;
}

static struct touch_device *
find_touch(struct server *server, int number)
{
	struct touch_device *td;

	wl_list_for_each(td, &server->touch_devices, link)
		if (td->number == number)
			return td;
	return NULL;
}

/* One reply line (cut to CONTROL_LINE_MAX with its newline): its length. */
static size_t
format_reply(char out[CONTROL_LINE_MAX], const char *fmt, va_list ap)
{
	int n = vsnprintf(out, CONTROL_LINE_MAX - 1, fmt, ap);

	if (n < 0)
		n = 0;
	if ((size_t)n > CONTROL_LINE_MAX - 2)
		n = CONTROL_LINE_MAX - 2;
	out[n++] = '\n';
	return (size_t)n;
}

/* Write what is pending: false when the socket could not take all of it. */
static bool
flush_reply(struct control_client *c)
{
	while (c->out_len) {
		ssize_t n = write(c->fd, c->out, c->out_len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN) {
			/* the client went: it reads nothing any more */
			wlr_log(WLR_DEBUG, "control: reply lost: %s", strerror(errno));
			c->out_len = 0;
			break;
		}
		if (n < 0)
			return false;
		memmove(c->out, c->out + n, c->out_len - (size_t)n);
		c->out_len -= (size_t)n;
	}
	return true;
}

/* The reply to the line being carried out (one per line, so it fits). */
__attribute__((format(printf, 2, 3)))
static void
reply(struct control_client *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	c->out_len = format_reply(c->out, fmt, ap);
	va_end(ap);
	flush_reply(c);
}

/* A reply to a connection that is refused (best effort: it is closed). */
__attribute__((format(printf, 2, 3)))
static void
reply_raw(int fd, const char *fmt, ...)
{
	char out[CONTROL_LINE_MAX];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = format_reply(out, fmt, ap);
	va_end(ap);
	if (write(fd, out, n) < 0)
		wlr_log(WLR_DEBUG, "control: reply lost: %s", strerror(errno));
}

/*
 * `clock MS`: the touch clock becomes manual.  The first command takes the
 * current CLOCK_MONOTONIC time as its origin (so input time never goes
 * back) and stops the gesture timers of the context's fd; from then on
 * touch events carry origin + MS and the timers run up to it here, so a
 * test's gestures do not depend on how fast the compositor runs.
 */
static void
set_clock(struct control_client *c, uint64_t ms)
{
	struct server *server = c->server;
	uint64_t origin = server->manual_clock ? server->clock_base_us : input_time_us(server);

	if (ms > (UINT64_MAX - origin) / 1000u) {
		reply(c, "error usage: clock MS (milliseconds, a whole number)");
		return;
	}
	if (server->manual_clock && origin + ms * 1000u < server->clock_us) {
		reply(c, "error clock %llu is before the current time %llu",
		      (unsigned long long)ms,
		      (unsigned long long)((server->clock_us - server->clock_base_us) / 1000u));
		return;
	}
	if (!server->manual_clock) {
		server->clock_base_us = origin;
		server->manual_clock = true;
		/* the timers now run only here */
		gestures_stop(server);
	}
	server->clock_us = server->clock_base_us + ms * 1000u;
	utouch_comp_advance_time(server->gestures, server->clock_us);
	input_run_gesture_events(server);
	reply(c, "ok");
}

/*
 * The time a touch command's event is stamped with, in microseconds: the
 * TIME it gives, else the time of the first event of the device's frame
 * (the current time when it opens one).
 */
static bool
event_time(struct control_client *c, struct touch_device *td, const struct control_cmd *cmd,
	   uint64_t *us)
{
	struct server *server = c->server;

	if (!cmd->has_time) {
		if (!td->frame_open) {
			td->frame_open = true;
			td->frame_us = input_time_us(server);
		}
		*us = td->frame_us;
		return true;
	}
	if (!server->manual_clock) {
		reply(c, "error an event TIME needs the manual clock (clock MS)");
		return false;
	}
	if (cmd->time_ms > (server->clock_us - server->clock_base_us) / 1000u) {
		reply(c, "error time %llu is after the current time %llu",
		      (unsigned long long)cmd->time_ms,
		      (unsigned long long)((server->clock_us - server->clock_base_us) / 1000u));
		return false;
	}
	*us = server->clock_base_us + cmd->time_ms * 1000u;
	return true;
}

/* A position in the layout, as the 0..1 fraction a touchscreen reports. */
static bool
normalise(struct control_client *c, double x, double y, double *nx, double *ny)
{
	struct wlr_box box;

	if (!output_layout_box(c->server, &box) || box.width <= 0 || box.height <= 0) {
		reply(c, "error there is no output to touch");
		return false;
	}
	if (!(x >= box.x && x <= box.x + box.width && y >= box.y && y <= box.y + box.height)) {
		reply(c, "error %g %g is outside the layout (%d,%d %dx%d)", x, y, box.x, box.y,
		      box.width, box.height);
		return false;
	}
	*nx = (x - box.x) / box.width;
	*ny = (y - box.y) / box.height;
	return true;
}

static void
touch_event(struct control_client *c, struct touch_device *td, const struct control_cmd *cmd)
{
	struct wlr_touch *touch = td->device->touch;
	double nx = 0, ny = 0;
	uint64_t us;
	uint32_t msec;

	if (!event_time(c, td, cmd, &us))
		return;
	if ((cmd->op == CONTROL_DOWN || cmd->op == CONTROL_MOTION) &&
	    !normalise(c, cmd->x, cmd->y, &nx, &ny))
		return;
	double ox, oy;
	if (cmd->op == CONTROL_DOWN && touch_origin_get(td, cmd->id, &ox, &oy)) {
		/* a real device sends no second down; the context would refuse
		 * it as a device bug and change nothing */
		reply(c, "error touch %" PRId32 " is down already on touch device %d", cmd->id,
		      cmd->device);
		return;
	}
	/* as a real device does: milliseconds in 32 bits */
	msec = (uint32_t)(us / 1000u);
	switch (cmd->op) {
	case CONTROL_DOWN: {
		struct wlr_event_touch_down ev = {
			.device = td->device, .time_msec = msec, .touch_id = cmd->id,
			.x = nx, .y = ny,
		};
		wl_signal_emit(&touch->events.down, &ev);
		break;
	}
	case CONTROL_MOTION: {
		struct wlr_event_touch_motion ev = {
			.device = td->device, .time_msec = msec, .touch_id = cmd->id,
			.x = nx, .y = ny,
		};
		wl_signal_emit(&touch->events.motion, &ev);
		break;
	}
	case CONTROL_UP: {
		struct wlr_event_touch_up ev = {
			.device = td->device, .time_msec = msec, .touch_id = cmd->id,
		};
		wl_signal_emit(&touch->events.up, &ev);
		break;
	}
	default: {
		struct wlr_event_touch_cancel ev = {
			.device = td->device, .time_msec = msec, .touch_id = cmd->id,
		};
		wl_signal_emit(&touch->events.cancel, &ev);
		break;
	}
	}
	reply(c, "ok");
}

static void
command(struct control_client *c, const char *line)
{
	struct server *server = c->server;
	struct control_cmd cmd;
	char err[CONTROL_LINE_MAX];
	struct touch_device *td = NULL;
	struct view *v;
	int r;

	if (server->quitting) {
		/* lines sent after `quit`, by any client, are not carried out */
		reply(c, "error the compositor is quitting");
		return;
	}
	r = control_parse(line, &cmd, err, sizeof(err));
	if (r <= 0) {
		/* a blank line does nothing, and says so: every line one reply */
		if (r < 0)
			reply(c, "error %s", err);
		else
			reply(c, "ok");
		return;
	}
	if (control_op_has_device(cmd.op) && !(td = find_touch(server, cmd.device))) {
		reply(c, "error no touch device %d", cmd.device);
		return;
	}
	switch (cmd.op) {
	case CONTROL_ADD_TOUCH: {
		struct wlr_backend *hb = headless_backend(server);
		struct wlr_input_device *dev;

		if (!hb) {
			reply(c, "error virtual touch devices need the headless backend");
			return;
		}
		dev = wlr_headless_add_input_device(hb, WLR_INPUT_DEVICE_TOUCH);
		if (!dev) {
			reply(c, "error cannot create a device");
			return;
		}
		/* the backend announced it through new_input: it is the last one */
		td = wl_list_empty(&server->touch_devices) ? NULL
			: wl_container_of(server->touch_devices.prev, td, link);
		if (!td || td->device != dev) {
			reply(c, "error the device was not taken");
			return;
		}
		td->virtual = true;
		reply(c, "ok %d", td->number);
		break;
	}
	case CONTROL_REMOVE_TOUCH:
		if (!td->virtual) {
			reply(c, "error touch device %d is not virtual", cmd.device);
			return;
		}
		wlr_input_device_destroy(td->device);
		reply(c, "ok");
		break;
	case CONTROL_DOWN:
	case CONTROL_MOTION:
	case CONTROL_UP:
	case CONTROL_CANCEL:
		touch_event(c, td, &cmd);
		break;
	case CONTROL_FRAME:
		td->frame_open = false;
		wl_signal_emit(&td->device->touch->events.frame, NULL);
		reply(c, "ok");
		break;
	case CONTROL_CLOCK:
		set_clock(c, cmd.time_ms);
		break;
	case CONTROL_BARRIER:
		wl_list_for_each(v, &server->views, link)
			if (v->mapped)
				wlr_xdg_toplevel_set_size(v->xdg, cmd.size, cmd.size);
		reply(c, "ok");
		break;
	case CONTROL_STATS: {
		int windows = 0;

		wl_list_for_each(v, &server->views, link)
			windows += v->mapped;
		reply(c, "ok points=%d touches=%zu held=%zu actions=%lu windows=%d",
		      wlr_seat_touch_num_points(server->seat),
		      utouch_comp_get_touch_count(server->gestures),
		      utouch_comp_get_held_count(server->gestures), server->actions_run, windows);
		break;
	}
	case CONTROL_QUIT:
		reply(c, "ok");
		server->quitting = true;
		wl_display_terminate(server->display);
		break;
	}
}

/* Watch the listening socket again (a descriptor may be free now). */
static void
listen_resume(struct server *server)
{
	if (server->control_source && server->control_paused) {
		wl_event_source_fd_update(server->control_source, WL_EVENT_READABLE);
		server->control_paused = false;
	}
}

static int
on_accept_retry(void *data)
{
	listen_resume(data);
	return 0;
}

static void
client_close(struct control_client *c)
{
	wl_event_source_remove(c->source);
	close(c->fd);
	wl_list_remove(&c->link);
	listen_resume(c->server);
	free(c);
}

/*
 * Carries out the whole lines read so far, one at a time, until a reply
 * waits for the client to read: then the client is watched for writing
 * only (its further lines wait in the socket), so a client that sends
 * thousands of lines before it reads gets every reply, and one that never
 * reads costs one line of memory.
 */
static void
run_lines(struct control_client *c)
{
	while (!c->out_len) {
		char *nl = memchr(c->buf, '\n', c->len);
		size_t used;

		if (!nl) {
			if (c->len == sizeof(c->buf)) {
				/* one reply for the line, however long */
				reply(c, "error line too long (more than %d bytes)",
				      CONTROL_LINE_MAX - 1);
				c->skipping = true;
				c->len = 0;
			}
			break;
		}
		*nl = '\0';
		used = (size_t)(nl - c->buf) + 1;
		if (memchr(c->buf, '\0', used - 1))
			reply(c, "error the line contains a NUL byte");
		else
			command(c, c->buf);
		memmove(c->buf, c->buf + used, c->len - used);
		c->len -= used;
	}
	wl_event_source_fd_update(c->source, c->out_len ? WL_EVENT_WRITABLE : WL_EVENT_READABLE);
}

/* Reads what the client sent and runs its whole lines: the bytes read,
 * 0 at its end, -1 on an error or when nothing waits (errno says). */
static ssize_t
take_input(struct control_client *c)
{
	ssize_t n = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);

	if (n <= 0)
		return n;
	ssize_t got = n;
	if (c->skipping) {
		/* drop the rest of a line that was too long, up to its newline */
		char *nl = memchr(c->buf + c->len, '\n', (size_t)n);

		if (!nl)
			return got;
		c->skipping = false;
		n -= nl + 1 - (c->buf + c->len);
		memmove(c->buf + c->len, nl + 1, (size_t)n);
	}
	c->len += (size_t)n;
	run_lines(c);
	return got;
}

static int
on_client(int fd, uint32_t mask, void *data)
{
	struct control_client *c = data;
	ssize_t n;

	(void)fd;
	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		/* the whole lines it sent before it went still count (`echo
		 * quit | nc -U`); their replies have nobody to go to */
		while (!c->out_len && take_input(c) > 0) {
		}
		client_close(c);
		return 0;
	}
	if (c->out_len) {
		if (flush_reply(c))
			run_lines(c);
		return 0;
	}
	n = take_input(c);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		client_close(c);
	return 0;
}

/* Only the compositor's user (or root) may drive it. */
static bool
peer_allowed(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	uid_t me = geteuid();

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || len != sizeof(cred)) {
		fprintf(stderr, "utouch-wlcomp: control: cannot identify a client (%s): refused\n",
			strerror(errno));
		return false;
	}
	if (cred.uid == me || cred.uid == 0)
		return true;
	fprintf(stderr, "utouch-wlcomp: control: refused a client of uid %u (pid %d): "
		"only uid %u may use the control socket\n", (unsigned)cred.uid, (int)cred.pid,
		(unsigned)me);
	reply_raw(fd, "error permission denied: uid %u may not use this control socket",
		  (unsigned)cred.uid);
	return false;
}

/* Out of descriptors or memory: rest until a client goes or a while passed. */
static void
listen_pause(struct server *server, const char *why)
{
	/* without a rest the socket stays readable and the loop spins */
	fprintf(stderr, "utouch-wlcomp: control: cannot accept a client (%s); "
		"retrying when a client goes or in %d ms\n", why, ACCEPT_RETRY_MS);
	wl_event_source_fd_update(server->control_source, 0);
	server->control_paused = true;
	if (server->control_retry)
		wl_event_source_timer_update(server->control_retry, ACCEPT_RETRY_MS);
}

static bool
out_of_resources(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM;
}

static int
on_listen(int fd, uint32_t mask, void *data)
{
	struct server *server = data;
	struct control_client *c;
	int cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (cfd < 0) {
		/* the connection stays in the backlog */
		if (out_of_resources(errno))
			listen_pause(server, strerror(errno));
		return 0;
	}
	if (!peer_allowed(cfd)) {
		close(cfd);
		return 0;
	}
	c = calloc(1, sizeof(*c));
	if (c) {
		c->server = server;
		c->fd = cfd;
		/* the event loop duplicates the descriptor: one more is needed */
		c->source = wl_event_loop_add_fd(server->loop, cfd, WL_EVENT_READABLE, on_client, c);
	}
	if (!c || !c->source) {
		int err = c ? errno : ENOMEM;

		reply_raw(cfd, "error the compositor cannot take a client now: %s", strerror(err));
		close(cfd);
		free(c);
		if (out_of_resources(err))
			listen_pause(server, strerror(err));
		return 0;
	}
	wl_list_insert(&server->control_clients, &c->link);
	return 0;
}

/* Whether a program accepts connections on the socket at @p addr. */
static bool
socket_live(const struct sockaddr_un *addr)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	bool live;

	if (fd < 0)
		return false;
	/* a full backlog (EAGAIN) is someone listening too */
	live = connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) == 0 ||
	       errno == EAGAIN || errno == EINPROGRESS;
	close(fd);
	return live;
}

/*
 * What may be at the control socket's path: nothing, or a socket nobody
 * listens on (left by a compositor that died), which is replaced.  Any
 * other file is the user's, and a live socket another program's: both
 * are refused, never removed.
 */
static bool
control_path_free(const char *path, const struct sockaddr_un *addr)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return true;
	if (!S_ISSOCK(st.st_mode)) {
		fprintf(stderr, "utouch-wlcomp: control socket %s: the file exists and is not a "
			"socket; not replacing it\n", path);
		return false;
	}
	if (socket_live(addr)) {
		fprintf(stderr, "utouch-wlcomp: control socket %s: another program listens on it "
			"(another utouch-wlcomp?)\n", path);
		return false;
	}
	unlink(path);
	return true;
}

int
control_init(struct server *server, const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int bound = -1;

	wl_list_init(&server->control_clients);
	server->control_fd = -1;
	if (!path)
		return 0;
	if (strlen(path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "utouch-wlcomp: control socket path too long: %s\n", path);
		return -1;
	}
	strcpy(addr.sun_path, path);
	if (!control_path_free(path, &addr))
		return -1;
	server->control_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (server->control_fd >= 0) {
		/* 0600 from the start: nobody else can connect in between */
		mode_t old = umask(0177);

		bound = bind(server->control_fd, (struct sockaddr *)&addr, sizeof(addr));
		umask(old);
	}
	if (server->control_fd < 0 || bound < 0 || listen(server->control_fd, 4) < 0) {
		fprintf(stderr, "utouch-wlcomp: control socket %s: %s\n", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (lstat(path, &st) == 0) {
		server->control_dev = st.st_dev;
		server->control_ino = st.st_ino;
	}
	server->control_path = strdup(path);
	server->control_source = wl_event_loop_add_fd(server->loop, server->control_fd,
						      WL_EVENT_READABLE, on_listen, server);
	server->control_retry = wl_event_loop_add_timer(server->loop, on_accept_retry, server);
	return server->control_source && server->control_retry && server->control_path ? 0 : -1;
}

void
control_finish(struct server *server)
{
	struct control_client *c, *tmp;

	wl_list_for_each_safe(c, tmp, &server->control_clients, link)
		client_close(c);
	if (server->control_source)
		wl_event_source_remove(server->control_source);
	server->control_source = NULL;
	if (server->control_retry)
		wl_event_source_remove(server->control_retry);
	server->control_retry = NULL;
	if (server->control_fd >= 0)
		close(server->control_fd);
	/* the socket file made, unless it was replaced meanwhile */
	struct stat st;
	if (server->control_path && lstat(server->control_path, &st) == 0 &&
	    st.st_dev == server->control_dev && st.st_ino == server->control_ino)
		unlink(server->control_path);
	free(server->control_path);
	server->control_path = NULL;
	server->control_fd = -1;
}
