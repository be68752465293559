/*
 * utouch-plot: a picture of one replay.  The replay (tools/replay/) runs
 * the recording through frame and grail; collect.c keeps what happened
 * (touch paths, gesture centroids and events), render.c and timeline.c
 * draw it on a canvas (canvas.c) that output.c writes as SVG or PNG.
 */
#ifndef UTOUCH_PLOT_H
#define UTOUCH_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cairo.h>
#include <oif/grail.h>

#include "options.h"

/* ---- what happened (collect.c) ---- */

/** A position at a time (ms since the first event of the recording). */
struct plot_point {
	double x, y;
	uint64_t t;
};

/** One touch: its positions from begin to end, in the coordinates grail
 * uses (window for direct devices, device for indirect ones). */
struct plot_touch {
	uint32_t id;              /**< the frame layer's id: 1, 2, 3 ... */
	struct plot_point *pts;
	size_t npts, cap;
	uint64_t t_begin, t_end;
	int ended;                /**< 0: still down when the recording ends */
};

/** The moments of a gesture's life that the plot marks. */
enum plot_event_kind {
	PLOT_EV_BEGIN,       /**< its first slice */
	PLOT_EV_RECOGNIZED,  /**< first slice with a recognized gesture type */
	PLOT_EV_ACCEPTED,    /**< the client accepted it */
	PLOT_EV_REJECTED,    /**< the client rejected it */
	PLOT_EV_END,         /**< its End slice */
	PLOT_EV_CANCELED,    /**< its End slice, canceled by grail */
	PLOT_EV_COUNT,
};

/** One event of a gesture; valid when the gesture's has bit is set. */
struct plot_event {
	uint64_t t;
	double x, y;              /**< the gesture's centroid then */
};

/** One gesture: its centroid after each slice and its events. */
struct plot_gesture {
	unsigned int id;          /**< grail's gesture id */
	int sub;                  /**< index of its subscription, -1 unknown */
	struct plot_point *pts;
	size_t npts, cap;
	struct plot_event ev[PLOT_EV_COUNT];
	unsigned int has;         /**< bit n: ev[n] happened */
	UGGestureTypeMask recognized;  /**< of its last slice */
	uint32_t touches[8];      /**< its touch ids (first slice) */
	unsigned int ntouches;    /**< how many it has; may exceed 8 */
	int decided;              /**< the policy made its decision */
};

/** Everything a plot shows. */
struct plot_data {
	struct plot_touch *touches;
	size_t ntouches, captouches;
	struct plot_gesture *gestures;
	size_t ngestures, capgestures;
	uint64_t t_last;          /**< time of the last frame or slice */
	int oom;
};

/**
 * Replay @p script of @p rec with the options' subscriptions and policy
 * and keep what happened in @p d.  Returns 0, or -1 with a message in
 * @p err.
 */
int plot_collect(struct plot_data *d, const struct replay_opts *opts,
		 const struct ut_recording *rec, struct ut_script *script,
		 char *err, size_t errlen);

/** Free what plot_collect() kept. */
void plot_data_release(struct plot_data *d);

/** Whether gesture @p g has event @p k. */
static inline int
plot_has(const struct plot_gesture *g, enum plot_event_kind k)
{
	return (g->has >> k) & 1u;
}

/* ---- colours (palette.c) ---- */

/** An RGB colour with components in 0..1. */
struct plot_rgb {
	double r, g, b;
};

/** Colour of touch @p id (1, 2, 3 ...): ten colours in turn. */
struct plot_rgb plot_touch_rgb(uint32_t id);

/** Colour of the @p n th gesture drawn (0, 1, 2 ...): six dark colours in turn. */
struct plot_rgb plot_gesture_rgb(size_t n);

/** "#rrggbb" of @p c into @p buf (8 bytes at least). */
void plot_rgb_hex(struct plot_rgb c, char *buf);

/* ---- the canvas (canvas.c) ---- */

enum plot_format { PLOT_SVG, PLOT_PNG };

/** Horizontal anchor of a label. */
enum plot_align { PLOT_LEFT, PLOT_CENTER, PLOT_RIGHT };

