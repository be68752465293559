/*
 * The compositor API driven by the bundled recordings: every touchscreen
 * recording goes through a seat as a compositor would feed it, with system
 * subscriptions in both policies, and the client's view is checked.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "input/recording/recording.h"
#include "input/recording/script.h"
#include "comp-harness.h"

#define E_DOWN UTOUCH_COMP_EVENT_TOUCH_DOWN
#define E_MOTION UTOUCH_COMP_EVENT_TOUCH_MOTION
#define E_UP UTOUCH_COMP_EVENT_TOUCH_UP
#define E_CANCEL UTOUCH_COMP_EVENT_TOUCH_CANCEL
#define E_GBEGIN UTOUCH_COMP_EVENT_GESTURE_BEGIN
#define E_GEND UTOUCH_COMP_EVENT_GESTURE_END

struct counts {
	size_t begins, updates, ends;   /* operations in the recording */
};

static char *
rec_path(const char *name)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/touchscreen/%s", RECORDINGS_DIR, name);
	return buf;
}

/* Feed a recording; the harness logs everything.  Returns the op counts. */
static struct counts
play(struct harness *h, const char *path)
{
	struct ut_recording *rec = NULL;
	struct ut_evstream_opts opts;
	struct ut_script s;
	struct counts c = { 0, 0, 0 };
	char err[512];

	assert_int_equal(ut_recording_load(path, NULL, &rec, err, sizeof(err)), 0);
	memset(&opts, 0, sizeof(opts));
	opts.direct = 1;
	assert_int_equal(ut_script_build(&s, rec, &opts), 0);
	for (size_t f = 0; f < s.nframes; f++) {
		const struct ut_script_frame *fr = &s.frames[f];

		h->time = fr->time * 1000u;
		for (size_t i = 0; i < fr->count; i++) {
			const struct ut_touch_op *op = &s.ops[fr->first + i];

			switch (op->kind) {
			case UT_OP_BEGIN:
				h_down(h, (int32_t)op->id, op->wx, op->wy);
				c.begins++;
				break;
			case UT_OP_UPDATE:
				h_move(h, (int32_t)op->id, op->wx, op->wy);
				c.updates++;
				break;
			case UT_OP_END:
				h_up(h, (int32_t)op->id);
				c.ends++;
				break;
			default:
				break;
			}
		}
		assert_int_equal(utouch_comp_touch_frame(h->comp, h->dev, h->time), 0);
		h_drain(h);
	}
	h->time = (s.last_time + 2000) * 1000u;
	assert_int_equal(utouch_comp_advance_time(h->comp, h->time), 0);
	h_drain(h);
	ut_script_release(&s);
	ut_recording_free(rec);
	return c;
}

/*
 * What a client sees of each touch must be well formed: nothing, or a
 * down, motions, then an up or a cancel of its client; nothing after a
 * cancel; every touch and held event gone at the end.
 */
static void
check_client_view(const struct harness *h)
{
	enum { NONE, DOWN, DONE } st[64] = { NONE };
	const void *client[64] = { NULL };

	for (size_t i = 0; i < h->nlog; i++) {
		const struct utouch_comp_event *e = &h->log[i];
		int id = e->touch.id;

		switch (e->type) {
		case E_DOWN:
			assert_true(id >= 0 && id < 64);
			assert_int_not_equal(st[id], DOWN);
			st[id] = DOWN;
			client[id] = e->touch.client;
			break;
		case E_MOTION:
		case E_UP:
			assert_true(id >= 0 && id < 64);
			assert_int_equal(st[id], DOWN);
			assert_ptr_equal(client[id], e->touch.client);
			if (e->type == E_UP)
				st[id] = DONE;
			break;
		case E_CANCEL:
			/* ends every touch of the client: nothing more of them */
			for (int t = 0; t < 64; t++)
				if (st[t] == DOWN && client[t] == e->touch.client)
					st[t] = DONE;
			break;
		default:
			break;
		}
	}
	h_assert_idle(h);
}

static void
test_drag3_hold(void **state)
{
	struct harness *h = h_new();

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	play(h, rec_path("drag-3.evemu"));
	assert_int_equal(h_count(h, 0), 0);
	assert_int_equal(h_count(h, E_GBEGIN), 1);
	assert_int_equal(h_count(h, E_GEND), 1);
	check_client_view(h);
	h_free(h);
}

