/*
 * The interface between the geis core and its input backends.
 *
 * A backend produces devices and frame events (UFEvent) and owns whatever
 * reads the input (a recording, /dev/input, an X connection).  The core
 * owns the grail handle, the subscriptions and the event queue.
 *
 * Life cycle: the core creates the backend with its create function
 * (e.g. gs_backend_recording_new()), calls ops->start once (inside
 * geis_new() with GEIS_INIT_SYNCHRONOUS_START, otherwise in the first
 * geis_dispatch_events()), and ops->destroy from geis_delete().
 *
 * Input: the backend registers its file descriptors in the core's epoll
 * multiplexor with gs_mux_add(); the callback runs from
 * geis_dispatch_events().  From there (or from start) it reports:
 *   gs_core_device_added(), gs_core_device_removed(),
 *   gs_core_frame_event()  (a UFEvent of type Frame; DeviceAdded and
 *                             DeviceRemoved events are accepted too and
 *                             forwarded to the two calls above).
 *
 * Grabs: when the first active subscription binds a (device, window) the
 * core calls ops->grab(..., 1), and ops->grab(..., 0) when the last one
 * goes (X11: XIGrabTouchBegin / ungrab; others: nothing).
 *
 * Touches: deliver at most one new touch per frame (split a report that
 * begins several touches into frames of the same time, as an X server
 * does).  grail's atomic mode (the geis default) starts a gesture only on
 * a subscription whose TouchesStart equals the number of free touches, and
 * geis subscribes with start 1 growing to 5 unless a "touches" term says
 * otherwise.
 *
 * Time: ops->now returns the backend's clock in ms, the time base of its
 * frame events.  Grail timeouts are armed with ops->set_timer when the
 * backend has it (virtual time, or a timer that the backend orders with
 * its input, as X11 does: the backend then calls gs_core_advance_time()
 * itself); otherwise the core arms a timerfd on CLOCK_MONOTONIC for
 * (timeout - now) ms and, when it fires, runs every timeout due by now at
 * its own time (gs_core_advance_time(now)).
 */
#ifndef UTOUCH_GEIS_BACKEND_H
#define UTOUCH_GEIS_BACKEND_H

#include <stdarg.h>
#include <stdint.h>

#include <oif/frame.h>
#include <geis/geis.h>

#include "backend-evdev.h"

struct geis_backend;

/** Operations of a backend.  Only start, destroy and now are required. */
struct geis_backend_ops {
	const char *name;
	/** Begin producing input; 0 or a negative errno. */
	int (*start)(struct geis_backend *be);
	/** Stop and free everything (mux fds included). */
	void (*destroy)(struct geis_backend *be);
	/** The backend clock in ms (frame event time base). */
	uint64_t (*now)(struct geis_backend *be);
	/**
	 * Optional: arm a timeout at absolute time @p at in the backend's
	 * clock (0 = none; a new call replaces the previous one).  The
	 * backend then runs due timeouts with gs_core_advance_time().
	 */
	void (*set_timer)(struct geis_backend *be, uint64_t at);
	/**
	 * Optional: first/last subscription of (device, window) came/went.
	 * @return 0, or -1 when a grab (@p on 1) could not be taken: the
	 *         backend said why with gs_core_error(), and the core fails
	 *         the activation that asked for it
	 */
	int (*grab)(struct geis_backend *be, UFDevice device, UFWindowId window,
		    int on);
	/** Optional: 1 when the input has ended for good (recordings). */
	int (*finished)(struct geis_backend *be);
	/**
	 * Optional: the root window id, used for subscriptions without a
	 * region term, GEIS_REGION_X11_ROOT and the "root window id"
	 * attribute (X11: the screen's root window).  Without it: 1.  May
	 * be called before start.
	 */
	UFWindowId (*root_window)(struct geis_backend *be);
	/**
	 * Optional, for a backend that makes its gestures itself instead of
	 * grail (the test backend): called for every activation of a
	 * subscription (the core keeps no grail subscriptions, and accept
	 * and reject succeed without effect).  The backend also announces
	 * its own gesture classes (gs_core_class_available() from start)
	 * instead of the six grail classes, and the recognizer's
	 * configuration items are GEIS_STATUS_NOT_SUPPORTED.
	 */
	GeisStatus (*activate)(struct geis_backend *be, GeisSubscription sub);
	/**
	 * The clock is a server's (X11): the "timestamp" attribute reports
	 * it as it is, modulo 2^31, instead of counting from one second
	 * before the start (doc/geis.md, "Time").
	 */
	int server_clock;
	/**
	 * Timeouts run as geis 2.2's XSync alarms ran them (X11): one alarm
	 * per time grail_next_timeout() reported after a frame or after
	 * grail events, never cancelled, each run at its own time; the
	 * backend calls gs_core_input_read() before each read of input.
	 */
	int xsync_alarms;
};

/** Base of every backend; backends embed it as their first member. */
struct geis_backend {
	const struct geis_backend_ops *ops;
	Geis geis;
};

/** Callback for a multiplexed fd; @p events are EPOLL* bits. */
typedef void (*geis_mux_fn)(void *data, int fd, uint32_t events);

/** Watch @p fd (EPOLLIN etc.); 0 or a negative errno. */
int gs_mux_add(Geis geis, int fd, uint32_t events, geis_mux_fn fn, void *data);
/** Stop watching @p fd. */
void gs_mux_remove(Geis geis, int fd);

