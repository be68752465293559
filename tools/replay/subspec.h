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

struct subspec {
	unsigned int start, min, max;   /* min/max 0: not set */
	UGGestureTypeMask mask;
	int atomic;
	int has_timeout[SUBSPEC_NPRIM], has_threshold[SUBSPEC_NPRIM];
	uint64_t timeout[SUBSPEC_NPRIM];
	float threshold[SUBSPEC_NPRIM];
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

#endif
