/*
 * libFuzzer target for libutouch-geis.
 *
 * The input is a program of application operations on geis instances that
 * play bundled recordings in virtual time (UTOUCH_GEIS_INIT_RECORDING +
 * UTOUCH_GEIS_INIT_RECORDING_FAST): instances created with random init
 * arguments, deleted in the middle and created again; subscriptions with
 * random flags; filters with random class, device, region and special
 * terms (valid and invalid), cloned, removed and deleted; rectangle and
 * window regions; subscriptions activated, deactivated, reconfigured and
 * deleted at any point; instance configuration; dispatching and taking
 * events one at a time or in loops, through the queue or an event
 * callback; gestures accepted and rejected by ids that were seen, ids
 * that may not exist yet, 0 and huge ids; events the application keeps
 * for a while (also past geis_delete).  An event callback may act in the
 * middle of playback: decide on the gesture of its event, change the
 * configuration, activate or deactivate subscriptions.  Now and then a v1
 * session (geis_init / geis_subscribe / geis_event_dispatch /
 * geis_finish) runs.
 *
 * After every operation the target checks what doc/geis.md and the
 * headers promise:
 *
 * - every status is one of the defined GeisStatus values, and the ones the
 *   documentation fixes (unknown items, negative values, bogus ids, bad
 *   facilities and operations) are the documented ones;
 * - every gesture event carries a group set with at least one group and
 *   one frame whose id is the event's gesture, 1..5 "touches", and as many
 *   frame touch ids and touch set entries as "touches";
 * - a failed activation leaves the subscription as it was or inactive;
 * - per instance and gesture id: GESTURE_BEGIN at most once and first;
 *   UPDATE and END only after BEGIN, nothing after END, except a pure tap
 *   that is reported as exactly one UPDATE (no BEGIN, no END; doc "Slices
 *   → events"); no event of a gesture after a successful reject;
 * - once the recording has played and every event was taken, every
 *   gesture that began has ended or was rejected (fast mode advances time
 *   until every gesture ends; "The recording backend"), and the same after
 *   every subscription was deactivated;
 * - once playback finished and the queue is empty, geis_dispatch_events()
 *   settles to GEIS_STATUS_SUCCESS (geis 2.2 never returned EMPTY from a
 *   dispatch), geis_next_event() keeps returning EMPTY and the
 *   configuration fd is not readable.
 *
 * Sanitizers (ASan, LSan, UBSan) catch the rest.
 */
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <geis/geis.h>
#include <utouch/geis.h>

#ifndef FUZZ_SRCDIR
#error "FUZZ_SRCDIR must name the source directory"
#endif

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NSUBS 4
#define NREGIONS 4
#define NFILTERS 4
#define MAX_HELD 8
#define MAX_GESTURES 4096
#define MAX_OPS 200
#define MAX_INSTANCES 4
#define MAX_V1 2

#define FUZZ_NAME "fuzz-geis"
#define FUZZ_TRACE_ENV "FUZZ_GEIS_TRACE"
#include "fuzz-common.h"

/* ------------------------------------------------------------------ */
/* model                                                               */

static const char *const recordings[] = {
	"touchscreen/drag-2.evemu",
	"touchscreen/pinch-2.evemu",
	"touchscreen/rotate-2.evemu",
	"touchscreen/tap-2.evemu",
	"touchscreen/tap-1.evemu",
	"touchpad/drag-2.evemu",
	"touchpad/tap-2.evemu",
	"touchscreen/drag-4.evemu",
	"touchscreen/hold-then-drag.evemu",
	"touchscreen/drag-2-to-1.evemu",
	"touchscreen/staggered-3.evemu",
	"touchscreen/3-drag-ended-by-4th-touch.evemu",
	"touchscreen-a/tap-1.evemu",
	"touchpad/tap-3.evemu",
	"libinput/touchscreen-drag-2.yml",
	"touchscreen/drag-1.evemu",
};
#define NRECORDINGS (sizeof(recordings) / sizeof(recordings[0]))

enum gstate {
	G_NONE,
	G_OPEN,      /* BEGIN received */
	G_ENDED,     /* END received */
	G_TAP,       /* the single UPDATE of a pure tap */
	G_REJECTED,  /* rejected by the application */
};

struct gesture {
	GeisGestureId id;
	enum gstate state;
};

struct sub_model {
	GeisSubscription sub;
	bool active;
	unsigned int nfilters;   /* filters added (names f0, f1, ...) */
};

struct state {
	struct reader in;
	Geis geis;
	unsigned int instances;
	bool callback;           /* events go to an event callback */
	bool in_callback;
	bool tentative;
	struct sub_model subs[NSUBS];
	GeisRegion regions[NREGIONS];
	GeisInteger region_win[NREGIONS];
	GeisFilter loose[NFILTERS];   /* filters no subscription owns */
	struct gesture g[MAX_GESTURES];
	unsigned int ng;
	GeisEvent held[MAX_HELD];
	unsigned int held_gen[MAX_HELD];   /* instance the event came from */
	unsigned int nheld;
	bool hold_next;
	unsigned int v1_sessions;
};

static struct gesture *
gfind(struct state *st, GeisGestureId id, bool create)
{
	for (unsigned int i = 0; i < st->ng; i++)
		if (st->g[i].id == id)
			return &st->g[i];
	if (!create)
		return NULL;
	if (st->ng == MAX_GESTURES)
		fail("more than %d gestures in one instance", MAX_GESTURES);
	struct gesture *g = &st->g[st->ng++];
	g->id = id;
	g->state = G_NONE;
	return g;
}

static bool
status_defined(GeisStatus s)
{
	switch (s) {
	case GEIS_STATUS_SUCCESS:
	case GEIS_STATUS_CONTINUE:
	case GEIS_STATUS_EMPTY:
	case GEIS_STATUS_NOT_SUPPORTED:
	case GEIS_STATUS_BAD_ARGUMENT:
	case GEIS_STATUS_UNKNOWN_ERROR:
		return true;
	default:
		return false;
	}
}

static bool
v1_status_defined(GeisStatus s)
{
	return status_defined(s) || s == GEIS_BAD_ARGUMENT || s == GEIS_UNKNOWN_ERROR;
}

static GeisStatus
checked(GeisStatus s, const char *what)
{
	CHECK(status_defined(s), "%s: undefined status %d", what, (int)s);
	return s;
}

/* every status a call returns must be a defined one */
#define STATUS(expr) checked((expr), #expr)

/* ----------------------------- events ----------------------------- */

static bool
is_gesture_event(GeisEventType t)
{
	return t == GEIS_EVENT_GESTURE_BEGIN || t == GEIS_EVENT_GESTURE_UPDATE ||
	       t == GEIS_EVENT_GESTURE_END || t == GEIS_EVENT_TENTATIVE_BEGIN ||
	       t == GEIS_EVENT_TENTATIVE_UPDATE || t == GEIS_EVENT_TENTATIVE_END;
}

