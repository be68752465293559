/*
 * The same geis client, built twice: against utouch (test-geis-x11-oracle)
 * and against the original geis 2.2.17 in ../shared/tools/geis-orig
 * (test-geis-x11-oracle-orig, built only where that library is).  Both
 * builds run the same scenarios on a fresh headless Xorg and assert the
 * same concrete behaviour, so utouch passing and the original passing
 * means the two agree on it.  Only <geis/geis.h> is used.
 *
 * Usage: test-geis-x11-oracle SCENARIO, one of
 *   startup     geis_new() without TRACK arguments: CLASS_AVAILABLE Drag,
 *               Pinch, Rotate, Tap, Touch, INIT_COMPLETE, then Flick and the
 *               device (the original posts these two in either order);
 *               geis_dispatch_events() never returns GEIS_STATUS_EMPTY
 *   startup-sync  geis_new() with the TRACK arguments and
 *               GEIS_INIT_SYNCHRONOUS_START: the five classes,
 *               INIT_COMPLETE, the device, then Flick
 *   server-time the "timestamp" of a drag's events is the X server's time;
 *               the geis client makes no window
 *   undecided   a listener that never accepts or rejects its 2-touch drag
 *               on the root window: once the drag ended, both touches are
 *               replayed to the painting client below while the listener
 *               still runs; child window id = event window id
 *   deltas      "delta x/y" 0 when a drag's touch count changes; a pinch's
 *               GESTURE_BEGIN has "radius delta" = "radius"
 *   cf-composition  an atomic 1-touch drag reports "construction finished"
 *               on its first motion past 60 ms, also when the motion before
 *               was read late
 *   cf-timeout  two 1-touch drags report it when the 2-touch pinch
 *               candidate they overlap timed out: one on its first motion
 *               past the timeout, the other one event later (the original
 *               on an idle server; busy, it may report both at once)
 *   cf-glue     a pinch reports it on its first motion past +60 ms, where
 *               the alarm geis 2.2 made for the first finger's 60 ms glue
 *               comes back although the finger is long in the pinch
 *   cf-late-dispatch  a motion before the 60 ms boundary that the client
 *               reads after it reports it (the timeout runs first)
 *   attrs       the attributes of the BEGIN, UPDATE and END of a 2-touch
 *               drag, pinch and rotation and of a tap's one UPDATE: the
 *               event's three, then the frame's in geis 2.2.17's order
 *               (common ones, then the class's; no velocities on an END,
 *               no "tap time"), which is all the original gives (utouch
 *               gives every attribute after these); the frames' "device
 *               id" is the device's
 *   flick       a subscription to the Flick class and a fast 1-touch drag:
 *               utouch gives drags whose END is a flick when the last
 *               motion beat 1 px/ms; the original gives Touch (the BEGIN)
 *               and Drag|Touch events (from the drag's recognition on),
 *               never a flick
 *
 * Hostile clients (a painting client below counts the touches it gets):
 *   extra-touches    4 touches on a 2-touch drag subscription: a drag of
 *               each of the 6 pairs (BEGIN, UPDATEs, END, 2 touches);
 *               all touches replayed to the painter
 *   extra-touches-1  3 touches on a 1-touch one: a drag per finger
 *   atomic-extra, atomic-extra-1  the same with atomic gestures (the geis
 *               default) and 3 touches: no gesture at all; the painter
 *               gets everything
 *   reject      the client rejects its drag at the BEGIN: nothing more
 *               of it (no END); the painter gets every touch event
 *   accept      the client accepts it: it goes on to its END; the
 *               painter gets nothing
 *   dup-sub     two subscriptions on the same window: a drag each
 *   deactivate  the subscription deactivated mid-gesture: no UPDATE after
 *               (utouch: its END, not a flick; the original: nothing,
 *               grail's cancel),
 *               the touches go to the painter; re-activated, it gets the
 *               next drag (the original: nothing more)
 *   nested      two geis instances, on a window and its child: a drag
 *               each; the painter gets the touches (the original: not)
 *   same-window two geis instances on the root window: the second's
 *               activation fails with GEIS_STATUS_UNKNOWN_ERROR (the
 *               touch grab is the first's); once the first is gone it
 *               activates and gets the next drag (the original: nothing)
 *   late-client a client that reads only after the drag ended: it gets
 *               the whole drag, the painter every touch
 *   max-events  GEIS_CONFIG_MAX_EVENTS reads 16 at first and any value
 *               set, a negative one too; set to 3 it limits nothing: a
 *               late client gets a 30-motion drag whole
 *   killed      a geis process killed mid-gesture: the painter gets
 *               every touch
 *   extra-accept  4 touches on a 2-touch drag subscription, each drag
 *               accepted at its first event: the first pair's and the
 *               last pair's (the sixth candidate) go to their END, the
 *               others vanish unseen; the painter gets nothing
 *   deleted     geis_delete() mid-gesture: the painter gets every touch
 *   extra-reject  4 touches on a 2-touch drag subscription, each drag
 *               rejected at its BEGIN: 6 BEGINs and nothing more; the
 *               painter gets every touch event
 *   cont-extra  3 touches on a 2-touch GEIS_SUBSCRIPTION_CONT drag
 *               subscription: a drag per pair, 2 touches, 1 as they lift
 *   atomic-late an atomic 1-touch drag while the client sleeps 300 ms:
 *               read late, all of it, BEGIN under construction, then
 *               finished; accepted, so the painter gets nothing
 *   deactivate-accepted  a drag accepted at its BEGIN, its subscription
 *               deactivated mid-drag: no UPDATE after (utouch: an END,
 *               not a flick; the original: nothing); the accepted
 *               touches never reach the painter
 *
 * The geis v1 interface (geis_init, geis_subscribe and the callbacks;
 * ORACLE_DUMP prints every call with its attributes):
 *   v1-gestures  on the painter's window, "Drag,touch=2", "Pinch,touch=2",
 *               "Rotate,touch=2", "Tap,touch=1": a drag, pinch and rotation
 *               each a start (2 touches), updates, a finish (1 touch: CONT)
 *               of its type, a tap one update; "gesture name" is the type
 *               of the call's touch count; the attributes exactly the
 *               original's names, types and order (utouch: these first),
 *               the touch ids the X touch ids, as floats;
 *               the painter gets nothing; 'added' never called (utouch:
 *               once per type); utouch's gesture ids never 0
 *   v1-all      GEIS_ALL_GESTURES on the root window and a drag: the
 *               original gives one Touch gesture per touch sequence
 *               (touches 1, 2, 1), utouch a 2-touch Drag among others;
 *               on the painter's window a tap: the original's Touch
 *               gesture (start, updates, finish, 1 touch) is utouch's too,
 *               which adds the Tap's update; then "Drag,touch=2" on the
 *               root window: the drag as on the painter's window, in root
 *               coordinates
 *   v1-devices  geis_input_devices(): the device and its 11 attributes
 *               reported before the call returns, and again to callbacks
 *               registered again; GEIS_CONFIG_UNIX_FD the only item,
 *               NOT_SUPPORTED for others and for any set; unsubscribing
 *               with nothing subscribed (or only Flick and Sysflags):
 *               GEIS_STATUS_UNKNOWN_ERROR; subscribed again after an
 *               unsubscribe, unsubscribing succeeds (the original: fails)
 *   v1-extra    3 and 4 touches on a "Drag,touch=2" subscription: no
 *               callback; the painter gets every touch event
 *   v1-idle     a v1 client that does not dispatch during a 2-finger drag:
 *               the painter gets nothing; read late: start (2 touches),
 *               update, finish; the painter still nothing
 *   v1-reentrant  geis_unsubscribe(), then geis_finish(), in the start
 *               callback of a 2-finger drag: no finish (utouch: nothing
 *               after the start; the original: the updates already
 *               queued after an unsubscribe); the painter gets nothing
 *   v1-devlist  a device list: the reported id gets the drag (the
 *               painter nothing), an unknown id is accepted and gets
 *               nothing (the painter every touch event)
 *   v1-bad-args NULL arguments, an unknown window, an unknown type, NULL
 *               callbacks, an empty device list (each build's own: utouch
 *               GEIS_BAD_ARGUMENT or a failed subscription; the original
 *               crashes or returns success)
 *
 * Exit status 0 pass, 1 fail, 77 skip (Xorg cannot run here).
 */
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/extensions/XInput2.h>

#include <geis/geis.h>
#ifndef GEIS_ORACLE_BUILD
#include <utouch/geis.h>
#endif

#include "xorg-harness.h"

static struct xh_server xs;
/* in a forked geis process (killed): the server is the parent's */
static int in_child;


/* ---- the geis client ---- */

struct client {
	Geis geis;
	int fd;
	GeisEventType startup[16];
	char startup_class[16][16];
	int nstartup;
	int empty_status;       /* geis_dispatch_events() returned EMPTY */
	int begun, ended, touches;
	int child_not_event;
	/* deltas: per gesture (frame id) the previous event's touch count */
	struct {
		GeisGestureId id;
		int touches;
	} last[32];
	int nlast;
	int count_changes, count_change_moved;   /* touches changed; with a delta */
	int begins_checked, begin_bad_delta;      /* pinch BEGIN: radius delta */
	GeisGestureClass drag_class;   /* for geis_frame_is_class() */
	/* the classes announced, in order (bit i of trace_ev.cls) */
	GeisGestureClass classes[8];
	char class_names[8][16];
	int nclasses;
	/* what the client does with the first event of each gesture */
	enum { DECIDE_NONE, DECIDE_ACCEPT, DECIDE_REJECT } decide;
	GeisGestureId decided[64];
	int ndecided, decide_failed;
	int dump;               /* ORACLE_DUMP: print every gesture event */
	int device_id;          /* of the last DEVICE_AVAILABLE */
	int frame_device_id;    /* "device id" of the last gesture frame */
	struct trace_ev {
		GeisEventType type;
		GeisGestureId id;
		int ts, touches, cf, drag;
		unsigned cls;
		float dx, dy;
	} trace[512];
	int ntrace;
	/* the frame attributes seen, "name:type" (attrs scenario) */
	struct attr_seen {
		GeisEventType type;
		unsigned cls;
		char names[48][40];
		int n;
	} seen[8];
	int nseen;
};

static const char *
attr_type_name(GeisAttrType t)
{
	switch (t) {
	case GEIS_ATTR_TYPE_BOOLEAN: return "b";
	case GEIS_ATTR_TYPE_FLOAT: return "f";
	case GEIS_ATTR_TYPE_INTEGER: return "i";
	case GEIS_ATTR_TYPE_POINTER: return "p";
	case GEIS_ATTR_TYPE_STRING: return "s";
	default: return "?";
	}
}

static const char *
event_type_name(GeisEventType t)
{
	return t == GEIS_EVENT_GESTURE_BEGIN ? "BEGIN" :
	       t == GEIS_EVENT_GESTURE_UPDATE ? "UPDATE" :
	       t == GEIS_EVENT_GESTURE_END ? "END" : "other";
}

static void
dump_event(const struct client *c, GeisEvent ev, GeisFrame f, unsigned cls)
{
	fprintf(stderr, "%s gesture %u classes", event_type_name(geis_event_type(ev)),
		(unsigned)geis_frame_id(f));
	for (int i = 0; i < c->nclasses; i++)
		if (cls & (1u << i))
			fprintf(stderr, " %s", c->class_names[i]);
	fprintf(stderr, " touchids");
	for (GeisSize i = 0; i < geis_frame_touchid_count(f); i++)
		fprintf(stderr, " %zu", (size_t)geis_frame_touchid(f, i));
	fprintf(stderr, "\n  event:");
	for (GeisSize i = 0; i < geis_event_attr_count(ev); i++) {
		GeisAttr a = geis_event_attr(ev, i);
		fprintf(stderr, " [%s:%s]", geis_attr_name(a), attr_type_name(geis_attr_type(a)));
	}
	GeisTouchSet ts = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_TOUCHSET));
	fprintf(stderr, "\n  touches:");
	for (GeisSize i = 0; ts && i < geis_touchset_touch_count(ts); i++) {
		GeisTouch t = geis_touchset_touch(ts, i);
		fprintf(stderr, " {");
		for (GeisSize k = 0; k < geis_touch_attr_count(t); k++) {
			GeisAttr a = geis_touch_attr(t, k);
			fprintf(stderr, " [%s:%s]", geis_attr_name(a),
				attr_type_name(geis_attr_type(a)));
		}
		fprintf(stderr, " }");
	}
	fprintf(stderr, "\n  frame:");
	for (GeisSize i = 0; i < geis_frame_attr_count(f); i++) {
		GeisAttr a = geis_frame_attr(f, i);
		fprintf(stderr, " [%s:%s", geis_attr_name(a), attr_type_name(geis_attr_type(a)));
		if (geis_attr_type(a) == GEIS_ATTR_TYPE_INTEGER)
			fprintf(stderr, "=%d", geis_attr_value_to_integer(a));
		else if (geis_attr_type(a) == GEIS_ATTR_TYPE_FLOAT)
			fprintf(stderr, "=%.2f", geis_attr_value_to_float(a));
		fprintf(stderr, "]");
	}
	fprintf(stderr, "\n");
}

/* Remember the frame attributes ("name:type") of the first event of each
 * (event type, classes) pair. */
static void
note_attrs(struct client *c, GeisEvent ev, GeisFrame f, unsigned cls)
{
	GeisEventType t = geis_event_type(ev);

	for (int i = 0; i < c->nseen; i++)
		if (c->seen[i].type == t && c->seen[i].cls == cls)
			return;
	if (c->nseen == 8)
		return;
	struct attr_seen *s = &c->seen[c->nseen++];
	s->type = t;
	s->cls = cls;
	s->n = 0;
	for (GeisSize i = 0; i < geis_event_attr_count(ev) && s->n < 48; i++) {
		GeisAttr a = geis_event_attr(ev, i);
		snprintf(s->names[s->n++], sizeof(s->names[0]), "E %s:%s", geis_attr_name(a),
			 attr_type_name(geis_attr_type(a)));
	}
	for (GeisSize i = 0; i < geis_frame_attr_count(f) && s->n < 48; i++) {
		GeisAttr a = geis_frame_attr(f, i);
		snprintf(s->names[s->n++], sizeof(s->names[0]), "%s:%s", geis_attr_name(a),
			 attr_type_name(geis_attr_type(a)));
	}
}

static void
take_event(struct client *c, GeisEvent ev)
{
	GeisEventType t = geis_event_type(ev);

	if (t == GEIS_EVENT_CLASS_AVAILABLE || t == GEIS_EVENT_INIT_COMPLETE ||
	    t == GEIS_EVENT_DEVICE_AVAILABLE) {
		if (t == GEIS_EVENT_DEVICE_AVAILABLE)
			c->device_id = (int)geis_device_id(geis_attr_value_to_pointer(
				geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_DEVICE)));
		if (c->nstartup < 16) {
			c->startup[c->nstartup] = t;
			c->startup_class[c->nstartup][0] = '\0';
			if (t == GEIS_EVENT_CLASS_AVAILABLE) {
				GeisGestureClass k = geis_attr_value_to_pointer(
					geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS));
				snprintf(c->startup_class[c->nstartup], 16, "%s",
					 geis_gesture_class_name(k));
				if (strcmp(geis_gesture_class_name(k), "Drag") == 0)
					c->drag_class = k;
				if (c->nclasses < 8) {
					c->classes[c->nclasses] = k;
					snprintf(c->class_names[c->nclasses], 16, "%s",
						 geis_gesture_class_name(k));
					c->nclasses++;
				}
			}
			c->nstartup++;
		}
		return;
	}
	if (t != GEIS_EVENT_GESTURE_BEGIN && t != GEIS_EVENT_GESTURE_UPDATE &&
	    t != GEIS_EVENT_GESTURE_END)
		return;
	GeisGroupSet gs = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET));
	GeisGroup group = geis_groupset_group(gs, 0);
	GeisFrame f = geis_group_frame(group, 0);
	if (!f)
		return;
	unsigned cls = 0;
	for (int i = 0; i < c->nclasses; i++)
		if (geis_frame_is_class(f, c->classes[i]))
			cls |= 1u << i;
	if (c->dump)
		dump_event(c, ev, f, cls);
	note_attrs(c, ev, f, cls);
	if (c->decide != DECIDE_NONE) {
		int i;
		for (i = 0; i < c->ndecided; i++)
			if (c->decided[i] == geis_frame_id(f))
				break;
		if (i == c->ndecided && i < 64) {
			c->decided[c->ndecided++] = geis_frame_id(f);
			GeisStatus st = c->decide == DECIDE_ACCEPT
				? geis_gesture_accept(c->geis, group, geis_frame_id(f))
				: geis_gesture_reject(c->geis, group, geis_frame_id(f));
			if (st != GEIS_STATUS_SUCCESS)
				c->decide_failed++;
		}
	}
	GeisAttr a = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_DEVICE_ID);
	if (a)
		c->frame_device_id = geis_attr_value_to_integer(a);
	a = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_TOUCHES);
	if (a)
		c->touches = geis_attr_value_to_integer(a);
	if (geis_attr_value_to_integer(geis_frame_attr_by_name(
		    f, GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID)) !=
	    geis_attr_value_to_integer(geis_frame_attr_by_name(
		    f, GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID)))
		c->child_not_event++;
	c->begun += t == GEIS_EVENT_GESTURE_BEGIN;
	c->ended += t == GEIS_EVENT_GESTURE_END;
	if (c->ntrace < (int)(sizeof(c->trace) / sizeof(c->trace[0]))) {
		struct trace_ev *e = &c->trace[c->ntrace++];
		GeisAttr cfa = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CONSTRUCTION_FINISHED);
		GeisAttr tsa = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_TIMESTAMP);
		GeisAttr dxa = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_DELTA_X);
		GeisAttr dya = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_DELTA_Y);
		e->type = t;
		e->id = geis_frame_id(f);
		e->ts = tsa ? geis_attr_value_to_integer(tsa) : -1;
		e->touches = a ? geis_attr_value_to_integer(a) : -1;
		e->cf = cfa ? (int)geis_attr_value_to_boolean(cfa) : -1;
		e->drag = c->drag_class && geis_frame_is_class(f, c->drag_class);
		e->cls = cls;
		e->dx = dxa ? geis_attr_value_to_float(dxa) : 0.0f;
		e->dy = dya ? geis_attr_value_to_float(dya) : 0.0f;
	}

	GeisAttr dx = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_DELTA_X);
	GeisAttr dy = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_DELTA_Y);
	GeisAttr r = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_RADIUS);
	GeisAttr rd = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_RADIUS_DELTA);
	int k;
	for (k = 0; k < c->nlast; k++)
		if (c->last[k].id == geis_frame_id(f))
			break;
	if (k == c->nlast && k < 32) {
		c->last[k].id = geis_frame_id(f);
		c->last[k].touches = 0;
		c->nlast++;
	}
	if (k < 32) {
		if (c->last[k].touches && a && c->last[k].touches != c->touches && dx && dy) {
			c->count_changes++;
			if (geis_attr_value_to_float(dx) != 0.0f ||
			    geis_attr_value_to_float(dy) != 0.0f)
				c->count_change_moved++;
		}
		c->last[k].touches = c->touches;
	}
	if (t == GEIS_EVENT_GESTURE_BEGIN && r && rd) {
		c->begins_checked++;
		if (fabsf(geis_attr_value_to_float(rd) - geis_attr_value_to_float(r)) > 1e-4f)
			c->begin_bad_delta++;
	}
}

