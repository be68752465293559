/*
 * The deprecated geis v1 ("simplified") interface, written only against
 * the public v2 interface of <geis/geis.h>.
 *
 * A GeisInstance owns one v2 instance created with TRACK_DEVICES,
 * TRACK_GESTURE_CLASSES and SYNCHRONOUS_START.  Every v1 gesture type a
 * program subscribes to ("Drag,touch=2", ...) becomes one v2 subscription
 * with the CONT and GRAB flags whose filters name the class, the touch
 * count, the instance's window and (optionally) one device each.  Since
 * such a subscription only reports its own class, the class of a gesture
 * frame tells which v1 type an event belongs to.
 *
 * Events are taken from the v2 queue in geis_event_dispatch() and turned
 * into calls of the v1 callbacks.  See doc/geis-v1.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <geis/geis.h>
#include <utouch/geis.h>

#include "util/list.h"
#include "util/log.h"

/*
 * The gesture classes v1 knows, in the order they are looked at.  Kept apart
 * from the shared table (geis/gesture-class.h) on purpose: the v1 interface
 * is frozen at the five types the original v1 had, whatever classes v2 gains.
 */
static const struct v1_class {
	const char *name;
	GeisGestureType type;
} v1_classes[] = {
	{ GEIS_GESTURE_DRAG, GEIS_GESTURE_PRIMITIVE_DRAG },
	{ GEIS_GESTURE_PINCH, GEIS_GESTURE_PRIMITIVE_PINCH },
	{ GEIS_GESTURE_ROTATE, GEIS_GESTURE_PRIMITIVE_ROTATE },
	{ GEIS_GESTURE_TAP, GEIS_GESTURE_PRIMITIVE_TAP },
	{ GEIS_GESTURE_TOUCH, GEIS_GESTURE_PRIMITIVE_TOUCH },
};
#define V1_NUM_CLASSES ((int)(sizeof(v1_classes) / sizeof(v1_classes[0])))
#define V1_MAX_TOUCHES 5

/* A device the instance has been told about. */
struct v1_device {
	GeisDevice device;        /* referenced */
	GeisInputDeviceId id;
	int reported;             /* 'added' was called for the current funcs */
	struct ut_list link;      /* instance's devices, newest first */
};

/* One subscribed v1 gesture type: a class with a touch count. */
struct v1_type {
	int cls;                  /* index into v1_classes */
	int touches;              /* 1 .. V1_MAX_TOUCHES */
	char name[32];            /* "Drag,touch=2" */
	GeisSubscription sub;
	GeisGestureFuncs funcs;
	void *cookie;
	int added_reported;       /* the 'added' callback ran */
	struct ut_list link;      /* instance's types, newest first */
};

/* A gesture in progress and the type it was reported as. */
struct v1_gesture {
	GeisGestureId id;
	struct v1_type *type;
	struct ut_list link;      /* instance's gestures, newest first */
};

struct _GeisInstance {
	Geis geis;
	uint32_t window_id;
	GeisInputFuncs input;
	void *input_cookie;
	int have_input;
	struct ut_list devices;   /* struct v1_device */
	GeisGestureClass classes[V1_NUM_CLASSES];   /* referenced, once known */
	struct ut_list types;     /* struct v1_type */
	struct ut_list gestures;  /* struct v1_gesture */
	int in_dispatch;
	int finish_pending;       /* geis_finish() was called by a callback */
	int test;                 /* on the test backend (the "Test" window) */
};

/* ---- helpers ---- */

static struct v1_device *
device_of(struct ut_list *pos)
{
	return ut_container_of(pos, struct v1_device, link);
}

static struct v1_type *
type_of(struct ut_list *pos)
{
	return ut_container_of(pos, struct v1_type, link);
}

static struct v1_gesture *
gesture_of(struct ut_list *pos)
{
	return ut_container_of(pos, struct v1_gesture, link);
}

static int
class_index_by_name(const char *name)
{
	for (int i = 0; i < V1_NUM_CLASSES; i++)
		if (name && strcmp(v1_classes[i].name, name) == 0)
			return i;
	return -1;
}

/* Copy a v2 attribute into a v1 attribute.  Returns 0 for attributes v1
 * can not carry (pointers, unknown types). */
static int
convert_attr(GeisAttr attr, GeisGestureAttr *out)
{
	memset(out, 0, sizeof(*out));
	out->name = geis_attr_name(attr);
	out->type = geis_attr_type(attr);
	if (!out->name)
		return 0;
	switch (out->type) {
	case GEIS_ATTR_TYPE_BOOLEAN:
		out->boolean_val = geis_attr_value_to_boolean(attr);
		return 1;
	case GEIS_ATTR_TYPE_FLOAT:
		out->float_val = geis_attr_value_to_float(attr);
		return 1;
	case GEIS_ATTR_TYPE_INTEGER:
		out->integer_val = geis_attr_value_to_integer(attr);
		return 1;
	case GEIS_ATTR_TYPE_STRING:
		out->string_val = geis_attr_value_to_string(attr);
		return 1;
	default:
		return 0;
	}
}