static void decide(struct state *st, GeisGestureId id, bool accept, GeisGroup group);
static void op_set_config(struct state *st, uint8_t b);
static void op_activate(struct state *st, uint8_t b);
static void op_deactivate(struct state *st, uint8_t b);
static void op_sub_config(struct state *st, uint8_t b);

static void
read_attrs_of_frame(GeisFrame f)
{
	GeisSize n = geis_frame_attr_count(f);
	for (GeisSize i = 0; i < n; i++) {
		GeisAttr a = geis_frame_attr(f, i);
		CHECK(a && geis_attr_name(a), "frame attribute %zu missing", (size_t)i);
		switch (geis_attr_type(a)) {
		case GEIS_ATTR_TYPE_FLOAT:
			(void)geis_attr_value_to_float(a);
			break;
		case GEIS_ATTR_TYPE_INTEGER:
			(void)geis_attr_value_to_integer(a);
			break;
		case GEIS_ATTR_TYPE_BOOLEAN:
			(void)geis_attr_value_to_boolean(a);
			break;
		case GEIS_ATTR_TYPE_STRING:
			CHECK(geis_attr_value_to_string(a), "string attribute without value");
			break;
		default:
			break;
		}
	}
	CHECK(geis_frame_attr(f, n) == NULL, "frame attribute past the end");
	GeisFloat *m = geis_frame_matrix(f);
	CHECK(m, "frame without matrix");
	volatile float sink = m[0] + m[8];
	(void)sink;
}

/* Structural checks of a gesture event; returns the gesture id. */
static GeisGestureId
check_gesture_event(GeisEvent ev, GeisGroup *group_out)
{
	GeisAttr gsa = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET);
	CHECK(gsa, "gesture event without group set");
	GeisGroupSet gs = geis_attr_value_to_pointer(gsa);
	CHECK(gs, "gesture event with NULL group set");
	GeisSize ngroups = geis_groupset_group_count(gs);
	CHECK(ngroups >= 1, "gesture event with %zu groups", (size_t)ngroups);
	GeisGroup grp = geis_groupset_group(gs, 0);
	CHECK(grp, "group 0 missing");
	CHECK(geis_groupset_group(gs, ngroups) == NULL, "group past the end");
	GeisSize nframes = geis_group_frame_count(grp);
	CHECK(nframes >= 1, "group with %zu frames", (size_t)nframes);
	GeisFrame f = geis_group_frame(grp, 0);
	CHECK(f, "frame 0 missing");
	CHECK(geis_group_frame(grp, nframes) == NULL, "frame past the end");
	GeisGestureId id = geis_frame_id(f);
	CHECK(id != GEIS_NO_GESTURE_ID, "gesture id 0");
	CHECK((GeisGestureId)geis_group_id(grp) == id, "group id %d, frame id %u",
	      (int)geis_group_id(grp), id);
	GeisAttr ta = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_TOUCHES);
	CHECK(ta && geis_attr_type(ta) == GEIS_ATTR_TYPE_INTEGER, "gesture %u: no touches",
	      id);
	GeisInteger touches = geis_attr_value_to_integer(ta);
	CHECK(touches >= 1 && touches <= 5, "gesture %u: %d touches", id, (int)touches);
	CHECK(geis_frame_touchid_count(f) == (GeisSize)touches,
	      "gesture %u: %zu frame touch ids, %d touches", id,
	      (size_t)geis_frame_touchid_count(f), (int)touches);
	GeisAttr tsa = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_TOUCHSET);
	CHECK(tsa, "gesture %u: no touch set", id);
	GeisTouchSet ts = geis_attr_value_to_pointer(tsa);
	CHECK(ts && geis_touchset_touch_count(ts) == (GeisSize)touches,
	      "gesture %u: touch set of %zu, %d touches", id,
	      ts ? (size_t)geis_touchset_touch_count(ts) : (size_t)0, (int)touches);
	for (GeisSize i = 0; i < (GeisSize)touches; i++) {
		GeisTouchId tid = geis_frame_touchid(f, i);
		GeisTouch t = geis_touchset_touch_by_id(ts, tid);
		CHECK(t && geis_touch_id(t) == tid, "gesture %u: touch %zu not in the touch set",
		      id, (size_t)tid);
		(void)geis_touch_attr_by_name(t, GEIS_TOUCH_ATTRIBUTE_X);
	}
	read_attrs_of_frame(f);
	(void)geis_frame_is_class(f, NULL);
	if (group_out)
		*group_out = grp;
	return id;
}

static bool
frame_is_pure_tap(GeisEvent ev)
{
	GeisAttr gsa = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET);
	GeisGroupSet gs = geis_attr_value_to_pointer(gsa);
	GeisFrame f = geis_group_frame(geis_groupset_group(gs, 0), 0);
	GeisAttr n = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);
	return n && geis_attr_value_to_string(n) &&
	       strcmp(geis_attr_value_to_string(n), GEIS_GESTURE_TAP) == 0;
}

static void
check_event(struct state *st, GeisEvent ev)
{
	CHECK(ev, "NULL event");
	GeisEventType type = geis_event_type(ev);
	GeisSize na = geis_event_attr_count(ev);
	for (GeisSize i = 0; i < na; i++)
		CHECK(geis_event_attr(ev, i), "event attribute %zu missing", (size_t)i);
	switch (type) {
	case GEIS_EVENT_DEVICE_AVAILABLE:
	case GEIS_EVENT_DEVICE_UNAVAILABLE: {
		GeisAttr a = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_DEVICE);
		CHECK(a, "device event without device");
		GeisDevice d = geis_attr_value_to_pointer(a);
		CHECK(d, "device event with NULL device");
		(void)geis_device_name(d);
		(void)geis_device_id(d);
		for (GeisSize i = 0; i < geis_device_attr_count(d); i++)
			CHECK(geis_device_attr(d, i), "device attribute missing");
		return;
	}
	case GEIS_EVENT_CLASS_AVAILABLE:
	case GEIS_EVENT_CLASS_CHANGED:
	case GEIS_EVENT_CLASS_UNAVAILABLE: {
		GeisAttr a = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_CLASS);
		CHECK(a, "class event without class");
		GeisGestureClass c = geis_attr_value_to_pointer(a);
		CHECK(c && geis_gesture_class_name(c), "class event with bad class");
		(void)geis_gesture_class_id(c);
		return;
	}
	case GEIS_EVENT_INIT_COMPLETE:
	case GEIS_EVENT_ERROR:
	case GEIS_EVENT_USER_DEFINED:
		return;
	default:
		break;
	}
	CHECK(is_gesture_event(type), "unknown event type %d", (int)type);
	GeisGroup grp = NULL;
	GeisGestureId id = check_gesture_event(ev, &grp);
	if (tracing()) {
		GeisFrame f = geis_group_frame(grp, 0);
		GeisAttr ts = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_TIMESTAMP);
		GeisAttr nm = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);
		GeisAttr tc = geis_frame_attr_by_name(f, GEIS_GESTURE_ATTRIBUTE_TOUCHES);
		trace("  event %d gesture %u t=%d %s touches=%d", (int)type, id,
		      ts ? (int)geis_attr_value_to_integer(ts) : -1,
		      nm ? geis_attr_value_to_string(nm) : "?",
		      tc ? (int)geis_attr_value_to_integer(tc) : -1);
	}
	if (type == GEIS_EVENT_TENTATIVE_BEGIN || type == GEIS_EVENT_TENTATIVE_UPDATE ||
	    type == GEIS_EVENT_TENTATIVE_END)
		return;
	struct gesture *g = gfind(st, id, true);
	CHECK(g->state != G_REJECTED, "gesture %u: event %d after a successful reject", id,
	      (int)type);
	CHECK(g->state != G_ENDED, "gesture %u: event %d after its END", id, (int)type);
	CHECK(g->state != G_TAP, "gesture %u: event %d after the single tap UPDATE", id,
	      (int)type);
	switch (type) {
	case GEIS_EVENT_GESTURE_BEGIN:
		CHECK(g->state == G_NONE, "gesture %u: second BEGIN", id);
		g->state = G_OPEN;
		break;
	case GEIS_EVENT_GESTURE_UPDATE:
		if (g->state == G_NONE) {
			/* doc/geis.md "Slices → events": a pure tap is one UPDATE */
			CHECK(frame_is_pure_tap(ev), "gesture %u: UPDATE without BEGIN", id);
			g->state = G_TAP;
		}
		break;
	case GEIS_EVENT_GESTURE_END:
		CHECK(g->state == G_OPEN, "gesture %u: END without BEGIN", id);
		g->state = G_ENDED;
		break;
	default:
		break;
	}
	(void)grp;
}

