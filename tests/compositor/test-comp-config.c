/*
 * The configuration file of the compositor API: every key, defaults,
 * errors with FILE:LINE, all-or-nothing loading.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <utouch/compositor.h>

#include "test-support.h"

static const char full[] =
	"# system gestures\n"
	"subscriptions:\n"
	"  - name: cycle-focus\n"
	"    gestures: drag\n"
	"    touches: 3\n"
	"    options:\n"
	"      action: focus-next\n"
	"  - name: close\n"
	"    gestures: [pinch, rotate]\n"
	"    touches: 4\n"
	"    touches-minimum: 2\n"
	"    touches-maximum: 5\n"
	"    policy: forward-then-cancel\n"
	"    accept: manual\n"
	"    drag-timeout: 100\n"
	"    drag-threshold: 0.01\n"
	"    pinch-timeout: 0\n"
	"    pinch-threshold: 1.5\n"
	"    rotate-timeout: 700\n"
	"    rotate-threshold: 0.5\n"
	"    tap-timeout: 200\n"
	"    tap-threshold: 0.004\n"
	"    whole-hand: false\n"
	"  - name: launcher\n"
	"    gesture: drag\n"
	"    touches: 1\n"
	"    atomic: false\n"
	"    region: [0, 0, 16, 600]\n"
	"    options: { action: spawn, command: \"echo hi\" }\n";

/* The parameters start with grail's defaults, read from grail. */
static void
test_params_defaults_are_grails(void **state)
{
	struct utouch_comp_subscription_params p;
	UGSubscription g = NULL;
	uint64_t t[4];
	float f[4];

	(void)state;
	utouch_comp_subscription_params_init(&p);
	assert_int_equal(grail_subscription_new(&g), UGStatusSuccess);
	grail_subscription_get_property(g, UGSubscriptionPropertyDragTimeout, &t[0]);
	grail_subscription_get_property(g, UGSubscriptionPropertyPinchTimeout, &t[1]);
	grail_subscription_get_property(g, UGSubscriptionPropertyRotateTimeout, &t[2]);
	grail_subscription_get_property(g, UGSubscriptionPropertyTapTimeout, &t[3]);
	grail_subscription_get_property(g, UGSubscriptionPropertyDragThreshold, &f[0]);
	grail_subscription_get_property(g, UGSubscriptionPropertyPinchThreshold, &f[1]);
	grail_subscription_get_property(g, UGSubscriptionPropertyRotateThreshold, &f[2]);
	grail_subscription_get_property(g, UGSubscriptionPropertyTapThreshold, &f[3]);
	grail_subscription_delete(g);
	assert_int_equal(p.drag_timeout, t[0]);
	assert_int_equal(p.pinch_timeout, t[1]);
	assert_int_equal(p.rotate_timeout, t[2]);
	assert_int_equal(p.tap_timeout, t[3]);
	assert_true(p.drag_threshold == f[0]);
	assert_true(p.pinch_threshold == f[1]);
	assert_true(p.rotate_threshold == f[2]);
	assert_true(p.tap_threshold == f[3]);
	/* and the values the header documents */
	assert_int_equal(p.drag_timeout, 300);
	assert_int_equal(p.rotate_timeout, 500);
	assert_true(p.pinch_threshold == 1.1f);
	assert_int_equal(p.touches_start, 2);
	assert_int_equal(p.mask, UGGestureTypeDrag);
	/* the one exception: system gestures are whole-hand (grail's is 0) */
	assert_int_equal(p.whole_hand, 1);
}

