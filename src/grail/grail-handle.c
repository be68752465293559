/*
 * utouch grail: the handle, its event queue and the public entry points.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "grail-private.h"
#include "util/poison.h"

/* ------------------------------------------------------------------ */
/* logging                                                             */

bool
gr_log_enabled(const struct UGHandle_ *h, int level)
{
	return ut_log_enabled(&h->log, (enum ut_log_priority)level);
}

void
gr_log(struct UGHandle_ *h, int level, const char *fmt, ...)
{
	va_list ap;

	if (!h || !gr_log_enabled(h, level))
		return;
	va_start(ap, fmt);
	ut_logv(&h->log, (enum ut_log_priority)level, fmt, ap);
	va_end(ap);
}

/* The handle's log output when the client installed a handler: the
 * GRAIL_DEBUG level numbers the public handler type documents. */
static void
to_client_handler(void *data, enum ut_log_priority priority, const char *msg)
{
	struct UGHandle_ *h = data;
	int level = priority <= UT_LOG_INFO ? -1 : priority == UT_LOG_WARNING ? 0 : 1;

	h->in_log_handler++;
	h->log_handler(h->log_data, level, msg);
	h->in_log_handler--;
}

GRAIL_PUBLIC void
grail_set_log_handler(UGHandle handle, grail_log_handler handler, void *data)
{
	if (UT_CLIENT_BUG_IF(NULL, !handle))
		return;
	handle->log_handler = handler;
	handle->log_data = handler ? data : NULL;
	/* the handle's own messages only: those about no object (a NULL
	 * handle, a frame object read as the wrong type) stay with the
	 * process default context, which no library's handler takes over */
	ut_log_set_handler(&handle->log, handler ? to_client_handler : NULL, handle);
}

/* ------------------------------------------------------------------ */
/* event pool and queue                                                */

/*
 * Event memory kept between handles.  Without it, a program that deletes a
 * handle and makes the next one (a tool replaying recordings one after
 * another, a test suite, geis making a grail per device as devices come and
 * go) gives the pool's chunks back to malloc, which returns a free top of
 * heap above its trim threshold (128 KiB by default) to the kernel, and the
 * next pool faults fresh pages in, one fault per 4 KiB.  A pool that is
 * destroyed leaves its largest chunks here, up to GR_SPARE_BYTES, and frees
 * the rest; the next pool that needs memory takes all of them.  One
 * atomic exchange each way, no lock; what waits here is freed when the
 * library is unloaded or the process exits.
 */
#define GR_SPARE_BYTES (256u * 1024u)

static _Atomic(struct gr_event_chunk *) spare;

static size_t
chunk_bytes(const struct gr_event_chunk *c)
{
	return sizeof(*c) + c->n * sizeof(c->ev[0]);
}

/* The events of a chunk kept for later are poisoned for ASan (a use of an
 * event after its handle went is then reported); the header is not. */
static void
chunk_keep(struct gr_event_chunk *c)
{
	ut_poison(c->ev, c->n * sizeof(c->ev[0]));
}

static void
chunk_use(struct gr_event_chunk *c)
{
	ut_unpoison(c->ev, c->n * sizeof(c->ev[0]));
}

static void
chunks_free(struct gr_event_chunk *c)
{
	while (c) {
		struct gr_event_chunk *next = c->next;
		chunk_use(c);
		free(c);
		c = next;
	}
}

static __attribute__((destructor)) void
spare_release(void)
{
	chunks_free(atomic_exchange(&spare, NULL));
}

/* Keep the largest chunks of LIST, up to GR_SPARE_BYTES, for the next
 * pool and free the others. */
static void
spare_give(struct gr_event_chunk *list)
{
	/* sort by size, largest first (a pool has a few dozen chunks at most) */
	struct gr_event_chunk *sorted = NULL;
	while (list) {
		struct gr_event_chunk *c = list, **at = &sorted;
		list = c->next;
		while (*at && (*at)->n >= c->n)
			at = &(*at)->next;
		c->next = *at;
		*at = c;
	}

	struct gr_event_chunk *keep = NULL, **tail = &keep;
	size_t bytes = 0;
	while (sorted) {
		struct gr_event_chunk *c = sorted;
		sorted = c->next;
		c->next = NULL;
		if (bytes + chunk_bytes(c) <= GR_SPARE_BYTES) {
			bytes += chunk_bytes(c);
			chunk_keep(c);
			*tail = c;
			tail = &c->next;
		} else {
			chunks_free(c);
		}
	}
	if (keep)
		chunks_free(atomic_exchange(&spare, keep));
}