static void
keep_or_delete(struct state *st, GeisEvent ev)
{
	if (st->hold_next && st->nheld < MAX_HELD) {
		st->held_gen[st->nheld] = st->instances;
		st->held[st->nheld++] = ev;
		st->hold_next = false;
		return;
	}
	geis_event_delete(ev);
}

static void
take_event(struct state *st, GeisEvent ev)
{
	check_event(st, ev);
	keep_or_delete(st, ev);
}

static void
release_held(struct state *st)
{
	for (unsigned int i = 0; i < st->nheld; i++)
		geis_event_delete(st->held[i]);
	st->nheld = 0;
}

static void
event_callback(Geis geis, GeisEvent ev, void *context)
{
	struct state *st = context;
	CHECK(geis == st->geis, "callback for another instance");
	CHECK(!st->in_callback, "nested event callback");
	st->in_callback = true;
	check_event(st, ev);
	/* act right away, driven by the input: decide on the gesture, or
	 * change configuration and subscriptions in the middle of playback
	 * (bytes 0xc0..0xff; others are left for the program) */
	if (more(&st->in) && st->in.p[st->in.i] >= 0xc0) {
		uint8_t b = u8(&st->in);
		trace("  callback action %#x on event %d", b, (int)geis_event_type(ev));
		if (b >= 0xe0) {
			if (is_gesture_event(geis_event_type(ev))) {
				GeisGroup grp = NULL;
				GeisGestureId id = check_gesture_event(ev, &grp);
				decide(st, id, b & 1, (b & 2) ? grp : NULL);
			}
		} else {
			uint8_t a = u8(&st->in);
			switch ((b >> 3) & 3) {
			case 0:
				op_set_config(st, a);
				break;
			case 1:
				op_deactivate(st, a);
				break;
			case 2:
				op_activate(st, a);
				break;
			default:
				op_sub_config(st, a);
				break;
			}
		}
	}
	st->in_callback = false;
	keep_or_delete(st, ev);
}

/* Take events until the queue is empty (bounded). */
static GeisStatus
drain_queue(struct state *st, unsigned int max)
{
	GeisStatus rc = GEIS_STATUS_EMPTY;
	for (unsigned int i = 0; i < max; i++) {
		GeisEvent ev = NULL;
		rc = STATUS(geis_next_event(st->geis, &ev));
		if (rc == GEIS_STATUS_EMPTY) {
			CHECK(ev == NULL, "next_event EMPTY with an event");
			return rc;
		}
		CHECK(rc == GEIS_STATUS_SUCCESS || rc == GEIS_STATUS_CONTINUE,
		      "geis_next_event: status %d", (int)rc);
		take_event(st, ev);
	}
	return rc;
}

static GeisStatus
dispatch(struct state *st)
{
	GeisStatus rc = STATUS(geis_dispatch_events(st->geis));
	CHECK(rc == GEIS_STATUS_SUCCESS || rc == GEIS_STATUS_CONTINUE,
	      "geis_dispatch_events: status %d", (int)rc);
	return rc;
}

static bool
fd_readable(struct state *st)
{
	int fd = -1;
	CHECK(STATUS(geis_get_configuration(st->geis, GEIS_CONFIGURATION_FD, &fd)) ==
			      GEIS_STATUS_SUCCESS &&
		      fd >= 0,
	      "configuration fd");
	struct pollfd p = {.fd = fd, .events = POLLIN};
	return poll(&p, 1, 0) > 0;
}

/*
 * Play the recording to its end and take every event; then dispatching
 * must settle (utouch_geis_playback_finished, doc "The recording backend":
 * the fd stops being readable, dispatch returns SUCCESS with nothing new).
 * A fast dispatch plays at least one frame and stops once FAST_BATCH
 * events wait, so a recording of N frames ends within N dispatches
 * however many events each frame makes; the bundled ones have a few
 * hundred frames.
 */
#define MAX_PLAY_ROUNDS 4096u
#define SETTLE_ROUNDS 3u

static void
settle(struct state *st)
{
	unsigned int round = 0, after = 0;

	for (;;) {
		GeisStatus d = dispatch(st);
		GeisStatus q = drain_queue(st, 100000);
		CHECK(q == GEIS_STATUS_EMPTY, "queue does not empty");
		if (!utouch_geis_playback_finished(st->geis)) {
			CHECK(++round < MAX_PLAY_ROUNDS, "playback does not finish in %u dispatches",
			      MAX_PLAY_ROUNDS);
			continue;
		}
		/* the dispatch that ends the playback may return CONTINUE;
		 * the ones after it must find nothing new */
		if (after++ > 0 && d == GEIS_STATUS_SUCCESS)
			break;
		CHECK(after < SETTLE_ROUNDS, "dispatch never settles after playback finished");
	}
	GeisEvent ev = NULL;
	CHECK(STATUS(geis_next_event(st->geis, &ev)) == GEIS_STATUS_EMPTY && !ev,
	      "next_event not EMPTY after the last dispatch");
	CHECK(!fd_readable(st), "fd readable after playback finished and drained");
	CHECK(dispatch(st) == GEIS_STATUS_SUCCESS,
	      "dispatch not SUCCESS again after playback finished");
	CHECK(STATUS(geis_next_event(st->geis, &ev)) == GEIS_STATUS_EMPTY && !ev,
	      "next_event not EMPTY after a second idle dispatch");
}

