/*
 * libFuzzer target for grail.
 *
 * The input is a program: a mode byte, then operations on a grail handle
 * fed by a fake touch device through the frame backend API (subscriptions
 * created, reconfigured, activated, deactivated and deleted; touches that
 * begin, move, get ownership, pending end and end; time that advances,
 * timers that run; gestures the client accepts or rejects; the handle
 * deleted and recreated; events the client keeps after the handle is
 * gone).  After every operation the client drains the event queue and the
 * target checks what grail.h promises:
 *
 * - per gesture: the first slice the client sees is Begin, nothing follows
 *   End or a successful reject, construction_finished and the recognized
 *   mask never go back, End slices that are not cancelled have
 *   construction finished, only End slices may be cancelled, a slice has 1..5 distinct touches that began
 *   on the slice's window while this handle existed, event times never go
 *   back and never lie in the future;
 * - every touch is accepted or rejected at most once; once all touches of
 *   a handle can no longer be decided by it (handle deleted) each was
 *   decided exactly once; accepting a gesture accepts its touches and ends
 *   every other gesture the client saw that shares one of them;
 * - every gesture the client saw ends (possibly cancelled) when its
 *   subscription is deactivated; handle deletion drops gestures silently;
 * - grail_next_timeout() is 0 or not before the time given to
 *   grail_update_time(); the fd is readable while events are queued and
 *   not after grail_get_event() returned NoEvent twice in a row;
 * - status codes of the subscription, accept and reject calls match the
 *   documentation, and properties read back as written.
 *
 * Sanitizers (ASan, LSan, UBSan) catch the rest.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <oif/grail.h>
#include <utouch/frame_handle.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NSUBS 4
#define NWIN 2
#define MAX_LIVE 10
#define MAX_TOUCHES 256
#define MAX_HELD 8
#define GESTURE_TOUCHES 16
#define MAX_SEEN 4096
#define MAX_PENDING 64
/* the clock stays below this, so that it never wraps */
#define TIME_MAX (UINT64_C(1) << 62)

#define FUZZ_NAME "fuzz-grail"
#define FUZZ_TRACE_ENV "FUZZ_GRAIL_TRACE"
#include "fuzz-common.h"

/* ------------------------------------------------------------------ */
/* model                                                               */

struct touch {
	UFTouchId id;
	int win;
	unsigned int gen;   /* handle generation the touch began under */
	bool live;          /* still reported by frames */
	bool owned;
	bool pending_end;
	float x, y;
	unsigned int accepted, rejected;
};

struct sub_model {
	UGSubscription sub;
	bool active;
	bool mask_set, window_set;
	UFWindowId window;
	unsigned int start, min, max;
	int atomic;            /* current property */
	int active_atomic;     /* property when activated */
	bool changed_active;   /* properties changed while active */
};

struct gesture {
	unsigned int id;
	bool used;
	bool ended, canceled, rejected, accepted, atomic;
	bool cf;
	UGSubscription sub;
	UGGestureTypeMask recognized;
	uint64_t last_time;
	unsigned int ntouches;
	UFTouchId touches[GESTURE_TOUCHES];
};

enum policy {
	POLICY_NONE,
	POLICY_ACCEPT_FIRST,
	POLICY_REJECT_FIRST,
	POLICY_ACCEPT_CF,
	POLICY_INPUT,
};

struct state {
	struct reader in;
	enum policy policy;
	bool xlike;      /* rejected touches end, as the X server does */
	UGHandle grail;
	unsigned int gen;
	UFBackendDevice bdev;
	UFDevice device;
	UFBackendFrame prev[NWIN];
	uint64_t now;
	struct sub_model subs[NSUBS];
	struct touch touches[MAX_TOUCHES];
	unsigned int ntouches;
	/* window state of the handle: does a recognizer exist, is it atomic */
	unsigned int win_active[NWIN];
	bool win_atomic[NWIN];
	/* gestures the client saw, open addressing by id */
	struct gesture *g;
	unsigned int gcap, gcount;
	unsigned int seen[MAX_SEEN];
	unsigned int nseen;
	UGEvent held[MAX_HELD];
	unsigned int nheld;
	bool hold_next;
	unsigned int pending_accepted[MAX_PENDING];
	unsigned int naccepted;
};

static UFWindowId
win_id(int w)
{
	return (UFWindowId)(w + 1);
}

static struct touch *
touch_by_id(struct state *st, UFTouchId id)
{
	if (id < 1 || id > st->ntouches)
		return NULL;
	return &st->touches[id - 1];
}

static UFStatus
touch_handler(void *data, UFWindowId window, UFTouchId touch_id, int accept)
{
	struct state *st = data;
	struct touch *t = touch_by_id(st, touch_id);
	trace("  touch %llu %s", (unsigned long long)touch_id, accept ? "accepted" : "rejected");
	CHECK(t, "decision for unknown touch %llu", (unsigned long long)touch_id);
	CHECK(window == win_id(t->win), "touch %llu decided on window %llu, began on %llu",
	      (unsigned long long)touch_id, (unsigned long long)window,
	      (unsigned long long)win_id(t->win));
	if (accept)
		t->accepted++;
	else
		t->rejected++;
	CHECK(t->accepted + t->rejected == 1, "touch %llu accepted %u and rejected %u times",
	      (unsigned long long)touch_id, t->accepted, t->rejected);
	return UFStatusSuccess;
}

static void
log_handler(void *data, int level, const char *msg)
{
	(void)data;
	trace("  grail log %d: %s", level, msg ? msg : "(null)");
	CHECK(level >= -1 && level <= 1 && msg && !strchr(msg, '\n'),
	      "bad log message (level %d)", level);
}

/* ---------------------------- gestures ---------------------------- */

static unsigned int
ghash(unsigned int id)
{
	return id * 2654435761u;
}

