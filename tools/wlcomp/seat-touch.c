/*
 * Touch identities between the devices and the seat:
 *
 * - seat touch ids: every touch delivered to the seat gets its device's id
 *   when that is not negative and no other touch point of the seat uses it,
 *   else the lowest id nobody uses (a device may number its touches
 *   anyhow, -1 or 2147483647 included, and two devices use the same ids);
 *   the id is taken when the touch's down is delivered and given back with
 *   its up, a cancel of its client, or the end of its surface or device;
 *   a surface that goes while its client stays ends the client's touches
 *   on it with wl_touch.up at once (seat_touch_end_surface);
 * - surface origins: the surface-local position of a motion is taken
 *   relative to where the touch's surface was at the down, per device id;
 * - event times: devices stamp events in 32-bit milliseconds, extended here
 *   to the 64-bit microseconds the compositor API takes.
 */
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "wlcomp.h"

/* ---- seat touch ids ---- */

static struct seat_touch *
seat_touch_find(struct server *server, int device, int32_t id)
{
	/* the newest first: a replayed touch may reuse a device id */
	for (size_t i = server->nseat_touches; i-- > 0;) {
		struct seat_touch *st = &server->seat_touches[i];

		if (st->device == device && st->id == id)
			return st;
	}
	return NULL;
}

static bool
seat_id_used(struct server *server, int32_t seat_id)
{
	for (size_t i = 0; i < server->nseat_touches; i++)
		if (server->seat_touches[i].seat_id == seat_id)
			return true;
	/* a point the seat still keeps for a surface that went away */
	return wlr_seat_touch_get_point(server->seat, seat_id) != NULL;
}

bool
seat_touch_add(struct server *server, int device, int32_t id, struct wlr_surface *surface,
	       int32_t *seat_id)
{
	struct seat_touch *st;
	int32_t sid = id;

	if (id < 0 || seat_id_used(server, id)) {
		for (sid = 0; seat_id_used(server, sid); sid++)
			if (sid == INT32_MAX)
				return false;
	}
	if (!UT_ARRAY_RESERVE(server->seat_touches, server->capseat_touches,
			      server->nseat_touches + 1, 16))
		return false;
	st = &server->seat_touches[server->nseat_touches++];
	st->device = device;
	st->id = id;
	st->seat_id = sid;
	st->surface = surface;
	st->client = surface ? wl_resource_get_client(surface->resource) : NULL;
	*seat_id = sid;
	return true;
}

bool
seat_touch_get(struct server *server, int device, int32_t id, int32_t *seat_id)
{
	struct seat_touch *st = seat_touch_find(server, device, id);

	if (st)
		*seat_id = st->seat_id;
	return st != NULL;
}

static void
seat_touch_drop(struct server *server, size_t i)
{
	memmove(&server->seat_touches[i], &server->seat_touches[i + 1],
		(server->nseat_touches - i - 1) * sizeof(*server->seat_touches));
	server->nseat_touches--;
}

void
seat_touch_remove(struct server *server, int device, int32_t id)
{
	struct seat_touch *st = seat_touch_find(server, device, id);

	if (st)
		seat_touch_drop(server, (size_t)(st - server->seat_touches));
}

void
seat_touch_forget(struct server *server, struct wl_client *client, int device)
{
	for (size_t i = 0; i < server->nseat_touches;) {
		struct seat_touch *st = &server->seat_touches[i];

		if ((client && st->client == client) || (device >= 0 && st->device == device))
			seat_touch_drop(server, i);
		else
			i++;
	}
}

void
seat_touch_end_surface(struct server *server, struct wlr_surface *surface, uint32_t time_msec)
{
	bool ended = false;

	/* the seat keeps a touch point until its up: without one the client,
	 * which saw the down, would never see the touch end, and the point
	 * would stay in the seat until the client disconnects */
	for (size_t i = 0; i < server->nseat_touches;) {
		struct seat_touch *st = &server->seat_touches[i];

		if (st->surface != surface) {
			i++;
			continue;
		}
		if (wlr_seat_touch_get_point(server->seat, st->seat_id)) {
			wlr_seat_touch_notify_up(server->seat, time_msec, st->seat_id);
			ended = true;
		}
		seat_touch_drop(server, i);
	}
	if (ended)
		wlr_seat_touch_notify_frame(server->seat);
}

void
seat_touch_finish(struct server *server)
{
	free(server->seat_touches);
	server->seat_touches = NULL;
	server->nseat_touches = server->capseat_touches = 0;
}

/* ---- surface origins ---- */

static struct touch_origin *
origin_find(struct touch_device *td, int32_t id)
{
	for (size_t i = 0; i < td->norigins; i++)
		if (td->origins[i].id == id)
			return &td->origins[i];
	return NULL;
}

bool
touch_origin_set(struct touch_device *td, int32_t id, double x, double y)
{
	struct touch_origin *o = origin_find(td, id);

	if (!o) {
		if (!UT_ARRAY_RESERVE(td->origins, td->caporigins, td->norigins + 1, 8))
			return false;
		o = &td->origins[td->norigins++];
		o->id = id;
	}
	o->x = x;
	o->y = y;
	return true;
}

bool
touch_origin_get(struct touch_device *td, int32_t id, double *x, double *y)
{
	struct touch_origin *o = origin_find(td, id);

	if (!o)
		return false;
	*x = o->x;
	*y = o->y;
	return true;
}

void
touch_origin_remove(struct touch_device *td, int32_t id)
{
	struct touch_origin *o = origin_find(td, id);

	if (o)
		*o = td->origins[--td->norigins];
}

/* ---- event times ---- */

uint64_t
touch_event_time(struct touch_device *td, uint32_t time_msec)
{
	/* the 64-bit time nearest to the compositor's clock (the event
	 * happened a moment ago): a wrap of the 32-bit milliseconds (every
	 * 49.7 days) moves on instead of going back, and so does the first
	 * event after a device was left alone for more than 24.8 days (half
	 * the wrap), which next to the device's previous event would have
	 * been placed in the past */
	uint64_t ref = input_time_us(td->server) / 1000u;
	int64_t delta = (int32_t)(time_msec - (uint32_t)ref);
	uint64_t ms = delta < 0 && (uint64_t)-delta > ref ? 0 : ref + (uint64_t)delta;

	td->last_ms = ms;
	td->has_time = true;
	return ms * 1000u;
}
