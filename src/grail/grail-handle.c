/*
 * utouch grail: the handle, its event queue and the public entry points.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "grail-private.h"

/* ------------------------------------------------------------------ */
/* logging                                                             */

bool
gr_log_enabled(const struct UGHandle_ *h, int level)
{
	if (h->log_handler)
		return true;
	return level >= h->env_level;
}

void
gr_log(struct UGHandle_ *h, int level, const char *fmt, ...)
{
	if (!h || !gr_log_enabled(h, level))
		return;

	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);

	if (h->log_handler) {
		h->log_handler(h->log_data, level, buf);
		return;
	}
	const char *prefix = level <= GR_LOG_DEBUG ? "debug"
			     : level == GR_LOG_WARN ? "warning"
						    : "error";
	fprintf(stderr, "grail %s: %s\n", prefix, buf);
}

static int
env_log_level(void)
{
	const char *s = getenv("GRAIL_DEBUG");
	if (!s || !*s)
		return GR_LOG_OFF;
	char *end = NULL;
	long v = strtol(s, &end, 10);
	if (end == s)
		return GR_LOG_OFF;
	if (v < GR_LOG_DEBUG)
		v = GR_LOG_DEBUG;
	if (v > GR_LOG_ERROR)
		v = GR_LOG_ERROR;
	return (int)v;
}

GRAIL_PUBLIC void
grail_set_log_handler(UGHandle handle, grail_log_handler handler, void *data)
{
	if (!handle)
		return;
	handle->log_handler = handler;
	handle->log_data = handler ? data : NULL;
}

/* ------------------------------------------------------------------ */
/* event pool and queue                                                */

static void
pool_destroy(struct gr_pool *pool)
{
	while (pool->chunks) {
		struct gr_event_chunk *c = pool->chunks;
		pool->chunks = c->next;
		free(c);
	}
	free(pool);
}

/* Add a chunk of events to the free list; false when out of memory. */
static bool
pool_grow(struct gr_pool *pool)
{
	unsigned int n = pool->next_chunk ? pool->next_chunk : GR_EVENT_CHUNK_MIN;
	struct gr_event_chunk *c = malloc(sizeof(*c) + n * sizeof(c->ev[0]));
	if (!c)
		return false;
	c->n = n;
	c->next = pool->chunks;
	pool->chunks = c;
	for (unsigned int i = 0; i < n; i++)
		gr_list_insert_before(&pool->free, &c->ev[i].link);
	if (n < GR_EVENT_CHUNK_MAX)
		pool->next_chunk = n * 2;
	else
		pool->next_chunk = n;
	return true;
}

struct UGEvent_ *
gr_event_alloc(struct UGHandle_ *h)
{
	struct gr_pool *pool = h->pool;

	if (gr_list_empty(&pool->free) && !pool_grow(pool))
		return NULL;
	struct gr_list *l = pool->free.next;
	gr_list_remove(l);
	struct UGEvent_ *ev = gr_container_of(l, struct UGEvent_, link);
	/* the slice is left to the caller, which always overwrites all of it */
	ev->slice.frame_event = NULL;
	ev->slice.frame = NULL;
	ev->owner = NULL;
	gr_list_init(&ev->link);
	gr_list_init(&ev->glink);
	ev->refcount = 1;
	ev->pool = pool;
	pool->live++;
	return ev;
}

/* Take a queued event off its gesture's list (it stays in the queue). */
static void
event_disown(struct UGEvent_ *ev)
{
	if (!ev->owner)
		return;
	gr_list_remove(&ev->glink);
	gr_list_init(&ev->glink);
	ev->owner = NULL;
}

void
gr_event_release(struct UGEvent_ *ev)
{
	struct gr_pool *pool = ev->pool;

	gr_slice_clear_frame(&ev->slice);
	event_disown(ev);
	pool->live--;
	if (pool->orphaned && pool->live == 0) {
		pool_destroy(pool);
		return;
	}
	gr_list_insert_before(&pool->free, &ev->link);
}