static struct gesture *
gfind(struct state *st, unsigned int id, bool create)
{
	if (st->gcap == 0 || (create && (st->gcount + 1) * 2 > st->gcap)) {
		unsigned int ncap = st->gcap ? st->gcap * 2 : 64;
		struct gesture *ng = calloc(ncap, sizeof(*ng));
		if (!ng)
			abort();
		for (unsigned int i = 0; i < st->gcap; i++) {
			if (!st->g[i].used)
				continue;
			unsigned int j = ghash(st->g[i].id) & (ncap - 1);
			while (ng[j].used)
				j = (j + 1) & (ncap - 1);
			ng[j] = st->g[i];
		}
		free(st->g);
		st->g = ng;
		st->gcap = ncap;
	}
	unsigned int j = ghash(id) & (st->gcap - 1);
	while (st->g[j].used) {
		if (st->g[j].id == id)
			return &st->g[j];
		j = (j + 1) & (st->gcap - 1);
	}
	if (!create)
		return NULL;
	memset(&st->g[j], 0, sizeof(st->g[j]));
	st->g[j].used = true;
	st->g[j].id = id;
	st->gcount++;
	if (st->nseen < MAX_SEEN)
		st->seen[st->nseen++] = id;
	return &st->g[j];
}

static void
gclear(struct state *st)
{
	free(st->g);
	st->g = NULL;
	st->gcap = st->gcount = 0;
	st->nseen = 0;
}

static bool
gesture_open(const struct gesture *g)
{
	return !g->ended && !g->rejected;
}

static bool
gesture_has_touch(const struct gesture *g, UFTouchId id)
{
	for (unsigned int i = 0; i < g->ntouches; i++)
		if (g->touches[i] == id)
			return true;
	return false;
}

static struct sub_model *
sub_model_of(struct state *st, UGSubscription sub)
{
	for (int i = 0; i < NSUBS; i++)
		if (st->subs[i].sub && st->subs[i].sub == sub)
			return &st->subs[i];
	return NULL;
}

/* ----------------------------- events ----------------------------- */

static void decide(struct state *st, unsigned int id, bool accept);
static void check_accepted(struct state *st);

static void
check_slice_touches(struct state *st, UGSlice s, struct gesture *g, int state, int canceled,
		    int win)
{
	unsigned int n = grail_slice_get_num_touches(s);
	CHECK(n >= 1 && n <= 5, "gesture %u: slice with %u touches", g->id, n);
	UFTouchId ids[5];
	for (unsigned int i = 0; i < n; i++) {
		CHECK(grail_slice_get_touch_id(s, i, &ids[i]) == UGStatusSuccess,
		      "gesture %u: touch index %u of %u fails", g->id, i, n);
		struct touch *t = touch_by_id(st, ids[i]);
		CHECK(t, "gesture %u: unknown touch %llu", g->id, (unsigned long long)ids[i]);
		CHECK(t->win == win, "gesture %u: touch %llu of another window", g->id,
		      (unsigned long long)ids[i]);
		CHECK(t->gen == st->gen, "gesture %u: touch %llu began before the handle existed",
		      g->id, (unsigned long long)ids[i]);
		CHECK(t->rejected == 0 || (state == UGGestureStateEnd && canceled),
		      "gesture %u: slice (state %d) holds rejected touch %llu", g->id, state,
		      (unsigned long long)ids[i]);
		for (unsigned int j = 0; j < i; j++)
			CHECK(ids[j] != ids[i], "gesture %u: touch %llu twice in a slice", g->id,
			      (unsigned long long)ids[i]);
		if (!gesture_has_touch(g, ids[i]) && g->ntouches < GESTURE_TOUCHES)
			g->touches[g->ntouches++] = ids[i];
	}
	UFTouchId dummy;
	CHECK(grail_slice_get_touch_id(s, n, &dummy) == UGStatusErrorInvalidIndex,
	      "touch index past the end accepted");
	CHECK(grail_slice_get_touch_id(s, 0, NULL) == UGStatusErrorInvalidValue,
	      "NULL touch id accepted");
}

static void
read_slice_fully(UGSlice s)
{
	/* touch every property so that ASan sees stale memory */
	unsigned int u;
	float f;
	int i;
	UFFrame fr = NULL;
	const UGTransform *t = NULL;
	UGSubscription sub = NULL;
	UGGestureTypeMask m;
	UGGestureState state;
	CHECK(grail_slice_get_property(s, UGSlicePropertyId, &u) == UGStatusSuccess &&
		      u == grail_slice_get_id(s),
	      "slice id property");
	CHECK(grail_slice_get_property(s, UGSlicePropertyState, &state) == UGStatusSuccess &&
		      state == grail_slice_get_state(s),
	      "slice state property");
	CHECK(grail_slice_get_property(s, UGSlicePropertySubscription, &sub) ==
			      UGStatusSuccess &&
		      sub == grail_slice_get_subscription(s),
	      "slice subscription property");
	CHECK(grail_slice_get_property(s, UGSlicePropertyRecognized, &m) == UGStatusSuccess &&
		      m == grail_slice_get_recognized(s),
	      "slice recognized property");
	CHECK(grail_slice_get_property(s, UGSlicePropertyNumTouches, &u) == UGStatusSuccess &&
		      u == grail_slice_get_num_touches(s),
	      "slice touch count property");
	CHECK(grail_slice_get_property(s, UGSlicePropertyFrame, &fr) == UGStatusSuccess &&
		      fr && fr == grail_slice_get_frame(s),
	      "slice frame property");
	(void)frame_frame_get_num_touches(fr);
	(void)frame_frame_get_window_id(fr);
	static const UGSliceProperty fprops[] = {
		UGSlicePropertyOriginalCenterX,   UGSlicePropertyOriginalCenterY,
		UGSlicePropertyOriginalRadius,    UGSlicePropertyCenterOfRotationX,
		UGSlicePropertyCenterOfRotationY,
	};
	for (unsigned int k = 0; k < sizeof(fprops) / sizeof(fprops[0]); k++)
		CHECK(grail_slice_get_property(s, fprops[k], &f) == UGStatusSuccess,
		      "slice float property %d", (int)fprops[k]);
	CHECK(grail_slice_get_property(s, UGSlicePropertyTransform, &t) == UGStatusSuccess &&
		      t && t == grail_slice_get_transform(s),
	      "slice transform property");
	volatile float sink = (*t)[0][0] + (*t)[2][2];
	CHECK(grail_slice_get_property(s, UGSlicePropertyCumulativeTransform, &t) ==
			      UGStatusSuccess &&
		      t && t == grail_slice_get_cumulative_transform(s),
	      "slice cumulative transform property");
	sink = (*t)[1][2];
	(void)sink;
	CHECK(grail_slice_get_property(s, UGSlicePropertyConstructionFinished, &i) ==
			      UGStatusSuccess &&
		      i == grail_slice_get_construction_finished(s),
	      "slice cf property");
	CHECK(grail_slice_get_property(s, UGSlicePropertyCanceled, &i) == UGStatusSuccess &&
		      i == grail_slice_get_canceled(s),
	      "slice canceled property");
	/* utouch extensions */
	CHECK(grail_slice_get_property(s, UGSlicePropertyVelocityX, &f) == UGStatusSuccess &&
		      f == grail_slice_get_velocity_x(s) && isfinite(f),
	      "slice velocity x");
	CHECK(grail_slice_get_property(s, UGSlicePropertyVelocityY, &f) == UGStatusSuccess &&
		      f == grail_slice_get_velocity_y(s) && isfinite(f),
	      "slice velocity y");
	unsigned int ext;
	CHECK(grail_slice_get_property(s, UGSlicePropertyTapCount, &ext) == UGStatusSuccess &&
		      ext == grail_slice_get_tap_count(s) && ext <= 100 &&
		      (ext > 0) == ((grail_slice_get_recognized(s) & UGGestureTypeTap) != 0),
	      "slice tap count %u", ext);
	CHECK(grail_slice_get_property(s, UGSlicePropertyEdge, &ext) == UGStatusSuccess &&
		      ext == grail_slice_get_edge(s) &&
		      (ext == 0 || ext == UGEdgeLeft || ext == UGEdgeRight || ext == UGEdgeTop ||
		       ext == UGEdgeBottom) &&
		      (ext != 0) == ((grail_slice_get_recognized(s) & UGGestureTypeEdgeSwipe) != 0),
	      "slice edge %u", ext);
	CHECK(grail_slice_get_property(s, (UGSliceProperty)99, &i) ==
		      UGStatusErrorUnknownProperty,
	      "unknown slice property");
	CHECK(grail_slice_get_property(s, UGSlicePropertyId, NULL) == UGStatusErrorInvalidValue,
	      "slice property into NULL");
}

