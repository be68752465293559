/*
 * utouch-comp-bench: the time the compositor API itself adds between a
 * touch event given to it and the event the compositor delivers, measured
 * in process (no sockets, no scheduler), for no subscriptions, the
 * forward-then-cancel policy and the hold policy, and how long the hold
 * policy keeps events back in two scripts (virtual time).  A benchmark, not a test;
 * doc/performance.md has the numbers and bench/wlcomp-latency.py the
 * end-to-end counterpart in utouch-wlcomp.
 *
 * usage: utouch-comp-bench [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <utouch/compositor.h>
#include "util/clock.h"


static int
cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int quiet;

static void
report(const char *config, const char *what, uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp);
	if (quiet)
		return;
	printf("| %s | %s | %.2f | %.2f | %.2f |\n", config, what, v[n / 2] / 1000.0,
	       v[(n - 1) * 9 / 10] / 1000.0, v[n - 1] / 1000.0);
}

static int surface;
static uint64_t t_us = 1000000;

/* Run events until one of @p type comes; returns 1 if it came. */
static int
drain_until(struct utouch_comp *comp, enum utouch_comp_event_type type)
{
	struct utouch_comp_event ev;
	int seen = 0;

	while (utouch_comp_next_event(comp, &ev))
		if (ev.type == type)
			seen = 1;
	return seen;
}

static struct utouch_comp *
setup(int policy, struct utouch_comp_device **dev)
{
	struct utouch_comp *comp = utouch_comp_new("bench");
	struct utouch_comp_device_info info;
	struct utouch_comp_subscription_params p;
	struct utouch_comp_subscription *sub;

	memset(&info, 0, sizeof(info));
	info.direct = 1;
	*dev = utouch_comp_device_add(comp, &info);
	if (policy >= 0) {
		/* the default gestures of utouch-wlcomp */
		utouch_comp_subscription_params_init(&p);
		p.policy = (enum utouch_comp_policy)policy;
		p.touches_start = 3;
		p.drag_threshold = 0.01f;
		utouch_comp_subscribe(comp, &p, &sub);
		p.mask = UGGestureTypePinch;
		p.touches_start = 4;
		p.pinch_threshold = 1.3f;
		utouch_comp_subscribe(comp, &p, &sub);
		p.mask = UGGestureTypeDrag;
		p.touches_start = 1;
		p.region = (struct utouch_comp_rect){ 0, 0, 16, 100000 };
		utouch_comp_subscribe(comp, &p, &sub);
	}
	return comp;
}

static void
bench(const char *name, int policy, size_t n)
{
	struct utouch_comp_device *dev;
	struct utouch_comp *comp = setup(policy, &dev);
	uint64_t *v = calloc(n, sizeof(*v));
	size_t taps = n / 10 ? n / 10 : 1;

	/* a touch that no gesture takes: motions once it is delivered */
	utouch_comp_touch_down(comp, dev, 0, t_us, 200, 300, &surface, NULL, 200, 300);
	utouch_comp_touch_frame(comp, dev, t_us);
	t_us += 100000;
	utouch_comp_advance_time(comp, t_us);
	drain_until(comp, UTOUCH_COMP_EVENT_TOUCH_DOWN);
	for (size_t i = 0; i < n; i++) {
		uint64_t t0;

		t_us += 1000;
		t0 = ut_mono_ns();
		utouch_comp_touch_motion(comp, dev, 0, t_us, 200 + (i & 1), 300, 200 + (i & 1), 300);
		utouch_comp_touch_frame(comp, dev, t_us);
		if (!drain_until(comp, UTOUCH_COMP_EVENT_TOUCH_MOTION)) {
			fprintf(stderr, "no motion delivered\n");
			exit(1);
		}
		v[i] = ut_mono_ns() - t0;
	}
	report(name, "motion of a delivered touch (event + frame -> delivered)", v, n);
	utouch_comp_touch_up(comp, dev, 0, t_us);
	utouch_comp_touch_frame(comp, dev, t_us);
	drain_until(comp, UTOUCH_COMP_EVENT_TOUCH_UP);

	/* a three-finger tap: the batch of ups -> the first event for the client */
	for (size_t i = 0; i < taps; i++) {
		uint64_t t0;

		t_us += 100000;
		for (int k = 0; k < 3; k++)
			utouch_comp_touch_down(comp, dev, k, t_us, 100 + 40 * k, 300, &surface, NULL,
					       100 + 40 * k, 300);
		utouch_comp_touch_frame(comp, dev, t_us);
		drain_until(comp, UTOUCH_COMP_EVENT_TOUCH_FRAME);
		t_us += 20000;
		t0 = ut_mono_ns();
		for (int k = 0; k < 3; k++)
			utouch_comp_touch_up(comp, dev, k, t_us);
		utouch_comp_touch_frame(comp, dev, t_us);
		if (!drain_until(comp, UTOUCH_COMP_EVENT_TOUCH_UP)) {
			fprintf(stderr, "no up delivered\n");
			exit(1);
		}
		v[i] = ut_mono_ns() - t0;
	}
	report(name, policy == UTOUCH_COMP_POLICY_HOLD
		     ? "rejected 3-finger tap: ups + frame -> replay delivered"
		     : "3-finger tap: ups + frame -> ups delivered", v, taps);
	free(v);
	utouch_comp_destroy(comp);
}