/*
 * Velocity logs (struct gr_vlog) are kept between handles the same way,
 * for the same programs: a destroyed pool leaves up to GR_SPARE_VLOGS of
 * its released logs (their positions poisoned for ASan), the next pool
 * that needs a log takes them all.
 */
#define GR_SPARE_VLOGS 64

static _Atomic(struct gr_vlog *) spare_vlogs;

static void
vlogs_free(struct gr_vlog *log)
{
	while (log) {
		struct gr_vlog *next = log->next_free;
		ut_unpoison(log->s, sizeof(log->s));
		free(log);
		log = next;
	}
}

static __attribute__((destructor)) void
spare_vlogs_release(void)
{
	vlogs_free(atomic_exchange(&spare_vlogs, NULL));
}

static void
pool_destroy(struct gr_pool *pool)
{
	struct gr_vlog *keep = NULL;
	for (unsigned int n = 0; pool->vlog_free && n < GR_SPARE_VLOGS; n++) {
		struct gr_vlog *log = pool->vlog_free;
		pool->vlog_free = log->next_free;
		ut_poison(log->s, sizeof(log->s));
		log->next_free = keep;
		keep = log;
	}
	vlogs_free(pool->vlog_free);
	if (keep)
		vlogs_free(atomic_exchange(&spare_vlogs, keep));
	struct gr_event_chunk **end = &pool->reserve;
	while (*end)
		end = &(*end)->next;
	*end = pool->chunks;
	spare_give(pool->reserve);
	free(pool);
}

/* Start a new chunk of events; false when out of memory. */
static bool
pool_grow(struct gr_pool *pool)
{
	if (!pool->reserve_taken) {
		pool->reserve = atomic_exchange(&spare, NULL);
		pool->reserve_taken = true;
	}

	unsigned int n;
	struct gr_event_chunk *c = pool->reserve;
	if (c) {
		pool->reserve = c->next;
		chunk_use(c);
		n = c->n;
	} else {
		n = pool->next_chunk ? pool->next_chunk : GR_EVENT_CHUNK_MIN;
		c = malloc(sizeof(*c) + n * sizeof(c->ev[0]));
		if (!c)
			return false;
		c->n = n;
	}
	c->next = pool->chunks;
	pool->chunks = c;
	pool->carved = 0;
	/* a new chunk is twice the largest so far (reserve chunks come
	 * largest first) */
	unsigned int next = n < GR_EVENT_CHUNK_MAX ? n * 2 : n;
	if (next > pool->next_chunk)
		pool->next_chunk = next;
	return true;
}

struct UGEvent_ *
gr_event_alloc(struct UGHandle_ *h)
{
	struct gr_pool *pool = h->pool;
	struct UGEvent_ *ev;

	if (pool->free) {
		ev = ut_container_of(pool->free, struct UGEvent_, link);
		pool->free = pool->free->next;
	} else {
		/* memory is touched only as events are first needed */
		if ((!pool->chunks || pool->carved == pool->chunks->n) && !pool_grow(pool))
			return NULL;
		ev = &pool->chunks->ev[pool->carved++];
		ev->pool = pool;
	}
	/* the slice, frame reference included, is left to the caller, which
	 * always overwrites all of it; the links are written as the event
	 * joins a list (glink only while it has an owner) */
	ev->owner = NULL;
	ev->refcount = 1;
	pool->live++;
	return ev;
}

/* One event or log fewer out of @pool; an orphaned pool (its handle is
 * gone) goes with the last.  Returns whether it went. */
static inline bool
pool_put(struct gr_pool *pool)
{
	pool->live--;
	if (!pool->orphaned || pool->live > 0)
		return false;
	pool_destroy(pool);
	return true;
}

