/*
 * Regions.  On X11 a region is an X window.  On the recording and evdev
 * backends a region is either a window id that only names where gestures
 * are reported, or a rectangle of the screen with a window id of its own
 * (UTOUCH_GEIS_REGION_RECT, see <utouch/geis.h> and geis-router.c).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "geis-private.h"

GEIS_API GeisRegion
geis_region_new(Geis geis, GeisString name, GeisString init_arg_name, ...)
{
	GeisRegion r;
	GeisInteger window = 0;
	int have = 0, has_rect = 0;
	float rect[4] = { 0 };
	va_list ap;

	if (!geis) {
		gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT, "geis_region_new: NULL instance");
		return NULL;
	}
	gs_error_clear(geis);
	va_start(ap, init_arg_name);
	for (const char *arg = init_arg_name; arg; arg = va_arg(ap, const char *)) {
		if (strcmp(arg, GEIS_REGION_X11_ROOT) == 0) {
			window = (GeisInteger)gs_core_root_window(geis);
			have = 1;
		} else if (strcmp(arg, GEIS_REGION_X11_WINDOWID) == 0) {
			window = va_arg(ap, int);
			have = 1;
		} else if (strcmp(arg, UTOUCH_GEIS_REGION_RECT) == 0) {
			GeisInteger v[4];
			for (int i = 0; i < 4; i++)
				v[i] = va_arg(ap, GeisInteger);
			if (geis->backend && strcmp(geis->backend->ops->name, "x11") == 0) {
				gs_error_push(geis, GEIS_STATUS_NOT_SUPPORTED,
						"geis_region_new: rectangle regions are for "
						"the recording and evdev backends; on X11 "
						"regions are windows");
				va_end(ap);
				return NULL;
			}
			if (v[2] <= 0 || v[3] <= 0) {
				gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
						"geis_region_new: rectangle %dx%d is empty",
						(int)v[2], (int)v[3]);
				va_end(ap);
				return NULL;
			}
			for (int i = 0; i < 4; i++)
				rect[i] = (float)v[i];
			if (geis->next_rect_window < GEIS_RECT_WINDOW_BASE)
				geis->next_rect_window = GEIS_RECT_WINDOW_BASE;
			window = geis->next_rect_window++;
			has_rect = 1;
			have = 1;
		} else {
			gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
					"geis_region_new: unknown region argument \"%s\"", arg);
			va_end(ap);
			return NULL;
		}
	}
	va_end(ap);
	if (!have) {
		gs_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_region_new: no region type given");
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->name = gs_strdup(name))) {
		free(r);
		gs_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR, "geis_region_new: out of memory");
		return NULL;
	}
	r->geis = geis;
	r->windowid = window;
	r->has_rect = has_rect;
	memcpy(r->rect, rect, sizeof(rect));
	ut_list_insert_after(&geis->regions, &r->link);
	return r;
}

GEIS_API GeisStatus
geis_region_delete(GeisRegion region)
{
	if (!region)
		return GEIS_STATUS_BAD_ARGUMENT;
	ut_list_remove(&region->link);
	free(region->name);
	free(region);
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisString
geis_region_name(GeisRegion region)
{
	return UT_CLIENT_BUG_IF(NULL, !region) ? NULL : region->name;
}

GeisInteger
gs_region_windowid(GeisRegion region)
{
	return region ? region->windowid : 0;
}

GEIS_API GeisInteger
utouch_geis_region_window_id(GeisRegion region)
{
	return gs_region_windowid(region);
}

int
gs_core_window_rect(Geis geis, UFWindowId window, float rect[4])
{
	if (!geis)
		return 0;
	ut_list_for_each(pos, &geis->regions) {
		GeisRegion r = ut_container_of(pos, struct _GeisRegion, link);

		if (r->has_rect && (UFWindowId)(uint32_t)r->windowid == window) {
			memcpy(rect, r->rect, 4 * sizeof(float));
			return 1;
		}
	}
	return 0;
}
