/*
 * A recording turned into a script: the frames of touch operations that
 * utouch-replay feeds to the frame layer, built once and replayed as often
 * as needed (the benchmark replays it many times).
 */
#ifndef UTOUCH_REPLAY_SCRIPT_H
#define UTOUCH_REPLAY_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

#include "backend/evdev/evstream.h"
#include "backend/recording/recording.h"

/** Internal times start here so that no event has time 0 (0 means "no
 * timeout" in grail_next_timeout()); printed times subtract it. */
#define SCRIPT_TIME_BASE_MS 1000u

struct script_frame {
	uint64_t time;   /* ms, SCRIPT_TIME_BASE_MS + time since the first event */
	size_t first;    /* index into ops */
	size_t count;
};

struct script {
	struct ut_touch_op *ops;
	size_t nops, capops;
	struct script_frame *frames;
	size_t nframes, capframes;
	uint64_t last_time;
	char protocol;   /* 'A' or 'B' */
	int direct;
	uint64_t usec0;  /* time of the first event of the recording */
	int oom;
};

/**
 * Run every event of @p rec through an evdev stream with @p opts and keep
 * the frames.  Returns 0, or -EINVAL when the device has no multitouch
 * axes, -ENOMEM.
 */
int script_build(struct script *s, const struct ut_recording *rec,
		 const struct ut_evstream_opts *opts);

/** Free what script_build() allocated. */
void script_release(struct script *s);

/** "begin", "update", "end", "owned" or "pending-end". */
const char *script_op_name(enum ut_op_kind kind);

#endif