/**
 * A device appeared.  @p id is the device id to use (0: the core picks
 * the next free one).  The core takes a frame reference on nothing; the
 * UFDevice must stay valid until gs_core_device_removed().
 *
 * @return 0 when the core has the device (now or already), -1 when it
 *         could not take it (out of memory: on the error stack; a
 *         backend that can should then drop the device rather than read
 *         input nobody will see)
 */
int gs_core_device_added(Geis geis, UFDevice device, GeisInteger id);
/** gs_core_device_added() with exactly @p id (0 included). */
int gs_core_device_added_as(Geis geis, UFDevice device, GeisInteger id);
/** Queue CLASS_AVAILABLE for a class of the backend's own (see activate). */
void gs_core_class_available(Geis geis, GeisGestureClass gesture_class);
/** A device went away (its subscriptions are dropped). */
void gs_core_device_removed(Geis geis, UFDevice device);
/** Every device went away at once (the backend lost its input source). */
void gs_core_remove_all_devices(Geis geis);
/** Feed one frame event (the caller keeps its reference). */
void gs_core_frame_event(Geis geis, UFEvent event);
/**
 * Run every grail timeout due at or before @p t, each with its own time
 * and in order (a timeout grail still reports after its time was given is
 * tried again 1 ms later).  Virtual-time backends call it instead of a
 * timer; the X11 backend calls it with each frame's server time before
 * feeding the frame, so timeouts come before the input stamped after them.
 */
void gs_core_advance_time(Geis geis, uint64_t t);
/**
 * The backend is about to read a batch of input (ops->xsync_alarms): the
 * alarms made since the last read were sent to the server and may come
 * back with this batch (gs_core_advance_time() runs them from now on).
 */
void gs_core_input_read(Geis geis);
/**
 * The rectangle (x, y, width, height in window coordinates) of the
 * rectangle region whose window id is @p window; 0 when @p window is not
 * such a region.
 */
int gs_core_window_rect(Geis geis, UFWindowId window, float rect[4]);

/**
 * The "timestamp" attribute of an event at backend time @p t (ms): the
 * milliseconds since one second before the backend started, wrapped to
 * 0 .. 2^31 - 1 (0 for times before that); for a server clock
 * (ops->server_clock, X11) the server's time itself modulo 2^31.  Frame
 * and grail times stay 64-bit; see doc/geis.md.
 */
GeisInteger gs_core_timestamp(Geis geis, uint64_t t);

/** The root window: the backend's root_window op, or 1. */
UFWindowId gs_core_root_window(Geis geis);
/** Record an error on the instance's error stack. */
void gs_core_error(Geis geis, GeisStatus code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/** gs_core_error(), logged at warning priority: input skipped (a device
 * that cannot be used), not a failure of the instance. */
void gs_core_warning(Geis geis, GeisStatus code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** Create the recording backend for the file @p path (virtual time when
 *  @p fast), with a touch proxy when @p proxy->enabled (the recording is
 *  the grabbed device); NULL when the file cannot be loaded or is not a
 *  multitouch device, or out of memory, with the reason on geis's error
 *  stack. */
struct geis_backend *gs_backend_recording_new(Geis geis, const struct geis_proxy_config *proxy,
						const char *path, int fast);
/* The evdev backend's constructor, gs_backend_evdev_new_config(), is in
 * backend-evdev.h, the X11 backend's, gs_backend_x11_new(), in backend-x11.h
 * (built with the x11 option only). */
/** Create the mock test backend (backend-mock.c, doc/geis.md). */
struct geis_backend *gs_backend_mock_new(Geis geis);

/* ---- choosing the backend (geis-backend.c) ---- */

struct geis_backend_entry;

/** What geis_new()'s init arguments and the environment ask for. */
struct geis_backend_request {
	/** The chosen row of the backend table; NULL: not chosen yet. */
	const struct geis_backend_entry *backend;
	const char *path;  /**< recording file (not copied) */
	int fast;          /**< recording in virtual time */
	struct geis_evdev_config evdev; /**< evdev backend options */
	/** geis 2.2's name of its X11 backend was given (GEIS_INIT_GRAIL_BACKEND,
	 *  GEIS_INIT_XCB_BACKEND): x11 whenever Xlib opens its default display */
	int x11_named;
};

/**
 * Take one geis_new() init argument that names a backend or sets a
 * backend option, reading its values from @p ap.  Options the build
 * cannot honour are recorded on the global error stack.
 *
 * @return 1 when @p arg was a backend argument, 0 when it is not one
 */
int gs_backend_init_arg(struct geis_backend_request *req, const char *arg,
			  va_list *ap);

/**
 * Complete the choice: when no init argument named a backend, the
 * UTOUCH_GEIS_BACKEND environment variable and then the default decide
 * (<utouch/geis.h>).
 *
 * @return 0, or -1 with the reason on the global error stack: a bad
 *         environment value, a backend this build lacks, a recording
 *         without a path
 */
int gs_backend_choose(struct geis_backend_request *req);

/**
 * Run the constructor of the backend @p req chose (gs_backend_choose()
 * returned 0).  NULL when it failed, with the reason on @p geis's stack.
 */
struct geis_backend *gs_backend_create(Geis geis,
					 const struct geis_backend_request *req);

#endif
