/*
 * The compositor library's log: a context's own handler receives the
 * context's messages (client bugs, device bugs, ignored calls) with their
 * priorities, nothing of other contexts, and stderr gets them back when
 * the handler is reset.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "comp-harness.h"
#include "test-support.h"

#define MAX_MSG 32

struct catch {
	int n;
	enum utouch_comp_log_priority prio[MAX_MSG];
	char msg[MAX_MSG][256];
};

static void
catch_log(void *data, enum utouch_comp_log_priority priority, const char *message)
{
	struct catch *c = data;

	if (c->n < MAX_MSG) {
		c->prio[c->n] = priority;
		snprintf(c->msg[c->n], sizeof(c->msg[c->n]), "%s", message);
	}
	c->n++;
}

static void
test_client_bug_goes_to_the_handler(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct harness *h = h_new(), *other = h_new();
	struct catch c = { 0 };

	(void)state;
	utouch_comp_set_log_handler(h->comp, catch_log, &c);
	/* a device of another context */
	assert_int_equal(utouch_comp_touch_down(h->comp, other->dev, 1, 1000, 10, 10, NULL, NULL,
						10, 10), -EINVAL);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.prio[0], UTOUCH_COMP_LOG_ERROR);
	assert_string_equal(c.msg[0],
			    "client bug: utouch_comp_touch_down: unknown or removed device");
	/* a position that is none */
	assert_int_equal(utouch_comp_touch_motion(h->comp, h->dev, 1, 1000, NAN, 10, 10, 10),
			 -EINVAL);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.prio[1], UTOUCH_COMP_LOG_ERROR);
	assert_non_null(strstr(c.msg[1], "client bug: utouch_comp_touch_motion: position nan,10"));
	/* the other context's bug is not this handler's */
	assert_int_equal(utouch_comp_touch_frame(other->comp, h->dev, 1000), -EINVAL);
	assert_int_equal(c.n, 2);
	h_free(other);
	h_free(h);
	UT_CLIENT_BUGS_END(3);
}

static void
test_device_bug_and_debug(void **state)
{
	struct harness *h = h_new();
	struct catch c = { 0 };

	(void)state;
	utouch_comp_set_log_handler(h->comp, catch_log, &c);
	h_down(h, 4, 100, 100);
	assert_int_equal(c.n, 0);
	/* the same id again: a device bug, refused */
	assert_int_equal(utouch_comp_touch_down(h->comp, h->dev, 4, h->time, 110, 100, NULL, NULL,
						110, 100), -EEXIST);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.prio[0], UTOUCH_COMP_LOG_WARNING);
	assert_non_null(strstr(c.msg[0], "device bug: "));
	assert_non_null(strstr(c.msg[0], "touch 4 is down already"));
	/* the handler takes debug messages too: an accept of no gesture */
	assert_int_equal(utouch_comp_gesture_accept(h->comp, 12345), -ENOENT);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.prio[1], UTOUCH_COMP_LOG_DEBUG);
	assert_string_equal(c.msg[1], "utouch_comp_gesture_accept: gesture 12345: unknown or finished");
	/* a refused subscription is reported to the caller, and logged as info */
	{
		struct utouch_comp_subscription_params p;
		struct utouch_comp_subscription *sub = NULL;

		utouch_comp_subscription_params_init(&p);
		p.name = "none";
		p.mask = UGGestureTypeDrag;
		p.touches_start = 9;
		assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), -EINVAL);
		assert_null(sub);
		assert_int_equal(c.n, 3);
		assert_int_equal(c.prio[2], UTOUCH_COMP_LOG_INFO);
		assert_string_equal(c.msg[2], "subscription 'none' refused: invalid parameters");
	}
	h_up(h, 4);
	h_frame(h);
	h_wait(h, 500);
	/* reset: nothing more reaches it */
	utouch_comp_set_log_handler(h->comp, NULL, NULL);
	assert_int_equal(utouch_comp_gesture_reject(h->comp, 12345), -ENOENT);
	assert_int_equal(c.n, 3);
	h_assert_idle(h);
	h_free(h);
}

/* a palm of 64 touches in one frame with 3- and 4-touch subscriptions:
 * grail's cap of candidate gestures is logged a few times, not once per
 * combination it no longer makes (tens of thousands of lines, and minutes
 * of the compositor's time, with 100 touches) */
static void
count_cap(void *data, enum utouch_comp_log_priority priority, const char *message)
{
	if (strstr(message, "too many candidate gestures"))
		catch_log(data, priority, message);
}

static void
test_many_touches_log_little(void **state)
{
	struct harness *h = h_new();
	struct catch c = { 0 };

	(void)state;
	/* grail 3.1's subsets: a whole-hand subscription makes no candidate
	 * of part of a palm at all */
	h_subscribe_whole(h, UGGestureTypeDrag, 3, UTOUCH_COMP_POLICY_HOLD, 0);
	h_subscribe_whole(h, UGGestureTypePinch, 4, UTOUCH_COMP_POLICY_HOLD, 0);
	utouch_comp_set_log_handler(h->comp, count_cap, &c);
	for (int i = 0; i < 64; i++)
		h_down(h, i, 20 + 7 * i, 100 + (i % 8) * 10);
	h_frame(h);
	assert_in_range(c.n, 1, 64);
	for (int i = 0; i < 64; i++)
		h_up(h, i);
	h_frame(h);
	h_wait(h, 500);
	h_assert_idle(h);
	h_free(h);
}

/* A log handler that destroys its context: the call that logged still ran
 * on it (heap-use-after-free in grail's recognizer under ASan).  The
 * destroy is refused as a client bug; the context goes on. */
struct destroyer {
	struct utouch_comp *comp;
	int calls, tried;
};

static void
destroying_log(void *data, enum utouch_comp_log_priority priority, const char *message)
{
	struct destroyer *d = data;

	(void)priority;
	d->calls++;
	if (!d->tried && strncmp(message, "grail: ", 7) == 0) {
		d->tried = 1;
		utouch_comp_destroy(d->comp);
	}
}

static void
test_handler_cannot_destroy(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct harness *h = h_new();
	struct destroyer d = { h->comp, 0, 0 };

	(void)state;
	h_subscribe(h, UGGestureTypeDrag, 2, UTOUCH_COMP_POLICY_HOLD);
	utouch_comp_set_log_handler(h->comp, destroying_log, &d);
	h_down(h, 0, 100, 100);
	h_down(h, 1, 200, 100);
	h_frame(h);
	assert_int_equal(d.tried, 1);
	/* still working */
	h_move(h, 0, 150, 100);
	h_move(h, 1, 250, 100);
	h_frame(h);
	h_up(h, 0);
	h_up(h, 1);
	h_frame(h);
	h_wait(h, 1000);
	h_assert_idle(h);
	utouch_comp_set_log_handler(h->comp, NULL, NULL);
	h_free(h);
	UT_CLIENT_BUGS_END(1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_client_bug_goes_to_the_handler),
		cmocka_unit_test(test_device_bug_and_debug),
		cmocka_unit_test(test_many_touches_log_little),
		cmocka_unit_test(test_handler_cannot_destroy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
