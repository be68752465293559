/*
 * The process has one default log context although each library logs:
 * this program links the shared libraries (libutouch-geis,
 * libutouch-grail, libutouch-frame) as an application does and uses their
 * public API only.  A handler installed through grail's API receives the
 * messages of frame and geis that concern no handle.
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

#include "test-support.h"

struct captured {
	int n;
	int level;
	char msg[512];
};

static void
capture(void *data, int level, const char *msg)
{
	struct captured *c = data;

	c->n++;
	c->level = level;
	snprintf(c->msg, sizeof(c->msg), "%s", msg);
}

/* frame's and geis's client bugs on NULL objects reach grail's handler */
static void
test_grail_handler_gets_frame_and_geis(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct captured c = { 0 };
	UGHandle h;

	(void)state;
	assert_int_equal(grail_new(&h), UGStatusSuccess);
	grail_set_log_handler(h, capture, &c);

	assert_int_equal(frame_touch_get_id(NULL), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.level, 1);
	assert_string_equal(c.msg, "client bug: frame_touch_get_id: invalid argument (!touch)");

	assert_int_equal(geis_event_type(NULL), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.level, 1);
	assert_non_null(strstr(c.msg, "client bug: geis_event_type:"));

	/* grail's own misuse without a handle goes there too */
	assert_int_equal(grail_next_timeout(NULL), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.msg, "client bug: grail_next_timeout: invalid argument (!handle)");

	/* reset: back to stderr, the handler hears nothing more */
	grail_set_log_handler(h, NULL, NULL);
	assert_int_equal(frame_touch_get_id(NULL), 0);
	assert_int_equal(c.n, 3);
	grail_delete(h);
	UT_CLIENT_BUGS_END(4);
}

/* The last handler installed takes the default context; deleting its
 * handle hands the messages back to stderr, not to a freed handle. */
static void
test_last_handler_and_delete(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct captured a = { 0 }, b = { 0 };
	UGHandle ha, hb;

	(void)state;
	assert_int_equal(grail_new(&ha), UGStatusSuccess);
	assert_int_equal(grail_new(&hb), UGStatusSuccess);
	grail_set_log_handler(ha, capture, &a);
	grail_set_log_handler(hb, capture, &b);
	assert_int_equal(frame_frame_get_num_touches(NULL), 0);
	assert_int_equal(a.n, 0);
	assert_int_equal(b.n, 1);
	assert_string_equal(b.msg, "client bug: frame_frame_get_num_touches: "
				   "invalid argument (!frame)");

	/* resetting ha's handler leaves hb's in place */
	grail_set_log_handler(ha, NULL, NULL);
	assert_int_equal(frame_frame_get_num_touches(NULL), 0);
	assert_int_equal(b.n, 2);

	grail_delete(hb);
	assert_int_equal(frame_frame_get_num_touches(NULL), 0);
	assert_int_equal(a.n, 0);
	assert_int_equal(b.n, 2);

	/* a handle's own messages still go to its own handler only */
	grail_set_log_handler(ha, capture, &a);
	grail_delete(ha);
	assert_int_equal(frame_touch_get_id(NULL), 0);
	assert_int_equal(a.n, 0);
	UT_CLIENT_BUGS_END(4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grail_handler_gets_frame_and_geis),
		cmocka_unit_test(test_last_handler_and_delete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
