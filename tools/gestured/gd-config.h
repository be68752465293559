/*
 * utouch-gestured: the configuration (rules) and its YAML parser.
 *
 * The file is a YAML mapping with an optional "settings" mapping and a
 * "gestures" sequence of rules (doc/gestured.md has the full format).
 * Parse errors name the file, line and column.
 */
#ifndef GD_CONFIG_H
#define GD_CONFIG_H

#include <stddef.h>
#include <stdio.h>

/** Gesture kinds a rule can name. */
enum gd_kind { GD_SWIPE, GD_PINCH, GD_ROTATE, GD_TAP, GD_HOLD, GD_KIND_COUNT };

/** Directions: swipes (up/down/left/right and the four diagonals), pinches
 * (in/out), rotations (cw/ccw). */
enum gd_dir {
	GD_DIR_ANY, GD_DIR_UP, GD_DIR_DOWN, GD_DIR_LEFT, GD_DIR_RIGHT,
	GD_DIR_IN, GD_DIR_OUT, GD_DIR_CW, GD_DIR_CCW,
	GD_DIR_UP_LEFT, GD_DIR_UP_RIGHT, GD_DIR_DOWN_LEFT, GD_DIR_DOWN_RIGHT
};

/** Device kinds. */
enum gd_device { GD_DEV_ANY, GD_DEV_TOUCHSCREEN, GD_DEV_TOUCHPAD };

/** Screen edges and corners a swipe may be required to start at. */
enum gd_edge {
	GD_EDGE_NONE, GD_EDGE_LEFT, GD_EDGE_RIGHT, GD_EDGE_TOP, GD_EDGE_BOTTOM,
	GD_EDGE_TOP_LEFT, GD_EDGE_TOP_RIGHT, GD_EDGE_BOTTOM_LEFT, GD_EDGE_BOTTOM_RIGHT
};

/** How the screen is turned from an evdev touchscreen's own orientation
 * (the way xrandr names it): swipe directions and edges turn with it.
 * GD_ORIENT_AUTO (a setting only): the X server's RandR rotation of the
 * output the touchscreen maps to (gd-screen.h), normal without X. */
enum gd_orientation {
	GD_ORIENT_NORMAL, GD_ORIENT_LEFT, GD_ORIENT_INVERTED, GD_ORIENT_RIGHT, GD_ORIENT_AUTO
};

/** The most taps of a multi-tap a rule can ask for. */
#define GD_MAX_TAPS 3

/** What a rule does. */
enum gd_action { GD_ACT_COMMAND, GD_ACT_KEYS, GD_ACT_CONTINUOUS, GD_ACT_CLICK };

/** One rule of the configuration. */
struct gd_rule {
	int line;               /**< line of the rule in the file (1-based) */
	enum gd_kind kind;
	int fingers;            /**< 1..5 */
	int taps;               /**< tap: 1 single, 2 double, 3 triple; else 1 */
	enum gd_dir dir;
	enum gd_device device;
	char *device_name;      /**< the device's name contains this (any case;
	                             a pattern with * ? [ ]: matches it), NULL: any */
	char *app;              /**< WM_CLASS instance or class name, NULL: any */
	enum gd_edge edge;
	double edge_mm;         /**< how close to the edge the gesture must begin */
	double threshold;       /**< mm (swipe, pinch: change of spread; hold:
	                             largest movement), degrees (rotate) */
	int timeout_ms;         /**< longest time to reach the threshold, 0: none */
	int hold_ms;            /**< hold: how long the fingers stay down */
	enum gd_action action;
	char *arg;              /**< the command line, the key combination or the button
	                             ("left", "middle", "right") */
	double distance;        /**< mm (degrees for rotate) per unit of progress */
	int repeat;             /**< run again at every further unit of progress */
	int interval_ms;        /**< least time between two runs of the action */
};

/** A parsed configuration. */
struct gd_config {
	char *path;             /**< the file it came from ("" when built empty) */
	struct gd_rule *rules;
	size_t nrules;
	enum gd_orientation orientation;  /**< settings: orientation */
	int proxy;              /**< settings: proxy: true (the --proxy option) */
	/** settings: whole-hand (default true): a rule for N fingers fires only
	 * while exactly N fingers are down (UTOUCH_GEIS_CONFIG_WHOLE_HAND) */
	int whole_hand;
};

/** Receives each error and warning of a file ("FILE:LINE:COLUMN: ..."). */
typedef void (*gd_config_report)(void *data, const char *message);

/** Printable names, for messages and environment variables. */
const char *gd_kind_name(enum gd_kind k);
/** Name of a direction ("any" for GD_DIR_ANY). */
const char *gd_dir_name(enum gd_dir d);
/** Name of a device kind ("any" for GD_DEV_ANY). */
const char *gd_device_name(enum gd_device d);

/**
 * Parse a configuration file.
 *
 * The file must be safe to run commands from (util/yaml-config.h,
 * ut_yaml_load_file(): owned by the user or root, not writable by
 * everyone).  Every error of the file is found; @p err gets the first.
 *
 * @param path the file
 * @param err buffer for the reason of a failure, "FILE:LINE:COLUMN: message"
 * @param errlen size of @p err
 * @return the configuration (free with gd_config_free()), or NULL with
 *         @p err set and errno ENOENT when the file does not exist
 */
struct gd_config *gd_config_load(const char *path, char *err, size_t errlen);

/**
 * gd_config_load() that also passes every error and every warning (rules
 * that can never run) to @p report, for --check.
 *
 * @param path the file
 * @param report receives each message
 * @param data for @p report
 * @param err buffer for the first error
 * @param errlen size of @p err
 * @return the configuration, or NULL
 */
struct gd_config *gd_config_load_report(const char *path, gd_config_report report, void *data,
					char *err, size_t errlen);

/**
 * Parse a configuration held in memory (the tests use it).
 *
 * @param name the name used in messages
 * @param text the YAML text
 * @param len its length
 * @param err buffer for the reason of a failure
 * @param errlen size of @p err
 * @return the configuration, or NULL with @p err set
 */
struct gd_config *gd_config_parse(const char *name, const char *text, size_t len,
				  char *err, size_t errlen);

/**
 * An empty configuration (no rules): what the daemon runs with while the
 * file does not exist.
 *
 * @param path the file it stands for
 * @return the configuration, or NULL when out of memory
 */
struct gd_config *gd_config_empty(const char *path);

/**
 * utouch-gestured --check: every error and warning of the file on @p err,
 * then "PATH: OK, N rules" on @p out.  A file that does not exist is
 * what the daemon runs with no gestures from: said on @p out, with where
 * the file is looked for, and not an error.
 *
 * @return the exit status: 0, or 1 when the file has errors
 */
int gd_config_check(const char *path, FILE *out, FILE *err);

/** Free a configuration (NULL is ignored). */
void gd_config_free(struct gd_config *cfg);

/**
 * Check a key combination ("ctrl+alt+Left"): modifier names and one key
 * name known to X (keysym names).
 *
 * @param keys the combination
 * @param err buffer for the reason it is refused
 * @param errlen size of @p err
 * @return 0 when valid, -1 otherwise
 */
int gd_keys_check(const char *keys, char *err, size_t errlen);

#endif /* GD_CONFIG_H */
