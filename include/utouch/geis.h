/*
 * utouch geis: extensions beyond the geis 2.2 API.
 *
 * Backend selection
 * -----------------
 * A Geis instance reads touches from one backend:
 *
 *   recording  plays an evemu or libinput-record file as if it were a live
 *              device (a touchscreen or touchpad of its own);
 *   evdev      the Linux input devices under /dev/input (hotplug aware);
 *   x11        XInput 2.2 touch events of an X server (built when libX11
 *              and libXi are found, option -Dx11; without it
 *              UTOUCH_GEIS_INIT_X11 makes geis_new() fail with a message).
 *
 * The backend is chosen by the first rule that applies:
 *
 *   1. an init argument of geis_new(): UTOUCH_GEIS_INIT_RECORDING (with a
 *      path), UTOUCH_GEIS_INIT_EVDEV or UTOUCH_GEIS_INIT_X11; if several
 *      are given the last one wins;
 *   2. the environment variable UTOUCH_GEIS_BACKEND, so that an unmodified
 *      geis program can be pointed at a recording:
 *        UTOUCH_GEIS_BACKEND=recording:/path/file.evemu  (real timing)
 *        UTOUCH_GEIS_BACKEND=recording-fast:/path/file   (virtual time)
 *        UTOUCH_GEIS_BACKEND=evdev
 *        UTOUCH_GEIS_BACKEND=x11
 *      An unparsable value makes geis_new() fail with a message on the
 *      global error stack;
 *   3. geis 2.2's names of its X11 backend, GEIS_INIT_GRAIL_BACKEND and
 *      GEIS_INIT_XCB_BACKEND: x11 when DISPLAY is set or, with DISPLAY
 *      unset, when Xlib still opens its default display (an Xlib stand-in,
 *      as in the originals' own tests); otherwise the default;
 *   4. the default: x11 when DISPLAY is set and the x11 backend is built,
 *      otherwise evdev.
 *
 * UTOUCH_GEIS_INIT_RECORDING_FAST may be combined with either way of
 * choosing the recording backend.
 *
 * Regions on the recording and evdev backends
 * -------------------------------------------
 * These backends have no windows of their own.  The whole screen is
 * window 1 (also the root window): it gets every touch.  A region made
 * with UTOUCH_GEIS_REGION_RECT is a rectangle of the screen with a window
 * id of its own: it gets the touches that begin inside it, with positions
 * relative to its corner.  Any other window id in a region filter term
 * (GEIS_REGION_ATTRIBUTE_WINDOWID EQ id, or a GEIS_REGION_X11_WINDOWID
 * region) only names where gestures are reported: it gets every touch, and
 * the events' "event window id" is that id.  Without a region term the
 * window is 1.
 */
#ifndef UTOUCH_GEIS_H
#define UTOUCH_GEIS_H

#include <geis/geis.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * geis_new() argument: play a recording.  The next argument is the file
 * path (const char *), evemu or libinput-record format.  Frames are
 * delivered at the recorded pace (the configuration fd becomes readable
 * when the next frame is due).
 */
#define UTOUCH_GEIS_INIT_RECORDING      "org.utouch.init.backend.recording"

