/*
 * The engine's interface between its files.  The engine is the one part of
 * geis that talks to grail:
 *
 *   geis-engine.c   the grail handle; subscriptions as grail subscriptions
 *                   per (device, window); frames to grail, grail's events
 *                   to the other parts;
 *   geis-slice.c    a slice to a gesture event with every attribute;
 *   geis-decide.c   the gestures in flight; accept, reject, and the release
 *                   of undecided gestures;
 *   geis-timeout.c  grail's timeouts: the core's timer, or geis 2.2's XSync
 *                   alarms (X11).
 *
 * The rest of geis calls the engine through geis-private.h.
 */
#ifndef UTOUCH_GEIS_ENGINE_H
#define UTOUCH_GEIS_ENGINE_H

#include "geis-private.h"

/** The gesture of the link @p pos of geis->gestures. */
static inline struct geis_gesture *
gs_gesture_of(struct ut_list *pos)
{
	return ut_container_of(pos, struct geis_gesture, link);
}

/* gestures in flight (geis-decide.c) */
/** The gesture with grail id @p id, or NULL. */
struct geis_gesture *gs_gesture_find(Geis geis, unsigned id);
/** A new gesture of @p sub with grail id @p id; NULL when out of memory. */
struct geis_gesture *gs_gesture_new(Geis geis, unsigned id, GeisSubscription sub);
/** Forget @p g (its queued events stay). */
void gs_gesture_remove(Geis geis, struct geis_gesture *g);
/** Remove the queued events of gesture @p id. */
void gs_gesture_purge(Geis geis, unsigned id);
/** Mark the queued events of gesture @p id (grail id) as those of a gesture
 * grail cancelled: the application still gets them, but accepting the
 * gesture fails (its touches are not the application's). */
void gs_gesture_mark_canceled(Geis geis, unsigned id);

/* slices (geis-slice.c) */
/** Turn one grail slice into gesture events (or drop it). */
void gs_engine_handle_slice(Geis geis, UGEvent gev, UGSlice slice);
/** Drop what @p g keeps of an owed End (the End was queued, or the
 * application will not get one: its subscription or instance went). */
void gs_gesture_forgive_end(Geis geis, struct geis_gesture *g);

/* grail's events (geis-engine.c) */
/** Turn every queued grail event into gesture events, without running
 * callbacks; the number of grail events. */
unsigned gs_engine_drain_grail(Geis geis);

/* timeouts (geis-timeout.c) */
/** Whether the backend's timeouts run as geis 2.2's XSync alarms. */
int gs_engine_alarm_mode(Geis geis);
/** Make an alarm for grail's next timeout, as geis 2.2 did after a frame
 * or after grail events. */
void gs_engine_alarm_note(Geis geis);

#endif
