/*
 * Regression tests for problems fuzz/fuzz-geis.c found.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "geis-test.h"

struct cb_log {
	GeisSubscription subs[2];
	int deactivate_at;        /* deactivate on this gesture event (1-based) */
	int gesture_events;
	int begins, updates, ends;
	GeisGestureId first_id;
	int ends_of_first;
	int after_end_of_first;
};

static GeisGestureId
event_gesture_id(GeisEvent ev)
{
	GeisAttr a = geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET);
	GeisGroupSet gs;

	assert_non_null(a);
	gs = geis_attr_value_to_pointer(a);
	assert_true(geis_groupset_group_count(gs) >= 1);
	return geis_frame_id(geis_group_frame(geis_groupset_group(gs, 0), 0));
}

/* The last subscriptions of their windows go away, typically while the
 * recording backend is feeding those windows' frames. */
static void
deactivate_all(struct cb_log *log)
{
	for (int i = 0; i < 2; i++)
		if (log->subs[i])
			assert_int_equal(geis_subscription_deactivate(log->subs[i]),
					 GEIS_STATUS_SUCCESS);
}

static void
deactivating_callback(Geis geis, GeisEvent ev, void *context)
{
	struct cb_log *log = context;
	GeisEventType type = geis_event_type(ev);
	GeisGestureId id;

	(void)geis;
	if (type != GEIS_EVENT_GESTURE_BEGIN && type != GEIS_EVENT_GESTURE_UPDATE &&
	    type != GEIS_EVENT_GESTURE_END) {
		/* INIT_COMPLETE reaches the callback after the first frame */
		if (type == GEIS_EVENT_INIT_COMPLETE && log->deactivate_at == 0)
			deactivate_all(log);
		geis_event_delete(ev);
		return;
	}
	id = event_gesture_id(ev);
	log->gesture_events++;
	if (log->gesture_events == 1)
		log->first_id = id;
	if (id == log->first_id) {
		if (log->ends_of_first)
			log->after_end_of_first++;
		if (type == GEIS_EVENT_GESTURE_END)
			log->ends_of_first++;
	}
	log->begins += type == GEIS_EVENT_GESTURE_BEGIN;
	log->updates += type == GEIS_EVENT_GESTURE_UPDATE;
	log->ends += type == GEIS_EVENT_GESTURE_END;
	if (log->gesture_events == log->deactivate_at)
		deactivate_all(log);
	geis_event_delete(ev);
}

static GeisSubscription
window_subscription(Geis geis, const char *name, GeisInteger window)
{
	GeisSubscription sub = geis_subscription_new(geis, name, GEIS_SUBSCRIPTION_NONE);
	GeisFilter f = geis_filter_new(geis, name);

	assert_non_null(sub);
	assert_non_null(f);
	assert_int_equal(geis_filter_add_term(f, GEIS_FILTER_REGION,
					      GEIS_REGION_ATTRIBUTE_WINDOWID, GEIS_FILTER_OP_EQ,
					      (int)window, NULL),
			 GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_add_filter(sub, f), GEIS_STATUS_SUCCESS);
	assert_int_equal(geis_subscription_activate(sub), GEIS_STATUS_SUCCESS);
	return sub;
}

static void
play_to_end(Geis geis)
{
	int empty = 0;

	for (int i = 0; i < 50 && !empty; i++) {
		GeisEvent ev;

		empty = geis_dispatch_events(geis) == GEIS_STATUS_SUCCESS &&
			utouch_geis_playback_finished(geis);
		while (geis_next_event(geis, &ev) != GEIS_STATUS_EMPTY) {
			geis_event_delete(ev);
			empty = 0;
		}
	}
	assert_true(empty);
}

/*
 * Deactivating the only subscription of a window from the event callback
 * while the recording backend feeds that window's frames freed the
 * router's window under its feed loop (heap-use-after-free under ASan).
 * The gesture the callback saw must still end, once, and nothing follows.
 */
static void
test_deactivate_in_callback(void **state)
{
	/* 0: at INIT_COMPLETE (no gesture yet); n: at the n-th gesture event */
	static const int at[] = { 0, 1, 2, 5, 10, 20 };

	(void)state;
	for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		struct cb_log log;
		Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING,
				     gt_recording("touchscreen/drag-2.evemu"),
				     UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);
		GeisRegion rect;

		assert_non_null(geis);
		memset(&log, 0, sizeof(log));
		log.deactivate_at = at[k];
		rect = geis_region_new(geis, "left", UTOUCH_GEIS_REGION_RECT, 0, 0, 1024, 768,
				       NULL);
		assert_non_null(rect);
		log.subs[0] = window_subscription(geis, "root", 1);
		log.subs[1] = window_subscription(geis, "rect",
						  utouch_geis_region_window_id(rect));
		geis_register_event_callback(geis, deactivating_callback, &log);
		play_to_end(geis);

		if (at[k] == 0) {
			/* deactivated before any gesture: nothing at all */
			assert_int_equal(log.gesture_events, 0);
		} else {
			assert_true(log.gesture_events >= at[k]);
			assert_int_not_equal(log.first_id, 0);
			assert_int_equal(log.ends_of_first, 1);
			assert_int_equal(log.after_end_of_first, 0);
			/* every gesture that began was ended by the
			 * deactivation */
			assert_int_equal(log.begins, log.ends);
			assert_true(log.begins >= 1);
		}
		assert_int_equal(geis_delete(geis), GEIS_STATUS_SUCCESS);
	}
}