static void
test_full_config(void **state)
{
	struct utouch_comp *comp = utouch_comp_new("seat0");
	const struct utouch_comp_subscription_params *p;
	struct utouch_comp_subscription *sub;
	char err[256];

	assert_int_equal(utouch_comp_load_config_data(comp, "t.yaml", full, strlen(full), err,
						      sizeof(err)), 3);
	assert_string_equal(err, "");
	sub = utouch_comp_get_subscription(comp, 0);
	p = utouch_comp_subscription_get_params(sub);
	assert_string_equal(p->name, "cycle-focus");
	assert_int_equal(p->mask, UGGestureTypeDrag);
	assert_int_equal(p->touches_start, 3);
	assert_int_equal(p->touches_minimum, 0);
	assert_int_equal(p->drag_timeout, 300);
	assert_true(fabsf(p->drag_threshold - 0.0026f) < 1e-6f);
	assert_int_equal(p->policy, UTOUCH_COMP_POLICY_HOLD);
	assert_int_equal(p->accept, UTOUCH_COMP_ACCEPT_AUTO);
	assert_int_equal(p->whole_hand, 1);
	assert_string_equal(utouch_comp_subscription_get_option(sub, "action"), "focus-next");

	p = utouch_comp_subscription_get_params(utouch_comp_get_subscription(comp, 1));
	assert_int_equal(p->mask, UGGestureTypePinch | UGGestureTypeRotate);
	assert_int_equal(p->touches_start, 4);
	assert_int_equal(p->touches_minimum, 2);
	assert_int_equal(p->touches_maximum, 5);
	assert_int_equal(p->policy, UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL);
	assert_int_equal(p->accept, UTOUCH_COMP_ACCEPT_MANUAL);
	assert_int_equal(p->drag_timeout, 100);
	assert_int_equal(p->pinch_timeout, 0);
	assert_int_equal(p->rotate_timeout, 700);
	assert_int_equal(p->tap_timeout, 200);
	assert_true(fabsf(p->drag_threshold - 0.01f) < 1e-6f);
	assert_true(fabsf(p->pinch_threshold - 1.5f) < 1e-6f);
	assert_true(fabsf(p->rotate_threshold - 0.5f) < 1e-6f);
	assert_true(fabsf(p->tap_threshold - 0.004f) < 1e-6f);
	assert_int_equal(p->whole_hand, 0);

	sub = utouch_comp_get_subscription(comp, 2);
	p = utouch_comp_subscription_get_params(sub);
	assert_int_equal(p->touches_start, 1);
	assert_true(p->region.width == 16 && p->region.height == 600);
	assert_string_equal(utouch_comp_subscription_get_option(sub, "command"), "echo hi");
	assert_null(utouch_comp_get_subscription(comp, 3));
	utouch_comp_destroy(comp);
}

struct bad {
	const char *text;
	const char *error;
};