static void
check_all_ended(struct state *st, const char *when)
{
	for (unsigned int i = 0; i < st->ng; i++)
		CHECK(st->g[i].state != G_OPEN, "gesture %u has no END %s", st->g[i].id, when);
}

/* ----------------------------- decisions --------------------------- */

static void
decide(struct state *st, GeisGestureId id, bool accept, GeisGroup group)
{
	struct gesture *g = gfind(st, id, false);
	GeisStatus rc = accept ? STATUS(geis_gesture_accept(st->geis, group, id))
			       : STATUS(geis_gesture_reject(st->geis, group, id));
	trace("  %s %u -> %d", accept ? "accept" : "reject", id, (int)rc);
	CHECK(rc == GEIS_STATUS_SUCCESS || rc == GEIS_STATUS_BAD_ARGUMENT,
	      "decision on %u: status %d", id, (int)rc);
	if (id == GEIS_NO_GESTURE_ID || id >= 0x40000000u)
		CHECK(rc == GEIS_STATUS_BAD_ARGUMENT, "decision on bogus id %u: status %d", id,
		      (int)rc);
	if (!accept && rc == GEIS_STATUS_SUCCESS) {
		if (!g)
			g = gfind(st, id, true);
		g->state = G_REJECTED;
	}
}

static void
op_decide(struct state *st, uint8_t b)
{
	bool accept = b & 1;
	GeisGestureId id;
	switch ((b >> 1) & 3) {
	case 0:
	case 1:
		if (st->ng == 0)
			return;
		id = st->g[u8(&st->in) % st->ng].id;
		break;
	case 2:
		id = (st->ng ? st->g[st->ng - 1].id : 0) + (u8(&st->in) & 7);
		break;
	default: {
		uint8_t k = u8(&st->in);
		id = (k & 1) ? 0 : (u32(&st->in) | 0x40000000u);
		break;
	}
	}
	decide(st, id, accept, NULL);
}

/* ---------------------------- instance ---------------------------- */

static void
recording_path(char *buf, size_t n, uint8_t b)
{
	snprintf(buf, n, "%s/data/recordings/%s", FUZZ_SRCDIR, recordings[b % NRECORDINGS]);
}

static void
instance_delete(struct state *st)
{
	if (!st->geis)
		return;
	for (int i = 0; i < NSUBS; i++)
		memset(&st->subs[i], 0, sizeof(st->subs[i]));
	for (int i = 0; i < NREGIONS; i++)
		st->regions[i] = NULL;
	for (int i = 0; i < NFILTERS; i++)
		st->loose[i] = NULL;
	CHECK(STATUS(geis_delete(st->geis)) == GEIS_STATUS_SUCCESS, "geis_delete");
	st->geis = NULL;
	st->ng = 0;
}

static void
instance_new(struct state *st, uint8_t rec, uint8_t flags)
{
	char path[1024];
	const char *args[8];
	unsigned int n = 0;
	recording_path(path, sizeof(path), rec);
	if (flags & 0x01)
		args[n++] = GEIS_INIT_TRACK_DEVICES;
	if (flags & 0x02)
		args[n++] = GEIS_INIT_TRACK_GESTURE_CLASSES;
	if (flags & 0x04)
		args[n++] = GEIS_INIT_SYNCHRONOUS_START;
	if (flags & 0x08)
		args[n++] = GEIS_INIT_NO_ATOMIC_GESTURES;
	if (flags & 0x10)
		args[n++] = GEIS_INIT_SEND_TENTATIVE_EVENTS;
	if (flags & 0x20)
		args[n++] = GEIS_INIT_SEND_SYNCHRONOS_EVENTS;
	if (rec & 0x80)
		args[n++] = "org.utouch.fuzz.unknown";
	while (n < 8)
		args[n++] = NULL;
	st->geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, path, UTOUCH_GEIS_INIT_RECORDING_FAST,
			    args[0], args[1], args[2], args[3], args[4], args[5], args[6],
			    NULL);
	trace("new instance (%s, flags %#x) -> %p", path, flags, (void *)st->geis);
	CHECK(st->geis, "geis_new failed for %s", path);
	st->instances++;
	st->tentative = (flags & 0x10) != 0;
	st->callback = (flags & 0x40) != 0;
	st->ng = 0;
	if (st->callback)
		geis_register_event_callback(st->geis, event_callback, st);
	if (flags & 0x80) {
		geis_register_device_callback(st->geis, event_callback, st);
		geis_register_class_callback(st->geis, event_callback, st);
	}
}

/* -------------------------- subscriptions ------------------------- */

static void
op_sub_new(struct state *st, uint8_t b)
{
	struct sub_model *m = &st->subs[b % NSUBS];
	if (m->sub) {
		CHECK(STATUS(geis_subscription_delete(m->sub)) == GEIS_STATUS_SUCCESS,
		      "subscription_delete");
		memset(m, 0, sizeof(*m));
	}
	char name[16];
	snprintf(name, sizeof(name), "s%u", (unsigned)(b % NSUBS));
	m->sub = geis_subscription_new(st->geis, name, (b >> 2) & 3);
	CHECK(m->sub, "subscription_new");
	CHECK(geis_subscription_name(m->sub) && strcmp(geis_subscription_name(m->sub), name) == 0,
	      "subscription name");
}

static const char *const class_names[] = {
	GEIS_GESTURE_DRAG, GEIS_GESTURE_PINCH, GEIS_GESTURE_ROTATE, GEIS_GESTURE_TAP,
	GEIS_GESTURE_TOUCH, GEIS_GESTURE_FLICK, "", "bogus",
};

static GeisInteger
window_value(struct state *st, uint8_t b)
{
	switch (b & 3) {
	case 0:
		return 1;
	case 1: {
		GeisRegion r = st->regions[(b >> 2) % NREGIONS];
		return r ? utouch_geis_region_window_id(r) : 1;
	}
	case 2:
		return 0x10000 + ((b >> 2) & 7);
	default:
		return (GeisInteger)(b >> 2) - 8;
	}
}

