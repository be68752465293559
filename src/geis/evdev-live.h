/*
 * Live evdev touch devices -> touch operations and device events.
 *
 * A ut_evdev_live context watches a directory of evdev nodes (normally
 * /dev/input), opens every multitouch device in it (touchscreens and
 * touchpads: ABS_MT_POSITION_X and ABS_MT_POSITION_Y), reads their events
 * without ever blocking and turns them into frames of touch operations
 * through the same ut_evstream that recordings use.  It gives each device
 * a frame device and reports DeviceAdded / DeviceRemoved events for it;
 * building frame events from the operations is the embedder's job (geis:
 * the router, geis-router.c, one frame builder per window).  Other producers of
 * `struct input_event` streams (a pipe, a socket) can be attached with
 * ut_evdev_live_add_fd().
 *
 * Everything is driven by one pollable file descriptor
 * (ut_evdev_live_get_fd()): when it is readable, call
 * ut_evdev_live_dispatch().  Results arrive through callbacks, from inside
 * ut_evdev_live_new(), ut_evdev_live_dispatch(), ut_evdev_live_add_fd(),
 * ut_evdev_live_remove_device() and ut_evdev_live_destroy().
 *
 * Clock: real evdev nodes are switched to CLOCK_MONOTONIC (EVIOCSCLOCKID),
 * so event times and ut_evdev_live_now_ms() are on one clock.  The time of
 * a frame of operations is the time of the event that closed it, in
 * milliseconds.
 * Streams from ut_evdev_live_add_fd() (and nodes opened through the
 * caps_for_path hook) carry whatever times their writer put in.
 *
 * Not thread safe: use one context from one thread.  See doc/evdev-live.md.
 */
#ifndef UTOUCH_EVDEV_LIVE_H
#define UTOUCH_EVDEV_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/geis.h>

#include "input/evdev/evstream.h"

struct libevdev;
struct ut_evdev_live;
struct ut_evdev_live_device;

/*
 * How device nodes are opened and closed, for callers that may not open
 * them directly (e.g. through systemd-logind's TakeDevice), is the public
 * struct utouch_geis_open_interface of <utouch/geis.h>: geis hands the
 * application's interface down unchanged.  This module calls
 * open_restricted with O_RDONLY | O_NONBLOCK | O_CLOEXEC and sets
 * O_NONBLOCK on the returned descriptor again, in case the opener ignored
 * the flag; close_restricted is called exactly once for every descriptor
 * open_restricted handed out, also when the module decided not to use the
 * device.
 */

/** Configuration of a context; every field may be left 0 / NULL. */
struct ut_evdev_live_config {
	/** Directory of device nodes; NULL: "/dev/input".  Only entries
	 * whose name starts with "event" are looked at. */
	const char *dir;
	/** Opener; NULL: open(2) with O_RDONLY | O_NONBLOCK | O_CLOEXEC and
	 * close(2).  The struct must stay valid for the life of the context. */
	const struct utouch_geis_open_interface *iface;
	/** Passed to the iface functions and to caps_for_path. */
	void *iface_data;
	/** Grab each device (EVIOCGRAB) so no other reader sees its events. */
	int grab;
	/** Watch dir with inotify: nodes that appear (or become readable)
	 * are opened, nodes that are deleted are removed. */
	int hotplug;
	/** Window size for direct devices (window coordinates of touches);
	 * 0: 1024 x 768.  Indirect devices are scaled the same way. */
	double screen_w, screen_h;
	/** At most one new touch per frame (evstream's split_begins). */
	int split_begins;
	/** Window resolution in pixels per metre given to the frame devices;
	 * 0: unknown. */
	float window_res;
	/**
	 * Test and embedding hook: the capabilities of a node that is not a
	 * real evdev node.  When reading a node's capabilities with the evdev
	 * ioctls fails (libevdev_new_from_fd() returns an error, e.g. because
	 * open_restricted handed out a pipe), and this hook is set, it is
	 * asked for the capabilities of @p path.  It returns a libevdev
	 * context without (or with) a file descriptor that stays owned by
	 * the caller and needs to live only until the hook returns (the
	 * module copies it), or NULL when it does not know the path.  The
	 * node is then read as a raw stream of `struct input_event`s, like a
	 * descriptor given to ut_evdev_live_add_fd().
	 */
	const struct libevdev *(*caps_for_path)(const char *path,
						void *user_data);
	/** Devices whose name ends in this are left alone (never opened
	 * for good, never grabbed): a touch proxy's own clones.  NULL:
	 * none. */
	const char *skip_name_suffix;
	/**
	 * Save what each touch device sends as an evemu recording: the first
	 * device to this path, later ones to the path with "-2", "-3", ...
	 * before its extension.  Every event pushed into a device's stream is
	 * written (the state of a node opened with touches down as well);
	 * the file is flushed at every SYN_REPORT, so that it is complete up
	 * to the last report whenever the program stops.  Problems are
	 * reported through the log callback and stop only the saving.
	 */
	const char *save_path;
};

