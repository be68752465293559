/*
 * Out of memory in geis (with grail and frame below it, all linked
 * statically and their heap calls wrapped: heap-count.h): a geis
 * application plays a bundled recording through the recording backend,
 * or feeds it as a stream of input events to the evdev backend
 * (utouch_geis_add_input_fd(), the seam the evdev tests use), while the
 * first heap call fails in one run, the second in the next, and so on
 * until a run makes no call that could fail.
 *
 * A failed allocation may cost the application a gesture or an event,
 * never the rules: every call returns (no crash, no hang), nothing leaks
 * (ASan), no gesture event follows that gesture's End, and every gesture
 * the application saw begin ends.  The test's own code keeps off the heap.
 */
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <geis/geis.h>
#include <utouch/geis.h>

#include "geis-test.h"
#include "heap-count.h"

#define MAX_IDS 256

struct run {
	bool begun[MAX_IDS], ended[MAX_IDS];
	unsigned int gesture_events;
	bool finished;
	bool failed; /* the backend gave up */
	char violation[160];
};

static void
violate(struct run *r, const char *what, unsigned int id)
{
	if (!r->violation[0])
		snprintf(r->violation, sizeof(r->violation), "%s (%u)", what, id);
}

static void
gesture_event(struct run *r, Geis geis, GeisEvent ev)
{
	GeisEventType type = geis_event_type(ev);
	GeisAttr attr = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET);
	GeisGroupSet set = attr ? geis_attr_value_to_pointer(attr) : NULL;

	if (!set) {
		violate(r, "a gesture event without a group set", (unsigned int)type);
		return;
	}
	r->gesture_events++;
	for (GeisSize g = 0; g < geis_groupset_group_count(set); g++) {
		GeisGroup group = geis_groupset_group(set, g);
		for (GeisSize f = 0; f < geis_group_frame_count(group); f++) {
			GeisFrame frame = geis_group_frame(group, f);
			GeisGestureId id = geis_frame_id(frame);
			GeisAttr name = geis_frame_attr_by_name(frame, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);
			bool tap = name && geis_attr_value_to_string(name) &&
				   strcmp(geis_attr_value_to_string(name), "Tap") == 0;
			if (id >= MAX_IDS) {
				violate(r, "gesture id out of range", (unsigned int)id);
				continue;
			}
			if (r->ended[id])
				violate(r, "an event after the End of gesture", (unsigned int)id);
			if (tap && type == GEIS_EVENT_GESTURE_UPDATE && !r->begun[id]) {
				/* a pure tap is one Update, nothing before or after */
				r->ended[id] = true;
				continue;
			}
			if (type == GEIS_EVENT_GESTURE_BEGIN) {
				if (r->begun[id])
					violate(r, "a second Begin of gesture", (unsigned int)id);
				r->begun[id] = true;
				(void)geis_gesture_accept(geis, group, id);
			} else if (!r->begun[id]) {
				violate(r, "an event before the Begin of gesture", (unsigned int)id);
			}
			if (type == GEIS_EVENT_GESTURE_END)
				r->ended[id] = true;
		}
	}
}

static GeisSubscription
subscribe(Geis geis, const char *klass, int touches)
{
	GeisSubscription sub = geis_subscription_new(geis, "oom", GEIS_SUBSCRIPTION_CONT);
	GeisFilter filter = sub ? geis_filter_new(geis, "oom") : NULL;
	bool ok = filter &&
		  geis_filter_add_term(filter, GEIS_FILTER_CLASS, GEIS_CLASS_ATTRIBUTE_NAME,
				       GEIS_FILTER_OP_EQ, klass, NULL) == GEIS_STATUS_SUCCESS &&
		  geis_filter_add_term(filter, GEIS_FILTER_CLASS, GEIS_GESTURE_ATTRIBUTE_TOUCHES,
				       GEIS_FILTER_OP_EQ, touches, NULL) == GEIS_STATUS_SUCCESS &&
		  geis_subscription_add_filter(sub, filter) == GEIS_STATUS_SUCCESS;
	if (!ok) {
		/* (the subscription owns the filter only once it was added) */
		if (filter)
			geis_filter_delete(filter);
		geis_subscription_delete(sub);
		return NULL;
	}
	if (geis_subscription_activate(sub) != GEIS_STATUS_SUCCESS) {
		geis_subscription_delete(sub);
		return NULL;
	}
	return sub;
}

