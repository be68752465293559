/*
 * End-to-end tests of geis on a real X server (Xorg + dummy video +
 * inputtest touch devices, see xorg-harness.h).
 *
 * Two kinds of client share one process here, each with its own X
 * connection, as they would on a desktop:
 *   - a geis client (window manager or application) whose subscriptions
 *     take touch grabs through the geis X11 backend;
 *   - a "painting" client that selects raw XI 2.2 touch events on its
 *     own window and records what it gets.
 *
 * Usage: test-geis-x11 SCENARIO, one of
 *   wm-wins       a 3-touch swipe accepted by the window manager never
 *                 reaches the painting client
 *   fallthrough   a 3-touch tap no subscription matches is rejected and
 *                 replayed to the painting client, in order, with its
 *                 coordinates
 *   mixed         an application with a 2-touch pinch subscription and
 *                 raw touch handling on the same window
 *   timeout       a touch held still is rejected after the drag timeout
 *                 and reaches the window below without further input
 *   hotplug       device removal and addition during a session
 *   server-gone   the X server dies under a running geis client
 *   latency       time from a touch at the server to the geis event
 *                 (prints statistics, asserts only that events arrive)
 *   grab-sharing  two subscriptions on one window share its touch grab;
 *                 the last one to go releases it
 *   v1            a geis v1 program on its own window gets a 2-touch drag
 *                 through its callbacks, in window coordinates
 *   undecided     a client that never decides: its ended 2-touch drag is
 *                 rejected and replayed to the painting client while it
 *                 runs; touch ids, child window and group id conventions
 *   no-track      a client without TRACK init arguments gets classes and
 *                 devices in geis 2.2.17's order; the Flick class
 *   events-tool   utouch-events --x11 as a window manager: its 3-touch
 *                 drag grab on the root window wins over the painting
 *                 client, and its JSON output shows the gesture
 *                 (the tool's path comes in $UTOUCH_EVENTS)
 *
 * Exit status 0 pass, 1 fail, 77 skip (Xorg cannot run here).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sys/wait.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>

#include <geis/geis.h>
#include <utouch/geis.h>

#include "xh-painter.h"
#include "xorg-harness.h"

/* the painting client's window, in screen pixels */
#define WIN_X 100
#define WIN_Y 100
#define WIN_W 600
#define WIN_H 400

static struct xh_server xs;


static void
die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "FAIL: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	xh_dump_log(&xs, 30);
	xh_stop(&xs);
	exit(1);
}

/* ------------------------------------------------------------------ */
/* the painting client                                                 */

static void
painter_open(struct painter *p)
{
	char err[256];
	if (painter_open_at(p, xs.display_name, WIN_X, WIN_Y, WIN_W, WIN_H, NULL, err,
			    sizeof(err)) < 0)
		die("%s", err);
}

/* ------------------------------------------------------------------ */
/* the geis client                                                     */

enum policy { POLICY_ACCEPT, POLICY_REJECT, POLICY_NONE };

struct gesture_rec {
	GeisGestureId id;
	int begun, updates, ended;
	int touches;
	char cls[16];
	double first_x, last_x, first_y, last_y;
	double radius_first, radius_last;
};

struct client {
	Geis geis;
	int fd;
	enum policy policy;
	struct gesture_rec g[64];
	int ng;
	int init_complete;
	int devices_available, devices_unavailable;
	int errors;
	/* latency: time of the newest gesture event */
	double last_event_ms;
	int nevents;
	/* called with every event before the client's own handling */
	void (*hook)(struct client *c, GeisEvent ev);
};

static struct gesture_rec *
find_rec(struct client *c, GeisGestureId id)
{
	for (int i = 0; i < c->ng; i++)
		if (c->g[i].id == id)
			return &c->g[i];
	if (c->ng == (int)(sizeof(c->g) / sizeof(c->g[0])))
		return NULL;
	struct gesture_rec *r = &c->g[c->ng++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	return r;
}

static double
frame_float(GeisFrame f, const char *name, double dflt)
{
	GeisAttr a = geis_frame_attr_by_name(f, name);
	if (!a)
		return dflt;
	switch (geis_attr_type(a)) {
	case GEIS_ATTR_TYPE_FLOAT:
		return geis_attr_value_to_float(a);
	case GEIS_ATTR_TYPE_INTEGER:
		return geis_attr_value_to_integer(a);
	default:
		return dflt;
	}
}

static void
handle_gesture(struct client *c, GeisEvent ev)
{
	GeisEventType type = geis_event_type(ev);
	GeisAttr a = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET);
	GeisGroupSet gs = a ? geis_attr_value_to_pointer(a) : NULL;
	if (!gs)
		return;
	c->last_event_ms = xh_now_ms();
	c->nevents++;
	for (GeisSize i = 0; i < geis_groupset_group_count(gs); i++) {
		GeisGroup grp = geis_groupset_group(gs, i);
		for (GeisSize j = 0; j < geis_group_frame_count(grp); j++) {
			GeisFrame f = geis_group_frame(grp, j);
			GeisGestureId id = geis_frame_id(f);
			struct gesture_rec *r = find_rec(c, id);
			if (!r)
				continue;
			double x = frame_float(f, GEIS_GESTURE_ATTRIBUTE_POSITION_X, NAN);
			double y = frame_float(f, GEIS_GESTURE_ATTRIBUTE_POSITION_Y, NAN);
			double rad = frame_float(f, GEIS_GESTURE_ATTRIBUTE_RADIUS, NAN);
			r->touches = (int)frame_float(f, GEIS_GESTURE_ATTRIBUTE_TOUCHES, 0);
			if (type == GEIS_EVENT_GESTURE_BEGIN) {
				r->begun++;
				r->first_x = x;
				r->first_y = y;
				r->radius_first = rad;
				GeisAttr n = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);
				if (n && geis_attr_type(n) == GEIS_ATTR_TYPE_STRING)
					snprintf(r->cls, sizeof(r->cls), "%s",
						 geis_attr_value_to_string(n));
				if (c->policy == POLICY_ACCEPT)
					XH_CHECK(geis_gesture_accept(c->geis, grp, id) ==
						      GEIS_STATUS_SUCCESS,
					      "accept gesture %u", (unsigned)id);
				else if (c->policy == POLICY_REJECT)
					geis_gesture_reject(c->geis, grp, id);
			} else if (type == GEIS_EVENT_GESTURE_UPDATE) {
				r->updates++;
			} else if (type == GEIS_EVENT_GESTURE_END) {
				r->ended++;
			}
			if (!isnan(x)) {
				r->last_x = x;
				r->last_y = y;
			}
			if (!isnan(rad))
				r->radius_last = rad;
		}
	}
}