static void
check_event(struct state *st, UGEvent ev)
{
	UGEventType type = (UGEventType)-1;
	CHECK(grail_event_get_property(ev, UGEventPropertyType, &type) == UGStatusSuccess &&
		      type == UGEventTypeSlice && grail_event_get_type(ev) == UGEventTypeSlice,
	      "event type");
	uint64_t time = 0;
	CHECK(grail_event_get_property(ev, UGEventPropertyTime, &time) == UGStatusSuccess &&
		      time == grail_event_get_time(ev),
	      "event time property");
	CHECK(grail_event_get_property(ev, (UGEventProperty)42, &time) ==
		      UGStatusErrorUnknownProperty,
	      "unknown event property");
	UGSlice s = NULL;
	CHECK(grail_event_get_property(ev, UGEventPropertySlice, &s) == UGStatusSuccess && s,
	      "event without slice");
	read_slice_fully(s);

	unsigned int id = grail_slice_get_id(s);
	UGGestureState state = grail_slice_get_state(s);
	int cf = grail_slice_get_construction_finished(s);
	int canceled = grail_slice_get_canceled(s);
	UGGestureTypeMask rec = grail_slice_get_recognized(s);
	UGSubscription sub = grail_slice_get_subscription(s);
	CHECK(state == UGGestureStateBegin || state == UGGestureStateUpdate ||
		      state == UGGestureStateEnd,
	      "gesture %u: state %d", id, (int)state);
	CHECK(cf == 0 || cf == 1, "gesture %u: cf %d", id, cf);
	CHECK(canceled == 0 || canceled == 1, "gesture %u: canceled %d", id, canceled);
	CHECK(time <= st->now, "gesture %u: event time %llu after now %llu", id,
	      (unsigned long long)time, (unsigned long long)st->now);

	struct sub_model *sm = sub_model_of(st, sub);
	if (tracing()) {
		char tl[64] = "";
		for (unsigned int i = 0; i < grail_slice_get_num_touches(s) && i < 5; i++) {
			UFTouchId tid = 0;
			(void)grail_slice_get_touch_id(s, i, &tid);
			snprintf(tl + strlen(tl), sizeof(tl) - strlen(tl), "%s%llu", i ? "," : "",
				 (unsigned long long)tid);
		}
		trace("  slice g=%u sub=%d state=%d touches=%s t=%llu rec=%#x cf=%d canceled=%d",
		      id, sm ? (int)(sm - st->subs) : -1, (int)state, tl,
		      (unsigned long long)time, rec, cf, canceled);
	}
	CHECK(sm, "gesture %u: slice of an unknown subscription", id);
	CHECK(sm->active || (state == UGGestureStateEnd && canceled),
	      "gesture %u: slice (state %d canceled %d) of an inactive subscription", id,
	      (int)state, canceled);
	CHECK(sm->window_set, "gesture %u: subscription without window", id);
	int win = (int)sm->window - 1;
	UFFrame fr = grail_slice_get_frame(s);
	CHECK(frame_frame_get_window_id(fr) == sm->window,
	      "gesture %u: frame of window %llu, subscription window %llu", id,
	      (unsigned long long)frame_frame_get_window_id(fr),
	      (unsigned long long)sm->window);
	CHECK(frame_frame_get_device(fr) == st->device, "gesture %u: frame of another device",
	      id);

	struct gesture *g = gfind(st, id, false);
	if (!g) {
		CHECK(state == UGGestureStateBegin, "gesture %u: first slice has state %d", id,
		      (int)state);
		g = gfind(st, id, true);
		g->sub = sub;
		g->atomic = st->win_atomic[win];
	} else {
		CHECK(state != UGGestureStateBegin, "gesture %u begins twice", id);
		CHECK(!g->ended, "gesture %u: slice after End", id);
		CHECK(!g->rejected, "gesture %u: slice after the client rejected it", id);
		CHECK(g->sub == sub, "gesture %u changed subscription", id);
		CHECK(!(g->cf && !cf), "gesture %u: construction_finished went back to 0", id);
		CHECK((g->recognized & rec) == g->recognized,
		      "gesture %u: recognized mask shrank from %#x to %#x", id, g->recognized,
		      rec);
		CHECK(time >= g->last_time, "gesture %u: event time went back", id);
	}
	g->cf = cf != 0;
	g->recognized = rec;
	g->last_time = time;
	if (state == UGGestureStateEnd) {
		/*
		 * A regular End finishes construction; a cancelled End repeats
		 * the construction_finished the client last saw (monotonic).
		 */
		CHECK(cf || canceled, "gesture %u: End slice without construction_finished",
		      id);
		g->ended = true;
		g->canceled = canceled != 0;
	} else {
		CHECK(!canceled, "gesture %u: canceled slice with state %d", id, (int)state);
	}
	check_slice_touches(st, s, g, (int)state, canceled, win);

	/* automatic client decisions */
	bool decide_now = false, accept = false;
	switch (st->policy) {
	case POLICY_NONE:
		break;
	case POLICY_ACCEPT_FIRST:
		decide_now = state == UGGestureStateBegin;
		accept = true;
		break;
	case POLICY_REJECT_FIRST:
		decide_now = state == UGGestureStateBegin;
		accept = false;
		break;
	case POLICY_ACCEPT_CF:
		decide_now = cf && !g->accepted && state != UGGestureStateEnd;
		accept = true;
		break;
	case POLICY_INPUT:
		if (state == UGGestureStateBegin) {
			uint8_t b = u8(&st->in);
			decide_now = (b & 3) != 0;
			accept = (b & 3) == 1;
		}
		break;
	}
	if (decide_now && !g->atomic && gesture_open(g))
		decide(st, id, accept);
}

