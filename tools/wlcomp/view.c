/*
 * Views: xdg-shell toplevels in the scene, placed left to right, with
 * keyboard focus, moving, closing and minimising.
 */
#include <stdlib.h>

#include <wlr/types/wlr_keyboard.h>
#include <wlr/util/log.h>

#include "wlcomp.h"

const char *
view_title(const struct view *view)
{
	const char *t = view && view->xdg->toplevel ? view->xdg->toplevel->title : NULL;

	return t ? t : "";
}

struct view *
view_focused(struct server *server)
{
	struct view *v;

	wl_list_for_each(v, &server->views, link)
		if (v->mapped && !v->minimized)
			return v;
	return NULL;
}

void
view_focus(struct view *view)
{
	struct server *server = view->server;
	struct wlr_seat *seat = server->seat;
	struct wlr_surface *prev = seat->keyboard_state.focused_surface;
	struct wlr_keyboard *kb;

	if (prev == view->xdg->surface)
		return;
	if (prev && wlr_surface_is_xdg_surface(prev)) {
		struct wlr_xdg_surface *p = wlr_xdg_surface_from_wlr_surface(prev);

		if (p && p->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL)
			wlr_xdg_toplevel_set_activated(p, false);
	}
	view->minimized = false;
	wlr_scene_node_set_enabled(view->node, true);
	wlr_scene_node_raise_to_top(view->node);
	wl_list_remove(&view->link);
	wl_list_insert(&server->views, &view->link);
	wlr_xdg_toplevel_set_activated(view->xdg, true);
	kb = wlr_seat_get_keyboard(seat);
	if (kb)
		wlr_seat_keyboard_notify_enter(seat, view->xdg->surface, kb->keycodes,
					       kb->num_keycodes, &kb->modifiers);
	else
		wlr_seat_keyboard_notify_enter(seat, view->xdg->surface, NULL, 0, NULL);
}

void
view_focus_next(struct server *server)
{
	struct view *top = view_focused(server), *v, *next = NULL;

	if (!top)
		return;
	/* the bottom-most view comes to the top: a cycle through all */
	wl_list_for_each_reverse(v, &server->views, link) {
		if (v != top && v->mapped) {
			next = v;
			break;
		}
	}
	if (next)
		view_focus(next);
}

void
view_move(struct view *view, int x, int y)
{
	view->x = x;
	view->y = y;
	wlr_scene_node_set_position(view->node, x, y);
}

void
view_close(struct view *view)
{
	wlr_xdg_toplevel_send_close(view->xdg);
}

void
view_minimize(struct view *view)
{
	struct server *server = view->server;

	view->minimized = true;
	wlr_scene_node_set_enabled(view->node, false);
	/* the next view takes the focus */
	struct view *v = view_focused(server);
	if (v)
		view_focus(v);
	else
		wlr_seat_keyboard_notify_clear_focus(server->seat);
}

struct view *
view_at(struct server *server, double lx, double ly, struct wlr_surface **surface,
	double *sx, double *sy)
{
	struct wlr_scene_node *node = wlr_scene_node_at(&server->scene->node, lx, ly, sx, sy);

	*surface = NULL;
	if (!node || node->type != WLR_SCENE_NODE_SURFACE)
		return NULL;
	*surface = wlr_scene_surface_from_node(node)->surface;
	/* the view is the data of the tree node made for the toplevel */
	for (; node; node = node->parent)
		if (node->data)
			return node->data;
	return NULL;
}

static void
place(struct view *view)
{
	struct server *server = view->server;
	struct view *v;
	int x = 0;

	/* left to right, after the views already there */
	wl_list_for_each(v, &server->views, link) {
		struct wlr_box geo;

		if (v == view || !v->mapped)
			continue;
		wlr_xdg_surface_get_geometry(v->xdg, &geo);
		if (v->x + geo.width > x)
			x = v->x + geo.width;
	}
	view_move(view, x, 0);
}

static void
on_map(struct wl_listener *listener, void *data)
{
	struct view *view = wl_container_of(listener, view, map);

	place(view);
	view->mapped = true;
	view_focus(view);
	printf("wlcomp: map '%s' at %d,%d\n", view_title(view), view->x, view->y);
	fflush(stdout);
}

static void
on_unmap(struct wl_listener *listener, void *data)
{
	struct view *view = wl_container_of(listener, view, unmap);
	struct view *next;

	view->mapped = false;
	next = view_focused(view->server);
	if (next)
		view_focus(next);
}

static void
on_destroy(struct wl_listener *listener, void *data)
{
	struct view *view = wl_container_of(listener, view, destroy);
	struct server *server = view->server;

	for (int i = 0; i < WLCOMP_MAX_GESTURES; i++)
		if (server->active[i].used && server->active[i].view == view)
			server->active[i].view = NULL;
	wl_list_remove(&view->map.link);
	wl_list_remove(&view->unmap.link);
	wl_list_remove(&view->destroy.link);
	wl_list_remove(&view->link);
	free(view);
}

static void
on_new_xdg_surface(struct wl_listener *listener, void *data)
{
	struct server *server = wl_container_of(listener, server, new_xdg_surface);
	struct wlr_xdg_surface *xdg = data;
	struct view *view;

	if (xdg->role == WLR_XDG_SURFACE_ROLE_POPUP) {
		/* popups go into their parent's tree */
		struct wlr_xdg_surface *parent =
			wlr_xdg_surface_from_wlr_surface(xdg->popup->parent);
		struct wlr_scene_node *pnode = parent ? parent->data : NULL;

		if (pnode)
			xdg->data = wlr_scene_xdg_surface_create(pnode, xdg);
		return;
	}
	if (xdg->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL)
		return;
	view = calloc(1, sizeof(*view));
	if (!view)
		return;
	view->server = server;
	view->xdg = xdg;
	view->node = wlr_scene_xdg_surface_create(&server->scene->node, xdg);
	if (!view->node) {
		free(view);
		return;
	}
	view->node->data = view;
	xdg->data = view->node;
	view->map.notify = on_map;
	wl_signal_add(&xdg->events.map, &view->map);
	view->unmap.notify = on_unmap;
	wl_signal_add(&xdg->events.unmap, &view->unmap);
	view->destroy.notify = on_destroy;
	wl_signal_add(&xdg->events.destroy, &view->destroy);
	wl_list_insert(server->views.prev, &view->link);
}

void
view_init(struct server *server)
{
	wl_list_init(&server->views);
	server->xdg_shell = wlr_xdg_shell_create(server->display);
	server->new_xdg_surface.notify = on_new_xdg_surface;
	wl_signal_add(&server->xdg_shell->events.new_surface, &server->new_xdg_surface);
}
