/*
 * The Geis instance: init arguments, configuration, the epoll
 * multiplexor and event delivery.  The backend is chosen in
 * geis-backend.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "geis-private.h"
#include "util/clock.h"
#include "backend-evdev.h"
#include "input/recording/recording.h"
#include <libevdev/libevdev.h>


/* ---- multiplexor ---- */

int
gs_mux_add(Geis geis, int fd, uint32_t events, geis_mux_fn fn, void *data)
{
	struct geis_mux_entry *e;
	struct epoll_event ev;

	if (!geis || fd < 0 || !fn)
		return -EINVAL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->fd = fd;
	e->fn = fn;
	e->data = data;
	memset(&ev, 0, sizeof(ev));
	ev.events = events;
	ev.data.ptr = e;
	if (epoll_ctl(geis->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int err = -errno;

		free(e);
		return err;
	}
	ut_list_insert_after(&geis->mux, &e->link);
	return 0;
}

void
gs_mux_remove(Geis geis, int fd)
{
	if (!geis)
		return;
	ut_list_for_each(pos, &geis->mux) {
		struct geis_mux_entry *e = ut_container_of(pos, struct geis_mux_entry, link);

		if (e->fd == fd) {
			epoll_ctl(geis->epfd, EPOLL_CTL_DEL, fd, NULL);
			ut_list_remove(&e->link);
			free(e);
			return;
		}
	}
}

/*
 * Make the wake fd readable.  Once it is, further wake-ups until the next
 * dispatch reads it need no system call: a dispatch that queues a gesture
 * event per slice writes the eventfd once, not once per event.
 */
void
gs_wake(Geis geis)
{
	uint64_t one = 1;

	if (!geis || geis->wakefd < 0 || geis->wake_signalled)
		return;
	if (write(geis->wakefd, &one, sizeof(one)) == sizeof(one) || errno == EAGAIN)
		geis->wake_signalled = 1;
}

static void
wake_clear(Geis geis)
{
	uint64_t v;

	if (read(geis->wakefd, &v, sizeof(v)) < 0) {
		/* EAGAIN: nothing to clear */
	}
	geis->wake_signalled = 0;
}

static void
on_wake(void *data, int fd, uint32_t events)
{
	wake_clear(data);
}

static void
on_timer(void *data, int fd, uint32_t events)
{
	Geis geis = data;
	uint64_t n;

	if (read(fd, &n, sizeof(n)) < 0) {
		/* spurious */
	}
	gs_engine_timer_fired(geis);
}

uint64_t
gs_now(Geis geis)
{
	if (geis && geis->backend && geis->backend->ops->now)
		return geis->backend->ops->now(geis->backend);
	return ut_mono_ms();
}

GeisInteger
gs_core_timestamp(Geis geis, uint64_t t)
{
	if (!geis || t < geis->time_origin)
		return 0;
	return (GeisInteger)((t - geis->time_origin) & 0x7fffffffu);
}

UFWindowId
gs_core_root_window(Geis geis)
{
	if (geis && geis->backend && geis->backend->ops->root_window) {
		UFWindowId w = geis->backend->ops->root_window(geis->backend);

		if (w)
			return w;
	}
	return 1;
}

/* ---- events ---- */

void
gs_enqueue(Geis geis, GeisEvent ev)
{
	gs_queue_push(&geis->queue, ev);
}

/* Queue a device event of @p d; false when it could not be made. */
static bool
make_device_event(Geis geis, GeisEventType type, GeisDevice d)
{
	/* always, as geis 2.2.17 did: GEIS_INIT_TRACK_DEVICES changes nothing */
	GeisEvent ev = gs_event_new(type);
	if (!ev)
		return false;
	ev->device = geis_device_ref(d);
	if (gs_attr_bag_add_pointer(&ev->attrs, GEIS_EVENT_ATTRIBUTE_DEVICE, d)) {
		geis_event_delete(ev);
		return false;
	}
	gs_enqueue(geis, ev);
	gs_wake(geis);
	return true;
}

static void
forgive_device_event(GeisDevice d)
{
	ut_list_remove(&d->owed_link);
	d->owed_event = 0;
	geis_device_unref(d);
}

/*
 * Queue DEVICE_AVAILABLE or DEVICE_UNAVAILABLE of @p d, or owe it when it
 * cannot be made (out of memory): the application learns of every device
 * that comes and goes, late rather than never.  An UNAVAILABLE of a device
 * whose AVAILABLE is still owed cancels both.
 */
static void
queue_device_event(Geis geis, GeisEventType type, GeisDevice d)
{
	if (d->owed_event == GEIS_EVENT_DEVICE_AVAILABLE &&
	    type == GEIS_EVENT_DEVICE_UNAVAILABLE) {
		forgive_device_event(d);
		return;
	}
	if (d->owed_event == 0) {
		if (make_device_event(geis, type, d))
			return;
		ut_list_insert_before(&geis->owed_devices, &d->owed_link);
		geis_device_ref(d);
	}
	d->owed_event = type;
	gs_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR,
			"out of memory queueing a device event (made again later)");
	gs_wake(geis); /* the next dispatch tries again */
}