struct gr_vlog *
gr_vlog_new(struct UGHandle_ *h)
{
	struct gr_pool *pool = h->pool;
	struct gr_vlog *log = pool->vlog_free;

	if (!log && !pool->vlogs_taken) {
		/* the first time: what earlier pools left */
		pool->vlogs_taken = true;
		pool->vlog_free = atomic_exchange(&spare_vlogs, NULL);
		for (log = pool->vlog_free; log; log = log->next_free) {
			ut_unpoison(log->s, sizeof(log->s));
			log->pool = pool;
		}
		log = pool->vlog_free;
	}
	if (log) {
		pool->vlog_free = log->next_free;
	} else {
		log = malloc(sizeof(*log));
		if (!log)
			return NULL;
		log->pool = pool;
	}
	log->refs = 1;
	log->n = 0;
	pool->live++;
	return log;
}

void
gr_vlog_release(struct gr_vlog *log)
{
	struct gr_pool *pool = log->pool;

	log->next_free = pool->vlog_free;
	pool->vlog_free = log;
	pool_put(pool);
}

/* Take a queued event off its gesture's list (it stays in the queue). */
static void
event_disown(struct UGEvent_ *ev)
{
	if (!ev->owner)
		return;
	ut_list_remove(&ev->glink);
	ev->owner = NULL;
}

void
gr_event_release(struct UGEvent_ *ev)
{
	struct gr_pool *pool = ev->pool;

	gr_slice_release(&ev->slice);
	event_disown(ev);
	if (pool_put(pool))
		return; /* its memory went with the pool */
	ev->link.next = pool->free;
	pool->free = &ev->link;
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
	ut_list_insert_before(&h->queue, &ev->link);
	ev->owner = g;
	ut_list_insert_before(&g->queued, &ev->glink);
	fd_signal(h);
}

unsigned int
gr_queue_purge(struct gr_gesture *g, unsigned int *n_cf)
{
	unsigned int n = 0;
	*n_cf = 0;
	while (!ut_list_empty(&g->queued)) {
		struct UGEvent_ *ev = ut_container_of(g->queued.next, struct UGEvent_, glink);
		if (ev->slice.construction_finished)
			(*n_cf)++;
		ut_list_remove(&ev->link);
		event_disown(ev);
		/* the queue's reference (the gesture may hold another) */
		gr_event_unref(ev);
		n++;
	}
	return n;
}

void
gr_queue_disown(struct gr_gesture *g)
{
	while (!ut_list_empty(&g->queued))
		event_disown(ut_container_of(g->queued.next, struct UGEvent_, glink));
}

/* ------------------------------------------------------------------ */
/* handle                                                              */

GRAIL_PUBLIC UGStatus
grail_new(UGHandle *handle)
{
	if (UT_CLIENT_BUG_IF(NULL, !handle))
		return UGStatusErrorInvalidValue;
	/* grail reads frame's objects in place (frame-peer.h) */
	if (ut_frame_peer_layout() != UT_FRAME_PEER_LAYOUT) {
		ut_log(NULL, UT_LOG_ERROR, "grail_new: libutouch-frame's object layout "
		       "differs from the one grail was built for");
		return UGStatusErrorResources;
	}

	struct UGHandle_ *h = calloc(1, sizeof(*h));
	if (!h)
		return UGStatusErrorResources;
	h->pool = calloc(1, sizeof(*h->pool));
	if (!h->pool) {
		free(h);
		return UGStatusErrorResources;
	}
	ut_list_init(&h->gesture_fresh);
	/* the eventfd is made when the client first asks for it; until then
	 * there is nothing to signal */
	h->fd = -1;
	h->fd_signalled = true;
	ut_list_init(&h->queue);
	ut_list_init(&h->recognizers);
	ut_list_init(&h->gesture_free);
	ut_log_init(&h->log, "grail");
	*handle = h;
	return UGStatusSuccess;
}