/**
 * What the context reports.  Every member may be NULL.  The callbacks must
 * not call ut_evdev_live_destroy(), ut_evdev_live_dispatch() or
 * ut_evdev_live_add_fd(); a ut_evdev_live_remove_device() from a callback
 * is carried out right after the callback returns.
 */
struct ut_evdev_live_callbacks {
	/**
	 * A touch device is ready.  @p device is its frame device; the
	 * DeviceAdded event follows right after this call.  @p dev
	 * stays valid until device_removed for it returned.
	 */
	void (*device_added)(void *data, struct ut_evdev_live_device *dev,
			     UFDevice device);
	/**
	 * A device is gone (read error, ENODEV, end of file, deleted node,
	 * ut_evdev_live_remove_device() or ut_evdev_live_destroy()).  Before
	 * this call, every touch that was active got an end operation and
	 * the DeviceRemoved event was delivered.  @p dev is freed after
	 * the call returns.
	 */
	void (*device_removed)(void *data, struct ut_evdev_live_device *dev,
			       UFDevice device);
	/**
	 * A device event (UFEventTypeDeviceAdded or UFEventTypeDeviceRemoved).
	 * The module holds the reference and drops it after the call
	 * returns: take one with frame_event_ref() to keep the event
	 * (utouch_frame_handle_push() does that itself).
	 */
	void (*frame_event)(void *data, UFEvent event);
	/**
	 * Every frame of touch operations of @p dev, at @p time_ms, the ends
	 * of a removed device's touches included.  The embedder builds frame
	 * events from them for the windows it wants (ut_framer_build() with a
	 * frame builder on the device's
	 * ut_evdev_live_device_get_backend_device(), as geis's router does).
	 */
	void (*frame_ops)(void *data, struct ut_evdev_live_device *dev, uint64_t time_ms,
			  const struct ut_touch_op *ops, size_t nops);
	/**
	 * A problem with one node or stream that did not stop the context:
	 * @p path may be NULL (streams from ut_evdev_live_add_fd()), @p err
	 * is a positive errno value or 0, @p message a readable description.
	 * The same text is kept as ut_evdev_live_last_error().  With this
	 * callback the context does not log the problem itself: its owner
	 * reports it (geis: error stack and log, once); without it the
	 * context logs it at warning priority (domain "evdev").
	 */
	void (*log)(void *data, const char *path, int err, const char *message);
	/**
	 * Optional: every event of @p dev, right after the touch stream took
	 * it (so a frame its SYN_REPORT closed has been delivered), for a
	 * touch proxy that passes the device's other events on.
	 */
	void (*raw_event)(void *data, struct ut_evdev_live_device *dev,
			  const struct input_event *ev);
};

/**
 * Create a context: check the configuration, scan cfg->dir and open every
 * multitouch device in it, and start watching the directory when
 * cfg->hotplug is set.  Nodes that cannot be opened or are not touch
 * devices are skipped (see ut_evdev_live_last_error()); an unreadable or
 * missing directory is recorded the same way and leaves a context without
 * devices.  device_added callbacks for the devices found run before this
 * function returns.
 *
 * @param cfg configuration (copied; strings too)
 * @param cb callbacks (copied)
 * @param data passed to every callback
 * @return the context, or NULL with errno set: EINVAL for a NULL @p cfg or
 *         @p cb, an empty dir, an iface without both functions or a
 *         negative / non-finite screen size; ENOMEM, EMFILE and other
 *         errors of epoll_create1() and inotify_init1().
 */
struct ut_evdev_live *ut_evdev_live_new(const struct ut_evdev_live_config *cfg,
					const struct ut_evdev_live_callbacks *cb,
					void *data);

/**
 * Remove every device (each with End frames for its active touches, a
 * DeviceRemoved event and device_removed, as for a removal), close every
 * descriptor and free the context.  NULL is allowed.
 */
void ut_evdev_live_destroy(struct ut_evdev_live *l);

/**
 * The context's epoll descriptor.  It is readable when a device has
 * events, a device went away or the watched directory changed; then call
 * ut_evdev_live_dispatch().  Owned by the context.
 *
 * @return the descriptor, or -1 for NULL
 */
int ut_evdev_live_get_fd(struct ut_evdev_live *l);

/**
 * Handle everything that is ready: read the events of readable devices
 * and deliver the resulting frames, open nodes that appeared and remove
 * devices that went away.  Never blocks; returns 0 at once when nothing
 * is ready.
 *
 * @return 0, or a negative errno value: -EINVAL for NULL, -EBUSY when
 *         called from a callback, or the error of epoll_wait().  Errors of
 *         single devices are not returned (they remove the device).
 */
int ut_evdev_live_dispatch(struct ut_evdev_live *l);

