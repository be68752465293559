/*
 * utouch-gestured: the daemon (geis sources, gesture decisions, the
 * configuration file watch and the main loop).
 */
#ifndef GD_DAEMON_H
#define GD_DAEMON_H

#include <stdio.h>

#include <geis/geis.h>

/** Where touches come from. */
enum gd_backend {
	GD_BACKEND_AUTO,   /**< X11 touchscreens + evdev touchpads with $DISPLAY, else evdev */
	GD_BACKEND_X11,    /**< only the X server's touch devices */
	GD_BACKEND_EVDEV,  /**< only evdev devices (every kind) */
};

/** Daemon options. */
struct gd_options {
	const char *config_path;  /**< the configuration file */
	enum gd_backend backend;
	const char *evdev_dir;    /**< directory of evdev nodes, NULL: /dev/input */
	int evdev_grab;           /**< grab the evdev devices (EVIOCGRAB): nobody else reads them */
	int proxy;                /**< touch proxy: grab, clone through uinput, hold/consume/replay */
	const char *proxy_output; /**< proxy into this evemu file instead of uinput (implies proxy) */
	const char *uinput;       /**< the uinput node, NULL: /dev/uinput */
	const char *recording;    /**< play this recording as the (grabbed) device */
	int fast;                 /**< the recording in virtual time */
	int dry_run;              /**< print actions instead of running them */
	int verbose;              /**< log every gesture decision on stderr */
	FILE *out;                /**< dry-run output, NULL: stdout */
};

struct gd_daemon;

/**
 * Start the daemon: load the configuration (a missing file is an empty
 * configuration, a broken one is an error), open the backends, subscribe.
 *
 * @param opts the options (copied)
 * @param err buffer for the reason of a failure
 * @param errlen size of @p err
 * @return the daemon, or NULL with @p err set
 */
struct gd_daemon *gd_daemon_new(const struct gd_options *opts, char *err, size_t errlen);

/** Stop the daemon and free it (NULL is ignored). */
void gd_daemon_free(struct gd_daemon *d);

/**
 * Wait for and handle whatever is ready.
 *
 * @param d the daemon
 * @param timeout_ms how long to wait, -1 for ever
 * @return 1 while the daemon should go on, 0 when it should exit
 */
int gd_daemon_step(struct gd_daemon *d, int timeout_ms);

/** Run until a signal or the X server going away ends it. @return the exit status */
int gd_daemon_run(struct gd_daemon *d);

/**
 * The geis instance reading evdev devices, NULL when there is none (the
 * tests add input streams to it with utouch_geis_add_input_fd()).
 */
Geis gd_daemon_evdev_geis(struct gd_daemon *d);

struct gd_screen;

/**
 * The daemon's view of the screen's turn (gd-screen.h): the tests set it
 * with gd_screen_update() where no server can rotate.
 */
struct gd_screen *gd_daemon_screen(struct gd_daemon *d);

/** Load the configuration file again now (as an inotify event or SIGHUP does). */
void gd_daemon_reload(struct gd_daemon *d);

/** Number of rules of the configuration in use. */
int gd_daemon_rule_count(const struct gd_daemon *d);

#endif /* GD_DAEMON_H */
