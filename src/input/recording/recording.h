/*
 * Recordings of evdev devices: evemu (1.0 and 2.x) and libinput record YAML.
 *
 * A recording is a device description plus the stream of evdev events the
 * device produced.  The description is held in a libevdev context created
 * without a file descriptor, so the code that turns events into frames reads
 * device capabilities the same way for recordings and for live devices.
 */
#ifndef UTOUCH_RECORDING_H
#define UTOUCH_RECORDING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frame/frame-peer.h"

struct libevdev;

/** File formats understood by ut_recording_load(). */
enum ut_recording_format {
	UT_RECORDING_EVEMU_1,          /**< grail-era evemu: no resolution, absolute times */
	UT_RECORDING_EVEMU_2,          /**< "# EVEMU 1.x" header from evemu-record 2.x */
	UT_RECORDING_LIBINPUT_RECORD,  /**< YAML written by `libinput record` */
};

/** One evdev event from a recording. */
struct ut_raw_event {
	uint64_t usec;   /**< timestamp in microseconds, as written in the file */
	uint16_t type;
	uint16_t code;
	int32_t value;
};

/** A loaded recording. All memory belongs to the struct. */
struct ut_recording {
	char *path;                      /**< the events file that was loaded */
	enum ut_recording_format format;
	struct libevdev *dev;            /**< capabilities: name, ids, props, key/abs bits,
	                                      absinfo (resolution in units/mm as in evdev) */
	struct ut_raw_event *events;
	size_t nevents;
};

/** Limits that keep hostile files from using unbounded memory: the events
 * a whole load (ut_recording_load(), ut_recording_parse()) keeps, and the
 * longest line.  A recording read as a stream (ut_recording_open()) has
 * no limit on its length or its number of events. */
#define UT_RECORDING_MAX_EVENTS  (16u * 1024u * 1024u)
#define UT_RECORDING_MAX_LINE    4096u

/** How far an event's time may lie before the latest time of the events
 * before it.  Kernels stamp the events of a report one by one, and real
 * devices (N-Trig, Apple Magic Trackpad) produce stamps a few microseconds
 * before the previous one; larger steps back are refused. */
#define UT_RECORDING_MAX_BACKSTEP_USEC 1000u

/**
 * Load a recording.
 *
 * The formats, limits and error messages are described in
 * doc/recording-formats.md.  For a libinput record file with several
 * devices, the first touch device (ABS_MT_POSITION_X) with events is used,
 * else the first device with events.
 *
 * @param path       the recording (evemu or libinput record YAML; the format
 *                   is detected from the content).
 * @param device     optional separate evemu device description (`device.prop`
 *                   style); it replaces any description in @p path.  When NULL
 *                   and the recording has no device lines, `device.prop` in
 *                   the directory of @p path is used if it exists.
 * @param out        receives the recording on success, NULL on failure.  The
 *                   caller frees it with ut_recording_free().
 * @param err        buffer for an error message of the form
 *                   "PATH:LINE: what is wrong", or "PATH: what is wrong" for
 *                   problems of a whole file; PATH names the file at fault
 *                   (may be NULL).  Set to "" on success.
 * @param errlen     size of @p err.
 * @return 0 on success, a negative errno-style code on failure (-ENOENT and
 *         other open/read errors, -EINVAL for malformed content or a missing
 *         description, -E2BIG for limits, -ENOMEM).
 */
UT_FRAME_PRIVATE
int ut_recording_load(const char *path, const char *device,
                      struct ut_recording **out, char *err, size_t errlen);

/**
 * Parse a recording held in memory (used by the fuzzer and tests).
 *
 * @p data need not be NUL-terminated; a NUL byte inside is an error.
 * @p name is used in error messages and copied to the recording's path.
 * Same return values and ownership as ut_recording_load().  No device.prop
 * lookup happens, so the data must contain the device description.
 */
int ut_recording_parse(const char *name, const char *data, size_t len,
                       struct ut_recording **out, char *err, size_t errlen);

/** Free a recording; NULL is allowed. */
UT_FRAME_PRIVATE
void ut_recording_free(struct ut_recording *rec);

struct ut_recording_reader_state;

/**
 * A recording read as a stream: its events are handed out one at a time,
 * so memory does not depend on the length of the file.
 *
 * Opening reads the whole file once: the device description, and every
 * event checked as a whole load checks it (nothing of the events is kept),
 * so a malformed file is refused before anything is played, with the same
 * message ut_recording_load() gives.  ut_recording_next() then reads the
 * file a second time.  A file that cannot be read twice (a pipe) is copied
 * to an unlinked temporary file on the way.
 */
struct ut_recording_reader {
	char *path;                      /**< the events file */
	enum ut_recording_format format;
	struct libevdev *dev;            /**< capabilities, as in struct ut_recording */
	uint64_t nevents;                /**< events in the file */
	uint64_t first_usec;             /**< time of the first event */
	char error[512];                 /**< why ut_recording_next() failed */
	struct ut_recording_reader_state *priv;
};

/**
 * Open a recording for streaming.  Same arguments, checks, messages and
 * return values as ut_recording_load(), except that there is no limit on
 * the number of events.  Close it with ut_recording_close().
 */
UT_FRAME_PRIVATE
int ut_recording_open(const char *path, const char *device,
                      struct ut_recording_reader **out, char *err, size_t errlen);

/**
 * Open a recording held in memory for streaming (see ut_recording_parse();
 * @p data must stay valid until the reader is closed).
 */
UT_FRAME_PRIVATE
int ut_recording_open_memory(const char *name, const char *data, size_t len,
                             struct ut_recording_reader **out, char *err, size_t errlen);

/**
 * The next event of @p r.
 * @return 1 with the event in *@p ev, 0 after the last event, or a
 *         negative errno-style code with a "PATH:LINE: ..." message in
 *         r->error (the file changed or could not be read since it was
 *         opened).
 */
UT_FRAME_PRIVATE
int ut_recording_next(struct ut_recording_reader *r, struct ut_raw_event *ev);

/** Start again at the first event.  Returns 0 or a negative errno with
 * r->error set. */
UT_FRAME_PRIVATE
int ut_recording_rewind(struct ut_recording_reader *r);

/** Close a reader; NULL is allowed. */
UT_FRAME_PRIVATE
void ut_recording_close(struct ut_recording_reader *r);

/**
 * Write the description of @p dev as the head of an evemu recording
 * ("# EVEMU 1.3", N:, I:, P:, B: and A: lines, as evemu-record writes
 * them), with @p comment (may be NULL) as a comment line after the
 * header, to @p f, and flush it.  Events follow with
 * ut_evemu_write_event().  The result reads back through
 * ut_recording_load() with the same capabilities.
 * @return 0, -EINVAL for a NULL argument, -EIO when writing failed.
 */
UT_FRAME_PRIVATE
int ut_evemu_write_device(FILE *f, const struct libevdev *dev, const char *comment);

/**
 * Write one event line "E: SEC.USEC TYPE CODE VALUE" of an evemu
 * recording to @p f (not flushed).
 * @return 0, -EINVAL for a NULL file, -EIO when writing failed.
 */
UT_FRAME_PRIVATE
int ut_evemu_write_event(FILE *f, uint64_t usec, uint16_t type, uint16_t code,
			 int32_t value);

#endif