static void
pump(struct client *c, int idle_ms, int max_ms)
{
	double start = xh_now_ms(), last = start;

	while (xh_now_ms() - start < max_ms && xh_now_ms() - last < idle_ms) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		if (poll(&pfd, 1, 10) <= 0)
			continue;
		last = xh_now_ms();
		if (geis_dispatch_events(c->geis) == GEIS_STATUS_EMPTY)
			c->empty_status++;
		GeisEvent ev;
		GeisStatus st;
		while ((st = geis_next_event(c->geis, &ev)) == GEIS_STATUS_SUCCESS ||
		       st == GEIS_STATUS_CONTINUE) {
			take_event(c, ev);
			geis_event_delete(ev);
		}
	}
}

/* The server has taken the touches just sent; read what geis makes of
 * them (until 5 ms pass without an event, 30 ms at the most). */
static void
step(struct client *c, struct xh_device *d)
{
	xh_sync(d);
	pump(c, 5, 30);
}

/* ...and after the last touch ended: until geis is quiet for 100 ms (1 s
 * at the most), so that every end and timeout has come. */
static void
settle(struct client *c, struct xh_device *d)
{
	xh_sync(d);
	pump(c, 100, 1000);
}

/* A subscription to @p cls gestures with touches @p op @p touches, on
 * @p window (0: no region term, the root window), not activated; @p st
 * the status of the first call that failed, or SUCCESS. */
static GeisSubscription
sub_new(struct client *c, const char *cls, GeisFilterOperation op, int touches,
	Window window, GeisStatus *st_out)
{
	GeisSubscription sub = geis_subscription_new(c->geis, cls, GEIS_SUBSCRIPTION_NONE);
	GeisFilter filter = geis_filter_new(c->geis, cls);
	GeisStatus st = geis_filter_add_term(filter, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
					     GEIS_FILTER_OP_EQ, cls,
					     GEIS_GESTURE_ATTRIBUTE_TOUCHES, op, touches, NULL);
	if (st == GEIS_STATUS_SUCCESS && window)
		st = geis_filter_add_term(filter, GEIS_FILTER_REGION,
					  GEIS_REGION_ATTRIBUTE_WINDOWID, GEIS_FILTER_OP_EQ,
					  (GeisInteger)window, NULL);
	if (st == GEIS_STATUS_SUCCESS)
		st = geis_subscription_add_filter(sub, filter);
	*st_out = st;
	return sub;
}

/* The same, activated, or NULL. */
static GeisSubscription
subscribe_on(struct client *c, const char *cls, GeisFilterOperation op, int touches,
	     Window window)
{
	GeisStatus st;
	GeisSubscription sub = sub_new(c, cls, op, touches, window, &st);

	if (st == GEIS_STATUS_SUCCESS)
		st = geis_subscription_activate(sub);
	if (st != GEIS_STATUS_SUCCESS) {
		fprintf(stderr, "FAIL: subscription to %s\n", cls);
		xh_failures++;
		sub = NULL;
	}
	pump(c, 100, 1000);
	return sub;
}

static GeisSubscription
subscribe(struct client *c, const char *cls, GeisFilterOperation op, int touches)
{
	return subscribe_on(c, cls, op, touches, 0);
}

enum client_kind { CLIENT_PLAIN, CLIENT_ATOMIC, CLIENT_TRACK_SYNC };

static void
client_open(struct client *c, enum client_kind kind)
{
	memset(c, 0, sizeof(*c));
	/* what a geis 2.2 program typically passes: no TRACK arguments; or
	 * every TRACK argument and a synchronous start */
	switch (kind) {
	case CLIENT_ATOMIC:
		c->geis = geis_new(GEIS_INIT_GRAIL_BACKEND, NULL);
		break;
	case CLIENT_TRACK_SYNC:
		c->geis = geis_new(GEIS_INIT_GRAIL_BACKEND, GEIS_INIT_TRACK_DEVICES,
				   GEIS_INIT_TRACK_GESTURE_CLASSES, GEIS_INIT_SYNCHRONOUS_START,
				   GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
		break;
	default:
		c->geis = geis_new(GEIS_INIT_GRAIL_BACKEND, GEIS_INIT_NO_ATOMIC_GESTURES, NULL);
		break;
	}
	if (!c->geis || geis_get_configuration(c->geis, GEIS_CONFIGURATION_FD, &c->fd) !=
				GEIS_STATUS_SUCCESS) {
		fprintf(stderr, "FAIL: geis_new on %s\n", xs.display_name);
		if (in_child)
			_exit(1);
		xh_stop(&xs);
		exit(1);
	}
	c->dump = getenv("ORACLE_DUMP") != NULL;
	pump(c, 150, 3000);
}

static void
client_new(struct client *c)
{
	client_open(c, CLIENT_PLAIN);
}

/* ---- the painting client ---- */

struct painter {
	Display *dpy;
	Window win;
	int xi_opcode;
	int begins, updates, ends;
};

static void
painter_open(struct painter *p)
{
	memset(p, 0, sizeof(*p));
	p->dpy = xh_open_client(&xs);
	if (!p->dpy) {
		fprintf(stderr, "FAIL: painter: %s\n", xs.error);
		xh_stop(&xs);
		exit(1);
	}
	int ev, err;
	XQueryExtension(p->dpy, "XInputExtension", &p->xi_opcode, &ev, &err);
	p->win = XCreateSimpleWindow(p->dpy, DefaultRootWindow(p->dpy), 100, 100, 600, 400,
				     0, 0, 0);
	XSetWindowAttributes attrs = { .override_redirect = True };
	XChangeWindowAttributes(p->dpy, p->win, CWOverrideRedirect, &attrs);
	XMapRaised(p->dpy, p->win);
	xh_select_touch(p->dpy, p->win, 0);
}

static void
painter_pump(struct painter *p)
{
	XSync(p->dpy, False);
	while (XPending(p->dpy)) {
		XEvent xev;
		XNextEvent(p->dpy, &xev);
		XGenericEventCookie *c = &xev.xcookie;
		if (c->type != GenericEvent || c->extension != p->xi_opcode)
			continue;
		p->begins += c->evtype == XI_TouchBegin;
		p->updates += c->evtype == XI_TouchUpdate;
		p->ends += c->evtype == XI_TouchEnd;
	}
}

/* The X server's time now: a property change on a window of the test's
 * own comes back with the server's timestamp. */
static long long
server_time(Display *dpy, Window win)
{
	Atom atom = XInternAtom(dpy, "_GEIS_ORACLE_TIME", False);
	XEvent xev;

	XChangeProperty(dpy, win, atom, XA_STRING, 8, PropModeAppend, NULL, 0);
	XSync(dpy, False);
	while (XCheckTypedWindowEvent(dpy, win, PropertyNotify, &xev) == False) {
		if (xh_wait_event(dpy, 1000) <= 0)
			return -1;
	}
	return (long long)xev.xproperty.time;
}

/* A connection of the test's own with a window to read the server's time
 * from (server_time()); NULL, after a failed CHECK, without one. */
static Display *
clock_open(Window *win)
{
	Display *dpy = xh_open_client(&xs);
	XSetWindowAttributes attrs = { .event_mask = PropertyChangeMask };

	if (!dpy) {
		XH_CHECK(0, "no client connection: %s", xs.error);
		return NULL;
	}
	*win = XCreateWindow(dpy, DefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, InputOnly,
			     CopyFromParent, CWEventMask, &attrs);
	return dpy;
}

/* The number of children of the root window. */
static unsigned int
root_children(Display *dpy)
{
	Window root, parent, *children = NULL;
	unsigned int n = 0;

	if (!XQueryTree(dpy, DefaultRootWindow(dpy), &root, &parent, &children, &n))
		return 0;
	XFree(children);
	return n;
}

/* ---- scenarios ---- */

/* The five classes and INIT_COMPLETE that every start begins with. */
static void
check_startup_head(const struct client *c)
{
	static const char *const first[5] = { "Drag", "Pinch", "Rotate", "Tap", "Touch" };

	XH_CHECK(c->nstartup == 8, "%d start-up events, expected 8", c->nstartup);
	for (int i = 0; i < 5 && i < c->nstartup; i++) {
		XH_CHECK(c->startup[i] == GEIS_EVENT_CLASS_AVAILABLE, "event %d is %d", i,
		      (int)c->startup[i]);
		XH_CHECK(strcmp(c->startup_class[i], first[i]) == 0, "class %d is \"%s\"", i,
		      c->startup_class[i]);
	}
	if (c->nstartup == 8)
		XH_CHECK(c->startup[5] == GEIS_EVENT_INIT_COMPLETE, "event 5 is %d",
		      (int)c->startup[5]);
}

static void
scenario_startup(void)
{
	struct client c;

	client_new(&c);
	check_startup_head(&c);
	if (c.nstartup == 8) {
		int flick = -1, device = -1;
		for (int i = 6; i < 8; i++) {
			if (c.startup[i] == GEIS_EVENT_CLASS_AVAILABLE &&
			    strcmp(c.startup_class[i], "Flick") == 0)
				flick = i;
			if (c.startup[i] == GEIS_EVENT_DEVICE_AVAILABLE)
				device = i;
		}
		XH_CHECK(flick >= 0 && device >= 0, "events 6 and 7 are not Flick and the device");
	}
	XH_CHECK(c.empty_status == 0, "geis_dispatch_events returned EMPTY %d times",
	      c.empty_status);
	geis_delete(c.geis);
}

/*
 * With GEIS_INIT_SYNCHRONOUS_START (and the TRACK arguments a program
 * passing it usually gives too) the original reports its device before
 * the late Flick class, every run: it found the device while geis_new()
 * ran and posts Flick only at the first dispatch.
 */
static void
scenario_startup_sync(void)
{
	struct client c;

	client_open(&c, CLIENT_TRACK_SYNC);
	check_startup_head(&c);
	if (c.nstartup == 8) {
		XH_CHECK(c.startup[6] == GEIS_EVENT_DEVICE_AVAILABLE, "event 6 is %d, not the device",
		      (int)c.startup[6]);
		XH_CHECK(c.startup[7] == GEIS_EVENT_CLASS_AVAILABLE &&
		      strcmp(c.startup_class[7], "Flick") == 0, "event 7 is not Flick");
	}
	XH_CHECK(c.empty_status == 0, "geis_dispatch_events returned EMPTY %d times",
	      c.empty_status);
	geis_delete(c.geis);
}

/*
 * The "timestamp" attribute is the X server's time (geis 2.2 reported it
 * so; utouch modulo 2^31, the same on a server up for less than 24.8
 * days): every event of a drag is stamped between the server times read
 * before and after it.  The geis client creates no window of its own.
 */
static void
scenario_server_time(void)
{
	struct client c;
	struct xh_device *d = &xs.devices[0];
	Window win;
	Display *dpy = clock_open(&win);

	if (!dpy)
		return;
	unsigned int windows = root_children(dpy);
	long long started = server_time(dpy, win);

	client_new(&c);
#ifndef GEIS_ORACLE_BUILD
	/* utouch's clock is the server's from the start */
	long long now = (long long)utouch_geis_now(c.geis);
	long long read = server_time(dpy, win);

	XH_CHECK(now >= started && now <= read + 5, "utouch_geis_now() %lld, server %lld .. %lld",
	      now, started, read);
#else
	(void)started;
#endif
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 1);
	XH_CHECK(root_children(dpy) == windows, "the geis client made %u windows",
	      root_children(dpy) - windows);
	/* the server's clock moves on from the time it started */
	pump(&c, 50, 60);
	long long before = server_time(dpy, win);
	xh_touch_begin(d, 1, 300, 300);
	step(&c, d);
	for (int s = 1; s <= 5; s++) {
		xh_touch_update(d, 1, 300, 300 + 15 * s);
		step(&c, d);
	}
	xh_touch_end(d, 1, 300, 375);
	settle(&c, d);
	long long after = server_time(dpy, win);

	XH_CHECK(before > 0 && after >= before, "server times %lld, %lld", before, after);
	XH_CHECK(c.ntrace >= 2, "%d gesture events", c.ntrace);
	for (int i = 0; i < c.ntrace; i++)
		XH_CHECK(c.trace[i].ts >= before && c.trace[i].ts <= after,
		      "event %d stamped %d, not within the server times %lld .. %lld", i,
		      c.trace[i].ts, before, after);
	geis_delete(c.geis);
	XCloseDisplay(dpy);
}

static void
scenario_undecided(void)
{
	struct painter p;
	struct client c;
	struct xh_device *d = &xs.devices[0];

	painter_open(&p);
	client_new(&c);
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);

	xh_touch_begin(d, 1, 300, 200);
	xh_touch_begin(d, 2, 380, 200);
	xh_sync(d);
	for (int s = 1; s <= 10; s++) {
		xh_touch_update(d, 1, 300, 200 + 12 * s);
		xh_touch_update(d, 2, 380, 200 + 12 * s);
		xh_sync(d);
		pump(&c, 5, 50);
		painter_pump(&p);
	}
	xh_touch_end(d, 1, 300, 320);
	xh_touch_end(d, 2, 380, 320);
	xh_sync(d);
	double start = xh_now_ms();
	while (p.ends < 2 && xh_now_ms() - start < 3000) {
		pump(&c, 20, 100);
		painter_pump(&p);
	}
	XH_CHECK(c.begun == 1 && c.ended == 1 && c.touches == 2,
	      "the listener saw %d begins, %d ends (touches %d)", c.begun, c.ended, c.touches);
	XH_CHECK(p.begins == 2 && p.ends == 2 && p.updates >= 10,
	      "replayed to the painter: %d begins, %d updates, %d ends", p.begins, p.updates,
	      p.ends);
	XH_CHECK(c.child_not_event == 0, "child window id != event window id %d times",
	      c.child_not_event);
	XH_CHECK(c.empty_status == 0, "geis_dispatch_events returned EMPTY");
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

/*
 * Deltas: a drag whose second finger lifts goes on with one touch (the
 * subscription allows 1 to 5), and on that event "delta x/y" are 0, not
 * the centroid's jump; a pinch's GESTURE_BEGIN has "radius delta" equal to
 * "radius" (the scale since the touches began).
 */
static void
scenario_deltas(void)
{
	struct client c;
	struct xh_device *d = &xs.devices[0];

	client_new(&c);
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_GE, 1);
	/* whether a gesture goes on with fewer touches depends on timing in
	 * the original (it may end the 2-touch drag instead): try a few times */
	for (int attempt = 0; attempt < 3 && c.count_changes == 0; attempt++) {
		xh_touch_begin(d, 1, 300, 300);
		xh_touch_begin(d, 2, 400, 300);
		step(&c, d);
		for (int s = 1; s <= 6; s++) {
			xh_touch_update(d, 1, 300, 300 + 10 * s);
			xh_touch_update(d, 2, 400, 300 + 10 * s);
			step(&c, d);
		}
		xh_touch_end(d, 2, 400, 360);
		step(&c, d);
		for (int s = 7; s <= 12; s++) {
			xh_touch_update(d, 1, 300, 300 + 10 * s);
			step(&c, d);
		}
		xh_touch_end(d, 1, 300, 420);
		settle(&c, d);
	}
#ifdef GEIS_ORACLE_BUILD
	if (c.count_changes == 0)
		fprintf(stderr, "note: the original ended the drag each time instead of "
			"going on with one touch; nothing to compare\n");
#else
	XH_CHECK(c.count_changes >= 1, "no gesture changed its touch count");
#endif
	XH_CHECK(c.count_change_moved == 0,
	      "%d of %d touch count changes reported a delta", c.count_change_moved,
	      c.count_changes);
	geis_delete(c.geis);

	client_new(&c);
	subscribe(&c, GEIS_GESTURE_PINCH, GEIS_FILTER_OP_EQ, 2);
	xh_touch_begin(d, 1, 360, 300);
	xh_touch_begin(d, 2, 440, 300);
	step(&c, d);
	for (int s = 1; s <= 10; s++) {
		xh_touch_update(d, 1, 360 - 8 * s, 300);
		xh_touch_update(d, 2, 440 + 8 * s, 300);
		step(&c, d);
	}
	xh_touch_end(d, 1, 280, 300);
	xh_touch_end(d, 2, 520, 300);
	settle(&c, d);
	XH_CHECK(c.begins_checked == 1, "%d pinch begins", c.begins_checked);
	XH_CHECK(c.begin_bad_delta == 0, "the pinch's BEGIN radius delta is not its radius");
	geis_delete(c.geis);
}