static void
test_drag3_forward_then_cancel(void **state)
{
	struct harness *h = h_new();

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL);
	play(h, rec_path("drag-3.evemu"));
	assert_int_equal(h_count(h, E_DOWN), 3);
	assert_int_equal(h_count(h, E_CANCEL), 1);
	assert_int_equal(h_count(h, E_UP), 0);
	assert_int_equal(h_count(h, E_GBEGIN), 1);
	check_client_view(h);
	h_free(h);
}

static void
test_tap3_replayed_whole(void **state)
{
	struct harness *h = h_new();
	struct counts c;

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	c = play(h, rec_path("tap-3.evemu"));
	assert_int_equal(c.begins, 3);
	assert_int_equal(h_count(h, E_DOWN), c.begins);
	assert_int_equal(h_count(h, E_MOTION), c.updates);
	assert_int_equal(h_count(h, E_UP), c.ends);
	assert_int_equal(h_count(h, E_GBEGIN), 0);
	for (size_t i = 0; i < h->nlog; i++)
		if (h->log[i].type == E_DOWN)
			assert_int_equal(h->log[i].touch.replayed, 1);
	check_client_view(h);
	h_free(h);
}

static void
test_pinch2_hold(void **state)
{
	struct harness *h = h_new();
	float scale = 1;

	h_subscribe(h, UGGestureTypePinch, 2, UTOUCH_COMP_POLICY_HOLD);
	play(h, rec_path("pinch-2.evemu"));
	assert_int_equal(h_count(h, 0), 0);
	assert_int_equal(h_count(h, E_GBEGIN), 1);
	for (size_t i = 0; i < h->nlog; i++)
		if (h->log[i].type >= E_GBEGIN && h->log[i].gesture.scale < scale)
			scale = h->log[i].gesture.scale;
	/* the scenario pinches from 60 mm apart to 20 mm */
	assert_true(scale < 0.5f);
	check_client_view(h);
	h_free(h);
}

static void
test_one_finger_drag_goes_to_client(void **state)
{
	struct harness *h = h_new();
	struct counts c;

	h_subscribe(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD);
	h_subscribe(h, UGGestureTypePinch, 2, UTOUCH_COMP_POLICY_HOLD);
	c = play(h, rec_path("drag-1.evemu"));
	assert_int_equal(h_count(h, E_DOWN), 1);
	assert_int_equal(h_count(h, E_MOTION), c.updates);
	assert_int_equal(h_count(h, E_UP), 1);
	check_client_view(h);
	h_free(h);
}

/* Every touchscreen recording, both policies, several subscriptions. */
static void
test_all_recordings_well_formed(void **state)
{
	const char *dir_path = RECORDINGS_DIR "/touchscreen";
	DIR *dir = opendir(dir_path);
	struct dirent *d;
	int played = 0;

	assert_non_null(dir);
	while ((d = readdir(dir)) != NULL) {
		char path[4096];

		if (!strstr(d->d_name, ".evemu"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir_path, d->d_name);
		for (int policy = 0; policy < 2; policy++) {
			struct harness *h = h_new();
			struct counts c;

			h_subscribe(h, UGGestureTypeDrag, 3, (enum utouch_comp_policy)policy);
			h_subscribe(h, UGGestureTypePinch | UGGestureTypeRotate, 2,
				    (enum utouch_comp_policy)policy);
			c = play(h, path);
			check_client_view(h);
			/* nothing invented: at most the recording's events */
			assert_true(h_count(h, E_DOWN) <= c.begins);
			assert_true(h_count(h, E_MOTION) <= c.updates);
			assert_true(h_count(h, E_UP) <= c.ends);
			/* a client sees a touch whole or not at all in hold mode */
			if (policy == UTOUCH_COMP_POLICY_HOLD)
				assert_int_equal(h_count(h, E_CANCEL), 0);
			h_free(h);
			played++;
		}
	}
	closedir(dir);
	assert_true(played >= 30);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drag3_hold),
		cmocka_unit_test(test_drag3_forward_then_cancel),
		cmocka_unit_test(test_tap3_replayed_whole),
		cmocka_unit_test(test_pinch2_hold),
		cmocka_unit_test(test_one_finger_drag_goes_to_client),
		cmocka_unit_test(test_all_recordings_well_formed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