static bool
fd_readable(struct state *st)
{
	struct pollfd p = {.fd = grail_get_fd(st->grail), .events = POLLIN};
	int r;
	do
		r = poll(&p, 1, 0);
	while (r < 0 && errno == EINTR); /* libFuzzer's -timeout uses SIGALRM */
	CHECK(r >= 0, "poll on grail fd failed");
	return r > 0 && (p.revents & POLLIN);
}

static void
drain(struct state *st)
{
	UGEvent ev;
	for (;;) {
		bool readable = fd_readable(st);
		UGStatus rc = grail_get_event(st->grail, &ev);
		if (rc != UGStatusSuccess) {
			CHECK(rc == UGStatusErrorNoEvent, "grail_get_event: status %d", (int)rc);
			/* the fd is cleared lazily, by the second NoEvent in a row */
			CHECK(grail_get_event(st->grail, &ev) == UGStatusErrorNoEvent,
			      "grail_get_event: event after NoEvent");
			CHECK(!fd_readable(st), "fd readable after two NoEvent in a row");
			break;
		}
		CHECK(readable, "event queued but fd not readable");
		check_event(st, ev);
		if (st->hold_next && st->nheld < MAX_HELD) {
			st->hold_next = false;
			grail_event_ref(ev);
			grail_event_unref(ev);
			st->held[st->nheld++] = ev;
		} else {
			grail_event_unref(ev);
		}
	}
	check_accepted(st);
}

static void
release_held(struct state *st)
{
	for (unsigned int i = 0; i < st->nheld; i++) {
		UGSlice s = NULL;
		CHECK(grail_event_get_property(st->held[i], UGEventPropertySlice, &s) ==
			      UGStatusSuccess,
		      "held event lost its slice");
		read_slice_fully(s);
		grail_event_unref(st->held[i]);
	}
	st->nheld = 0;
}

/*
 * Client decisions; @p id may be stale or bogus.  Called between
 * grail_get_event() calls too; the effects on other gestures are checked
 * once the queue is empty (check_accepted).
 */
static void
decide(struct state *st, unsigned int id, bool accept)
{
	struct gesture *g = gfind(st, id, false);
	UGStatus rc = accept ? grail_accept_gesture(st->grail, id)
			     : grail_reject_gesture(st->grail, id);
	trace("  %s %u -> %d", accept ? "accept" : "reject", id, (int)rc);
	CHECK(rc == UGStatusSuccess || rc == UGStatusErrorInvalidGesture ||
		      rc == UGStatusErrorAtomicity,
	      "%s gesture %u: status %d", accept ? "accept" : "reject", id, (int)rc);
	if (g) {
		if (g->rejected || g->accepted || g->canceled)
			CHECK(rc == UGStatusErrorInvalidGesture,
			      "%s of decided or cancelled gesture %u: status %d",
			      accept ? "accept" : "reject", id, (int)rc);
		if (g->atomic)
			CHECK(rc != UGStatusSuccess, "%s of atomic gesture %u succeeded",
			      accept ? "accept" : "reject", id);
	}
	if (rc != UGStatusSuccess || !g)
		return;
	if (!accept) {
		g->rejected = true;
		return;
	}
	g->accepted = true;
	for (unsigned int i = 0; i < g->ntouches; i++) {
		struct touch *t = touch_by_id(st, g->touches[i]);
		CHECK(t->accepted == 1 && t->rejected == 0,
		      "accepted gesture %u: touch %llu accepted %u rejected %u", id,
		      (unsigned long long)t->id, t->accepted, t->rejected);
	}
	if (st->naccepted < MAX_PENDING)
		st->pending_accepted[st->naccepted++] = id;
}

/* Every other gesture the client saw that shares a touch with an accepted one has ended. */
static void
check_accepted(struct state *st)
{
	for (unsigned int a = 0; a < st->naccepted; a++) {
		unsigned int id = st->pending_accepted[a];
		struct gesture *g = gfind(st, id, false);
		unsigned int ntouches = g->ntouches;
		UFTouchId touches[GESTURE_TOUCHES];
		memcpy(touches, g->touches, sizeof(touches));
		for (unsigned int k = 0; k < st->gcap; k++) {
			struct gesture *o = &st->g[k];
			if (!o->used || o->id == id || !gesture_open(o))
				continue;
			for (unsigned int i = 0; i < ntouches; i++)
				CHECK(!gesture_has_touch(o, touches[i]),
				      "gesture %u shares touch %llu with accepted gesture %u but "
				      "did not end",
				      o->id, (unsigned long long)touches[i], id);
		}
	}
	st->naccepted = 0;
}

/* ----------------------------- frames ----------------------------- */

