/*
 * Input: keyboards go to the focused view, pointers to pointer.c; touches
 * go through the utouch compositor API, and what it decides is carried out
 * on the seat.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <wlr/interfaces/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>

#include "wlcomp.h"
#include "util/clock.h"

uint64_t
input_time_us(const struct server *server)
{
	return server->manual_clock ? server->clock_us : ut_mono_us();
}

/* ---- keyboards ---- */

static bool
binding(struct server *server, xkb_keysym_t sym)
{
	switch (sym) {
	case XKB_KEY_Escape:
		wl_display_terminate(server->display);
		return true;
	case XKB_KEY_Tab:
		view_focus_next(server);
		return true;
	default:
		return false;
	}
}

static void
on_key(struct wl_listener *listener, void *data)
{
	struct keyboard *kb = wl_container_of(listener, kb, key);
	struct wlr_event_keyboard_key *ev = data;
	struct wlr_keyboard *wkb = kb->device->keyboard;
	const xkb_keysym_t *syms;
	int n = xkb_state_key_get_syms(wkb->xkb_state, ev->keycode + 8, &syms);
	bool handled = false;

	/* Alt+Tab cycles the focus, Alt+Escape quits */
	if ((wlr_keyboard_get_modifiers(wkb) & WLR_MODIFIER_ALT) &&
	    ev->state == WL_KEYBOARD_KEY_STATE_PRESSED)
		for (int i = 0; i < n && !handled; i++)
			handled = binding(kb->server, syms[i]);
	if (handled)
		return;
	wlr_seat_set_keyboard(kb->server->seat, kb->device);
	wlr_seat_keyboard_notify_key(kb->server->seat, ev->time_msec, ev->keycode, ev->state);
}

static void
on_modifiers(struct wl_listener *listener, void *data)
{
	struct keyboard *kb = wl_container_of(listener, kb, modifiers);

	wlr_seat_set_keyboard(kb->server->seat, kb->device);
	wlr_seat_keyboard_notify_modifiers(kb->server->seat, &kb->device->keyboard->modifiers);
}

static void
on_keyboard_destroy(struct wl_listener *listener, void *data)
{
	struct keyboard *kb = wl_container_of(listener, kb, destroy);

	wl_list_remove(&kb->key.link);
	wl_list_remove(&kb->modifiers.link);
	wl_list_remove(&kb->destroy.link);
	wl_list_remove(&kb->link);
	free(kb);
}

