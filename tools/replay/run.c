#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <utouch/frame_handle.h>

#include "run.h"

int
replay_run_sub_index(const struct replay_run *r, UGSubscription sub)
{
	for (int i = 0; i < r->nsubs; i++)
		if (r->ugsubs[i] == sub)
			return i;
	return -1;
}

enum replay_decision
replay_run_decide_undecided(struct replay_run *r, enum replay_policy policy, UGSlice slice,
			    int sub, int *decided)
{
	enum replay_decision d;
	unsigned int id;
	UGStatus st;

	/* a client asks for what it needs to decide once it decides */
	if ((sub >= 0 && r->subs[sub].atomic) ||
	    policy == REPLAY_POLICY_NONE || grail_slice_get_canceled(slice))
		return REPLAY_UNDECIDED;
	if (policy == REPLAY_POLICY_ACCEPT_CF && !grail_slice_get_construction_finished(slice))
		return REPLAY_UNDECIDED;
	*decided = 1;
	id = grail_slice_get_id(slice);
	if (policy == REPLAY_POLICY_REJECT) {
		st = grail_reject_gesture(r->grail, id);
		d = REPLAY_REJECTED;
	} else {
		st = grail_accept_gesture(r->grail, id);
		d = REPLAY_ACCEPTED;
	}
	if (st != UGStatusSuccess) {
		r->nfailures++;
		return REPLAY_UNDECIDED;
	}
	return d;
}

/* Fetch every queued slice and hand it to the caller. */
static void
drain(struct replay_run *r)
{
	UGEvent ev;

	while (grail_get_event(r->grail, &ev) == UGStatusSuccess) {
		UGSlice slice;

		if (grail_event_get_type(ev) == UGEventTypeSlice &&
		    grail_event_get_property(ev, UGEventPropertySlice, &slice) ==
			    UGStatusSuccess) {
			r->nevents++;
			r->on_slice(r, ev, slice,
				    replay_run_sub_index(r, grail_slice_get_subscription(slice)));
		}
		grail_event_unref(ev);
	}
}

/* Run every timeout grail asks for up to time @p t (the same steps as the
 * reference harness, so that traces can be compared). */
static void
advance_time(struct replay_run *r, uint64_t t)
{
	uint64_t next = grail_next_timeout(r->grail);
	uint64_t at = next;

	while (next && at <= t) {
		grail_update_time(r->grail, at);
		drain(r);
		next = grail_next_timeout(r->grail);
		if (!next)
			break;
		at = next <= at ? at + 1 : next;
	}
}

static int
process(struct replay_run *r, UFEvent ev)
{
	if (!ev) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		return -1;
	}
	grail_process_frame_event(r->grail, ev);
	frame_event_unref(ev);
	return 0;
}

int
replay_run_setup(struct replay_run *r)
{
	struct ut_device_opts dopts = {
		.name = NULL,
		.direct = r->script->direct,
		.window_res = r->window_res,
	};
	UFDevice dev;
	UFEvent added;
	int n = 0;

	r->grail = NULL;
	r->device = NULL;
	r->nevents = 0;
	r->nfailures = 0;
	if (grail_new(&r->grail) != UGStatusSuccess) {
		snprintf(r->error, sizeof(r->error), "grail_new failed");
		return -1;
	}
	r->device = ut_framer_device_new(r->dev, &dopts);
	if (!r->device) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		grail_delete(r->grail);
		return -1;
	}
	ut_frame_builder_init(&r->framer, r->device, REPLAY_WINDOW_ID, r->own_at_begin);
	if (utouch_frame_device_event_new(r->device, UFEventTypeDeviceAdded,
					  UT_SCRIPT_TIME_BASE_MS, &added) != UFStatusSuccess)
		added = NULL;
	if (process(r, added) < 0)
		goto fail;
	dev = frame_backend_device_get_device(r->device);
	for (n = 0; n < r->nsubs; n++) {
		UGStatus st = subspec_create(&r->subs[n], dev, REPLAY_WINDOW_ID,
					     &r->ugsubs[n]);

		if (st != UGStatusSuccess) {
			snprintf(r->error, sizeof(r->error),
				 "subscription %d is invalid (grail status %d)", n, (int)st);
			goto fail;
		}
		st = grail_subscription_activate(r->grail, r->ugsubs[n]);
		if (st != UGStatusSuccess) {
			snprintf(r->error, sizeof(r->error),
				 "cannot activate subscription %d (grail status %d)",
				 n, (int)st);
			n++;
			goto fail;
		}
	}
	return 0;
fail:
	ut_frame_builder_fini(&r->framer);
	grail_delete(r->grail);
	for (int i = 0; i < n; i++)
		grail_subscription_delete(r->ugsubs[i]);
	frame_backend_device_delete(r->device);
	return -1;
}

int
replay_run_frames(struct replay_run *r, uint64_t offset)
{
	struct ut_script *s = r->script;
	const struct ut_script_frame *f;
	int rc;

	if ((rc = ut_script_rewind(s)) < 0)
		goto fail;
	while ((rc = ut_script_next(s, &f)) > 0) {
		advance_time(r, f->time + offset);
		if (r->on_frame)
			r->on_frame(r, f);
		if (process(r, ut_framer_build(&r->framer, f->time + offset,
					       &s->ops[f->first], f->count)) < 0)
			return -1;
		drain(r);
	}
	if (rc < 0)
		goto fail;
	advance_time(r, s->last_time + offset + 10000);
	drain(r);
	return 0;
fail:
	if (rc == -ENOMEM || !s->reader)
		snprintf(r->error, sizeof(r->error), "%s", strerror(-rc));
	else
		snprintf(r->error, sizeof(r->error), "%s", s->reader->error);
	return -1;
}

void
replay_run_teardown(struct replay_run *r)
{
	ut_frame_builder_fini(&r->framer);
	grail_delete(r->grail);
	for (int i = 0; i < r->nsubs; i++)
		grail_subscription_delete(r->ugsubs[i]);
	frame_backend_device_delete(r->device);
}