/*
 * "construction finished" around grail's timeouts.  geis 2.2 ran them on
 * XSync alarms: the server sends an alarm before any input event it stamps
 * later, so grail saw each timeout before the first touch event past it.
 * utouch runs them on its estimate of the server clock, which lags by the
 * delivery delay of the last event read; both scenarios read one event
 * late on purpose (the client does not dispatch for a while), so that the
 * next touch event arrives before the estimate reaches the timeout.
 */

static void
sleep_until(double t)
{
	double d = t - xh_now_ms();
	if (d <= 0)
		return;
	long us = (long)(d * 1000.0);
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	nanosleep(&ts, NULL);
}

static void
trace_dump(const struct client *c)
{
	for (int i = 0; i < c->ntrace; i++) {
		const struct trace_ev *e = &c->trace[i];
		fprintf(stderr, "  %s gesture %u time %d touches %d cf %d drag %d d %.1f,%.1f\n",
			e->type == GEIS_EVENT_GESTURE_BEGIN ? "BEGIN " :
			e->type == GEIS_EVENT_GESTURE_UPDATE ? "UPDATE" : "END   ",
			(unsigned)e->id, e->ts, e->touches, e->cf, e->drag, e->dx, e->dy);
	}
}

/* A client with atomic gestures (the geis default) and a one-touch drag
 * subscription, and a touch down at (300, 300): @return when it went down */
static double
atomic_drag_begin(struct client *c, struct xh_device *d)
{
	client_open(c, CLIENT_ATOMIC);
	subscribe(c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 1);
	double t0 = xh_now_ms();
	xh_touch_begin(d, 1, 300, 300);
	xh_sync(d);
	return t0;
}

/* From @p at ms on, @p n motions 10 px down from @p y, one each 20 ms,
 * each read at once (for @p read_ms at the most), then the touch ends at
 * y = 380 and everything is read. */
static void
atomic_drag_finish(struct client *c, struct xh_device *d, double at, int y, int n, int read_ms)
{
	sleep_until(at);
	for (int s = 1; s <= n; s++) {
		xh_touch_update(d, 1, 300, y + 10 * s);
		xh_sync(d);
		pump(c, 2, read_ms);
		sleep_until(at + 20 * s);
	}
	xh_touch_end(d, 1, 300, 380);
	settle(c, d);
}

/*
 * Atomic gestures (the geis default) are accepted 60 ms after they began,
 * when grail's timeout runs; acceptance finishes their construction.  A
 * one-touch drag recognized at +20 ms, read at +55 ms, with its next
 * motion at +80 ms: that motion is past the 60 ms boundary, so its event
 * is the first with "construction finished" (the BEGIN before it is not).
 */
static void
scenario_cf_composition(void)
{
	struct client c;
	struct xh_device *d = &xs.devices[0];

	double t0 = atomic_drag_begin(&c, d);
	sleep_until(t0 + 20);
	xh_touch_update(d, 1, 300, 330);
	xh_sync(d);
	sleep_until(t0 + 55);   /* read the begin and the motion late */
	pump(&c, 2, 10);
	atomic_drag_finish(&c, d, t0 + 80, 330, 5, 30);

	int nbegin = 0, first_update = -1;
	for (int i = 0; i < c.ntrace; i++) {
		nbegin += c.trace[i].type == GEIS_EVENT_GESTURE_BEGIN;
		if (first_update < 0 && c.trace[i].type == GEIS_EVENT_GESTURE_UPDATE)
			first_update = i;
	}
	XH_CHECK(nbegin == 1 && c.trace[0].type == GEIS_EVENT_GESTURE_BEGIN,
	      "%d begins, the first event is not a BEGIN", nbegin);
	XH_CHECK(c.ntrace > 0 && c.trace[0].cf == 0, "the BEGIN has construction finished");
	XH_CHECK(first_update > 0 && c.trace[first_update].cf == 1,
	      "the first motion past 60 ms (event %d) is not construction finished",
	      first_update);
	for (int i = first_update; i >= 0 && i < c.ntrace; i++)
		XH_CHECK(c.trace[i].cf == 1, "event %d after it is not construction finished", i);
	if (xh_failures)
		trace_dump(&c);
	geis_delete(c.geis);
}

/*
 * A candidate that times out.  One-touch drags and two-touch pinches on
 * the root window; two fingers land 10 ms apart and move in parallel, so
 * each finger's one-touch drag is recognized at once, but neither can
 * finish its construction while the pinch candidate holding both touches
 * is undecided.  The pinch is never recognized and is rejected when its
 * 300 ms timeout has passed.  The motion before the timeout is read late,
 * the next one comes 30 ms after the timeout.
 *
 * geis 2.2's alarm reports the server time at which it fired; grail
 * rejects only once more than 300 ms have passed.  When the alarm fired
 * at the timeout's own millisecond (an idle server), the pinch is
 * rejected by the next touch event: the drag of the finger whose event
 * that is reports construction finished one event later than the other
 * drag.  When it fired a millisecond later (a busy server), both drags
 * report it on their first motion past the timeout.  The original passes
 * with either (and says which); utouch runs every alarm at its own time
 * whatever the load, as the idle server did, and must show the split.
 */
static void
scenario_cf_timeout(void)
{
	struct client c;
	struct xh_device *d = &xs.devices[0];

	client_new(&c);
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 1);
	subscribe(&c, GEIS_GESTURE_PINCH, GEIS_FILTER_OP_EQ, 2);
	double t0 = xh_now_ms();
	xh_touch_begin(d, 1, 300, 300);
	xh_sync(d);
	pump(&c, 2, 5);
	sleep_until(t0 + 10);
	xh_touch_begin(d, 2, 450, 300);
	xh_sync(d);
	pump(&c, 2, 5);
	/* pinch candidate: began at +10, times out after +310 */
	int s = 0;
	for (double at = t0 + 30; at <= t0 + 230; at += 25) {
		sleep_until(at);
		s++;
		xh_touch_update(d, 1, 300, 300 + 6 * s);
		xh_touch_update(d, 2, 450, 300 + 6 * s);
		xh_sync(d);
		pump(&c, 2, 10);
	}
	sleep_until(t0 + 250);
	s++;
	xh_touch_update(d, 1, 300, 300 + 6 * s);
	xh_touch_update(d, 2, 450, 300 + 6 * s);
	xh_sync(d);
	sleep_until(t0 + 290);   /* read the last motion before the timeout late */
	pump(&c, 2, 10);
	sleep_until(t0 + 340);
	for (int k = 0; k < 4; k++) {
		s++;
		xh_touch_update(d, 1, 300, 300 + 6 * s);
		xh_touch_update(d, 2, 450, 300 + 6 * s);
		xh_sync(d);
		pump(&c, 2, 10);
		sleep_until(t0 + 365 + 25 * k);
	}
	xh_touch_end(d, 1, 300, 300 + 6 * s);
	xh_touch_end(d, 2, 450, 300 + 6 * s);
	settle(&c, d);

	/* the two drags: the gestures of the first two events */
	XH_CHECK(c.ntrace >= 2 && c.trace[0].drag && c.trace[1].drag &&
	      c.trace[0].id != c.trace[1].id, "no two drags");
	if (c.ntrace < 2) {
		geis_delete(c.geis);
		return;
	}
	GeisGestureId g[2] = { c.trace[0].id, c.trace[1].id };
	/* per drag, in the order of its events: the first past the timeout
	 * follows the longest pause (90 ms; the other gaps are 25 ms), and
	 * the first that reports construction finished */
	int after[2] = { -1, -1 }, flip[2] = { -1, -1 }, n[2] = { 0, 0 }, last_ts[2] = { 0, 0 };
	int gap[2] = { 0, 0 };
	for (int i = 0; i < c.ntrace; i++) {
		const struct trace_ev *e = &c.trace[i];
		int k = e->id == g[0] ? 0 : e->id == g[1] ? 1 : -1;
		if (k < 0)
			continue;
		if (n[k] > 0 && e->ts - last_ts[k] > gap[k]) {
			gap[k] = e->ts - last_ts[k];
			after[k] = n[k];
		}
		if (e->cf && flip[k] < 0)
			flip[k] = n[k];
		if (flip[k] >= 0)
			XH_CHECK(e->cf == 1, "drag %d: construction finished went back", k);
		last_ts[k] = e->ts;
		n[k]++;
	}
	XH_CHECK(gap[0] >= 60 && gap[1] >= 60, "no pause in the drags' events (%d, %d ms)",
	      gap[0], gap[1]);
	int both = flip[0] == after[0] && flip[1] == after[1];
	int split = (flip[0] == after[0] && flip[1] == after[1] + 1) ||
		    (flip[1] == after[1] && flip[0] == after[0] + 1);
#ifdef GEIS_ORACLE_BUILD
	XH_CHECK(both || split, "construction finished on events %d and %d, expected %d and %d",
	      flip[0], flip[1], after[0], after[1]);
	printf("the original: construction finished on %s\n",
	       both ? "both first motions past the timeout (its alarm fired after the "
		      "timeout's millisecond: a busy server)"
		    : "one drag's first motion past the timeout, the other's next one (its "
		      "alarm fired at the timeout's millisecond, as on an idle server)");
#else
	(void)both;
	XH_CHECK(split, "construction finished on events %d and %d, expected one of them on "
	      "%d and the other on %d, or the other way round", flip[0], flip[1], after[0],
	      after[1] + 1);
#endif
	if (xh_failures)
		trace_dump(&c);
	geis_delete(c.geis);
}

/*
 * An alarm nobody needs any more.  geis 2.2 made an XSync alarm for every
 * time grail_next_timeout() reported after a frame and never cancelled
 * one: after the first finger's begin, that is the 60 ms glue of a free
 * touch, +60 ms.  The second finger lands in the same millisecond and the
 * two form a pinch, recognized at its first motion; the alarm still comes
 * back at +60 and grail's check of construction runs then, between the
 * motions at +50 and +75.  The pinch's first event past +60 therefore
 * reports "construction finished" (before, utouch checked only at its own
 * timeouts and the input, and reported it one event later).
 */
static void
scenario_cf_glue(void)
{
	struct client c;
	struct xh_device *d = &xs.devices[0];
	Window win;
	Display *dpy = clock_open(&win);

	if (!dpy)
		return;

	client_new(&c);
	subscribe(&c, GEIS_GESTURE_PINCH, GEIS_FILTER_OP_EQ, 2);
	/* only a run whose two begins the server stamped in one millisecond
	 * shows it (a busy server may take longer): up to six tries */
	long long before = 0, after = -1;
	int first = 0;
	for (int attempt = 0; attempt < 6 && after != before; attempt++) {
		first = c.ntrace;
		before = server_time(dpy, win);
		double t0 = xh_now_ms();
		xh_touch_begin(d, 1, 360, 300);
		xh_touch_begin(d, 2, 440, 300);
		xh_sync(d);
		after = server_time(dpy, win);
		pump(&c, 2, 5);
		for (int s = 1; s <= 8; s++) {
			sleep_until(t0 + 25 * s);
			xh_touch_update(d, 1, 360 - 8 * s, 300);
			xh_touch_update(d, 2, 440 + 8 * s, 300);
			xh_sync(d);
			pump(&c, 2, 5);
		}
		xh_touch_end(d, 1, 296, 300);
		xh_touch_end(d, 2, 504, 300);
		settle(&c, d);
	}
	if (after != before) {
		fprintf(stderr, "SKIP: the server never stamped both begins in one millisecond\n");
		geis_delete(c.geis);
		XCloseDisplay(dpy);
		xh_stop(&xs);
		exit(XH_EXIT_SKIP);
	}
	int early = 0, late = 0;
	for (int i = first; i < c.ntrace; i++) {
		const struct trace_ev *e = &c.trace[i];

		/* (a motion stamped shortly before +60 that the client reads
		 * after +60 already reports it, as in geis 2.2: not checked) */
		if (e->ts < before + 40) {
			early++;
			XH_CHECK(e->cf == 0, "event %d at +%lld ms reports construction finished", i,
			      e->ts - before);
		} else if (e->ts >= before + 60 && e->type != GEIS_EVENT_GESTURE_END) {
			late++;
			XH_CHECK(e->cf == 1, "event %d at +%lld ms (past the +60 ms alarm) does not "
			      "report construction finished", i, e->ts - before);
		}
	}
	/* a slow client (sanitizers, a loaded machine) may read its first
	 * event only after +40 ms: then only the late half is shown */
	if (early == 0)
		fprintf(stderr, "note: no event read before +40 ms; checked the late ones\n");
	XH_CHECK(late >= 3, "%d events before +60 ms, %d after", early, late);
	if (xh_failures)
		trace_dump(&c);
	geis_delete(c.geis);
	XCloseDisplay(dpy);
}

/*
 * A client that dispatches late.  An atomic one-touch drag is recognized
 * at +20 ms and read at once; its next motion comes at +45 ms, before the
 * 60 ms boundary, but the client reads it only at +90 ms, together with
 * what the boundary's timeout brought.  geis 2.2 ran the alarm it read at
 * once but left the touch event read with it for its frame callback, so
 * the +45 ms motion reached grail after the timeout and reports
 * "construction finished"; utouch runs the timeouts due by the server
 * clock at each read before the input read, and must do the same.
 */
static void
scenario_cf_late_dispatch(void)
{
	struct client c;
	struct xh_device *d = &xs.devices[0];

	double t0 = atomic_drag_begin(&c, d);
	pump(&c, 2, 5);
	sleep_until(t0 + 20);
	xh_touch_update(d, 1, 300, 330);
	xh_sync(d);
	pump(&c, 2, 5);
	sleep_until(t0 + 45);
	xh_touch_update(d, 1, 300, 340);
	xh_sync(d);
	sleep_until(t0 + 90);   /* the client dispatches late */
	pump(&c, 2, 5);
	atomic_drag_finish(&c, d, t0 + 100, 340, 4, 10);

	/* BEGIN (+20 ms), the +45 ms motion, then the motions from +100 ms */
	XH_CHECK(c.ntrace >= 3 && c.trace[0].type == GEIS_EVENT_GESTURE_BEGIN &&
	      c.trace[1].type == GEIS_EVENT_GESTURE_UPDATE &&
	      c.trace[2].type == GEIS_EVENT_GESTURE_UPDATE, "not BEGIN, UPDATE, UPDATE");
	if (c.ntrace >= 3) {
		XH_CHECK(c.trace[0].cf == 0, "the BEGIN reports construction finished");
		XH_CHECK(c.trace[2].cf == 1, "the +100 ms motion does not report it");
		XH_CHECK(c.trace[1].cf == 1, "the +45 ms motion, read after the timeout, does "
		      "not report it");
	}
	if (xh_failures)
		trace_dump(&c);
	geis_delete(c.geis);
}

/* ---- hostile clients: more touches than wanted, decisions, grabs ---- */

/* The bits of trace_ev.cls: the classes in the order geis announces
 * them (the startup scenarios check it). */
#define CLS_DRAG 1u
#define CLS_PINCH 2u
#define CLS_ROTATE 4u
#define CLS_TAP 8u
#define CLS_TOUCH 16u
#define CLS_FLICK 32u

/* One gesture of a trace. */
struct gsum {
	GeisGestureId id;
	unsigned cls;
	int begins, updates, ends;
	int tmin, tmax;    /* touch counts seen */
};

static int
summarize(const struct client *c, struct gsum *g, int max)
{
	int n = 0;

	for (int i = 0; i < c->ntrace; i++) {
		const struct trace_ev *e = &c->trace[i];
		int k;
		for (k = 0; k < n; k++)
			if (g[k].id == e->id)
				break;
		if (k == n) {
			if (n == max)
				continue;
			memset(&g[n], 0, sizeof(g[n]));
			g[n].id = e->id;
			g[n].tmin = 99;
			n++;
		}
		g[k].cls |= e->cls;
		g[k].begins += e->type == GEIS_EVENT_GESTURE_BEGIN;
		g[k].updates += e->type == GEIS_EVENT_GESTURE_UPDATE;
		g[k].ends += e->type == GEIS_EVENT_GESTURE_END;
		if (e->touches < g[k].tmin)
			g[k].tmin = e->touches;
		if (e->touches > g[k].tmax)
			g[k].tmax = e->touches;
	}
	return n;
}

static void
summary_dump(const char *who, const struct client *c, const struct gsum *g, int n)
{
	fprintf(stderr, "%s: %d gestures\n", who, n);
	for (int k = 0; k < n; k++) {
		fprintf(stderr, "  gesture %u:", (unsigned)g[k].id);
		for (int i = 0; i < c->nclasses; i++)
			if (g[k].cls & (1u << i))
				fprintf(stderr, " %s", c->class_names[i]);
		fprintf(stderr, " %d begin %d update %d end, touches %d..%d\n", g[k].begins,
			g[k].updates, g[k].ends, g[k].tmin, g[k].tmax);
	}
}

/* @p n fingers land at y 200, 80 px apart from x 300 (inside the painter's
 * window), move 12 px down @p steps times together and lift; @p c (if any)
 * reads after each step and @p p (if any) too. */