/* The same window ungrabbed and grabbed again from the callback (the
 * subscription re-activated) keeps getting frames. */
static void
reactivating_callback(Geis geis, GeisEvent ev, void *context)
{
	struct cb_log *log = context;
	GeisEventType type = geis_event_type(ev);

	(void)geis;
	if (type == GEIS_EVENT_GESTURE_BEGIN || type == GEIS_EVENT_GESTURE_UPDATE ||
	    type == GEIS_EVENT_GESTURE_END) {
		log->gesture_events++;
		log->begins += type == GEIS_EVENT_GESTURE_BEGIN;
		log->ends += type == GEIS_EVENT_GESTURE_END;
		if (log->gesture_events == 1) {
			assert_int_equal(geis_subscription_deactivate(log->subs[0]),
					 GEIS_STATUS_SUCCESS);
			assert_int_equal(geis_subscription_activate(log->subs[0]),
					 GEIS_STATUS_SUCCESS);
		}
	}
	geis_event_delete(ev);
}

static void
test_reactivate_in_callback(void **state)
{
	struct cb_log log;
	Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING, gt_recording("touchscreen/drag-2.evemu"),
			     UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);

	(void)state;
	assert_non_null(geis);
	memset(&log, 0, sizeof(log));
	log.subs[0] = window_subscription(geis, "root", 1);
	geis_register_event_callback(geis, reactivating_callback, &log);
	play_to_end(geis);
	/* the gesture in progress ended at the deactivation; every gesture
	 * that began also ended */
	assert_true(log.begins >= 1);
	assert_int_equal(log.begins, log.ends);
	assert_int_equal(geis_delete(geis), GEIS_STATUS_SUCCESS);
}

/*
 * geis_delete() from the event callback freed the instance under
 * geis_dispatch_events(), which went on delivering from its queue
 * (heap-use-after-free under ASan).  The delete is now finished when the
 * dispatch returns, and the callback hears nothing more.
 */
struct delete_log {
	int delete_at;   /* 0: at the first event of any kind; n: n-th gesture event */
	int events, gesture_events, after_delete;
	int deleted;
};

static void
deleting_callback(Geis geis, GeisEvent ev, void *context)
{
	struct delete_log *log = context;
	GeisEventType type = geis_event_type(ev);

	if (log->deleted)
		log->after_delete++;
	log->events++;
	if (type == GEIS_EVENT_GESTURE_BEGIN || type == GEIS_EVENT_GESTURE_UPDATE ||
	    type == GEIS_EVENT_GESTURE_END)
		log->gesture_events++;
	geis_event_delete(ev);
	if (!log->deleted && ((log->delete_at == 0 && log->events == 1) ||
			      (log->delete_at > 0 && log->gesture_events == log->delete_at))) {
		assert_int_equal(geis_delete(geis), GEIS_STATUS_SUCCESS);
		log->deleted = 1;
	}
}

static void
test_delete_in_callback(void **state)
{
	static const int at[] = { 0, 1, 3, 8 };

	(void)state;
	for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		struct delete_log log;
		Geis geis = geis_new(UTOUCH_GEIS_INIT_RECORDING,
				     gt_recording("touchscreen/drag-2.evemu"),
				     UTOUCH_GEIS_INIT_RECORDING_FAST, NULL);

		assert_non_null(geis);
		memset(&log, 0, sizeof(log));
		log.delete_at = at[k];
		window_subscription(geis, "root", 1);
		geis_register_event_callback(geis, deleting_callback, &log);
		for (int i = 0; i < 200 && !log.deleted; i++) {
			GeisStatus st = geis_dispatch_events(geis);

			if (log.deleted) {
				assert_int_equal(st, GEIS_STATUS_SUCCESS);
				break;
			}
			assert_false(st == GEIS_STATUS_SUCCESS &&
				     utouch_geis_playback_finished(geis));
		}
		/* the instance is gone (LeakSanitizer checks it was freed) */
		assert_int_equal(log.deleted, 1);
		assert_int_equal(log.after_delete, 0);
		assert_int_equal(log.gesture_events, at[k]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deactivate_in_callback),
		cmocka_unit_test(test_reactivate_in_callback),
		cmocka_unit_test(test_delete_in_callback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
