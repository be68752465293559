/*
 * Subscription specifications on the command line, as ref-grail takes them:
 * a comma list of key=value items, e.g. "mask=drag+pinch,touches=2".
 */
#ifndef UTOUCH_REPLAY_SUBSPEC_H
#define UTOUCH_REPLAY_SUBSPEC_H

#include <stddef.h>
#include <stdint.h>

#include <oif/grail.h>

enum { SUBSPEC_DRAG, SUBSPEC_PINCH, SUBSPEC_ROTATE, SUBSPEC_TAP, SUBSPEC_NPRIM };

/* Settings of grail's utouch extensions (hold, multi-tap, edge swipe,
 * velocity), in the order of subspec_ext_names. */
enum {
	SUBSPEC_HOLD_TIMEOUT, SUBSPEC_HOLD_THRESHOLD, SUBSPEC_MULTITAP_TIMEOUT,
	SUBSPEC_MULTITAP_THRESHOLD, SUBSPEC_MULTITAP_MAX, SUBSPEC_EDGES,
	SUBSPEC_EDGE_MARGIN, SUBSPEC_EDGE_VELOCITY, SUBSPEC_VELOCITY_WINDOW, SUBSPEC_NEXT
};

struct subspec {
	unsigned int start, min, max;   /* min/max 0: not set */
	UGGestureTypeMask mask;
	int atomic;
	int whole_hand; /* UGSubscriptionPropertyWholeHand (utouch extension) */
	int has_timeout[SUBSPEC_NPRIM], has_threshold[SUBSPEC_NPRIM];
	uint64_t timeout[SUBSPEC_NPRIM];
	float threshold[SUBSPEC_NPRIM];
	/* utouch extensions: set ones, as integers (ms, counts, UGEdge bits)
	 * or floats (metres, m/s) */
	int has_ext[SUBSPEC_NEXT];
	uint64_t ext_int[SUBSPEC_NEXT];
	float ext_float[SUBSPEC_NEXT];
	/* uses a utouch extension (a setting above or a new gesture type) */
	int extended;
};

/**
 * Parse @p text into @p spec, starting from grail's defaults (start=2,
 * mask=drag).  Returns 0, or -1 with a message in @p err.
 */
int subspec_parse(const char *text, struct subspec *spec, char *err, size_t errlen);

/**
 * Create and fill a grail subscription for @p device and @p window.
 * Returns UGStatusSuccess or the status of the first call that failed, with
 * the subscription deleted.
 */
UGStatus subspec_create(const struct subspec *spec, UFDevice device,
			UFWindowId window, UGSubscription *out);

/** Write "drag+pinch", or "none" for 0, into @p buf. */
void subspec_mask_str(UGGestureTypeMask mask, char *buf, size_t len);

/** Write the name of a UGEdge ("left", "right", "top", "bottom"), or
 * "none", into @p buf. */
void subspec_edge_str(unsigned int edge, char *buf, size_t len);

#endif
