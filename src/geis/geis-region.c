/*
 * Regions.  On the recording and evdev backends a region only names the
 * window id gestures are reported in (see <utouch/geis.h>).
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
	int have = 0;
	va_list ap;

	if (!geis) {
		geis_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT, "geis_region_new: NULL instance");
		return NULL;
	}
	geis_error_clear(geis);
	va_start(ap, init_arg_name);
	for (const char *arg = init_arg_name; arg; arg = va_arg(ap, const char *)) {
		if (strcmp(arg, GEIS_REGION_X11_ROOT) == 0) {
			window = (GeisInteger)geis_core_root_window(geis);
			have = 1;
		} else if (strcmp(arg, GEIS_REGION_X11_WINDOWID) == 0) {
			window = va_arg(ap, int);
			have = 1;
		} else {
			geis_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
					"geis_region_new: unknown region argument \"%s\"", arg);
			va_end(ap);
			return NULL;
		}
	}
	va_end(ap);
	if (!have) {
		geis_error_push(geis, GEIS_STATUS_BAD_ARGUMENT,
				"geis_region_new: no region type given");
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->name = geis_strdup(name))) {
		free(r);
		geis_error_push(geis, GEIS_STATUS_UNKNOWN_ERROR, "geis_region_new: out of memory");
		return NULL;
	}
	r->geis = geis;
	r->windowid = window;
	r->all_next = geis->regions;
	geis->regions = r;
	return r;
}

GEIS_API GeisStatus
geis_region_delete(GeisRegion region)
{
	if (!region)
		return GEIS_STATUS_BAD_ARGUMENT;
	for (GeisRegion *p = &region->geis->regions; *p; p = &(*p)->all_next) {
		if (*p == region) {
			*p = region->all_next;
			break;
		}
	}
	free(region->name);
	free(region);
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisString
geis_region_name(GeisRegion region)
{
	return region ? region->name : NULL;
}

GeisInteger
geis_region_windowid(GeisRegion region)
{
	return region ? region->windowid : 0;
}