/**
 * geis_new() argument: the test backend, geis 2.2's
 * "com.canonical.oif.backend.mock", for exercising the API without any
 * device (unit tests of geis programs).  It has no input; what a program
 * sees:
 *
 * - GEIS_EVENT_INIT_COMPLETE, GEIS_EVENT_CLASS_AVAILABLE for its one
 *   gesture class, "poke" (class id 2100), and GEIS_EVENT_DEVICE_AVAILABLE
 *   for its one device, "abs-test-device" (device id 0, so geis_get_device(geis,
 *   0) finds it; direct touch, 5 touches, X and Y 0..1000).  Filters may
 *   name the device by name, id, touches and direct touch, and the class
 *   by name, id and touches;
 * - every geis_subscription_activate() queues one GEIS_EVENT_GESTURE_BEGIN:
 *   one group (id 1) with one frame (id 1) of class "poke" whose attributes
 *   are "device id" 13, "timestamp" 1, "root window id" 2, "event window
 *   id" 3, "child window id" 4, "focus x" 123.456, "focus y" 987.654,
 *   "gesture name" "mock gesture" and "touches" n, the lowest count from 1
 *   to 5 that one of the subscription's filters allows (its "touches"
 *   terms; no filter: 1), with n touches (ids 0 .. n-1) in the touch set
 *   and the frame; activation fails (GEIS_STATUS_BAD_ARGUMENT) when no
 *   filter allows any count;
 * - geis_gesture_accept() and geis_gesture_reject() return
 *   GEIS_STATUS_SUCCESS; the recognizer's configuration items
 *   (GEIS_CONFIG_ATOMIC_GESTURES, _SEND_TENTATIVE_EVENTS,
 *   _SEND_SYNCHRONOS_EVENTS, _NUM_ACTIVE_SUBSCRIPTIONS and every
 *   subscription item) return GEIS_STATUS_NOT_SUPPORTED.
 *
 * The v1 API uses it for the window type geis_win_type_str(Test), which
 * takes no window info (geis_init() with win_info->win_info NULL).
 */
#define UTOUCH_GEIS_INIT_MOCK           "com.canonical.oif.backend.mock"

/** geis 2.2's name of UTOUCH_GEIS_INIT_MOCK (its test API header). */
#ifndef GEIS_INIT_MOCK_BACKEND
#define GEIS_INIT_MOCK_BACKEND          UTOUCH_GEIS_INIT_MOCK
#endif

/**
 * geis_new() argument (no parameter): play the recording as fast as
 * possible in virtual time.  Each geis_dispatch_events() delivers the whole
 * rest of the recording; grail timeouts that fall before a frame are fired
 * before it in virtual time, and after the last frame virtual time is
 * advanced past every pending timeout so that every gesture ends.
 */
#define UTOUCH_GEIS_INIT_RECORDING_FAST "org.utouch.init.backend.recording-fast"

/**
 * geis_new() argument (no parameter): use the Linux evdev devices under
 * /dev/input: every touchscreen and touchpad (devices with
 * ABS_MT_POSITION_X/Y), found at start and followed as they come and go
 * (inotify).  Protocol A devices go through mtdev.  Touches are owned by
 * geis from their begin: accepting or rejecting a gesture only decides
 * which gestures the application sees.  Time is CLOCK_MONOTONIC.
 */
#define UTOUCH_GEIS_INIT_EVDEV          "org.utouch.init.backend.evdev"

/**
 * geis_new() argument (no parameter), evdev backend: grab every device
 * (EVIOCGRAB) so that no other reader (an X server, a compositor) sees its
 * events while the instance lives.
 */
#define UTOUCH_GEIS_INIT_EVDEV_GRAB     "org.utouch.init.evdev.grab"

/**
 * geis_new() argument (no parameter), evdev and recording backends: be a
 * touch proxy (doc/gestured.md, "Proxy mode").  Every device is grabbed
 * (EVIOCGRAB) and gets a clone through uinput: the same name followed by
 * " (utouch proxy)", the same ids, properties, event codes, axes, ranges
 * and resolutions.  A touch that no subscription can see goes to the
 * clone at once; any other touch is held until it is decided: a gesture
 * that geis_gesture_accept() took consumes its touches (they never reach
 * the clone), touches rejected by every subscription are replayed to the
 * clone in their original order (a held history longer than 32 positions
 * keeps every other one), then follow live.  The clone's stream is a
 * valid evdev stream of its own (slots, tracking ids, BTN_TOUCH,
 * BTN_TOOL_*, ABS_X/ABS_Y, MSC_TIMESTAMP, SYN_REPORT); the device's
 * buttons and switches pass through.  geis_delete() replays what is still
 * held and removes the clones; if the process dies, the kernel drops the
 * grab with the descriptor and the real device works again.  Devices
 * whose name ends in " (utouch proxy)" are never opened.  Each device is
 * grabbed only once its clone exists: a device that gets no clone (no
 * uinput access) is only read, and one that another program holds is not
 * proxied (the error stack names the programs that have it open).  With the recording backend the recording
 * plays the grabbed device.
 */
