/*
 * A private, headless Xorg server for end-to-end tests.
 *
 * xh_start() writes an xorg.conf into a fresh temporary directory and runs
 * Xorg on a free display number with the "dummy" video driver and one or
 * more "inputtest" touch screens.  The test then injects touches through
 * the inputtest driver's control socket (see inputtestdrv(4)); every wait
 * is bounded by a timeout, so a broken server makes the test fail instead
 * of hanging.
 *
 * Typical use:
 *
 *   struct xh_server xs;
 *   int rc = xh_start(&xs, 1);
 *   if (rc == XH_SKIP) { fprintf(stderr, "SKIP: %s\n", xs.error); return 77; }
 *   if (rc != 0) { ... fail ... }
 *   Display *dpy = XOpenDisplay(xs.display_name);
 *   ... select touch events, create windows ...
 *   xh_touch_begin(&xs.devices[0], 1, 100, 200);
 *   xh_sync(&xs.devices[0]);   (the server has processed the touch)
 *   XSync(dpy, False);         (its events have reached this client)
 *   ...
 *   xh_stop(&xs);
 *
 * Screen: XH_SCREEN_WIDTH x XH_SCREEN_HEIGHT pixels, depth 24.  The
 * inputtest touch device has valuators 0 ("Abs MT Position X") and 1
 * ("Abs MT Position Y") with the range 0..XH_AXIS_MAX, which the server
 * maps linearly onto the screen; 2 and 3 are scroll valuators and 4 is
 * "Abs MT Pressure" (0..2047).  Direct touch mode, XH_TOUCH_COUNT touches.
 *
 * Requirements: root (Xorg opens /dev/tty0 and the input drivers), the
 * Debian packages xserver-xorg-core and xserver-xorg-video-dummy, and the
 * inputtest driver (shipped in xserver-xorg-core).  The server does not
 * switch virtual terminals (-novtswitch -sharevts) and listens only on its
 * Unix socket.  Set XH_XORG to use another server binary, and XH_KEEP=1
 * to keep the temporary directory (config, log) after xh_stop().
 *
 * Not thread safe: use one struct xh_server from one thread.
 */
#ifndef UTOUCH_TESTS_XORG_HARNESS_H
#define UTOUCH_TESTS_XORG_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <sys/types.h>

#include <X11/Xlib.h>

/*
 * The checks of the scenario programs, which run one scenario per process
 * against a real server and count failures instead of stopping at the
 * first: XH_CHECK(cond, "what was seen", ...) prints FILE:LINE, the
 * condition and the message and counts one failure in xh_failures.
 */
extern int xh_failures;

#define XH_CHECK(cond, ...)                                                              \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                    \
			fputc('\n', stderr);                                             \
			xh_failures++;                                                   \
		}                                                                        \
	} while (0)

/** CLOCK_MONOTONIC in milliseconds, with the fraction (latencies). */
static inline double
xh_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/** xh_start() result: the environment cannot run Xorg; skip the test. */
#define XH_SKIP 77
/** Exit status meson treats as a skipped test. */
#define XH_EXIT_SKIP 77

/** Most touch devices one server can have. */
#define XH_MAX_DEVICES 4
/** Screen size in pixels. */
#define XH_SCREEN_WIDTH 1024
#define XH_SCREEN_HEIGHT 768
/** Largest value of the X and Y valuators of the touch devices. */
#define XH_AXIS_MAX 0xffff
/** Largest value of the pressure valuator. */
#define XH_PRESSURE_MAX 2047
/** Touches each device can track. */
#define XH_TOUCH_COUNT 10
/** Timeout of each wait (server start, sync, stop), in milliseconds. */
#define XH_TIMEOUT_MS 10000

struct xh_server;

/** One inputtest touch device of a server. */
struct xh_device {
	struct xh_server *server;  /**< the server it belongs to */
	int index;                 /**< position in xh_server.devices */
	char name[32];             /**< device name (the xorg.conf Identifier) */
	char socket_path[100];     /**< the driver's control socket */
	int fd;                    /**< control connection, -1 when closed */
	int xi_id;                 /**< XI2 device id, 0 until looked up */
};