static void
fingers(struct client *c, struct painter *p, struct xh_device *d, int n, int steps)
{
	for (int i = 0; i < n; i++)
		xh_touch_begin(d, (uint32_t)i + 1, 300 + 80 * i, 200);
	xh_sync(d);
	if (c)
		pump(c, 5, 30);
	for (int s = 1; s <= steps; s++) {
		for (int i = 0; i < n; i++)
			xh_touch_update(d, (uint32_t)i + 1, 300 + 80 * i, 200 + 12 * s);
		xh_sync(d);
		if (c)
			pump(c, 5, 30);
		if (p)
			painter_pump(p);
	}
	for (int i = 0; i < n; i++)
		xh_touch_end(d, (uint32_t)i + 1, 300 + 80 * i, 200 + 12 * steps);
	xh_sync(d);
}

/* Read until the painter has @p ends touch ends (3 s at the most), then
 * until @p c is quiet. */
static void
drain(struct client *c, struct painter *p, int ends)
{
	double start = xh_now_ms();

	do {
		if (c)
			pump(c, 20, 50);
		else
			sleep_until(xh_now_ms() + 20);
		painter_pump(p);
	} while (p->ends < ends && xh_now_ms() - start < 3000);
	if (c)
		pump(c, 100, 1000);
	painter_pump(p);
}

/* Each of the @p n gestures: only @p cls, one BEGIN, at least
 * @p min_updates UPDATEs, @p ends END, always @p touches touches.  (Its
 * END may be a flick too: whether the last motion was faster than 1 px/ms
 * depends on how the machine scheduled the test.) */
static void
check_gestures(const struct gsum *g, int n, unsigned cls, int min_updates, int ends,
	       int touches)
{
	for (int k = 0; k < n; k++) {
		XH_CHECK((g[k].cls & ~CLS_FLICK) == cls, "gesture %d has classes %#x, not %#x", k,
			 g[k].cls, cls);
		XH_CHECK(g[k].begins == 1 && g[k].updates >= min_updates && g[k].ends == ends,
			 "gesture %d: %d BEGIN, %d UPDATE, %d END", k, g[k].begins, g[k].updates,
			 g[k].ends);
		XH_CHECK(g[k].tmin == touches && g[k].tmax == touches,
			 "gesture %d has %d..%d touches, not %d", k, g[k].tmin, g[k].tmax, touches);
	}
}

static void
check_painter(const struct painter *p, int begins, int updates, int ends)
{
	XH_CHECK(p->begins == begins && p->updates == updates && p->ends == ends,
		 "the painter got %d begins, %d updates, %d ends; expected %d, %d, %d",
		 p->begins, p->updates, p->ends, begins, updates, ends);
}

static void
painter_dump(const struct painter *p)
{
	fprintf(stderr, "painter: %d begins, %d updates, %d ends\n", p->begins, p->updates,
		p->ends);
}

/*
 * @p n_fingers fingers on a @p want-touch drag subscription (not atomic):
 * a drag of each combination of @p want fingers, @p expect of them, none
 * of more touches; every touch is replayed to the painter in full.
 */
static void
extra_run(int want, int n_fingers, int expect)
{
	struct painter p;
	struct client c;
	struct gsum g[16];

	painter_open(&p);
	client_new(&c);
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, want);
	fingers(&c, &p, &xs.devices[0], n_fingers, 10);
	drain(&c, &p, n_fingers);
	int n = summarize(&c, g, 16);
	fprintf(stderr, "%d fingers on %d-touch drags\n", n_fingers, want);
	summary_dump("extra touches", &c, g, n);
	painter_dump(&p);
	XH_CHECK(n == expect, "%d gestures, expected %d", n, expect);
	check_gestures(g, n, CLS_DRAG, 8, 1, want);
	check_painter(&p, n_fingers, 10 * n_fingers, n_fingers);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

/* 4 touches, 2-touch drags: one per pair (6) */
static void
scenario_extra_touches(void)
{
	extra_run(2, 4, 6);
}

/* 3 touches, 1-touch drags: one per finger */
static void
scenario_extra_touches_1(void)
{
	extra_run(1, 3, 3);
}