/* Queue the device events owed (see queue_device_event()), in order. */
static void
retry_device_events(Geis geis)
{
	ut_list_for_each_safe(pos, tmp, &geis->owed_devices) {
		GeisDevice d = ut_container_of(pos, struct _GeisDevice, owed_link);

		if (!make_device_event(geis, d->owed_event, d))
			return;
		forgive_device_event(d);
	}
}

/* The instance's device record of the frame device @p device, or NULL. */
static GeisDevice
device_find(Geis geis, UFDevice device)
{
	ut_list_for_each(pos, &geis->devices) {
		GeisDevice d = ut_container_of(pos, struct _GeisDevice, link);

		if (d->uf == device)
			return d;
	}
	return NULL;
}

int
gs_core_device_added(Geis geis, UFDevice device, GeisInteger id)
{
	if (geis && id <= 0)
		id = geis->next_device_id;
	return gs_core_device_added_as(geis, device, id);
}

int
gs_core_device_added_as(Geis geis, UFDevice device, GeisInteger id)
{
	GeisDevice d;

	if (!geis || !device)
		return -1;
	if (device_find(geis, device))
		return 0;
	if (id >= geis->next_device_id)
		geis->next_device_id = id + 1;
	d = gs_device_new(geis, device, id);
	if (!d) {
		gs_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR, "out of memory adding a device");
		return -1;
	}
	ut_list_insert_after(&geis->devices, &d->link);
	queue_device_event(geis, GEIS_EVENT_DEVICE_AVAILABLE, d);
	gs_engine_device_added(geis, d);
	return 0;
}

void
gs_core_device_removed(Geis geis, UFDevice device)
{
	GeisDevice d;

	if (!geis || !device || !(d = device_find(geis, device)))
		return;
	gs_engine_device_removed(geis, d);
	ut_list_remove(&d->link);
	d->uf = NULL;
	queue_device_event(geis, GEIS_EVENT_DEVICE_UNAVAILABLE, d);
	d->geis = NULL;
	geis_device_unref(d);
}

void
gs_core_remove_all_devices(Geis geis)
{
	while (geis && !ut_list_empty(&geis->devices)) {
		struct ut_list *head = geis->devices.next;

		gs_core_device_removed(geis, ut_container_of(head, struct _GeisDevice, link)->uf);
		if (geis->devices.next == head)
			break;   /* not removable: never loop */
	}
}

void
gs_core_frame_event(Geis geis, UFEvent event)
{
	UFDevice dev = NULL;

	if (!geis || !event)
		return;
	switch (frame_event_get_type(event)) {
	case UFEventTypeDeviceAdded:
		if (frame_event_get_property(event, UFEventPropertyDevice, &dev) ==
		    UFStatusSuccess)
			(void)gs_core_device_added(geis, dev, 0);
		break;
	case UFEventTypeDeviceRemoved:
		if (frame_event_get_property(event, UFEventPropertyDevice, &dev) ==
		    UFStatusSuccess)
			gs_core_device_removed(geis, dev);
		break;
	case UFEventTypeFrame:
		gs_engine_frame(geis, event);
		break;
	}
}

