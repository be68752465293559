/*
 * The one clock utouch's live paths share: CLOCK_MONOTONIC in milliseconds
 * (evdev devices are switched to it with EVIOCSCLOCKID, geis arms its
 * timerfds on it, the X11 backend measures server-time drift with it).
 */
#ifndef UTOUCH_UTIL_CLOCK_H
#define UTOUCH_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

/** CLOCK_MONOTONIC now, in milliseconds. */
static inline uint64_t
ut_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

#endif