/*
 * The attributes of a device as a v1 array.  The array has one more entry
 * than the count, with a NULL name, so that callbacks that only get the
 * pointer can find its end.  The caller frees the array.
 */
static GeisGestureAttr *
device_attrs(GeisDevice device)
{
	GeisSize n = geis_device_attr_count(device), k = 0;
	GeisGestureAttr *attrs = calloc(n + 1, sizeof(*attrs));

	if (!attrs)
		return NULL;
	for (GeisSize i = 0; i < n; i++)
		if (convert_attr(geis_device_attr(device, i), &attrs[k]))
			k++;
	memset(&attrs[k], 0, sizeof(attrs[k]));
	return attrs;
}

static void
call_input(GeisInputCallback cb, void *cookie, struct v1_device *d)
{
	GeisGestureAttr *attrs;

	if (!cb)
		return;
	attrs = device_attrs(d->device);
	cb(cookie, d->id, attrs);
	free(attrs);
}

static struct v1_device *
device_find(GeisInstance inst, GeisInputDeviceId id)
{
	ut_list_for_each(pos, &inst->devices) {
		if (device_of(pos)->id == id)
			return device_of(pos);
	}
	return NULL;
}

static void report_devices(GeisInstance inst);
static void take_queued_events(GeisInstance inst);

/* ---- instance ---- */

GEIS_API GeisStatus
geis_init(GeisWinInfo *win_info, GeisInstance *geis_instance)
{
	GeisXcbWinInfo *xcb;
	GeisInstance inst;

	int test;

	if (geis_instance)
		*geis_instance = NULL;
	if (!win_info || !geis_instance)
		return GEIS_BAD_ARGUMENT;
	/* "Test": the test backend, no window (as geis 2.2) */
	test = win_info->win_type == geis_win_type_str(Test);
	if (!test && (!win_info->win_info || win_info->win_type != GEIS_XCB_FULL_WINDOW))
		return GEIS_BAD_ARGUMENT;
	xcb = test ? NULL : win_info->win_info;

	inst = calloc(1, sizeof(*inst));
	if (!inst)
		return GEIS_UNKNOWN_ERROR;
	ut_list_init(&inst->devices);
	ut_list_init(&inst->types);
	ut_list_init(&inst->gestures);
	inst->window_id = xcb ? xcb->window_id : 0;
	inst->test = test;
	/* display_name and screenp are not used: the v2 instance picks its
	 * backend (and X display) by itself, see <utouch/geis.h>. */
	if (test)
		inst->geis = geis_new(UTOUCH_GEIS_INIT_MOCK, GEIS_INIT_SYNCHRONOUS_START, NULL);
	else
		inst->geis = geis_new(GEIS_INIT_TRACK_DEVICES, GEIS_INIT_TRACK_GESTURE_CLASSES,
				      GEIS_INIT_SYNCHRONOUS_START, NULL);
	if (!inst->geis) {
		free(inst);
		return GEIS_UNKNOWN_ERROR;
	}
	/* take the start-up events queued (classes, devices; no gestures
	 * without a subscription), so that geis_input_devices() can report
	 * the devices at once, as geis 2.2.17 did.  No dispatch: a fast
	 * recording must not play before the program subscribed. */
	take_queued_events(inst);
	*geis_instance = inst;
	return GEIS_STATUS_SUCCESS;
}

static void
forget_gestures(GeisInstance inst, const struct v1_type *only)
{
	ut_list_for_each_safe(pos, tmp, &inst->gestures) {
		if (only && gesture_of(pos)->type != only)
			continue;
		ut_list_remove(pos);
		free(gesture_of(pos));
	}
}

static void
type_free(struct v1_type *t)
{
	ut_list_remove(&t->link);
	if (t->sub)
		geis_subscription_delete(t->sub);
	free(t);
}

static void
unsubscribe_all(GeisInstance inst)
{
	forget_gestures(inst, NULL);
	ut_list_for_each_safe(pos, tmp, &inst->types)
		type_free(type_of(pos));
}

static void
instance_free(GeisInstance inst)
{
	unsubscribe_all(inst);
	ut_list_for_each_safe(pos, tmp, &inst->devices) {
		ut_list_remove(pos);
		geis_device_unref(device_of(pos)->device);
		free(device_of(pos));
	}
	for (int i = 0; i < V1_NUM_CLASSES; i++)
		geis_gesture_class_unref(inst->classes[i]);
	geis_delete(inst->geis);
	free(inst);
}