static void
queue_class_event(Geis geis, GeisGestureClass c)
{
	GeisEvent ev = gs_event_new(GEIS_EVENT_CLASS_AVAILABLE);

	if (!ev)
		return;
	geis_gesture_class_ref(c);
	ev->klass = c;
	if (gs_attr_bag_add_pointer(&ev->attrs, GEIS_EVENT_ATTRIBUTE_CLASS, c)) {
		geis_event_delete(ev);
		return;
	}
	gs_enqueue(geis, ev);
}

void
gs_core_class_available(Geis geis, GeisGestureClass gesture_class)
{
	if (geis && gesture_class)
		queue_class_event(geis, gesture_class);
}

/*
 * Start the backend; queue the start-up events in geis 2.2.17's order,
 * whatever the TRACK init arguments say: CLASS_AVAILABLE for Drag, Pinch,
 * Rotate, Tap and Touch, INIT_COMPLETE, then CLASS_AVAILABLE for Flick and
 * the devices the backend found.  Flick comes before the devices when the
 * backend starts in the first dispatch, after them with
 * GEIS_INIT_SYNCHRONOUS_START (the original's grail backend found its
 * devices while geis_new() ran, and posted Flick only at the first
 * dispatch: geis-x11-oracle-*-startup and -startup-sync).
 */
static int
start(Geis geis)
{
	struct geis_event_queue found = { 0 };
	GeisEvent mark, ev;
	int rc;
	uint64_t start_ms;

	if (geis->started)
		return geis->backend_failed ? -1 : 0;
	geis->started = 1;
	for (int i = 0; gs_uses_grail(geis) && i < GEIS_NUM_CLASSES - 1; i++)
		queue_class_event(geis, geis->classes[i]);
	mark = geis->queue.tail;
	/* the clock as the backend starts (evdev, recordings: the X11
	 * backend reports the server's time as it is) */
	start_ms = gs_now(geis);
	rc = geis->backend->ops->start(geis->backend);
	if (rc < 0) {
		geis->backend_failed = 1;
		gs_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR,
				"the %s backend failed to start: %s",
				geis->backend->ops->name, strerror(-rc));
		return -1;
	}
	if (geis->backend->ops->server_clock) {
		/* the server's own time, modulo 2^31 (X11) */
		geis->time_origin = 0;
	} else {
		/* timestamps count from one second before now, so that input
		 * stamped a little before the start (touches already down,
		 * events in flight) still has a positive time; a recording's
		 * clock starts at 1000 ms, so its times are kept as they are */
		if (!start_ms)
			start_ms = gs_now(geis);
		geis->time_origin = start_ms > 1000 ? start_ms - 1000 : 0;
	}
	/* what the backend queued while starting (its devices) goes last */
	while ((ev = mark ? mark->next : geis->queue.head)) {
		gs_queue_remove(&geis->queue, ev);
		gs_queue_push(&found, ev);
	}
	ev = gs_event_new(GEIS_EVENT_INIT_COMPLETE);
	if (ev)
		gs_enqueue(geis, ev);
	if (gs_uses_grail(geis) && !geis->sync_start)
		queue_class_event(geis, geis->classes[GEIS_NUM_CLASSES - 1]);
	while ((ev = gs_queue_pop(&found)))
		gs_queue_push(&geis->queue, ev);
	if (gs_uses_grail(geis) && geis->sync_start)
		queue_class_event(geis, geis->classes[GEIS_NUM_CLASSES - 1]);
	gs_wake(geis);
	return 0;
}