#define UTOUCH_GEIS_INIT_PROXY          "org.utouch.init.proxy"

/**
 * geis_new() argument, evdev and recording backends: UTOUCH_GEIS_INIT_PROXY,
 * writing each clone's stream as an evemu recording instead of creating a
 * uinput device.  The next argument is the path (const char *) for the
 * first device; the n-th device (n > 1) writes "PATH.n".
 */
#define UTOUCH_GEIS_INIT_PROXY_OUTPUT   "org.utouch.init.proxy.output"

/**
 * geis_new() argument, touch proxy: the uinput node to create clones
 * with.  The next argument is the path (const char *); default
 * "/dev/uinput" (some systems have /dev/input/uinput).
 */
#define UTOUCH_GEIS_INIT_PROXY_UINPUT   "org.utouch.init.proxy.uinput"

/**
 * geis_new() argument, evdev backend: the directory to watch instead of
 * /dev/input.  The next argument is the path (const char *).
 */
#define UTOUCH_GEIS_INIT_EVDEV_DIR      "org.utouch.init.evdev.dir"

/**
 * geis_new() argument, evdev backend: save what each touch device sends as
 * an evemu recording, for a bug report or to replay later (utouch-replay,
 * the recording backend, evemu-play).  The next argument is the path
 * (const char *): the first device is saved there, later ones with "-2",
 * "-3", ... before the extension.  The file is complete up to the last
 * report at any time.  A file that cannot be written is reported on the
 * error stack and does not stop the instance.
 */
#define UTOUCH_GEIS_INIT_EVDEV_SAVE     "org.utouch.init.evdev.save"

/**
 * geis_new() argument, evdev backend: open and close device nodes through
 * the caller, e.g. through logind's TakeDevice so that an unprivileged
 * session can read them.  The next two arguments are a
 * `const struct utouch_geis_open_interface *` (it must outlive the
 * instance) and a `void *` passed to its functions.  Without it, nodes are
 * opened with open(2) and closed with close(2).
 */
#define UTOUCH_GEIS_INIT_EVDEV_OPEN_INTERFACE "org.utouch.init.evdev.open-interface"

/** Device opening for UTOUCH_GEIS_INIT_EVDEV_OPEN_INTERFACE. */
struct utouch_geis_open_interface {
	/**
	 * Open @p path with @p flags (O_RDONLY | O_NONBLOCK | O_CLOEXEC).
	 * @return a file descriptor, or a negative errno value
	 */
	int (*open_restricted)(const char *path, int flags, void *user_data);
	/** Close a descriptor open_restricted returned. */
	void (*close_restricted)(int fd, void *user_data);
};

/**
 * geis_new() argument (no parameter): use the X server named by $DISPLAY
 * (XInput 2.2 touch).  Regions are X windows; subscriptions take touch
 * grabs on them; accepting and rejecting gestures reaches the server, which
 * replays rejected touches to the next client.  geis_new() fails with a
 * message when the library was built without X11.
 */
#define UTOUCH_GEIS_INIT_X11            "org.utouch.init.backend.x11"

/**
 * geis_region_new() argument for the recording and evdev backends: a
 * rectangle of the screen, in window coordinates (pixels of the
 * 1024 x 768 screen those backends map direct devices onto; indirect
 * devices are scaled the same way).  The next four arguments are
 * GeisInteger x, y, width and height.  The region gets a window id of its
 * own (utouch_geis_region_window_id()); a subscription whose filter has
 * the term GEIS_REGION_ATTRIBUTE_WINDOWID EQ that id gets the gestures of
 * the touches that began inside the rectangle, for their whole life, with
 * positions relative to its top-left corner, the way an X server reports
 * touches to a window.  On the X11 backend regions are X windows and this
 * argument is refused (GEIS_STATUS_NOT_SUPPORTED).
 */
#define UTOUCH_GEIS_REGION_RECT         "org.utouch.region.rect"

/** Name of the environment variable read when no backend argument is given. */
#define UTOUCH_GEIS_BACKEND_ENV         "UTOUCH_GEIS_BACKEND"