/* Dispatch geis until it has been idle for @p idle_ms (at most @p max_ms). */
static void
client_pump(struct client *c, int idle_ms, int max_ms)
{
	double start = xh_now_ms(), last = start;
	while (xh_now_ms() - start < max_ms && xh_now_ms() - last < idle_ms) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		int r = poll(&pfd, 1, 10);
		if (r <= 0)
			continue;
		last = xh_now_ms();
		/* geis 2.2's three: never EMPTY */
		GeisStatus st = geis_dispatch_events(c->geis);
		if (st != GEIS_STATUS_SUCCESS && st != GEIS_STATUS_CONTINUE)
			c->errors++;
		GeisEvent ev;
		for (;;) {
			st = geis_next_event(c->geis, &ev);
			if (st != GEIS_STATUS_SUCCESS && st != GEIS_STATUS_CONTINUE)
				break;
			if (c->hook)
				c->hook(c, ev);
			switch (geis_event_type(ev)) {
			case GEIS_EVENT_INIT_COMPLETE:
				c->init_complete++;
				break;
			case GEIS_EVENT_DEVICE_AVAILABLE:
				c->devices_available++;
				break;
			case GEIS_EVENT_DEVICE_UNAVAILABLE:
				c->devices_unavailable++;
				break;
			case GEIS_EVENT_ERROR:
				c->errors++;
				break;
			case GEIS_EVENT_GESTURE_BEGIN:
			case GEIS_EVENT_GESTURE_UPDATE:
			case GEIS_EVENT_GESTURE_END:
				handle_gesture(c, ev);
				break;
			default:
				break;
			}
			geis_event_delete(ev);
		}
	}
}

/* set by scenarios that rely on $DISPLAY choosing the X11 backend */
static int default_backend;

