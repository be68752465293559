/*
 * Helpers shared by the geis tests: recordings, event collection and an
 * independent model of a recording's touches.
 */
#ifndef UTOUCH_GEIS_TEST_H
#define UTOUCH_GEIS_TEST_H

#include <stddef.h>
#include <stdint.h>

#include <geis/geis.h>
#include <linux/input.h>
#include <utouch/geis.h>

/** Absolute path of a bundled recording (data/recordings/NAME). */
const char *gt_recording(const char *name);

/**
 * A geis instance playing the bundled recording @p name as fast as it is
 * dispatched (UTOUCH_GEIS_INIT_RECORDING_FAST), with one more init
 * argument @p flag (e.g. GEIS_INIT_TRACK_DEVICES; NULL for none).  Fails
 * the test when geis_new() does.  Free it with geis_delete().
 */
Geis gt_open_recording(const char *name, GeisString flag);

/**
 * A subscription (not activated) with one filter: the class @p klass
 * (GEIS_GESTURE_DRAG, ...; NULL for any) and @p touches touches (0 for any
 * count); with neither the filter has no terms.  Fails the test on error.
 */
GeisSubscription gt_subscription(Geis geis, GeisSubscriptionFlags flags, const char *klass,
				 int touches);

/** The instance's pollable fd (GEIS_CONFIGURATION_FD); fails the test
 *  when geis does not give it. */
int gt_fd(Geis geis);

/** Dispatch @p geis whenever its fd is readable, for about @p ms
 *  milliseconds (polls of 1 ms); for instances on input streams that the
 *  test writes. */
void gt_pump(Geis geis, int ms);

/** One gesture event, flattened for checks. */
struct gt_event {
	GeisEventType type;
	GeisGestureId id;
	int touches;
	int64_t timestamp;
	float pos_x, pos_y, delta_x, delta_y, vel_x, vel_y;
	float radius, radius_delta, radial_velocity;
	float angle, angle_delta, angular_velocity;
	float focus_x, focus_y, bbox[4];
	int window, device;
	int touch_id[5];
	float touch_x[5], touch_y[5];
	int construction_finished;
	unsigned mask;  /* "gesture name": 1 drag 2 pinch 4 rotate 8 tap 16 touch */
	float centroid_x, centroid_y;
	float matrix[9];   /* geis_frame_matrix() */
	int root_window, child_window;
	int tap_time;      /* -1 when absent */
};

struct gt_log {
	struct gt_event *ev;
	size_t n, cap;
	size_t other;   /* non-gesture events */
};

/** Flatten a gesture event (any event: non-gesture ones count in other). */
void gt_log_add(struct gt_log *log, Geis geis, GeisEvent ev);
void gt_log_free(struct gt_log *log);

/** Dispatch until the recording finished and nothing is left; log every
 * event taken with geis_next_event(). */
void gt_run_fast(Geis geis, struct gt_log *log);

/** gt_run_fast() handing every event to @p fn instead of logging it. */
void gt_run_fast_each(Geis geis, void (*fn)(void *data, GeisEvent ev), void *data);

/** Touch state after one SYN_REPORT of a recording. */
struct gt_snap {
	int64_t time;      /* ms, in geis' recording time base (first event 1000) */
	int n;
	int id[16];        /* 1, 2, 3 ... in order of appearance */
	float x[16], y[16];/* window coordinates (1024 x 768 screen) */
	float dx[16], dy[16]; /* device coordinates (raw axis values) */
};

/** Replay a protocol-B recording by hand. Returns the number of snapshots
 * in *out (caller frees). */
size_t gt_model(const char *path, struct gt_snap **out);

/** The first snapshot with the given time, or NULL. */
const struct gt_snap *gt_model_at(const struct gt_snap *s, size_t n, int64_t time);

/** Mean window position of the touches of a snapshot. */
void gt_centroid(const struct gt_snap *s, float *x, float *y);

/** Index of touch @p id in a snapshot, or -1. */
int gt_find_touch(const struct gt_snap *s, int id);

/**
 * The events of the recording @p path as struct input_event records at
 * CLOCK_MONOTONIC times that keep the recording's spacing and end now,
 * for a stream written whole into a pipe (utouch_geis_add_input_fd()).
 * Returns their number; *out is the caller's to free.
 */
size_t gt_input_events(const char *path, struct input_event **out);

/**
 * Write @p n events whole into a new pipe (they must fit it), close its
 * write end and add the read end to @p geis as a device with the
 * capabilities of the recording @p caps_path.  Makes no heap call of its
 * own.  Returns what utouch_geis_add_input_fd() returned.
 */
GeisStatus gt_add_stream(Geis geis, const struct input_event *evs, size_t n,
			 const char *caps_path);

/** An empty directory made for the test in @p buf (at least 64 bytes), so
 * that an evdev backend pointed at it finds no real device; 0 on success. */
int gt_empty_dir(char *buf, size_t size);

/** Remove the directory gt_empty_dir() made, and the file @p leftover in
 * it when not NULL; 0 on success. */
int gt_remove_dir(const char *dir, const char *leftover);

#endif