static void
send_device_added(struct state *st)
{
	UFEvent ev = frame_event_new();
	if (!ev)
		abort();
	frame_event_set_type(ev, UFEventTypeDeviceAdded);
	frame_event_set_device(ev, st->bdev);
	frame_event_set_time(ev, st->now);
	grail_process_frame_event(st->grail, ev);
	frame_event_unref(ev);
	drain(st);
}

static UFBackendFrame
frame_next(struct state *st, int w)
{
	UFBackendFrame f = st->prev[w] ? frame_backend_frame_create_next(st->prev[w])
				       : frame_backend_frame_new();
	if (!f)
		abort();
	frame_backend_frame_set_device(f, st->bdev);
	frame_backend_frame_set_window_id(f, win_id(w));
	return f;
}

static void
frame_send(struct state *st, int w, UFBackendFrame f)
{
	frame_backend_frame_set_active_touches(
		f, frame_frame_get_num_touches(frame_backend_frame_get_frame(f)));
	UFEvent ev = frame_event_new();
	if (!ev)
		abort();
	frame_event_set_type(ev, UFEventTypeFrame);
	frame_event_set_frame(ev, f);
	frame_event_set_time(ev, st->now);
	grail_process_frame_event(st->grail, ev);
	frame_event_unref(ev);
	if (st->prev[w])
		frame_backend_frame_delete(st->prev[w]);
	st->prev[w] = f;
	drain(st);
}

static void
touch_pos(struct state *st, UFBackendTouch bt, const struct touch *t)
{
	frame_backend_touch_set_window_pos(bt, t->x * 1024.0f / 10000.0f,
					   t->y * 768.0f / 10000.0f);
	frame_backend_touch_set_value(bt, UFAxisTypeX, t->x);
	frame_backend_touch_set_value(bt, UFAxisTypeY, t->y);
	frame_backend_touch_set_time(bt, st->now);
}

static UFBackendTouch
borrow(UFBackendFrame f, UFTouchId id)
{
	UFBackendTouch bt = NULL;
	if (frame_backend_frame_borrow_touch_by_id(f, id, &bt) != UFStatusSuccess || !bt)
		fail("frame lost live touch %llu", (unsigned long long)id);
	return bt;
}

static void
give(UFBackendFrame f, UFBackendTouch bt)
{
	if (frame_backend_frame_give_touch(f, &bt) != UFStatusSuccess)
		abort();
}

static unsigned int
live_touches(struct state *st, struct touch **out)
{
	unsigned int n = 0;
	for (unsigned int i = 0; i < st->ntouches; i++)
		if (st->touches[i].live)
			out[n++] = &st->touches[i];
	return n;
}

static float
coord(struct reader *r)
{
	uint16_t v = u16(r);
	if (v >= 65000)
		return (v & 1) ? 1e9f : -1e9f;
	return (float)(v % 10001);
}

static void
op_begin(struct state *st, uint8_t b)
{
	struct touch *live[MAX_LIVE];
	unsigned int nlive = live_touches(st, live);
	int w = b & 1;
	unsigned int n = 1 + ((b >> 1) & 1);
	bool owned = (b >> 2) & 1;
	if (nlive + n > MAX_LIVE || st->ntouches + n > MAX_TOUCHES)
		return;
	UFBackendFrame f = frame_next(st, w);
	for (unsigned int i = 0; i < n; i++) {
		struct touch *t = &st->touches[st->ntouches++];
		memset(t, 0, sizeof(*t));
		t->id = st->ntouches;
		t->win = w;
		t->gen = st->gen;
		t->live = true;
		t->owned = owned;
		t->x = coord(&st->in);
		t->y = coord(&st->in);
		UFBackendTouch bt = frame_backend_touch_new();
		if (!bt)
			abort();
		frame_backend_touch_set_id(bt, t->id);
		frame_backend_touch_set_start_time(bt, st->now);
		frame_backend_touch_set_owned(bt, owned);
		frame_backend_touch_set_pending_end(bt, 0);
		touch_pos(st, bt, t);
		give(f, bt);
	}
	frame_send(st, w, f);
}

static void
op_move(struct state *st, uint8_t arg)
{
	unsigned int sel = arg | (unsigned int)u8(&st->in) << 8;
	struct touch *live[MAX_LIVE];
	unsigned int nlive = live_touches(st, live);
	uint8_t kind = u8(&st->in) % 3;
	int8_t param = (int8_t)u8(&st->in);
	float scale = (float)(1u << (u8(&st->in) % 8));
	for (int w = 0; w < NWIN; w++) {
		float cx = 0, cy = 0;
		unsigned int n = 0;
		for (unsigned int i = 0; i < nlive; i++) {
			if (live[i]->win != w || !((sel >> i) & 1))
				continue;
			cx += live[i]->x;
			cy += live[i]->y;
			n++;
		}
		if (n == 0)
			continue;
		cx /= (float)n;
		cy /= (float)n;
		UFBackendFrame f = frame_next(st, w);
		for (unsigned int i = 0; i < nlive; i++) {
			struct touch *t = live[i];
			if (t->win != w || !((sel >> i) & 1))
				continue;
			float dx = t->x - cx, dy = t->y - cy;
			switch (kind) {
			case 0: /* translate */
				t->x += (float)param * scale;
				t->y += (float)param * scale * (i & 1 ? -0.5f : 1.0f);
				break;
			case 1: { /* scale about the centroid */
				float k = 1.0f + (float)param / 128.0f;
				t->x = cx + dx * k;
				t->y = cy + dy * k;
				break;
			}
			default: { /* rotate about the centroid */
				float a = (float)param / 64.0f;
				t->x = cx + dx * cosf(a) - dy * sinf(a);
				t->y = cy + dx * sinf(a) + dy * cosf(a);
				break;
			}
			}
			UFBackendTouch bt = borrow(f, t->id);
			touch_pos(st, bt, t);
			give(f, bt);
		}
		frame_send(st, w, f);
	}
}

enum touch_change { CHANGE_END, CHANGE_OWN, CHANGE_PENDING_END };