/**
 * Filter attributes of the GEIS_FILTER_SPECIAL facility.  geis 2.2 knew two
 * boolean names there: GEIS_GESTURE_TYPE_SYSTEM ("Sysflags", the v1
 * system-gesture flag) and "GRAB" (given a name here).  Both may be used
 * with GEIS_FILTER_OP_EQ or GEIS_FILTER_OP_NE; the terms are stored but do
 * not change which gestures a subscription gets (see doc/geis.md).  Any
 * other special name is refused with GEIS_STATUS_BAD_ARGUMENT.
 */
#define UTOUCH_GEIS_SPECIAL_GRAB        "GRAB"

/*
 * Gestures beyond geis 2.2: hold, edge swipe, multi-tap, velocity
 * ----------------------------------------------------------------
 * grail's utouch extensions (doc/grail.md) reach geis programs as two
 * gesture classes that are only given by name, subscription configuration
 * items and gesture attributes.  A program that uses none of them sees
 * exactly what geis 2.2 showed it: the class list (CLASS_AVAILABLE events)
 * is unchanged, a filter without class terms selects geis 2.2's five
 * classes, and the new attributes appear only in the gestures of
 * subscriptions that use an extension (doc/geis.md).
 */

/**
 * Gesture class name (GEIS_FILTER_CLASS term GEIS_CLASS_ATTRIBUTE_NAME
 * with GEIS_FILTER_OP_EQ, or GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME in v1
 * style): touches held still (UTOUCH_GEIS_CONFIG_HOLD_*) - a long press.
 * The gesture's "gesture name" attribute is "Hold" while nothing else
 * is recognized.
 */
#define UTOUCH_GEIS_GESTURE_HOLD        "Hold"
/** Class id of UTOUCH_GEIS_GESTURE_HOLD for integer class terms. */
#define UTOUCH_GEIS_GESTURE_PRIMITIVE_HOLD        256

/**
 * Gesture class name: an edge (bezel) swipe on a direct device
 * (UTOUCH_GEIS_CONFIG_EDGE_SWIPE_*); UTOUCH_GEIS_GESTURE_ATTRIBUTE_EDGE
 * names the edge.
 */
#define UTOUCH_GEIS_GESTURE_EDGE_SWIPE  "EdgeSwipe"
/** Class id of UTOUCH_GEIS_GESTURE_EDGE_SWIPE for integer class terms. */
#define UTOUCH_GEIS_GESTURE_PRIMITIVE_EDGE_SWIPE  257

/**
 * Subscription configuration items (geis_subscription_set_configuration /
 * get_configuration).  Times are GeisInteger milliseconds, distances
 * GeisFloat metres, velocities GeisFloat metres per second; the defaults
 * and why they were chosen are in doc/grail.md.  Setting one makes the
 * subscription's gestures carry the extension attributes below.
 */
/** GeisInteger ms the touches must be held, > 0; default 500. */
#define UTOUCH_GEIS_CONFIG_HOLD_TIMEOUT          "org.utouch.hold.timeout"
/** GeisFloat metres each touch may move and still be held; default 0.0026. */
#define UTOUCH_GEIS_CONFIG_HOLD_THRESHOLD        "org.utouch.hold.threshold"
/** GeisInteger ms from a tap to the next one of a multi-tap; default 400. */
#define UTOUCH_GEIS_CONFIG_MULTITAP_TIMEOUT      "org.utouch.multitap.timeout"
/** GeisFloat metres between the taps of a multi-tap; default 0.010. */
#define UTOUCH_GEIS_CONFIG_MULTITAP_THRESHOLD    "org.utouch.multitap.threshold"
/** GeisInteger highest tap count, 1..100 (1: off); default 3. */
#define UTOUCH_GEIS_CONFIG_MULTITAP_MAXIMUM      "org.utouch.multitap.maximum"
/** GeisInteger UTOUCH_GEIS_EDGE_* bits, not 0; default all four. */
#define UTOUCH_GEIS_CONFIG_EDGE_SWIPE_EDGES      "org.utouch.edge-swipe.edges"
/** GeisFloat metres from the edge where an edge swipe begins; default 0.005. */
#define UTOUCH_GEIS_CONFIG_EDGE_SWIPE_MARGIN     "org.utouch.edge-swipe.margin"
/** GeisFloat minimum initial inward velocity, m/s; default 0.03. */
#define UTOUCH_GEIS_CONFIG_EDGE_SWIPE_VELOCITY   "org.utouch.edge-swipe.velocity"
/** GeisInteger ms of motion the windowed velocity looks at, > 0; default 150. */
#define UTOUCH_GEIS_CONFIG_VELOCITY_WINDOW       "org.utouch.velocity.window"
/**
 * GeisInteger 0 or 1, default 0: whole-hand gestures, for system gestures.
 * With 1 a gesture of the subscription is only made of every touch down on
 * its device and window (a three-finger subscription gets nothing from four
 * fingers), and an undecided one is cancelled, its touches going back to the
 * application, when a touch lands that it does not take; an accepted one
 * goes on.  Unlike the items above it adds no gesture attributes.  grail's
 * UGSubscriptionPropertyWholeHand (doc/grail.md, "Whole-hand gestures").
 */
