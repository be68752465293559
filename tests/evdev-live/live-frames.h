/*
 * Frame events for the evdev-live tests.  The module hands out frames of
 * touch operations and device events only; the tests build frame events
 * from the operations the way geis's router does for window 1: one frame
 * builder per device, new touches owned from their begin.
 */
#ifndef UTOUCH_TEST_LIVE_FRAMES_H
#define UTOUCH_TEST_LIVE_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "geis/evdev-live.h"
#include "input/evdev/framer.h"

#define LIVE_FRAMES_MAX 8

struct live_frames {
	struct ut_evdev_live_device *dev[LIVE_FRAMES_MAX];
	struct ut_frame_builder builder[LIVE_FRAMES_MAX];
};

/* The builder of @p dev, started at its first frame of operations. */
static inline struct ut_frame_builder *
live_frames_of(struct live_frames *lf, struct ut_evdev_live_device *dev)
{
	int free_slot = -1;

	for (int i = 0; i < LIVE_FRAMES_MAX; i++) {
		if (lf->dev[i] == dev)
			return &lf->builder[i];
		if (!lf->dev[i] && free_slot < 0)
			free_slot = i;
	}
	assert_true(free_slot >= 0);
	lf->dev[free_slot] = dev;
	ut_frame_builder_init(&lf->builder[free_slot],
			      ut_evdev_live_device_get_backend_device(dev), 1, 1);
	return &lf->builder[free_slot];
}

/* Build the frame of @p ops and hand it to @p sink (which does not keep
 * the reference). */
static inline void
live_frames_build(struct live_frames *lf, struct ut_evdev_live_device *dev, uint64_t time_ms,
		  const struct ut_touch_op *ops, size_t nops,
		  void (*sink)(void *data, UFEvent ev), void *data)
{
	UFEvent ev = ut_framer_build(live_frames_of(lf, dev), time_ms, ops, nops);

	assert_non_null(ev);
	sink(data, ev);
	frame_event_unref(ev);
}

/* @p dev was removed: drop its builder (its memory may serve a new device). */
static inline void
live_frames_forget(struct live_frames *lf, struct ut_evdev_live_device *dev)
{
	for (int i = 0; i < LIVE_FRAMES_MAX; i++) {
		if (lf->dev[i] == dev) {
			ut_frame_builder_fini(&lf->builder[i]);
			lf->dev[i] = NULL;
		}
	}
}

/* Drop every builder. */
static inline void
live_frames_fini(struct live_frames *lf)
{
	for (int i = 0; i < LIVE_FRAMES_MAX; i++) {
		if (lf->dev[i])
			ut_frame_builder_fini(&lf->builder[i]);
		lf->dev[i] = NULL;
	}
}

#endif
