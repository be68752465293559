/*
 * A recording turned into a script: the frames of touch operations that a
 * player feeds to the frame layer, built once and replayed as often as
 * needed (utouch-replay, the benchmark, geis's recording backend).
 */
#ifndef UTOUCH_RECORDING_SCRIPT_H
#define UTOUCH_RECORDING_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

#include "frame/frame-peer.h"
#include "input/evdev/evstream.h"
#include "input/recording/recording.h"

/** Internal times start here so that no event has time 0 (0 means "no
 * timeout" in grail_next_timeout()); printed times subtract it. */
#define UT_SCRIPT_TIME_BASE_MS 1000u

struct ut_script_frame {
	uint64_t time;   /* ms, UT_SCRIPT_TIME_BASE_MS + time since the first event */
	size_t first;    /* index into ops */
	size_t count;
};

struct ut_script {
	struct ut_touch_op *ops;
	size_t nops, capops;
	struct ut_script_frame *frames;
	size_t nframes, capframes;
	uint64_t last_time;
	char protocol;   /* 'A' or 'B' */
	int direct;
	uint64_t usec0;  /* time of the first event of the recording */
	unsigned long dropped; /* protocol A contacts beyond max_contacts in one
	                          report, left out (ut_evstream_dropped()) */
	int max_contacts;      /* ut_evstream_max_contacts() */
	size_t ended_at_end;   /* touches still down at the end of the recording,
	                          ended there (ut_evstream_end_all()) */
	int oom;
};

/**
 * Run every event of @p rec through an evdev stream with @p opts and keep
 * the frames.  Touches still down at the end (a cut-off recording) end in
 * a last frame at the time of the latest event.  Returns 0, or -EINVAL when the device has no multitouch
 * axes, -ENOMEM.
 */
UT_FRAME_PRIVATE
int ut_script_build(struct ut_script *s, const struct ut_recording *rec,
		 const struct ut_evstream_opts *opts);

/** Free what ut_script_build() allocated. */
UT_FRAME_PRIVATE
void ut_script_release(struct ut_script *s);

/** "begin", "update", "end", "owned" or "pending-end". */
UT_FRAME_PRIVATE
const char *ut_script_op_name(enum ut_op_kind kind);

#endif
