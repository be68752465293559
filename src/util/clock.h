/*
 * Time, in one place: CLOCK_MONOTONIC in milliseconds and microseconds
 * (evdev devices are switched to it with EVIOCSCLOCKID, geis arms its
 * timerfds on it, the X11 backend measures server-time drift with it),
 * the time of a struct input_event as microseconds, and timerfd arming.
 *
 * Header only (no state): every library and tool that includes it gets
 * the same code without a link dependency.
 */
#ifndef UTOUCH_UTIL_CLOCK_H
#define UTOUCH_UTIL_CLOCK_H

#include <linux/input.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>

/** CLOCK_MONOTONIC now, in milliseconds. */
static inline uint64_t
ut_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/** CLOCK_MONOTONIC now, in microseconds. */
static inline uint64_t
ut_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/** CLOCK_MONOTONIC now, in nanoseconds (for benchmarks). */
static inline uint64_t
ut_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/** The time stamp of @p ev in microseconds. */
static inline uint64_t
ut_input_event_usec(const struct input_event *ev)
{
	return (uint64_t)ev->input_event_sec * 1000000u + (uint64_t)ev->input_event_usec;
}

/** Set the time stamp of @p ev to @p usec microseconds. */
static inline void
ut_input_event_set_usec(struct input_event *ev, uint64_t usec)
{
	ev->input_event_sec = (time_t)(usec / 1000000u);
	ev->input_event_usec = (suseconds_t)(usec % 1000000u);
}

/**
 * Arm the relative timerfd @p fd to expire once, @p delay_ms milliseconds
 * from now; a delay of 0 makes it expire at once (a zero it_value would
 * disarm it instead).
 *
 * @return timerfd_settime()'s result
 */
static inline int
ut_timerfd_arm_ms(int fd, uint64_t delay_ms)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(delay_ms / 1000u);
	its.it_value.tv_nsec = (long)(delay_ms % 1000u) * 1000000L;
	if (delay_ms == 0)
		its.it_value.tv_nsec = 1;
	return timerfd_settime(fd, 0, &its, NULL);
}

/** Disarm the timerfd @p fd.  @return timerfd_settime()'s result */
static inline int
ut_timerfd_disarm(int fd)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	return timerfd_settime(fd, 0, &its, NULL);
}

#endif