static void
client_new(struct client *c, enum policy policy)
{
	memset(c, 0, sizeof(*c));
	c->policy = policy;
	if (default_backend)
		c->geis = geis_new(GEIS_INIT_TRACK_DEVICES, GEIS_INIT_SYNCHRONOUS_START,
				   GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	else
		c->geis = geis_new(UTOUCH_GEIS_INIT_X11, GEIS_INIT_TRACK_DEVICES,
				   GEIS_INIT_SYNCHRONOUS_START,
				   GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	if (!c->geis)
		die("geis_new on %s failed", xs.display_name);
	if (geis_get_configuration(c->geis, GEIS_CONFIGURATION_FD, &c->fd) !=
	    GEIS_STATUS_SUCCESS)
		die("no geis fd");
}

/* A subscription to @p cls with @p touches touches on @p window (0: root). */
static GeisSubscription
client_subscribe(struct client *c, const char *name, const char *cls, int touches,
		 Window window)
{
	GeisSubscription sub = geis_subscription_new(c->geis, name, GEIS_SUBSCRIPTION_NONE);
	GeisFilter filter = geis_filter_new(c->geis, name);
	if (!sub || !filter)
		die("subscription/filter");
	if (geis_filter_add_term(filter, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
				 GEIS_FILTER_OP_EQ, cls, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
				 GEIS_FILTER_OP_EQ, touches, NULL) != GEIS_STATUS_SUCCESS)
		die("class term");
	if (window) {
		if (geis_filter_add_term(filter, GEIS_FILTER_REGION,
					 GEIS_REGION_ATTRIBUTE_WINDOWID, GEIS_FILTER_OP_EQ,
					 (GeisInteger)window, NULL) != GEIS_STATUS_SUCCESS)
			die("region term");
	}
	if (geis_subscription_add_filter(sub, filter) != GEIS_STATUS_SUCCESS)
		die("add filter");
	if (geis_subscription_activate(sub) != GEIS_STATUS_SUCCESS)
		die("activate");
	return sub;
}

/*
 * Start a geis client on the test server with one subscription: @p cls
 * with @p touches touches on window @p window (0: the root window).
 */
static void
client_open(struct client *c, enum policy policy, const char *cls, int touches,
	    Window window)
{
	client_new(c, policy);
	client_subscribe(c, "test", cls, touches, window);
	client_pump(c, 100, 2000);
	XH_CHECK(c->init_complete == 1, "INIT_COMPLETE seen %d times", c->init_complete);
	XH_CHECK(c->devices_available >= 1, "no DEVICE_AVAILABLE event");
}

static void
client_close(struct client *c)
{
	geis_delete(c->geis);
	c->geis = NULL;
}

static const struct gesture_rec *
find_gesture(const struct client *c, const char *cls, int touches)
{
	for (int i = 0; i < c->ng; i++)
		if (c->g[i].begun && c->g[i].touches == touches &&
		    strcmp(c->g[i].cls, cls) == 0)
			return &c->g[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* touch helpers                                                       */

static struct xh_device *
dev0(void)
{
	return &xs.devices[0];
}

static void
sync_all(void)
{
	if (xh_sync(dev0()) < 0)
		die("sync: %s", xs.error);
}

/* n touches in a row at (x, y), spaced 60 px, moved by (dx, dy) per step */
static void
swipe(struct client *c, struct painter *p, int n, double x, double y, double dx,
      double dy, int steps)
{
	for (int i = 0; i < n; i++)
		xh_touch_begin(dev0(), (uint32_t)i + 1, x + 60 * i, y);
	sync_all();
	for (int s = 1; s <= steps; s++) {
		for (int i = 0; i < n; i++)
			xh_touch_update(dev0(), (uint32_t)i + 1, x + 60 * i + dx * s,
					y + dy * s);
		sync_all();
		client_pump(c, 5, 50);
		if (p)
			painter_pump(p);
	}
	for (int i = 0; i < n; i++)
		xh_touch_end(dev0(), (uint32_t)i + 1, x + 60 * i + dx * steps,
			     y + dy * steps);
	sync_all();
}

/* ------------------------------------------------------------------ */
/* scenarios                                                           */

static void
scenario_wm_wins(void)
{
	struct painter p;
	struct client wm;
	painter_open(&p);
	client_open(&wm, POLICY_ACCEPT, GEIS_GESTURE_DRAG, 3, 0);

	swipe(&wm, &p, 3, 200, 200, 0, 15, 12);
	client_pump(&wm, 200, 3000);
	painter_pump(&p);

	const struct gesture_rec *g = find_gesture(&wm, GEIS_GESTURE_DRAG, 3);
	XH_CHECK(g != NULL, "the window manager saw no 3-touch drag (%d gestures)", wm.ng);
	if (g) {
		XH_CHECK(g->ended == 1, "drag ended %d times", g->ended);
		XH_CHECK(g->updates > 3, "only %d updates", g->updates);
		/* the centroid moved 12 * 15 px down on the screen */
		XH_CHECK(fabs((g->last_y - g->first_y) - 180.0) < 40.0,
		      "drag moved %.1f px, expected about 180", g->last_y - g->first_y);
	}
	XH_CHECK(p.n == 0, "the painting client received %d touch events", p.n);
	client_close(&wm);
	painter_close(&p);
}

static void
scenario_fallthrough(void)
{
	struct painter p;
	struct client wm;
	/* no backend argument: $DISPLAY must select X11 */
	default_backend = 1;
	painter_open(&p);
	client_open(&wm, POLICY_ACCEPT, GEIS_GESTURE_DRAG, 3, 0);

	/* a 3-touch tap: down, still, up */
	const double x0 = 300, y0 = 250;
	for (int i = 0; i < 3; i++)
		xh_touch_begin(dev0(), (uint32_t)i + 1, x0 + 50 * i, y0);
	sync_all();
	client_pump(&wm, 20, 60);
	for (int i = 0; i < 3; i++)
		xh_touch_end(dev0(), (uint32_t)i + 1, x0 + 50 * i, y0);
	sync_all();
	/* rejection happens at the end of the touches or at the timeouts */
	double start = xh_now_ms();
	while (painter_count(&p, XI_TouchEnd) < 3 && xh_now_ms() - start < 3000) {
		client_pump(&wm, 20, 100);
		painter_pump(&p);
	}

	XH_CHECK(find_gesture(&wm, GEIS_GESTURE_DRAG, 3) == NULL,
	      "a tap was reported as a 3-touch drag");
	XH_CHECK(painter_count(&p, XI_TouchBegin) == 3, "%d TouchBegin replayed",
	      painter_count(&p, XI_TouchBegin));
	XH_CHECK(painter_count(&p, XI_TouchEnd) == 3, "%d TouchEnd replayed",
	      painter_count(&p, XI_TouchEnd));
	/* each touch: Begin before End, at its own coordinates */
	for (int i = 0; i < p.n; i++) {
		if (p.ev[i].type != XI_TouchBegin)
			continue;
		int k = -1;
		for (int j = 0; j < 3; j++)
			if (fabs(p.ev[i].x - (x0 + 50 * j - WIN_X)) < 1.0)
				k = j;
		XH_CHECK(k >= 0, "replayed begin at %.1f,%.1f matches no touch", p.ev[i].x,
		      p.ev[i].y);
		XH_CHECK(fabs(p.ev[i].y - (y0 - WIN_Y)) < 1.0, "begin y %.1f", p.ev[i].y);
		int ended_after = 0;
		for (int j = i + 1; j < p.n; j++)
			if (p.ev[j].id == p.ev[i].id && p.ev[j].type == XI_TouchEnd)
				ended_after = 1;
		XH_CHECK(ended_after, "touch %u: no End after its Begin", p.ev[i].id);
		for (int j = 0; j < i; j++)
			XH_CHECK(p.ev[j].id != p.ev[i].id, "touch %u: event before its Begin",
			      p.ev[i].id);
	}
	client_close(&wm);
	painter_close(&p);
}

static void
scenario_mixed(void)
{
	struct painter p;
	struct client app;
	painter_open(&p);
	/* the same application: raw touches on p.win, pinch gestures on p.win */
	client_open(&app, POLICY_ACCEPT, GEIS_GESTURE_PINCH, 2, p.win);

	/* a pinch: two touches moving apart */
	const double cx = 400, cy = 300;
	xh_touch_begin(dev0(), 1, cx - 40, cy);
	xh_touch_begin(dev0(), 2, cx + 40, cy);
	sync_all();
	for (int s = 1; s <= 12; s++) {
		xh_touch_update(dev0(), 1, cx - 40 - 10 * s, cy);
		xh_touch_update(dev0(), 2, cx + 40 + 10 * s, cy);
		sync_all();
		client_pump(&app, 5, 50);
	}
	xh_touch_end(dev0(), 1, cx - 160, cy);
	xh_touch_end(dev0(), 2, cx + 160, cy);
	sync_all();
	client_pump(&app, 200, 2000);
	painter_pump(&p);

	const struct gesture_rec *g = find_gesture(&app, GEIS_GESTURE_PINCH, 2);
	XH_CHECK(g != NULL, "no 2-touch pinch (%d gestures)", app.ng);
	if (g) {
		XH_CHECK(g->ended == 1, "pinch ended %d times", g->ended);
		XH_CHECK(g->radius_last > g->radius_first * 1.5,
		      "radius %.3f -> %.3f did not grow", g->radius_first, g->radius_last);
	}
	XH_CHECK(p.n == 0, "pinch touches reached the raw handler (%d events)", p.n);

	/* a one-finger stroke: no gesture, the raw handler gets it */
	int before = p.n;
	xh_touch_begin(dev0(), 3, 200, 200);
	sync_all();
	for (int s = 1; s <= 5; s++) {
		xh_touch_update(dev0(), 3, 200 + 20 * s, 200);
		sync_all();
		client_pump(&app, 5, 30);
	}
	xh_touch_end(dev0(), 3, 300, 200);
	sync_all();
	double start = xh_now_ms();
	while (painter_count(&p, XI_TouchEnd) < 1 && xh_now_ms() - start < 3000) {
		client_pump(&app, 20, 100);
		painter_pump(&p);
	}
	XH_CHECK(painter_count(&p, XI_TouchBegin) == 1, "stroke: %d begins",
	      painter_count(&p, XI_TouchBegin));
	XH_CHECK(painter_count(&p, XI_TouchUpdate) >= 5, "stroke: %d updates",
	      painter_count(&p, XI_TouchUpdate));
	XH_CHECK(painter_count(&p, XI_TouchEnd) == 1, "stroke: %d ends",
	      painter_count(&p, XI_TouchEnd));
	if (p.n > before) {
		XH_CHECK(fabs(p.ev[before].x - (200 - WIN_X)) < 1.0 &&
			      fabs(p.ev[before].y - (200 - WIN_Y)) < 1.0,
		      "stroke begins at %.1f,%.1f", p.ev[before].x, p.ev[before].y);
		XH_CHECK(fabs(p.ev[p.n - 1].x - (300 - WIN_X)) < 1.0, "stroke ends at %.1f",
		      p.ev[p.n - 1].x);
	}
	client_close(&app);
	painter_close(&p);
}

static void
scenario_timeout(void)
{
	struct painter p;
	struct client wm;
	painter_open(&p);
	client_open(&wm, POLICY_ACCEPT, GEIS_GESTURE_DRAG, 1, 0);

	xh_touch_begin(dev0(), 1, 350, 300);
	sync_all();
	double start = xh_now_ms();
	/* no further input: only geis's timer can make the touch move on */
	while (painter_count(&p, XI_TouchBegin) < 1 && xh_now_ms() - start < 3000) {
		client_pump(&wm, 20, 50);
		painter_pump(&p);
	}
	double waited = xh_now_ms() - start;
	XH_CHECK(painter_count(&p, XI_TouchBegin) == 1,
	      "the still touch did not reach the window (waited %.0f ms)", waited);
	XH_CHECK(find_gesture(&wm, GEIS_GESTURE_DRAG, 1) == NULL, "a still touch dragged");
	fprintf(stderr, "still touch replayed after %.0f ms\n", waited);
	if (p.n > 0)
		XH_CHECK(fabs(p.ev[0].x - (350 - WIN_X)) < 1.0, "replayed at %.1f", p.ev[0].x);
	xh_touch_end(dev0(), 1, 350, 300);
	sync_all();
	start = xh_now_ms();
	while (painter_count(&p, XI_TouchEnd) < 1 && xh_now_ms() - start < 2000) {
		client_pump(&wm, 20, 50);
		painter_pump(&p);
	}
	XH_CHECK(painter_count(&p, XI_TouchEnd) == 1, "no TouchEnd for the still touch");
	client_close(&wm);
	painter_close(&p);
}

static void
scenario_hotplug(void)
{
	struct client wm;
	client_open(&wm, POLICY_ACCEPT, GEIS_GESTURE_DRAG, 2, 0);
	int avail = wm.devices_available;

	if (xh_device_disable(&xs.devices[1]) < 0)
		die("disable: %s", xs.error);
	client_pump(&wm, 200, 2000);
	XH_CHECK(wm.devices_unavailable == 1, "%d DEVICE_UNAVAILABLE after removal",
	      wm.devices_unavailable);
	if (xh_device_enable(&xs.devices[1]) < 0)
		die("enable: %s", xs.error);
	client_pump(&wm, 200, 2000);
	XH_CHECK(wm.devices_available == avail + 1, "%d DEVICE_AVAILABLE after adding",
	      wm.devices_available - avail);

	/* gestures still work on the device that came back */
	struct xh_device *d = &xs.devices[1];
	xh_touch_begin(d, 1, 300, 300);
	xh_touch_begin(d, 2, 360, 300);
	xh_sync(d);
	for (int s = 1; s <= 10; s++) {
		xh_touch_update(d, 1, 300 + 15 * s, 300);
		xh_touch_update(d, 2, 360 + 15 * s, 300);
		xh_sync(d);
		client_pump(&wm, 5, 50);
	}
	xh_touch_end(d, 1, 450, 300);
	xh_touch_end(d, 2, 510, 300);
	xh_sync(d);
	client_pump(&wm, 200, 2000);
	const struct gesture_rec *g = find_gesture(&wm, GEIS_GESTURE_DRAG, 2);
	XH_CHECK(g && g->ended == 1, "no complete 2-touch drag on the re-added device");
	client_close(&wm);
}

static void
scenario_server_gone(void)
{
	struct client wm;
	client_open(&wm, POLICY_ACCEPT, GEIS_GESTURE_DRAG, 2, 0);
	xh_touch_begin(dev0(), 1, 300, 300);
	xh_touch_begin(dev0(), 2, 360, 300);
	sync_all();
	client_pump(&wm, 20, 100);
	if (xh_kill(&xs) < 0)
		die("kill");
	double start = xh_now_ms();
	client_pump(&wm, 300, 3000);
	XH_CHECK(xh_now_ms() - start < 3500, "geis hung after the server died");
	XH_CHECK(wm.errors > 0 || geis_error_count(wm.geis) > 0 ||
		      wm.devices_unavailable > 0,
	      "no error and no device removal after the server died");
	/* further calls fail cleanly */
	GeisStatus st = geis_dispatch_events(wm.geis);
	XH_CHECK(st != GEIS_STATUS_CONTINUE, "dispatch after server death: %d", st);
	client_close(&wm);
}

static void
scenario_latency(void)
{
	struct client wm;
	client_open(&wm, POLICY_ACCEPT, GEIS_GESTURE_DRAG, 2, 0);
	xh_touch_begin(dev0(), 1, 200, 300);
	xh_touch_begin(dev0(), 2, 260, 300);
	sync_all();
	/* cross the drag threshold quickly, within the drag timeout */
	double x = 200;
	for (int s = 1; s <= 8; s++) {
		x += 15;
		xh_touch_update(dev0(), 1, x, 300);
		xh_touch_update(dev0(), 2, x + 60, 300);
		sync_all();
		client_pump(&wm, 5, 50);
	}
	XH_CHECK(wm.ng == 1 && wm.g[0].begun == 1, "the drag did not begin (%d gestures)",
	      wm.ng);
	/* then time single motions until their gesture event arrives */
	double lat[200];
	int nlat = 0;
	for (int s = 1; s <= 150; s++) {
		x += 2;
		/* each touch moves in an X event (and frame) of its own */
		for (int t = 0; t < 2; t++) {
			int before = wm.nevents;
			double t0 = xh_now_ms();
			xh_touch_update(dev0(), (uint32_t)t + 1, x + 60 * t, 300);
			while (wm.nevents == before && xh_now_ms() - t0 < 500)
				client_pump(&wm, 1, 2);
			if (wm.nevents > before && t == 0)
				lat[nlat++] = wm.last_event_ms - t0;
		}
		sync_all();
	}
	xh_touch_end(dev0(), 1, x, 300);
	xh_touch_end(dev0(), 2, x + 60, 300);
	sync_all();
	client_pump(&wm, 200, 2000);
	XH_CHECK(nlat > 100, "only %d of 150 motions gave a gesture event", nlat);
	XH_CHECK(wm.ng == 1 && wm.g[0].ended == 1, "the drag did not end");
	if (nlat > 0) {
		for (int i = 1; i < nlat; i++)
			for (int j = i; j > 0 && lat[j] < lat[j - 1]; j--) {
				double t = lat[j];
				lat[j] = lat[j - 1];
				lat[j - 1] = t;
			}
		printf("latency touch->geis event: n=%d min=%.3f ms median=%.3f ms "
		       "p90=%.3f ms max=%.3f ms\n",
		       nlat, lat[0], lat[nlat / 2], lat[nlat * 9 / 10], lat[nlat - 1]);
	}
	client_close(&wm);
}

/*
 * Two subscriptions on the root window share one touch grab: deactivating
 * the first leaves the grab for the second, deactivating the second
 * releases it, and touches then go straight to the painting client.
 */
static void
scenario_grab_sharing(void)
{
	struct painter p;
	struct client wm;
	painter_open(&p);
	client_new(&wm, POLICY_ACCEPT);
	/* regions are windows here: rectangles are for window-less backends */
	XH_CHECK(geis_region_new(wm.geis, "rect", UTOUCH_GEIS_REGION_RECT, 0, 0, 10, 10, NULL) ==
		      NULL, "a rectangle region on X11");
	XH_CHECK(geis_error_count(wm.geis) > 0 &&
		      geis_error_code(wm.geis, 0) == GEIS_STATUS_NOT_SUPPORTED,
	      "no NOT_SUPPORTED for a rectangle region on X11");
	GeisSubscription three = client_subscribe(&wm, "three", GEIS_GESTURE_DRAG, 3, 0);
	GeisSubscription two = client_subscribe(&wm, "two", GEIS_GESTURE_DRAG, 2, 0);
	client_pump(&wm, 100, 2000);

	XH_CHECK(geis_subscription_deactivate(three) == GEIS_STATUS_SUCCESS, "deactivate");
	client_pump(&wm, 50, 500);
	swipe(&wm, &p, 2, 250, 200, 0, 15, 12);
	client_pump(&wm, 200, 2000);
	painter_pump(&p);
	const struct gesture_rec *g = find_gesture(&wm, GEIS_GESTURE_DRAG, 2);
	XH_CHECK(g && g->ended == 1, "the remaining subscription lost its drag");
	XH_CHECK(p.n == 0, "the shared grab was released early (%d raw events)", p.n);

	XH_CHECK(geis_subscription_deactivate(two) == GEIS_STATUS_SUCCESS, "deactivate");
	client_pump(&wm, 50, 500);
	int ng = wm.ng;
	xh_touch_begin(dev0(), 9, 300, 300);
	sync_all();
	painter_pump(&p);
	/* no grab left: the begin arrives at once, before any decision */
	XH_CHECK(painter_count(&p, XI_TouchBegin) == 1,
	      "without subscriptions the touch did not go straight to the window");
	xh_touch_update(dev0(), 9, 320, 300);
	xh_touch_end(dev0(), 9, 340, 300);
	sync_all();
	client_pump(&wm, 50, 300);
	painter_pump(&p);
	XH_CHECK(painter_count(&p, XI_TouchEnd) == 1, "the stroke did not end at the window");
	XH_CHECK(wm.ng == ng, "gestures after every subscription went");
	geis_subscription_delete(three);
	geis_subscription_delete(two);
	client_close(&wm);
	painter_close(&p);
}

/* ---- the deprecated v1 interface ---- */

struct v1_log {
	int starts, updates, finishes;
	GeisGestureType type;
	int touches, start_touches;
	double first_x, last_x, first_y, last_y;
};

static void
v1_note(struct v1_log *l, GeisGestureType type, GeisSize n, GeisGestureAttr *attrs,
	int first)
{
	l->type = type;
	for (GeisSize i = 0; i < n; i++) {
		if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_TOUCHES) == 0)
			l->touches = attrs[i].integer_val;
		else if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_POSITION_X) == 0) {
			if (first)
				l->first_x = attrs[i].float_val;
			l->last_x = attrs[i].float_val;
		} else if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_POSITION_Y) == 0) {
			if (first)
				l->first_y = attrs[i].float_val;
			l->last_y = attrs[i].float_val;
		}
	}
}