/* Add one random term; returns the status. */
static GeisStatus
add_random_term(struct state *st, GeisFilter f)
{
	uint8_t kind = u8(&st->in);
	uint8_t opb = u8(&st->in);
	uint8_t val = u8(&st->in);
	int op = (opb & 0x80) ? (int)(opb & 0x7f) - 2 : (int)(opb % 6);
	bool op_valid = op >= GEIS_FILTER_OP_EQ && op <= GEIS_FILTER_OP_LE;
	bool eq_ne = op == GEIS_FILTER_OP_EQ || op == GEIS_FILTER_OP_NE;
	GeisStatus rc;
	bool valid;

	switch (kind % 14) {
	case 0:
	case 1:
		rc = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME, op,
					  class_names[val % 8], NULL);
		valid = op_valid && eq_ne;
		break;
	case 2:
	case 3:
		rc = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES, op,
					  (int)(val % 7), NULL);
		valid = op_valid;
		break;
	case 4:
		rc = geis_filter_add_term(f, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_ID, op,
					  (int)((val & 0x80) ? val : val % 40), NULL);
		valid = op_valid;
		break;
	case 5:
		rc = geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_ID, op,
					  (int)(val % 4), NULL);
		valid = op_valid;
		break;
	case 6:
		rc = geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_NAME, op,
					  (val & 1) ? "bogus device" : "", NULL);
		valid = op_valid && eq_ne;
		break;
	case 7:
		rc = geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH,
					  op, (int)(val & 1), NULL);
		valid = op_valid && eq_ne;
		break;
	case 8:
		rc = geis_filter_add_term(f, GEIS_FILTER_DEVICE, GEIS_DEVICE_ATTRIBUTE_MAX_X, op,
					  (double)val * 100.0, NULL);
		valid = op_valid;
		break;
	case 9:
	case 10:
		rc = geis_filter_add_term(f, GEIS_FILTER_REGION, GEIS_REGION_ATTRIBUTE_WINDOWID, op,
					  (int)window_value(st, val), NULL);
		valid = op_valid;
		break;
	case 11:
		rc = geis_filter_add_term(f, GEIS_FILTER_SPECIAL,
					  (val & 1) ? GEIS_GESTURE_TYPE_SYSTEM
						    : UTOUCH_GEIS_SPECIAL_GRAB,
					  op, (int)((val >> 1) & 1), NULL);
		valid = op_valid && eq_ne;
		break;
	case 12:
		/* an attribute the facility does not know */
		rc = geis_filter_add_term(f, (val & 1) ? GEIS_FILTER_SPECIAL : GEIS_FILTER_REGION,
					  GEIS_CLASS_ATTRIBUTE_NAME, op, "Drag", NULL);
		valid = false;
		break;
	default:
		/* an unknown facility */
		rc = geis_filter_add_term(f, (GeisFilterFacility)(val * 7 + 1),
					  GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, "Drag",
					  NULL);
		valid = false;
		break;
	}
	STATUS(rc);
	CHECK(rc == (valid ? GEIS_STATUS_SUCCESS : GEIS_STATUS_BAD_ARGUMENT),
	      "add_term kind %u op %d: status %d, expected %s", (unsigned)(kind % 14), op,
	      (int)rc, valid ? "success" : "bad argument");
	return rc;
}

static GeisFilter
random_filter(struct state *st, const char *name)
{
	GeisFilter f = geis_filter_new(st->geis, name);
	CHECK(f, "filter_new");
	unsigned int nterms = u8(&st->in) % 4;
	for (unsigned int i = 0; i < nterms; i++)
		add_random_term(st, f);
	return f;
}

static void
op_filter(struct state *st, uint8_t b)
{
	struct sub_model *m = &st->subs[b % NSUBS];
	char name[16];
	switch ((b >> 2) & 7) {
	case 0:
	case 1:
	case 2: {
		/* a new filter for a subscription */
		if (!m->sub)
			return;
		snprintf(name, sizeof(name), "f%u", m->nfilters % 4);
		GeisFilter f = random_filter(st, name);
		CHECK(STATUS(geis_subscription_add_filter(m->sub, f)) == GEIS_STATUS_SUCCESS,
		      "add_filter");
		m->nfilters++;
		CHECK(STATUS(geis_subscription_add_filter(m->sub, f)) == GEIS_STATUS_BAD_ARGUMENT,
		      "adding a filter twice");
		break;
	}
	case 3: {
		/* clone a subscription's filter into a loose one, or into the
		 * subscription */
		if (!m->sub)
			return;
		snprintf(name, sizeof(name), "f%u", u8(&st->in) % 4);
		GeisFilter f = geis_subscription_filter_by_name(m->sub, name);
		if (!f)
			return;
		GeisFilter c = geis_filter_clone(f, (b & 0x80) ? name : "clone");
		CHECK(c, "filter_clone");
		CHECK(geis_filter_name(c) != NULL, "clone without name");
		if (b & 0x40) {
			CHECK(STATUS(geis_subscription_add_filter(m->sub, c)) ==
				      GEIS_STATUS_SUCCESS,
			      "add cloned filter");
		} else {
			unsigned int k = u8(&st->in) % NFILTERS;
			if (st->loose[k])
				CHECK(STATUS(geis_filter_delete(st->loose[k])) ==
					      GEIS_STATUS_SUCCESS,
				      "delete loose filter");
			st->loose[k] = c;
		}
		break;
	}
	case 4: {
		/* take a filter back, then delete it or keep it loose */
		if (!m->sub)
			return;
		snprintf(name, sizeof(name), "f%u", u8(&st->in) % 4);
		GeisFilter f = geis_subscription_filter_by_name(m->sub, name);
		if (!f)
			return;
		CHECK(STATUS(geis_filter_delete(f)) == GEIS_STATUS_BAD_ARGUMENT,
		      "deleting an owned filter");
		CHECK(STATUS(geis_subscription_remove_filter(m->sub, f)) == GEIS_STATUS_SUCCESS,
		      "remove_filter");
		CHECK(STATUS(geis_subscription_remove_filter(m->sub, f)) ==
			      GEIS_STATUS_BAD_ARGUMENT,
		      "removing a filter twice");
		unsigned int k = u8(&st->in) % NFILTERS;
		if (b & 0x80) {
			CHECK(STATUS(geis_filter_delete(f)) == GEIS_STATUS_SUCCESS,
			      "delete removed filter");
		} else {
			if (st->loose[k])
				CHECK(STATUS(geis_filter_delete(st->loose[k])) ==
					      GEIS_STATUS_SUCCESS,
				      "delete loose filter");
			st->loose[k] = f;
		}
		break;
	}
	case 5: {
		/* give a loose filter to a subscription */
		unsigned int k = u8(&st->in) % NFILTERS;
		if (!m->sub || !st->loose[k])
			return;
		CHECK(STATUS(geis_subscription_add_filter(m->sub, st->loose[k])) ==
			      GEIS_STATUS_SUCCESS,
		      "add loose filter");
		st->loose[k] = NULL;
		break;
	}
	case 6: {
		/* a loose filter with terms, never given away (freed by geis_delete
		 * or here) */
		unsigned int k = u8(&st->in) % NFILTERS;
		GeisFilter f = random_filter(st, "loose");
		if (st->loose[k])
			CHECK(STATUS(geis_filter_delete(st->loose[k])) == GEIS_STATUS_SUCCESS,
			      "delete loose filter");
		st->loose[k] = f;
		break;
	}
	default:
		/* more terms on an owned filter (they apply at the next
		 * activation) */
		if (!m->sub)
			return;
		snprintf(name, sizeof(name), "f%u", u8(&st->in) % 4);
		GeisFilter f = geis_subscription_filter_by_name(m->sub, name);
		if (f)
			add_random_term(st, f);
		break;
	}
}