/*
 * How long the hold policy keeps events back, in the input clock (virtual
 * time, exact): a script of input, one batch per millisecond at most, with
 * the timers run before each millisecond's input as the context's fd would
 * make the compositor do; for each touch event the client gets, the input
 * time it carries and the time it went out.
 */
struct step {
	unsigned int ms;
	char kind;   /* d(own), m(otion), u(p) */
	int32_t id;
	double x, y;
};

static void
delays(const char *name, const struct step *script, size_t n)
{
	struct utouch_comp_device *dev;
	struct utouch_comp *comp = setup(UTOUCH_COMP_POLICY_HOLD, &dev);
	unsigned int end = script[n - 1].ms + 1000, max_motion = 0;
	unsigned int down_out[8] = { 0 };   /* 1 + when the client got the down */
	uint64_t base = t_us + 1000000;
	size_t next = 0;

	for (unsigned int ms = 0; ms <= end; ms++) {
		uint64_t now = base + ms * 1000u;
		struct utouch_comp_event ev;
		int input = 0;

		utouch_comp_advance_time(comp, now);
		for (; next < n && script[next].ms == ms; next++, input = 1) {
			const struct step *s = &script[next];

			if (s->kind == 'd')
				utouch_comp_touch_down(comp, dev, s->id, now, s->x, s->y, &surface, NULL,
						       s->x, s->y);
			else if (s->kind == 'm')
				utouch_comp_touch_motion(comp, dev, s->id, now, s->x, s->y, s->x, s->y);
			else
				utouch_comp_touch_up(comp, dev, s->id, now);
		}
		if (input)
			utouch_comp_touch_frame(comp, dev, now);
		while (utouch_comp_next_event(comp, &ev)) {
			unsigned int at = (unsigned int)((ev.time - base) / 1000u);

			if (quiet || ev.type == UTOUCH_COMP_EVENT_TOUCH_FRAME ||
			    ev.type > UTOUCH_COMP_EVENT_TOUCH_CANCEL)
				continue;
			/* motions of a touch the client already has */
			if (ev.type == UTOUCH_COMP_EVENT_TOUCH_MOTION) {
				if (down_out[ev.touch.id & 7] && at + 1 >= down_out[ev.touch.id & 7] &&
				    ms - at > max_motion)
					max_motion = ms - at;
				continue;
			}
			if (ev.type == UTOUCH_COMP_EVENT_TOUCH_DOWN)
				down_out[ev.touch.id & 7] = ms + 1;
			printf("| %s | %s of %d at %u ms | %u |\n", name,
			       ev.type == UTOUCH_COMP_EVENT_TOUCH_DOWN ? "down"
			       : ev.type == UTOUCH_COMP_EVENT_TOUCH_UP ? "up" : "cancel",
			       (int)ev.touch.id, at, ms - at);
		}
	}
	if (!quiet && max_motion)
		printf("| %s | longest wait of a motion of a delivered touch | %u |\n", name,
		       max_motion);
	t_us = base + end * 1000u;
	utouch_comp_destroy(comp);
}

static void
bench_delays(void)
{
	/* the two-finger tap of the GTK and Qt report */
	static const struct step tap[] = {
		{ 0, 'd', 0, 200, 300 }, { 20, 'd', 1, 300, 300 },
		{ 40, 'u', 0, 0, 0 }, { 60, 'u', 1, 0, 0 },
	};
	/* one finger moves every 10 ms; a second one lands beside it at 100 ms
	 * and lifts at 300 ms, the first at 400 ms */
	struct step scroll[64];
	size_t n = 0;

	if (!quiet)
		printf("\n| hold (virtual time) | event | kept back ms |\n|---|---|---:|\n");
	delays("two-finger tap", tap, sizeof(tap) / sizeof(tap[0]));
	scroll[n++] = (struct step){ 0, 'd', 0, 200, 300 };
	for (unsigned int ms = 10; ms < 400; ms += 10) {
		scroll[n++] = (struct step){ ms, 'm', 0, 200, 300 + ms / 10.0 };
		if (ms == 100)
			scroll[n++] = (struct step){ ms, 'd', 1, 300, 300 };
		if (ms == 300)
			scroll[n++] = (struct step){ ms, 'u', 1, 0, 0 };
	}
	scroll[n++] = (struct step){ 400, 'u', 0, 0, 0 };
	delays("second finger 100 ms into a stroke", scroll, n);
}

int
main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;

	if (n == 0)
		n = 1;
	printf("| gestures | what | median µs | p90 µs | max µs |\n|---|---|---:|---:|---:|\n");
	for (int rep = 0; rep < 2; rep++) {
		/* the first round warms caches and buffers; the second is reported */
		quiet = rep == 0;
		bench("none", -1, n);
		bench("forward-then-cancel", UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL, n);
		bench("hold", UTOUCH_COMP_POLICY_HOLD, n);
	}
	bench_delays();
	return 0;
}
