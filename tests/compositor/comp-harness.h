/*
 * Test harness for the compositor API: a seat with one touchscreen, two
 * fake surfaces (left and right half of a 1024x768 screen) and a log of
 * every event the context hands out.
 */
#ifndef UTOUCH_TEST_COMP_HARNESS_H
#define UTOUCH_TEST_COMP_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include <utouch/compositor.h>

#define H_MAX_LOG 65536

struct h_surface {
	const char *name;
	double x, y;   /* origin on the screen */
	int client;
};

struct harness {
	struct utouch_comp *comp;
	struct utouch_comp_device *dev;
	struct h_surface left, right;
	int clients[2];
	struct utouch_comp_event log[H_MAX_LOG];
	size_t nlog;
	uint64_t time;   /* us */
	int no_drain;
};

struct harness *h_new(void);
/* Another 1024x768 touchscreen like the first one (asserts on failure). */
struct utouch_comp_device *h_add_device(struct harness *h, const char *name,
					void *user_data);
void h_free(struct harness *h);
struct utouch_comp_subscription *h_subscribe(struct harness *h, UGGestureTypeMask mask,
					     unsigned int touches,
					     enum utouch_comp_policy policy);
/* h_subscribe() with whole_hand set to @whole (h_subscribe: the default, 1). */
struct utouch_comp_subscription *h_subscribe_whole(struct harness *h, UGGestureTypeMask mask,
						   unsigned int touches,
						   enum utouch_comp_policy policy, int whole);
/* The surface under (x, y). */
struct h_surface *h_surface_at(struct harness *h, double x);
void h_down(struct harness *h, int32_t id, double x, double y);
void h_move(struct harness *h, int32_t id, double x, double y);
void h_up(struct harness *h, int32_t id);
void h_frame(struct harness *h);
/* Advance the clock by ms with no input, running timers. */
void h_wait(struct harness *h, uint64_t ms);
void h_drain(struct harness *h);
/* Number of logged events of a type (0: any touch event but FRAME). */
size_t h_count(const struct harness *h, enum utouch_comp_event_type type);
/* No touch, held event or timer is left in the context. */
void h_assert_idle(const struct harness *h);
/* Print the log (for failing tests). */
void h_dump(const struct harness *h);

#endif
