/*
 * The frame builder inside the source tree: the state of one (device,
 * window) frame sequence as a plain struct, so that producers embed it
 * (the evdev framer, the geis router's windows, frame_x11's windows).
 * The public face of the same builder is UTouchFrameBuilder in
 * <utouch/frame_handle.h>; doc/frame.md describes what it builds.
 */
#ifndef UTOUCH_FRAME_BUILDER_H
#define UTOUCH_FRAME_BUILDER_H

#include <stdint.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>

#include "frame/frame-peer.h"

/** One frame sequence. */
struct ut_frame_builder {
	UFBackendDevice device;  /**< holds a reference */
	UFWindowId window;
	int own_at_begin;        /**< new touches start owned */
	UFBackendFrame prev;     /**< the last frame ended (owned), or NULL */
	UFBackendFrame cur;      /**< the frame being built (owned), or NULL */
	uint64_t borrowed;       /**< bit i: cur's touch i is prev's, carried over
	                              without a reference of its own yet (taken
	                              when the frame is ended or cancelled, or
	                              dropped when the touch is copied on write) */
};

/** Start a sequence for @p device (a reference is taken) and @p window. */
UT_FRAME_PRIVATE
void ut_frame_builder_init(struct ut_frame_builder *b, UFBackendDevice device,
			   UFWindowId window, int own_at_begin);

/** Release the frames and the device reference; @p b may be initialised again. */
UT_FRAME_PRIVATE
void ut_frame_builder_fini(struct ut_frame_builder *b);

/** utouch_frame_builder_touch(), without the NULL checks. */
UFStatus ut_frame_builder_touch(struct ut_frame_builder *b,
				const struct utouch_frame_touch_op *op);

/*
 * ut_frame_builder_begin(), ut_frame_builder_cancel() and
 * ut_frame_builder_end() (utouch_frame_builder_begin() and so on without
 * the NULL checks) and the step of one operation are inline in
 * frame-private.h, for the producers inside the frame library.
 */

#endif /* UTOUCH_FRAME_BUILDER_H */