static void
fd_signal(struct UGHandle_ *h)
{
	if (h->fd_signalled || h->fd < 0)
		return;
	uint64_t one = 1;
	ssize_t r;
	do {
		r = write(h->fd, &one, sizeof(one));
	} while (r < 0 && errno == EINTR);
	h->fd_signalled = true;
}

static void
fd_drain(struct UGHandle_ *h)
{
	if (!h->fd_signalled || h->fd < 0)
		return;
	uint64_t v;
	ssize_t r;
	do {
		r = read(h->fd, &v, sizeof(v));
	} while (r < 0 && errno == EINTR);
	h->fd_signalled = false;
}

void
gr_queue_push(struct UGHandle_ *h, struct UGEvent_ *ev, struct gr_gesture *g)
{
	gr_list_insert_before(&h->queue, &ev->link);
	ev->owner = g;
	gr_list_insert_before(&g->queued, &ev->glink);
	fd_signal(h);
}

unsigned int
gr_queue_purge(struct gr_gesture *g, unsigned int *n_cf)
{
	unsigned int n = 0;
	*n_cf = 0;
	while (!gr_list_empty(&g->queued)) {
		struct UGEvent_ *ev = gr_container_of(g->queued.next, struct UGEvent_, glink);
		if (ev->slice.construction_finished)
			(*n_cf)++;
		gr_list_remove(&ev->link);
		gr_event_release(ev); /* unlinks glink */
		n++;
	}
	return n;
}

void
gr_queue_disown(struct gr_gesture *g)
{
	while (!gr_list_empty(&g->queued))
		event_disown(gr_container_of(g->queued.next, struct UGEvent_, glink));
}

/* ------------------------------------------------------------------ */
/* handle                                                              */

GRAIL_PUBLIC UGStatus
grail_new(UGHandle *handle)
{
	if (!handle)
		return UGStatusErrorInvalidValue;

	struct UGHandle_ *h = calloc(1, sizeof(*h));
	if (!h)
		return UGStatusErrorResources;
	h->pool = calloc(1, sizeof(*h->pool));
	if (!h->pool) {
		free(h);
		return UGStatusErrorResources;
	}
	gr_list_init(&h->pool->free);
	gr_list_init(&h->gesture_fresh);
	h->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (h->fd < 0) {
		free(h->pool);
		free(h);
		return UGStatusErrorResources;
	}
	gr_list_init(&h->queue);
	gr_list_init(&h->recognizers);
	gr_list_init(&h->gesture_free);
	h->env_level = env_log_level();
	*handle = h;
	return UGStatusSuccess;
}

GRAIL_PUBLIC void
grail_delete(UGHandle handle)
{
	if (!handle)
		return;
	struct UGHandle_ *h = handle;

	while (!gr_list_empty(&h->recognizers)) {
		struct gr_recognizer *rec =
			gr_container_of(h->recognizers.next, struct gr_recognizer, link);
		for (unsigned int i = 0; i < rec->nsubs; i++)
			gr_subscription_detach(rec->subs[i], h);
		gr_recognizer_destroy(rec, false);
	}
	while (!gr_list_empty(&h->queue)) {
		struct gr_list *l = h->queue.next;
		gr_list_remove(l);
		gr_event_release(gr_container_of(l, struct UGEvent_, link));
	}
	while (h->gesture_chunks) {
		struct gr_gesture_chunk *c = h->gesture_chunks;
		h->gesture_chunks = c->next;
		free(c);
	}
	if (h->pool->live == 0)
		pool_destroy(h->pool);
	else
		h->pool->orphaned = true;
	if (h->fd >= 0)
		close(h->fd);
	free(h);
}

GRAIL_PUBLIC int
grail_get_fd(UGHandle handle)
{
	return handle ? handle->fd : -1;
}