#define UTOUCH_GEIS_CONFIG_WHOLE_HAND            "org.utouch.whole-hand"

/** Edges for UTOUCH_GEIS_CONFIG_EDGE_SWIPE_EDGES (the ends of the device's
 * X and Y axes, the screen's edges on a touchscreen). */
#define UTOUCH_GEIS_EDGE_LEFT   1
#define UTOUCH_GEIS_EDGE_RIGHT  2
#define UTOUCH_GEIS_EDGE_TOP    4
#define UTOUCH_GEIS_EDGE_BOTTOM 8

/**
 * Gesture attributes (frame attributes of GESTURE_BEGIN/UPDATE/END events)
 * of the subscriptions that use an extension (a Hold or EdgeSwipe class
 * term or a UTOUCH_GEIS_CONFIG_* item).
 */
/**
 * GeisFloat: the centroid's velocity in pixels (direct devices) or device
 * units per ms, the least-squares slope over the velocity window; on
 * GESTURE_END the release velocity, for flinging.  (geis 2.2's "velocity x"
 * is the change since the previous event divided by its time.)
 */
#define UTOUCH_GEIS_GESTURE_ATTRIBUTE_WINDOWED_VELOCITY_X "windowed velocity x"
/** GeisFloat: Y of UTOUCH_GEIS_GESTURE_ATTRIBUTE_WINDOWED_VELOCITY_X. */
#define UTOUCH_GEIS_GESTURE_ATTRIBUTE_WINDOWED_VELOCITY_Y "windowed velocity y"
/** GeisInteger: the tap count of a tap (1 single, 2 double, ...); only on taps. */
#define UTOUCH_GEIS_GESTURE_ATTRIBUTE_TAP_COUNT "tap count"
/** GeisString: "left", "right", "top" or "bottom"; only on edge swipes. */
#define UTOUCH_GEIS_GESTURE_ATTRIBUTE_EDGE      "edge"

/**
 * Whether a recording has been played to the end.
 *
 * The recording device stays available after the end (no
 * DEVICE_UNAVAILABLE event), so its attributes can still be read.  Once
 * the recording is finished and every resulting event was dispatched,
 * the configuration fd is no longer readable and geis_dispatch_events()
 * returns GEIS_STATUS_EMPTY.
 *
 * @param geis the instance
 * @return GEIS_TRUE when the backend is a recording that has been played
 *         completely, GEIS_FALSE otherwise (also for other backends and
 *         NULL)
 */
GEIS_API GeisBoolean utouch_geis_playback_finished(Geis geis);

/**
 * The current time of the instance's backend clock in milliseconds, the
 * time base of the "timestamp" attributes.  Recordings: 1000 + the
 * recording's own time (virtual in fast mode, elapsed real time since the
 * start otherwise), so the first recorded event has timestamp 1000.
 * evdev: CLOCK_MONOTONIC.  X11: the X server's time (the newest server
 * timestamp seen, from the start on, plus the time elapsed since), whose
 * low 31 bits are the "timestamp".
 *
 * @param geis the instance
 * @return the time, 0 for NULL
 */