static void
decide_run(int decide)
{
	struct painter p;
	struct client c;
	struct gsum g[16];

	painter_open(&p);
	client_new(&c);
	c.decide = decide;
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
	fingers(&c, &p, &xs.devices[0], 2, 10);
	drain(&c, &p, decide == DECIDE_ACCEPT ? 0 : 2);
	if (decide == DECIDE_ACCEPT) {
		/* nothing may come late */
		sleep_until(xh_now_ms() + 300);
		pump(&c, 20, 100);
		painter_pump(&p);
	}
	int n = summarize(&c, g, 16);
	summary_dump(decide == DECIDE_ACCEPT ? "accept" : "reject", &c, g, n);
	painter_dump(&p);
	XH_CHECK(n == 1 && c.ndecided == 1 && c.decide_failed == 0,
		 "%d gestures, %d decided, %d refused", n, c.ndecided, c.decide_failed);
	if (decide == DECIDE_ACCEPT) {
		/* the drag goes on to its END; the painter gets nothing */
		check_gestures(g, n, CLS_DRAG, 8, 1, 2);
		check_painter(&p, 0, 0, 0);
	} else {
		/* the rejected drag's BEGIN was its only event (no END); the
		 * touches are replayed to the painter in full */
		check_gestures(g, n, CLS_DRAG, 0, 0, 2);
		XH_CHECK(n == 1 && g[0].updates == 0, "%d UPDATEs after the reject",
			 n ? g[0].updates : -1);
		check_painter(&p, 2, 20, 2);
	}
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

static void
scenario_reject(void)
{
	decide_run(DECIDE_REJECT);
}

static void
scenario_accept(void)
{
	decide_run(DECIDE_ACCEPT);
}

static void
scenario_dup_sub(void)
{
	struct painter p;
	struct client c;
	struct gsum g[16];

	painter_open(&p);
	client_new(&c);
	Window root = DefaultRootWindow(p.dpy);
	GeisSubscription a = subscribe_on(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2, root);
	GeisSubscription b = subscribe_on(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2, root);
	XH_CHECK(a && b, "a subscription did not activate");
	fingers(&c, &p, &xs.devices[0], 2, 10);
	drain(&c, &p, 2);
	int n = summarize(&c, g, 16);
	summary_dump("two subscriptions", &c, g, n);
	painter_dump(&p);
	/* one drag per subscription, both undecided: replayed */
	XH_CHECK(n == 2, "%d gestures, expected 2", n);
	check_gestures(g, n, CLS_DRAG, 8, 1, 2);
	check_painter(&p, 2, 20, 2);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

static void
scenario_deactivate(void)
{
	struct painter p;
	struct client c;
	struct gsum g[16];
	struct xh_device *d = &xs.devices[0];

	painter_open(&p);
	client_new(&c);
	GeisSubscription sub = subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
	int at = -1;
	xh_touch_begin(d, 1, 300, 200);
	xh_touch_begin(d, 2, 380, 200);
	step(&c, d);
	for (int s = 1; s <= 10; s++) {
		if (s == 5) {
			XH_CHECK(geis_subscription_deactivate(sub) == GEIS_STATUS_SUCCESS,
				 "deactivation failed");
			at = c.ntrace;
			fprintf(stderr, "-- deactivated after %d events\n", c.ntrace);
		}
		xh_touch_update(d, 1, 300, 200 + 12 * s);
		xh_touch_update(d, 2, 380, 200 + 12 * s);
		step(&c, d);
		painter_pump(&p);
	}
	xh_touch_end(d, 1, 300, 320);
	xh_touch_end(d, 2, 380, 320);
	xh_sync(d);
	drain(&c, &p, 2);
	int n = summarize(&c, g, 16);
	summary_dump("deactivated mid-gesture", &c, g, n);
	painter_dump(&p);
	XH_CHECK(n == 1 && at >= 2 && c.trace[0].type == GEIS_EVENT_GESTURE_BEGIN,
		 "%d gestures, %d events before the deactivation", n, at);
	/* no UPDATE after the deactivation; the touches go to the painter */
	for (int i = at; i >= 0 && i < c.ntrace; i++)
		XH_CHECK(c.trace[i].type == GEIS_EVENT_GESTURE_END, "event %d after it is %s", i,
			 event_type_name(c.trace[i].type));
#ifdef GEIS_ORACLE_BUILD
	/* geis 2.2.17 cancels the gesture without an END (grail bug) */
	XH_CHECK(c.ntrace == at, "%d events after the deactivation", c.ntrace - at);
#else
	/* a gesture the application saw always ends with its END; not a
	 * flick, although the fingers moved fast: they did not lift */
	XH_CHECK(c.ntrace == at + 1, "%d events after the deactivation", c.ntrace - at);
	XH_CHECK(c.ntrace == at + 1 && !(c.trace[at].cls & CLS_FLICK),
		 "the END after the deactivation is a flick");
#endif
	check_painter(&p, 2, 20, 2);
	XH_CHECK(geis_subscription_activate(sub) == GEIS_STATUS_SUCCESS, "re-activation failed");
	pump(&c, 100, 1000);
	int before = c.ntrace;
	fingers(&c, &p, d, 2, 10);
	drain(&c, &p, 4);
	fprintf(stderr, "-- re-activated: %d events after\n", c.ntrace - before);
	n = summarize(&c, g, 16);
	summary_dump("all", &c, g, n);
	painter_dump(&p);
#ifdef GEIS_ORACLE_BUILD
	/* geis 2.2.17 reports success but delivers nothing more */
	XH_CHECK(n == 1 && c.ntrace == before, "the re-activated subscription delivered %d "
		 "events", c.ntrace - before);
#else
	/* the re-activated subscription works as it did */
	XH_CHECK(n == 2, "%d gestures, expected 2", n);
	if (n == 2)
		check_gestures(&g[1], 1, CLS_DRAG, 8, 1, 2);
#endif
	/* undecided (utouch) or not grabbed (geis 2.2.17): the painter has
	 * all the touches */
	check_painter(&p, 4, 40, 4);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

static void
scenario_nested(void)
{
	struct painter p;
	struct client outer, inner;
	struct gsum g[16];
	struct xh_device *d = &xs.devices[0];

	painter_open(&p);
	Window child = XCreateSimpleWindow(p.dpy, p.win, 100, 50, 400, 300, 0, 0, 0);
	XMapRaised(p.dpy, child);
	XSync(p.dpy, False);
	client_new(&outer);
	client_new(&inner);
	subscribe_on(&outer, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2, p.win);
	subscribe_on(&inner, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2, child);
	xh_touch_begin(d, 1, 300, 200);
	xh_touch_begin(d, 2, 380, 200);
	xh_sync(d);
	for (int s = 1; s <= 10; s++) {
		xh_touch_update(d, 1, 300, 200 + 12 * s);
		xh_touch_update(d, 2, 380, 200 + 12 * s);
		xh_sync(d);
		pump(&outer, 5, 30);
		pump(&inner, 5, 30);
	}
	xh_touch_end(d, 1, 300, 320);
	xh_touch_end(d, 2, 380, 320);
	xh_sync(d);
	double start = xh_now_ms();
	while (xh_now_ms() - start < 1500) {
		pump(&outer, 20, 50);
		pump(&inner, 20, 50);
		painter_pump(&p);
	}
	int n = summarize(&outer, g, 16);
	summary_dump("outer (parent window)", &outer, g, n);
	XH_CHECK(n == 1, "outer: %d gestures, expected 1", n);
	check_gestures(g, n, CLS_DRAG, 8, 1, 2);
	n = summarize(&inner, g, 16);
	summary_dump("inner (child window)", &inner, g, n);
	painter_dump(&p);
	XH_CHECK(n == 1, "inner: %d gestures, expected 1", n);
	check_gestures(g, n, CLS_DRAG, 8, 1, 2);
#ifdef GEIS_ORACLE_BUILD
	/* geis 2.2.17: the two undecided listeners keep the touches from
	 * the painter (for as long as the test waits, 1.5 s) */
	check_painter(&p, 0, 0, 0);
#else
	/* both release their undecided drags: the painter gets everything */
	check_painter(&p, 2, 20, 2);
#endif
	geis_delete(inner.geis);
	geis_delete(outer.geis);
	XCloseDisplay(p.dpy);
}

/* Two fingers 80 px apart land at (300, @y0), move down @px every @ms
 * @steps times together and lift; the geis client reads nothing meanwhile
 * (the painter does), and @total ms after the landing the drag is over. */
static void
unread_drag(struct painter *p, struct xh_device *d, int y0, int steps, int ms, int px,
	    int total)
{
	double t0 = xh_now_ms();
	int y = y0;

	xh_touch_begin(d, 1, 300, y0);
	xh_touch_begin(d, 2, 380, y0);
	xh_sync(d);
	for (int s = 1; s <= steps; s++) {
		sleep_until(t0 + ms * s);
		y = y0 + px * s;
		xh_touch_update(d, 1, 300, y);
		xh_touch_update(d, 2, 380, y);
		xh_sync(d);
		painter_pump(p);
	}
	xh_touch_end(d, 1, 300, y);
	xh_touch_end(d, 2, 380, y);
	xh_sync(d);
	sleep_until(t0 + total);
}

static void
scenario_late_client(void)
{
	struct painter p;
	struct client c;
	struct gsum g[16];
	struct xh_device *d = &xs.devices[0];

	painter_open(&p);
	client_new(&c);
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
	unread_drag(&p, d, 200, 10, 25, 12, 300);
	drain(&c, &p, 2);
	int n = summarize(&c, g, 16);
	summary_dump("late client", &c, g, n);
	painter_dump(&p);
	XH_CHECK(n == 1, "%d gestures, expected 1", n);
	check_gestures(g, n, CLS_DRAG, 5, 1, 2);
	check_painter(&p, 2, 20, 2);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

/* GEIS_CONFIG_MAX_EVENTS: 16 at first; any value set (a negative one
 * too) reads back; set to 3, it limits nothing a late client gets: a
 * 2-touch drag of 30 motions read after it ended comes whole. */
static void
scenario_max_events(void)
{
	struct painter p;
	struct client c;
	struct gsum g[16];
	struct xh_device *d = &xs.devices[0];
	GeisInteger v = -5;

	painter_open(&p);
	client_new(&c);
	XH_CHECK(geis_get_configuration(c.geis, GEIS_CONFIG_MAX_EVENTS, &v) ==
			 GEIS_STATUS_SUCCESS && v == 16,
		 "GEIS_CONFIG_MAX_EVENTS reads %d, expected 16", (int)v);
	static const GeisInteger values[] = { -1, 0, 100000, 3 };
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		GeisInteger set = values[i];
		v = -5;
		XH_CHECK(geis_set_configuration(c.geis, GEIS_CONFIG_MAX_EVENTS, &set) ==
				 GEIS_STATUS_SUCCESS,
			 "setting GEIS_CONFIG_MAX_EVENTS to %d failed", (int)set);
		XH_CHECK(geis_get_configuration(c.geis, GEIS_CONFIG_MAX_EVENTS, &v) ==
				 GEIS_STATUS_SUCCESS && v == set,
			 "GEIS_CONFIG_MAX_EVENTS reads %d after setting %d", (int)v, (int)set);
	}
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
	unread_drag(&p, d, 150, 30, 15, 6, 600);
	drain(&c, &p, 2);
	int n = summarize(&c, g, 16);
	summary_dump("max events 3", &c, g, n);
	XH_CHECK(n == 1, "%d gestures, expected 1", n);
	check_gestures(g, n, CLS_DRAG, 20, 1, 2);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

static void
scenario_killed(void)
{
	struct painter p;
	struct xh_device *d = &xs.devices[0];
	int ready[2];

	painter_open(&p);
	if (pipe(ready) != 0) {
		XH_CHECK(0, "pipe");
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		struct client c;
		in_child = 1;
		close(ready[0]);
		client_new(&c);
		subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pump(&c, 1000, 1000);
	}
	close(ready[1]);
	char b;
	XH_CHECK(pid > 0 && read(ready[0], &b, 1) == 1, "the geis child did not start");
	close(ready[0]);
	xh_touch_begin(d, 1, 300, 200);
	xh_touch_begin(d, 2, 380, 200);
	xh_sync(d);
	for (int s = 1; s <= 10; s++) {
		if (s == 5 && pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		xh_touch_update(d, 1, 300, 200 + 12 * s);
		xh_touch_update(d, 2, 380, 200 + 12 * s);
		xh_sync(d);
		sleep_until(xh_now_ms() + 10);
		painter_pump(&p);
	}
	xh_touch_end(d, 1, 300, 320);
	xh_touch_end(d, 2, 380, 320);
	xh_sync(d);
	drain(NULL, &p, 2);
	painter_dump(&p);
	/* the grab went with the client: everything reaches the painter */
	check_painter(&p, 2, 20, 2);
	XCloseDisplay(p.dpy);
}

static void
scenario_same_window(void)
{
	struct painter p;
	struct client a, b;
	struct gsum g[16];
	struct xh_device *d = &xs.devices[0];
	GeisStatus st;

	painter_open(&p);
	client_new(&a);
	client_new(&b);
	subscribe(&a, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
	GeisSubscription sb = sub_new(&b, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2, 0, &st);
	XH_CHECK(st == GEIS_STATUS_SUCCESS, "the second subscription: status %d", (int)st);
	/* the root window's touch grab is the first client's */
	st = geis_subscription_activate(sb);
	XH_CHECK(st == GEIS_STATUS_UNKNOWN_ERROR, "the second client's activation: status %d, "
		 "expected GEIS_STATUS_UNKNOWN_ERROR", (int)st);
	xh_touch_begin(d, 1, 300, 200);
	xh_touch_begin(d, 2, 380, 200);
	xh_sync(d);
	for (int s = 1; s <= 10; s++) {
		xh_touch_update(d, 1, 300, 200 + 12 * s);
		xh_touch_update(d, 2, 380, 200 + 12 * s);
		xh_sync(d);
		pump(&a, 5, 30);
		pump(&b, 5, 30);
	}
	xh_touch_end(d, 1, 300, 320);
	xh_touch_end(d, 2, 380, 320);
	xh_sync(d);
	double start = xh_now_ms();
	while (p.ends < 2 && xh_now_ms() - start < 3000) {
		pump(&a, 20, 50);
		pump(&b, 20, 50);
		painter_pump(&p);
	}
	pump(&b, 50, 200);
	int n = summarize(&a, g, 16);
	summary_dump("first", &a, g, n);
	n = summarize(&b, g, 16);
	summary_dump("second", &b, g, n);
	painter_dump(&p);
	XH_CHECK(n == 0, "the second client got %d gestures", n);
	n = summarize(&a, g, 16);
	XH_CHECK(n == 1, "the first client got %d gestures, expected 1", n);
	check_gestures(g, n, CLS_DRAG, 8, 1, 2);
	check_painter(&p, 2, 20, 2);

	/* the first client goes: the second activates now */
	geis_delete(a.geis);
	st = geis_subscription_activate(sb);
	XH_CHECK(st == GEIS_STATUS_SUCCESS, "activation after the first client left: status %d",
		 (int)st);
	pump(&b, 100, 1000);
	fingers(&b, &p, d, 2, 10);
	drain(&b, &p, 4);
	n = summarize(&b, g, 16);
	summary_dump("second", &b, g, n);
	painter_dump(&p);
#ifdef GEIS_ORACLE_BUILD
	/* geis 2.2.17: a subscription activated a second time gets nothing
	 * (as in the deactivate scenario) */
	XH_CHECK(n == 0, "the second client got %d gestures", n);
#else
	XH_CHECK(n == 1, "the second client got %d gestures, expected 1", n);
	check_gestures(g, n, CLS_DRAG, 8, 1, 2);
#endif
	check_painter(&p, 4, 40, 4);
	geis_delete(b.geis);
	XCloseDisplay(p.dpy);
}

static void
atomic_extra_run(int want, int n_fingers)
{
	struct painter p;
	struct client c;
	struct gsum g[16];

	painter_open(&p);
	client_open(&c, CLIENT_ATOMIC);
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, want);
	fingers(&c, &p, &xs.devices[0], n_fingers, 10);
	drain(&c, &p, n_fingers);
	int n = summarize(&c, g, 16);
	fprintf(stderr, "atomic, %d fingers on %d-touch drags\n", n_fingers, want);
	summary_dump("atomic", &c, g, n);
	painter_dump(&p);
	/* atomic gestures start only on as many free touches as the
	 * subscription wants: none here; everything reaches the painter */
	XH_CHECK(n == 0, "%d gestures, expected none", n);
	check_painter(&p, n_fingers, 10 * n_fingers, n_fingers);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

static void
scenario_atomic_extra(void)
{
	atomic_extra_run(2, 3);
}

static void
scenario_atomic_extra_1(void)
{
	atomic_extra_run(1, 3);
}

static void
scenario_extra_accept(void)
{
	struct painter p;
	struct client c;
	struct gsum g[16];

	painter_open(&p);
	client_new(&c);
	c.decide = DECIDE_ACCEPT;
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
	fingers(&c, &p, &xs.devices[0], 4, 10);
	drain(&c, &p, 0);   /* the painter gets no END to wait for */
	sleep_until(xh_now_ms() + 300);
	pump(&c, 20, 100);
	painter_pump(&p);
	int n = summarize(&c, g, 16);
	summary_dump("4 touches, 2-touch drags, accepted", &c, g, n);
	painter_dump(&p);
	/* accepting the first pair's drag rejects the four others that
	 * share a touch with it, unseen; the last pair's drag comes and is
	 * accepted too: two whole drags, and the painter gets nothing */
	XH_CHECK(n == 2 && c.ndecided == 2 && c.decide_failed == 0,
		 "%d gestures, %d decided, %d refused", n, c.ndecided, c.decide_failed);
	check_gestures(g, n, CLS_DRAG, 8, 1, 2);
	XH_CHECK(n == 2 && g[1].id == g[0].id + 5, "the second drag is not the sixth candidate");
	check_painter(&p, 0, 0, 0);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

static void
scenario_extra_reject(void)
{
	struct painter p;
	struct client c;
	struct gsum g[16];

	painter_open(&p);
	client_new(&c);
	c.decide = DECIDE_REJECT;
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
	fingers(&c, &p, &xs.devices[0], 4, 10);
	drain(&c, &p, 4);
	int n = summarize(&c, g, 16);
	summary_dump("4 touches, 2-touch drags, rejected", &c, g, n);
	painter_dump(&p);
	/* each pair's drag: its BEGIN, then nothing; all replayed */
	XH_CHECK(n == 6 && c.ndecided == 6 && c.decide_failed == 0,
		 "%d gestures, %d decided, %d refused", n, c.ndecided, c.decide_failed);
	check_gestures(g, n, CLS_DRAG, 0, 0, 2);
	for (int k = 0; k < n; k++)
		XH_CHECK(g[k].updates == 0, "gesture %d: %d UPDATEs after the reject", k,
			 g[k].updates);
	check_painter(&p, 4, 40, 4);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

static void
scenario_cont_extra(void)
{
	struct painter p;
	struct client c;
	struct gsum g[16];

	painter_open(&p);
	client_new(&c);
	GeisSubscription sub = geis_subscription_new(c.geis, "cont", GEIS_SUBSCRIPTION_CONT);
	GeisFilter filter = geis_filter_new(c.geis, "cont");
	geis_filter_add_term(filter, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
			     GEIS_FILTER_OP_EQ, GEIS_GESTURE_DRAG, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
			     GEIS_FILTER_OP_EQ, 2, NULL);
	geis_subscription_add_filter(sub, filter);
	XH_CHECK(geis_subscription_activate(sub) == GEIS_STATUS_SUCCESS, "activation");
	pump(&c, 100, 1000);
	fingers(&c, &p, &xs.devices[0], 3, 10);
	drain(&c, &p, 3);
	int n = summarize(&c, g, 16);
	summary_dump("3 touches, 2-touch CONT drags", &c, g, n);
	painter_dump(&p);
	/* a drag per pair, which may go on with one touch as the fingers
	 * lift (CONT: 1 to 2 touches) */
	XH_CHECK(n == 3, "%d gestures, expected 3", n);
	for (int k = 0; k < n; k++) {
		XH_CHECK((g[k].cls & ~CLS_FLICK) == CLS_DRAG, "gesture %d has classes %#x", k,
			 g[k].cls);
		XH_CHECK(g[k].begins == 1 && g[k].updates >= 8 && g[k].ends == 1,
			 "gesture %d: %d BEGIN, %d UPDATE, %d END", k, g[k].begins, g[k].updates,
			 g[k].ends);
		XH_CHECK(g[k].tmax == 2 && g[k].tmin >= 1, "gesture %d has %d..%d touches", k,
			 g[k].tmin, g[k].tmax);
	}
	check_painter(&p, 3, 30, 3);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

static void
scenario_deleted(void)
{
	struct painter p;
	struct client c;
	struct xh_device *d = &xs.devices[0];

	painter_open(&p);
	client_new(&c);
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
	xh_touch_begin(d, 1, 300, 200);
	xh_touch_begin(d, 2, 380, 200);
	step(&c, d);
	for (int s = 1; s <= 10; s++) {
		if (s == 5)
			geis_delete(c.geis);
		xh_touch_update(d, 1, 300, 200 + 12 * s);
		xh_touch_update(d, 2, 380, 200 + 12 * s);
		xh_sync(d);
		if (s < 5)
			pump(&c, 5, 30);
		painter_pump(&p);
	}
	xh_touch_end(d, 1, 300, 320);
	xh_touch_end(d, 2, 380, 320);
	xh_sync(d);
	drain(NULL, &p, 2);
	painter_dump(&p);
	XH_CHECK(c.begun == 1, "%d BEGINs before geis_delete()", c.begun);
	/* the grab went with the instance: everything reaches the painter */
	check_painter(&p, 2, 20, 2);
	XCloseDisplay(p.dpy);
}

static void
scenario_atomic_late(void)
{
	struct painter p;
	struct client c;
	struct gsum g[16];
	struct xh_device *d = &xs.devices[0];

	painter_open(&p);
	client_open(&c, CLIENT_ATOMIC);
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 1);
	double t0 = xh_now_ms();
	xh_touch_begin(d, 1, 300, 200);
	xh_sync(d);
	for (int s = 1; s <= 10; s++) {
		sleep_until(t0 + 25 * s);
		xh_touch_update(d, 1, 300, 200 + 12 * s);
		xh_sync(d);
		painter_pump(&p);
	}
	xh_touch_end(d, 1, 300, 320);
	xh_sync(d);
	sleep_until(t0 + 300);
	drain(&c, &p, 0);   /* the painter gets no END to wait for */
	int n = summarize(&c, g, 16);
	summary_dump("atomic late client", &c, g, n);
	painter_dump(&p);
	/* the whole drag, accepted at +60 ms while the client slept: the
	 * BEGIN is under construction, then every event is finished */
	XH_CHECK(n == 1, "%d gestures, expected 1", n);
	check_gestures(g, n, CLS_DRAG, 8, 1, 1);
	XH_CHECK(c.ntrace > 0 && c.trace[0].cf == 0, "the BEGIN reports construction finished");
	int flip = -1;
	for (int i = 0; i < c.ntrace; i++) {
		if (flip < 0 && c.trace[i].cf == 1)
			flip = i;
		if (flip >= 0)
			XH_CHECK(c.trace[i].cf == 1, "construction finished went back at %d", i);
	}
	XH_CHECK(flip > 0, "never construction finished");
	check_painter(&p, 0, 0, 0);
	if (xh_failures)
		trace_dump(&c);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

static void
scenario_deactivate_accepted(void)
{
	struct painter p;
	struct client c;
	struct gsum g[16];
	struct xh_device *d = &xs.devices[0];

	painter_open(&p);
	client_new(&c);
	c.decide = DECIDE_ACCEPT;
	GeisSubscription sub = subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
	int at = -1;
	xh_touch_begin(d, 1, 300, 200);
	xh_touch_begin(d, 2, 380, 200);
	step(&c, d);
	for (int s = 1; s <= 10; s++) {
		if (s == 5) {
			at = c.ntrace;
			XH_CHECK(geis_subscription_deactivate(sub) == GEIS_STATUS_SUCCESS,
				 "deactivation failed");
		}
		xh_touch_update(d, 1, 300, 200 + 12 * s);
		xh_touch_update(d, 2, 380, 200 + 12 * s);
		step(&c, d);
		painter_pump(&p);
	}
	xh_touch_end(d, 1, 300, 320);
	xh_touch_end(d, 2, 380, 320);
	xh_sync(d);
	drain(&c, &p, 0);
	sleep_until(xh_now_ms() + 300);
	painter_pump(&p);
	int n = summarize(&c, g, 16);
	summary_dump("accepted, deactivated", &c, g, n);
	painter_dump(&p);
	XH_CHECK(n == 1 && at >= 2 && c.ndecided == 1 && c.decide_failed == 0,
		 "%d gestures, %d events before the deactivation", n, at);
	for (int i = at; i >= 0 && i < c.ntrace; i++)
		XH_CHECK(c.trace[i].type == GEIS_EVENT_GESTURE_END, "event %d after it is %s", i,
			 event_type_name(c.trace[i].type));
#ifdef GEIS_ORACLE_BUILD
	XH_CHECK(c.ntrace == at, "%d events after the deactivation", c.ntrace - at);
#else
	XH_CHECK(c.ntrace == at + 1 && !(c.trace[at].cls & CLS_FLICK),
		 "%d events after the deactivation, or a flick", c.ntrace - at);
#endif
	/* the touches were accepted: they stay the client's */
	check_painter(&p, 0, 0, 0);
	if (xh_failures)
		trace_dump(&c);
	geis_delete(c.geis);
	XCloseDisplay(p.dpy);
}

/*
 * A subscription to the Flick class and a fast 1-touch drag (40 px per
 * step, the touch lifting 80 px further on).  utouch: Flick stands for
 * Drag; every event is a drag, and the END is also a flick exactly when
 * the last motion was faster than 1 px/ms.  geis 2.2.17: the events are
 * of class Touch (the BEGIN, at the touch's first event, only Touch) and
 * Drag once it moved; none is ever a flick.
 */
static void
scenario_flick(void)
{
	struct client c;
	struct xh_device *d = &xs.devices[0];

	client_new(&c);
	XH_CHECK(c.nclasses == 6 && strcmp(c.class_names[5], "Flick") == 0,
		 "the sixth class is not Flick");
	subscribe(&c, "Flick", GEIS_FILTER_OP_EQ, 1);
	xh_touch_begin(d, 1, 200, 300);
	xh_sync(d);
	pump(&c, 5, 30);
	for (int s = 1; s <= 6; s++) {
		sleep_until(xh_now_ms() + 5);
		xh_touch_update(d, 1, 200 + 40 * s, 300);
		xh_sync(d);
		pump(&c, 5, 30);
	}
	xh_touch_end(d, 1, 520, 300);
	settle(&c, d);

	int n = c.ntrace;
	XH_CHECK(n >= 4 && c.trace[0].type == GEIS_EVENT_GESTURE_BEGIN &&
		 c.trace[n - 1].type == GEIS_EVENT_GESTURE_END, "%d events, not BEGIN .. END", n);
	if (n < 4) {
		geis_delete(c.geis);
		return;
	}
#ifdef GEIS_ORACLE_BUILD
	/* Touch from the BEGIN on, Drag too from its recognition (the first
	 * motion or one later, as the machine schedules the test) */
	XH_CHECK(c.trace[0].cls == CLS_TOUCH, "the BEGIN has classes %#x", c.trace[0].cls);
	int drag = 0;
	for (int i = 1; i < n; i++) {
		drag |= c.trace[i].cls == (CLS_DRAG | CLS_TOUCH);
		XH_CHECK(c.trace[i].cls == (drag ? CLS_DRAG | CLS_TOUCH : CLS_TOUCH),
			 "event %d has classes %#x", i, c.trace[i].cls);
	}
	XH_CHECK(c.trace[n - 1].cls == (CLS_DRAG | CLS_TOUCH), "the END has classes %#x",
		 c.trace[n - 1].cls);
#else
	/* the last motion's speed: the last UPDATE with a time step */
	double v = 0.0;
	for (int i = n - 2; i > 0; i--) {
		int dt = c.trace[i].ts - c.trace[i - 1].ts;
		if (c.trace[i].type == GEIS_EVENT_GESTURE_UPDATE && dt > 0) {
			v = hypot(c.trace[i].dx, c.trace[i].dy) / dt;
			break;
		}
	}
	for (int i = 0; i < n - 1; i++)
		XH_CHECK(c.trace[i].cls == CLS_DRAG, "event %d has classes %#x", i, c.trace[i].cls);
	printf("last motion %.2f px/ms, END classes %#x\n", v, c.trace[n - 1].cls);
	XH_CHECK(c.trace[n - 1].cls == (v > 1.0 ? CLS_DRAG | CLS_FLICK : CLS_DRAG),
		 "the END has classes %#x after a last motion of %.2f px/ms", c.trace[n - 1].cls, v);
#endif
	if (xh_failures)
		trace_dump(&c);
	geis_delete(c.geis);
}

static void
attrs_dump(const struct client *c)
{
	for (int i = 0; i < c->nseen; i++) {
		fprintf(stderr, "%s cls %x:", event_type_name(c->seen[i].type), c->seen[i].cls);
		for (int k = 0; k < c->seen[i].n; k++)
			fprintf(stderr, " %s", c->seen[i].names[k]);
		fprintf(stderr, "\n");
	}
}

static const char *const attrs_common[] = {
	"timestamp:i", "device id:i", "root window id:i", "event window id:i",
	"child window id:i", "touches:i", "focus x:f", "focus y:f", "boundingbox x1:f",
	"boundingbox y1:f", "boundingbox x2:f", "boundingbox y2:f", "gesture name:s",
};
static const char *const attrs_drag[] = {
	"position x:f", "position y:f", "delta x:f", "delta y:f", "velocity x:f", "velocity y:f",
};
static const char *const attrs_pinch[] = { "radius:f", "radius delta:f", "radial velocity:f" };
static const char *const attrs_rotate[] = {
	"centroid x:f", "centroid y:f", "angle:f", "angle delta:f", "angular velocity:f",
};

/*
 * The attributes of the first event of type @p t of a gesture of class
 * @p cls: the event's three, then geis 2.2.17's frame attributes in its
 * order, the common ones and @p nblock of the class (the last @p nrates
 * of them, velocities, not on an END).  utouch's frames carry more after
 * these (every attribute of every class, the touches); the original's
 * carry exactly these.
 */
static void
check_attrs(const struct client *c, GeisEventType t, unsigned cls, const char *const *block,
	    int nblock, int nrates)
{
	static const char *const ev_attrs[] = {
		"E group set:p", "E touch set:p", "E construction finished:b",
	};
	const char *want[48];
	int n = 0;

	for (int i = 0; i < 3; i++)
		want[n++] = ev_attrs[i];
	for (size_t i = 0; i < sizeof(attrs_common) / sizeof(attrs_common[0]); i++)
		want[n++] = attrs_common[i];
	for (int i = 0; i < nblock - (t == GEIS_EVENT_GESTURE_END ? nrates : 0); i++)
		want[n++] = block[i];
	const struct attr_seen *s = NULL;
	for (int i = 0; i < c->nseen; i++)
		if (c->seen[i].type == t && c->seen[i].cls == cls)
			s = &c->seen[i];
	XH_CHECK(s, "no %s of class %#x", event_type_name(t), cls);
	if (!s)
		return;
	for (int i = 0; i < n; i++)
		XH_CHECK(i < s->n && strcmp(s->names[i], want[i]) == 0,
			 "%s of class %#x: attribute %d is \"%s\", expected \"%s\"",
			 event_type_name(t), cls, i, i < s->n ? s->names[i] : "(none)", want[i]);
#ifdef GEIS_ORACLE_BUILD
	XH_CHECK(s->n == n, "%s of class %#x: %d attributes, expected %d", event_type_name(t),
		 cls, s->n, n);
#endif
}

static void
check_attrs_class(const struct client *c, unsigned cls, const char *const *block, int nblock,
		  int nrates)
{
	check_attrs(c, GEIS_EVENT_GESTURE_BEGIN, cls, block, nblock, nrates);
	check_attrs(c, GEIS_EVENT_GESTURE_UPDATE, cls, block, nblock, nrates);
	check_attrs(c, GEIS_EVENT_GESTURE_END, cls, block, nblock, nrates);
	XH_CHECK(c->nseen == 3, "%d kinds of event, expected 3", c->nseen);
	XH_CHECK(c->frame_device_id == c->device_id, "the frames' device id %d is not the "
		 "device's %d", c->frame_device_id, c->device_id);
}

static void
scenario_attrs(void)
{
	struct client c;
	struct xh_device *d = &xs.devices[0];

	client_new(&c);
	subscribe(&c, GEIS_GESTURE_DRAG, GEIS_FILTER_OP_EQ, 2);
	fingers(&c, NULL, d, 2, 10);
	settle(&c, d);
	attrs_dump(&c);
	check_attrs_class(&c, CLS_DRAG, attrs_drag, 6, 2);
	geis_delete(c.geis);

	client_new(&c);
	subscribe(&c, GEIS_GESTURE_PINCH, GEIS_FILTER_OP_EQ, 2);
	xh_touch_begin(d, 1, 360, 300);
	xh_touch_begin(d, 2, 440, 300);
	step(&c, d);
	for (int s = 1; s <= 10; s++) {
		xh_touch_update(d, 1, 360 - 8 * s, 300);
		xh_touch_update(d, 2, 440 + 8 * s, 300);
		step(&c, d);
	}
	xh_touch_end(d, 1, 280, 300);
	xh_touch_end(d, 2, 520, 300);
	settle(&c, d);
	attrs_dump(&c);
	check_attrs_class(&c, CLS_PINCH, attrs_pinch, 3, 1);
	geis_delete(c.geis);

	client_new(&c);
	subscribe(&c, GEIS_GESTURE_ROTATE, GEIS_FILTER_OP_EQ, 2);
	xh_touch_begin(d, 1, 300, 300);
	xh_touch_begin(d, 2, 500, 300);
	step(&c, d);
	for (int s = 1; s <= 10; s++) {
		double a = 0.08 * s;
		xh_touch_update(d, 1, 400 - 100 * cos(a), 300 - 100 * sin(a));
		xh_touch_update(d, 2, 400 + 100 * cos(a), 300 + 100 * sin(a));
		step(&c, d);
	}
	xh_touch_end(d, 1, 400 - 100 * cos(0.8), 300 - 100 * sin(0.8));
	xh_touch_end(d, 2, 400 + 100 * cos(0.8), 300 + 100 * sin(0.8));
	settle(&c, d);
	attrs_dump(&c);
	check_attrs_class(&c, CLS_ROTATE, attrs_rotate, 5, 1);
	geis_delete(c.geis);

	/* a tap is one UPDATE with the common attributes (no "tap time" in
	 * geis 2.2.17) */
	client_new(&c);
	subscribe(&c, GEIS_GESTURE_TAP, GEIS_FILTER_OP_EQ, 1);
	xh_touch_begin(d, 1, 300, 300);
	step(&c, d);
	xh_touch_end(d, 1, 300, 300);
	settle(&c, d);
	attrs_dump(&c);
	check_attrs(&c, GEIS_EVENT_GESTURE_UPDATE, CLS_TAP, NULL, 0, 0);
	XH_CHECK(c.nseen == 1, "%d kinds of event, expected 1", c.nseen);
	geis_delete(c.geis);
}

/* ---- the geis v1 interface ---- */

/* One v1 callback: kind 'A' added, 'R' removed, 'S' start, 'U' update,
 * 'F' finish; its attributes as "name:type" joined by '|'. */
struct v1_call {
	char kind;
	GeisGestureType type;
	GeisGestureId id;
	int touches;
	int nattrs;
	char sig[1024];
	float x, y;     /* "position x/y" */
	Window event_window;
	int device;     /* "device id" */
	float tid[2];   /* "touch 0 id", "touch 1 id" (floats in geis 2.2.17) */
	char name[32];  /* "gesture name" */
};

struct v1_client {
	GeisInstance inst;
	int fd;
	GeisStatus init_st, fd_st;
	int dump;
	struct v1_call calls[600];
	int ncalls;
	/* at the first start: 1 geis_unsubscribe(), 2 geis_finish() */
	int on_start;
	GeisStatus on_start_st;
	/* geis_input_devices() callbacks */
	int dev_added, dev_changed, dev_removed;
	GeisInputDeviceId dev_id;
	char dev_sig[1024];
};

static void
v1_record(struct v1_client *c, char kind, GeisGestureType type, GeisGestureId id,
	  GeisSize n, GeisGestureAttr *attrs)
{
	if (c->dump) {
		fprintf(stderr, "v1 %c type %u id %u %zu attrs:", kind, (unsigned)type,
			(unsigned)id, (size_t)n);
		for (GeisSize i = 0; i < n; i++) {
			fprintf(stderr, " [%s:%s", attrs[i].name, attr_type_name(attrs[i].type));
			if (attrs[i].type == GEIS_ATTR_TYPE_INTEGER)
				fprintf(stderr, "=%d", attrs[i].integer_val);
			else if (attrs[i].type == GEIS_ATTR_TYPE_FLOAT)
				fprintf(stderr, "=%.2f", attrs[i].float_val);
			else if (attrs[i].type == GEIS_ATTR_TYPE_STRING)
				fprintf(stderr, "=%s", attrs[i].string_val ? attrs[i].string_val : "(null)");
			fprintf(stderr, "]");
		}
		fprintf(stderr, "\n");
	}
	if (c->ncalls == (int)(sizeof(c->calls) / sizeof(c->calls[0])))
		return;
	struct v1_call *e = &c->calls[c->ncalls++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->type = type;
	e->id = id;
	e->touches = -1;
	e->nattrs = (int)n;
	size_t len = 0;
	for (GeisSize i = 0; i < n && attrs; i++) {
		len += (size_t)snprintf(e->sig + len, sizeof(e->sig) - len, "%s%s:%s",
					i ? "|" : "", attrs[i].name,
					attr_type_name(attrs[i].type));
		if (len >= sizeof(e->sig))
			len = sizeof(e->sig) - 1;
		if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_TOUCHES) == 0)
			e->touches = attrs[i].integer_val;
		else if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_POSITION_X) == 0)
			e->x = attrs[i].float_val;
		else if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_POSITION_Y) == 0)
			e->y = attrs[i].float_val;
		else if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID) == 0)
			e->event_window = (Window)(unsigned)attrs[i].integer_val;
		else if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_DEVICE_ID) == 0)
			e->device = attrs[i].integer_val;
		else if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_TOUCH_0_ID) == 0 &&
			 attrs[i].type == GEIS_ATTR_TYPE_FLOAT)
			e->tid[0] = attrs[i].float_val;
		else if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_TOUCH_1_ID) == 0 &&
			 attrs[i].type == GEIS_ATTR_TYPE_FLOAT)
			e->tid[1] = attrs[i].float_val;
		else if (strcmp(attrs[i].name, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME) == 0 &&
			 attrs[i].type == GEIS_ATTR_TYPE_STRING && attrs[i].string_val)
			snprintf(e->name, sizeof(e->name), "%s", attrs[i].string_val);
	}
}

