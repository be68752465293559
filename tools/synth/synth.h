/*
 * utouch-synth: turns a scenario (touch motions in millimetres) into an
 * evdev recording of one of a few built-in device presets.
 *
 * scenario.c  parses the scenario text into touches with timed segments
 * presets.c   the device presets and event code names
 * render.c    samples the touches at the report rate and produces the
 *             kernel-style event stream (protocol A or B)
 * output.c    writes the stream as evemu 2.x, evemu 1.0 or libinput YAML
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SYNTH_MAX_ARGS 16
#define SYNTH_MAX_TOUCHES 64 /* simultaneous touches one statement may create */

/* ------------------------------------------------------------------ */
/* device presets                                                      */

struct synth_axis {
	int min, max;
	int res; /* units per mm, 0 if the device reports none */
};

enum synth_protocol {
	SYNTH_PROTOCOL_A,
	SYNTH_PROTOCOL_B,
};

struct synth_preset {
	const char *name;
	const char *summary;
	const char *device_name;
	uint16_t bus, vendor, product, version;
	enum synth_protocol protocol;
	bool a_tracking_id;  /* protocol A: reports ABS_MT_TRACKING_ID */
	bool prop_direct;    /* INPUT_PROP_DIRECT */
	bool prop_pointer;   /* INPUT_PROP_POINTER */
	bool prop_buttonpad; /* INPUT_PROP_BUTTONPAD */
	bool touchpad;       /* BTN_TOOL_* finger counts and BTN_LEFT */
	int slots;           /* protocol B: slot count; A: most contacts */
	int tracking_max;    /* largest tracking id before wrapping */
	struct synth_axis x, y;
	double width_mm, height_mm; /* surface size the axes span */
	int touch_major;     /* constant ABS_MT_TOUCH_MAJOR, 0 = axis absent */
	int touch_minor;     /* constant ABS_MT_TOUCH_MINOR, 0 = axis absent */
	int pressure;        /* constant ABS_MT_PRESSURE, 0 = axis absent */
	bool msc_timestamp;  /* MSC_TIMESTAMP in every report */
	const char *udev_type; /* ID_INPUT_TOUCHSCREEN or ID_INPUT_TOUCHPAD */
};

const struct synth_preset *synth_preset_find(const char *name);
const struct synth_preset *synth_preset_get(size_t index); /* NULL past end */

/* Name of an event type or code for comments ("EV_ABS", "ABS_MT_SLOT"). */
const char *synth_type_name(unsigned type);
const char *synth_code_name(unsigned type, unsigned code);

/* ------------------------------------------------------------------ */
/* scenario                                                            */

enum synth_segment_kind {
	SEG_HOLD,  /* stay at p0 */
	SEG_LINE,  /* p0 + u * (dx, dy) */
	SEG_ARC,   /* rotate p0 about (cx, cy) by u * angle (radians) */
	SEG_SCALE, /* scale p0 about (cx, cy) by 1 + u * (factor - 1) */
};

struct synth_segment {
	enum synth_segment_kind kind;
	int64_t t0, t1;    /* microseconds, t1 >= t0 */
	double x0, y0;     /* position at t0, mm */
	double x1, y1;     /* position at t1, mm */
	double dx, dy;     /* SEG_LINE */
	double cx, cy;     /* SEG_ARC, SEG_SCALE */
	double amount;     /* SEG_ARC: angle in radians; SEG_SCALE: factor */
};

struct synth_touch {
	int line;           /* scenario line that created the touch */
	int64_t start;      /* touch-down time, microseconds */
	bool lifted;        /* no further segments may be appended */
	struct synth_segment *segs;
	size_t nsegs, capsegs;
};

struct synth_scenario {
	char *path;         /* as given, for messages */
	char *basename;     /* for comments in the output */
	char *preset_name;  /* from the `device` line, NULL if none */
	int preset_line;
	int fuzz;           /* -1 unless `device ... fuzz=N` */
	double rate_hz;
	int64_t interval_us;
	double jitter_mm;
	uint64_t seed;
	struct synth_touch *touches;
	size_t ntouches, captouches;
};

/* Parse a scenario; on error prints "PATH:LINE: message" to stderr and
 * returns NULL. */
struct synth_scenario *synth_scenario_load(const char *path);
void synth_scenario_free(struct synth_scenario *sc);

/* End time of a touch (the end of its last segment). */
int64_t synth_touch_end(const struct synth_touch *t);
/* Position of a touch at time t (clamped to its segments), in mm. */
void synth_touch_position(const struct synth_touch *t, int64_t when,
			  double *x, double *y);

/* Report ticks: the first tick at or after the touch-down, the last tick
 * the touch is down, and the tick of its release. */
void synth_touch_ticks(const struct synth_touch *t, int64_t interval_us,
		       int64_t *first, int64_t *last, int64_t *release);

/* ------------------------------------------------------------------ */
/* rendering                                                           */

struct synth_event {
	int64_t usec; /* relative to the first report */
	uint16_t type, code;
	int32_t value;
};

struct synth_stream {
	const struct synth_preset *preset;
	int fuzz; /* fuzz written for the MT position axes */
	struct synth_event *events;
	size_t nevents, capevents;
	size_t nreports;
};

/* Render the scenario for a preset.  Returns 0 or -1 after printing
 * "PATH:LINE: message" for a problem tied to a scenario line. */
int synth_render(const struct synth_scenario *sc,
		 const struct synth_preset *preset, struct synth_stream *out);
void synth_stream_release(struct synth_stream *st);

/* Stamp events the way some kernels do on real hardware (N-Trig, Apple
 * Magic Trackpad): every event moves 1 ms later, then inside each report
 * every second event (the SYN_REPORT excluded) is stamped @p usec
 * microseconds earlier than the event before it.  @p usec is 1..1000. */
void synth_stream_backstep(struct synth_stream *st, int usec);

/* ------------------------------------------------------------------ */
/* output                                                              */

enum synth_format {
	SYNTH_FORMAT_EVEMU2,
	SYNTH_FORMAT_EVEMU1,
	SYNTH_FORMAT_LIBINPUT,
};

/* Each returns 0, or -1 if writing failed (errno set). */
int synth_write_evemu_device(FILE *fp, const struct synth_stream *st,
			     enum synth_format format, const char *source);
int synth_write_evemu_events(FILE *fp, const struct synth_stream *st,
			     enum synth_format format);
int synth_write_libinput(FILE *fp, const struct synth_stream *st,
			 const char *source);