GEIS_API GeisStatus
geis_finish(GeisInstance geis_instance)
{
	if (UT_CLIENT_BUG_IF(NULL, !geis_instance))
		return GEIS_BAD_ARGUMENT;
	if (geis_instance->in_dispatch) {
		/* called from a callback: free once the dispatch unwinds */
		geis_instance->finish_pending = 1;
		return GEIS_STATUS_SUCCESS;
	}
	instance_free(geis_instance);
	return GEIS_STATUS_SUCCESS;
}

/* ---- configuration ---- */

GEIS_API GeisStatus
geis_configuration_supported(GeisInstance geis_instance, int configuration_item)
{
	if (UT_CLIENT_BUG_IF(NULL, !geis_instance))
		return GEIS_BAD_ARGUMENT;
	if (configuration_item == GEIS_CONFIG_UNIX_FD)
		return GEIS_STATUS_SUCCESS;
	return GEIS_STATUS_NOT_SUPPORTED;
}

GEIS_API GeisStatus
geis_configuration_get_value(GeisInstance geis_instance, int configuration_item,
			     void *value)
{
	int fd = -1;

	if (!geis_instance || !value)
		return GEIS_BAD_ARGUMENT;
	if (configuration_item != GEIS_CONFIG_UNIX_FD)
		return GEIS_STATUS_NOT_SUPPORTED;   /* as geis 2.2.17 */
	if (geis_get_configuration(geis_instance->geis, GEIS_CONFIGURATION_FD, &fd) !=
	    GEIS_STATUS_SUCCESS)
		return GEIS_UNKNOWN_ERROR;
	*(int *)value = fd;
	return GEIS_STATUS_SUCCESS;
}

GEIS_API GeisStatus
geis_configuration_set_value(GeisInstance geis_instance, int configuration_item,
			     void *value)
{
	(void)configuration_item;
	if (!geis_instance || !value)
		return GEIS_BAD_ARGUMENT;
	/* nothing can be set: the fd is read-only (geis 2.2.17 answered the
	 * same for every item) */
	return GEIS_STATUS_NOT_SUPPORTED;
}

/* ---- devices ---- */

GEIS_API GeisStatus
geis_input_devices(GeisInstance geis_instance, GeisInputFuncs *func, void *cookie)
{
	if (UT_CLIENT_BUG_IF(NULL, !geis_instance || !func))
		return GEIS_BAD_ARGUMENT;
	geis_instance->input = *func;
	geis_instance->input_cookie = cookie;
	geis_instance->have_input = 1;
	/* devices seen so far are reported again, to the new callbacks */
	ut_list_for_each(pos, &geis_instance->devices)
		device_of(pos)->reported = 0;
	/* the devices known are reported before the call returns, as geis
	 * 2.2.17 did (they are known from geis_init() on) */
	if (geis_instance->in_dispatch) {
		report_devices(geis_instance);
		return GEIS_STATUS_SUCCESS;
	}
	geis_instance->in_dispatch = 1;   /* a callback's geis_finish() waits */
	report_devices(geis_instance);
	geis_instance->in_dispatch = 0;
	if (geis_instance->finish_pending)
		instance_free(geis_instance);
	return GEIS_STATUS_SUCCESS;
}

static void
device_available(GeisInstance inst, GeisDevice device)
{
	GeisInputDeviceId id = (GeisInputDeviceId)geis_device_id(device);
	struct v1_device *d;

	if (!device || device_find(inst, id))
		return;
	d = calloc(1, sizeof(*d));
	if (!d)
		return;
	d->device = geis_device_ref(device);
	d->id = id;
	ut_list_insert_after(&inst->devices, &d->link);
	/* reported by report_devices() */
}

static void
device_unavailable(GeisInstance inst, GeisDevice device)
{
	struct v1_device *d = device_find(inst, (GeisInputDeviceId)geis_device_id(device));

	if (d) {
		ut_list_remove(&d->link);
		if (inst->have_input && d->reported)
			call_input(inst->input.removed, inst->input_cookie, d);
		geis_device_unref(d->device);
		free(d);
	}
}

/* Call 'added' for every device the current callbacks have not seen.
 * One device at a time, from the head: a callback may register other
 * callbacks or finish the instance. */
static void
report_devices(GeisInstance inst)
{
	while (inst->have_input && !inst->finish_pending) {
		struct v1_device *d = NULL;

		ut_list_for_each(pos, &inst->devices) {
			if (!device_of(pos)->reported) {
				d = device_of(pos);
				break;
			}
		}
		if (!d)
			return;
		d->reported = 1;
		call_input(inst->input.added, inst->input_cookie, d);
	}
}