/** A running Xorg server and its temporary directory. */
struct xh_server {
	pid_t pid;                 /**< the Xorg process, 0 when not running */
	int display_num;           /**< the display number N of ":N" */
	char display_name[16];     /**< ":N", for XOpenDisplay() */
	char dir[64];              /**< temporary directory (config, log, sockets) */
	char log_path[128];        /**< the server log */
	int ndevices;              /**< number of touch devices */
	struct xh_device devices[XH_MAX_DEVICES];
	Display *ctl;              /**< the harness's own connection (device
	                                enable/disable); NULL until needed */
	char error[512];           /**< why the last call failed or skipped */
};

/**
 * Start a server with @p ndevices inputtest touch devices.
 *
 * Picks a free display number from 50 up (no lock file, no socket; if
 * another process takes it first, the next one is tried), waits until the
 * server accepts connections and connects to each device's control
 * socket.  The devices are named "xh-touch-0", "xh-touch-1", ...
 *
 * @param xs the server; everything in it is (re)initialised
 * @param ndevices 1 to XH_MAX_DEVICES
 * @return 0 on success; XH_SKIP when Xorg cannot run here (not root,
 *         packages missing, the server refused to start): xs->error says
 *         why and the test should exit XH_EXIT_SKIP; -1 on other errors
 *         (xs->error).  On failure nothing is left running.
 */
int xh_start(struct xh_server *xs, int ndevices);

/**
 * Stop the server and remove its temporary directory.
 *
 * Closes the control connections and the harness's display connection,
 * sends SIGTERM to the server's own pid, waits up to XH_TIMEOUT_MS, then
 * SIGKILL.  Safe to call twice and after xh_kill() or a failed xh_start().
 *
 * @param xs the server
 */
void xh_stop(struct xh_server *xs);

/**
 * Kill the server at once (SIGKILL) and reap it, to test how clients cope
 * with the server going away.  The temporary directory stays until
 * xh_stop().
 *
 * @param xs the server
 * @return 0, or -1 if no server was running
 */
int xh_kill(struct xh_server *xs);

/**
 * Convert a screen X position in pixels to a device X valuator value.
 *
 * @param x pixels from the left edge of the screen
 * @return the valuator value the server maps back onto @p x
 */
double xh_valuator_x(double x);

/**
 * Convert a screen Y position in pixels to a device Y valuator value.
 *
 * @param y pixels from the top edge of the screen
 * @return the valuator value the server maps back onto @p y
 */
double xh_valuator_y(double y);

/**
 * Put a touch down.
 *
 * @param dev the device
 * @param id touch id chosen by the test (the driver's touch id; X assigns
 *        its own client-visible touch ids)
 * @param x screen position in pixels
 * @param y screen position in pixels
 * @return 0, or -1 when the write failed (dev->server->error)
 */
int xh_touch_begin(struct xh_device *dev, uint32_t id, double x, double y);

/**
 * Move a touch.
 *
 * @param dev the device
 * @param id the id given to xh_touch_begin()
 * @param x screen position in pixels
 * @param y screen position in pixels
 * @return 0, or -1 when the write failed
 */
int xh_touch_update(struct xh_device *dev, uint32_t id, double x, double y);

/**
 * Lift a touch.
 *
 * @param dev the device
 * @param id the id given to xh_touch_begin()
 * @param x screen position in pixels
 * @param y screen position in pixels
 * @return 0, or -1 when the write failed
 */
int xh_touch_end(struct xh_device *dev, uint32_t id, double x, double y);

/**
 * Send a raw touch event.
 *
 * @param dev the device
 * @param xi_type XI_TouchBegin, XI_TouchUpdate or XI_TouchEnd
 * @param id touch id
 * @param vx X valuator value (0..XH_AXIS_MAX)
 * @param vy Y valuator value (0..XH_AXIS_MAX)
 * @param pressure pressure valuator value, or a negative value to leave
 *        the pressure valuator out
 * @return 0, or -1 when the write failed
 */
int xh_touch_raw(struct xh_device *dev, int xi_type, uint32_t id, double vx,
		 double vy, double pressure);

/**
 * Wait until the server has processed every event sent on @p dev.
 *
 * Uses the driver's WAIT_FOR_SYNC request.  Afterwards a client that
 * calls XSync() on its own connection has received every X event the
 * touches produced.
 *
 * @param dev the device
 * @return 0, or -1 on timeout or a broken connection
 */
int xh_sync(struct xh_device *dev);