static GeisInteger
active_count(struct state *st)
{
	GeisInteger n = -1;
	CHECK(STATUS(geis_get_configuration(st->geis, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS, &n)) ==
		      GEIS_STATUS_SUCCESS,
	      "num active subscriptions");
	return n;
}

static void
op_activate(struct state *st, uint8_t b)
{
	struct sub_model *m = &st->subs[b % NSUBS];
	if (!m->sub)
		return;
	GeisInteger before = active_count(st);
	GeisStatus rc = STATUS(geis_subscription_activate(m->sub));
	trace("  activate s%u -> %d", (unsigned)(b % NSUBS), (int)rc);
	CHECK(rc == GEIS_STATUS_SUCCESS || rc == GEIS_STATUS_BAD_ARGUMENT,
	      "activate: status %d", (int)rc);
	GeisSize nb = 99;
	CHECK(STATUS(geis_subscription_get_configuration(
		      m->sub, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS, &nb)) == GEIS_STATUS_SUCCESS,
	      "num active subscriptions");
	if (rc == GEIS_STATUS_SUCCESS) {
		m->active = true;
		return;
	}
	/* a filter that cannot be satisfied leaves an active subscription
	 * as it was; a binding grail refuses (e.g. an atomicity conflict
	 * with another subscription of the window) deactivates it */
	GeisInteger after = active_count(st);
	if (m->active && after == before - 1)
		m->active = false;
	else
		CHECK(after == before, "failed activation: %d active subscriptions, before %d",
		      (int)after, (int)before);
	if (!m->active)
		CHECK(nb == 0, "failed activation left %zu bindings", (size_t)nb);
}

static void
op_deactivate(struct state *st, uint8_t b)
{
	struct sub_model *m = &st->subs[b % NSUBS];
	if (!m->sub)
		return;
	GeisStatus rc = STATUS(geis_subscription_deactivate(m->sub));
	CHECK(rc == GEIS_STATUS_SUCCESS, "deactivate: status %d", (int)rc);
	m->active = false;
	GeisSize nb = 99;
	CHECK(STATUS(geis_subscription_get_configuration(
		      m->sub, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS, &nb)) == GEIS_STATUS_SUCCESS &&
		      nb == 0,
	      "inactive subscription holds %zu bindings", (size_t)nb);
}

static void
op_sub_delete(struct state *st, uint8_t b)
{
	struct sub_model *m = &st->subs[b % NSUBS];
	if (!m->sub)
		return;
	CHECK(STATUS(geis_subscription_delete(m->sub)) == GEIS_STATUS_SUCCESS,
	      "subscription_delete");
	memset(m, 0, sizeof(*m));
}

static const char *const sub_items[] = {
	GEIS_CONFIG_DRAG_THRESHOLD,  GEIS_CONFIG_DRAG_TIMEOUT,  GEIS_CONFIG_PINCH_THRESHOLD,
	GEIS_CONFIG_PINCH_TIMEOUT,   GEIS_CONFIG_ROTATE_THRESHOLD, GEIS_CONFIG_ROTATE_TIMEOUT,
	GEIS_CONFIG_TAP_THRESHOLD,   GEIS_CONFIG_TAP_TIMEOUT,
};

static const float fvalues[] = {
	0.0f, 0.0001f, 0.0026f, 0.01f, 1.1f, 0.12566f, 100.0f, -1.0f, NAN, INFINITY, 1e30f,
};
static const GeisInteger ivalues[] = {
	0, 1, 60, 300, 500, 5000, 100000, -1, INT32_MIN, INT32_MAX,
};

static void
op_sub_config(struct state *st, uint8_t b)
{
	struct sub_model *m = &st->subs[b % NSUBS];
	if (!m->sub)
		return;
	uint8_t item = u8(&st->in);
	uint8_t v = u8(&st->in);
	if (item >= 0xf0) {
		GeisInteger x = 1;
		CHECK(STATUS(geis_subscription_set_configuration(m->sub, "bogus", &x)) ==
			      GEIS_STATUS_NOT_SUPPORTED,
		      "unknown subscription item");
		CHECK(STATUS(geis_subscription_set_configuration(m->sub, sub_items[0], NULL)) ==
			      GEIS_STATUS_BAD_ARGUMENT,
		      "NULL subscription value");
		return;
	}
	const char *name = sub_items[item % 8];
	bool is_float = (item % 8) % 2 == 0;
	GeisStatus rc;
	bool valid;
	union {
		GeisFloat f;
		GeisInteger i;
	} val, back;
	if (is_float) {
		val.f = fvalues[v % (sizeof(fvalues) / sizeof(fvalues[0]))];
		/* geis's rule, as grail's: finite and not negative */
		valid = isfinite(val.f) && val.f >= 0.0f;
	} else {
		val.i = ivalues[v % (sizeof(ivalues) / sizeof(ivalues[0]))];
		valid = val.i >= 0;
	}
	rc = STATUS(geis_subscription_set_configuration(m->sub, name, &val));
	CHECK(rc == (valid ? GEIS_STATUS_SUCCESS : GEIS_STATUS_BAD_ARGUMENT),
	      "set %s: status %d", name, (int)rc);
	if (!valid)
		return;
	memset(&back, 0, sizeof(back));
	CHECK(STATUS(geis_subscription_get_configuration(m->sub, name, &back)) ==
		      GEIS_STATUS_SUCCESS,
	      "get %s", name);
	CHECK(memcmp(&back, &val, is_float ? sizeof(GeisFloat) : sizeof(GeisInteger)) == 0,
	      "%s reads back differently", name);
}