static void
test_errors_name_the_line(void **state)
{
	static const struct bad bad[] = {
		{ "subscriptions:\n  - gestures: drag\n    touches: 9\n",
		  "t.yaml:3:14: \"touches\": 9 is out of range (1 to 5)" },
		{ "subscriptions:\n  - gestures: flick\n    touches: 3\n",
		  "t.yaml:2:15: \"gestures\": unknown class \"flick\" (drag, pinch, rotate, tap, touch)" },
		{ "subscriptions:\n  - gestures: drag\n    touches: 3\n    colour: red\n",
		  "t.yaml:4:5: unknown subscription key \"colour\"" },
		{ "subscriptions:\n  - touches: 3\n", "t.yaml:2:5: the subscription has no \"gestures\"" },
		{ "subscriptions:\n  - gestures: drag\n", "t.yaml:2:5: the subscription has no \"touches\"" },
		{ "subscriptions:\n  - gestures: drag\n    touches: 2\n    policy: maybe\n",
		  "t.yaml:4:13: \"policy\": unknown value \"maybe\" (one of hold, forward-then-cancel)" },
		{ "subscriptions:\n  - gestures: drag\n    touches: 2\n    drag-threshold: far\n",
		  "t.yaml:4:21: \"drag-threshold\": \"far\" is not a number" },
		{ "subscriptions:\n  - gestures: drag\n    touches: 2\n    region: [1, 2, 3]\n",
		  "t.yaml:4:13: \"region\": expected [x, y, width, height]" },
		{ "subscriptions:\n  - gestures: drag\n    touches: 3\n    touches-maximum: 2\n",
		  "t.yaml:4:22: \"touches-maximum\" is below \"touches\"" },
		{ "gestures: []\n", "t.yaml:1:1: unknown top-level key \"gestures\" (expected \"subscriptions\")" },
		{ "subscriptions: [\n", "t.yaml:2:1: did not find expected node content while parsing a flow node" },
		{ "- a\n", "t.yaml:1:1: expected a mapping with a \"subscriptions\" list" },
		{ "", "t.yaml: the file is empty" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct utouch_comp *comp = utouch_comp_new(NULL);
		char err[256];

		assert_int_equal(utouch_comp_load_config_data(comp, "t.yaml", bad[i].text,
							      strlen(bad[i].text), err,
							      sizeof(err)), -EINVAL);
		assert_string_equal(err, bad[i].error);
		assert_null(utouch_comp_get_subscription(comp, 0));
		utouch_comp_destroy(comp);
	}
}

static void
test_all_or_nothing(void **state)
{
	static const char text[] =
		"subscriptions:\n"
		"  - gestures: drag\n    touches: 3\n"
		"  - gestures: drag\n    touches: 3\n    atomic: true\n";
	struct utouch_comp *comp = utouch_comp_new(NULL);
	char err[256];

	/* the second differs in atomic mode from the first in the same region */
	assert_int_equal(utouch_comp_load_config_data(comp, "t.yaml", text, strlen(text), err,
						      sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.yaml:4:5: atomic differs from another subscription of the same region");
	assert_null(utouch_comp_get_subscription(comp, 0));
	utouch_comp_destroy(comp);
}

static void
test_files(void **state)
{
	struct utouch_comp *comp = utouch_comp_new(NULL);
	char path[] = "/tmp/utouch-comp-config-XXXXXX";
	char err[256];
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, full, strlen(full)), (ssize_t)strlen(full));
	close(fd);
	assert_int_equal(utouch_comp_load_config(comp, path, err, sizeof(err)), 3);
	unlink(path);
	assert_int_equal(utouch_comp_load_config(comp, path, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "No such file"));
	assert_int_equal(utouch_comp_load_config(comp, SAMPLE_CONFIG, err, sizeof(err)), 3);
	assert_int_equal(utouch_comp_load_config_data(comp, "nul", "a\0b", 3, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "nul:1:2: control characters are not allowed (byte 1)");
	utouch_comp_destroy(comp);
}

/* the shared reader's refusals reach the compositor's files too */
static void
test_refused(void **state)
{
	static const struct bad bad[] = {
		{ "subscriptions:\n  - gestures: drag\n    touches: 3\n    touches: 4\n",
		  "t.yaml:4:5: \"touches\" appears twice (first on line 3)" },
		{ "subscriptions:\n  - {gestures: drag, touches: 3, name: \"a\\0b\"}\n",
		  "t.yaml:2:40: a NUL character (\"\\0\") would cut the value short; it is not allowed" },
		{ "subscriptions: []\n---\nsubscriptions: []\n",
		  "t.yaml:2:1: a second YAML document; a configuration is one document" },
		{ "subscriptions:\n  - {gestures: drag, touches: 0x3}\n",
		  "t.yaml:2:31: \"touches\": \"0x3\" is not a number" },
		{ "subscriptions:\n  - {gestures: drag, touches: 3, drag-timeout: 1e300}\n",
		  "t.yaml:2:48: \"drag-timeout\": 1e300 is out of range (0 to 3600000)" },
		{ "subscriptions:\n  - {gestures: drag, touches: 3, drag-threshold: .nan}\n",
		  "t.yaml:2:50: \"drag-threshold\": \".nan\" is not a number" },
		{ "subscriptions:\n  - {gestures: drag, touches: 3, drag-timout: 3}\n",
		  "t.yaml:2:34: unknown subscription key \"drag-timout\" (did you mean \"drag-timeout\"?)" },
		{ "subscriptions: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
		  "t.yaml:1:31: lists and mappings nested deeper than 16 levels" },
	};
	int failed = 0;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct utouch_comp *comp = utouch_comp_new(NULL);
		char err[256];
		int r = utouch_comp_load_config_data(comp, "t.yaml", bad[i].text,
						     strlen(bad[i].text), err, sizeof(err));

		if (r != -EINVAL || strcmp(err, bad[i].error)) {
			fprintf(stderr, "case %zu: %d\n got  %s\n want %s\n", i, r, err, bad[i].error);
			failed++;
		}
		assert_null(utouch_comp_get_subscription(comp, 0));
		utouch_comp_destroy(comp);
	}
	assert_int_equal(failed, 0);
}

/* units, the "swipe" name, a file that everyone may write */
static void
test_units_and_files(void **state)
{
	static const char text[] = "subscriptions:\n  - gestures: swipe\n    touches: 3\n"
				   "    drag-timeout: 0.5 s\n    tap-timeout: 250 ms\n"
				   "    drag-threshold: 0.004 m\n";
	struct utouch_comp *comp = utouch_comp_new(NULL);
	const struct utouch_comp_subscription_params *p;
	char path[] = "/tmp/utouch-comp-config-XXXXXX";
	char err[256];
	int fd;

	assert_int_equal(utouch_comp_load_config_data(comp, "t.yaml", text, strlen(text), err,
						      sizeof(err)), 1);
	p = utouch_comp_subscription_get_params(utouch_comp_get_subscription(comp, 0));
	assert_int_equal(p->mask, UGGestureTypeDrag);
	assert_int_equal(p->drag_timeout, 500);
	assert_int_equal(p->tap_timeout, 250);
	assert_float_equal(p->drag_threshold, 0.004, 1e-7);
	utouch_comp_destroy(comp);

	comp = utouch_comp_new(NULL);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(utouch_comp_load_config(comp, path, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, ": refused: the file is writable by everyone"));
	assert_null(utouch_comp_get_subscription(comp, 0));
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(utouch_comp_load_config(comp, path, err, sizeof(err)), 1);
	unlink(path);
	utouch_comp_destroy(comp);
}

/* A configuration check that destroys the context: the load went on with
 * the freed context.  The destroy is refused; the file loads. */
static int
counting_check(void *data, const struct utouch_comp_subscription_params *params,
		 const char *const *keys, const char *const *values, size_t count, size_t *bad,
		 char *why, size_t whylen)
{
	int *calls = data;

	(void)params, (void)keys, (void)values, (void)count, (void)bad, (void)why;
	(void)whylen;
	(*calls)++;
	return 0;
}

static struct utouch_comp *victim;

static int
destroying_check_victim(void *data, const struct utouch_comp_subscription_params *params,
			const char *const *keys, const char *const *values, size_t count,
			size_t *bad, char *why, size_t whylen)
{
	utouch_comp_destroy(victim);
	return counting_check(data, params, keys, values, count, bad, why, whylen);
}

static void
test_check_cannot_destroy(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct utouch_comp *comp = utouch_comp_new(NULL);
	char path[] = "/tmp/utouch-comp-config-XXXXXX";
	char err[256];
	int calls = 0;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, full, strlen(full)), (ssize_t)strlen(full));
	close(fd);
	victim = comp;
	assert_int_equal(utouch_comp_load_config_checked(comp, path, destroying_check_victim,
							 &calls, err, sizeof(err)), 3);
	unlink(path);
	assert_int_equal(calls, 3);
	assert_non_null(utouch_comp_get_subscription(comp, 2));
	utouch_comp_destroy(comp);
	UT_CLIENT_BUGS_END(3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_defaults_are_grails),
		cmocka_unit_test(test_full_config),
		cmocka_unit_test(test_errors_name_the_line),
		cmocka_unit_test(test_all_or_nothing),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_units_and_files),
		cmocka_unit_test(test_check_cannot_destroy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