static struct gr_recognizer *
find_recognizer(struct UGHandle_ *h, UFDevice device, UFWindowId window)
{
	struct gr_list *l;
	for (l = h->recognizers.next; l != &h->recognizers; l = l->next) {
		struct gr_recognizer *rec = gr_container_of(l, struct gr_recognizer, link);
		if (rec->device == device && rec->window == window)
			return rec;
	}
	return NULL;
}

GRAIL_PUBLIC UGStatus
grail_subscription_activate(UGHandle handle, UGSubscription subscription)
{
	if (!handle || !subscription)
		return UGStatusErrorInvalidValue;
	struct UGHandle_ *h = handle;
	struct UGSubscription_ *sub = subscription;

	if (!gr_subscription_is_valid(sub)) {
		gr_log(h, GR_LOG_WARN, "client bug: activating an invalid subscription");
		return UGStatusErrorInvalidSubscription;
	}

	struct gr_recognizer *rec = find_recognizer(h, sub->device, sub->window);
	if (rec && rec->atomic != (sub->atomic != 0)) {
		if (rec->nsubs > 0) {
			gr_log(h, GR_LOG_WARN,
			       "client bug: subscription atomicity differs from the "
			       "window's other subscriptions");
			return UGStatusErrorAtomicity;
		}
		gr_recognizer_destroy(rec, true);
		rec = NULL;
	}
	bool created = false;
	if (!rec) {
		rec = gr_recognizer_new(h, sub->device, sub->window, sub->atomic != 0);
		if (!rec)
			return UGStatusErrorResources;
		created = true;
	}
	if (!gr_subscription_attach(sub, h) || !gr_recognizer_add_subscription(rec, sub)) {
		if (created)
			gr_recognizer_destroy(rec, true);
		return UGStatusErrorResources;
	}
	return UGStatusSuccess;
}

GRAIL_PUBLIC void
grail_subscription_deactivate(UGHandle handle, UGSubscription subscription)
{
	if (!handle || !subscription)
		return;
	struct UGHandle_ *h = handle;
	struct gr_list *l = h->recognizers.next;

	while (l != &h->recognizers) {
		struct gr_list *next = l->next;
		struct gr_recognizer *rec = gr_container_of(l, struct gr_recognizer, link);
		gr_recognizer_remove_subscription(rec, subscription);
		if (rec->nsubs == 0)
			gr_recognizer_destroy(rec, true);
		l = next;
	}
	gr_subscription_detach(subscription, h);
}

static void
reject_begin_touches(UFFrame frame, UFDevice device, UFWindowId window)
{
	uint32_t n = frame_frame_get_num_touches(frame);
	for (uint32_t i = 0; i < n; i++) {
		UFTouch t = NULL;
		if (frame_frame_get_touch_by_index(frame, i, &t) != UFStatusSuccess || !t)
			continue;
		if (frame_touch_get_state(t) == UFTouchStateBegin)
			frame_reject_touch(device, window, frame_touch_get_id(t));
	}
}

GRAIL_PUBLIC void
grail_process_frame_event(UGHandle handle, const UFEvent event)
{
	if (!handle || !event)
		return;
	struct UGHandle_ *h = handle;

	switch (event->type) {
	case UFEventTypeDeviceAdded:
		return;
	case UFEventTypeDeviceRemoved: {
		UFDevice dev = NULL;
		if ((frame_event_get_property)(event, UFEventPropertyDevice, &dev) !=
		    UFStatusSuccess)
			return;
		struct gr_list *l = h->recognizers.next;
		while (l != &h->recognizers) {
			struct gr_list *next = l->next;
			struct gr_recognizer *rec =
				gr_container_of(l, struct gr_recognizer, link);
			if (rec->device == dev) {
				for (unsigned int i = 0; i < rec->nsubs; i++)
					gr_subscription_detach(rec->subs[i], h);
				gr_recognizer_destroy(rec, true);
			}
			l = next;
		}
		return;
	}
	case UFEventTypeFrame:
		break;
	default:
		return;
	}

	/* the fields the frame and event getters would return */
	UFFrame frame = event->frame;
	if (!frame) {
		gr_log(h, GR_LOG_WARN, "frame event without a frame");
		return;
	}
	UFDevice device = frame->device;
	UFWindowId window = frame->window_id;
	uint64_t time = event->time;

	struct gr_recognizer *rec = find_recognizer(h, device, window);
	if (!rec) {
		reject_begin_touches(frame, device, window);
		return;
	}
	gr_recognizer_process_frame(rec, event, frame, time);
}