/**
 * Attach a stream of `struct input_event`s that is not a device node,
 * e.g. the read end of a pipe, with the capabilities in @p caps.  The
 * stream is read exactly like a device; end of file removes it like an
 * unplugged device.  Event times are taken from the stream as they are.
 * A SYN_DROPPED in the stream ends every active touch, and the events up
 * to the next SYN_REPORT are dropped (a stream cannot be asked for its
 * current state).
 *
 * The context takes @p fd in every case: it is closed with close(2) when
 * the device is removed, and right away when this call fails.
 *
 * @param l the context
 * @param fd the stream; set to non-blocking by this call
 * @param caps the capabilities (copied; need not have a descriptor)
 * @param name the device name; NULL: the name in @p caps
 * @return the device (device_added has been called), or NULL with errno:
 *         EINVAL for NULL @p l or @p caps, a negative @p fd, or caps
 *         without ABS_MT_POSITION_X/Y; EBUSY from a callback; ENOMEM;
 *         ENODEV when the device_added callback removed the device again
 *         (it has then been reported removed as well).
 */
struct ut_evdev_live_device *ut_evdev_live_add_fd(struct ut_evdev_live *l, int fd,
						  const struct libevdev *caps,
						  const char *name);

/**
 * Remove a device as if it went away: its active touches end, the
 * DeviceRemoved event and device_removed are delivered, its descriptor is
 * closed (close_restricted for nodes the iface opened).  From inside a
 * callback the removal happens right after the callback returns.  A
 * device removed this way is not opened again by hotplug until its node
 * is created or changed again.  NULL arguments and devices of another
 * context are ignored.
 */
void ut_evdev_live_remove_device(struct ut_evdev_live *l,
				 struct ut_evdev_live_device *dev);

/** Number of devices the context currently uses (0 for NULL). */
size_t ut_evdev_live_num_devices(const struct ut_evdev_live *l);

/** The device at @p index (0 .. num_devices - 1, in the order they were
 * added), or NULL when out of range. */
struct ut_evdev_live_device *ut_evdev_live_get_device(const struct ut_evdev_live *l,
						      size_t index);

/** The last problem recorded (see the log callback), "" when none; never
 * NULL.  Valid until the next call into the context. */
const char *ut_evdev_live_last_error(const struct ut_evdev_live *l);

/** 1 when the context holds the device's grab (EVIOCGRAB): the grab
 * was asked for and the kernel gave it; 0 otherwise. */
int ut_evdev_live_device_is_grabbed(const struct ut_evdev_live_device *dev);

/**
 * Fingers the kernel says are down on the device now (protocol B slots
 * with a tracking id, as libevdev has them after the events read so far);
 * 0 for raw streams and protocol A devices, whose state cannot be asked.
 */
int ut_evdev_live_device_touches_down(const struct ut_evdev_live_device *dev);

/**
 * Take (@p on = 1) or give back the device's grab (EVIOCGRAB), for a
 * caller that grabs only once it is ready (geis's touch proxy grabs a
 * device after its clone exists).  A failure to grab is also reported
 * through the log callback (EBUSY names who has the node open).
 *
 * @return 0 (also for raw streams, which have nothing to grab, and when
 *         the device already is in that state), or a negative errno value
 */
int ut_evdev_live_device_grab(struct ut_evdev_live_device *dev, int on);

/** Path of the node, or NULL for a stream from ut_evdev_live_add_fd(). */
const char *ut_evdev_live_device_get_path(const struct ut_evdev_live_device *dev);

/** Name of the device (never NULL for a valid device). */
const char *ut_evdev_live_device_get_name(const struct ut_evdev_live_device *dev);

/** The frame device of @p dev (NULL for NULL). */
UFDevice ut_evdev_live_device_get_device(const struct ut_evdev_live_device *dev);

/** The producer handle of the frame device, e.g. for
 * utouch_frame_backend_device_set_touch_handler() (NULL for NULL). */
UFBackendDevice ut_evdev_live_device_get_backend_device(const struct ut_evdev_live_device *dev);

/** The capabilities the device was set up from; owned by the device. */
const struct libevdev *ut_evdev_live_device_get_caps(const struct ut_evdev_live_device *dev);

/** 'B' or 'A': the multitouch protocol the device speaks (0 for NULL). */
char ut_evdev_live_device_get_protocol(const struct ut_evdev_live_device *dev);

/** 1 when the device is read through libevdev from a real evdev node
 * (clock set to CLOCK_MONOTONIC, SYN_DROPPED resynchronised from the
 * kernel's state), 0 for raw streams. */
int ut_evdev_live_device_is_evdev(const struct ut_evdev_live_device *dev);

/** The time of CLOCK_MONOTONIC in milliseconds: the clock of the events
 * of real evdev nodes, and of DeviceAdded events. */
uint64_t ut_evdev_live_now_ms(void);

#endif