static void
op_set_config(struct state *st, uint8_t b)
{
	switch (b % 6) {
	case 0: {
		GeisInteger v = (GeisInteger)(u8(&st->in) % 8) - 2;
		/* any value, as geis 2.2.17 took it: read back, limiting nothing */
		GeisStatus rc = STATUS(geis_set_configuration(st->geis, GEIS_CONFIG_MAX_EVENTS, &v));
		CHECK(rc == GEIS_STATUS_SUCCESS, "max events %d: status %d", (int)v, (int)rc);
		GeisInteger back = -5;
		CHECK(STATUS(geis_get_configuration(st->geis, GEIS_CONFIG_MAX_EVENTS, &back)) ==
				      GEIS_STATUS_SUCCESS && back == v,
		      "max events reads back %d after %d", (int)back, (int)v);
		break;
	}
	case 1:
	case 2:
	case 3: {
		static const char *const items[] = {
			GEIS_CONFIG_ATOMIC_GESTURES,
			GEIS_CONFIG_SEND_TENTATIVE_EVENTS,
			GEIS_CONFIG_SEND_SYNCHRONOS_EVENTS,
		};
		const char *item = items[b % 6 - 1];
		GeisBoolean v = (b >> 3) & 1;
		GeisStatus rc = STATUS(geis_set_configuration(st->geis, item, &v));
		CHECK(rc == GEIS_STATUS_SUCCESS, "set %s: status %d", item, (int)rc);
		GeisBoolean back = 7;
		CHECK(STATUS(geis_get_configuration(st->geis, item, &back)) == GEIS_STATUS_SUCCESS &&
			      back == v,
		      "%s reads back %u", item, (unsigned)back);
		if (b % 6 == 2)
			st->tentative = v;
		break;
	}
	case 4: {
		int fd = 3;
		CHECK(STATUS(geis_set_configuration(st->geis, GEIS_CONFIGURATION_FD, &fd)) ==
			      GEIS_STATUS_NOT_SUPPORTED,
		      "setting the read-only fd");
		GeisInteger n = -1;
		CHECK(STATUS(geis_get_configuration(st->geis, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS,
						    &n)) == GEIS_STATUS_SUCCESS,
		      "num active subscriptions");
		GeisInteger expect = 0;
		for (int i = 0; i < NSUBS; i++)
			expect += st->subs[i].active;
		CHECK(n == expect, "%d active subscriptions, expected %d", (int)n, (int)expect);
		break;
	}
	default: {
		GeisInteger v = 0;
		CHECK(STATUS(geis_set_configuration(st->geis, "org.utouch.fuzz.bogus", &v)) ==
			      GEIS_STATUS_NOT_SUPPORTED,
		      "unknown configuration item");
		CHECK(STATUS(geis_set_configuration(st->geis, GEIS_CONFIG_MAX_EVENTS, NULL)) ==
			      GEIS_STATUS_BAD_ARGUMENT,
		      "NULL configuration value");
		break;
	}
	}
}

static void
op_region(struct state *st, uint8_t b)
{
	unsigned int k = b % NREGIONS;
	if (st->regions[k]) {
		CHECK(STATUS(geis_region_delete(st->regions[k])) == GEIS_STATUS_SUCCESS,
		      "region_delete");
		st->regions[k] = NULL;
	}
	if (b & 0x80)
		return;
	GeisRegion r = NULL;
	switch ((b >> 2) & 3) {
	case 0:
	case 1: {
		static const GeisInteger coords[] = {0, 1, 100, 512, 1023, 2000, -50, -1};
		GeisInteger x = coords[u8(&st->in) % 8], y = coords[u8(&st->in) % 8];
		GeisInteger w = coords[u8(&st->in) % 8], h = coords[u8(&st->in) % 8];
		r = geis_region_new(st->geis, "rect", UTOUCH_GEIS_REGION_RECT, x, y, w, h, NULL);
		CHECK((r != NULL) == (w > 0 && h > 0), "rect %dx%d: region %p", (int)w, (int)h,
		      (void *)r);
		break;
	}
	case 2:
		r = geis_region_new(st->geis, "win", GEIS_REGION_X11_WINDOWID,
				    (int)window_value(st, u8(&st->in)), NULL);
		break;
	default:
		r = geis_region_new(st->geis, "root", (b & 0x40) ? GEIS_REGION_X11_ROOT : "bogus",
				    NULL);
		CHECK((r != NULL) == ((b & 0x40) != 0), "root / unknown region");
		break;
	}
	st->regions[k] = r;
}

/* ------------------------------ v1 -------------------------------- */

struct v1_state {
	unsigned int calls;
};

static void
v1_gesture_cb(void *cookie, GeisGestureType type, GeisGestureId id, GeisSize n,
	      GeisGestureAttr *attrs)
{
	struct v1_state *v = cookie;
	(void)type;
	(void)id;
	v->calls++;
	for (GeisSize i = 0; i < n; i++) {
		CHECK(attrs[i].name, "v1 attribute %zu without name", (size_t)i);
		if (attrs[i].type == GEIS_ATTR_TYPE_STRING)
			CHECK(attrs[i].string_val, "v1 string attribute without value");
	}
}

static void
v1_device_cb(void *cookie, GeisInputDeviceId id, void *attrs)
{
	struct v1_state *v = cookie;
	(void)id;
	v->calls++;
	for (GeisGestureAttr *a = attrs; a && a->name; a++)
		if (a->type == GEIS_ATTR_TYPE_STRING)
			CHECK(a->string_val, "v1 device string attribute without value");
}