/* ---- gesture types ---- */

/*
 * Parse a v1 gesture type name: a class name, optionally followed by
 * ",touch=N".  Sets the class index and a touch range.  Returns 1 for a
 * type that is subscribed, 0 for a known type that produces no gestures
 * (Sysflags, Flick) and -1 for a malformed name.
 */
static int
parse_type(const char *s, int *cls, int *tmin, int *tmax)
{
	const char *comma = strchr(s, ',');
	size_t len = comma ? (size_t)(comma - s) : strlen(s);
	char name[16];

	if (strcmp(s, GEIS_GESTURE_TYPE_SYSTEM) == 0)
		return 0;
	if (len == 0 || len >= sizeof(name))
		return -1;
	memcpy(name, s, len);
	name[len] = '\0';
	*tmin = 1;
	*tmax = V1_MAX_TOUCHES;
	if (comma) {
		char *end;
		long n;

		if (strncmp(comma + 1, "touch=", 6) != 0)
			return -1;
		n = strtol(comma + 7, &end, 10);
		if (end == comma + 7 || *end != '\0' || n < 1 || n > V1_MAX_TOUCHES)
			return -1;
		*tmin = *tmax = (int)n;
	}
	if (strcasecmp(name, GEIS_GESTURE_FLICK) == 0)
		return 0;
	*cls = -1;
	for (int i = 0; i < V1_NUM_CLASSES; i++)
		if (strcasecmp(name, v1_classes[i].name) == 0)
			*cls = i;
	return *cls < 0 ? -1 : 1;
}

static struct v1_type *
type_find(GeisInstance inst, int cls, int touches)
{
	ut_list_for_each(pos, &inst->types) {
		if (type_of(pos)->cls == cls && type_of(pos)->touches == touches)
			return type_of(pos);
	}
	return NULL;
}

/* Add one filter (class, touches, window, optionally a device) to @p sub. */
static int
add_filter(GeisInstance inst, GeisSubscription sub, const struct v1_type *t,
	   const GeisInputDeviceId *device)
{
	GeisFilter f = geis_filter_new(inst->geis, t->name);
	GeisStatus st;

	if (!f)
		return -1;
	st = geis_filter_add_term(f, GEIS_FILTER_CLASS,
				  GEIS_CLASS_ATTRIBUTE_NAME, GEIS_FILTER_OP_EQ,
				  v1_classes[t->cls].name,
				  GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_FILTER_OP_EQ,
				  t->touches, NULL);
	if (st == GEIS_STATUS_SUCCESS && inst->window_id != 0)
		st = geis_filter_add_term(f, GEIS_FILTER_REGION,
					  GEIS_REGION_ATTRIBUTE_WINDOWID, GEIS_FILTER_OP_EQ,
					  (int)inst->window_id, NULL);
	if (st == GEIS_STATUS_SUCCESS && device)
		st = geis_filter_add_term(f, GEIS_FILTER_DEVICE,
					  GEIS_DEVICE_ATTRIBUTE_ID, GEIS_FILTER_OP_EQ,
					  (int)*device, NULL);
	if (st == GEIS_STATUS_SUCCESS)
		st = geis_subscription_add_filter(sub, f);
	if (st != GEIS_STATUS_SUCCESS) {
		geis_filter_delete(f);
		return -1;
	}
	return 0;
}

/* Create and activate the v2 subscription of one v1 type. */
static int
type_subscribe(GeisInstance inst, struct v1_type *t, const GeisInputDeviceId *devices)
{
	char name[48];

	snprintf(name, sizeof(name), "v1 %s", t->name);
	t->sub = geis_subscription_new(inst->geis, name,
				       GEIS_SUBSCRIPTION_CONT | GEIS_SUBSCRIPTION_GRAB);
	if (!t->sub)
		return -1;
	if (devices) {
		for (const GeisInputDeviceId *d = devices; *d; d++)
			if (add_filter(inst, t->sub, t, d) < 0)
				return -1;
	} else if (add_filter(inst, t->sub, t, NULL) < 0) {
		return -1;
	}
	return geis_subscription_activate(t->sub) == GEIS_STATUS_SUCCESS ? 0 : -1;
}

