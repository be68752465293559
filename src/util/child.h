/*
 * A program started by one of utouch's daemons (utouch-gestured's actions,
 * utouch-wlcomp's command and spawn actions) gets the signal state of a new
 * process, not its parent's: the daemons block the signals they read from
 * a signalfd (SIGINT, SIGTERM, SIGHUP, SIGCHLD) and may ignore SIGPIPE and
 * SIGCHLD, and exec keeps both the mask and ignored dispositions.
 *
 * Header only (no state).
 */
#ifndef UTOUCH_UTIL_CHILD_H
#define UTOUCH_UTIL_CHILD_H

#include <signal.h>

/** In a child before exec: nothing blocked, SIGPIPE and SIGCHLD at their
 * defaults. */
static inline void
ut_child_default_signals(void)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
}

#endif