/* The evdev backend's input: the events of a recording, written at once
 * into a pipe as struct input_event records (loaded before the sweeps, so
 * that the test's own heap calls stay out of the runs). */
static struct evdev_input {
	const char *path;           /* the recording, for the capabilities */
	struct input_event *events; /* its events at monotonic times ending now */
	size_t n;
} evdev_input;

/* An empty directory, so that the evdev backend finds no real device. */
static char evdev_dir[64];

static void
evdev_input_load(const char *path)
{
	free(evdev_input.events);
	evdev_input.n = gt_input_events(path, &evdev_input.events);
	evdev_input.path = path;
}

/* One application's life with the @fail_at-th heap call failing (0: none);
 * @recording NULL: the evdev backend fed evdev_input. */
static void
one_run(struct run *r, const char *recording, const char *klass, uint64_t fail_at)
{
	bool fed = true;
	int devices_gone = 0;

	memset(r, 0, sizeof(*r));
	ut_test_heap_fail_at(fail_at);
	Geis geis = recording ? geis_new(UTOUCH_GEIS_INIT_RECORDING, recording,
					 UTOUCH_GEIS_INIT_RECORDING_FAST, NULL)
			      : geis_new(UTOUCH_GEIS_INIT_EVDEV, UTOUCH_GEIS_INIT_EVDEV_DIR,
					 evdev_dir, GEIS_INIT_TRACK_DEVICES, NULL);
	if (!geis) {
		ut_test_heap_fail_at(0);
		return;
	}
	GeisSubscription drag = subscribe(geis, GEIS_GESTURE_DRAG, 2);
	GeisSubscription other = subscribe(geis, klass, 2);
	if (!recording)
		fed = gt_add_stream(geis, evdev_input.events, evdev_input.n, evdev_input.path) ==
		      GEIS_STATUS_SUCCESS;
	for (int round = 0; round < 2000 && !r->finished; round++) {
		GeisStatus st = geis_dispatch_events(geis), next;
		GeisEvent ev = NULL;
		int got = 0;
		while ((next = geis_next_event(geis, &ev)) == GEIS_STATUS_SUCCESS ||
		       next == GEIS_STATUS_CONTINUE) {
			GeisEventType type = geis_event_type(ev);
			if (type == GEIS_EVENT_GESTURE_BEGIN || type == GEIS_EVENT_GESTURE_UPDATE ||
			    type == GEIS_EVENT_GESTURE_END)
				gesture_event(r, geis, ev);
			else if (type == GEIS_EVENT_DEVICE_UNAVAILABLE)
				devices_gone++;
			geis_event_delete(ev);
			ev = NULL;
			got++;
		}
		if (st == GEIS_STATUS_UNKNOWN_ERROR) {
			/* the backend could not go on (out of memory): the
			 * application has its error; a poll loop must not spin */
			struct pollfd p = { .fd = -1, .events = POLLIN };
			r->failed = true;
			r->finished = true;
			if (geis_get_configuration(geis, GEIS_CONFIGURATION_FD, &p.fd) ==
				    GEIS_STATUS_SUCCESS &&
			    poll(&p, 1, 0) == 1)
				violate(r, "the fd stays readable after the backend failed", 0);
		} else if (st != GEIS_STATUS_CONTINUE && !got &&
			   (recording ? utouch_geis_playback_finished(geis)
				      : !fed || devices_gone > 0)) {
			/* (a stream the backend could not take is no device:
			 * nothing comes) */
			r->finished = true;
		}
	}
	if (!r->finished)
		violate(r, "the recording did not finish", 0);
	for (unsigned int id = 0; id < MAX_IDS; id++)
		if (r->begun[id] && !r->ended[id])
			violate(r, "the application saw gesture without an End", id);
	geis_subscription_delete(drag);
	geis_subscription_delete(other);
	geis_delete(geis);
	ut_test_heap_fail_at(0);
}