GEIS_API GeisStatus
geis_subscribe(GeisInstance geis_instance, GeisInputDeviceId *input_list,
	       const char **gesture_list, GeisGestureFuncs *funcs, void *cookie)
{
	static const char *all[V1_NUM_CLASSES + 1] = {
		GEIS_GESTURE_DRAG, GEIS_GESTURE_PINCH, GEIS_GESTURE_ROTATE,
		GEIS_GESTURE_TAP, GEIS_GESTURE_TOUCH, NULL
	};
	const char **list = gesture_list ? gesture_list : all;
	struct ut_list added;     /* the new types, newest first */
	int wanted[V1_NUM_CLASSES][V1_MAX_TOUCHES + 1];

	if (!geis_instance || !funcs)
		return GEIS_BAD_ARGUMENT;
	if (input_list && !input_list[0])
		return GEIS_BAD_ARGUMENT;   /* an empty device list */

	ut_list_init(&added);
	/* validate everything before changing anything */
	memset(wanted, 0, sizeof(wanted));
	for (const char **s = list; *s; s++) {
		int cls = -1, tmin = 0, tmax = 0;
		int r = parse_type(*s, &cls, &tmin, &tmax);

		if (r < 0)
			return GEIS_BAD_ARGUMENT;
		for (int n = tmin; r > 0 && n <= tmax; n++)
			wanted[cls][n] = 1;
	}

	for (int c = 0; c < V1_NUM_CLASSES; c++) {
		for (int n = 1; n <= V1_MAX_TOUCHES; n++) {
			struct v1_type *t;

			if (!wanted[c][n])
				continue;
			t = calloc(1, sizeof(*t));
			if (!t)
				goto fail;
			t->cls = c;
			t->touches = n;
			snprintf(t->name, sizeof(t->name), "%s,touch=%d",
				 v1_classes[c].name, n);
			t->funcs = *funcs;
			t->cookie = cookie;
			ut_list_insert_after(&added, &t->link);
			if (type_subscribe(geis_instance, t, input_list) < 0)
				goto fail;
		}
	}

	/* a type subscribed again replaces the earlier subscription */
	ut_list_for_each_safe(pos, tmp, &added) {
		struct v1_type *t = type_of(pos);
		struct v1_type *old = type_find(geis_instance, t->cls, t->touches);

		ut_list_remove(&t->link);
		if (old) {
			forget_gestures(geis_instance, old);
			type_free(old);
		}
		ut_list_insert_after(&geis_instance->types, &t->link);
	}
	return GEIS_STATUS_SUCCESS;
fail:
	ut_list_for_each_safe(pos, tmp, &added)
		type_free(type_of(pos));
	return GEIS_UNKNOWN_ERROR;
}

GEIS_API GeisStatus
geis_unsubscribe(GeisInstance geis_instance, GeisGestureType *gesture_list)
{
	(void)gesture_list;
	if (UT_CLIENT_BUG_IF(NULL, !geis_instance))
		return GEIS_BAD_ARGUMENT;
	/* nothing to remove: geis 2.2.17 failed so (unsubscribing twice) */
	if (ut_list_empty(&geis_instance->types))
		return GEIS_STATUS_UNKNOWN_ERROR;
	unsubscribe_all(geis_instance);
	return GEIS_STATUS_SUCCESS;
}

/* ---- gesture events ---- */

/* Call 'added' for every subscribed type whose class is known, one at a
 * time from the head (a callback may change the subscriptions). */
static void
report_types(GeisInstance inst)
{
	while (!inst->finish_pending) {
		struct v1_type *t = NULL;
		GeisGestureAttr attrs[2];

		ut_list_for_each(pos, &inst->types) {
			if (!type_of(pos)->added_reported && inst->classes[type_of(pos)->cls]) {
				t = type_of(pos);
				break;
			}
		}
		if (!t)
			return;
		t->added_reported = 1;
		if (!t->funcs.added)
			continue;
		memset(attrs, 0, sizeof(attrs));
		attrs[0].name = GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME;
		attrs[0].type = GEIS_ATTR_TYPE_STRING;
		attrs[0].string_val = t->name;
		attrs[1].name = GEIS_GESTURE_ATTRIBUTE_TOUCHES;
		attrs[1].type = GEIS_ATTR_TYPE_INTEGER;
		attrs[1].integer_val = t->touches;
		t->funcs.added(t->cookie, v1_classes[t->cls].type, GEIS_NO_GESTURE_ID,
			       2, attrs);
	}
}