GRAIL_PUBLIC void
grail_delete(UGHandle handle)
{
	if (!handle)
		return;
	struct UGHandle_ *h = handle;

	if (h->in_log_handler) {
		/* the call that logged still runs on the handle */
		ut_log_client_bug(NULL, __func__, "called from the handle's log handler; "
				  "the handle is not deleted");
		return;
	}

	while (!ut_list_empty(&h->recognizers)) {
		struct gr_recognizer *rec =
			ut_container_of(h->recognizers.next, struct gr_recognizer, link);
		for (unsigned int i = 0; i < rec->nsubs; i++)
			gr_subscription_detach(rec->subs[i], h);
		gr_recognizer_destroy(rec, false);
	}
	while (!ut_list_empty(&h->queue)) {
		struct ut_list *l = h->queue.next;
		ut_list_remove(l);
		gr_event_unref(ut_container_of(l, struct UGEvent_, link));
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
	if (UT_CLIENT_BUG_IF(NULL, !handle))
		return -1;
	struct UGHandle_ *h = handle;
	if (h->fd < 0) {
		/*
		 * Made on first use: a client that pulls events after each
		 * frame (geis, the compositor library, the tools) never polls
		 * it, and without it queueing costs no system call.
		 */
		h->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (h->fd < 0) {
			gr_log(h, GR_LOG_ERROR, "grail_get_fd: eventfd: %s", strerror(errno));
			return -1;
		}
		h->fd_signalled = false;
		if (!ut_list_empty(&h->queue))
			fd_signal(h);
	}
	return h->fd;
}

static struct gr_recognizer *
find_recognizer(struct UGHandle_ *h, UFDevice device, UFWindowId window)
{
	struct ut_list *l;
	for (l = h->recognizers.next; l != &h->recognizers; l = l->next) {
		struct gr_recognizer *rec = ut_container_of(l, struct gr_recognizer, link);
		if (rec->device == device && rec->window == window)
			return rec;
	}
	return NULL;
}

/*
 * A subscription is attached to a handle (gr_subscription_attach()) while
 * a recognizer of the handle holds it: then deleting the subscription
 * deactivates it there, and deleting the handle detaches it.  Detach @sub
 * from @h unless a recognizer other than @except still holds it (a
 * subscription activated again for another device or window).
 */
static void
detach_unless_held(struct UGHandle_ *h, struct UGSubscription_ *sub,
		   const struct gr_recognizer *except)
{
	for (struct ut_list *l = h->recognizers.next; l != &h->recognizers; l = l->next) {
		const struct gr_recognizer *rec = ut_container_of(l, struct gr_recognizer, link);
		if (rec == except)
			continue;
		for (unsigned int i = 0; i < rec->nsubs; i++)
			if (rec->subs[i] == sub)
				return;
	}
	gr_subscription_detach(sub, h);
}

GRAIL_PUBLIC UGStatus
grail_subscription_activate(UGHandle handle, UGSubscription subscription)
{
	if (UT_CLIENT_BUG_IF(NULL, !handle || !subscription))
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
		detach_unless_held(h, sub, NULL); /* rec did not take it */
		return UGStatusErrorResources;
	}
	return UGStatusSuccess;
}

GRAIL_PUBLIC void
grail_subscription_deactivate(UGHandle handle, UGSubscription subscription)
{
	if (UT_CLIENT_BUG_IF(NULL, !handle || !subscription))
		return;
	struct UGHandle_ *h = handle;
	struct ut_list *l = h->recognizers.next;
	bool active = false;

	/* found by address only: a subscription deleted since (it detached
	 * itself) is no longer anywhere, and is not read */
	while (l != &h->recognizers) {
		struct ut_list *next = l->next;
		struct gr_recognizer *rec = ut_container_of(l, struct gr_recognizer, link);
		for (unsigned int i = 0; i < rec->nsubs; i++)
			if (rec->subs[i] == subscription)
				active = true;
		gr_recognizer_remove_subscription(rec, subscription);
		if (rec->nsubs == 0)
			gr_recognizer_destroy(rec, true);
		l = next;
	}
	/* attached exactly while a recognizer of the handle holds it */
	if (active)
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
	if (UT_CLIENT_BUG_IF(NULL, !handle || !event))
		return;
	struct UGHandle_ *h = handle;
	struct ut_frame_event_view view;

	ut_frame_event_view(event, &view);
	switch (view.type) {
	case UFEventTypeDeviceAdded:
		return;
	case UFEventTypeDeviceRemoved: {
		UFDevice dev = NULL;
		if ((frame_event_get_property)(event, UFEventPropertyDevice, &dev) !=
		    UFStatusSuccess)
			return;
		struct ut_list *l = h->recognizers.next;
		while (l != &h->recognizers) {
			struct ut_list *next = l->next;
			struct gr_recognizer *rec =
				ut_container_of(l, struct gr_recognizer, link);
			if (rec->device == dev) {
				for (unsigned int i = 0; i < rec->nsubs; i++)
					detach_unless_held(h, rec->subs[i], rec);
				gr_recognizer_destroy(rec, true);
			}
			l = next;
		}
		return;
	}
	case UFEventTypeFrame:
		break;
	default:
		ut_log_client_bug(&h->log, __func__, "event of unknown type %d", (int)view.type);
		return;
	}

	UFFrame frame = view.frame;
	if (!frame) {
		ut_log_client_bug(&h->log, __func__, "frame event without a frame");
		return;
	}
	UFDevice device = view.device;
	UFWindowId window = view.window;
	uint64_t time = view.time;

	struct gr_recognizer *rec = find_recognizer(h, device, window);
	if (!rec) {
		reject_begin_touches(frame, device, window);
		return;
	}
	gr_recognizer_process_frame(rec, event, frame, view.num_touches, time);
}

