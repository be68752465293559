/*
 * Devices of a seat: one frame producer device each, with a touch handler
 * that turns grail's accept/reject into routing decisions.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <utouch/frame_handle.h>

#include "compositor/comp-private.h"

static void
describe(UFBackendDevice bdev, const struct utouch_comp_device_info *info)
{
	double res = info->resolution;

	frame_backend_device_set_name(bdev, info->name ? info->name : "");
	frame_backend_device_set_direct(bdev, info->direct ? 1 : 0);
	frame_backend_device_set_independent(bdev, info->direct ? 0 : 1);
	frame_backend_device_set_max_touches(bdev, info->max_touches ? info->max_touches : 10);
	if (info->direct) {
		/* touches come in layout pixels: grail measures with the
		 * window resolution (pixels per metre) */
		float ppm = res > 0 ? (float)(res * 1000.0) : 0.0f;

		frame_backend_device_set_window_resolution(bdev, ppm, ppm);
		if (res <= 0)
			res = 96.0 / 25.4;
	}
	frame_backend_device_add_axis(bdev, UFAxisTypeX, 0.0f,
				      (float)(info->width_mm * (res > 0 ? res : 1.0)),
				      res > 0 ? (float)(res * 1000.0) : 0.0f);
	frame_backend_device_add_axis(bdev, UFAxisTypeY, 0.0f,
				      (float)(info->height_mm * (res > 0 ? res : 1.0)),
				      res > 0 ? (float)(res * 1000.0) : 0.0f);
}

UTOUCH_COMP_PUBLIC struct utouch_comp_device *
utouch_comp_device_add(struct utouch_comp *comp, const struct utouch_comp_device_info *info)
{
	struct utouch_comp_device *dev;
	size_t index;

	if (!comp || !info || !(info->width_mm >= 0) || !(info->height_mm >= 0) ||
	    !(info->resolution >= 0) || isinf(info->width_mm) || isinf(info->height_mm) ||
	    isinf(info->resolution)) {
		ut_log_client_bug(comp ? &comp->log : NULL, __func__, "%s",
				  !comp ? "NULL context" : !info ? "NULL info"
				  : "size or resolution negative or not finite");
		errno = EINVAL;
		return NULL;
	}
	for (index = 0; index < comp->ndevices; index++)
		if (!comp->devices[index])
			break;
	if (index == comp->ndevices) {
		size_t oldcap = comp->capdevices;

		if (uc_grow((void **)&comp->devices, &comp->capdevices, index + 1,
			    sizeof(*comp->devices)) < 0) {
			errno = ENOMEM;
			return NULL;
		}
		for (size_t i = oldcap; i < comp->capdevices; i++)
			comp->devices[i] = NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		errno = ENOMEM;
		return NULL;
	}
	dev->comp = comp;
	dev->index = index;
	dev->info = *info;
	dev->name = strdup(info->name ? info->name : "");
	dev->bdev = frame_backend_device_new();
	if (!dev->name || !dev->bdev)
		goto fail;
	dev->info.name = dev->name;
	describe(dev->bdev, info);
	utouch_frame_backend_device_set_touch_handler(dev->bdev, uc_touch_handler, comp);
	comp->devices[index] = dev;
	if (index == comp->ndevices)
		comp->ndevices++;
	for (size_t i = 0; i < comp->nsubs; i++) {
		if (uc_subscription_attach_device(comp->subs[i], dev) < 0) {
			utouch_comp_device_remove(comp, dev);
			errno = ENOMEM;
			return NULL;
		}
	}
	return dev;

fail:
	uc_out_of_memory(comp, "a device was refused");
	if (dev->bdev)
		frame_backend_device_delete(dev->bdev);
	free(dev->name);
	free(dev);
	errno = ENOMEM;
	return NULL;
}

UTOUCH_COMP_PUBLIC void
utouch_comp_device_remove(struct utouch_comp *comp, struct utouch_comp_device *dev)
{
	UFEvent ev;

	if (!uc_device_known(comp, dev)) {
		ut_log_client_bug(comp ? &comp->log : NULL, __func__, "%s",
				  !comp ? "NULL context" : !dev ? "NULL device"
				  : "unknown or removed device");
		return;
	}
	/* every touch of the device ends for its client now */
	for (size_t i = 0; i < comp->ntouches; i++) {
		struct uc_touch *t = &comp->touches[i];

		if (!t->serial || t->dev != dev)
			continue;
		/* (an up that waits behind an undecided touch never comes) */
		if ((t->down || t->nheld) && t->seen &&
		    (t->route == UTOUCH_COMP_ROUTE_DELIVER || t->route == UTOUCH_COMP_ROUTE_FORWARD))
			uc_queue_cancel(comp, t, comp->now);
		uc_hold_drop(comp, t);
		t->replay = 0;
		t->route = UTOUCH_COMP_ROUTE_CANCELLED;
		t->down = 0;
		t->undecided = 0;   /* grail's late decisions are ignored */
	}
	for (size_t i = 0; i < comp->nsubs; i++)
		uc_subscription_detach_device(comp->subs[i], dev);
	if (utouch_frame_device_event_new(dev->bdev, UFEventTypeDeviceRemoved,
					  comp->now / 1000u, &ev) == UFStatusSuccess) {
		grail_process_frame_event(comp->grail, ev);
		frame_event_unref(ev);
	}
	uc_gestures_drain(comp);
	utouch_frame_backend_device_set_touch_handler(dev->bdev, NULL, NULL);
	for (unsigned int z = 0; z < UC_MAX_ZONES; z++)
		utouch_frame_builder_delete(dev->frames[z]);
	frame_backend_device_delete(dev->bdev);
	comp->devices[dev->index] = NULL;
	for (size_t i = 0; i < comp->ntouches; i++) {
		struct uc_touch *t = &comp->touches[i];

		if (t->serial && t->dev == dev) {
			t->dev = NULL;
			t->changed = 0;   /* dev->changed goes with the device */
		}
	}
	/* the canceled ENDs just queued, and anything the caller has not
	 * read yet, must not hand out the freed handle */
	uc_queue_forget_device(comp, dev);
	free(dev->changed);
	free(dev->name);
	free(dev);
	uc_step_end(comp);
}

UTOUCH_COMP_PUBLIC void *
utouch_comp_device_get_user_data(const struct utouch_comp_device *device)
{
	return device ? device->info.user_data : NULL;
}

UTOUCH_COMP_PUBLIC const char *
utouch_comp_device_get_name(const struct utouch_comp_device *device)
{
	return device ? device->name : NULL;
}