static void
change_touch(struct state *st, struct touch *t, enum touch_change c)
{
	UFBackendFrame f = frame_next(st, t->win);
	UFBackendTouch bt = borrow(f, t->id);
	switch (c) {
	case CHANGE_END:
		frame_backend_touch_set_ended(bt);
		t->live = false;
		break;
	case CHANGE_OWN:
		frame_backend_touch_set_owned(bt, 1);
		t->owned = true;
		break;
	case CHANGE_PENDING_END:
		frame_backend_touch_set_pending_end(bt, 1);
		t->pending_end = true;
		break;
	}
	frame_backend_touch_set_time(bt, st->now);
	give(f, bt);
	frame_send(st, t->win, f);
}

static void
op_touch(struct state *st, uint8_t b, enum touch_change c)
{
	struct touch *live[MAX_LIVE];
	unsigned int nlive = live_touches(st, live);
	if (nlive == 0)
		return;
	change_touch(st, live[b % nlive], c);
}

/* X semantics: a touch the client rejected ends for the client. */
static void
end_rejected(struct state *st)
{
	if (!st->xlike)
		return;
	for (unsigned int i = 0; i < st->ntouches; i++)
		if (st->touches[i].live && st->touches[i].rejected)
			change_touch(st, &st->touches[i], CHANGE_END);
}

static void
idle_frame(struct state *st, int w)
{
	frame_send(st, w, frame_next(st, w));
}

/* ------------------------------ time ------------------------------ */

static void
advance(struct state *st, uint64_t d)
{
	st->now = d > TIME_MAX - st->now ? TIME_MAX : st->now + d;
}

static void
update_time(struct state *st, uint64_t t)
{
	if (t > TIME_MAX)
		t = TIME_MAX;
	if (t > st->now)
		st->now = t;
	grail_update_time(st->grail, st->now);
	drain(st);
	uint64_t nt = grail_next_timeout(st->grail);
	CHECK(nt == 0 || nt >= st->now, "next timeout %llu before now %llu",
	      (unsigned long long)nt, (unsigned long long)st->now);
}

/* Run timers the way a client with a clock would, up to @p until. */
static void
run_timers(struct state *st, uint64_t until, unsigned int max_steps)
{
	for (unsigned int i = 0; i < max_steps; i++) {
		uint64_t nt = grail_next_timeout(st->grail);
		if (nt == 0 || nt > until || nt >= TIME_MAX)
			break;
		/* a timer due now fires one tick later at the latest */
		update_time(st, nt > st->now ? nt : st->now + 1);
	}
}

/* -------------------------- subscriptions ------------------------- */

static const uint64_t timeouts[] = {
	0, 1, 60, 300, 500, 5000, UINT64_C(1) << 40, UINT64_MAX / 2, UINT64_MAX,
};

static const float thresholds[] = {
	0.0f, 0.0001f, 0.0026f, 0.01f, 1.1f, 0.12566f, 100.0f, -1.0f, NAN, INFINITY,
};

static void
set_and_check(UGSubscription sub, UGSubscriptionProperty p, const void *v, size_t size,
	      bool valid)
{
	UGStatus rc = grail_subscription_set_property(sub, p, v);
	CHECK(rc == (valid ? UGStatusSuccess : UGStatusErrorInvalidValue),
	      "set subscription property %d: status %d, expected %s", (int)p, (int)rc,
	      valid ? "success" : "invalid value");
	if (!valid)
		return;
	unsigned char back[16];
	memset(back, 0xa5, sizeof(back));
	CHECK(grail_subscription_get_property(sub, p, back) == UGStatusSuccess,
	      "get subscription property %d", (int)p);
	CHECK(memcmp(back, v, size) == 0, "subscription property %d reads back differently",
	      (int)p);
}

static void
op_sub_config(struct state *st, uint8_t slot)
{
	struct sub_model *m = &st->subs[slot % NSUBS];
	uint8_t flags = u8(&st->in);
	uint8_t flags2 = u8(&st->in);
	if (!m->sub) {
		CHECK(grail_subscription_new(&m->sub) == UGStatusSuccess, "subscription_new");
		UGSubscription keep = m->sub;
		memset(m, 0, sizeof(*m));
		m->sub = keep;
		m->start = 2;
		CHECK(grail_subscription_set_property(m->sub, UGSubscriptionPropertyDevice,
						      &st->device) == UGStatusSuccess,
		      "set device");
		/* the window is usually set; a missing one makes activation fail */
		if (!(flags2 & 0x80)) {
			UFWindowId w = win_id((flags2 >> 6) & 1);
			set_and_check(m->sub, UGSubscriptionPropertyWindow, &w, sizeof(w), true);
			m->window = w;
			m->window_set = true;
		}
	}
	UGSubscription sub = m->sub;
	if (m->active)
		m->changed_active = true;

	if (!m->active && (flags2 & 0x20)) {
		/* window 0 is invalid */
		uint8_t b = u8(&st->in);
		UFWindowId w = b % 3;
		set_and_check(sub, UGSubscriptionPropertyWindow, &w, sizeof(w), w != 0);
		if (w) {
			m->window = w;
			m->window_set = true;
		}
		UFDevice none = NULL;
		set_and_check(sub, UGSubscriptionPropertyDevice, &none, sizeof(none), false);
	}
	if (flags & 0x01) {
		uint8_t b = u8(&st->in);
		/* grail 3.1's five types and the extensions hold and edge swipe */
		UGGestureTypeMask mask = b & 0x7f;
		set_and_check(sub, UGSubscriptionPropertyMask, &mask, sizeof(mask), mask != 0);
		if (mask)
			m->mask_set = true;
	}
	static const UGSubscriptionProperty counts[] = {
		UGSubscriptionPropertyTouchesStart,
		UGSubscriptionPropertyTouchesMinimum,
		UGSubscriptionPropertyTouchesMaximum,
	};
	unsigned int *cvals[] = {&m->start, &m->min, &m->max};
	for (int k = 0; k < 3; k++) {
		if (!(flags & (0x02 << k)))
			continue;
		unsigned int v = u8(&st->in) % 7;
		bool valid = v >= 1 && v <= 5;
		set_and_check(sub, counts[k], &v, sizeof(v), valid);
		if (valid)
			*cvals[k] = v;
	}
	if (flags & 0x10) {
		static const UGSubscriptionProperty tprops[] = {
			UGSubscriptionPropertyDragTimeout,
			UGSubscriptionPropertyPinchTimeout,
			UGSubscriptionPropertyRotateTimeout,
			UGSubscriptionPropertyTapTimeout,
		};
		for (int k = 0; k < 4; k++) {
			uint8_t b = u8(&st->in);
			if (b & 0x80)
				continue;
			uint64_t v = timeouts[b % (sizeof(timeouts) / sizeof(timeouts[0]))];
			set_and_check(sub, tprops[k], &v, sizeof(v), true);
		}
	}
	if (flags & 0x20) {
		static const UGSubscriptionProperty fprops[] = {
			UGSubscriptionPropertyDragThreshold,
			UGSubscriptionPropertyPinchThreshold,
			UGSubscriptionPropertyRotateThreshold,
			UGSubscriptionPropertyTapThreshold,
		};
		for (int k = 0; k < 4; k++) {
			uint8_t b = u8(&st->in);
			if (b & 0x80)
				continue;
			float v = thresholds[b % (sizeof(thresholds) / sizeof(thresholds[0]))];
			set_and_check(sub, fprops[k], &v, sizeof(v), isfinite(v) && v >= 0.0f);
		}
	}
	if (flags & 0x40) {
		int atomic = (flags2 & 1) != 0;
		set_and_check(sub, UGSubscriptionPropertyAtomicGestures, &atomic, sizeof(atomic),
			      true);
		m->atomic = atomic;
	}
	if (flags & 0x80) {
		int x = 0;
		CHECK(grail_subscription_set_property(sub, (UGSubscriptionProperty)99, &x) ==
			      UGStatusErrorUnknownProperty,
		      "unknown subscription property set");
		CHECK(grail_subscription_get_property(sub, (UGSubscriptionProperty)99, &x) ==
			      UGStatusErrorUnknownProperty,
		      "unknown subscription property get");
		CHECK(grail_subscription_set_property(sub, UGSubscriptionPropertyMask, NULL) ==
			      UGStatusErrorInvalidValue,
		      "NULL property value");
	}
}