static void
class_event(GeisInstance inst, GeisEvent event, int available)
{
	GeisAttr a = geis_event_attr_by_name(event, GEIS_EVENT_ATTRIBUTE_CLASS);
	GeisGestureClass klass = geis_attr_value_to_pointer(a);
	int i = class_index_by_name(geis_gesture_class_name(klass));

	if (i < 0)
		return;
	if (available) {
		if (!inst->classes[i]) {
			geis_gesture_class_ref(klass);
			inst->classes[i] = klass;
		}
		return;
	}
	if (!inst->classes[i])
		return;
	geis_gesture_class_unref(inst->classes[i]);
	inst->classes[i] = NULL;
	/* 'removed' for each reported type of the class, one at a time */
	while (!inst->finish_pending) {
		struct v1_type *t = NULL;

		ut_list_for_each(pos, &inst->types) {
			if (type_of(pos)->cls == i && type_of(pos)->added_reported) {
				t = type_of(pos);
				break;
			}
		}
		if (!t)
			return;
		t->added_reported = 0;
		if (t->funcs.removed)
			t->funcs.removed(t->cookie, v1_classes[i].type, GEIS_NO_GESTURE_ID, 0,
					 NULL);
	}
}

/* The subscribed type of the test backend's gesture (of its own class,
 * none of the v1 ones): the first type in class order with its touch
 * count, else the first in class order. */
static int
test_frame_class(GeisInstance inst, int touches, struct v1_type **type)
{
	*type = NULL;
	for (int i = 0; i < V1_NUM_CLASSES && !*type; i++)
		*type = type_find(inst, i, touches);
	for (int i = 0; i < V1_NUM_CLASSES && !*type; i++) {
		ut_list_for_each(pos, &inst->types) {
			if (type_of(pos)->cls == i) {
				*type = type_of(pos);
				break;
			}
		}
	}
	return *type ? (*type)->cls : -1;
}

/* The class of a frame: the first v1 class the frame is.  Without the
 * class objects, the "gesture name" attribute is used.  The test
 * backend's gestures go to a subscribed type (test_frame_class()). */
static int
frame_class(GeisInstance inst, GeisFrame frame, int touches, struct v1_type **type)
{
	int first = -1;

	for (int i = 0; i < V1_NUM_CLASSES; i++) {
		int is;

		if (inst->classes[i]) {
			is = geis_frame_is_class(frame, inst->classes[i]) == GEIS_TRUE;
		} else {
			GeisAttr a = geis_frame_attr_by_name(frame,
							     GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME);
			GeisString n = geis_attr_value_to_string(a);

			is = n && strcmp(n, v1_classes[i].name) == 0;
		}
		if (!is)
			continue;
		if (first < 0)
			first = i;
		*type = type_find(inst, i, touches);
		if (*type)
			return i;
	}
	*type = NULL;
	if (first < 0 && inst->test)
		return test_frame_class(inst, touches, type);
	if (first >= 0) {
		/* no exact touch count: any subscribed type of the class */
		ut_list_for_each(pos, &inst->types) {
			if (type_of(pos)->cls == first) {
				*type = type_of(pos);
				break;
			}
		}
	}
	return first;
}

static struct v1_gesture *
gesture_find(GeisInstance inst, GeisGestureId id)
{
	ut_list_for_each(pos, &inst->gestures) {
		if (gesture_of(pos)->id == id)
			return gesture_of(pos);
	}
	return NULL;
}

static void
gesture_forget(GeisInstance inst, GeisGestureId id)
{
	struct v1_gesture *g = gesture_find(inst, id);

	if (g) {
		ut_list_remove(&g->link);
		free(g);
	}
}

/*
 * geis 2.2.17 gave a v1 callback its own set of attributes in its own order
 * (not the v2 frame's): device id, timestamp, the three window ids, focus,
 * "gesture name" as the type name of the frame's touch count
 * ("Drag,touch=2"), touches, the bounding box, the class's own attributes
 * (without the velocities on a finish), then "touch N id/x/y" of each
 * touch, with the id as a float.  The same comes first here; the frame's
 * other attributes follow (geis 2.2.17 had none of them).
 */
static const char *const v1_common[] = {
	GEIS_GESTURE_ATTRIBUTE_DEVICE_ID, GEIS_GESTURE_ATTRIBUTE_TIMESTAMP,
	GEIS_GESTURE_ATTRIBUTE_ROOT_WINDOW_ID, GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID,
	GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID, GEIS_GESTURE_ATTRIBUTE_FOCUS_X,
	GEIS_GESTURE_ATTRIBUTE_FOCUS_Y, GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME,
	GEIS_GESTURE_ATTRIBUTE_TOUCHES, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X1,
	GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y1, GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X2,
	GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y2,
};
#define V1_NUM_COMMON ((int)(sizeof(v1_common) / sizeof(v1_common[0])))