#define V1_CB(fn, kind)                                                                  \
	static void fn(void *cookie, GeisGestureType type, GeisGestureId id, GeisSize n,   \
		       GeisGestureAttr *attrs)                                              \
	{                                                                                  \
		v1_record(cookie, kind, type, id, n, attrs);                               \
	}
V1_CB(v1_added, 'A')
V1_CB(v1_removed, 'R')
static void
v1_start(void *cookie, GeisGestureType type, GeisGestureId id, GeisSize n,
	 GeisGestureAttr *attrs)
{
	struct v1_client *c = cookie;

	v1_record(c, 'S', type, id, n, attrs);
	if (c->on_start == 1)
		c->on_start_st = geis_unsubscribe(c->inst, NULL);
	else if (c->on_start == 2)
		c->on_start_st = geis_finish(c->inst);
	c->on_start = 0;
}
V1_CB(v1_update, 'U')
V1_CB(v1_finish, 'F')

static GeisGestureFuncs v1_funcs = {
	.added = v1_added, .removed = v1_removed, .start = v1_start,
	.update = v1_update, .finish = v1_finish,
};

static void
v1_device(struct v1_client *c, const char *what, int *count, GeisInputDeviceId id,
	  GeisGestureAttr *attrs)
{
	size_t len = 0;

	(*count)++;
	c->dev_id = id;
	c->dev_sig[0] = '\0';
	for (int i = 0; attrs && attrs[i].name; i++) {
		len += (size_t)snprintf(c->dev_sig + len, sizeof(c->dev_sig) - len, "%s%s:%s",
					i ? "|" : "", attrs[i].name,
					attr_type_name(attrs[i].type));
		if (len >= sizeof(c->dev_sig))
			len = sizeof(c->dev_sig) - 1;
	}
	if (c->dump) {
		fprintf(stderr, "v1 device %s %u:", what, (unsigned)id);
		for (int i = 0; attrs && attrs[i].name; i++) {
			fprintf(stderr, " [%s:%s", attrs[i].name, attr_type_name(attrs[i].type));
			if (attrs[i].type == GEIS_ATTR_TYPE_INTEGER ||
			    attrs[i].type == GEIS_ATTR_TYPE_BOOLEAN)
				fprintf(stderr, "=%d", attrs[i].integer_val);
			else if (attrs[i].type == GEIS_ATTR_TYPE_FLOAT)
				fprintf(stderr, "=%.2f", attrs[i].float_val);
			else if (attrs[i].type == GEIS_ATTR_TYPE_STRING)
				fprintf(stderr, "=%s", attrs[i].string_val);
			fprintf(stderr, "]");
		}
		fprintf(stderr, "\n");
	}
}

static void
v1_dev_added(void *cookie, GeisInputDeviceId id, void *attrs)
{
	struct v1_client *c = cookie;
	v1_device(c, "added", &c->dev_added, id, attrs);
}

static void
v1_dev_changed(void *cookie, GeisInputDeviceId id, void *attrs)
{
	struct v1_client *c = cookie;
	v1_device(c, "changed", &c->dev_changed, id, attrs);
}

static void
v1_dev_removed(void *cookie, GeisInputDeviceId id, void *attrs)
{
	struct v1_client *c = cookie;
	v1_device(c, "removed", &c->dev_removed, id, attrs);
}

static GeisInputFuncs v1_input_funcs = {
	.added = v1_dev_added, .changed = v1_dev_changed, .removed = v1_dev_removed,
};

/* Dispatch until @p c is quiet for @p idle_ms (@p max_ms at the most). */
static void
v1_pump(struct v1_client *c, int idle_ms, int max_ms)
{
	double start = xh_now_ms(), last = start;

	while (xh_now_ms() - start < max_ms && xh_now_ms() - last < idle_ms) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		if (poll(&pfd, 1, 10) <= 0)
			continue;
		last = xh_now_ms();
		geis_event_dispatch(c->inst);
	}
}

/* geis_init() on @p window; 0 when it failed (init_st says how). */
static int
v1_open(struct v1_client *c, Window window)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->dump = getenv("ORACLE_DUMP") != NULL;
	GeisXcbWinInfo xcb = { .display_name = NULL, .screenp = NULL,
			       .window_id = (uint32_t)window };
	GeisWinInfo win = { .win_type = GEIS_XCB_FULL_WINDOW, .win_info = &xcb };
	c->init_st = geis_init(&win, &c->inst);
	if (c->init_st != GEIS_STATUS_SUCCESS || !c->inst)
		return 0;
	c->fd_st = geis_configuration_get_value(c->inst, GEIS_CONFIG_UNIX_FD, &c->fd);
	return c->fd_st == GEIS_STATUS_SUCCESS && c->fd >= 0;
}

static Window
root_window(void)
{
	Display *dpy = xh_open_client(&xs);
	Window root = dpy ? DefaultRootWindow(dpy) : 0;
	if (dpy)
		XCloseDisplay(dpy);
	return root;
}

static void
v1_calls_dump(const char *who, const struct v1_client *c)
{
	if (!c->dump)
		return;
	fprintf(stderr, "%s: %d calls:", who, c->ncalls);
	for (int i = 0; i < c->ncalls; i++)
		fprintf(stderr, " %c%u/%u/%d", c->calls[i].kind, (unsigned)c->calls[i].type,
			(unsigned)c->calls[i].id, c->calls[i].touches);
	fprintf(stderr, "\n");
}

/* The gestures v1 tests make, in the painter's window (100..700, 100..500). */
static void
v1_pump_step(struct v1_client *c, struct xh_device *d)
{
	xh_sync(d);
	v1_pump(c, 5, 30);
}

/* Where finger @p i (0 or 1) of a two-finger gesture is at step @p s
 * (0: down, 1..10: motions, the last also where it lifts). */
typedef void (*v1_path)(int s, int i, double *x, double *y);

static void
v1_drag2_at(int s, int i, double *x, double *y)
{
	*x = i ? 380 : 300;
	*y = 200 + 12 * s;
}

static void
v1_pinch_at(int s, int i, double *x, double *y)
{
	*x = i ? 440 + 8 * s : 360 - 8 * s;
	*y = 300;
}

static void
v1_rotate_at(int s, int i, double *x, double *y)
{
	double a = 0.08 * s, sign = i ? 1 : -1;
	*x = 400 + sign * 100 * cos(a);
	*y = 300 + sign * 100 * sin(a);
}

/* Two fingers along @p at: down, ten motions, up where the last one was. */
static void
v1_two_fingers(struct v1_client *c, struct xh_device *d, v1_path at)
{
	double x, y;

	for (int i = 0; i < 2; i++) {
		at(0, i, &x, &y);
		xh_touch_begin(d, (uint32_t)i + 1, x, y);
	}
	v1_pump_step(c, d);
	for (int s = 1; s <= 10; s++) {
		for (int i = 0; i < 2; i++) {
			at(s, i, &x, &y);
			xh_touch_update(d, (uint32_t)i + 1, x, y);
		}
		v1_pump_step(c, d);
	}
	for (int i = 0; i < 2; i++) {
		at(10, i, &x, &y);
		xh_touch_end(d, (uint32_t)i + 1, x, y);
	}
	xh_sync(d);
	v1_pump(c, 100, 1000);
}

static void
v1_tap(struct v1_client *c, struct xh_device *d)
{
	xh_touch_begin(d, 1, 300, 300);
	v1_pump_step(c, d);
	xh_touch_end(d, 1, 300, 300);
	xh_sync(d);
	v1_pump(c, 100, 1000);
}

/* The attributes geis 2.2.17 gives a v1 callback, in its order: the
 * common ones, the class's (velocities not on a finish), each touch's. */
static void
v1_want_sig(char *buf, size_t cap, GeisGestureType type, char kind, int touches)
{
	static const char common[] =
		"device id:i|timestamp:i|root window id:i|event window id:i|child window id:i|"
		"focus x:f|focus y:f|gesture name:s|touches:i|boundingbox x1:f|"
		"boundingbox y1:f|boundingbox x2:f|boundingbox y2:f";
	const char *block = "", *rates = "";
	size_t len;

	if (type == GEIS_GESTURE_PRIMITIVE_DRAG) {
		block = "|position x:f|position y:f|delta x:f|delta y:f";
		rates = "|velocity x:f|velocity y:f";
	} else if (type == GEIS_GESTURE_PRIMITIVE_PINCH) {
		block = "|radius:f|radius delta:f";
		rates = "|radial velocity:f";
	} else if (type == GEIS_GESTURE_PRIMITIVE_ROTATE) {
		block = "|centroid x:f|centroid y:f|angle:f|angle delta:f";
		rates = "|angular velocity:f";
	}
	len = (size_t)snprintf(buf, cap, "%s%s%s", common, block, kind == 'F' ? "" : rates);
	for (int t = 0; t < touches && len < cap; t++)
		len += (size_t)snprintf(buf + len, cap - len,
					"|touch %d id:f|touch %d x:f|touch %d y:f", t, t, t);
}

/* The original's attributes are exactly these; utouch's begin with them. */
static void
v1_check_sig(const struct v1_call *e)
{
	char want[1024];

	v1_want_sig(want, sizeof(want), e->type, e->kind, e->touches);
#ifdef GEIS_ORACLE_BUILD
	int ok = strcmp(e->sig, want) == 0;
#else
	size_t n = strlen(want);
	int ok = strncmp(e->sig, want, n) == 0 && (e->sig[n] == '\0' || e->sig[n] == '|');
#endif
	XH_CHECK(ok, "%c of type %u: attributes\n  %s\n expected\n  %s", e->kind,
		 (unsigned)e->type, e->sig, want);
}

static int
v1_count(const struct v1_client *c, char kind, GeisGestureType type)
{
	int n = 0;
	for (int i = 0; i < c->ncalls; i++)
		n += c->calls[i].kind == kind && c->calls[i].type == type;
	return n;
}

/*
 * The gesture of the first start of @p type: a start with @p touches, at
 * least @p min_updates updates, a finish with 1 touch (v1 subscriptions
 * are CONT: the gesture goes on as the first finger lifts); every call's
 * type, "gesture name" and attributes; its window.
 */