/** Marker shapes. */
enum plot_shape {
	PLOT_DOT,        /**< filled circle */
	PLOT_RING,       /**< circle outline */
	PLOT_SQUARE,     /**< square outline */
	PLOT_BLOCK,      /**< filled square */
	PLOT_DIAMOND,    /**< filled diamond */
	PLOT_TRIANGLE,   /**< filled triangle pointing up */
	PLOT_NABLA,      /**< triangle outline pointing down */
	PLOT_CROSS,      /**< an x */
};

struct plot_label;

/** A cairo context plus the labels drawn on it. */
struct plot_canvas {
	cairo_surface_t *surface;
	cairo_t *cr;
	enum plot_format format;
	int width, height;
	/* SVG: the document cairo writes, labels kept as text elements */
	char *svg;
	size_t svglen, svgcap;
	char *labels;
	size_t labelslen, labelscap;
	int oom;
};

/**
 * Start a @p width x @p height canvas with a white background.  For SVG
 * the document is kept in memory until plot_canvas_finish().  Returns 0
 * or -1 (out of memory, or cairo failed).
 */
int plot_canvas_init(struct plot_canvas *c, enum plot_format format, int width, int height);

/**
 * Draw @p text at (@p x, @p y) (baseline) in @p size px.  In PNG output
 * cairo draws it; in SVG output it becomes a <text> element with class
 * @p cls and the extra attributes @p attrs (may be NULL), so that labels
 * stay text that can be searched and read back.
 */
void plot_label(struct plot_canvas *c, double x, double y, enum plot_align align,
		double size, struct plot_rgb colour, int bold, const char *cls,
		const char *attrs, const char *text);

/** Width of @p text at @p size px, as plot_label() draws it. */
double plot_text_width(struct plot_canvas *c, double size, int bold, const char *text);

/** Draw marker @p shape of radius @p r centred on (@p x, @p y). */
void plot_marker(struct plot_canvas *c, enum plot_shape shape, double x, double y,
		 double r, struct plot_rgb colour);

/** Set the source colour of the cairo context. */
void plot_set_rgb(struct plot_canvas *c, struct plot_rgb colour, double alpha);

/**
 * Finish the canvas and write it to @p out (opened for writing, not
 * closed).  Returns 0, or -1 with errno set (write error, ENOMEM, or EIO
 * when cairo failed).
 */
int plot_canvas_write(struct plot_canvas *c, FILE *out);

/** Release the canvas (after plot_canvas_write() or on error). */
void plot_canvas_fini(struct plot_canvas *c);

/* ---- the picture (render.c, timeline.c) ---- */

/** What the picture is of, for its title and the subscription rows. */
struct plot_info {
	const char *path;
	const char *device;
	const struct replay_opts *opts;
	const char *subtext[REPLAY_MAX_SUBS];  /**< each subscription as given */
	int direct;
	int width;                /**< of the picture, in px */
};

/** The tallest PNG cairo can make, in px. */
#define PLOT_PNG_MAX 32767

/**
 * Draw the whole picture of @p d on a new canvas of format @p format.
 * Returns 0, or -1 with errno EFBIG when a PNG would be taller than
 * PLOT_PNG_MAX, or ENOMEM.
 */
int plot_render(struct plot_canvas *c, enum plot_format format,
		const struct plot_data *d, const struct plot_info *info);

/** Height in px that plot_timeline() needs for @p d. */
double plot_timeline_height(const struct plot_data *d, const struct plot_info *info);

/** Draw the timeline of @p d from height @p top down, @p left to @p right. */
void plot_timeline(struct plot_canvas *c, const struct plot_data *d,
		   const struct plot_info *info, double left, double right, double top);

/** One-letter label of event @p k as the plot writes it (B, R, A, X, E, C). */
const char *plot_event_letter(enum plot_event_kind k);

/** Name of event @p k: begin, recognized, accepted, rejected, end, canceled. */
const char *plot_event_name(enum plot_event_kind k);

/** Marker shape of event @p k. */
enum plot_shape plot_event_shape(enum plot_event_kind k);

#endif