/* Per class: its attributes, the last @c rates of them rates (velocities). */
static const struct v1_block {
	const char *names[6];
	int n, rates;
} v1_blocks[V1_NUM_CLASSES] = {
	{ { GEIS_GESTURE_ATTRIBUTE_POSITION_X, GEIS_GESTURE_ATTRIBUTE_POSITION_Y,
	    GEIS_GESTURE_ATTRIBUTE_DELTA_X, GEIS_GESTURE_ATTRIBUTE_DELTA_Y,
	    GEIS_GESTURE_ATTRIBUTE_VELOCITY_X, GEIS_GESTURE_ATTRIBUTE_VELOCITY_Y }, 6, 2 },
	{ { GEIS_GESTURE_ATTRIBUTE_RADIUS, GEIS_GESTURE_ATTRIBUTE_RADIUS_DELTA,
	    GEIS_GESTURE_ATTRIBUTE_RADIAL_VELOCITY }, 3, 1 },
	{ { GEIS_GESTURE_ATTRIBUTE_CENTROID_X, GEIS_GESTURE_ATTRIBUTE_CENTROID_Y,
	    GEIS_GESTURE_ATTRIBUTE_ANGLE, GEIS_GESTURE_ATTRIBUTE_ANGLE_DELTA,
	    GEIS_GESTURE_ATTRIBUTE_ANGULAR_VELOCITY }, 5, 1 },
	{ { NULL }, 0, 0 },
	{ { NULL }, 0, 0 },
};
/* the most attributes put first: common, a block, 5 touches of 3 */
#define V1_NUM_ORDERED (V1_NUM_COMMON + 6 + 3 * V1_MAX_TOUCHES)

/* Append the frame's attribute @p attr_name to @p attrs (if it has it). */
static GeisSize
v1_put(GeisFrame frame, const char *attr_name, GeisGestureAttr *attrs, GeisSize k)
{
	GeisAttr a = geis_frame_attr_by_name(frame, attr_name);

	return a && convert_attr(a, &attrs[k]) ? k + 1 : k;
}

/* The v1 attributes of @p frame, reported as class @p cls with @p touches
 * touches and @p name as "gesture name"; returns how many. */
static GeisSize
v1_frame_attrs(GeisFrame frame, int cls, int finish, int touches, const char *name,
	       GeisGestureAttr *attrs)
{
	GeisSize k = 0, first, n = geis_frame_attr_count(frame);
	char tn[32];

	for (int i = 0; i < V1_NUM_COMMON; i++) {
		if (strcmp(v1_common[i], GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME) == 0) {
			memset(&attrs[k], 0, sizeof(attrs[k]));
			attrs[k].name = GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME;
			attrs[k].type = GEIS_ATTR_TYPE_STRING;
			attrs[k++].string_val = name;
			continue;
		}
		k = v1_put(frame, v1_common[i], attrs, k);
	}
	for (int i = 0; i < v1_blocks[cls].n - (finish ? v1_blocks[cls].rates : 0); i++)
		k = v1_put(frame, v1_blocks[cls].names[i], attrs, k);
	for (int t = 0; t < touches && t < V1_MAX_TOUCHES; t++) {
		snprintf(tn, sizeof(tn), "touch %d id", t);
		GeisSize was = k;
		k = v1_put(frame, tn, attrs, k);
		if (k > was && attrs[was].type == GEIS_ATTR_TYPE_INTEGER) {
			/* geis 2.2.17 gave the id as a float (the values share
			 * a union: read before writing) */
			GeisInteger id = attrs[was].integer_val;

			attrs[was].type = GEIS_ATTR_TYPE_FLOAT;
			attrs[was].float_val = (GeisFloat)id;
		}
		snprintf(tn, sizeof(tn), "touch %d x", t);
		k = v1_put(frame, tn, attrs, k);
		snprintf(tn, sizeof(tn), "touch %d y", t);
		k = v1_put(frame, tn, attrs, k);
	}
	/* then every other attribute of the frame */
	first = k;
	for (GeisSize i = 0; i < n; i++) {
		GeisGestureAttr a;
		int dup = 0;

		if (!convert_attr(geis_frame_attr(frame, i), &a))
			continue;
		for (GeisSize j = 0; j < first && !dup; j++)
			dup = strcmp(attrs[j].name, a.name) == 0;
		if (!dup)
			attrs[k++] = a;
	}
	return k;
}

