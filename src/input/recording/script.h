/*
 * A recording turned into a script: the frames of touch operations that a
 * player feeds to the frame layer.  A script is either built whole, once,
 * and replayed as often as needed (the benchmark, utouch-plot), or
 * streamed: frames are made from the file as they are asked for, so that
 * memory does not depend on the length of the recording (utouch-replay,
 * geis's recording backend).  Both are read with ut_script_next().
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
	/* a built script: every frame; a streamed one: the frames made from
	 * the events read last, not yet all handed out */
	struct ut_touch_op *ops;
	size_t nops, capops;
	struct ut_script_frame *frames;
	size_t nframes, capframes;
	/* the whole recording: frames, touch operations and the time of the
	 * last frame (for a streamed script, counted when it was opened) */
	size_t total_frames, total_ops;
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
	/* reading: the next frame, and for a streamed script its source */
	size_t next;
	size_t made;          /* frames made so far */
	struct ut_recording_reader *reader;
	struct ut_evstream *stream;
	struct ut_evstream_opts opts;
	uint64_t latest;      /* latest event time read */
	uint64_t prev;        /* time of the frame made last */
	int at_end;           /* the reader has no more events */
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

/**
 * Stream the frames of @p reader: every frame is made when
 * ut_script_next() asks for it.  Opening runs the whole recording through
 * an evdev stream once to learn the totals (total_frames, total_ops,
 * last_time, dropped, ended_at_end: the same values ut_script_build()
 * gives) and starts again at the first event.  The script uses @p reader
 * until ut_script_release(); the caller closes it after that.  Returns 0,
 * -EINVAL when the device has no multitouch axes, -ENOMEM, or the
 * reader's error (message in reader->error).
 */
UT_FRAME_PRIVATE
int ut_script_open(struct ut_script *s, struct ut_recording_reader *reader,
		   const struct ut_evstream_opts *opts);

/**
 * The next frame of @p s; its operations are s->ops[f->first] to
 * s->ops[f->first + f->count - 1], valid until the next call.
 * @return 1 with *@p f set, 0 after the last frame, or a negative errno
 *         (a streamed script's reader failed: message in reader->error;
 *         -ENOMEM).
 */
static inline int ut_script_next(struct ut_script *s, const struct ut_script_frame **f);

/** ut_script_next() past the frames in memory: a streamed script makes
 *  the next ones; a built one has no more (0). */
UT_FRAME_PRIVATE
int ut_script_next_streamed(struct ut_script *s, const struct ut_script_frame **f);

/* inline: a player calls it once per frame, and a built script's frames
 * are read in place */
static inline int
ut_script_next(struct ut_script *s, const struct ut_script_frame **f)
{
	if (s->next < s->nframes) {
		*f = &s->frames[s->next++];
		return 1;
	}
	return ut_script_next_streamed(s, f);
}

/** Start again at the first frame.  Returns 0 or a negative errno as
 * ut_script_next(). */
UT_FRAME_PRIVATE
int ut_script_rewind(struct ut_script *s);

/** Free what ut_script_build() or ut_script_open() allocated (not the
 * reader). */
UT_FRAME_PRIVATE
void ut_script_release(struct ut_script *s);

/** "begin", "update", "end", "owned" or "pending-end". */
UT_FRAME_PRIVATE
const char *ut_script_op_name(enum ut_op_kind kind);

#endif