/**
 * Look up the XI2 device id of a device (by name, on the harness's own
 * connection).
 *
 * @param dev the device
 * @return the id (> 0), or -1 if the server does not list it
 */
int xh_device_xi_id(struct xh_device *dev);

/**
 * Disable a device, as `xinput disable` does (the "Device Enabled"
 * property set to 0).  The server detaches it from its master and sends
 * XI_HierarchyChanged; the driver closes its control connection.
 *
 * The inputtest driver cannot create devices at run time, so tests
 * simulate hot-plug with xh_device_disable() / xh_device_enable().
 *
 * @param dev the device
 * @return 0, or -1 on error
 */
int xh_device_disable(struct xh_device *dev);

/**
 * Enable a device again (see xh_device_disable()) and reconnect to its
 * control socket.  The server attaches it to its master again.
 *
 * @param dev the device
 * @return 0, or -1 on error
 */
int xh_device_enable(struct xh_device *dev);

/**
 * Open a client connection to the server and ask for XInput 2.2.
 *
 * @param xs the server
 * @return the connection (close it with XCloseDisplay() before xh_stop()),
 *         or NULL (xs->error)
 */
Display *xh_open_client(struct xh_server *xs);

/**
 * Select touch events (XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd, and
 * XI_TouchOwnership if asked) on a window for all master devices, and
 * wait until the server has the selection.
 *
 * @param dpy the client
 * @param window the window
 * @param ownership nonzero to also select XI_TouchOwnership
 * @return 0, or -1 on error
 */
int xh_select_touch(Display *dpy, Window window, int ownership);

/**
 * Take a passive touch grab (XIGrabTouchBegin, any modifiers, all master
 * devices) on a window, as a window manager or gesture recogniser does on
 * the root window.  The grab mask has the touch events and
 * XI_TouchOwnership.  The grabbing client then decides each touch with
 * XIAllowTouchEvents() (or frame_accept_touch() / frame_reject_touch()).
 *
 * @param dpy the client
 * @param window the grab window (usually DefaultRootWindow(dpy))
 * @return 0, or -1 when the server refused the grab
 */
int xh_grab_touch(Display *dpy, Window window);

/**
 * Select XI_HierarchyChanged on the root window for all devices.
 *
 * @param dpy the client
 * @return 0, or -1 on error
 */
int xh_select_hierarchy(Display *dpy);

/**
 * Wait until @p dpy has at least one event queued.
 *
 * @param dpy a client connection
 * @param timeout_ms how long to wait
 * @return 1 when an event is queued, 0 on timeout
 */
int xh_wait_event(Display *dpy, int timeout_ms);

/**
 * Print the last lines of the server log to stderr (for failure
 * diagnostics).
 *
 * @param xs the server
 * @param lines how many lines
 */
void xh_dump_log(const struct xh_server *xs, int lines);

/** One scenario of a scenario program, run against a server of its own. */
struct xh_scenario {
	const char *name;   /**< what argv[1] says */
	void (*fn)(void);   /**< the scenario; it counts failures with XH_CHECK */
	int ndevices;       /**< touch devices of its server, 0: 1 */
};

/** What a scenario program does around each scenario (each may be NULL). */
struct xh_scenario_hooks {
	/** After the server started (DISPLAY set); nonzero fails the run
	 *  before the scenario (say why on stderr). */
	int (*before)(void);
	/** After the scenario, before the server stops (xh_failures tells
	 *  whether it failed: print the diagnostics of the program's own). */
	void (*after)(void);
	/** After the server stopped. */
	void (*cleanup)(void);
};

/**
 * The main() of a scenario program: run the scenario argv[1] names.  Its
 * server is started in @p xs with the scenario's devices, DISPLAY points
 * to it and UTOUCH_GEIS_BACKEND is unset (a developer's choice of geis
 * backend must not send the scenario elsewhere); after a failure the end
 * of the server log is printed.  Prints "NAME: ok" or "NAME: FAIL".
 *
 * @return the exit status: 0 pass, 1 fail, 2 bad arguments,
 *         XH_EXIT_SKIP where Xorg cannot run
 */
int xh_run_scenario(struct xh_server *xs, int argc, char **argv,
		    const struct xh_scenario *scenarios, size_t nscenarios,
		    const struct xh_scenario_hooks *hooks);

#endif /* UTOUCH_TESTS_XORG_HARNESS_H */
