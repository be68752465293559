/*
 * When each touch of a recording reached the application through the
 * touch proxy: utouch-gestured plays the recording as the grabbed device
 * in virtual time (--recording --fast) and writes what the clone emits
 * (--proxy-output); each touch's begin on the clone is matched with its
 * begin in the recording.  Used by the decision-latency benchmark
 * (bench/utouch-decision-bench.c) and the gestured-latency test.
 */
#ifndef UTOUCH_TEST_TOUCH_LATENCY_H
#define UTOUCH_TEST_TOUCH_LATENCY_H

#include <stddef.h>

/** The most touches one run follows. */
#define TL_MAX_TOUCHES 512

struct tl_result {
	size_t ntouches;      /**< touches in the recording */
	size_t nreleased;     /**< of them, touches that reached the clone */
	/** per touch of the recording, in order of landing: ms from its
	 * landing to its begin on the clone, -1 when it never came (a rule
	 * took it) */
	long latency_ms[TL_MAX_TOUCHES];
	long median_ms;       /**< over the released touches, -1 when none */
	long max_ms;          /**< over the released touches, -1 when none */
};

/**
 * Run @p daemon with the configuration text @p config on @p recording in
 * virtual time with its proxy output in @p tmpdir, and fill @p out.
 * Returns 0, or -1 with a message in @p err (the daemon failed, a file
 * could not be read, more than TL_MAX_TOUCHES touches, a touch on the
 * clone that matches none of the recording).
 */
int tl_measure(const char *daemon, const char *tmpdir, const char *config,
	       const char *recording, struct tl_result *out, char *err, size_t errlen);

#endif