static void
v1_start(void *cookie, GeisGestureType type, GeisGestureId id, GeisSize n,
	 GeisGestureAttr *attrs)
{
	(void)id;
	struct v1_log *l = cookie;
	l->starts++;
	v1_note(l, type, n, attrs, 1);
	l->start_touches = l->touches;
}

static void
v1_update(void *cookie, GeisGestureType type, GeisGestureId id, GeisSize n,
	  GeisGestureAttr *attrs)
{
	(void)id;
	struct v1_log *l = cookie;
	l->updates++;
	v1_note(l, type, n, attrs, 0);
}

static void
v1_finish(void *cookie, GeisGestureType type, GeisGestureId id, GeisSize n,
	  GeisGestureAttr *attrs)
{
	(void)id;
	struct v1_log *l = cookie;
	l->finishes++;
	v1_note(l, type, n, attrs, 0);
}

static void
v1_pump(GeisInstance inst, int fd, int ms)
{
	double start = xh_now_ms();
	while (xh_now_ms() - start < ms) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		if (poll(&pfd, 1, 10) > 0)
			geis_event_dispatch(inst);
	}
}

/*
 * A program written for geis v1 runs on X11 unchanged: geis_init on its
 * window, "Drag,touch=2", and the start/update/finish callbacks with the
 * drag's attributes in the window's coordinates.
 */
