/*
 * How long utouch-gestured holds a touch that no rule takes, in virtual
 * time (issue 23 point 8; doc/gestured.md "Latency"): the daemon plays a
 * recording as the grabbed device (--recording --fast) and the proxy's
 * clone shows when each touch reached the application
 * (tests/support/touch-latency.c).  The recordings are the decision
 * benchmark's (bench/scenarios/decision-*.scn, made at build time).
 *
 * Usage: test-gestured-latency DAEMON RECORDINGS_DIR
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "touch-latency.h"

static const char *daemon_exe, *rec_dir;
static char tmp[] = "/tmp/utouch-latency-XXXXXX";

static const char swipe3[] =
	"gestures:\n"
	"  - {gesture: swipe, fingers: 3, direction: left, command: 'true'}\n"
	"  - {gesture: swipe, fingers: 3, direction: right, command: 'true'}\n";

static void
measure(const char *config, const char *rec, struct tl_result *r)
{
	char path[512], err[1024];

	snprintf(path, sizeof(path), "%s/%s", rec_dir, rec);
	if (tl_measure(daemon_exe, tmp, config, path, r, err, sizeof(err)) < 0)
		fail_msg("%s", err);
}

/* every touch reached the application @p ms after it landed */
static void
assert_all(const struct tl_result *r, size_t n, long ms)
{
	assert_int_equal(r->ntouches, n);
	assert_int_equal(r->nreleased, n);
	for (size_t i = 0; i < n; i++)
		if (r->latency_ms[i] != ms)
			fail_msg("touch %zu: %ld ms, want %ld", i, r->latency_ms[i], ms);
}

/* Rules for touchpads only: a touchscreen's touches are never held (the
 * daemon's subscriptions bind touchpads only).  They waited 60 ms. */
static void
test_device_no_rule_names(void **state)
{
	struct tl_result r;
	(void)state;

	measure("gestures:\n"
		"  - {gesture: swipe, fingers: 3, device: touchpad, command: 'true'}\n"
		"  - {gesture: tap, fingers: 2, device: touchpad, command: 'true'}\n",
		"decision-drag-1.evemu", &r);
	assert_all(&r, 10, 0);
	/* a rule for any device holds them again */
	measure("gestures:\n"
		"  - {gesture: swipe, fingers: 3, device: touchpad, command: 'true'}\n"
		"  - {gesture: tap, fingers: 2, command: 'true'}\n",
		"decision-drag-1.evemu", &r);
	assert_all(&r, 10, 60);
}

/* One finger on 3-finger rules: more fingers may land within grail's
 * composition time, 60 ms. */
static void
test_one_finger_waits_composition(void **state)
{
	struct tl_result r;
	(void)state;

	measure(swipe3, "decision-drag-1.evemu", &r);
	assert_all(&r, 10, 60);
}

/* A 30 ms tap lifts before that: it goes when it lifts (the report after
 * 30 ms, 10 ms apart). */
static void
test_tap_goes_when_it_lifts(void **state)
{
	struct tl_result r;
	(void)state;

	measure(swipe3, "decision-tap-1.evemu", &r);
	assert_all(&r, 10, 40);
}

/* Three resting fingers on 3-finger swipes: a swipe may start until grail's
 * drag timeout (300 ms) has passed. */
static void
test_resting_fingers_wait_drag_timeout(void **state)
{
	struct tl_result r;
	(void)state;

	measure(swipe3, "decision-rest-3.evemu", &r);
	assert_all(&r, 30, 301);
}

/* A five-finger palm (fingers 10 ms apart) on 3-finger whole-hand rules:
 * no rule can take it once the fourth finger is down, and grail lets every
 * finger go then: 30, 20, 10 and 0 ms after they landed, and the fifth as
 * it lands.  They all waited 60 ms before. */
static void
test_palm_goes_as_fourth_finger_lands(void **state)
{
	struct tl_result r;
	(void)state;

	measure(swipe3, "decision-palm-5.evemu", &r);
	assert_int_equal(r.ntouches, 50);
	assert_int_equal(r.nreleased, 50);
	static const long want[5] = { 30, 20, 10, 0, 0 };
	for (size_t i = 0; i < 50; i++)
		if (r.latency_ms[i] != want[i % 5])
			fail_msg("touch %zu: %ld ms, want %ld", i, r.latency_ms[i], want[i % 5]);
	/* with whole-hand: false the palm fires the rule on its subsets */
	measure("settings:\n  whole-hand: false\n"
		"gestures:\n"
		"  - {gesture: swipe, fingers: 3, direction: right, command: 'true'}\n",
		"decision-palm-5.evemu", &r);
	assert_true(r.nreleased < 50);
}

/* A swipe a rule takes never reaches the application. */
static void
test_swipe_consumed(void **state)
{
	struct tl_result r;
	(void)state;

	measure(swipe3, "decision-swipe-3.evemu", &r);
	assert_int_equal(r.ntouches, 30);
	assert_int_equal(r.nreleased, 0);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_no_rule_names),
		cmocka_unit_test(test_one_finger_waits_composition),
		cmocka_unit_test(test_tap_goes_when_it_lifts),
		cmocka_unit_test(test_resting_fingers_wait_drag_timeout),
		cmocka_unit_test(test_palm_goes_as_fourth_finger_lands),
		cmocka_unit_test(test_swipe_consumed),
	};
	if (argc != 3) {
		fprintf(stderr, "usage: %s DAEMON RECORDINGS_DIR\n", argv[0]);
		return 2;
	}
	daemon_exe = argv[1];
	rec_dir = argv[2];
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return rc;
}
