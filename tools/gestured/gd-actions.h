/*
 * utouch-gestured: running actions.
 *
 * A command runs through /bin/sh -c with the gesture's values in
 * UTOUCH_* environment variables; a key combination goes through XTest;
 * a continuous action is a command started when the gesture is accepted
 * that reads "begin P", "update P" and "end P" lines (P: progress) on
 * its standard input.  Children are reaped as they exit (SIGCHLD through
 * the daemon's signalfd), so no action stays a zombie.  In dry-run mode
 * nothing runs: each action is printed as one line instead.
 */
#ifndef GD_ACTIONS_H
#define GD_ACTIONS_H

#include <stdio.h>

#include "gd-config.h"

struct gd_x11;
struct gd_actions;
struct gd_cont;

/** What an action is told about its gesture. */
struct gd_gesture_info {
	enum gd_kind kind;
	int fingers;
	enum gd_dir dir;        /**< the direction found (GD_DIR_ANY for taps and holds) */
	enum gd_device device;
	const char *app_instance;  /**< WM_CLASS instance at the start, "" if none */
	const char *app_class;     /**< WM_CLASS class at the start, "" if none */
	double x, y;            /**< start position (screen pixels) */
	double fx, fy;          /**< start position as fractions of the screen (0..1);
	                             -1 for touchpads (their gestures click where the pointer is) */
	double progress;        /**< units of the rule's distance travelled */
};

/**
 * Make an action runner.
 *
 * @param dry_run nonzero: print actions on @p out instead of running them
 * @param out where dry-run lines go
 * @param x11 the X connection for key combinations, NULL without X
 * @return the runner, or NULL when out of memory
 */
struct gd_actions *gd_actions_new(int dry_run, FILE *out, struct gd_x11 *x11);

/** Set the X connection (NULL when it went away). */
void gd_actions_set_x11(struct gd_actions *a, struct gd_x11 *x11);

/**
 * The uinput node for "keys" and "click" actions without X (NULL:
 * /dev/uinput); the keyboard and pointer are made the first time one
 * runs.  @p node must outlive @p a.
 */
void gd_actions_set_uinput(struct gd_actions *a, const char *node);

/**
 * Free the runner.  Continuous actions still open get "end" and their
 * standard input closed; children still running are left to finish (the
 * init process reaps them once the daemon is gone).
 */
void gd_actions_free(struct gd_actions *a);

/**
 * Run a rule's discrete action (command or keys) once.
 *
 * @return 0, or -1 when it could not be started (reported on stderr)
 */
int gd_actions_run(struct gd_actions *a, const struct gd_rule *rule,
		   const struct gd_gesture_info *info);

/**
 * Start a rule's continuous action and send it "begin P".
 *
 * @return the running action, or NULL when it could not be started
 */
struct gd_cont *gd_cont_begin(struct gd_actions *a, const struct gd_rule *rule,
			      const struct gd_gesture_info *info);

/** Send "update P" (dropped, not queued, if the action does not keep up). */
void gd_cont_update(struct gd_cont *c, double progress);

/**
 * Send "end P" (or "cancel P" when @p cancelled), close the action's
 * standard input and forget it.
 */
void gd_cont_end(struct gd_cont *c, double progress, int cancelled);

/**
 * Reap every child that exited.
 *
 * @return how many were reaped
 */
int gd_actions_reap(struct gd_actions *a);

/** Children started and not reaped yet. */
int gd_actions_running(const struct gd_actions *a);

#endif /* GD_ACTIONS_H */