static void
v1_check_gesture(const struct v1_client *c, GeisGestureType type, const char *cls,
		 int touches, int min_updates, Window window)
{
	int first = -1;
	for (int i = 0; i < c->ncalls && first < 0; i++)
		if (c->calls[i].kind == 'S' && c->calls[i].type == type)
			first = i;
	XH_CHECK(first >= 0, "no start of type %u", (unsigned)type);
	if (first < 0)
		return;
	GeisGestureId id = c->calls[first].id;
	int updates = 0, finishes = 0, last = first;
	for (int i = first; i < c->ncalls; i++) {
		const struct v1_call *e = &c->calls[i];
		if (e->kind == 'A' || e->kind == 'R' || e->id != id)
			continue;
		if (e->type != type)
			continue;   /* the original's ids of two types may meet */
		char name[32];
		snprintf(name, sizeof(name), "%s,touch=%d", cls, e->touches);
		XH_CHECK(strcmp(e->name, name) == 0, "gesture name \"%s\", expected \"%s\"",
			 e->name, name);
		XH_CHECK(e->event_window == window, "event window 0x%lx, expected 0x%lx",
			 (unsigned long)e->event_window, (unsigned long)window);
		v1_check_sig(e);
		/* the X touch ids: the server's, from 1 */
		XH_CHECK(e->tid[0] >= 1.0f && (e->touches < 2 || (e->tid[1] >= 1.0f &&
							       e->tid[1] != e->tid[0])),
			 "touch ids %.1f, %.1f", e->tid[0], e->tid[1]);
		updates += e->kind == 'U';
		finishes += e->kind == 'F';
		XH_CHECK(i == first || e->kind != 'S', "a second start of gesture %u",
			 (unsigned)id);
		if (e->kind == 'F')
			last = i;
	}
	XH_CHECK(c->calls[first].touches == touches, "type %u started with %d touches",
		 (unsigned)type, c->calls[first].touches);
	XH_CHECK(updates >= min_updates && finishes == 1, "type %u: %d updates, %d finishes",
		 (unsigned)type, updates, finishes);
	XH_CHECK(finishes == 0 || c->calls[last].touches == 1, "type %u finished with %d touches",
		 (unsigned)type, c->calls[last].touches);
}

/*
 * geis_init on the painter's window, a list of four types: a 2-touch
 * drag, pinch and rotation and a 1-touch tap each give their callbacks;
 * the original never calls 'added' (utouch: once per type).
 */
static void
scenario_v1_gestures(void)
{
	struct painter p;
	struct v1_client c;
	struct xh_device *d = &xs.devices[0];
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, GEIS_GESTURE_TYPE_PINCH2,
				GEIS_GESTURE_TYPE_ROTATE2, GEIS_GESTURE_TYPE_TAP1, NULL };

	painter_open(&p);
	if (!v1_open(&c, p.win)) {
		XH_CHECK(0, "geis_init %d, fd %d", c.init_st, c.fd_st);
		return;
	}
	XH_CHECK(geis_input_devices(c.inst, &v1_input_funcs, &c) == GEIS_STATUS_SUCCESS &&
		 c.dev_added == 1, "geis_input_devices: %d devices", c.dev_added);
	XH_CHECK(geis_subscribe(c.inst, GEIS_ALL_INPUT_DEVICES, types, &v1_funcs, &c) ==
		 GEIS_STATUS_SUCCESS, "geis_subscribe");
	v1_pump(&c, 100, 1000);

	v1_two_fingers(&c, d, v1_drag2_at);
	v1_calls_dump("drag", &c);
#ifdef GEIS_ORACLE_BUILD
	XH_CHECK(v1_count(&c, 'A', GEIS_GESTURE_PRIMITIVE_DRAG) == 0, "'added' called");
#else
	XH_CHECK(v1_count(&c, 'A', GEIS_GESTURE_PRIMITIVE_DRAG) == 1 &&
		 v1_count(&c, 'A', GEIS_GESTURE_PRIMITIVE_PINCH) == 1 &&
		 v1_count(&c, 'A', GEIS_GESTURE_PRIMITIVE_ROTATE) == 1 &&
		 v1_count(&c, 'A', GEIS_GESTURE_PRIMITIVE_TAP) == 1, "'added' not once per type");
#endif
	v1_check_gesture(&c, GEIS_GESTURE_PRIMITIVE_DRAG, "Drag", 2, 8, p.win);
#ifndef GEIS_ORACLE_BUILD
	/* utouch's gesture ids are never GEIS_NO_GESTURE_ID; the original's
	 * count grail's candidates, the first one 0 */
	for (int i = 0; i < c.ncalls; i++)
		XH_CHECK(c.calls[i].kind == 'A' || c.calls[i].id != GEIS_NO_GESTURE_ID,
			 "a gesture with id 0");
#endif
	for (int i = 0, started = 0; i < c.ncalls; i++) {
		const struct v1_call *e = &c.calls[i];
		if (e->kind == 'A' || e->kind == 'R')
			continue;
		XH_CHECK(e->device == (int)c.dev_id, "\"device id\" %d, the device's %u",
			 e->device, (unsigned)c.dev_id);
		if (e->type != GEIS_GESTURE_PRIMITIVE_DRAG)
			continue;
		/* window coordinates: the fingers from x 200 and 280, y 100 to
		 * 220; the finish has the last finger only */
		if (e->kind == 'S' && !started++)
			XH_CHECK(fabsf(e->x - 240.0f) < 1.0f, "drag starts at x %.1f", e->x);
		if (e->kind == 'F')
			XH_CHECK(fabsf(e->x - 280.0f) < 1.0f && fabsf(e->y - 220.0f) < 1.0f,
				 "drag finishes at (%.1f, %.1f)", e->x, e->y);
	}
	XH_CHECK(v1_count(&c, 'S', GEIS_GESTURE_PRIMITIVE_PINCH) == 0, "a pinch in the drag");
	c.ncalls = 0;
	v1_two_fingers(&c, d, v1_pinch_at);
	v1_calls_dump("pinch", &c);
	v1_check_gesture(&c, GEIS_GESTURE_PRIMITIVE_PINCH, "Pinch", 2, 8, p.win);
	c.ncalls = 0;
	v1_two_fingers(&c, d, v1_rotate_at);
	v1_calls_dump("rotate", &c);
	v1_check_gesture(&c, GEIS_GESTURE_PRIMITIVE_ROTATE, "Rotate", 2, 8, p.win);
	c.ncalls = 0;
	/* a tap: one update, no start or finish */
	v1_tap(&c, d);
	v1_calls_dump("tap", &c);
	XH_CHECK(c.ncalls == 1 && c.calls[0].kind == 'U' &&
		 c.calls[0].type == GEIS_GESTURE_PRIMITIVE_TAP && c.calls[0].touches == 1 &&
		 strcmp(c.calls[0].name, "Tap,touch=1") == 0,
		 "%d calls for a tap, not 1 update of a 1-touch Tap", c.ncalls);
	if (c.ncalls == 1)
		v1_check_sig(&c.calls[0]);
	XH_CHECK(geis_unsubscribe(c.inst, NULL) == GEIS_STATUS_SUCCESS, "geis_unsubscribe");
	XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");
	/* every touch was in a subscribed type's gesture: none reaches the
	 * painter */
	painter_pump(&p);
	painter_dump(&p);
	check_painter(&p, 0, 0, 0);
	XCloseDisplay(p.dpy);
}

/*
 * GEIS_ALL_GESTURES on the root window and a 2-touch drag: the original
 * makes it one gesture of type Touch from the first finger on (touches
 * 1, 2, ..., 1), never calling 'added'; utouch gives every type its own
 * gestures: a 2-touch Drag among them, after an 'added' per type.
 */
static void
scenario_v1_all(void)
{
	struct v1_client c;
	struct xh_device *d = &xs.devices[0];
	Window root = root_window();

	if (!v1_open(&c, root)) {
		XH_CHECK(0, "geis_init %d, fd %d", c.init_st, c.fd_st);
		return;
	}
	XH_CHECK(geis_subscribe(c.inst, GEIS_ALL_INPUT_DEVICES, GEIS_ALL_GESTURES, &v1_funcs,
				&c) == GEIS_STATUS_SUCCESS, "geis_subscribe");
	v1_pump(&c, 100, 1000);
	v1_two_fingers(&c, d, v1_drag2_at);
	v1_calls_dump("drag", &c);
#ifdef GEIS_ORACLE_BUILD
	int maxt = 0, others = 0;
	for (int i = 0; i < c.ncalls; i++) {
		if (c.calls[i].touches > maxt)
			maxt = c.calls[i].touches;
		others += c.calls[i].type != GEIS_GESTURE_PRIMITIVE_TOUCH ||
			  c.calls[i].id != c.calls[0].id || c.calls[i].kind == 'A';
	}
	XH_CHECK(c.ncalls >= 10 && others == 0, "%d calls, %d not of the one Touch gesture",
		 c.ncalls, others);
	XH_CHECK(c.ncalls > 0 && c.calls[0].kind == 'S' && c.calls[0].touches == 1 &&
		 c.calls[c.ncalls - 1].kind == 'F' && maxt == 2,
		 "not a start with 1 touch, 2 touches, a finish");
#else
	int added = 0;
	for (int i = 0; i < c.ncalls; i++)
		added += c.calls[i].kind == 'A';
	XH_CHECK(added == 25, "%d 'added' calls", added);
	v1_check_gesture(&c, GEIS_GESTURE_PRIMITIVE_DRAG, "Drag", 2, 8, root);
#endif
	XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");

	/* GEIS_ALL_GESTURES on a child window (the painter's), a tap: the
	 * original's one Touch gesture, start, update, finish with 1 touch,
	 * is utouch's too; utouch also gives the Tap's update */
	struct painter p;
	painter_open(&p);
	if (!v1_open(&c, p.win)) {
		XH_CHECK(0, "geis_init %d, fd %d", c.init_st, c.fd_st);
		return;
	}
	XH_CHECK(geis_subscribe(c.inst, GEIS_ALL_INPUT_DEVICES, GEIS_ALL_GESTURES, &v1_funcs,
				&c) == GEIS_STATUS_SUCCESS, "geis_subscribe");
	v1_pump(&c, 100, 1000);
	c.ncalls = 0;
	v1_tap(&c, d);
	v1_calls_dump("tap", &c);
	char seen[16] = "";
	for (int i = 0, n = 0; i < c.ncalls && n < 15; i++) {
		const struct v1_call *e = &c.calls[i];
		if (e->type == GEIS_GESTURE_PRIMITIVE_TOUCH) {
			seen[n++] = e->kind;
			seen[n] = '\0';
			XH_CHECK(e->touches == 1 && strcmp(e->name, "Touch,touch=1") == 0 &&
				 e->event_window == p.win, "Touch call: %d touches, name %s",
				 e->touches, e->name);
			v1_check_sig(e);
		}
	}
	/* a start, one or two updates (a motionless one at the end, or not,
	 * as the events were read), a finish */
	size_t ns = strlen(seen);
	XH_CHECK(ns >= 3 && ns <= 4 && seen[0] == 'S' && seen[ns - 1] == 'F' &&
		 strspn(seen + 1, "U") == ns - 2, "the Touch gesture's calls: %s", seen);
#ifdef GEIS_ORACLE_BUILD
	XH_CHECK(c.ncalls == (int)ns, "%d calls", c.ncalls);
#else
	XH_CHECK(c.ncalls == (int)ns + 1 && v1_count(&c, 'U', GEIS_GESTURE_PRIMITIVE_TAP) == 1,
		 "%d calls, not the Touch gesture's and a Tap", c.ncalls);
#endif
	XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");
	XCloseDisplay(p.dpy);

	/* "Drag,touch=2" on the root window: the drag, as on a child */
	const char *drag2[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	if (!v1_open(&c, root)) {
		XH_CHECK(0, "geis_init %d, fd %d", c.init_st, c.fd_st);
		return;
	}
	XH_CHECK(geis_subscribe(c.inst, GEIS_ALL_INPUT_DEVICES, drag2, &v1_funcs, &c) ==
		 GEIS_STATUS_SUCCESS, "geis_subscribe");
	v1_pump(&c, 100, 1000);
	v1_two_fingers(&c, d, v1_drag2_at);
	v1_calls_dump("drag2 on root", &c);
	v1_check_gesture(&c, GEIS_GESTURE_PRIMITIVE_DRAG, "Drag", 2, 8, root);
	for (int i = 0; i < c.ncalls; i++)
		if (c.calls[i].kind == 'S') {
			/* root coordinates: the fingers at x 300 and 380 */
			XH_CHECK(fabsf(c.calls[i].x - 340.0f) < 1.0f, "drag starts at x %.1f",
				 c.calls[i].x);
			break;
		}
	XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");
}

/* ---- v1: devices, configuration, bad arguments ---- */

/* Run @p fn in a child process: its status as the exit code, or 128 + the
 * signal that killed it (the original may crash on a bad argument). */
static int
v1_in_child(GeisStatus (*fn)(void))
{
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		in_child = 1;
		_exit((int)fn() & 0xff);
	}
	int ws = 0;
	if (pid < 0 || waitpid(pid, &ws, 0) != pid)
		return -1;
	return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
}

#define V1_CODE(st) ((int)(st) & 0xff)

static GeisStatus
bad_init_no_info(void)
{
	GeisInstance inst = NULL;
	return geis_init(NULL, &inst);
}

static GeisStatus
bad_init_no_instance(void)
{
	GeisXcbWinInfo xcb = { .window_id = (uint32_t)root_window() };
	GeisWinInfo win = { .win_type = GEIS_XCB_FULL_WINDOW, .win_info = &xcb };
	return geis_init(&win, NULL);
}

static GeisStatus
bad_dispatch_null(void)
{
	return geis_event_dispatch(NULL);
}

static GeisStatus
bad_finish_null(void)
{
	return geis_finish(NULL);
}

static GeisStatus
bad_subscribe_null(void)
{
	return geis_subscribe(NULL, GEIS_ALL_INPUT_DEVICES, GEIS_ALL_GESTURES, &v1_funcs, NULL);
}

static GeisStatus
bad_get_value_null(void)
{
	int fd = -1;
	return geis_configuration_get_value(NULL, GEIS_CONFIG_UNIX_FD, &fd);
}

static GeisStatus
bad_supported_null(void)
{
	return geis_configuration_supported(NULL, GEIS_CONFIG_UNIX_FD);
}

static GeisStatus
bad_input_null(void)
{
	return geis_input_devices(NULL, &v1_input_funcs, NULL);
}

static GeisStatus
bad_unsubscribe_null(void)
{
	return geis_unsubscribe(NULL, NULL);
}

static GeisStatus
bad_unknown_window(void)
{
	struct v1_client c;
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };

	if (!v1_open(&c, 0x1fffff))
		return c.init_st;
	/* the grab on the window is where it shows */
	GeisStatus st = geis_subscribe(c.inst, GEIS_ALL_INPUT_DEVICES, types, &v1_funcs, &c);
	v1_pump(&c, 50, 300);
	geis_finish(c.inst);
	return st;
}

/*
 * geis_input_devices() on a v1 instance: the device reported at once, in
 * the call, with its attributes, and again to callbacks registered again;
 * the configuration: GEIS_CONFIG_UNIX_FD only, nothing settable;
 * geis_unsubscribe() without a subscription fails.
 */
static void
scenario_v1_devices(void)
{
	struct v1_client c;
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };

	if (!v1_open(&c, root_window())) {
		XH_CHECK(0, "geis_init %d, fd %d", c.init_st, c.fd_st);
		return;
	}
	XH_CHECK(geis_input_devices(c.inst, &v1_input_funcs, &c) == GEIS_STATUS_SUCCESS,
		 "geis_input_devices");
	XH_CHECK(c.dev_added == 1, "%d devices added in the call", c.dev_added);
	v1_pump(&c, 100, 1000);
	XH_CHECK(c.dev_added == 1 && c.dev_changed == 0 && c.dev_removed == 0,
		 "devices: %d added, %d changed, %d removed", c.dev_added, c.dev_changed,
		 c.dev_removed);
	XH_CHECK(strcmp(c.dev_sig, "device name:s|device id:i|device touches:i|direct touch:b|"
			"independent touch:b|device X minimum:f|device X maximum:f|"
			"device X resolution:f|device Y minimum:f|device Y maximum:f|"
			"device Y resolution:f") == 0, "device attributes %s", c.dev_sig);
	XH_CHECK(c.dev_id != 0, "device id 0");
	GeisStatus st = geis_input_devices(c.inst, &v1_input_funcs, &c);
	XH_CHECK(st == GEIS_STATUS_SUCCESS && c.dev_added == 2,
		 "registered again: %d, %d devices added", st, c.dev_added);

	int fd = -1, v = 5;
	XH_CHECK(geis_configuration_supported(c.inst, GEIS_CONFIG_UNIX_FD) == GEIS_STATUS_SUCCESS,
		 "GEIS_CONFIG_UNIX_FD not supported");
	XH_CHECK(geis_configuration_supported(c.inst, 0) == GEIS_STATUS_NOT_SUPPORTED &&
		 geis_configuration_supported(c.inst, 10002) == GEIS_STATUS_NOT_SUPPORTED,
		 "an unknown item supported");
	st = geis_configuration_get_value(c.inst, GEIS_CONFIG_UNIX_FD, &fd);
	XH_CHECK(st == GEIS_STATUS_SUCCESS && fd == c.fd && fd >= 0, "get fd: %d, %d", st, fd);
	st = geis_configuration_get_value(c.inst, 10002, &v);
	XH_CHECK(st == GEIS_STATUS_NOT_SUPPORTED && v == 5, "get 10002: %d, %d", st, v);
	st = geis_configuration_set_value(c.inst, GEIS_CONFIG_UNIX_FD, &fd);
	XH_CHECK(st == GEIS_STATUS_NOT_SUPPORTED, "set fd: %d", st);
	st = geis_configuration_set_value(c.inst, 10002, &v);
	XH_CHECK(st == GEIS_STATUS_NOT_SUPPORTED, "set 10002: %d", st);

	st = geis_unsubscribe(c.inst, NULL);
	XH_CHECK(st == GEIS_STATUS_UNKNOWN_ERROR, "unsubscribe before subscribing: %d", st);
	GeisInputDeviceId devs[] = { c.dev_id, 0 };
	st = geis_subscribe(c.inst, devs, types, &v1_funcs, &c);
	XH_CHECK(st == GEIS_STATUS_SUCCESS, "subscribe on the device: %d", st);
	st = geis_unsubscribe(c.inst, NULL);
	XH_CHECK(st == GEIS_STATUS_SUCCESS, "unsubscribe: %d", st);
	st = geis_unsubscribe(c.inst, NULL);
	XH_CHECK(st == GEIS_STATUS_UNKNOWN_ERROR, "unsubscribe twice: %d", st);
	/* known names that make no gestures: nothing to unsubscribe */
	const char *flick[] = { GEIS_GESTURE_FLICK, GEIS_GESTURE_TYPE_SYSTEM, NULL };
	st = geis_subscribe(c.inst, devs, flick, &v1_funcs, &c);
	XH_CHECK(st == GEIS_STATUS_SUCCESS, "subscribe Flick, Sysflags: %d", st);
	st = geis_unsubscribe(c.inst, NULL);
	XH_CHECK(st == GEIS_STATUS_UNKNOWN_ERROR, "unsubscribe Flick, Sysflags: %d", st);
	/* subscribed again after an unsubscribe: geis 2.2.17 fails every
	 * later unsubscribe of the instance, utouch does what it did first */
	st = geis_subscribe(c.inst, devs, types, &v1_funcs, &c);
	XH_CHECK(st == GEIS_STATUS_SUCCESS, "subscribe again: %d", st);
	st = geis_unsubscribe(c.inst, NULL);
