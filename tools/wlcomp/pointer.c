/*
 * The pointer: a cursor over the output layout, pointer focus follows the
 * view under it, a click focuses that view.  (Nested in X11 or Wayland the
 * host's mouse arrives here.)
 */
#include <stdlib.h>

#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_xcursor_manager.h>

#include "wlcomp.h"

static void
pointer_update(struct server *server, uint32_t time_msec)
{
	struct wlr_surface *surface = NULL;
	double sx = 0, sy = 0;
	struct view *view = view_at(server, server->cursor->x, server->cursor->y, &surface,
				    &sx, &sy);

	(void)view;
	if (!surface) {
		wlr_xcursor_manager_set_cursor_image(server->xcursor, "left_ptr", server->cursor);
		wlr_seat_pointer_clear_focus(server->seat);
		return;
	}
	wlr_seat_pointer_notify_enter(server->seat, surface, sx, sy);
	wlr_seat_pointer_notify_motion(server->seat, time_msec, sx, sy);
}

static void
on_motion(struct wl_listener *listener, void *data)
{
	struct server *server = wl_container_of(listener, server, cursor_motion);
	struct wlr_event_pointer_motion *ev = data;

	wlr_cursor_move(server->cursor, ev->device, ev->delta_x, ev->delta_y);
	pointer_update(server, ev->time_msec);
}

static void
on_motion_absolute(struct wl_listener *listener, void *data)
{
	struct server *server = wl_container_of(listener, server, cursor_motion_absolute);
	struct wlr_event_pointer_motion_absolute *ev = data;

	wlr_cursor_warp_absolute(server->cursor, ev->device, ev->x, ev->y);
	pointer_update(server, ev->time_msec);
}

static void
on_button(struct wl_listener *listener, void *data)
{
	struct server *server = wl_container_of(listener, server, cursor_button);
	struct wlr_event_pointer_button *ev = data;
	struct wlr_surface *surface;
	double sx, sy;

	wlr_seat_pointer_notify_button(server->seat, ev->time_msec, ev->button, ev->state);
	if (ev->state == WLR_BUTTON_PRESSED) {
		struct view *view = view_at(server, server->cursor->x, server->cursor->y,
					    &surface, &sx, &sy);

		if (view)
			view_focus(view);
	}
}

static void
on_axis(struct wl_listener *listener, void *data)
{
	struct server *server = wl_container_of(listener, server, cursor_axis);
	struct wlr_event_pointer_axis *ev = data;

	wlr_seat_pointer_notify_axis(server->seat, ev->time_msec, ev->orientation, ev->delta,
				     ev->delta_discrete, ev->source);
}

static void
on_frame(struct wl_listener *listener, void *data)
{
	struct server *server = wl_container_of(listener, server, cursor_frame);

	wlr_seat_pointer_notify_frame(server->seat);
}

static void
on_request_cursor(struct wl_listener *listener, void *data)
{
	struct server *server = wl_container_of(listener, server, request_cursor);
	struct wlr_seat_pointer_request_set_cursor_event *ev = data;

	/* only the client with the pointer focus may set the image */
	if (server->seat->pointer_state.focused_client == ev->seat_client)
		wlr_cursor_set_surface(server->cursor, ev->surface, ev->hotspot_x,
				       ev->hotspot_y);
}

void
pointer_add(struct server *server, struct wlr_input_device *device)
{
	wlr_cursor_attach_input_device(server->cursor, device);
}

void
pointer_init(struct server *server)
{
	server->cursor = wlr_cursor_create();
	wlr_cursor_attach_output_layout(server->cursor, server->layout);
	server->xcursor = wlr_xcursor_manager_create(NULL, 24);
	wlr_xcursor_manager_load(server->xcursor, 1);
	wlr_xcursor_manager_set_cursor_image(server->xcursor, "left_ptr", server->cursor);
	server->cursor_motion.notify = on_motion;
	wl_signal_add(&server->cursor->events.motion, &server->cursor_motion);
	server->cursor_motion_absolute.notify = on_motion_absolute;
	wl_signal_add(&server->cursor->events.motion_absolute, &server->cursor_motion_absolute);
	server->cursor_button.notify = on_button;
	wl_signal_add(&server->cursor->events.button, &server->cursor_button);
	server->cursor_axis.notify = on_axis;
	wl_signal_add(&server->cursor->events.axis, &server->cursor_axis);
	server->cursor_frame.notify = on_frame;
	wl_signal_add(&server->cursor->events.frame, &server->cursor_frame);
	server->request_cursor.notify = on_request_cursor;
	wl_signal_add(&server->seat->events.request_set_cursor, &server->request_cursor);
}

void
pointer_finish(struct server *server)
{
	if (!server->cursor)
		return;
	wl_list_remove(&server->cursor_motion.link);
	wl_list_remove(&server->cursor_motion_absolute.link);
	wl_list_remove(&server->cursor_button.link);
	wl_list_remove(&server->cursor_axis.link);
	wl_list_remove(&server->cursor_frame.link);
	wl_list_remove(&server->request_cursor.link);
	wlr_xcursor_manager_destroy(server->xcursor);
	wlr_cursor_destroy(server->cursor);
	server->cursor = NULL;
}
