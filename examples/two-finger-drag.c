/*
 * A minimal program written against the frame 2.5 and grail 3.1 APIs only,
 * as a program for the original uTouch stack would be: it makes a touch
 * device with the frame backend API, subscribes to two-finger drags, feeds
 * two fingers moving down 100 pixels, and prints every gesture slice.
 *
 * Exit status 0 when a drag was recognized and its gesture ended.
 */
#include <stdio.h>

#include <oif/frame.h>
#include <oif/frame_backend.h>
#include <oif/grail.h>

static const UFWindowId window = 1;

static void
send(UGHandle grail, UFEventType type, UFBackendDevice dev,
     UFBackendFrame frame, uint64_t time)
{
	UFEvent ev = frame_event_new();

	frame_event_set_type(ev, type);
	if (frame)
		frame_event_set_frame(ev, frame);
	else
		frame_event_set_device(ev, dev);
	frame_event_set_time(ev, time);
	grail_process_frame_event(grail, ev);
	frame_event_unref(ev);
}

/* Print and accept every slice; note drags and ends. */
static void
drain(UGHandle grail, int *dragged, int *ended)
{
	UGEvent ev;

	while (grail_get_event(grail, &ev) == UGStatusSuccess) {
		UGSlice slice;

		if (grail_event_get_property(ev, UGEventPropertySlice, &slice) ==
		    UGStatusSuccess) {
			const UGTransform *c = grail_slice_get_cumulative_transform(slice);
			UGGestureState state = grail_slice_get_state(slice);

			printf("t=%llu gesture %u %s touches=%u drag=%d dx=%.1f dy=%.1f\n",
			       (unsigned long long)grail_event_get_time(ev),
			       grail_slice_get_id(slice),
			       state == UGGestureStateBegin ? "begin" :
			       state == UGGestureStateUpdate ? "update" : "end",
			       grail_slice_get_num_touches(slice),
			       !!(grail_slice_get_recognized(slice) & UGGestureTypeDrag),
			       (*c)[0][2], (*c)[1][2]);
			if (grail_slice_get_recognized(slice) & UGGestureTypeDrag)
				*dragged = 1;
			if (state == UGGestureStateEnd)
				*ended = 1;
			if (state == UGGestureStateBegin)
				grail_accept_gesture(grail, grail_slice_get_id(slice));
		}
		grail_event_unref(ev);
	}
}

int
main(void)
{
	UGHandle grail;
	UGSubscription sub;
	UFBackendDevice dev = frame_backend_device_new();
	UFBackendFrame prev = NULL;
	UGGestureTypeMask mask = UGGestureTypeDrag;
	unsigned int touches = 2;
	int dragged = 0, ended = 0;
	UFDevice device;

	if (grail_new(&grail) != UGStatusSuccess)
		return 1;
	frame_backend_device_set_name(dev, "example touchscreen");
	frame_backend_device_set_direct(dev, 1);
	frame_backend_device_set_max_touches(dev, 10);
	frame_backend_device_set_window_resolution(dev, 3780, 3780);
	frame_backend_device_add_axis(dev, UFAxisTypeX, 0, 1024, 3780);
	frame_backend_device_add_axis(dev, UFAxisTypeY, 0, 768, 3780);
	send(grail, UFEventTypeDeviceAdded, dev, NULL, 1000);

	device = frame_backend_device_get_device(dev);
	grail_subscription_new(&sub);
	grail_subscription_set_property(sub, UGSubscriptionPropertyDevice, &device);
	grail_subscription_set_property(sub, UGSubscriptionPropertyWindow, &window);
	grail_subscription_set_property(sub, UGSubscriptionPropertyMask, &mask);
	grail_subscription_set_property(sub, UGSubscriptionPropertyTouchesStart, &touches);
	if (grail_subscription_activate(grail, sub) != UGStatusSuccess)
		return 1;

	/* 0: two touches begin, owned; 1..10: move 10 px down; 11: both end */
	for (int step = 0; step <= 11; step++) {
		uint64_t t = 1000 + 20 * (uint64_t)step;
		UFBackendFrame fr = prev ? frame_backend_frame_create_next(prev)
					 : frame_backend_frame_new();

		frame_backend_frame_set_device(fr, dev);
		frame_backend_frame_set_window_id(fr, window);
		for (UFTouchId id = 1; id <= 2; id++) {
			UFBackendTouch touch;
			float x = 400 + 100 * (float)id, y = 300 + 10 * (float)(step > 10 ? 10 : step);

			if (step == 0) {
				touch = frame_backend_touch_new();
				frame_backend_touch_set_id(touch, id);
				frame_backend_touch_set_start_time(touch, t);
				frame_backend_touch_set_owned(touch, 1);
			} else {
				frame_backend_frame_borrow_touch_by_id(fr, id, &touch);
				if (step == 11)
					frame_backend_touch_set_ended(touch);
			}
			frame_backend_touch_set_window_pos(touch, x, y);
			frame_backend_touch_set_value(touch, UFAxisTypeX, x);
			frame_backend_touch_set_value(touch, UFAxisTypeY, y);
			frame_backend_touch_set_time(touch, t);
			frame_backend_frame_give_touch(fr, &touch);
		}
		frame_backend_frame_set_active_touches(fr, step == 11 ? 0 : 2);
		send(grail, UFEventTypeFrame, dev, fr, t);
		if (prev)
			frame_backend_frame_delete(prev);
		prev = fr;
		drain(grail, &dragged, &ended);
	}
	grail_update_time(grail, 2000);
	drain(grail, &dragged, &ended);

	frame_backend_frame_delete(prev);
	grail_delete(grail);
	grail_subscription_delete(sub);
	frame_backend_device_delete(dev);
	printf("%s\n", dragged && ended ? "drag recognized" : "no drag");
	return dragged && ended ? 0 : 1;
}