static void
instance_free(Geis geis)
{
	/* subscriptions first: deactivating them talks to the backend (grab
	 * hooks) and to grail */
	while (!ut_list_empty(&geis->subs))
		geis_subscription_delete(gs_sub_of(geis->subs.next));
	while (!ut_list_empty(&geis->filters))   /* the ones no subscription owned */
		geis_filter_delete(ut_container_of(geis->filters.next, struct _GeisFilter, link));
	while (!ut_list_empty(&geis->regions))
		geis_region_delete(ut_container_of(geis->regions.next, struct _GeisRegion, link));
	gs_queue_clear(&geis->queue);
	if (geis->backend)
		geis->backend->ops->destroy(geis->backend);
	geis->backend = NULL;
	gs_queue_clear(&geis->queue);   /* DEVICE_UNAVAILABLE from the backend */
	gs_engine_fini(geis);
	/* the backend reported its devices gone as it went (DEVICE_UNAVAILABLE
	 * events nobody will read) */
	gs_queue_clear(&geis->queue);
	while (!ut_list_empty(&geis->owed_devices))
		forgive_device_event(ut_container_of(geis->owed_devices.next,
						     struct _GeisDevice, owed_link));
	ut_list_for_each_safe(pos, tmp, &geis->devices) {
		GeisDevice d = ut_container_of(pos, struct _GeisDevice, link);

		ut_list_remove(&d->link);
		d->geis = NULL;
		d->uf = NULL;
		geis_device_unref(d);
	}
	for (int i = 0; i < GEIS_NUM_CLASSES; i++)
		geis_gesture_class_unref(geis->classes[i]);
	while (!ut_list_empty(&geis->mux))
		gs_mux_remove(geis, ut_container_of(geis->mux.next, struct geis_mux_entry,
						      link)->fd);
	if (geis->timerfd >= 0)
		close(geis->timerfd);
	if (geis->wakefd >= 0)
		close(geis->wakefd);
	if (geis->epfd >= 0)
		close(geis->epfd);
	free(geis);
}

/* The init arguments that set an option of the instance. */
static const struct {
	const char *init_arg;
	size_t offset;   /* of an int in struct _Geis */
	int value;
} flag_args[] = {
	{ GEIS_INIT_TRACK_DEVICES, offsetof(struct _Geis, track_devices), 1 },
	{ GEIS_INIT_TRACK_GESTURE_CLASSES, offsetof(struct _Geis, track_classes), 1 },
	{ GEIS_INIT_SYNCHRONOUS_START, offsetof(struct _Geis, sync_start), 1 },
	{ GEIS_INIT_NO_ATOMIC_GESTURES, offsetof(struct _Geis, atomic), 0 },
	{ GEIS_INIT_SEND_TENTATIVE_EVENTS, offsetof(struct _Geis, tentative), 1 },
	{ GEIS_INIT_SEND_SYNCHRONOS_EVENTS, offsetof(struct _Geis, synchronous), 1 },
};

/* geis_new()'s argument list: instance options here, backend choice and
 * options in @p req, unknown arguments skipped with a message. */
static void
read_init_args(Geis geis, struct geis_backend_request *req, const char *first, va_list *ap)
{
	for (const char *arg = first; arg; arg = va_arg(*ap, const char *)) {
		size_t i;

		for (i = 0; i < sizeof(flag_args) / sizeof(flag_args[0]); i++) {
			if (strcmp(arg, flag_args[i].init_arg) == 0) {
				*(int *)((char *)geis + flag_args[i].offset) = flag_args[i].value;
				break;
			}
		}
		if (i == sizeof(flag_args) / sizeof(flag_args[0]) &&
		    !gs_backend_init_arg(req, arg, ap))
			gs_error_push(NULL, GEIS_STATUS_NOT_SUPPORTED,
					"geis_new: unknown init argument \"%s\" skipped", arg);
	}
}

