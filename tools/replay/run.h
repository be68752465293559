/*
 * One replay of a script through grail, the way a client with a timer
 * drives it; shared by utouch-replay and the benchmark so both measure and
 * print exactly the same work.
 */
#ifndef UTOUCH_REPLAY_RUN_H
#define UTOUCH_REPLAY_RUN_H

#include <stdint.h>

#include <oif/grail.h>

#include "input/evdev/framer.h"
#include "input/recording/script.h"
#include "subspec.h"

#define REPLAY_MAX_SUBS 16
#define REPLAY_WINDOW_ID 1

struct replay_run;

/** What the simulated client does with each gesture when it first sees it. */
enum replay_policy {
	REPLAY_POLICY_ACCEPT,     /**< accept it at once */
	REPLAY_POLICY_ACCEPT_CF,  /**< accept it once construction is finished */
	REPLAY_POLICY_REJECT,     /**< reject it at once */
	REPLAY_POLICY_NONE,       /**< leave it alone */
};

/** A decision replay_run_decide() made. */
enum replay_decision {
	REPLAY_UNDECIDED = 0,
	REPLAY_ACCEPTED,
	REPLAY_REJECTED,
};

/** Called for every slice fetched from grail; the event stays owned by the
 * runner.  @p sub is the index of the slice's subscription, or -1. */
typedef void (*replay_slice_fn)(struct replay_run *r, UGEvent ev,
				UGSlice slice, int sub);

struct replay_run {
	/* configuration, set by the caller */
	const struct libevdev *dev;  /* the recording's device */
	struct ut_script *script;  /* built or streamed (ut_script_next()) */
	const struct subspec *subs;
	int nsubs;
	int own_at_begin;
	float window_res;
	replay_slice_fn on_slice;
	/** optional: called before each frame is built and processed */
	void (*on_frame)(struct replay_run *r, const struct ut_script_frame *f);
	void *data;
	/* state of one run */
	UGHandle grail;
	UFBackendDevice device;
	struct ut_frame_builder framer;
	UGSubscription ugsubs[REPLAY_MAX_SUBS];
	uint64_t nevents;     /* slices fetched */
	uint64_t nfailures;   /* accept/reject calls that failed (callers count) */
	char error[640];
};

/** Create grail, the device (with its DeviceAdded event) and the activated
 * subscriptions.  Returns 0, or -1 with a message in r->error. */
int replay_run_setup(struct replay_run *r);

/** Replay every frame @p offset ms later than the script says, from its
 * first frame: before each frame deliver the timeouts grail asks for up
 * to its time, and after the last one another 10 s of them.  Returns 0,
 * or -1 with a message in r->error (out of memory, or a streamed
 * script's file could not be read again). */
int replay_run_frames(struct replay_run *r, uint64_t offset);

/** Delete what replay_run_setup() created. */
void replay_run_teardown(struct replay_run *r);

/**
 * Apply @p policy to the gesture of @p slice (of subscription @p sub) the
 * way a client does: once per gesture (*@p decided is the gesture's flag),
 * never for atomic subscriptions, and not on a canceled End (the gesture
 * is gone).  A failed accept/reject call is counted in r->nfailures and
 * still ends the decision.  Returns what was decided now and succeeded.
 */
static inline enum replay_decision replay_run_decide(struct replay_run *r,
						     enum replay_policy policy,
						     UGSlice slice, int sub, int *decided);

/** replay_run_decide() for a gesture not decided yet (*@p decided is 0). */
enum replay_decision replay_run_decide_undecided(struct replay_run *r,
						 enum replay_policy policy, UGSlice slice,
						 int sub, int *decided);

/* inline: most slices are of gestures decided already, which costs them
 * no call */
static inline enum replay_decision
replay_run_decide(struct replay_run *r, enum replay_policy policy, UGSlice slice, int sub,
		  int *decided)
{
	if (*decided)
		return REPLAY_UNDECIDED;
	return replay_run_decide_undecided(r, policy, slice, sub, decided);
}

/** Index of @p sub among the run's subscriptions, or -1. */
int replay_run_sub_index(const struct replay_run *r, UGSubscription sub);

#endif