/*
 * grail_get_event() on an empty queue, once per drain: out of line, so that
 * the call that returns an event (once per slice) needs no stack frame.
 */
static __attribute__((noinline)) UGStatus
no_event(struct UGHandle_ *h)
{
	/*
	 * The eventfd is cleared lazily: a client that drains the queue after
	 * every frame (the common case) never pays for the two syscalls per
	 * frame.  A client that polls gets at most one spurious wake-up: its
	 * second NoEvent in a row clears the fd.
	 */
	if (h->noevent_pending)
		fd_drain(h);
	h->noevent_pending = true;
	return UGStatusErrorNoEvent;
}

GRAIL_PUBLIC UGStatus
grail_get_event(UGHandle handle, UGEvent *event)
{
	if (UT_CLIENT_BUG_IF(NULL, !handle || !event))
		return UGStatusErrorInvalidValue;
	struct UGHandle_ *h = handle;

	if (ut_list_empty(&h->queue))
		return no_event(h);
	h->noevent_pending = false;
	struct ut_list *l = h->queue.next;
	ut_list_remove(l);
	struct UGEvent_ *ev = ut_container_of(l, struct UGEvent_, link);
	event_disown(ev);
	*event = ev;
	return UGStatusSuccess;
}

GRAIL_PUBLIC void
grail_update_time(UGHandle handle, uint64_t time)
{
	if (UT_CLIENT_BUG_IF(NULL, !handle))
		return;
	struct ut_list *l = handle->recognizers.next;
	while (l != &handle->recognizers) {
		struct ut_list *next = l->next;
		gr_recognizer_update_time(ut_container_of(l, struct gr_recognizer, link),
					  time);
		l = next;
	}
}