/* The instance's own descriptors: epoll, wake-up eventfd, timeout timerfd. */
static int
open_fds(Geis geis)
{
	geis->epfd = epoll_create1(EPOLL_CLOEXEC);
	geis->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	geis->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (geis->epfd < 0 || geis->wakefd < 0 || geis->timerfd < 0 ||
	    gs_mux_add(geis, geis->wakefd, EPOLLIN, on_wake, geis) < 0 ||
	    gs_mux_add(geis, geis->timerfd, EPOLLIN, on_timer, geis) < 0) {
		gs_error_push(NULL, GEIS_STATUS_UNKNOWN_ERROR,
				"geis_new: cannot create file descriptors: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The gesture classes of the class table, and grail. */
static int
init_engine(Geis geis)
{
	for (int i = 0; i < GEIS_NUM_CLASSES; i++) {
		geis->classes[i] = gs_gesture_class_new(ut_gesture_classes[i].name,
							  ut_gesture_classes[i].id,
							  ut_gesture_classes[i].mask);
		if (!geis->classes[i]) {
			gs_error_push(NULL, GEIS_STATUS_UNKNOWN_ERROR, "geis_new: out of memory");
			return -1;
		}
	}
	if (gs_engine_init(geis) < 0) {
		gs_error_push(NULL, GEIS_STATUS_UNKNOWN_ERROR, "geis_new: cannot create grail");
		return -1;
	}
	return 0;
}

/* geis_new() fails after the instance's stack got the reason: copy it to
 * the global stack, where the caller looks. */
static void
pass_errors_up(Geis geis)
{
	for (GeisSize i = 0; i < geis->errors.count; i++)
		gs_error_push(NULL, geis->errors.code[i], "%s", geis->errors.msg[i]);
}

GEIS_API Geis
geis_new(GeisString init_arg_name, ...)
{
	struct geis_backend_request req = { 0 };
	Geis geis;
	va_list ap;

	gs_error_clear(NULL);
	geis = calloc(1, sizeof(*geis));
	if (!geis) {
		gs_error_push(NULL, GEIS_STATUS_UNKNOWN_ERROR, "geis_new: out of memory");
		return NULL;
	}
	ut_log_init(&geis->log, "geis");
	ut_list_init(&geis->mux);
	ut_list_init(&geis->devices);
	ut_list_init(&geis->owed_devices);
	ut_list_init(&geis->subs);
	ut_list_init(&geis->filters);
	ut_list_init(&geis->regions);
	ut_list_init(&geis->gestures);
	geis->epfd = geis->wakefd = geis->timerfd = -1;
	geis->atomic = 1;
	geis->max_events = GEIS_MAX_EVENTS_DEFAULT;
	geis->next_device_id = 1;
	geis->next_sub_id = 1;

	va_start(ap, init_arg_name);
	read_init_args(geis, &req, init_arg_name, &ap);
	va_end(ap);

	if (gs_backend_choose(&req) < 0 || open_fds(geis) < 0 || init_engine(geis) < 0)
		goto fail;
	geis->backend = gs_backend_create(geis, &req);
	if (!geis->backend) {
		/* the backend explains itself on the instance stack */
		pass_errors_up(geis);
		gs_error_push(NULL, GEIS_STATUS_UNKNOWN_ERROR,
				"geis_new: cannot create the backend");
		goto fail;
	}
	if (geis->sync_start && start(geis) < 0) {
		pass_errors_up(geis);
		goto fail;
	}
	gs_wake(geis);
	return geis;
fail:
	instance_free(geis);
	return NULL;
}

GEIS_API GeisStatus
geis_delete(Geis geis)
{
	if (!geis) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT, "geis_delete: NULL instance");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	if (geis->in_dispatch) {
		/* from a callback: geis_dispatch_events() still runs on the
		 * instance.  Nothing more is delivered; it frees the instance
		 * as it returns. */
		geis->delete_pending = 1;
		geis->event_cb = NULL;
		geis->device_cb = NULL;
		geis->class_cb = NULL;
		return GEIS_STATUS_SUCCESS;
	}
	if (geis->in_log_handler) {
		/* the call that logged still runs on the instance */
		ut_log_client_bug(NULL, __func__, "called from the instance's log handler; "
				  "the instance is not deleted");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	instance_free(geis);
	return GEIS_STATUS_SUCCESS;
}

/* ---- configuration ---- */

/* Items of the grail backends' recognizer: the test backend has none. */
static int
recognizer_item(const char *name)
{
	return strcmp(name, GEIS_CONFIG_ATOMIC_GESTURES) == 0 ||
	       strcmp(name, GEIS_CONFIG_SEND_TENTATIVE_EVENTS) == 0 ||
	       strcmp(name, GEIS_CONFIG_SEND_SYNCHRONOS_EVENTS) == 0 ||
	       strcmp(name, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS) == 0;
}

GEIS_API GeisStatus
geis_get_configuration(Geis geis, GeisString name, void *value)
{
	if (!geis || !name || !value) {
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_get_configuration: NULL argument");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_error_clear(geis);
	if (!gs_uses_grail(geis) && recognizer_item(name)) {
		gs_error_push(geis, GEIS_STATUS_NOT_SUPPORTED,
				"geis_get_configuration: the %s backend has no \"%s\"",
				geis->backend->ops->name, name);
		return GEIS_STATUS_NOT_SUPPORTED;
	}
	if (strcmp(name, GEIS_CONFIGURATION_FD) == 0) {
		*(int *)value = geis->epfd;
	} else if (strcmp(name, GEIS_CONFIG_MAX_EVENTS) == 0) {
		*(GeisInteger *)value = geis->max_events;
	} else if (strcmp(name, GEIS_CONFIG_ATOMIC_GESTURES) == 0) {
		*(GeisBoolean *)value = geis->atomic ? GEIS_TRUE : GEIS_FALSE;
	} else if (strcmp(name, GEIS_CONFIG_SEND_TENTATIVE_EVENTS) == 0) {
		*(GeisBoolean *)value = geis->tentative ? GEIS_TRUE : GEIS_FALSE;
	} else if (strcmp(name, GEIS_CONFIG_SEND_SYNCHRONOS_EVENTS) == 0) {
		*(GeisBoolean *)value = geis->synchronous ? GEIS_TRUE : GEIS_FALSE;
	} else if (strcmp(name, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS) == 0) {
		GeisInteger n = 0;

		ut_list_for_each(pos, &geis->subs)
			n += gs_sub_of(pos)->active != 0;
		*(GeisInteger *)value = n;
	} else {
		gs_error_push(geis, GEIS_STATUS_NOT_SUPPORTED,
				"geis_get_configuration: unknown item \"%s\"", name);
		return GEIS_STATUS_NOT_SUPPORTED;
	}
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisStatus
geis_set_configuration(Geis geis, GeisString name, void *value)
{
	if (!geis || !name || !value) {
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_set_configuration: NULL argument");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_error_clear(geis);
	if (!gs_uses_grail(geis) && recognizer_item(name)) {
		gs_error_push(geis, GEIS_STATUS_NOT_SUPPORTED,
				"geis_set_configuration: the %s backend has no \"%s\"",
				geis->backend->ops->name, name);
		return GEIS_STATUS_NOT_SUPPORTED;
	}
	if (strcmp(name, GEIS_CONFIG_MAX_EVENTS) == 0) {
		/* kept and read back, limiting nothing, as in geis 2.2.17 */
		geis->max_events = *(GeisInteger *)value;
	} else if (strcmp(name, GEIS_CONFIG_ATOMIC_GESTURES) == 0) {
		geis->atomic = *(GeisBoolean *)value != 0;
	} else if (strcmp(name, GEIS_CONFIG_SEND_TENTATIVE_EVENTS) == 0) {
		geis->tentative = *(GeisBoolean *)value != 0;
	} else if (strcmp(name, GEIS_CONFIG_SEND_SYNCHRONOS_EVENTS) == 0) {
		geis->synchronous = *(GeisBoolean *)value != 0;
	} else if (strcmp(name, GEIS_CONFIGURATION_FD) == 0 ||
		   strcmp(name, GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS) == 0) {
		gs_error_push(geis, GEIS_STATUS_NOT_SUPPORTED,
				"geis_set_configuration: \"%s\" is read only", name);
		return GEIS_STATUS_NOT_SUPPORTED;
	} else {
		gs_error_push(geis, GEIS_STATUS_NOT_SUPPORTED,
				"geis_set_configuration: unknown item \"%s\"", name);
		return GEIS_STATUS_NOT_SUPPORTED;
	}
	return GEIS_STATUS_SUCCESS;
}

/* ---- callbacks and dispatch ---- */

GEIS_API void
geis_register_event_callback(Geis geis, GeisEventCallback event_callback, void *context)
{
	if (UT_CLIENT_BUG_IF(NULL, !geis))
		return;
	geis->event_cb = event_callback;
	geis->event_ctx = context;
	gs_wake(geis);
}

GEIS_API void
geis_register_device_callback(Geis geis, GeisEventCallback event_callback, void *context)
{
	if (UT_CLIENT_BUG_IF(NULL, !geis))
		return;
	geis->device_cb = event_callback;
	geis->device_ctx = context;
	gs_wake(geis);
}

static int
is_device_event(GeisEventType t)
{
	return t == GEIS_EVENT_DEVICE_AVAILABLE || t == GEIS_EVENT_DEVICE_UNAVAILABLE;
}

static int
is_class_event(GeisEventType t)
{
	return t == GEIS_EVENT_CLASS_AVAILABLE || t == GEIS_EVENT_CLASS_CHANGED ||
	       t == GEIS_EVENT_CLASS_UNAVAILABLE;
}

/* Hand queued events to the registered callbacks.  Returns the number
 * delivered. */
int
gs_deliver_callbacks(Geis geis)
{
	GeisEvent ev = geis->queue.head;
	int n = 0;

	if (geis->delivering)
		return 0;   /* the running loop picks up new events */
	/* it runs after every frame: without any callback, walking the
	 * queue each time made a long recording quadratic */
	if (!geis->device_cb && !geis->class_cb && !geis->event_cb)
		return 0;
	geis->delivering = 1;
	while (ev) {
		GeisEvent next = ev->next;
		GeisEventCallback cb = NULL;
		void *ctx = NULL;

		if (is_device_event(ev->type) && geis->device_cb) {
			cb = geis->device_cb;
			ctx = geis->device_ctx;
		} else if (is_class_event(ev->type) && geis->class_cb) {
			cb = geis->class_cb;
			ctx = geis->class_ctx;
		} else if (geis->event_cb) {
			cb = geis->event_cb;
			ctx = geis->event_ctx;
		}
		if (cb) {
			gs_queue_remove(&geis->queue, ev);
			gs_engine_event_delivered(geis, ev);
			cb(geis, ev, ctx);
			n++;
			if (geis->delete_pending)
				break;   /* geis_delete() from the callback */
			/* the callback may have accepted/rejected and purged
			 * events: restart from the head */
			next = geis->queue.head;
		}
		ev = next;
	}
	geis->delivering = 0;
	return n;
}

GEIS_API GeisStatus
geis_dispatch_events(Geis geis)
{
	struct epoll_event evs[16];
	int ready, handled = 0;
	GeisSize before;

	if (!geis) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT,
				"geis_dispatch_events: NULL instance");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	gs_error_clear(geis);
	if (geis->in_dispatch)
		return GEIS_STATUS_SUCCESS;
	geis->in_dispatch = 1;
	/* the application is done with what it took before */
	gs_engine_release_undecided(geis);
	before = geis->queue.count;
	if (!geis->started) {
		if (start(geis) < 0) {
			/* nothing will come: the fd goes quiet, so that a poll
			 * loop waits instead of spinning on the error */
			wake_clear(geis);
			geis->in_dispatch = 0;
			if (geis->delete_pending) {
				instance_free(geis);
				return GEIS_STATUS_SUCCESS;
			}
			return GEIS_STATUS_UNKNOWN_ERROR;
		}
		handled = 1;
	}
	/* a device event owed comes before the input that follows it */
	retry_device_events(geis);
	ready = epoll_wait(geis->epfd, evs, 16, 0);
	for (int i = 0; i < ready && !geis->delete_pending; i++) {
		struct geis_mux_entry *e = evs[i].data.ptr;

		/* an earlier callback may have removed this entry */
		ut_list_for_each(pos, &geis->mux) {
			if (pos == &e->link) {
				if (e->fd != geis->wakefd)
					handled = 1;
				e->fn(e->data, e->fd, evs[i].events);
				break;
			}
		}
	}
	if (!geis->delete_pending) {
		gs_engine_rearm(geis);
		gs_engine_retry_ends(geis);
		if (gs_deliver_callbacks(geis) > 0)
			handled = 1;
	}
	geis->in_dispatch = 0;
	if (geis->delete_pending) {
		instance_free(geis);
		return GEIS_STATUS_SUCCESS;
	}
	if (geis->backend_failed) {
		wake_clear(geis); /* as above */
		gs_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR, "the backend failed to start");
		return GEIS_STATUS_UNKNOWN_ERROR;
	}
	/* nothing to do is still a success: geis 2.2 only ever returned
	 * SUCCESS, CONTINUE or UNKNOWN_ERROR here, and programs test for
	 * exactly those (utouch_geis_playback_finished() tells the end of a
	 * recording) */
	if (!handled && geis->queue.count == before)
		return GEIS_STATUS_SUCCESS;
	{
		/* more input already waiting? (the wake fd does not count) */
		int more = epoll_wait(geis->epfd, evs, 16, 0);

		for (int i = 0; i < more; i++) {
			struct geis_mux_entry *e = evs[i].data.ptr;

			if (e->fd != geis->wakefd)
				return GEIS_STATUS_CONTINUE;
		}
	}
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisStatus
geis_next_event(Geis geis, GeisEvent *event)
{
	GeisEvent ev;

	if (!geis || !event) {
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT, "geis_next_event: NULL argument");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	/* the application is done with the event it took before */
	if (!geis->in_dispatch)
		gs_engine_release_undecided(geis);
	ev = gs_queue_pop(&geis->queue);
	if (!ev)
		return GEIS_STATUS_EMPTY;
	gs_engine_event_delivered(geis, ev);
	*event = ev;
	return geis->queue.count ? GEIS_STATUS_CONTINUE : GEIS_STATUS_SUCCESS;
}

/* ---- utouch extensions ---- */

GEIS_API GeisBoolean
utouch_geis_playback_finished(Geis geis)
{
	if (!geis || !geis->backend || !geis->backend->ops->finished)
		return GEIS_FALSE;
	return geis->backend->ops->finished(geis->backend) ? GEIS_TRUE : GEIS_FALSE;
}

GEIS_API uint64_t
utouch_geis_now(Geis geis)
{
	return UT_CLIENT_BUG_IF(NULL, !geis) ? 0 : gs_now(geis);
}

/* The same numbers name the same priorities on both sides. */
_Static_assert(UTOUCH_GEIS_LOG_DEBUG == (int)UT_LOG_DEBUG &&
	       UTOUCH_GEIS_LOG_INFO == (int)UT_LOG_INFO &&
	       UTOUCH_GEIS_LOG_WARNING == (int)UT_LOG_WARNING &&
	       UTOUCH_GEIS_LOG_ERROR == (int)UT_LOG_ERROR, "log priorities differ");

/* The instance's log output when the application installed a handler. */
static void
to_app_handler(void *data, enum ut_log_priority priority, const char *message)
{
	Geis geis = data;

	geis->in_log_handler++;
	geis->log_handler(geis->log_data, (enum utouch_geis_log_priority)priority, message);
	geis->in_log_handler--;
}

GEIS_API void
utouch_geis_set_log_handler(Geis geis, utouch_geis_log_handler handler, void *data)
{
	if (UT_CLIENT_BUG_IF(NULL, !geis))
		return;
	geis->log_handler = handler;
	geis->log_data = handler ? data : NULL;
	ut_log_set_handler(&geis->log, handler ? to_app_handler : NULL, geis);
}

GEIS_API GeisStatus
utouch_geis_add_input_fd(Geis geis, int fd, const char *caps_path)
{
	if (!geis || fd < 0 || !caps_path) {
		if (fd >= 0)
			close(fd);
		if (geis)
			gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
					"utouch_geis_add_input_fd: bad argument");
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	/* only the description is needed: the file is checked, its events
	 * are not kept */
	struct ut_recording_reader *rec = NULL;
	char err[512];
	if (ut_recording_open(caps_path, NULL, &rec, err, sizeof(err)) < 0) {
		close(fd);
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT, "utouch_geis_add_input_fd: %s",
				err);
		return GEIS_STATUS_BAD_ARGUMENT;
	}
	if (geis->backend && !geis->started && start(geis) < 0) {
		close(fd);
		ut_recording_close(rec);
		return GEIS_STATUS_UNKNOWN_ERROR;
	}
	GeisStatus st = gs_backend_evdev_add_fd(geis->backend, fd, rec->dev,
						  libevdev_get_name(rec->dev));
	ut_recording_close(rec);
	if (st == GEIS_STATUS_BAD_ARGUMENT)
		gs_error_push(geis, st, "utouch_geis_add_input_fd: the instance does not "
				"use the evdev backend");
	else if (st != GEIS_STATUS_SUCCESS)
		gs_error_push(geis, st, "utouch_geis_add_input_fd: cannot add the stream");
	return st;
}
