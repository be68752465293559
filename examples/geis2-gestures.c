/*
 * geis2-gestures: two-finger drags, pinches and rotations with the geis v2
 * interface.
 *
 * The program subscribes to the three classes with two touches, prints
 * every gesture event with a few of its attributes, and accepts each
 * gesture when it begins.  It only uses <geis/geis.h>; on utouch, point it
 * at a recording with
 *
 *   UTOUCH_GEIS_BACKEND=recording-fast:data/recordings/touchscreen/pinch-2.evemu \
 *       ./geis2-gestures [IDLE-MS]
 *
 * It runs until interrupted, or, with IDLE-MS, until no input arrived for
 * that many milliseconds.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

#include <geis/geis.h>

/* Value of a float attribute of a frame (0 when it is missing). */
static float
frame_float(GeisFrame frame, const char *name)
{
	return geis_attr_value_to_float(geis_frame_attr_by_name(frame, name));
}

static void
print_gesture_event(Geis geis, GeisEvent event, const char *what)
{
	GeisAttr attr = geis_event_attr_by_name(event, GEIS_EVENT_ATTRIBUTE_GROUPSET);
	GeisGroupSet groups = geis_attr_value_to_pointer(attr);

	for (GeisSize i = 0; i < geis_groupset_group_count(groups); i++) {
		GeisGroup group = geis_groupset_group(groups, i);

		for (GeisSize j = 0; j < geis_group_frame_count(group); j++) {
			GeisFrame frame = geis_group_frame(group, j);
			GeisGestureId id = geis_frame_id(frame);
			GeisAttr name = geis_frame_attr_by_name(frame,
					GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);

			printf("%s gesture %u (%s) touches=%d position=(%.1f, %.1f) "
			       "radius=%.3f angle=%.3f\n", what, id,
			       geis_attr_value_to_string(name),
			       geis_attr_value_to_integer(geis_frame_attr_by_name(frame,
					GEIS_GESTURE_ATTRIBUTE_TOUCHES)),
			       frame_float(frame, GEIS_GESTURE_ATTRIBUTE_POSITION_X),
			       frame_float(frame, GEIS_GESTURE_ATTRIBUTE_POSITION_Y),
			       frame_float(frame, GEIS_GESTURE_ATTRIBUTE_RADIUS),
			       frame_float(frame, GEIS_GESTURE_ATTRIBUTE_ANGLE));

			/* Claim the touches for this program as soon as the
			 * gesture starts. */
			if (geis_event_type(event) == GEIS_EVENT_GESTURE_BEGIN)
				geis_gesture_accept(geis, group, id);
		}
	}
}

static void
handle_event(Geis geis, GeisEvent event)
{
	GeisAttr attr;

	switch (geis_event_type(event)) {
	case GEIS_EVENT_DEVICE_AVAILABLE:
		attr = geis_event_attr_by_name(event, GEIS_EVENT_ATTRIBUTE_DEVICE);
		printf("device available: %s\n",
		       geis_device_name(geis_attr_value_to_pointer(attr)));
		break;
	case GEIS_EVENT_INIT_COMPLETE:
		printf("init complete\n");
		break;
	case GEIS_EVENT_GESTURE_BEGIN:
		print_gesture_event(geis, event, "begin");
		break;
	case GEIS_EVENT_GESTURE_UPDATE:
		print_gesture_event(geis, event, "update");
		break;
	case GEIS_EVENT_GESTURE_END:
		print_gesture_event(geis, event, "end");
		break;
	default:
		break;
	}
}

/* A subscription for two-touch gestures of three classes: one filter per
 * class, since the filters of a subscription are alternatives. */
static GeisSubscription
subscribe(Geis geis)
{
	static const char *classes[] = {
		GEIS_GESTURE_DRAG, GEIS_GESTURE_PINCH, GEIS_GESTURE_ROTATE
	};
	GeisSubscription sub = geis_subscription_new(geis, "two fingers",
						     GEIS_SUBSCRIPTION_NONE);

	for (int i = 0; sub && i < 3; i++) {
		GeisFilter filter = geis_filter_new(geis, classes[i]);

		geis_filter_add_term(filter, GEIS_FILTER_CLASS,
				     GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ, classes[i],
				     GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ, 2,
				     NULL);
		geis_subscription_add_filter(sub, filter);
	}
	if (sub && geis_subscription_activate(sub) != GEIS_STATUS_SUCCESS) {
		geis_subscription_delete(sub);
		sub = NULL;
	}
	return sub;
}

int
main(int argc, char **argv)
{
	int idle_ms = argc > 1 ? atoi(argv[1]) : -1;
	struct pollfd pfd = { .events = POLLIN };
	GeisSubscription sub;
	Geis geis;

	geis = geis_new(GEIS_INIT_TRACK_DEVICES, NULL);
	if (!geis) {
		fprintf(stderr, "geis_new failed: %s\n", geis_error_message(NULL, 0));
		return 1;
	}
	sub = subscribe(geis);
	if (!sub) {
		fprintf(stderr, "cannot subscribe: %s\n", geis_error_message(geis, 0));
		geis_delete(geis);
		return 1;
	}
	geis_get_configuration(geis, GEIS_CONFIGURATION_FD, &pfd.fd);

	/* Whenever the descriptor is readable, let geis process its input,
	 * then take the events it produced. */
	while (poll(&pfd, 1, idle_ms) > 0) {
		GeisEvent event;
		GeisStatus status;

		geis_dispatch_events(geis);
		while ((status = geis_next_event(geis, &event)) == GEIS_STATUS_SUCCESS ||
		       status == GEIS_STATUS_CONTINUE) {
			handle_event(geis, event);
			geis_event_delete(event);
		}
	}

	geis_subscription_delete(sub);
	geis_delete(geis);
	return 0;
}