/* Report one gesture frame through the v1 callbacks. */
static void
gesture_frame(GeisInstance inst, GeisEventType type, GeisFrame frame)
{
	GeisGestureId id = geis_frame_id(frame);
	GeisAttr ta = geis_frame_attr_by_name(frame, GEIS_GESTURE_ATTRIBUTE_TOUCHES);
	int touches = geis_attr_value_to_integer(ta);
	struct v1_gesture *g = gesture_find(inst, id);
	struct v1_type *t = NULL;
	GeisGestureCallback cb;
	GeisGestureAttr *attrs;
	GeisSize n, k;
	char name[32];
	int cls;

	if (g) {
		t = g->type;
		cls = t->cls;
	} else {
		cls = frame_class(inst, frame, touches, &t);
		if (!t)
			return;
		if (type == GEIS_EVENT_GESTURE_BEGIN) {
			g = calloc(1, sizeof(*g));
			if (g) {
				g->id = id;
				g->type = t;
				ut_list_insert_after(&inst->gestures, &g->link);
			}
		}
	}
	cb = type == GEIS_EVENT_GESTURE_BEGIN ? t->funcs.start :
	     type == GEIS_EVENT_GESTURE_END ? t->funcs.finish : t->funcs.update;
	if (type == GEIS_EVENT_GESTURE_END)
		gesture_forget(inst, id);
	if (!cb)
		return;

	n = geis_frame_attr_count(frame);
	attrs = calloc(n + V1_NUM_ORDERED + 1, sizeof(*attrs));
	if (!attrs)
		return;
	snprintf(name, sizeof(name), "%s,touch=%d", v1_classes[cls].name, touches);
	k = v1_frame_attrs(frame, cls, type == GEIS_EVENT_GESTURE_END, touches, name, attrs);
	cb(t->cookie, v1_classes[cls].type, id, k, attrs);
	free(attrs);
}

static void
gesture_event(GeisInstance inst, GeisEvent event, GeisEventType type)
{
	GeisAttr a = geis_event_attr_by_name(event, GEIS_EVENT_ATTRIBUTE_GROUPSET);
	GeisGroupSet groupset = geis_attr_value_to_pointer(a);

	for (GeisSize i = 0; i < geis_groupset_group_count(groupset); i++) {
		GeisGroup group = geis_groupset_group(groupset, i);

		for (GeisSize j = 0; j < geis_group_frame_count(group); j++) {
			if (inst->finish_pending)
				return;
			gesture_frame(inst, type, geis_group_frame(group, j));
		}
	}
}

static void
handle_event(GeisInstance inst, GeisEvent event)
{
	GeisEventType type = geis_event_type(event);
	GeisAttr a;

	switch (type) {
	case GEIS_EVENT_DEVICE_AVAILABLE:
		a = geis_event_attr_by_name(event, GEIS_EVENT_ATTRIBUTE_DEVICE);
		device_available(inst, geis_attr_value_to_pointer(a));
		report_devices(inst);
		break;
	case GEIS_EVENT_DEVICE_UNAVAILABLE:
		a = geis_event_attr_by_name(event, GEIS_EVENT_ATTRIBUTE_DEVICE);
		device_unavailable(inst, geis_attr_value_to_pointer(a));
		break;
	case GEIS_EVENT_CLASS_AVAILABLE:
		class_event(inst, event, 1);
		report_types(inst);
		break;
	case GEIS_EVENT_CLASS_UNAVAILABLE:
		class_event(inst, event, 0);
		break;
	case GEIS_EVENT_GESTURE_BEGIN:
	case GEIS_EVENT_GESTURE_UPDATE:
	case GEIS_EVENT_GESTURE_END:
		gesture_event(inst, event, type);
		break;
	default:
		break;
	}
}

/* Handle every event the v2 instance has queued (until a callback's
 * geis_finish()). */
static void
take_queued_events(GeisInstance inst)
{
	while (!inst->finish_pending) {
		GeisEvent event = NULL;
		GeisStatus st = geis_next_event(inst->geis, &event);

		if (st != GEIS_STATUS_SUCCESS && st != GEIS_STATUS_CONTINUE)
			break;
		handle_event(inst, event);
		geis_event_delete(event);
	}
}

GEIS_API GeisStatus
geis_event_dispatch(GeisInstance geis_instance)
{
	GeisInstance inst = geis_instance;
	GeisStatus st, result = GEIS_STATUS_SUCCESS;

	if (UT_CLIENT_BUG_IF(NULL, !inst))
		return GEIS_BAD_ARGUMENT;
	if (inst->in_dispatch)
		return GEIS_STATUS_SUCCESS;   /* called from a callback */
	inst->in_dispatch = 1;

	st = geis_dispatch_events(inst->geis);
	if (st == GEIS_STATUS_UNKNOWN_ERROR || st == GEIS_STATUS_BAD_ARGUMENT)
		result = GEIS_UNKNOWN_ERROR;

	/* callbacks registered since the last dispatch hear about what is
	 * already known */
	report_devices(inst);
	report_types(inst);

	take_queued_events(inst);

	inst->in_dispatch = 0;
	if (inst->finish_pending)
		instance_free(inst);
	return result;
}
