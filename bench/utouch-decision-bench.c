/*
 * Decision latency (doc/performance.md, doc/gestured.md "Latency"): how
 * long after it lands a touch that no rule takes reaches the application
 * when utouch-gestured holds touches for its rules.
 *
 * The daemon plays each recording as the grabbed device in virtual time
 * (--recording --fast) with its touch proxy writing what the clone emits
 * (--proxy-output); a touch's latency is the time from its landing in the
 * recording to its begin on the clone (tests/support/touch-latency.c).
 * Virtual time makes the numbers exact and the same on every run: they
 * are what the decisions cost, not what the machine adds (the proxy's own
 * few microseconds are utouch-proxy-bench's).
 *
 * Usage: utouch-decision-bench DAEMON RECORDINGS_DIR
 *   RECORDINGS_DIR holds decision-*.evemu (bench/scenarios/decision-*.scn,
 *   made by utouch-synth at build time).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "touch-latency.h"

static const char swipe3[] =
	"gestures:\n"
	"  - {gesture: swipe, fingers: 3, direction: left, command: 'true'}\n"
	"  - {gesture: swipe, fingers: 3, direction: right, command: 'true'}\n";

static const char swipe3_touchpad[] =
	"gestures:\n"
	"  - {gesture: swipe, fingers: 3, direction: left, device: touchpad, command: 'true'}\n"
	"  - {gesture: swipe, fingers: 3, direction: right, device: touchpad, command: 'true'}\n";

static const struct bench_case {
	const char *name;
	const char *config;
	const char *recording;
	const char *why;
} cases[] = {
	{ "touchscreen drag, touchpad rules only", swipe3_touchpad, "decision-drag-1.evemu",
	  "no rule names the device" },
	{ "1-finger drag, 3-finger rules", swipe3, "decision-drag-1.evemu",
	  "fingers may still land" },
	{ "1-finger tap (30 ms), 3-finger rules", swipe3, "decision-tap-1.evemu",
	  "released when it lifts" },
	{ "3 fingers resting 0.8 s, 3-finger swipes", swipe3, "decision-rest-3.evemu",
	  "a swipe may still start" },
	{ "5-finger palm swipe, 3-finger swipes", swipe3, "decision-palm-5.evemu",
	  "more fingers than any rule" },
	{ "3-finger swipe a rule takes", swipe3, "decision-swipe-3.evemu",
	  "consumed" },
};

int
main(int argc, char **argv)
{
	char tmp[] = "/tmp/utouch-decision-XXXXXX";
	char path[1024], err[1024];
	int status = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DAEMON RECORDINGS_DIR\n", argv[0]);
		return 2;
	}
	if (!mkdtemp(tmp)) {
		perror("utouch-decision-bench: mkdtemp");
		return 1;
	}
	printf("%-42s %7s %8s %9s %7s  %s\n", "case", "touches", "released", "median", "max",
	       "what the touches wait for");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bench_case *c = &cases[i];
		struct tl_result r;

		snprintf(path, sizeof(path), "%s/%s", argv[2], c->recording);
		if (tl_measure(argv[1], tmp, c->config, path, &r, err, sizeof(err)) < 0) {
			fprintf(stderr, "utouch-decision-bench: %s: %s\n", c->name, err);
			status = 1;
			continue;
		}
		if (r.nreleased == 0)
			printf("%-42s %7zu %8zu %9s %7s  %s\n", c->name, r.ntouches, r.nreleased,
			       "-", "-", c->why);
		else
			printf("%-42s %7zu %8zu %6ld ms %4ld ms  %s\n", c->name, r.ntouches,
			       r.nreleased, r.median_ms, r.max_ms, c->why);
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	if (system(path) != 0)
		fprintf(stderr, "utouch-decision-bench: could not remove %s\n", tmp);
	return status;
}