static bool
sub_valid(const struct sub_model *m)
{
	if (!m->mask_set || !m->window_set)
		return false;
	if (m->min && m->start < m->min)
		return false;
	if (m->max && m->start > m->max)
		return false;
	return true;
}

static void
op_activate(struct state *st, uint8_t slot)
{
	struct sub_model *m = &st->subs[slot % NSUBS];
	if (!m->sub)
		return;
	UGStatus rc = grail_subscription_activate(st->grail, m->sub);
	if (m->active) {
		CHECK(m->changed_active || rc == UGStatusSuccess,
		      "re-activating an active subscription: status %d", (int)rc);
		drain(st);
		return;
	}
	int w = (int)m->window - 1;
	bool valid = sub_valid(m);
	bool conflict = m->window_set && st->win_active[w] > 0 &&
			st->win_atomic[w] != (m->atomic != 0);
	if (!valid && conflict)
		CHECK(rc == UGStatusErrorInvalidSubscription || rc == UGStatusErrorAtomicity,
		      "activate (invalid, atomicity conflict): status %d", (int)rc);
	else if (!valid)
		CHECK(rc == UGStatusErrorInvalidSubscription,
		      "activate invalid subscription: status %d", (int)rc);
	else if (conflict)
		CHECK(rc == UGStatusErrorAtomicity, "activate with atomicity conflict: status %d",
		      (int)rc);
	else
		CHECK(rc == UGStatusSuccess, "activate valid subscription: status %d", (int)rc);
	if (rc == UGStatusSuccess) {
		m->active = true;
		m->changed_active = false;
		m->active_atomic = m->atomic;
		if (st->win_active[w]++ == 0)
			st->win_atomic[w] = m->atomic != 0;
	}
	drain(st);
}

static void
check_touches_decided(struct state *st, int win, unsigned int gen, const char *when)
{
	for (unsigned int i = 0; i < st->ntouches; i++) {
		struct touch *t = &st->touches[i];
		if (t->gen != gen || (win >= 0 && t->win != win))
			continue;
		CHECK(t->accepted + t->rejected == 1,
		      "%s: touch %llu (window %d) accepted %u rejected %u times", when,
		      (unsigned long long)t->id, t->win + 1, t->accepted, t->rejected);
	}
}

static void
op_deactivate(struct state *st, uint8_t slot)
{
	struct sub_model *m = &st->subs[slot % NSUBS];
	if (!m->sub)
		return;
	grail_subscription_deactivate(st->grail, m->sub);
	drain(st);
	if (!m->active)
		return;
	m->active = false;
	int w = (int)m->window - 1;
	for (unsigned int k = 0; k < st->gcap; k++) {
		struct gesture *g = &st->g[k];
		if (g->used && g->sub == m->sub)
			CHECK(!gesture_open(g),
			      "gesture %u still open after its subscription was deactivated",
			      g->id);
	}
	if (--st->win_active[w] == 0)
		check_touches_decided(st, w, st->gen, "window without subscriptions");
}

static void
op_sub_delete(struct state *st, uint8_t slot)
{
	struct sub_model *m = &st->subs[slot % NSUBS];
	if (!m->sub)
		return;
	op_deactivate(st, slot);
	grail_subscription_delete(m->sub);
	memset(m, 0, sizeof(*m));
}

/* ----------------------------- handle ----------------------------- */

static void
handle_new(struct state *st)
{
	CHECK(grail_new(&st->grail) == UGStatusSuccess, "grail_new");
	st->gen++;
	grail_set_log_handler(st->grail, log_handler, st);
	send_device_added(st);
}

static void
handle_delete(struct state *st)
{
	drain(st);
	grail_delete(st->grail);
	st->grail = NULL;
	for (int i = 0; i < NSUBS; i++)
		st->subs[i].active = false;
	for (int w = 0; w < NWIN; w++)
		st->win_active[w] = 0;
	gclear(st);
	/* grail_delete rejects every touch no accepted gesture holds */
	check_touches_decided(st, -1, st->gen, "handle deleted");
}