static void
op_v1(struct state *st, uint8_t b)
{
	static const char *const types[] = {
		GEIS_GESTURE_TYPE_DRAG1, GEIS_GESTURE_TYPE_DRAG2,  GEIS_GESTURE_TYPE_PINCH2,
		GEIS_GESTURE_TYPE_ROTATE2, GEIS_GESTURE_TYPE_TAP1, GEIS_GESTURE_TYPE_TAP2,
		GEIS_GESTURE_TYPE_TOUCH1, GEIS_GESTURE_TYPE_SYSTEM, GEIS_GESTURE_TYPE_FLICK2,
		GEIS_GESTURE_DRAG, "Drag,touch=9", "Bogus", "", "Tap,touch=",
	};
#define NTYPES (sizeof(types) / sizeof(types[0]))
	if (st->v1_sessions >= MAX_V1)
		return;
	st->v1_sessions++;
	char path[1024], env[1100];
	recording_path(path, sizeof(path), u8(&st->in));
	snprintf(env, sizeof(env), "recording-fast:%s", path);
	setenv(UTOUCH_GEIS_BACKEND_ENV, env, 1);
	uint32_t win = (b & 1) ? 0 : 1 + (b & 6);
	GeisXcbWinInfo xcb = {.display_name = NULL, .screenp = NULL, .window_id = win};
	GeisWinInfo wi = {.win_type = GEIS_XCB_FULL_WINDOW, .win_info = &xcb};
	GeisInstance inst = NULL;
	if (b & 0x80) {
		GeisWinInfo bad = {.win_type = 0x1234, .win_info = &xcb};
		CHECK(geis_init(&bad, &inst) == GEIS_BAD_ARGUMENT && !inst,
		      "v1 init with a bad window type");
	}
	GeisStatus rc = geis_init(&wi, &inst);
	unsetenv(UTOUCH_GEIS_BACKEND_ENV);
	CHECK(rc == GEIS_STATUS_SUCCESS && inst, "v1 geis_init: status %d", (int)rc);
	struct v1_state v = {0};
	GeisInputFuncs inf = {v1_device_cb, v1_device_cb, v1_device_cb};
	GeisGestureFuncs gf = {v1_gesture_cb, v1_gesture_cb, v1_gesture_cb, v1_gesture_cb,
			       v1_gesture_cb};
	if (b & 0x10)
		CHECK(geis_input_devices(inst, &inf, &v) == GEIS_STATUS_SUCCESS,
		      "v1 input devices");
	unsigned int nsub = 1 + u8(&st->in) % 3;
	bool subscribed = false;
	for (unsigned int s = 0; s < nsub; s++) {
		uint8_t sel = u8(&st->in);
		const char *list[4] = {NULL};
		unsigned int n = sel % 4;
		bool valid = true, gestures = n == 0;
		for (unsigned int i = 0; i < n; i++) {
			uint8_t t = u8(&st->in) % NTYPES;
			list[i] = types[t];
			if (t >= 10)
				valid = false;
			/* Sysflags and Flick are known names that make no gestures */
			gestures |= t != 7 && t != 8;
		}
		GeisInputDeviceId devs[3] = {1, 0, 0};
		if (sel & 0x40)
			devs[0] = 7;
		rc = geis_subscribe(inst, (sel & 0x20) ? devs : GEIS_ALL_INPUT_DEVICES,
				    n ? list : GEIS_ALL_GESTURES, &gf, &v);
		CHECK(v1_status_defined(rc), "v1 subscribe: status %d", (int)rc);
		CHECK((rc == GEIS_STATUS_SUCCESS) == valid, "v1 subscribe (valid %d): status %d",
		      (int)valid, (int)rc);
		subscribed |= rc == GEIS_STATUS_SUCCESS && gestures;
		if (sel & 0x80) {
			rc = geis_event_dispatch(inst);
			CHECK(v1_status_defined(rc), "v1 dispatch: status %d", (int)rc);
		}
	}
	int fd = -1;
	rc = geis_configuration_get_value(inst, GEIS_CONFIG_UNIX_FD, &fd);
	CHECK(rc == GEIS_STATUS_SUCCESS && fd >= 0, "v1 fd: status %d", (int)rc);
	for (unsigned int i = 0; i < 4; i++) {
		rc = geis_event_dispatch(inst);
		CHECK(v1_status_defined(rc), "v1 dispatch: status %d", (int)rc);
		if (i == 1 && (b & 0x20)) {
			/* with no gesture type subscribed (none, or only Sysflags
			 * and Flick), geis 2.2.17's UNKNOWN_ERROR */
			rc = geis_unsubscribe(inst, NULL);
			CHECK(rc == (subscribed ? GEIS_STATUS_SUCCESS : GEIS_STATUS_UNKNOWN_ERROR),
			      "v1 unsubscribe (subscribed %d): status %d", (int)subscribed, (int)rc);
		}
	}
	CHECK(geis_finish(inst) == GEIS_STATUS_SUCCESS, "v1 finish");
	trace("  v1 session: %u callbacks", v.calls);
#undef NTYPES
}

/* ------------------------------ main ------------------------------ */

enum op {
	OP_SUB_NEW,
	OP_FILTER,
	OP_ACTIVATE,
	OP_DEACTIVATE,
	OP_SUB_DELETE,
	OP_SUB_CONFIG,
	OP_SET_CONFIG,
	OP_DISPATCH,
	OP_NEXT_EVENT,
	OP_DRAIN,
	OP_DECIDE,
	OP_HOLD,
	OP_REGION,
	OP_RECREATE,
	OP_V1,
	OP_FILTER2,
	OP_ACTIVATE2,
	OP_DISPATCH2,
	OP_GROUP_REJECT,
	NOPS
};

static void
finish(struct state *st)
{
	if (!st->geis)
		return;
	/* doc: fast mode plays to the end and advances time so that every
	 * gesture ends */
	settle(st);
	check_all_ended(st, "after playback");
	for (int i = 0; i < NSUBS; i++)
		if (st->subs[i].sub)
			op_deactivate(st, (uint8_t)i);
	settle(st);
	check_all_ended(st, "after deactivation");
	/* events kept by the application outlive the instance */
	instance_delete(st);
	release_held(st);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state *st = calloc(1, sizeof(*st));
	if (!st)
		abort();
	st->in.p = data;
	st->in.n = size;
	uint8_t rec = u8(&st->in);
	uint8_t flags = u8(&st->in);
	instance_new(st, rec, flags);

	unsigned int nops = 0;
	while (more(&st->in) && nops++ < MAX_OPS) {
		uint8_t op = u8(&st->in) % NOPS;
		uint8_t arg = u8(&st->in);
		trace("op %u arg %u", op, arg);
		switch ((enum op)op) {
		case OP_SUB_NEW:
			op_sub_new(st, arg);
			break;
		case OP_FILTER:
		case OP_FILTER2:
			op_filter(st, arg);
			break;
		case OP_ACTIVATE:
		case OP_ACTIVATE2:
			op_activate(st, arg);
			break;
		case OP_DEACTIVATE:
			op_deactivate(st, arg);
			break;
		case OP_SUB_DELETE:
			op_sub_delete(st, arg);
			break;
		case OP_SUB_CONFIG:
			op_sub_config(st, arg);
			break;
		case OP_SET_CONFIG:
			op_set_config(st, arg);
			break;
		case OP_DISPATCH:
		case OP_DISPATCH2:
			dispatch(st);
			if (arg & 1)
				drain_queue(st, 1 + arg);
			break;
		case OP_NEXT_EVENT:
			drain_queue(st, 1);
			break;
		case OP_DRAIN:
			drain_queue(st, 100000);
			break;
		case OP_DECIDE:
			op_decide(st, arg);
			break;
		case OP_HOLD:
			if (arg & 1)
				st->hold_next = true;
			else
				release_held(st);
			break;
		case OP_REGION:
			op_region(st, arg);
			break;
		case OP_RECREATE:
			if (arg & 1) {
				/* play to the end first, so the end checks run */
				finish(st);
			} else {
				instance_delete(st);
			}
			if (st->instances >= MAX_INSTANCES) {
				release_held(st);
				free(st);
				return 0;
			}
			instance_new(st, u8(&st->in), u8(&st->in));
			break;
		case OP_V1:
			op_v1(st, arg);
			break;
		case OP_GROUP_REJECT:
			/* reject through a kept event's group */
			/* (only events of the live instance: a group of a
			 * deleted instance is like the deleted Geis itself) */
			if (st->nheld && st->held_gen[arg % st->nheld] == st->instances) {
				GeisEvent ev = st->held[arg % st->nheld];
				if (is_gesture_event(geis_event_type(ev))) {
					GeisGroup grp = NULL;
					GeisGestureId id = check_gesture_event(ev, &grp);
					if (arg & 0x80) {
						geis_group_reject(grp);
						struct gesture *g = gfind(st, id, false);
						/* a group reject has no status: the
						 * gesture is gone if it was known */
						if (g && g->state == G_OPEN)
							g->state = G_REJECTED;
					} else {
						decide(st, id, arg & 1, grp);
					}
				}
			}
			break;
		case NOPS:
			break;
		}
	}
	finish(st);
	release_held(st);
	free(st);
	return 0;
}
