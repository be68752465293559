/*
 * Outputs: each new output renders the scene on its frame events.
 */
#include <stdlib.h>
#include <time.h>

#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>

#include "wlcomp.h"

static void
on_frame(struct wl_listener *listener, void *data)
{
	struct output *out = wl_container_of(listener, out, frame);
	struct wlr_scene_output *so =
		wlr_scene_get_scene_output(out->server->scene, out->wlr_output);
	struct timespec now;

	if (!so)
		return;
	wlr_scene_output_commit(so);
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(so, &now);
}

static void
on_destroy(struct wl_listener *listener, void *data)
{
	struct output *out = wl_container_of(listener, out, destroy);

	wl_list_remove(&out->frame.link);
	wl_list_remove(&out->destroy.link);
	wl_list_remove(&out->link);
	free(out);
}

static void
on_new_output(struct wl_listener *listener, void *data)
{
	struct server *server = wl_container_of(listener, server, new_output);
	struct wlr_output *wlr_output = data;
	struct wlr_output_mode *mode;
	struct output *out;

	if (!wlr_output_init_render(wlr_output, server->allocator, server->renderer)) {
		wlr_log(WLR_ERROR, "cannot render on output %s", wlr_output->name);
		return;
	}
	mode = wlr_output_preferred_mode(wlr_output);
	if (mode)
		wlr_output_set_mode(wlr_output, mode);
	wlr_output_enable(wlr_output, true);
	if (!wlr_output_commit(wlr_output)) {
		wlr_log(WLR_ERROR, "cannot enable output %s", wlr_output->name);
		return;
	}
	out = calloc(1, sizeof(*out));
	if (!out)
		return;
	out->server = server;
	out->wlr_output = wlr_output;
	out->frame.notify = on_frame;
	wl_signal_add(&wlr_output->events.frame, &out->frame);
	out->destroy.notify = on_destroy;
	wl_signal_add(&wlr_output->events.destroy, &out->destroy);
	wl_list_insert(&server->outputs, &out->link);
	wlr_output_layout_add_auto(server->layout, wlr_output);
}

void
output_init(struct server *server)
{
	wl_list_init(&server->outputs);
	server->new_output.notify = on_new_output;
	wl_signal_add(&server->backend->events.new_output, &server->new_output);
}

bool
output_layout_box(struct server *server, struct wlr_box *box)
{
	struct output *out;

	if (wl_list_empty(&server->outputs))
		return false;
	/* touchscreens map onto the first output */
	struct wlr_box *b;

	out = wl_container_of(server->outputs.prev, out, link);
	b = wlr_output_layout_get_box(server->layout, out->wlr_output);
	if (!b)
		return false;
	*box = *b;
	return box->width > 0 && box->height > 0;
}