static void
op_decide(struct state *st, uint8_t b)
{
	bool accept = b & 1;
	unsigned int id;
	switch ((b >> 1) & 3) {
	case 0:
	case 1:
		if (st->nseen == 0)
			return;
		id = st->seen[u8(&st->in) % st->nseen];
		break;
	case 2:
		/* a gesture the client may not have seen yet */
		id = st->nseen ? st->seen[st->nseen - 1] + 1 + (u8(&st->in) & 7) : u8(&st->in);
		break;
	default: {
		id = u32(&st->in) | 0x80000000u;
		UGStatus rc = accept ? grail_accept_gesture(st->grail, id)
				     : grail_reject_gesture(st->grail, id);
		CHECK(rc == UGStatusErrorInvalidGesture, "decision on bogus id %u: status %d",
		      id, (int)rc);
		return;
	}
	}
	decide(st, id, accept);
	drain(st);
}

/* ------------------------------ main ------------------------------ */

enum op {
	OP_SUB,
	OP_ACTIVATE,
	OP_DEACTIVATE,
	OP_BEGIN,
	OP_MOVE,
	OP_END,
	OP_OWN,
	OP_PENDING_END,
	OP_TIME_SMALL,
	OP_TIME_LARGE,
	OP_TIMER,
	OP_DECIDE,
	OP_RECREATE,
	OP_SUB_DELETE,
	OP_HOLD,
	OP_IDLE,
	OP_UPDATE_NOW,
	OP_BEGIN2,
	OP_MOVE2,
	OP_END2,
	NOPS
};

static void
finish(struct state *st)
{
	/* end every touch, run every timer, deactivate everything */
	for (unsigned int i = 0; i < st->ntouches; i++)
		if (st->touches[i].live)
			change_touch(st, &st->touches[i], CHANGE_END);
	run_timers(st, TIME_MAX, 1000);
	advance(st, UINT64_C(1) << 32);
	update_time(st, st->now);
	for (int i = 0; i < NSUBS; i++)
		op_deactivate(st, (uint8_t)i);
	for (unsigned int k = 0; k < st->gcap; k++) {
		struct gesture *g = &st->g[k];
		CHECK(!g->used || !gesture_open(g), "gesture %u was left open", g->id);
	}
	check_touches_decided(st, -1, st->gen, "all subscriptions deactivated");
	handle_delete(st);
	for (unsigned int i = 0; i < st->ntouches; i++) {
		struct touch *t = &st->touches[i];
		CHECK(t->accepted + t->rejected == 1, "touch %llu accepted %u rejected %u times",
		      (unsigned long long)t->id, t->accepted, t->rejected);
	}
	release_held(st);
	for (int i = 0; i < NSUBS; i++)
		grail_subscription_delete(st->subs[i].sub);
	for (int w = 0; w < NWIN; w++)
		frame_backend_frame_delete(st->prev[w]);
	utouch_frame_backend_device_set_touch_handler(st->bdev, NULL, NULL);
	frame_backend_device_delete(st->bdev);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state *st = calloc(1, sizeof(*st));
	if (!st)
		abort();
	st->in.p = data;
	st->in.n = size;
	uint8_t mode = u8(&st->in);
	st->policy = (enum policy)((mode & 7) <= POLICY_INPUT ? (mode & 7) : POLICY_NONE);
	st->xlike = (mode >> 3) & 1;
	st->now = 1000 + ((mode >> 6) & 1) * (UINT64_C(1) << 32);

	st->bdev = frame_backend_device_new();
	if (!st->bdev)
		abort();
	bool direct = !((mode >> 4) & 1);
	float res = ((mode >> 5) & 1) ? 0.0f : 3764.70f;
	frame_backend_device_set_name(st->bdev, "fuzz device");
	frame_backend_device_set_direct(st->bdev, direct);
	frame_backend_device_set_independent(st->bdev, 0);
	frame_backend_device_set_semi_mt(st->bdev, 0);
	frame_backend_device_set_max_touches(st->bdev, MAX_LIVE);
	frame_backend_device_set_window_resolution(st->bdev, res, res);
	frame_backend_device_add_axis(st->bdev, UFAxisTypeX, 0, 10000, res);
	frame_backend_device_add_axis(st->bdev, UFAxisTypeY, 0, 10000, res);
	utouch_frame_backend_device_set_touch_handler(st->bdev, touch_handler, st);
	st->device = frame_backend_device_get_device(st->bdev);
	handle_new(st);

	unsigned int nops = 0;
	while (more(&st->in) && nops++ < 2000) {
		uint8_t op = u8(&st->in) % NOPS;
		uint8_t arg = u8(&st->in);
		trace("op %u arg %u now %llu", op, arg, (unsigned long long)st->now);
		switch ((enum op)op) {
		case OP_SUB:
			op_sub_config(st, arg);
			break;
		case OP_ACTIVATE:
			op_activate(st, arg);
			break;
		case OP_DEACTIVATE:
			op_deactivate(st, arg);
			break;
		case OP_BEGIN:
		case OP_BEGIN2:
			op_begin(st, arg);
			break;
		case OP_MOVE:
		case OP_MOVE2:
			op_move(st, arg);
			break;
		case OP_END:
		case OP_END2:
			op_touch(st, arg, CHANGE_END);
			break;
		case OP_OWN:
			op_touch(st, arg, CHANGE_OWN);
			break;
		case OP_PENDING_END:
			op_touch(st, arg, CHANGE_PENDING_END);
			break;
		case OP_TIME_SMALL:
			advance(st, arg);
			if (arg & 1)
				run_timers(st, st->now, 64);
			break;
		case OP_TIME_LARGE:
			advance(st, (uint64_t)u32(&st->in) << (arg % 9));
			if (arg & 0x80)
				run_timers(st, st->now, 64);
			break;
		case OP_TIMER: {
			uint64_t nt = grail_next_timeout(st->grail);
			update_time(st, nt ? nt : st->now);
			break;
		}
		case OP_DECIDE:
			op_decide(st, arg);
			break;
		case OP_RECREATE:
			handle_delete(st);
			handle_new(st);
			break;
		case OP_SUB_DELETE:
			op_sub_delete(st, arg);
			break;
		case OP_HOLD:
			if (arg & 1)
				st->hold_next = true;
			else
				release_held(st);
			break;
		case OP_IDLE:
			idle_frame(st, arg & 1);
			break;
		case OP_UPDATE_NOW:
			update_time(st, st->now);
			break;
		case NOPS:
			break;
		}
		end_rejected(st);
	}
	finish(st);
	gclear(st);
	free(st);
	return 0;
}