static void
scenario_v1(void)
{
	struct painter p;
	painter_open(&p);   /* its window is the v1 program's window */
	GeisXcbWinInfo xcb = { .display_name = NULL, .screenp = NULL,
			       .window_id = (uint32_t)p.win };
	GeisWinInfo win = { .win_type = GEIS_XCB_FULL_WINDOW, .win_info = &xcb };
	GeisInstance inst = NULL;
	if (geis_init(&win, &inst) != GEIS_STATUS_SUCCESS || !inst)
		die("geis_init on window 0x%lx", (unsigned long)p.win);
	int fd = -1;
	XH_CHECK(geis_configuration_get_value(inst, GEIS_CONFIG_UNIX_FD, &fd) ==
		      GEIS_STATUS_SUCCESS && fd >= 0, "no GEIS_CONFIG_UNIX_FD");
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	GeisGestureFuncs funcs = { .start = v1_start, .update = v1_update,
				   .finish = v1_finish };
	struct v1_log log = { 0 };
	XH_CHECK(geis_subscribe(inst, NULL, types, &funcs, &log) == GEIS_STATUS_SUCCESS,
	      "geis_subscribe");
	v1_pump(inst, fd, 200);

	/* two fingers at window (150, 100) and (210, 100), 12 steps of 15 px right */
	xh_touch_begin(dev0(), 1, WIN_X + 150, WIN_Y + 100);
	xh_touch_begin(dev0(), 2, WIN_X + 210, WIN_Y + 100);
	sync_all();
	for (int s = 1; s <= 12; s++) {
		xh_touch_update(dev0(), 1, WIN_X + 150 + 15 * s, WIN_Y + 100);
		xh_touch_update(dev0(), 2, WIN_X + 210 + 15 * s, WIN_Y + 100);
		sync_all();
		v1_pump(inst, fd, 20);
	}
	xh_touch_end(dev0(), 1, WIN_X + 330, WIN_Y + 100);
	xh_touch_end(dev0(), 2, WIN_X + 390, WIN_Y + 100);
	sync_all();
	v1_pump(inst, fd, 500);

	XH_CHECK(log.starts == 1, "%d starts", log.starts);
	XH_CHECK(log.finishes == 1, "%d finishes", log.finishes);
	XH_CHECK(log.updates > 3, "%d updates", log.updates);
	XH_CHECK(log.type == GEIS_GESTURE_PRIMITIVE_DRAG, "gesture type %u", (unsigned)log.type);
	XH_CHECK(log.start_touches == 2, "began with %d touches", log.start_touches);
	/* window coordinates: the centroid starts near x 180 and ends at 360,
	 * or at 390 when the drag went on with the second finger after the
	 * first lifted (v1 subscribes with GEIS_SUBSCRIPTION_CONT) */
	XH_CHECK(log.first_x > 170 && log.first_x < 300, "first x %.1f", log.first_x);
	XH_CHECK(fabs(log.last_x - 360.0) < 2.0 || (log.touches == 1 && fabs(log.last_x - 390.0) < 2.0),
	      "last x %.1f with %d touches", log.last_x, log.touches);
	XH_CHECK(fabs(log.last_y - 100.0) < 2.0, "last y %.1f", log.last_y);
	XH_CHECK(geis_finish(inst) == GEIS_STATUS_SUCCESS, "geis_finish");
	painter_close(&p);
}