static void
keyboard_add(struct server *server, struct wlr_input_device *device)
{
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	struct xkb_keymap *keymap = ctx ? xkb_keymap_new_from_names(ctx, NULL,
							XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
	struct keyboard *kb = calloc(1, sizeof(*kb));

	if (!kb || !keymap) {
		wlr_log(WLR_ERROR, "cannot set up keyboard %s", device->name);
		free(kb);
		xkb_keymap_unref(keymap);
		xkb_context_unref(ctx);
		return;
	}
	wlr_keyboard_set_keymap(device->keyboard, keymap);
	xkb_keymap_unref(keymap);
	xkb_context_unref(ctx);
	wlr_keyboard_set_repeat_info(device->keyboard, 25, 600);
	kb->server = server;
	kb->device = device;
	kb->key.notify = on_key;
	wl_signal_add(&device->keyboard->events.key, &kb->key);
	kb->modifiers.notify = on_modifiers;
	wl_signal_add(&device->keyboard->events.modifiers, &kb->modifiers);
	kb->destroy.notify = on_keyboard_destroy;
	wl_signal_add(&device->events.destroy, &kb->destroy);
	wl_list_insert(&server->keyboards, &kb->link);
	wlr_seat_set_keyboard(server->seat, device);
}

/* ---- surfaces that got touches ---- */

static void
on_tracked_destroy(struct wl_listener *listener, void *data)
{
	struct tracked_surface *ts = wl_container_of(listener, ts, destroy);

	utouch_comp_surface_destroyed(ts->server->gestures, ts->surface);
	input_run_gesture_events(ts->server);
	/* nothing more is delivered for its touches: the client's touches end
	 * here, their ids are free */
	seat_touch_end_surface(ts->server, ts->surface,
			       (uint32_t)(input_time_us(ts->server) / 1000u));
	wl_list_remove(&ts->destroy.link);
	wl_list_remove(&ts->link);
	free(ts);
}

void
input_track_surface(struct server *server, struct wlr_surface *surface)
{
	struct tracked_surface *ts;

	wl_list_for_each(ts, &server->tracked, link)
		if (ts->surface == surface)
			return;
	ts = calloc(1, sizeof(*ts));
	if (!ts)
		return;
	ts->server = server;
	ts->surface = surface;
	ts->destroy.notify = on_tracked_destroy;
	wl_signal_add(&surface->events.destroy, &ts->destroy);
	wl_list_insert(&server->tracked, &ts->link);
}

/* ---- carrying out the API's decisions ---- */

static int
device_number(const struct utouch_comp_touch_event *t)
{
	const struct touch_device *td = utouch_comp_device_get_user_data(t->device);

	/* NULL: the device was removed, its touches cancelled with it */
	return td ? td->number : -1;
}

static void
deliver_down(struct server *server, const struct utouch_comp_event *ev)
{
	struct wlr_surface *surface = ev->touch.surface;
	uint32_t ms = (uint32_t)(ev->time / 1000u);
	struct wlr_xdg_surface *xdg;
	int32_t seat_id;

	/* a client without wl_touch (it never asked, or released it) gets
	 * nothing of the touch: no seat id, no touch point (wlroots would log
	 * an error for every such down) */
	if (!wlr_surface_accepts_touch(server->seat, surface)) {
		wlr_log(WLR_DEBUG, "touch %d: the client has no wl_touch", ev->touch.id);
	} else if (!seat_touch_add(server, device_number(&ev->touch), ev->touch.id, surface,
				   &seat_id)) {
		wlr_log(WLR_ERROR, "touch %d: no seat touch id left", ev->touch.id);
		return;
	} else {
		wlr_seat_touch_notify_down(server->seat, surface, ms, seat_id, ev->touch.sx,
					   ev->touch.sy);
	}
	/* the touched window takes the keyboard focus */
	if (wlr_surface_is_xdg_surface(surface) &&
	    (xdg = wlr_xdg_surface_from_wlr_surface(surface)) &&
	    xdg->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL && xdg->data &&
	    ((struct wlr_scene_node *)xdg->data)->data)
		view_focus(((struct wlr_scene_node *)xdg->data)->data);
}

void
input_run_gesture_events(struct server *server)
{
	struct utouch_comp_event ev;
	struct wlr_seat *seat = server->seat;

	while (utouch_comp_next_event(server->gestures, &ev)) {
		uint32_t ms = (uint32_t)(ev.time / 1000u);
		struct wlr_surface *surface = ev.touch.surface;
		int device = ev.type <= UTOUCH_COMP_EVENT_TOUCH_CANCEL ? device_number(&ev.touch) : -1;
		int32_t seat_id;

		switch (ev.type) {
		case UTOUCH_COMP_EVENT_TOUCH_DOWN:
			deliver_down(server, &ev);
			break;
		case UTOUCH_COMP_EVENT_TOUCH_MOTION:
			if (seat_touch_get(server, device, ev.touch.id, &seat_id))
				wlr_seat_touch_notify_motion(seat, ms, seat_id, ev.touch.sx,
							     ev.touch.sy);
			break;
		case UTOUCH_COMP_EVENT_TOUCH_UP:
			if (seat_touch_get(server, device, ev.touch.id, &seat_id)) {
				wlr_seat_touch_notify_up(seat, ms, seat_id);
				seat_touch_remove(server, device, ev.touch.id);
			}
			break;
		case UTOUCH_COMP_EVENT_TOUCH_FRAME:
			wlr_seat_touch_notify_frame(seat);
			break;
		case UTOUCH_COMP_EVENT_TOUCH_CANCEL:
			if (surface) {
				/* wl_touch.cancel ends every touch point of the client */
				wlr_seat_touch_notify_cancel(seat, surface);
				seat_touch_forget(server, wl_resource_get_client(surface->resource),
						  -1);
			}
			break;
		default:
			gestures_handle(server, &ev);
			break;
		}
	}
}

/* ---- touch devices ---- */

static bool
to_layout(struct server *server, double x, double y, double *lx, double *ly)
{
	struct wlr_box box;

	if (!output_layout_box(server, &box))
		return false;
	*lx = box.x + x * box.width;
	*ly = box.y + y * box.height;
	return true;
}

static void
on_touch_down(struct wl_listener *listener, void *data)
{
	struct touch_device *td = wl_container_of(listener, td, down);
	struct wlr_event_touch_down *ev = data;
	struct server *server = td->server;
	struct wlr_surface *surface = NULL;
	double lx, ly, sx = 0, sy = 0;
	int r;

	if (!to_layout(server, ev->x, ev->y, &lx, &ly))
		return;
	view_at(server, lx, ly, &surface, &sx, &sy);
	if (surface)
		input_track_surface(server, surface);
	/* a touch that is down already keeps its origin: the context refuses
	 * the second down (a device bug), which must change nothing */
	double ox, oy;
	bool was_down = touch_origin_get(td, ev->touch_id, &ox, &oy);
	if (!touch_origin_set(td, ev->touch_id, lx - sx, ly - sy)) {
		wlr_log(WLR_ERROR, "touch down %d: out of memory", ev->touch_id);
		return;
	}
	r = utouch_comp_touch_down(server->gestures, td->gdev, ev->touch_id,
				   touch_event_time(td, ev->time_msec), lx, ly,
				   surface, surface ? wl_resource_get_client(surface->resource) : NULL,
				   sx, sy);
	if (r < 0) {
		wlr_log(WLR_DEBUG, "touch down %d: %s", ev->touch_id, strerror(-r));
		if (was_down)
			touch_origin_set(td, ev->touch_id, ox, oy);
		else
			touch_origin_remove(td, ev->touch_id);
	}
	input_run_gesture_events(server);
}

static void
on_touch_motion(struct wl_listener *listener, void *data)
{
	struct touch_device *td = wl_container_of(listener, td, motion);
	struct wlr_event_touch_motion *ev = data;
	struct server *server = td->server;
	double lx, ly, ox = 0, oy = 0;

	if (!to_layout(server, ev->x, ev->y, &lx, &ly))
		return;
	/* surface-local to the surface the touch began on, at its position then */
	touch_origin_get(td, ev->touch_id, &ox, &oy);
	utouch_comp_touch_motion(server->gestures, td->gdev, ev->touch_id,
				 touch_event_time(td, ev->time_msec), lx, ly, lx - ox, ly - oy);
	input_run_gesture_events(server);
}

static void
on_touch_up(struct wl_listener *listener, void *data)
{
	struct touch_device *td = wl_container_of(listener, td, up);
	struct wlr_event_touch_up *ev = data;

	touch_origin_remove(td, ev->touch_id);
	utouch_comp_touch_up(td->server->gestures, td->gdev, ev->touch_id,
			     touch_event_time(td, ev->time_msec));
	input_run_gesture_events(td->server);
}

static void
on_touch_cancel(struct wl_listener *listener, void *data)
{
	struct touch_device *td = wl_container_of(listener, td, cancel);
	struct wlr_event_touch_cancel *ev = data;

	touch_origin_remove(td, ev->touch_id);
	utouch_comp_touch_cancel(td->server->gestures, td->gdev, ev->touch_id,
				 touch_event_time(td, ev->time_msec));
	input_run_gesture_events(td->server);
}

static void
on_touch_frame(struct wl_listener *listener, void *data)
{
	struct touch_device *td = wl_container_of(listener, td, frame);

	/* a frame has no time of its own: that of the device's last event */
	utouch_comp_touch_frame(td->server->gestures, td->gdev,
				td->has_time ? td->last_ms * 1000u : input_time_us(td->server));
	input_run_gesture_events(td->server);
}

static void
on_touch_destroy(struct wl_listener *listener, void *data)
{
	struct touch_device *td = wl_container_of(listener, td, destroy);

	utouch_comp_device_remove(td->server->gestures, td->gdev);
	input_run_gesture_events(td->server);
	seat_touch_forget(td->server, NULL, td->number);
	free(td->origins);
	printf("wlcomp: touch device %d removed\n", td->number);
	fflush(stdout);
	wl_list_remove(&td->down.link);
	wl_list_remove(&td->up.link);
	wl_list_remove(&td->motion.link);
	wl_list_remove(&td->cancel.link);
	wl_list_remove(&td->frame.link);
	wl_list_remove(&td->destroy.link);
	wl_list_remove(&td->link);
	free(td);
}

struct touch_device *
touch_device_add(struct server *server, struct wlr_input_device *device, bool virtual)
{
	struct touch_device *td = calloc(1, sizeof(*td));
	struct utouch_comp_device_info info = { 0 };
	struct wlr_box box;

	if (!td)
		return NULL;
	td->server = server;
	td->device = device;
	td->virtual = virtual;
	td->number = server->next_touch_number++;
	info.name = device->name;
	info.direct = 1;
	info.width_mm = device->width_mm;
	info.height_mm = device->height_mm;
	if (device->width_mm > 0 && output_layout_box(server, &box))
		info.resolution = box.width / device->width_mm;
	info.user_data = td;
	td->gdev = utouch_comp_device_add(server->gestures, &info);
	if (!td->gdev) {
		free(td);
		return NULL;
	}
	td->down.notify = on_touch_down;
	wl_signal_add(&device->touch->events.down, &td->down);
	td->up.notify = on_touch_up;
	wl_signal_add(&device->touch->events.up, &td->up);
	td->motion.notify = on_touch_motion;
	wl_signal_add(&device->touch->events.motion, &td->motion);
	td->cancel.notify = on_touch_cancel;
	wl_signal_add(&device->touch->events.cancel, &td->cancel);
	td->frame.notify = on_touch_frame;
	wl_signal_add(&device->touch->events.frame, &td->frame);
	td->destroy.notify = on_touch_destroy;
	wl_signal_add(&device->events.destroy, &td->destroy);
	wl_list_insert(server->touch_devices.prev, &td->link);
	return td;
}

static void
on_new_input(struct wl_listener *listener, void *data)
{
	struct server *server = wl_container_of(listener, server, new_input);
	struct wlr_input_device *device = data;

	switch (device->type) {
	case WLR_INPUT_DEVICE_KEYBOARD:
		keyboard_add(server, device);
		break;
	case WLR_INPUT_DEVICE_POINTER:
		pointer_add(server, device);
		break;
	case WLR_INPUT_DEVICE_TOUCH:
		if (!touch_device_add(server, device, false))
			wlr_log(WLR_ERROR, "cannot add touch device %s", device->name);
		break;
	default:
		break;
	}
}

void
input_init(struct server *server)
{
	wl_list_init(&server->keyboards);
	wl_list_init(&server->touch_devices);
	wl_list_init(&server->tracked);
	server->new_input.notify = on_new_input;
	wl_signal_add(&server->backend->events.new_input, &server->new_input);
	/* touch is always offered so that clients bind wl_touch before the
	 * first touchscreen appears */
	wlr_seat_set_capabilities(server->seat, WL_SEAT_CAPABILITY_KEYBOARD |
				  WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_TOUCH);
}