GRAIL_PUBLIC UGStatus
grail_get_event(UGHandle handle, UGEvent *event)
{
	if (!handle || !event)
		return UGStatusErrorInvalidValue;
	struct UGHandle_ *h = handle;

	if (gr_list_empty(&h->queue)) {
		/*
		 * The eventfd is cleared lazily: a client that drains the queue
		 * after every frame (the common case) never pays for the two
		 * syscalls per frame.  A client that polls gets at most one
		 * spurious wake-up: its second NoEvent in a row clears the fd.
		 */
		if (h->noevent_pending)
			fd_drain(h);
		h->noevent_pending = true;
		return UGStatusErrorNoEvent;
	}
	h->noevent_pending = false;
	struct gr_list *l = h->queue.next;
	gr_list_remove(l);
	struct UGEvent_ *ev = gr_container_of(l, struct UGEvent_, link);
	event_disown(ev);
	*event = ev;
	return UGStatusSuccess;
}

GRAIL_PUBLIC void
grail_update_time(UGHandle handle, uint64_t time)
{
	if (!handle)
		return;
	struct gr_list *l = handle->recognizers.next;
	while (l != &handle->recognizers) {
		struct gr_list *next = l->next;
		gr_recognizer_update_time(gr_container_of(l, struct gr_recognizer, link),
					  time);
		l = next;
	}
}

GRAIL_PUBLIC uint64_t
grail_next_timeout(UGHandle handle)
{
	if (!handle)
		return 0;
	uint64_t best = 0;
	struct gr_list *l;
	for (l = handle->recognizers.next; l != &handle->recognizers; l = l->next) {
		const struct gr_recognizer *rec =
			gr_container_of(l, struct gr_recognizer, link);
		if (!gr_recognizer_has_undecided(rec))
			continue; /* no timeout */
		uint64_t t = gr_recognizer_next_timeout(rec);
		if (t && (!best || t < best))
			best = t;
	}
	return best;
}

static struct gr_gesture *
find_undecided(struct UGHandle_ *h, unsigned int id, struct gr_recognizer **out)
{
	struct gr_list *l;
	for (l = h->recognizers.next; l != &h->recognizers; l = l->next) {
		struct gr_recognizer *rec = gr_container_of(l, struct gr_recognizer, link);
		struct gr_gesture *g = gr_recognizer_find_undecided(rec, id);
		if (g) {
			*out = rec;
			return g;
		}
	}
	return NULL;
}

GRAIL_PUBLIC UGStatus
grail_accept_gesture(UGHandle handle, unsigned int id)
{
	if (!handle)
		return UGStatusErrorInvalidValue;
	struct gr_recognizer *rec = NULL;
	struct gr_gesture *g = find_undecided(handle, id, &rec);
	if (!g)
		return UGStatusErrorInvalidGesture;
	if (rec->atomic) {
		gr_log(handle, GR_LOG_WARN,
		       "client bug: accepting gesture %u of an atomic subscription", id);
		return UGStatusErrorAtomicity;
	}
	return gr_recognizer_accept(rec, g);
}

GRAIL_PUBLIC UGStatus
grail_reject_gesture(UGHandle handle, unsigned int id)
{
	if (!handle)
		return UGStatusErrorInvalidValue;
	struct gr_recognizer *rec = NULL;
	struct gr_gesture *g = find_undecided(handle, id, &rec);
	if (!g)
		return UGStatusErrorInvalidGesture;
	if (rec->atomic) {
		gr_log(handle, GR_LOG_WARN,
		       "client bug: rejecting gesture %u of an atomic subscription", id);
		return UGStatusErrorAtomicity;
	}
	gr_recognizer_reject(rec, g);
	return UGStatusSuccess;
}

