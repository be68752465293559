#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "comp-harness.h"

struct utouch_comp_device *
h_add_device(struct harness *h, const char *name, void *user_data)
{
	struct utouch_comp_device_info info;
	struct utouch_comp_device *dev;

	memset(&info, 0, sizeof(info));
	info.name = name;
	info.direct = 1;
	info.width_mm = 270;
	info.height_mm = 203;
	info.resolution = 1024.0 / 270.0;
	info.max_touches = 10;
	info.user_data = user_data;
	dev = utouch_comp_device_add(h->comp, &info);
	assert_non_null(dev);
	return dev;
}

struct harness *
h_new(void)
{
	struct harness *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	h->comp = utouch_comp_new("seat0");
	assert_non_null(h->comp);
	h->dev = h_add_device(h, "test touchscreen", NULL);
	h->left = (struct h_surface){ "left", 0, 0, 0 };
	h->right = (struct h_surface){ "right", 512, 0, 1 };
	h->time = 1000000;
	return h;
}

void
h_free(struct harness *h)
{
	utouch_comp_destroy(h->comp);
	free(h);
}

struct utouch_comp_subscription *
h_subscribe_whole(struct harness *h, UGGestureTypeMask mask, unsigned int touches,
		  enum utouch_comp_policy policy, int whole)
{
	struct utouch_comp_subscription_params p;
	struct utouch_comp_subscription *sub = NULL;

	utouch_comp_subscription_params_init(&p);
	assert_int_equal(p.whole_hand, 1);
	p.name = "test";
	p.mask = mask;
	p.touches_start = touches;
	p.policy = policy;
	p.whole_hand = whole;
	assert_int_equal(utouch_comp_subscribe(h->comp, &p, &sub), 0);
	return sub;
}

struct utouch_comp_subscription *
h_subscribe(struct harness *h, UGGestureTypeMask mask, unsigned int touches,
	    enum utouch_comp_policy policy)
{
	return h_subscribe_whole(h, mask, touches, policy, 1);
}

struct h_surface *
h_surface_at(struct harness *h, double x)
{
	return x < 512 ? &h->left : &h->right;
}

void
h_drain(struct harness *h)
{
	struct utouch_comp_event ev;

	if (h->no_drain)
		return;
	while (utouch_comp_next_event(h->comp, &ev)) {
		assert_true(h->nlog < H_MAX_LOG);
		h->log[h->nlog++] = ev;
	}
}

void
h_down(struct harness *h, int32_t id, double x, double y)
{
	struct h_surface *s = h_surface_at(h, x);

	assert_int_equal(utouch_comp_touch_down(h->comp, h->dev, id, h->time, x, y, s,
						&h->clients[s->client], x - s->x, y - s->y), 0);
	h_drain(h);
}

void
h_move(struct harness *h, int32_t id, double x, double y)
{
	/* surface-local to the surface the touch began on: tests keep
	 * touches on their half */
	struct h_surface *s = h_surface_at(h, x);

	assert_int_equal(utouch_comp_touch_motion(h->comp, h->dev, id, h->time, x, y,
						  x - s->x, y - s->y), 0);
	h_drain(h);
}

void
h_up(struct harness *h, int32_t id)
{
	assert_int_equal(utouch_comp_touch_up(h->comp, h->dev, id, h->time), 0);
	h_drain(h);
}

void
h_frame(struct harness *h)
{
	assert_int_equal(utouch_comp_touch_frame(h->comp, h->dev, h->time), 0);
	h_drain(h);
	h->time += 10000;
}

void
h_wait(struct harness *h, uint64_t ms)
{
	h->time += ms * 1000;
	assert_int_equal(utouch_comp_advance_time(h->comp, h->time), 0);
	h_drain(h);
}

size_t
h_count(const struct harness *h, enum utouch_comp_event_type type)
{
	size_t n = 0;

	for (size_t i = 0; i < h->nlog; i++) {
		enum utouch_comp_event_type t = h->log[i].type;

		if (type ? t == type
			 : (t == UTOUCH_COMP_EVENT_TOUCH_DOWN || t == UTOUCH_COMP_EVENT_TOUCH_MOTION ||
			    t == UTOUCH_COMP_EVENT_TOUCH_UP || t == UTOUCH_COMP_EVENT_TOUCH_CANCEL))
			n++;
	}
	return n;
}

void
h_assert_idle(const struct harness *h)
{
	assert_int_equal(utouch_comp_get_touch_count(h->comp), 0);
	assert_int_equal(utouch_comp_get_held_count(h->comp), 0);
	assert_int_equal(utouch_comp_next_timeout(h->comp), 0);
}

void
h_dump(const struct harness *h)
{
	for (size_t i = 0; i < h->nlog; i++) {
		const struct utouch_comp_event *e = &h->log[i];

		if (e->type >= UTOUCH_COMP_EVENT_GESTURE_BEGIN)
			print_message("%zu %s id=%u touches=%u\n", i,
				      utouch_comp_event_type_name(e->type), e->gesture.id,
				      e->gesture.num_touches);
		else
			print_message("%zu %s t=%d s=%s (%.1f,%.1f)%s\n", i,
				      utouch_comp_event_type_name(e->type), e->touch.id,
				      e->touch.surface ? ((struct h_surface *)e->touch.surface)->name
						       : "-",
				      e->touch.sx, e->touch.sy, e->touch.replayed ? " replayed" : "");
	}
}
