/*
 * Test fixture for grail: a fake direct touch device driven through the
 * frame backend API, plus recording and invariant checking of every slice
 * grail emits.
 */
#ifndef UTOUCH_TEST_GRAIL_FIXTURE_H
#define UTOUCH_TEST_GRAIL_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <oif/grail.h>

#define FX_MAX_SLICES 4096
#define FX_MAX_TOUCH_IDS 64
#define FX_MAX_GESTURES 256
#define FX_WINDOW ((UFWindowId)1)

struct fx_slice {
	unsigned int id;
	UGGestureState state;
	UGSubscription sub;
	UGGestureTypeMask recognized;
	unsigned int num_touches;
	UFTouchId touches[5];
	int cf;
	int canceled;
	uint64_t time;
	float ocx, ocy, r0;
	float T[3][3], dT[3][3];
	float corx, cory;
	/* utouch extensions */
	float vx, vy;
	unsigned int taps, edge;
};

enum fx_policy {
	FX_POLICY_NONE,       /* never decide */
	FX_POLICY_ACCEPT,     /* accept every gesture at its first slice */
};

struct fixture {
	UGHandle grail;
	UGSubscription subs[16]; /* created by fx_subscribe*, deleted by fx_free */
	unsigned int nsubs;
	UFBackendDevice bdev;
	UFDevice device;
	UFBackendFrame prev;
	uint64_t time;
	enum fx_policy policy;
	struct fx_slice slices[FX_MAX_SLICES];
	unsigned int nslices;
	/* accept/reject calls per touch id, from the frame touch handler */
	unsigned int accepted[FX_MAX_TOUCH_IDS];
	unsigned int rejected[FX_MAX_TOUCH_IDS];
	/* fx->time when each touch was first rejected: the frame's time, or
	 * the timer's in fx_run_timers() */
	uint64_t rejected_at[FX_MAX_TOUCH_IDS];
	/* per gesture id: seen begin, seen end, last cf */
	bool g_begun[FX_MAX_GESTURES];
	bool g_ended[FX_MAX_GESTURES];
	bool g_cf[FX_MAX_GESTURES];
	bool g_decided[FX_MAX_GESTURES];
};

/* Create the device, the handle and send DeviceAdded at time 1000. */
struct fixture *fx_new(void);
/* Delete the handle, check that every touch was decided exactly once, free. */
void fx_free(struct fixture *fx);
/* Like fx_free without the touch decision check. */
void fx_free_nocheck(struct fixture *fx);

UGSubscription fx_subscribe(struct fixture *fx, UGGestureTypeMask mask, unsigned int start,
			    unsigned int min, unsigned int max);
UGSubscription fx_subscribe_atomic(struct fixture *fx, UGGestureTypeMask mask,
				   unsigned int start, unsigned int min, unsigned int max);

/* Each helper sends one frame at fx->time and processes grail events. */
void fx_begin(struct fixture *fx, UFTouchId id, float x, float y);
void fx_begin_owned(struct fixture *fx, UFTouchId id, float x, float y);
/* Several owned touches begin in one frame: ids[i] at (xs[i], ys[i]). */
void fx_begin_many(struct fixture *fx, unsigned int n, const UFTouchId *ids, const float *xs,
		   const float *ys);
void fx_move(struct fixture *fx, UFTouchId id, float x, float y);
void fx_own(struct fixture *fx, UFTouchId id);
void fx_pending_end(struct fixture *fx, UFTouchId id);
void fx_end(struct fixture *fx, UFTouchId id);
/* Move several touches in one frame: ids[i] to (xs[i], ys[i]). */
void fx_move_many(struct fixture *fx, unsigned int n, const UFTouchId *ids,
		  const float *xs, const float *ys);
/* The same, leaving grail's events in its queue (fx_process() takes them):
 * for tests of grail_get_fd(). */
void fx_move_many_queued(struct fixture *fx, unsigned int n, const UFTouchId *ids,
			 const float *xs, const float *ys);
/* Input stops with touches down: end ids[0..n-1] in a frame marked cut off
 * (frame-peer.h, ut_frame_cut_off()), as the evdev producers do. */
void fx_cut_off(struct fixture *fx, unsigned int n, const UFTouchId *ids);
/* Give grail a device event (@type: DeviceAdded or DeviceRemoved) of @bdev
 * at fx->time; the fixture's own device is fx->bdev. */
void fx_device_event(struct fixture *fx, UFEventType type, UFBackendDevice bdev);
/* Advance time to fx->time via grail_update_time and process events. */
void fx_update_time(struct fixture *fx, uint64_t t);
/* Run every due timer up to time t (like the replay tools do). */
void fx_run_timers(struct fixture *fx, uint64_t t);
/* Drain the queue, record slices, check invariants, apply the policy. */
void fx_process(struct fixture *fx);

/* Helpers over the recorded slices. */
unsigned int fx_count(const struct fixture *fx, unsigned int gesture_id,
		      UGGestureState state);
unsigned int fx_count_gestures(const struct fixture *fx);
const struct fx_slice *fx_first_of(const struct fixture *fx, unsigned int gesture_id);
const struct fx_slice *fx_last_of(const struct fixture *fx, unsigned int gesture_id);
/* Check that every gesture the client saw has ended. */
void fx_check_all_ended(const struct fixture *fx);

#endif