/* ------------------------------------------------------------------ */
/* events and slices                                                   */

GRAIL_PUBLIC void
grail_event_ref(UGEvent event)
{
	if (event)
		event->refcount++;
}

GRAIL_PUBLIC void
grail_event_unref(UGEvent event)
{
	if (!event || event->refcount == 0)
		return;
	if (--event->refcount == 0)
		gr_event_release(event);
}

GRAIL_PUBLIC UGStatus
grail_event_get_property(const UGEvent event, UGEventProperty property, void *value)
{
	if (!event || !value)
		return UGStatusErrorInvalidValue;
	switch (property) {
	case UGEventPropertyType:
		*(UGEventType *)value = UGEventTypeSlice;
		return UGStatusSuccess;
	case UGEventPropertySlice:
		*(UGSlice *)value = &event->slice;
		return UGStatusSuccess;
	case UGEventPropertyTime:
		*(uint64_t *)value = event->slice.time;
		return UGStatusSuccess;
	}
	return UGStatusErrorUnknownProperty;
}

GRAIL_PUBLIC UGEventType
grail_event_get_type(const UGEvent event)
{
	(void)event;
	return UGEventTypeSlice;
}

GRAIL_PUBLIC uint64_t
grail_event_get_time(const UGEvent event)
{
	return event ? event->slice.time : 0;
}

GRAIL_PUBLIC UGStatus
grail_slice_get_touch_id(const UGSlice slice, unsigned int index, UFTouchId *touch_id)
{
	if (!slice || !touch_id)
		return UGStatusErrorInvalidValue;
	if (index >= slice->num_touches)
		return UGStatusErrorInvalidIndex;
	*touch_id = slice->touch_ids[index];
	return UGStatusSuccess;
}

GRAIL_PUBLIC UGStatus
grail_slice_get_property(const UGSlice slice, UGSliceProperty property, void *value)
{
	if (!slice || !value)
		return UGStatusErrorInvalidValue;
	switch (property) {
	case UGSlicePropertyId:
		*(unsigned int *)value = slice->id;
		return UGStatusSuccess;
	case UGSlicePropertyState:
		*(UGGestureState *)value = slice->state;
		return UGStatusSuccess;
	case UGSlicePropertySubscription:
		*(UGSubscription *)value = slice->subscription;
		return UGStatusSuccess;
	case UGSlicePropertyRecognized:
		*(UGGestureTypeMask *)value = slice->recognized;
		return UGStatusSuccess;
	case UGSlicePropertyNumTouches:
		*(unsigned int *)value = slice->num_touches;
		return UGStatusSuccess;
	case UGSlicePropertyFrame:
		*(UFFrame *)value = slice->frame;
		return UGStatusSuccess;
	case UGSlicePropertyOriginalCenterX:
		*(float *)value = slice->original_center_x;
		return UGStatusSuccess;
	case UGSlicePropertyOriginalCenterY:
		*(float *)value = slice->original_center_y;
		return UGStatusSuccess;
	case UGSlicePropertyOriginalRadius:
		*(float *)value = slice->original_radius;
		return UGStatusSuccess;
	case UGSlicePropertyTransform:
		*(const UGTransform **)value = (const UGTransform *)&slice->transform;
		return UGStatusSuccess;
	case UGSlicePropertyCumulativeTransform:
		*(const UGTransform **)value = (const UGTransform *)&slice->cumulative;
		return UGStatusSuccess;
	case UGSlicePropertyCenterOfRotationX:
		*(float *)value = slice->center_of_rotation_x;
		return UGStatusSuccess;
	case UGSlicePropertyCenterOfRotationY:
		*(float *)value = slice->center_of_rotation_y;
		return UGStatusSuccess;
	case UGSlicePropertyConstructionFinished:
		*(int *)value = slice->construction_finished;
		return UGStatusSuccess;
	case UGSlicePropertyCanceled:
		*(int *)value = slice->canceled;
		return UGStatusSuccess;
	case UGSlicePropertyVelocityX:
		*(float *)value = slice->velocity_x;
		return UGStatusSuccess;
	case UGSlicePropertyVelocityY:
		*(float *)value = slice->velocity_y;
		return UGStatusSuccess;
	case UGSlicePropertyTapCount:
		*(unsigned int *)value = slice->tap_count;
		return UGStatusSuccess;
	case UGSlicePropertyEdge:
		*(unsigned int *)value = slice->edge;
		return UGStatusSuccess;
	}
	return UGStatusErrorUnknownProperty;
}