struct sweep {
	const char *name, *recording, *klass;
	struct run r;
	unsigned int saw_gestures, gave_up;
};

static void
sweep_run(void *data, uint64_t fail_at)
{
	struct sweep *s = data;
	one_run(&s->r, s->recording, s->klass, fail_at);
	s->saw_gestures += s->r.gesture_events > 0;
	s->gave_up += s->r.failed;
	if (s->r.violation[0])
		fail_msg("%s, heap call %llu failing: %s", s->name, (unsigned long long)fail_at,
			 s->r.violation);
}

/* A sweep over the recording @name with two-touch subscriptions for drags
 * and for @klass, which give at least @events gesture events; through the
 * recording backend, or (@evdev) fed to the evdev backend as a stream. */
static void
sweep_backend(const char *name, const char *klass, unsigned int events, bool evdev)
{
	const char *recording = gt_recording(name);
	struct run r;

	if (evdev) {
		evdev_input_load(recording);
		recording = NULL;
	}

	one_run(&r, recording, klass, 0); /* fills what the libraries keep */
	uint64_t before = ut_test_heap_calls();
	one_run(&r, recording, klass, 0);
	uint64_t calls = ut_test_heap_calls() - before;
	assert_string_equal(r.violation, "");
	assert_true(r.finished);
	assert_true(r.gesture_events >= events);
	assert_true(calls > 50);

	static struct sweep s;
	s = (struct sweep){ .name = name, .recording = recording, .klass = klass };
	uint64_t failed = ut_test_heap_sweep(sweep_run, &s);
	assert_true(failed >= calls);
	assert_true(s.saw_gestures > 0);
	print_message("%s (%s): %llu heap calls; %llu runs, each with one failing; %u saw "
		      "gestures, in %u the backend gave up\n",
		      name, evdev ? "evdev" : "recording", (unsigned long long)calls,
		      (unsigned long long)failed, s.saw_gestures, s.gave_up);
}

static void
sweep(const char *name, const char *klass, unsigned int events)
{
	sweep_backend(name, klass, events, false);
}

static void
test_drag(void **state)
{
	(void)state;
	sweep("touchscreen/drag-2.evemu", GEIS_GESTURE_PINCH, 10);
}

static void
test_pinch(void **state)
{
	(void)state;
	sweep("touchscreen/pinch-2.evemu", GEIS_GESTURE_PINCH, 10);
}

/* a two-finger tap: geis reports a pure tap as one Update */
static void
test_tap(void **state)
{
	(void)state;
	sweep("touchscreen/tap-2.evemu", GEIS_GESTURE_TAP, 1);
}

/* the same through the evdev backend: its stream reader, device set-up
 * (capabilities from the recording's header) and frame building */
static void
test_evdev_drag(void **state)
{
	(void)state;
	sweep_backend("touchscreen/drag-2.evemu", GEIS_GESTURE_PINCH, 10, true);
}

static void
test_evdev_tap(void **state)
{
	(void)state;
	sweep_backend("touchscreen/tap-2.evemu", GEIS_GESTURE_TAP, 1, true);
}

static int
make_evdev_dir(void **state)
{
	(void)state;
	return gt_empty_dir(evdev_dir, sizeof(evdev_dir));
}

static int
remove_evdev_dir(void **state)
{
	(void)state;
	free(evdev_input.events);
	evdev_input.events = NULL;
	return gt_remove_dir(evdev_dir, NULL);
}

int
main(void)
{
	/* thousands of runs, each with its "out of memory" messages: quiet
	 * (a client bug still fails the test: test-support.h) */
	setenv("UTOUCH_DEBUG", "none", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drag),
		cmocka_unit_test(test_pinch),
		cmocka_unit_test(test_tap),
		cmocka_unit_test(test_evdev_drag),
		cmocka_unit_test(test_evdev_tap),
	};
	return cmocka_run_group_tests(tests, make_evdev_dir, remove_evdev_dir);
}