GEIS_API uint64_t utouch_geis_now(Geis geis);

/**
 * The window id of a region: the X window of a GEIS_REGION_X11_WINDOWID or
 * GEIS_REGION_X11_ROOT region, or the id geis gave a UTOUCH_GEIS_REGION_RECT
 * region.  Use it in a GEIS_FILTER_REGION term
 * (GEIS_REGION_ATTRIBUTE_WINDOWID EQ id); events report it as their
 * "event window id".
 *
 * @param region the region
 * @return the window id, 0 for NULL
 */
GEIS_API GeisInteger utouch_geis_region_window_id(GeisRegion region);

/**
 * Add a stream of `struct input_event` records (a pipe, a socket, a file)
 * as a device of an evdev-backend instance.  This is how an embedder feeds
 * input it reads itself, and how the tests drive the evdev backend without
 * /dev/uinput.  The device's capabilities (axes, ranges, protocol) come
 * from the header of an evemu or libinput-record file.  The device is
 * removed (DEVICE_UNAVAILABLE) at end of file.  Event times are taken as
 * they are: write CLOCK_MONOTONIC times for timeouts to work.  What the
 * stream holds is read by the next geis_dispatch_events(), so that a
 * subscription made right after this call sees its touches.
 *
 * @param geis an instance using the evdev backend
 * @param fd the stream; the instance takes it (also on failure)
 * @param caps_path a recording whose device description to use
 * @return GEIS_STATUS_SUCCESS; GEIS_STATUS_BAD_ARGUMENT for NULL, a
 *         negative fd, another backend, or a recording that cannot be
 *         read (the error stack names the file and line);
 *         GEIS_STATUS_UNKNOWN_ERROR when the device cannot be taken (out
 *         of memory; the stream is closed)
 */
GEIS_API GeisStatus utouch_geis_add_input_fd(Geis geis, int fd, const char *caps_path);

/** Priorities of the messages a log handler receives, lowest first. */
enum utouch_geis_log_priority {
	UTOUCH_GEIS_LOG_DEBUG = 10,    /**< tracing for developers */
	UTOUCH_GEIS_LOG_INFO = 20,     /**< errors also pushed on the error stack */
	UTOUCH_GEIS_LOG_WARNING = 30,  /**< input skipped: a device that cannot be used */
	UTOUCH_GEIS_LOG_ERROR = 40,    /**< failures nobody else reports */
};

/**
 * Receives one message of an instance.
 *
 * @param data the pointer given to utouch_geis_set_log_handler()
 * @param priority the message's priority
 * @param message the message, without trailing newline
 */
typedef void (*utouch_geis_log_handler)(void *data, enum utouch_geis_log_priority priority,
					const char *message);

/**
 * Install a log handler on an instance.
 *
 * Without one, an instance's messages go to stderr as "geis PRIORITY:
 * MESSAGE" from the priority the environment variable UTOUCH_DEBUG names
 * (debug, info, warning, error: the default, none).  With one, every
 * message of the instance goes to it instead, whatever its priority: each
 * error pushed on its error stack (info), each input device its evdev
 * backend skips or loses (warning, once per problem), the loss of its X
 * server (error).  Messages about no instance (a NULL handle or object,
 * see "client bug: " in the README) keep going to stderr; handlers of
 * other libraries (grail_set_log_handler()) do not receive the
 * instance's messages, nor it theirs.  The handler runs inside a call on
 * the instance: geis_delete() from it returns GEIS_STATUS_BAD_ARGUMENT
 * (a client bug on stderr) and the instance stays, except during
 * geis_dispatch_events(), which frees it as it returns.
 *
 * @param geis the instance (NULL: a client bug, nothing happens)
 * @param handler the handler, or NULL to go back to stderr
 * @param data passed to @p handler unchanged
 */
GEIS_API void utouch_geis_set_log_handler(Geis geis, utouch_geis_log_handler handler,
					  void *data);

#ifdef __cplusplus
}
#endif

#endif /* UTOUCH_GEIS_H */