GRAIL_PUBLIC unsigned int
grail_slice_get_id(const UGSlice slice)
{
	return slice ? slice->id : 0;
}

GRAIL_PUBLIC UGGestureState
grail_slice_get_state(const UGSlice slice)
{
	return slice ? slice->state : UGGestureStateBegin;
}

GRAIL_PUBLIC UGSubscription
grail_slice_get_subscription(const UGSlice slice)
{
	return slice ? slice->subscription : NULL;
}

GRAIL_PUBLIC UGGestureTypeMask
grail_slice_get_recognized(const UGSlice slice)
{
	return slice ? slice->recognized : 0;
}

GRAIL_PUBLIC unsigned int
grail_slice_get_num_touches(const UGSlice slice)
{
	return slice ? slice->num_touches : 0;
}

GRAIL_PUBLIC float
grail_slice_get_original_center_x(const UGSlice slice)
{
	return slice ? slice->original_center_x : 0.0f;
}

GRAIL_PUBLIC float
grail_slice_get_original_center_y(const UGSlice slice)
{
	return slice ? slice->original_center_y : 0.0f;
}

GRAIL_PUBLIC float
grail_slice_get_original_radius(const UGSlice slice)
{
	return slice ? slice->original_radius : 0.0f;
}

GRAIL_PUBLIC float
grail_slice_get_center_of_rotation_x(const UGSlice slice)
{
	return slice ? slice->center_of_rotation_x : 0.0f;
}

GRAIL_PUBLIC float
grail_slice_get_center_of_rotation_y(const UGSlice slice)
{
	return slice ? slice->center_of_rotation_y : 0.0f;
}

GRAIL_PUBLIC const UGTransform *
grail_slice_get_transform(const UGSlice slice)
{
	return slice ? (const UGTransform *)&slice->transform : NULL;
}

GRAIL_PUBLIC const UGTransform *
grail_slice_get_cumulative_transform(const UGSlice slice)
{
	return slice ? (const UGTransform *)&slice->cumulative : NULL;
}

GRAIL_PUBLIC UFFrame
grail_slice_get_frame(const UGSlice slice)
{
	return slice ? slice->frame : NULL;
}

GRAIL_PUBLIC int
grail_slice_get_construction_finished(const UGSlice slice)
{
	return slice ? slice->construction_finished : 0;
}

GRAIL_PUBLIC int
grail_slice_get_canceled(const UGSlice slice)
{
	return slice ? slice->canceled : 0;
}

GRAIL_PUBLIC float
grail_slice_get_velocity_x(const UGSlice slice)
{
	return slice ? slice->velocity_x : 0.0f;
}

GRAIL_PUBLIC float
grail_slice_get_velocity_y(const UGSlice slice)
{
	return slice ? slice->velocity_y : 0.0f;
}

GRAIL_PUBLIC unsigned int
grail_slice_get_tap_count(const UGSlice slice)
{
	return slice ? slice->tap_count : 0;
}

GRAIL_PUBLIC unsigned int
grail_slice_get_edge(const UGSlice slice)
{
	return slice ? slice->edge : 0;
}