/* Read what @p fd has within @p ms into @p buf (appending). */
static size_t
read_some(int fd, char *buf, size_t len, size_t cap, int ms)
{
	double start = xh_now_ms();
	while (len + 1 < cap && xh_now_ms() - start < ms) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		if (poll(&pfd, 1, 20) <= 0)
			continue;
		ssize_t r = read(fd, buf + len, cap - 1 - len);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	return len;
}

static void
scenario_events_tool(void)
{
	const char *tool = getenv("UTOUCH_EVENTS");
	if (!tool)
		die("UTOUCH_EVENTS is not set");
	struct painter p;
	painter_open(&p);
	int out[2];
	if (pipe(out) < 0)
		die("pipe");
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		dup2(out[1], 1);
		close(out[0]);
		close(out[1]);
		execl(tool, tool, "--x11", "--window", "root", "-c", "drag", "-t", "3",
		      "--no-atomic", "--accept", "--json", (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	static char buf[1 << 20];
	size_t len = 0;
	/* started once it reported the touch device */
	double start = xh_now_ms();
	while (!strstr(buf, "INIT_COMPLETE") && xh_now_ms() - start < 5000)
		len = read_some(out[0], buf, len, sizeof(buf), 50);
	XH_CHECK(strstr(buf, "\"DEVICE_AVAILABLE\"") != NULL, "no device event from the tool");

	/* a 3-touch swipe; the tool's grab must take it */
	for (int i = 0; i < 3; i++)
		xh_touch_begin(dev0(), (uint32_t)i + 1, 200 + 60 * i, 200);
	sync_all();
	for (int s = 1; s <= 12; s++) {
		for (int i = 0; i < 3; i++)
			xh_touch_update(dev0(), (uint32_t)i + 1, 200 + 60 * i, 200 + 15 * s);
		sync_all();
		len = read_some(out[0], buf, len, sizeof(buf), 10);
	}
	for (int i = 0; i < 3; i++)
		xh_touch_end(dev0(), (uint32_t)i + 1, 200 + 60 * i, 380);
	sync_all();
	start = xh_now_ms();
	while (!strstr(buf, "\"GESTURE_END\"") && xh_now_ms() - start < 3000)
		len = read_some(out[0], buf, len, sizeof(buf), 50);
	painter_pump(&p);

	kill(pid, SIGINT);
	len = read_some(out[0], buf, len, sizeof(buf), 2000);
	int status = 0;
	pid_t w = 0;
	for (int i = 0; i < 200 && w == 0; i++) {
		w = waitpid(pid, &status, WNOHANG);
		if (w == 0)
			usleep(10000);
	}
	if (w == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	XH_CHECK(w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "utouch-events did not exit cleanly on SIGINT (status 0x%x)", status);
	XH_CHECK(strstr(buf, "\"GESTURE_BEGIN\"") != NULL, "no GESTURE_BEGIN in the output");
	XH_CHECK(strstr(buf, "\"GESTURE_END\"") != NULL, "no GESTURE_END in the output");
	XH_CHECK(strstr(buf, "\"touches\":3") != NULL, "no 3-touch gesture in the output");
	XH_CHECK(p.n == 0, "the painting client received %d touch events", p.n);
	close(out[0]);
	painter_close(&p);
}

/* ---- a listening client: touch ids, conventions ---- */

static struct {
	unsigned int ids[16];   /* touch ids geis reported (frame and touch set) */
	int nids;
	int mismatch;           /* frame touch ids != touch set ids */
	int child_not_event;    /* "child window id" != "event window id" */
	int group_not_frame;    /* group id != frame id */
	char name[32];          /* "gesture name" */
} seen;

static void
note_id(unsigned int id)
{
	for (int i = 0; i < seen.nids; i++)
		if (seen.ids[i] == id)
			return;
	if (seen.nids < 16)
		seen.ids[seen.nids++] = id;
}

static void
listen_hook(struct client *c, GeisEvent ev)
{
	(void)c;
	GeisEventType t = geis_event_type(ev);
	if (t != GEIS_EVENT_GESTURE_BEGIN && t != GEIS_EVENT_GESTURE_UPDATE &&
	    t != GEIS_EVENT_GESTURE_END)
		return;
	GeisGroupSet gs = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET));
	GeisTouchSet ts = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_TOUCHSET));
	GeisGroup grp = geis_groupset_group(gs, 0);
	GeisFrame f = geis_group_frame(grp, 0);
	if (!f || !ts)
		return;
	if (geis_group_id(grp) != (GeisInteger)geis_frame_id(f))
		seen.group_not_frame++;
	if (geis_attr_value_to_integer(geis_frame_attr_by_name(
		    f, GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID)) !=
	    geis_attr_value_to_integer(geis_frame_attr_by_name(
		    f, GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID)))
		seen.child_not_event++;
	snprintf(seen.name, sizeof(seen.name), "%s",
		 geis_attr_value_to_string(geis_frame_attr_by_name(
			 f, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME)));
	if (geis_frame_touchid_count(f) != geis_touchset_touch_count(ts))
		seen.mismatch++;
	for (GeisSize i = 0; i < geis_frame_touchid_count(f); i++) {
		GeisTouch touch = geis_touchset_touch(ts, i);
		if (!touch || geis_touch_id(touch) != geis_frame_touchid(f, i))
			seen.mismatch++;
		note_id(geis_frame_touchid(f, i));
	}
}

