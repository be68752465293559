/*
 * utouch-replay --story: what happened in a recording, told in a few
 * sentences a person reads at a glance ("gesture 1: two-finger drag,
 * 27 mm down in 0.61 s; accepted") instead of one trace line per slice.
 */
#ifndef UTOUCH_REPLAY_STORY_H
#define UTOUCH_REPLAY_STORY_H

#include <stdint.h>
#include <stdio.h>

#include <libevdev/libevdev.h>
#include <oif/grail.h>

#include "run.h"

struct story;

/**
 * Start a story of a replay of a recording of @p dev.  @p direct and the
 * screen size say how grail's coordinates map to the device (window
 * pixels for direct devices, device units otherwise), so that distances
 * are told in millimetres where the device reports its resolution.
 * Returns NULL when out of memory.
 */
struct story *story_new(const struct libevdev *dev, int direct, int screen_w, int screen_h);

/** Note a frame of @p nbegin new touches at @p time_ms (the script's time). */
void story_frame(struct story *s, uint64_t time_ms, size_t nbegin);

/**
 * Note a slice of subscription @p sub (-1: unknown) and the decision the
 * client made on it now (REPLAY_UNDECIDED when none).  @p atomic: the
 * subscription is atomic (grail decides).  Returns -1 when out of memory.
 */
int story_slice(struct story *s, UGEvent ev, UGSlice slice, int atomic,
		enum replay_decision decision);

/** Print the story: one line about the recording, one per gesture and a
 * closing line, to @p out.  @p name is the recording's file name. */
void story_print(const struct story *s, FILE *out, const char *name);

/** Free @p s (NULL is fine). */
void story_free(struct story *s);

#endif