GRAIL_PUBLIC uint64_t
grail_next_timeout(UGHandle handle)
{
	if (UT_CLIENT_BUG_IF(NULL, !handle))
		return 0;
	uint64_t best = 0;
	struct ut_list *l;
	for (l = handle->recognizers.next; l != &handle->recognizers; l = l->next) {
		struct gr_recognizer *rec = ut_container_of(l, struct gr_recognizer, link);
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
	struct ut_list *l;
	for (l = h->recognizers.next; l != &h->recognizers; l = l->next) {
		struct gr_recognizer *rec = ut_container_of(l, struct gr_recognizer, link);
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
	if (UT_CLIENT_BUG_IF(NULL, !handle))
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
	if (UT_CLIENT_BUG_IF(NULL, !handle))
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
	if (UT_CLIENT_BUG_IF(NULL, !event || !value))
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
	return UT_CLIENT_BUG_IF(NULL, !event) ? 0 : event->slice.time;
}

GRAIL_PUBLIC UGStatus
grail_slice_get_touch_id(const UGSlice slice, unsigned int index, UFTouchId *touch_id)
{
	if (UT_CLIENT_BUG_IF(NULL, !slice || !touch_id))
		return UGStatusErrorInvalidValue;
	if (index >= slice->num_touches)
		return UGStatusErrorInvalidIndex;
	*touch_id = slice->touch_ids[index];
	return UGStatusSuccess;
}

GRAIL_PUBLIC UGStatus
grail_slice_get_property(const UGSlice slice, UGSliceProperty property, void *value)
{
	float other; /* the coordinate of the centre of rotation not asked for */

	if (UT_CLIENT_BUG_IF(NULL, !slice || !value))
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
		gr_slice_linear(slice);
		*(const UGTransform **)value = (const UGTransform *)&slice->transform;
		return UGStatusSuccess;
	case UGSlicePropertyCumulativeTransform:
		gr_slice_linear(slice);
		*(const UGTransform **)value = (const UGTransform *)&slice->cumulative;
		return UGStatusSuccess;
	case UGSlicePropertyCenterOfRotationX:
		gr_slice_center_of_rotation(slice, (float *)value, &other);
		return UGStatusSuccess;
	case UGSlicePropertyCenterOfRotationY:
		gr_slice_center_of_rotation(slice, &other, (float *)value);
		return UGStatusSuccess;
	case UGSlicePropertyConstructionFinished:
		*(int *)value = slice->construction_finished;
		return UGStatusSuccess;
	case UGSlicePropertyCanceled:
		*(int *)value = slice->canceled;
		return UGStatusSuccess;
	case UGSlicePropertyVelocityX:
	case UGSlicePropertyVelocityY: {
		float vx, vy;
		gr_slice_read_velocity(slice, &vx, &vy);
		*(float *)value = property == UGSlicePropertyVelocityX ? vx : vy;
		return UGStatusSuccess;
	}
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
	return UT_CLIENT_BUG_IF(NULL, !slice) ? 0 : slice->id;
}

GRAIL_PUBLIC UGGestureState
grail_slice_get_state(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? UGGestureStateBegin : slice->state;
}

GRAIL_PUBLIC UGSubscription
grail_slice_get_subscription(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? NULL : slice->subscription;
}

GRAIL_PUBLIC UGGestureTypeMask
grail_slice_get_recognized(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? 0 : slice->recognized;
}

GRAIL_PUBLIC unsigned int
grail_slice_get_num_touches(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? 0 : slice->num_touches;
}

GRAIL_PUBLIC float
grail_slice_get_original_center_x(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? 0.0f : slice->original_center_x;
}

GRAIL_PUBLIC float
grail_slice_get_original_center_y(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? 0.0f : slice->original_center_y;
}

GRAIL_PUBLIC float
grail_slice_get_original_radius(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? 0.0f : slice->original_radius;
}

GRAIL_PUBLIC float
grail_slice_get_center_of_rotation_x(const UGSlice slice)
{
	float x, y;
	if (UT_CLIENT_BUG_IF(NULL, !slice))
		return 0.0f;
	gr_slice_center_of_rotation(slice, &x, &y);
	return x;
}

GRAIL_PUBLIC float
grail_slice_get_center_of_rotation_y(const UGSlice slice)
{
	float x, y;
	if (UT_CLIENT_BUG_IF(NULL, !slice))
		return 0.0f;
	gr_slice_center_of_rotation(slice, &x, &y);
	return y;
}

GRAIL_PUBLIC const UGTransform *
grail_slice_get_transform(const UGSlice slice)
{
	if (UT_CLIENT_BUG_IF(NULL, !slice))
		return NULL;
	gr_slice_linear(slice);
	return (const UGTransform *)&slice->transform;
}

GRAIL_PUBLIC const UGTransform *
grail_slice_get_cumulative_transform(const UGSlice slice)
{
	if (UT_CLIENT_BUG_IF(NULL, !slice))
		return NULL;
	gr_slice_linear(slice);
	return (const UGTransform *)&slice->cumulative;
}

GRAIL_PUBLIC UFFrame
grail_slice_get_frame(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? NULL : slice->frame;
}

GRAIL_PUBLIC int
grail_slice_get_construction_finished(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? 0 : slice->construction_finished;
}

GRAIL_PUBLIC int
grail_slice_get_canceled(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? 0 : slice->canceled;
}

GRAIL_PUBLIC float
grail_slice_get_velocity_x(const UGSlice slice)
{
	float vx = 0.0f, vy = 0.0f;
	if (!UT_CLIENT_BUG_IF(NULL, !slice))
		gr_slice_read_velocity(slice, &vx, &vy);
	return vx;
}

GRAIL_PUBLIC float
grail_slice_get_velocity_y(const UGSlice slice)
{
	float vx = 0.0f, vy = 0.0f;
	if (!UT_CLIENT_BUG_IF(NULL, !slice))
		gr_slice_read_velocity(slice, &vx, &vy);
	return vy;
}

GRAIL_PUBLIC unsigned int
grail_slice_get_tap_count(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? 0 : slice->tap_count;
}

GRAIL_PUBLIC unsigned int
grail_slice_get_edge(const UGSlice slice)
{
	return UT_CLIENT_BUG_IF(NULL, !slice) ? 0 : slice->edge;
}