/*
 * A client that only listens (policy none, no atomic gestures): its
 * recognised 2-touch drag on the root window ends undecided, and geis
 * rejects its touches then, so the X server replays them to the painting
 * client below while the listener is still running (geis 2.2 did the
 * same; before, the touches stayed grabbed until the listener exited).
 * Also the attribute conventions on X11: touch ids are the XI touch ids
 * the painter sees, the child window is the event window, the group id is
 * the gesture id.
 */
static void
scenario_undecided(void)
{
	struct painter p;
	struct client c;
	memset(&seen, 0, sizeof(seen));
	painter_open(&p);
	client_open(&c, POLICY_NONE, GEIS_GESTURE_DRAG, 2, 0);
	c.hook = listen_hook;

	xh_touch_begin(dev0(), 1, 300, 200);
	xh_touch_begin(dev0(), 2, 380, 200);
	sync_all();
	for (int s = 1; s <= 10; s++) {
		xh_touch_update(dev0(), 1, 300, 200 + 12 * s);
		xh_touch_update(dev0(), 2, 380, 200 + 12 * s);
		sync_all();
		client_pump(&c, 5, 50);
		painter_pump(&p);
	}
	/* still down: the drag is undecided and holds the touches */
	XH_CHECK(painter_count(&p, XI_TouchBegin) == 0,
	      "the painter got %d touches while the drag went on",
	      painter_count(&p, XI_TouchBegin));
	xh_touch_end(dev0(), 1, 300, 320);
	xh_touch_end(dev0(), 2, 380, 320);
	sync_all();
	double start = xh_now_ms();
	while (painter_count(&p, XI_TouchEnd) < 2 && xh_now_ms() - start < 3000) {
		client_pump(&c, 20, 100);
		painter_pump(&p);
	}
	fprintf(stderr, "replayed to the painter %.0f ms after the lift\n",
		xh_now_ms() - start);

	const struct gesture_rec *g = find_gesture(&c, GEIS_GESTURE_DRAG, 2);
	XH_CHECK(g != NULL, "the listener saw no 2-touch drag (%d gestures)", c.ng);
	if (g)
		XH_CHECK(g->ended == 1, "drag ended %d times", g->ended);
	XH_CHECK(painter_count(&p, XI_TouchBegin) == 2,
	      "%d of the 2 touches replayed to the painter with the listener running",
	      painter_count(&p, XI_TouchBegin));
	XH_CHECK(painter_count(&p, XI_TouchEnd) == 2, "%d TouchEnd replayed",
	      painter_count(&p, XI_TouchEnd));
	XH_CHECK(painter_count(&p, XI_TouchUpdate) >= 10, "%d TouchUpdate replayed",
	      painter_count(&p, XI_TouchUpdate));
	/* the touch ids geis reported are the XI ids the painter sees */
	XH_CHECK(seen.nids == 2, "geis reported %d touch ids", seen.nids);
	for (int i = 0; i < seen.nids; i++) {
		int found = 0;
		for (int j = 0; j < p.n; j++)
			found |= p.ev[j].id == seen.ids[i];
		XH_CHECK(found, "geis touch id %u is no XI touch id of the painter",
		      seen.ids[i]);
	}
	XH_CHECK(seen.mismatch == 0, "frame and touch set ids differ %d times", seen.mismatch);
	XH_CHECK(seen.child_not_event == 0, "child window id != event window id %d times",
	      seen.child_not_event);
	XH_CHECK(seen.group_not_frame == 0, "group id != gesture id %d times",
	      seen.group_not_frame);
	XH_CHECK(strcmp(seen.name, GEIS_GESTURE_DRAG) == 0, "gesture name \"%s\"", seen.name);
	client_close(&c);
	painter_close(&p);
}

/* ---- a client without the TRACK init arguments ---- */

static struct {
	GeisEventType types[16];
	char classes[16][16];
	int n;
	GeisGestureClass drag, flick;
	int frames, drag_frames;
	int flick_frames, flick_ends, flick_slow_end;
	int current;           /* 0 the fast drag, 1 the slow one */
} nt;

static void
no_track_hook(struct client *c, GeisEvent ev)
{
	(void)c;
	GeisEventType t = geis_event_type(ev);
	if (t == GEIS_EVENT_CLASS_AVAILABLE || t == GEIS_EVENT_INIT_COMPLETE ||
	    t == GEIS_EVENT_DEVICE_AVAILABLE) {
		if (nt.n < 16) {
			nt.types[nt.n] = t;
			nt.classes[nt.n][0] = '\0';
		}
		if (t == GEIS_EVENT_CLASS_AVAILABLE) {
			GeisGestureClass k = geis_attr_value_to_pointer(
				geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));
			if (nt.n < 16)
				snprintf(nt.classes[nt.n], sizeof(nt.classes[0]), "%s",
					 geis_gesture_class_name(k));
			/* the class lives as long as a reference is held */
			if (geis_gesture_class_id(k) == GEIS_GESTURE_PRIMITIVE_DRAG) {
				nt.drag = k;
				geis_gesture_class_ref(k);
			}
			if (geis_gesture_class_id(k) == GEIS_GESTURE_ID_FLICK) {
				nt.flick = k;
				geis_gesture_class_ref(k);
			}
		}
		nt.n++;
		return;
	}
	if (t != GEIS_EVENT_GESTURE_BEGIN && t != GEIS_EVENT_GESTURE_UPDATE &&
	    t != GEIS_EVENT_GESTURE_END)
		return;
	GeisGroupSet gs = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET));
	GeisFrame f = geis_group_frame(geis_groupset_group(gs, 0), 0);
	if (!f)
		return;
	nt.frames++;
	nt.drag_frames += geis_frame_is_class(f, nt.drag) == GEIS_TRUE;
	if (geis_frame_is_class(f, nt.flick)) {
		nt.flick_frames++;
		if (t == GEIS_EVENT_GESTURE_END && nt.current == 0)
			nt.flick_ends++;
		if (nt.current == 1)
			nt.flick_slow_end++;
	}
}