#ifdef GEIS_ORACLE_BUILD
	XH_CHECK(st == GEIS_STATUS_UNKNOWN_ERROR, "unsubscribe after subscribing again: %d", st);
#else
	XH_CHECK(st == GEIS_STATUS_SUCCESS, "unsubscribe after subscribing again: %d", st);
#endif
	XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");
}

/*
 * Bad arguments, each in a child process: utouch returns
 * GEIS_BAD_ARGUMENT for a NULL instance or win_info, where the original
 * crashes (but for geis_configuration_supported(), which ignores the
 * instance); an unknown window: geis_init succeeds, the subscription
 * fails (GEIS_UNKNOWN_ERROR), where the original's Xlib ends the process
 * (exit 1, BadWindow); an unknown type, no callbacks or an empty device
 * list: GEIS_BAD_ARGUMENT, where the original returns success (the
 * unknown type on an instance without subscriptions:
 * GEIS_STATUS_UNKNOWN_ERROR).
 */
static void
scenario_v1_bad_args(void)
{
	static const struct {
		const char *what;
		GeisStatus (*fn)(void);
	} nulls[] = {
		{ "geis_init(NULL win_info)", bad_init_no_info },
		{ "geis_init(NULL instance)", bad_init_no_instance },
		{ "geis_event_dispatch(NULL)", bad_dispatch_null },
		{ "geis_finish(NULL)", bad_finish_null },
		{ "geis_subscribe(NULL)", bad_subscribe_null },
		{ "geis_configuration_get_value(NULL)", bad_get_value_null },
		{ "geis_configuration_supported(NULL)", bad_supported_null },
		{ "geis_input_devices(NULL)", bad_input_null },
		{ "geis_unsubscribe(NULL)", bad_unsubscribe_null },
	};
	for (size_t i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++) {
		int code = v1_in_child(nulls[i].fn);
#ifdef GEIS_ORACLE_BUILD
		int want = nulls[i].fn == bad_supported_null ? V1_CODE(GEIS_STATUS_SUCCESS)
							     : 128 + SIGSEGV;
#else
		int want = V1_CODE(GEIS_BAD_ARGUMENT);
#endif
		XH_CHECK(code == want, "%s: %d, expected %d", nulls[i].what, code, want);
	}
	int code = v1_in_child(bad_unknown_window);
#ifdef GEIS_ORACLE_BUILD
	XH_CHECK(code == 1, "unknown window: %d, expected Xlib's exit 1", code);
#else
	XH_CHECK(code == V1_CODE(GEIS_UNKNOWN_ERROR), "unknown window: %d", code);
#endif

	struct v1_client c;
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };
	const char *badtypes[] = { "Wiggle,touch=2", NULL };
	GeisInputDeviceId nodevs[] = { 0 };
	if (!v1_open(&c, root_window())) {
		XH_CHECK(0, "geis_init %d, fd %d", c.init_st, c.fd_st);
		return;
	}
#ifdef GEIS_ORACLE_BUILD
	GeisStatus want = GEIS_STATUS_SUCCESS, want_type = GEIS_STATUS_UNKNOWN_ERROR;
#else
	GeisStatus want = GEIS_BAD_ARGUMENT, want_type = GEIS_BAD_ARGUMENT;
#endif
	GeisStatus st = geis_subscribe(c.inst, GEIS_ALL_INPUT_DEVICES, badtypes, &v1_funcs, &c);
	XH_CHECK(st == want_type, "an unknown type: %d", st);
	st = geis_subscribe(c.inst, GEIS_ALL_INPUT_DEVICES, types, NULL, &c);
	XH_CHECK(st == want, "no callbacks: %d", st);
	st = geis_subscribe(c.inst, nodevs, types, &v1_funcs, &c);
	XH_CHECK(st == want, "an empty device list: %d", st);
	XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");
}

/* @p n fingers as fingers() does, the v1 client reading after each step */
static void
v1_fingers(struct v1_client *c, struct painter *p, struct xh_device *d, int n, int steps)
{
	for (int i = 0; i < n; i++)
		xh_touch_begin(d, (uint32_t)i + 1, 300 + 80 * i, 200);
	xh_sync(d);
	if (c)
		v1_pump(c, 5, 30);
	for (int s = 1; s <= steps; s++) {
		for (int i = 0; i < n; i++)
			xh_touch_update(d, (uint32_t)i + 1, 300 + 80 * i, 200 + 12 * s);
		xh_sync(d);
		if (c)
			v1_pump(c, 5, 30);
		painter_pump(p);
	}
	for (int i = 0; i < n; i++)
		xh_touch_end(d, (uint32_t)i + 1, 300 + 80 * i, 200 + 12 * steps);
	xh_sync(d);
}

/*
 * 3 and 4 touches on a 2-touch v1 drag subscription (CONT, the v1
 * way) on the painter's window: no callback at all, and the painter gets
 * every touch event.
 */
static void
scenario_v1_extra(void)
{
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };

	for (int n = 3; n <= 4; n++) {
		struct painter p;
		struct v1_client c;

		painter_open(&p);
		if (!v1_open(&c, p.win)) {
			XH_CHECK(0, "geis_init %d, fd %d", c.init_st, c.fd_st);
			return;
		}
		XH_CHECK(geis_subscribe(c.inst, GEIS_ALL_INPUT_DEVICES, types, &v1_funcs, &c) ==
			 GEIS_STATUS_SUCCESS, "geis_subscribe");
		v1_pump(&c, 100, 1000);
		c.ncalls = 0;   /* utouch's 'added' */
		v1_fingers(&c, &p, &xs.devices[0], n, 10);
		double start = xh_now_ms();
		do {
			v1_pump(&c, 20, 50);
			painter_pump(&p);
		} while (p.ends < n && xh_now_ms() - start < 3000);
		v1_pump(&c, 100, 1000);
		painter_pump(&p);
		v1_calls_dump("extra touches", &c);
		painter_dump(&p);
		XH_CHECK(c.ncalls == 0, "%d touches: %d callbacks", n, c.ncalls);
		check_painter(&p, n, 10 * n, n);
		XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");
		XCloseDisplay(p.dpy);
	}
}

/*
 * A v1 client subscribed to 2-touch drags on the painter's window that
 * does not dispatch while a 2-finger drag happens: the painter gets
 * nothing (600 ms); dispatching late, the client gets the drag (a start
 * with 2 touches, an update, a finish), and the painter still nothing,
 * also once the client finished.
 */
static void
scenario_v1_idle(void)
{
	struct painter p;
	struct v1_client c;
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };

	painter_open(&p);
	if (!v1_open(&c, p.win)) {
		XH_CHECK(0, "geis_init %d, fd %d", c.init_st, c.fd_st);
		return;
	}
	XH_CHECK(geis_subscribe(c.inst, GEIS_ALL_INPUT_DEVICES, types, &v1_funcs, &c) ==
		 GEIS_STATUS_SUCCESS, "geis_subscribe");
	v1_fingers(NULL, &p, &xs.devices[0], 2, 10);
	sleep_until(xh_now_ms() + 600);
	painter_pump(&p);
	painter_dump(&p);
	check_painter(&p, 0, 0, 0);
	v1_pump(&c, 100, 1000);
	v1_calls_dump("late", &c);
	int starts = v1_count(&c, 'S', GEIS_GESTURE_PRIMITIVE_DRAG);
	int updates = v1_count(&c, 'U', GEIS_GESTURE_PRIMITIVE_DRAG);
	int finishes = v1_count(&c, 'F', GEIS_GESTURE_PRIMITIVE_DRAG);
#ifdef GEIS_ORACLE_BUILD
	if (starts == 0 && updates == 0 && finishes == 0) {
		/* geis 2.2.17 on a busy machine: the timeout alarm read in the
		 * same batch as the late touches ran first, the candidate was
		 * rejected and the drag replayed below.  Either outcome is the
		 * original's; this one must then be whole at the painter. */
		fprintf(stderr, "note: the original rejected the late drag (busy machine)\n");
		XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");
		sleep_until(xh_now_ms() + 300);
		painter_pump(&p);
		painter_dump(&p);
		check_painter(&p, 2, 20, 2);
		XCloseDisplay(p.dpy);
		return;
	}
#endif
	XH_CHECK(starts == 1 && updates >= 1 && finishes == 1,
		 "read late: %d starts, %d updates, %d finishes", starts, updates, finishes);
	v1_check_gesture(&c, GEIS_GESTURE_PRIMITIVE_DRAG, "Drag", 2, 1, p.win);
	XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");
	sleep_until(xh_now_ms() + 300);
	painter_pump(&p);
	painter_dump(&p);
	check_painter(&p, 0, 0, 0);
	XCloseDisplay(p.dpy);
}

/*
 * The v1 client calls geis_unsubscribe() (@p what 1) or geis_finish()
 * (2) in the start callback of a 2-finger drag on the painter's window.
 */
static void
v1_reentrant_run(int what)
{
	struct painter p;
	struct v1_client c;
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };

	painter_open(&p);
	if (!v1_open(&c, p.win)) {
		XH_CHECK(0, "geis_init %d, fd %d", c.init_st, c.fd_st);
		return;
	}
	XH_CHECK(geis_subscribe(c.inst, GEIS_ALL_INPUT_DEVICES, types, &v1_funcs, &c) ==
		 GEIS_STATUS_SUCCESS, "geis_subscribe");
	v1_pump(&c, 100, 1000);
	c.ncalls = 0;
	c.on_start = what;
	if (what == 2) {
		/* the instance is gone after the callback: no dispatch after */
		v1_fingers(NULL, &p, &xs.devices[0], 2, 10);
		for (int k = 0; k < 100 && c.on_start; k++) {
			struct pollfd pfd = { .fd = c.fd, .events = POLLIN };
			if (poll(&pfd, 1, 20) > 0)
				geis_event_dispatch(c.inst);
		}
	} else {
		v1_fingers(&c, &p, &xs.devices[0], 2, 10);
		v1_pump(&c, 100, 1000);
	}
	v1_calls_dump(what == 1 ? "unsubscribed at the start" : "finished at the start", &c);
	XH_CHECK(c.on_start == 0 && c.on_start_st == GEIS_STATUS_SUCCESS,
		 "no start, or the call in it failed (%d)", c.on_start_st);
	XH_CHECK(c.ncalls >= 1 && c.calls[0].kind == 'S', "no start");
	int finishes = v1_count(&c, 'F', GEIS_GESTURE_PRIMITIVE_DRAG);
#ifdef GEIS_ORACLE_BUILD
	/* the original: after an unsubscribe the updates already queued
	 * (0..10 of them, as the events were read), never the finish */
	XH_CHECK(finishes == 0 && (what == 1 || c.ncalls == 1),
		 "%d calls, %d finishes", c.ncalls, finishes);
#else
	XH_CHECK(c.ncalls == 1 && finishes == 0, "%d calls after the start", c.ncalls - 1);
#endif
	/* the touches stay hidden from the painter (400 ms) */
	sleep_until(xh_now_ms() + 400);
	painter_pump(&p);
	painter_dump(&p);
	check_painter(&p, 0, 0, 0);
	if (what != 2)
		XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");
	XCloseDisplay(p.dpy);
}

static void
scenario_v1_reentrant(void)
{
	v1_reentrant_run(1);
	v1_reentrant_run(2);
}

/*
 * geis_subscribe() with a device list on the painter's window: the id
 * geis_input_devices() reported gets the drag (the painter nothing), an
 * id no device has is accepted and gets nothing (the painter every touch
 * event).
 */
static void
scenario_v1_devlist(void)
{
	const char *types[] = { GEIS_GESTURE_TYPE_DRAG2, NULL };

	for (int unknown = 0; unknown < 2; unknown++) {
		struct painter p;
		struct v1_client c;

		painter_open(&p);
		if (!v1_open(&c, p.win)) {
			XH_CHECK(0, "geis_init %d, fd %d", c.init_st, c.fd_st);
			return;
		}
		geis_input_devices(c.inst, &v1_input_funcs, &c);
		XH_CHECK(c.dev_added == 1, "%d devices", c.dev_added);
		GeisInputDeviceId devs[] = { unknown ? 4242 : c.dev_id, 0 };
		GeisStatus st = geis_subscribe(c.inst, devs, types, &v1_funcs, &c);
		XH_CHECK(st == GEIS_STATUS_SUCCESS, "subscribe on device %u: %d",
			 (unsigned)devs[0], st);
		v1_pump(&c, 100, 1000);
		c.ncalls = 0;   /* utouch's 'added' */
		v1_fingers(&c, &p, &xs.devices[0], 2, 10);
		double start = xh_now_ms();
		do {
			v1_pump(&c, 20, 50);
			painter_pump(&p);
		} while (unknown && p.ends < 2 && xh_now_ms() - start < 3000);
		v1_pump(&c, 100, 1000);
		painter_pump(&p);
		v1_calls_dump(unknown ? "unknown device" : "the device", &c);
		painter_dump(&p);
		if (unknown) {
			XH_CHECK(c.ncalls == 0, "%d callbacks", c.ncalls);
			check_painter(&p, 2, 20, 2);
		} else {
			v1_check_gesture(&c, GEIS_GESTURE_PRIMITIVE_DRAG, "Drag", 2, 8, p.win);
			check_painter(&p, 0, 0, 0);
		}
		XH_CHECK(geis_finish(c.inst) == GEIS_STATUS_SUCCESS, "geis_finish");
		XCloseDisplay(p.dpy);
	}
}

int
main(int argc, char **argv)
{
	static const struct xh_scenario scenarios[] = {
		{ "startup", scenario_startup, 1 },
		{ "startup-sync", scenario_startup_sync, 1 },
		{ "server-time", scenario_server_time, 1 },
		{ "undecided", scenario_undecided, 1 },
		{ "deltas", scenario_deltas, 1 },
		{ "cf-composition", scenario_cf_composition, 1 },
		{ "cf-timeout", scenario_cf_timeout, 1 },
		{ "cf-glue", scenario_cf_glue, 1 },
		{ "cf-late-dispatch", scenario_cf_late_dispatch, 1 },
		{ "extra-touches", scenario_extra_touches, 1 },
		{ "extra-touches-1", scenario_extra_touches_1, 1 },
		{ "reject", scenario_reject, 1 },
		{ "accept", scenario_accept, 1 },
		{ "dup-sub", scenario_dup_sub, 1 },
		{ "deactivate", scenario_deactivate, 1 },
		{ "nested", scenario_nested, 1 },
		{ "late-client", scenario_late_client, 1 },
		{ "max-events", scenario_max_events, 1 },
		{ "killed", scenario_killed, 1 },
		{ "extra-accept", scenario_extra_accept, 1 },
		{ "deleted", scenario_deleted, 1 },
		{ "extra-reject", scenario_extra_reject, 1 },
		{ "cont-extra", scenario_cont_extra, 1 },
		{ "atomic-late", scenario_atomic_late, 1 },
		{ "deactivate-accepted", scenario_deactivate_accepted, 1 },
		{ "same-window", scenario_same_window, 1 },
		{ "atomic-extra", scenario_atomic_extra, 1 },
		{ "atomic-extra-1", scenario_atomic_extra_1, 1 },
		{ "attrs", scenario_attrs, 1 },
		{ "flick", scenario_flick, 1 },
		{ "v1-gestures", scenario_v1_gestures, 1 },
		{ "v1-all", scenario_v1_all, 1 },
		{ "v1-devices", scenario_v1_devices, 1 },
		{ "v1-bad-args", scenario_v1_bad_args, 1 },
		{ "v1-extra", scenario_v1_extra, 1 },
		{ "v1-idle", scenario_v1_idle, 1 },
		{ "v1-reentrant", scenario_v1_reentrant, 1 },
		{ "v1-devlist", scenario_v1_devlist, 1 },
	};

	return xh_run_scenario(&xs, argc, argv, scenarios, sizeof(scenarios) / sizeof(scenarios[0]),
			       NULL);
}
