/*
 * One log path, one handler per library's objects.  This program links the
 * shared libraries (libutouch-geis, libutouch-grail, libutouch-frame) as an
 * application does and uses their public API only, so that a second copy
 * of the log code or of its default context would show.
 *
 * - grail_set_log_handler() takes its handle's messages and nothing else:
 *   no message of frame, of geis or about no object;
 * - utouch_geis_set_log_handler() takes its instance's messages and
 *   nothing else;
 * - messages about no object (client bugs on NULL) stay with the process
 *   default context (stderr), whichever handlers are installed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <geis/geis.h>
#include <oif/frame.h>
#include <oif/grail.h>
#include <utouch/geis.h>

#include "test-support.h"

static void
capture_geis(void *data, enum utouch_geis_log_priority priority, const char *msg)
{
	ut_test_log_record(data, (int)priority, msg);
}

/* A subscription without a device is invalid: activating it is a client
 * bug logged on the handle. */
static void
misuse_handle(UGHandle h)
{
	UGSubscription sub;

	assert_int_equal(grail_subscription_new(&sub), UGStatusSuccess);
	assert_int_equal(grail_subscription_activate(h, sub), UGStatusErrorInvalidSubscription);
	grail_subscription_delete(sub);
}

/* An error on the instance's error stack (logged at info priority). */
static void
misuse_instance(Geis geis)
{
	GeisInteger v = 0;

	assert_int_not_equal(geis_get_configuration(geis, "no such item", &v),
			     GEIS_STATUS_SUCCESS);
}

static Geis
open_geis(void)
{
	Geis geis = geis_new(GEIS_INIT_MOCK_BACKEND, NULL);

	assert_non_null(geis);
	return geis;
}

/* grail's handler hears its handle, not frame, geis or NULL objects */
static void
test_grail_handler_own_only(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct ut_test_log c = { 0 };
	UGHandle h;
	Geis geis = open_geis();

	(void)state;
	assert_int_equal(grail_new(&h), UGStatusSuccess);
	grail_set_log_handler(h, ut_test_log_record, &c);

	misuse_handle(h);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.level, 0);
	assert_string_equal(c.msg, "client bug: activating an invalid subscription");

	/* about no object, from each library: not grail's handle's */
	assert_int_equal(frame_touch_get_id(NULL), 0);
	assert_int_equal(geis_event_type(NULL), 0);
	assert_int_equal(grail_next_timeout(NULL), 0);
	/* a geis instance's own messages */
	misuse_instance(geis);
	assert_int_equal(c.n, 1);

	/* reset: back to stderr */
	grail_set_log_handler(h, NULL, NULL);
	misuse_handle(h);
	assert_int_equal(c.n, 1);
	grail_delete(h);
	geis_delete(geis);
	UT_CLIENT_BUGS_END(3);
}

/* geis's handler hears its instance, not another instance, grail or NULL
 * objects; each instance's handler is its own */
static void
test_geis_handler_own_only(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct ut_test_log a = { 0 }, b = { 0 }, g = { 0 };
	Geis ga = open_geis(), gb = open_geis();
	UGHandle h;

	(void)state;
	assert_int_equal(grail_new(&h), UGStatusSuccess);
	grail_set_log_handler(h, ut_test_log_record, &g);
	utouch_geis_set_log_handler(ga, capture_geis, &a);
	utouch_geis_set_log_handler(gb, capture_geis, &b);

	misuse_instance(ga);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.level, UTOUCH_GEIS_LOG_INFO);
	assert_non_null(strstr(a.msg, "no such item"));
	assert_int_equal(b.n, 0);

	misuse_instance(gb);
	assert_int_equal(a.n, 1);
	assert_int_equal(b.n, 1);

	assert_int_equal(geis_event_type(NULL), 0);
	assert_int_equal(frame_frame_get_num_touches(NULL), 0);
	misuse_handle(h);
	assert_int_equal(a.n, 1);
	assert_int_equal(b.n, 1);
	assert_int_equal(g.n, 1);

	/* reset: back to stderr */
	utouch_geis_set_log_handler(ga, NULL, NULL);
	misuse_instance(ga);
	assert_int_equal(a.n, 1);
	geis_delete(ga);
	geis_delete(gb);
	grail_delete(h);
	UT_CLIENT_BUGS_END(2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grail_handler_own_only),
		cmocka_unit_test(test_geis_handler_own_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
