/*
 * Per-window frame sequences for window-less backends; see geis-router.h.
 */
#include <stdlib.h>
#include <string.h>

#include "geis-private.h"
#include "geis-router.h"

/* at most this many touches of one window are followed; more than the
 * evstream can report at once */
#define ROUTER_MAX_TOUCHES (2 * UT_EVSTREAM_MAX_SLOTS)

struct geis_router_window {
	struct ut_list link;      /* geis_router.windows */
	struct ut_frame_builder builder;
	unsigned int refs;
	int has_rect;
	float x, y, w, h;
	/* touches that began inside the rectangle and have not ended */
	uint32_t ids[ROUTER_MAX_TOUCHES];
	unsigned int nids;
	/* scratch for the operations of one frame */
	struct ut_touch_op ops[ROUTER_MAX_TOUCHES];
};

void
gs_router_init(struct geis_router *r, Geis geis, UFBackendDevice device)
{
	memset(r, 0, sizeof(*r));
	r->geis = geis;
	r->device = device;
	ut_list_init(&r->windows);
}

static struct geis_router_window *
window_of(struct ut_list *link)
{
	return ut_container_of(link, struct geis_router_window, link);
}

static void
window_free(struct geis_router_window *w)
{
	ut_list_remove(&w->link);
	ut_frame_builder_fini(&w->builder);
	free(w);
}

void
gs_router_fini(struct geis_router *r)
{
	if (!r->windows.next)
		return;   /* zeroed, never initialised: no windows */
	ut_list_for_each_safe(pos, tmp, &r->windows)
		window_free(window_of(pos));
}

static struct geis_router_window *
window_find(struct geis_router *r, UFWindowId window)
{
	ut_list_for_each(pos, &r->windows) {
		if (window_of(pos)->builder.window == window)
			return window_of(pos);
	}
	return NULL;
}

int
gs_router_grab(struct geis_router *r, UFWindowId window, int on)
{
	struct geis_router_window *w = window_find(r, window);

	if (!on) {
		/* while frames are fed, an event callback may end the last
		 * subscription of a window: the feed loop frees it */
		if (w && w->refs > 0 && --w->refs == 0 && !r->feeding)
			window_free(w);
		return 0;
	}
	if (w) {
		w->refs++;
		return 0;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		gs_core_error(r->geis, GEIS_STATUS_UNKNOWN_ERROR,
				"out of memory for window %llu", (unsigned long long)window);
		return -1;
	}
	float rect[4];
	if (gs_core_window_rect(r->geis, window, rect)) {
		w->has_rect = 1;
		w->x = rect[0];
		w->y = rect[1];
		w->w = rect[2];
		w->h = rect[3];
	}
	ut_frame_builder_init(&w->builder, r->device, window, 1);
	w->refs = 1;
	ut_list_insert_after(&r->windows, &w->link);
	return 0;
}

static int
window_has(const struct geis_router_window *w, uint32_t id, unsigned int *index)
{
	for (unsigned int i = 0; i < w->nids; i++) {
		if (w->ids[i] == id) {
			if (index)
				*index = i;
			return 1;
		}
	}
	return 0;
}

/* The operations of one frame that concern @p w, in its coordinates. */
static size_t
window_ops(struct geis_router_window *w, const struct ut_touch_op *ops, size_t nops)
{
	size_t n = 0;
	for (size_t i = 0; i < nops && n < ROUTER_MAX_TOUCHES; i++) {
		const struct ut_touch_op *op = &ops[i];
		unsigned int k;
		if (op->kind == UT_OP_BEGIN) {
			if (op->wx < w->x || op->wy < w->y || op->wx >= w->x + w->w ||
			    op->wy >= w->y + w->h || w->nids == ROUTER_MAX_TOUCHES)
				continue;
			w->ids[w->nids++] = op->id;
		} else if (!window_has(w, op->id, &k)) {
			continue;
		} else if (op->kind == UT_OP_END) {
			w->ids[k] = w->ids[--w->nids];
		}
		w->ops[n] = *op;
		w->ops[n].wx -= w->x;
		w->ops[n].wy -= w->y;
		n++;
	}
	return n;
}

static void
feed(struct geis_router *r, struct geis_router_window *w, uint64_t time_ms,
     const struct ut_touch_op *ops, size_t nops)
{
	UFEvent ev = ut_framer_build(&w->builder, time_ms, ops, nops);
	if (!ev) {
		gs_core_error(r->geis, GEIS_STATUS_UNKNOWN_ERROR,
				"out of memory building a frame");
		return;
	}
	gs_core_frame_event(r->geis, ev);
	frame_event_unref(ev);
}

void
gs_router_feed(struct geis_router *r, uint64_t time_ms, const struct ut_touch_op *ops,
		 size_t nops)
{
	r->feeding++;
	ut_list_for_each(pos, &r->windows) {
		struct geis_router_window *w = window_of(pos);

		if (w->refs == 0)
			continue;
		if (!w->has_rect) {
			feed(r, w, time_ms, ops, nops);
			continue;
		}
		size_t n = window_ops(w, ops, nops);
		if (n > 0)
			feed(r, w, time_ms, w->ops, n);
	}
	if (--r->feeding > 0)
		return;
	ut_list_for_each_safe(pos, tmp, &r->windows) {
		if (window_of(pos)->refs == 0)
			window_free(window_of(pos));
	}
}

size_t
gs_router_touch_windows(const struct geis_router *r, float wx, float wy, UFWindowId *out,
			  size_t max)
{
	size_t n = 0;

	if (!r->windows.next)
		return 0;
	ut_list_for_each(pos, &r->windows) {
		const struct geis_router_window *w = window_of(pos);

		if (w->refs == 0 || n == max)
			continue;
		if (w->has_rect && (wx < w->x || wy < w->y || wx >= w->x + w->w ||
				    wy >= w->y + w->h))
			continue;
		out[n++] = w->builder.window;
	}
	return n;
}

int
gs_router_has_window(const struct geis_router *r, UFWindowId window)
{
	if (!r->windows.next)
		return 0;
	ut_list_for_each(pos, &r->windows) {
		if (window_of(pos)->builder.window == window && window_of(pos)->refs > 0)
			return 1;
	}
	return 0;
}