/*
 * A geis 2.2 client that passes no TRACK init arguments (and relies on
 * $DISPLAY): it still gets the classes, INIT_COMPLETE and the device, in
 * geis 2.2.17's order, and geis_frame_is_class() works with the classes
 * it was given.  Its subscription names the Flick class by id: it gets
 * drags, and only the end of the fast one is a flick.
 */
static void
scenario_no_track(void)
{
	struct client c;
	memset(&nt, 0, sizeof(nt));
	memset(&c, 0, sizeof(c));
	c.policy = POLICY_ACCEPT;
	c.hook = no_track_hook;
	c.geis = geis_new(GEIS_INIT_GRAIL_BACKEND, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
	if (!c.geis)
		die("geis_new without TRACK arguments failed");
	if (geis_get_configuration(c.geis, GEIS_CONFIGURATION_FD, &c.fd) !=
	    GEIS_STATUS_SUCCESS)
		die("no geis fd");
	client_pump(&c, 100, 2000);

	static const char *const want_class[8] = { "Drag", "Pinch", "Rotate", "Tap",
						   "Touch", "", "Flick", "" };
	XH_CHECK(nt.n == 8, "%d start-up events, expected 8", nt.n);
	for (int i = 0; i < 8 && i < nt.n; i++) {
		GeisEventType want = i == 5 ? GEIS_EVENT_INIT_COMPLETE :
				     i == 7 ? GEIS_EVENT_DEVICE_AVAILABLE :
					      GEIS_EVENT_CLASS_AVAILABLE;
		XH_CHECK(nt.types[i] == want, "start-up event %d is %d, expected %d", i,
		      (int)nt.types[i], (int)want);
		XH_CHECK(strcmp(nt.classes[i], want_class[i]) == 0,
		      "start-up event %d: class \"%s\", expected \"%s\"", i, nt.classes[i],
		      want_class[i]);
	}
	XH_CHECK(nt.drag && nt.flick, "no Drag or Flick class object");
	XH_CHECK(c.devices_available == 1, "%d DEVICE_AVAILABLE", c.devices_available);
	XH_CHECK(c.init_complete == 1, "%d INIT_COMPLETE", c.init_complete);

	GeisSubscription sub = geis_subscription_new(c.geis, "flicks", GEIS_SUBSCRIPTION_NONE);
	GeisFilter filter = geis_filter_new(c.geis, "flick");
	if (geis_filter_add_term(filter, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_ID,
				 GEIS_FILTER_OP_EQ, (GeisInteger)GEIS_GESTURE_ID_FLICK,
				 GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 1,
				 NULL) != GEIS_STATUS_SUCCESS ||
	    geis_subscription_add_filter(sub, filter) != GEIS_STATUS_SUCCESS ||
	    geis_subscription_activate(sub) != GEIS_STATUS_SUCCESS)
		die("Flick subscription");
	client_pump(&c, 50, 500);

	/* fast: 40 px per step, lifting 80 px further on */
	nt.current = 0;
	xh_touch_begin(dev0(), 1, 200, 300);
	sync_all();
	client_pump(&c, 5, 30);
	for (int s = 1; s <= 6; s++) {
		usleep(5000);
		xh_touch_update(dev0(), 1, 200 + 40 * s, 300);
		sync_all();
		client_pump(&c, 5, 30);
	}
	xh_touch_end(dev0(), 1, 520, 300);
	sync_all();
	client_pump(&c, 100, 1000);
	int fast_frames = nt.frames;

	/* slow: 3 px per 20 ms */
	nt.current = 1;
	xh_touch_begin(dev0(), 2, 200, 500);
	sync_all();
	client_pump(&c, 5, 30);
	for (int s = 1; s <= 30; s++) {
		usleep(20000);
		xh_touch_update(dev0(), 2, 200 + 3 * s, 500);
		sync_all();
		client_pump(&c, 5, 30);
	}
	xh_touch_end(dev0(), 2, 290, 500);
	sync_all();
	client_pump(&c, 100, 1000);

	XH_CHECK(fast_frames > 2, "the fast drag gave %d frames", fast_frames);
	XH_CHECK(nt.frames > fast_frames + 2, "the slow drag gave %d frames",
	      nt.frames - fast_frames);
	XH_CHECK(nt.drag_frames == nt.frames, "%d of %d frames are of class Drag",
	      nt.drag_frames, nt.frames);
	XH_CHECK(nt.flick_ends == 1 && nt.flick_frames == 1,
	      "flick: %d frames, %d fast ends (expected the fast drag's end only)",
	      nt.flick_frames, nt.flick_ends);
	XH_CHECK(nt.flick_slow_end == 0, "the slow drag was a flick");
	XH_CHECK(c.errors == 0, "%d errors", c.errors);
	geis_gesture_class_unref(nt.drag);
	geis_gesture_class_unref(nt.flick);
	client_close(&c);
}

int
main(int argc, char **argv)
{
	static const struct xh_scenario scenarios[] = {
		{ "wm-wins", scenario_wm_wins, 1 },
		{ "fallthrough", scenario_fallthrough, 1 },
		{ "mixed", scenario_mixed, 1 },
		{ "timeout", scenario_timeout, 1 },
		{ "hotplug", scenario_hotplug, 2 },
		{ "server-gone", scenario_server_gone, 1 },
		{ "latency", scenario_latency, 1 },
		{ "events-tool", scenario_events_tool, 1 },
		{ "grab-sharing", scenario_grab_sharing, 1 },
		{ "v1", scenario_v1, 1 },
		{ "undecided", scenario_undecided, 1 },
		{ "no-track", scenario_no_track, 1 },
	};

	return xh_run_scenario(&xs, argc, argv, scenarios, sizeof(scenarios) / sizeof(scenarios[0]),
			       NULL);
}
