/*
 * Symbol conformance of <geis/geis.h> with the geis 2.2 interface: every
 * constant with its value, every type and every function with its exact
 * signature.  Most checks are compile-time (_Static_assert, _Generic), so
 * this file failing to build is a test failure too; the string constants
 * and function addresses are checked at run time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <geis/geis.h>

/* T is exactly type TYPE (no conversions are involved in _Generic). */
#define SAME_TYPE(expr, type) _Generic((expr), type: 1, default: 0)
#define SIG(fn, type) \
	_Static_assert(SAME_TYPE(&fn, type), #fn " has the geis 2.2 signature")
#define TYPEDEF(name, type) \
	_Static_assert(SAME_TYPE((name *)0, type *), #name " is " #type)
/* for scalar, pointer and function-pointer typedefs */
#define STYPEDEF(name, type) \
	_Static_assert(SAME_TYPE((name)0, type), #name " is " #type)
#define MEMBER(st, m, type) \
	_Static_assert(SAME_TYPE(((st *)0)->m, type), #st "." #m " is " #type)

/* scalar and handle types */
TYPEDEF(GeisSize, size_t);
TYPEDEF(GeisBoolean, uint32_t);
TYPEDEF(GeisInteger, int32_t);
TYPEDEF(GeisFloat, float);
TYPEDEF(GeisPointer, void *);
TYPEDEF(GeisString, const char *);
TYPEDEF(GeisInputDeviceId, unsigned int);
TYPEDEF(GeisGestureType, unsigned int);
TYPEDEF(GeisGestureId, unsigned int);
TYPEDEF(GeisTouchId, GeisSize);
TYPEDEF(GeisSubscriptionFlags, int);
TYPEDEF(GeisInstance, struct _GeisInstance *);
TYPEDEF(Geis, struct _Geis *);
TYPEDEF(GeisAttr, struct _GeisAttr *);
TYPEDEF(GeisEvent, struct _GeisEvent *);
TYPEDEF(GeisDevice, struct _GeisDevice *);
TYPEDEF(GeisGestureClass, struct _GeisGestureClass *);
TYPEDEF(GeisRegion, struct _GeisRegion *);
TYPEDEF(GeisFilter, struct _GeisFilter *);
TYPEDEF(GeisSubscription, struct _GeisSubscription *);
TYPEDEF(GeisGroup, struct _GeisGroup *);
TYPEDEF(GeisGroupSet, struct _GeisGroupSet *);
TYPEDEF(GeisTouch, struct _GeisTouch *);
TYPEDEF(GeisTouchSet, struct _GeisTouchSet *);
TYPEDEF(GeisFrame, struct _GeisFrame *);
TYPEDEF(GeisStatus, enum GeisStatus);
TYPEDEF(GeisAttrType, enum GeisAttrType);
TYPEDEF(GeisEventType, enum _GeisEventType);
TYPEDEF(GeisFilterFacility, enum _GeisFilterFacility);
TYPEDEF(GeisFilterOperation, enum _GeisFilterOperation);
TYPEDEF(GeisWinInfo, struct GeisWinInfo);
TYPEDEF(GeisXcbWinInfo, struct _GeisXcbWinInfo);
TYPEDEF(GeisInputFuncs, struct GeisInputFuncs);
TYPEDEF(GeisGestureAttr, struct GeisGestureAttr);
TYPEDEF(GeisGestureFuncs, struct GeisGestureFuncs);
STYPEDEF(GeisInputCallback, void (*)(void *, GeisInputDeviceId, void *));
STYPEDEF(GeisGestureCallback, void (*)(void *, GeisGestureType, GeisGestureId,
				      GeisSize, GeisGestureAttr *));
STYPEDEF(GeisEventCallback, void (*)(Geis, GeisEvent, void *));

/* structure members, in order */
MEMBER(GeisWinInfo, win_type, uint32_t);
MEMBER(GeisWinInfo, win_info, void *);
_Static_assert(offsetof(GeisWinInfo, win_type) == 0, "win_type first");
MEMBER(GeisXcbWinInfo, display_name, const char *);
MEMBER(GeisXcbWinInfo, screenp, int *);
MEMBER(GeisXcbWinInfo, window_id, uint32_t);
_Static_assert(offsetof(GeisXcbWinInfo, display_name) < offsetof(GeisXcbWinInfo, screenp) &&
	       offsetof(GeisXcbWinInfo, screenp) < offsetof(GeisXcbWinInfo, window_id),
	       "GeisXcbWinInfo order");
MEMBER(GeisInputFuncs, added, GeisInputCallback);
MEMBER(GeisInputFuncs, changed, GeisInputCallback);
MEMBER(GeisInputFuncs, removed, GeisInputCallback);
_Static_assert(offsetof(GeisInputFuncs, added) < offsetof(GeisInputFuncs, changed) &&
	       offsetof(GeisInputFuncs, changed) < offsetof(GeisInputFuncs, removed),
	       "GeisInputFuncs order");
MEMBER(GeisGestureAttr, name, GeisString);
MEMBER(GeisGestureAttr, type, GeisAttrType);
MEMBER(GeisGestureAttr, boolean_val, GeisBoolean);
MEMBER(GeisGestureAttr, float_val, GeisFloat);
MEMBER(GeisGestureAttr, integer_val, GeisInteger);
MEMBER(GeisGestureAttr, string_val, GeisString);
_Static_assert(offsetof(GeisGestureAttr, boolean_val) == offsetof(GeisGestureAttr, string_val),
	       "GeisGestureAttr values share a union");
MEMBER(GeisGestureFuncs, added, GeisGestureCallback);
MEMBER(GeisGestureFuncs, removed, GeisGestureCallback);
MEMBER(GeisGestureFuncs, start, GeisGestureCallback);
MEMBER(GeisGestureFuncs, update, GeisGestureCallback);
MEMBER(GeisGestureFuncs, finish, GeisGestureCallback);
_Static_assert(offsetof(GeisGestureFuncs, added) < offsetof(GeisGestureFuncs, removed) &&
	       offsetof(GeisGestureFuncs, removed) < offsetof(GeisGestureFuncs, start) &&
	       offsetof(GeisGestureFuncs, start) < offsetof(GeisGestureFuncs, update) &&
	       offsetof(GeisGestureFuncs, update) < offsetof(GeisGestureFuncs, finish),
	       "GeisGestureFuncs order");

/* numeric constants */
_Static_assert(GEIS_VERSION_1_0 == 1, "GEIS_VERSION_1_0");
_Static_assert(GEIS_VERSION_2_0 == 20101122, "GEIS_VERSION_2_0");
_Static_assert(GEIS_FALSE == 0 && GEIS_TRUE == 1, "GEIS_FALSE/TRUE");
_Static_assert(GEIS_STATUS_SUCCESS == 0, "status");
_Static_assert(GEIS_STATUS_CONTINUE == 20, "status");
_Static_assert(GEIS_STATUS_EMPTY == 21, "status");
_Static_assert(GEIS_STATUS_NOT_SUPPORTED == 10, "status");
_Static_assert(GEIS_BAD_ARGUMENT == 1000, "status");
_Static_assert(GEIS_UNKNOWN_ERROR == 9999, "status");
_Static_assert(GEIS_STATUS_BAD_ARGUMENT == -100, "status");
_Static_assert(GEIS_STATUS_UNKNOWN_ERROR == -999, "status");
_Static_assert(GEIS_ATTR_TYPE_UNKNOWN == 0 && GEIS_ATTR_TYPE_BOOLEAN == 1 &&
	       GEIS_ATTR_TYPE_FLOAT == 2 && GEIS_ATTR_TYPE_INTEGER == 3 &&
	       GEIS_ATTR_TYPE_POINTER == 4 && GEIS_ATTR_TYPE_STRING == 5, "attr types");
_Static_assert(GEIS_GESTURE_PRIMITIVE_DRAG == 0, "primitive");
_Static_assert(GEIS_GESTURE_PRIMITIVE_PINCH == 1, "primitive");
_Static_assert(GEIS_GESTURE_PRIMITIVE_ROTATE == 2, "primitive");
_Static_assert(GEIS_GESTURE_PRIMITIVE_TAP == 15, "primitive");
_Static_assert(GEIS_GESTURE_PRIMITIVE_TOUCH == 32, "primitive");
_Static_assert(GEIS_GESTURE_ID_FLICK == 128, "flick id");
_Static_assert(GEIS_CONFIG_UNIX_FD == 10001, "GEIS_CONFIG_UNIX_FD");
_Static_assert(GEIS_ALL_INPUT_DEVICES == 0, "GEIS_ALL_INPUT_DEVICES");
_Static_assert(SAME_TYPE(GEIS_ALL_INPUT_DEVICES, GeisInputDeviceId), "type");
_Static_assert(GEIS_ALL_GESTURES == 0, "GEIS_ALL_GESTURES");
_Static_assert(SAME_TYPE(GEIS_ALL_GESTURES, GeisGestureType), "type");
_Static_assert(GEIS_NO_GESTURE_ID == 0, "GEIS_NO_GESTURE_ID");
_Static_assert(SAME_TYPE(GEIS_NO_GESTURE_ID, GeisGestureId), "type");
_Static_assert(SAME_TYPE(GEIS_DEFAULT_EVENT_CALLBACK, GeisEventCallback), "type");
_Static_assert(GEIS_EVENT_DEVICE_AVAILABLE == 1000, "event");
_Static_assert(GEIS_EVENT_DEVICE_UNAVAILABLE == 1010, "event");
_Static_assert(GEIS_EVENT_CLASS_AVAILABLE == 2000, "event");
_Static_assert(GEIS_EVENT_CLASS_CHANGED == 2005, "event");
_Static_assert(GEIS_EVENT_CLASS_UNAVAILABLE == 2010, "event");
_Static_assert(GEIS_EVENT_GESTURE_BEGIN == 3000, "event");
_Static_assert(GEIS_EVENT_GESTURE_UPDATE == 3010, "event");
_Static_assert(GEIS_EVENT_GESTURE_END == 3020, "event");
_Static_assert(GEIS_EVENT_TENTATIVE_BEGIN == 3500, "event");
_Static_assert(GEIS_EVENT_TENTATIVE_UPDATE == 3510, "event");
_Static_assert(GEIS_EVENT_TENTATIVE_END == 3520, "event");
_Static_assert(GEIS_EVENT_INIT_COMPLETE == 4000, "event");
_Static_assert(GEIS_EVENT_USER_DEFINED == 6000, "event");
_Static_assert(GEIS_EVENT_ERROR == 7000, "event");
_Static_assert(GEIS_FILTER_DEVICE == 1000, "facility");
_Static_assert(GEIS_FILTER_CLASS == 2000, "facility");
_Static_assert(GEIS_FILTER_REGION == 3000, "facility");
_Static_assert(GEIS_FILTER_SPECIAL == 5000, "facility");
_Static_assert(GEIS_FILTER_OP_EQ == 0 && GEIS_FILTER_OP_NE == 1 &&
	       GEIS_FILTER_OP_GT == 2 && GEIS_FILTER_OP_GE == 3 &&
	       GEIS_FILTER_OP_LT == 4 && GEIS_FILTER_OP_LE == 5, "filter ops");
_Static_assert(GEIS_SUBSCRIPTION_NONE == 0x0000, "flag");
_Static_assert(GEIS_SUBSCRIPTION_GRAB == 0x0001, "flag");
_Static_assert(GEIS_SUBSCRIPTION_CONT == 0x0002, "flag");

/* the portability macros of geis 2.2's <geis/geisimpl.h> */
#if !defined GEIS_API || !defined GEIS_VARARG
#error GEIS_API and GEIS_VARARG must be defined
#endif
SIG(_geis_win_type_str, uint32_t (*)(const char *));

/* function signatures */
SIG(geis_init, GeisStatus (*)(GeisWinInfo *, GeisInstance *));
SIG(geis_finish, GeisStatus (*)(GeisInstance));
SIG(geis_configuration_supported, GeisStatus (*)(GeisInstance, int));
SIG(geis_configuration_get_value, GeisStatus (*)(GeisInstance, int, void *));
SIG(geis_configuration_set_value, GeisStatus (*)(GeisInstance, int, void *));
SIG(geis_event_dispatch, GeisStatus (*)(GeisInstance));
SIG(geis_new, Geis (*)(GeisString, ...));
SIG(geis_delete, GeisStatus (*)(Geis));
SIG(geis_error_count, GeisSize (*)(Geis));
SIG(geis_error_code, GeisStatus (*)(Geis, GeisSize));
SIG(geis_error_message, GeisString (*)(Geis, GeisSize));
SIG(geis_get_configuration, GeisStatus (*)(Geis, GeisString, void *));
SIG(geis_set_configuration, GeisStatus (*)(Geis, GeisString, void *));
SIG(geis_input_devices, GeisStatus (*)(GeisInstance, GeisInputFuncs *, void *));
SIG(geis_subscribe, GeisStatus (*)(GeisInstance, GeisInputDeviceId *, const char **, GeisGestureFuncs *, void *));
SIG(geis_unsubscribe, GeisStatus (*)(GeisInstance, GeisGestureType *));
SIG(geis_attr_name, GeisString (*)(GeisAttr));
SIG(geis_attr_type, GeisAttrType (*)(GeisAttr));
SIG(geis_attr_value_to_boolean, GeisBoolean (*)(GeisAttr));
SIG(geis_attr_value_to_float, GeisFloat (*)(GeisAttr));
SIG(geis_attr_value_to_integer, GeisInteger (*)(GeisAttr));
SIG(geis_attr_value_to_pointer, GeisPointer (*)(GeisAttr));
SIG(geis_attr_value_to_string, GeisString (*)(GeisAttr));
SIG(geis_event_delete, void (*)(GeisEvent));
SIG(geis_event_type, GeisEventType (*)(GeisEvent));
SIG(geis_event_attr_count, GeisSize (*)(GeisEvent));
SIG(geis_event_attr, GeisAttr (*)(GeisEvent, GeisSize));
SIG(geis_event_attr_by_name, GeisAttr (*)(GeisEvent, GeisString));
SIG(geis_register_event_callback, void (*)(Geis, GeisEventCallback, void *));
SIG(geis_dispatch_events, GeisStatus (*)(Geis));
SIG(geis_next_event, GeisStatus (*)(Geis, GeisEvent *));
SIG(geis_register_device_callback, void (*)(Geis, GeisEventCallback, void *));
SIG(geis_get_device, GeisDevice (*)(Geis, GeisInteger));
SIG(geis_device_ref, GeisDevice (*)(GeisDevice));
SIG(geis_device_unref, void (*)(GeisDevice));
SIG(geis_device_name, GeisString (*)(GeisDevice));
SIG(geis_device_id, GeisInteger (*)(GeisDevice));
SIG(geis_device_attr_count, GeisSize (*)(GeisDevice));
SIG(geis_device_attr, GeisAttr (*)(GeisDevice, GeisSize));
SIG(geis_device_attr_by_name, GeisAttr (*)(GeisDevice, GeisString));
SIG(geis_register_class_callback, void (*)(Geis, GeisEventCallback, void *));
SIG(geis_gesture_class_ref, void (*)(GeisGestureClass));
SIG(geis_gesture_class_unref, void (*)(GeisGestureClass));
SIG(geis_gesture_class_name, GeisString (*)(GeisGestureClass));
SIG(geis_gesture_class_id, GeisInteger (*)(GeisGestureClass));
SIG(geis_gesture_class_attr_count, GeisSize (*)(GeisGestureClass));
SIG(geis_gesture_class_attr, GeisAttr (*)(GeisGestureClass, int));
SIG(geis_region_new, GeisRegion (*)(Geis, GeisString, GeisString, ...));
SIG(geis_region_delete, GeisStatus (*)(GeisRegion));
SIG(geis_region_name, GeisString (*)(GeisRegion));
SIG(geis_filter_new, GeisFilter (*)(Geis, GeisString));
SIG(geis_filter_clone, GeisFilter (*)(GeisFilter, GeisString));
SIG(geis_filter_delete, GeisStatus (*)(GeisFilter));
SIG(geis_filter_name, GeisString (*)(GeisFilter));
SIG(geis_filter_add_term, GeisStatus (*)(GeisFilter, GeisFilterFacility, ...));
SIG(geis_subscription_new, GeisSubscription (*)(Geis, GeisString, GeisSubscriptionFlags));
SIG(geis_subscription_delete, GeisStatus (*)(GeisSubscription));
SIG(geis_subscription_activate, GeisStatus (*)(GeisSubscription));
SIG(geis_subscription_deactivate, GeisStatus (*)(GeisSubscription));
SIG(geis_subscription_name, GeisString (*)(GeisSubscription));
SIG(geis_subscription_id, GeisInteger (*)(GeisSubscription));
SIG(geis_subscription_add_filter, GeisStatus (*)(GeisSubscription, GeisFilter));
SIG(geis_subscription_filter_by_name, GeisFilter (*)(GeisSubscription, GeisString));
SIG(geis_subscription_remove_filter, GeisStatus (*)(GeisSubscription, GeisFilter));
SIG(geis_subscription_get_configuration, GeisStatus (*)(GeisSubscription, GeisString, GeisPointer));
SIG(geis_subscription_set_configuration, GeisStatus (*)(GeisSubscription, GeisString, GeisPointer));
SIG(geis_groupset_group_count, GeisSize (*)(GeisGroupSet));
SIG(geis_groupset_group, GeisGroup (*)(GeisGroupSet, GeisSize));
SIG(geis_group_id, GeisInteger (*)(GeisGroup));
SIG(geis_group_frame_count, GeisSize (*)(GeisGroup));
SIG(geis_group_frame, GeisFrame (*)(GeisGroup, GeisSize));
SIG(geis_group_reject, void (*)(GeisGroup));
SIG(geis_touchset_touch_count, GeisSize (*)(GeisTouchSet));
SIG(geis_touchset_touch, GeisTouch (*)(GeisTouchSet, GeisSize));
SIG(geis_touchset_touch_by_id, GeisTouch (*)(GeisTouchSet, GeisTouchId));
SIG(geis_touch_id, GeisTouchId (*)(GeisTouch));
SIG(geis_touch_attr_count, GeisSize (*)(GeisTouch));
SIG(geis_touch_attr, GeisAttr (*)(GeisTouch, GeisSize));
SIG(geis_touch_attr_by_name, GeisAttr (*)(GeisTouch, GeisString));
SIG(geis_frame_id, GeisGestureId (*)(GeisFrame));
SIG(geis_frame_is_class, GeisBoolean (*)(GeisFrame, GeisGestureClass));
SIG(geis_frame_attr_count, GeisSize (*)(GeisFrame));
SIG(geis_frame_attr, GeisAttr (*)(GeisFrame, GeisSize));
SIG(geis_frame_attr_by_name, GeisAttr (*)(GeisFrame, GeisString));
SIG(geis_frame_matrix, GeisFloat * (*)(GeisFrame));
SIG(geis_frame_touchid_count, GeisSize (*)(GeisFrame));
SIG(geis_frame_touchid, GeisTouchId (*)(GeisFrame, GeisSize));
SIG(geis_gesture_accept, GeisStatus (*)(Geis, GeisGroup, GeisGestureId));
SIG(geis_gesture_reject, GeisStatus (*)(Geis, GeisGroup, GeisGestureId));

/* string constants: name, value in our header, value in geis 2.2 */
static const struct {
	const char *name, *ours, *want;
} strings[] = {
	{ "GEIS_GESTURE_DRAG", GEIS_GESTURE_DRAG, "Drag" },
	{ "GEIS_GESTURE_PINCH", GEIS_GESTURE_PINCH, "Pinch" },
	{ "GEIS_GESTURE_ROTATE", GEIS_GESTURE_ROTATE, "Rotate" },
	{ "GEIS_GESTURE_TAP", GEIS_GESTURE_TAP, "Tap" },
	{ "GEIS_GESTURE_TOUCH", GEIS_GESTURE_TOUCH, "Touch" },
	{ "GEIS_GESTURE_FLICK", GEIS_GESTURE_FLICK, "Flick" },
	{ "GEIS_GESTURE_TYPE_DRAG1", GEIS_GESTURE_TYPE_DRAG1, "Drag,touch=1" },
	{ "GEIS_GESTURE_TYPE_DRAG2", GEIS_GESTURE_TYPE_DRAG2, "Drag,touch=2" },
	{ "GEIS_GESTURE_TYPE_DRAG3", GEIS_GESTURE_TYPE_DRAG3, "Drag,touch=3" },
	{ "GEIS_GESTURE_TYPE_DRAG4", GEIS_GESTURE_TYPE_DRAG4, "Drag,touch=4" },
	{ "GEIS_GESTURE_TYPE_DRAG5", GEIS_GESTURE_TYPE_DRAG5, "Drag,touch=5" },
	{ "GEIS_GESTURE_TYPE_PINCH1", GEIS_GESTURE_TYPE_PINCH1, "Pinch,touch=1" },
	{ "GEIS_GESTURE_TYPE_PINCH2", GEIS_GESTURE_TYPE_PINCH2, "Pinch,touch=2" },
	{ "GEIS_GESTURE_TYPE_PINCH3", GEIS_GESTURE_TYPE_PINCH3, "Pinch,touch=3" },
	{ "GEIS_GESTURE_TYPE_PINCH4", GEIS_GESTURE_TYPE_PINCH4, "Pinch,touch=4" },
	{ "GEIS_GESTURE_TYPE_PINCH5", GEIS_GESTURE_TYPE_PINCH5, "Pinch,touch=5" },
	{ "GEIS_GESTURE_TYPE_ROTATE1", GEIS_GESTURE_TYPE_ROTATE1, "Rotate,touch=1" },
	{ "GEIS_GESTURE_TYPE_ROTATE2", GEIS_GESTURE_TYPE_ROTATE2, "Rotate,touch=2" },
	{ "GEIS_GESTURE_TYPE_ROTATE3", GEIS_GESTURE_TYPE_ROTATE3, "Rotate,touch=3" },
	{ "GEIS_GESTURE_TYPE_ROTATE4", GEIS_GESTURE_TYPE_ROTATE4, "Rotate,touch=4" },
	{ "GEIS_GESTURE_TYPE_ROTATE5", GEIS_GESTURE_TYPE_ROTATE5, "Rotate,touch=5" },
	{ "GEIS_GESTURE_TYPE_TAP1", GEIS_GESTURE_TYPE_TAP1, "Tap,touch=1" },
	{ "GEIS_GESTURE_TYPE_TAP2", GEIS_GESTURE_TYPE_TAP2, "Tap,touch=2" },
	{ "GEIS_GESTURE_TYPE_TAP3", GEIS_GESTURE_TYPE_TAP3, "Tap,touch=3" },
	{ "GEIS_GESTURE_TYPE_TAP4", GEIS_GESTURE_TYPE_TAP4, "Tap,touch=4" },
	{ "GEIS_GESTURE_TYPE_TAP5", GEIS_GESTURE_TYPE_TAP5, "Tap,touch=5" },
	{ "GEIS_GESTURE_TYPE_TOUCH1", GEIS_GESTURE_TYPE_TOUCH1, "Touch,touch=1" },
	{ "GEIS_GESTURE_TYPE_TOUCH2", GEIS_GESTURE_TYPE_TOUCH2, "Touch,touch=2" },
	{ "GEIS_GESTURE_TYPE_TOUCH3", GEIS_GESTURE_TYPE_TOUCH3, "Touch,touch=3" },
	{ "GEIS_GESTURE_TYPE_TOUCH4", GEIS_GESTURE_TYPE_TOUCH4, "Touch,touch=4" },
	{ "GEIS_GESTURE_TYPE_TOUCH5", GEIS_GESTURE_TYPE_TOUCH5, "Touch,touch=5" },
	{ "GEIS_GESTURE_TYPE_FLICK1", GEIS_GESTURE_TYPE_FLICK1, "Flick,touch=1" },
	{ "GEIS_GESTURE_TYPE_FLICK2", GEIS_GESTURE_TYPE_FLICK2, "Flick,touch=2" },
	{ "GEIS_GESTURE_TYPE_FLICK3", GEIS_GESTURE_TYPE_FLICK3, "Flick,touch=3" },
	{ "GEIS_GESTURE_TYPE_FLICK4", GEIS_GESTURE_TYPE_FLICK4, "Flick,touch=4" },
	{ "GEIS_GESTURE_TYPE_FLICK5", GEIS_GESTURE_TYPE_FLICK5, "Flick,touch=5" },
	{ "GEIS_GESTURE_TYPE_SYSTEM", GEIS_GESTURE_TYPE_SYSTEM, "Sysflags" },
	{ "GEIS_GESTURE_ATTRIBUTE_ANGLE", GEIS_GESTURE_ATTRIBUTE_ANGLE, "angle" },
	{ "GEIS_GESTURE_ATTRIBUTE_ANGLE_DELTA", GEIS_GESTURE_ATTRIBUTE_ANGLE_DELTA, "angle delta" },
	{ "GEIS_GESTURE_ATTRIBUTE_ANGULAR_VELOCITY", GEIS_GESTURE_ATTRIBUTE_ANGULAR_VELOCITY, "angular velocity" },
	{ "GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X1", GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X1, "boundingbox x1" },
	{ "GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y1", GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y1, "boundingbox y1" },
	{ "GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X2", GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_X2, "boundingbox x2" },
	{ "GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y2", GEIS_GESTURE_ATTRIBUTE_BOUNDINGBOX_Y2, "boundingbox y2" },
	{ "GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID", GEIS_GESTURE_ATTRIBUTE_CHILD_WINDOW_ID, "child window id" },
	{ "GEIS_GESTURE_ATTRIBUTE_CENTROID_X", GEIS_GESTURE_ATTRIBUTE_CENTROID_X, "centroid x" },
	{ "GEIS_GESTURE_ATTRIBUTE_CENTROID_Y", GEIS_GESTURE_ATTRIBUTE_CENTROID_Y, "centroid y" },
	{ "GEIS_GESTURE_ATTRIBUTE_DELTA_X", GEIS_GESTURE_ATTRIBUTE_DELTA_X, "delta x" },
	{ "GEIS_GESTURE_ATTRIBUTE_DELTA_Y", GEIS_GESTURE_ATTRIBUTE_DELTA_Y, "delta y" },
	{ "GEIS_GESTURE_ATTRIBUTE_DEVICE_ID", GEIS_GESTURE_ATTRIBUTE_DEVICE_ID, "device id" },
	{ "GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID", GEIS_GESTURE_ATTRIBUTE_EVENT_WINDOW_ID, "event window id" },
	{ "GEIS_GESTURE_ATTRIBUTE_FOCUS_X", GEIS_GESTURE_ATTRIBUTE_FOCUS_X, "focus x" },
	{ "GEIS_GESTURE_ATTRIBUTE_FOCUS_Y", GEIS_GESTURE_ATTRIBUTE_FOCUS_Y, "focus y" },
	{ "GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME", GEIS_GESTURE_ATTRIBUTE_GESTURE_NAME, "gesture name" },
	{ "GEIS_GESTURE_ATTRIBUTE_POSITION_X", GEIS_GESTURE_ATTRIBUTE_POSITION_X, "position x" },
	{ "GEIS_GESTURE_ATTRIBUTE_POSITION_Y", GEIS_GESTURE_ATTRIBUTE_POSITION_Y, "position y" },
	{ "GEIS_GESTURE_ATTRIBUTE_RADIAL_VELOCITY", GEIS_GESTURE_ATTRIBUTE_RADIAL_VELOCITY, "radial velocity" },
	{ "GEIS_GESTURE_ATTRIBUTE_RADIUS_DELTA", GEIS_GESTURE_ATTRIBUTE_RADIUS_DELTA, "radius delta" },
	{ "GEIS_GESTURE_ATTRIBUTE_RADIUS", GEIS_GESTURE_ATTRIBUTE_RADIUS, "radius" },
	{ "GEIS_GESTURE_ATTRIBUTE_ROOT_WINDOW_ID", GEIS_GESTURE_ATTRIBUTE_ROOT_WINDOW_ID, "root window id" },
	{ "GEIS_GESTURE_ATTRIBUTE_TAP_TIME", GEIS_GESTURE_ATTRIBUTE_TAP_TIME, "tap time" },
	{ "GEIS_GESTURE_ATTRIBUTE_TIMESTAMP", GEIS_GESTURE_ATTRIBUTE_TIMESTAMP, "timestamp" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCHES", GEIS_GESTURE_ATTRIBUTE_TOUCHES, "touches" },
	{ "GEIS_GESTURE_ATTRIBUTE_VELOCITY_X", GEIS_GESTURE_ATTRIBUTE_VELOCITY_X, "velocity x" },
	{ "GEIS_GESTURE_ATTRIBUTE_VELOCITY_Y", GEIS_GESTURE_ATTRIBUTE_VELOCITY_Y, "velocity y" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_0_ID", GEIS_GESTURE_ATTRIBUTE_TOUCH_0_ID, "touch 0 id" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_0_X", GEIS_GESTURE_ATTRIBUTE_TOUCH_0_X, "touch 0 x" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_0_Y", GEIS_GESTURE_ATTRIBUTE_TOUCH_0_Y, "touch 0 y" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_1_ID", GEIS_GESTURE_ATTRIBUTE_TOUCH_1_ID, "touch 1 id" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_1_X", GEIS_GESTURE_ATTRIBUTE_TOUCH_1_X, "touch 1 x" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_1_Y", GEIS_GESTURE_ATTRIBUTE_TOUCH_1_Y, "touch 1 y" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_2_ID", GEIS_GESTURE_ATTRIBUTE_TOUCH_2_ID, "touch 2 id" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_2_X", GEIS_GESTURE_ATTRIBUTE_TOUCH_2_X, "touch 2 x" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_2_Y", GEIS_GESTURE_ATTRIBUTE_TOUCH_2_Y, "touch 2 y" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_3_ID", GEIS_GESTURE_ATTRIBUTE_TOUCH_3_ID, "touch 3 id" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_3_X", GEIS_GESTURE_ATTRIBUTE_TOUCH_3_X, "touch 3 x" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_3_Y", GEIS_GESTURE_ATTRIBUTE_TOUCH_3_Y, "touch 3 y" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_4_ID", GEIS_GESTURE_ATTRIBUTE_TOUCH_4_ID, "touch 4 id" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_4_X", GEIS_GESTURE_ATTRIBUTE_TOUCH_4_X, "touch 4 x" },
	{ "GEIS_GESTURE_ATTRIBUTE_TOUCH_4_Y", GEIS_GESTURE_ATTRIBUTE_TOUCH_4_Y, "touch 4 y" },
	{ "GEIS_INIT_SERVICE_PROVIDER", GEIS_INIT_SERVICE_PROVIDER, "org.libgeis.init.server" },
	{ "GEIS_INIT_TRACK_DEVICES", GEIS_INIT_TRACK_DEVICES, "org.libgeis.init.track-devices" },
	{ "GEIS_INIT_TRACK_GESTURE_CLASSES", GEIS_INIT_TRACK_GESTURE_CLASSES, "org.libgeis.init.track-gesture-classes" },
	{ "GEIS_INIT_SYNCHRONOUS_START", GEIS_INIT_SYNCHRONOUS_START, "org.libgeis.init.synchronous-start" },
	{ "GEIS_INIT_DBUS_BACKEND", GEIS_INIT_DBUS_BACKEND, "com.canonical.oif.backend.dbus" },
	{ "GEIS_INIT_GRAIL_BACKEND", GEIS_INIT_GRAIL_BACKEND, "com.canonical.oif.backend.grail" },
	{ "GEIS_INIT_XCB_BACKEND", GEIS_INIT_XCB_BACKEND, "com.canonical.oif.backend.xcb" },
	{ "GEIS_INIT_NO_ATOMIC_GESTURES", GEIS_INIT_NO_ATOMIC_GESTURES, "com.canonical.oif.no-atomic.gestures" },
	{ "GEIS_INIT_SEND_TENTATIVE_EVENTS", GEIS_INIT_SEND_TENTATIVE_EVENTS, "com.canonical.oif.events.tentative" },
	{ "GEIS_INIT_SEND_SYNCHRONOS_EVENTS", GEIS_INIT_SEND_SYNCHRONOS_EVENTS, "com.canonical.oif.events.synchronous" },
	{ "GEIS_CONFIGURATION_FD", GEIS_CONFIGURATION_FD, "org.libgeis.configuration.fd" },
	{ "GEIS_CONFIG_MAX_EVENTS", GEIS_CONFIG_MAX_EVENTS, "com.canonical.oif.max_events" },
	{ "GEIS_CONFIG_ATOMIC_GESTURES", GEIS_CONFIG_ATOMIC_GESTURES, "com.canonical.use.atomic.gestures" },
	{ "GEIS_CONFIG_SEND_TENTATIVE_EVENTS", GEIS_CONFIG_SEND_TENTATIVE_EVENTS, "com.canonical.oif.events.tentative" },
	{ "GEIS_CONFIG_SEND_SYNCHRONOS_EVENTS", GEIS_CONFIG_SEND_SYNCHRONOS_EVENTS, "com.canonical.oif.events.synchronous" },
	{ "GEIS_CONFIG_DRAG_THRESHOLD", GEIS_CONFIG_DRAG_THRESHOLD, "com.canonical.oif.drag.threshold" },
	{ "GEIS_CONFIG_DRAG_TIMEOUT", GEIS_CONFIG_DRAG_TIMEOUT, "com.canonical.oif.drag.timeout" },
	{ "GEIS_CONFIG_PINCH_THRESHOLD", GEIS_CONFIG_PINCH_THRESHOLD, "com.canonical.oif.pinch.threshold" },
	{ "GEIS_CONFIG_PINCH_TIMEOUT", GEIS_CONFIG_PINCH_TIMEOUT, "com.canonical.oif.pinch.timeout" },
	{ "GEIS_CONFIG_ROTATE_THRESHOLD", GEIS_CONFIG_ROTATE_THRESHOLD, "com.canonical.oif.rotate.threshold" },
	{ "GEIS_CONFIG_ROTATE_TIMEOUT", GEIS_CONFIG_ROTATE_TIMEOUT, "com.canonical.oif.rotate.timeout" },
	{ "GEIS_CONFIG_TAP_THRESHOLD", GEIS_CONFIG_TAP_THRESHOLD, "com.canonical.oif.tap.threshold" },
	{ "GEIS_CONFIG_TAP_TIMEOUT", GEIS_CONFIG_TAP_TIMEOUT, "com.canonical.oif.tap.timeout" },
	{ "GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS", GEIS_CONFIG_NUM_ACTIVE_SUBSCRIPTIONS,
	  "com.canonical.oif.debug.active_subs" },
	{ "GEIS_EVENT_ATTRIBUTE_DEVICE", GEIS_EVENT_ATTRIBUTE_DEVICE, "device" },
	{ "GEIS_DEVICE_ATTRIBUTE_NAME", GEIS_DEVICE_ATTRIBUTE_NAME, "device name" },
	{ "GEIS_DEVICE_ATTRIBUTE_ID", GEIS_DEVICE_ATTRIBUTE_ID, "device id" },
	{ "GEIS_DEVICE_ATTRIBUTE_TOUCHES", GEIS_DEVICE_ATTRIBUTE_TOUCHES, "device touches" },
	{ "GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH", GEIS_DEVICE_ATTRIBUTE_DIRECT_TOUCH, "direct touch" },
	{ "GEIS_DEVICE_ATTRIBUTE_INDEPENDENT_TOUCH", GEIS_DEVICE_ATTRIBUTE_INDEPENDENT_TOUCH, "independent touch" },
	{ "GEIS_DEVICE_ATTRIBUTE_MIN_X", GEIS_DEVICE_ATTRIBUTE_MIN_X, "device X minimum" },
	{ "GEIS_DEVICE_ATTRIBUTE_MAX_X", GEIS_DEVICE_ATTRIBUTE_MAX_X, "device X maximum" },
	{ "GEIS_DEVICE_ATTRIBUTE_RES_X", GEIS_DEVICE_ATTRIBUTE_RES_X, "device X resolution" },
	{ "GEIS_DEVICE_ATTRIBUTE_MIN_Y", GEIS_DEVICE_ATTRIBUTE_MIN_Y, "device Y minimum" },
	{ "GEIS_DEVICE_ATTRIBUTE_MAX_Y", GEIS_DEVICE_ATTRIBUTE_MAX_Y, "device Y maximum" },
	{ "GEIS_DEVICE_ATTRIBUTE_RES_Y", GEIS_DEVICE_ATTRIBUTE_RES_Y, "device Y resolution" },
	{ "GEIS_EVENT_ATTRIBUTE_CLASS", GEIS_EVENT_ATTRIBUTE_CLASS, "gesture class" },
	{ "GEIS_CLASS_ATTRIBUTE_NAME", GEIS_CLASS_ATTRIBUTE_NAME, "class name" },
	{ "GEIS_CLASS_ATTRIBUTE_ID", GEIS_CLASS_ATTRIBUTE_ID, "class id" },
	{ "GEIS_REGION_ATTRIBUTE_WINDOWID", GEIS_REGION_ATTRIBUTE_WINDOWID, "windowid" },
	{ "GEIS_REGION_X11_ROOT", GEIS_REGION_X11_ROOT, "org.libgeis.region.x11.root" },
	{ "GEIS_REGION_X11_WINDOWID", GEIS_REGION_X11_WINDOWID, "org.libgeis.region.x11.windowid" },
	{ "GEIS_EVENT_ATTRIBUTE_GROUPSET", GEIS_EVENT_ATTRIBUTE_GROUPSET, "group set" },
	{ "GEIS_EVENT_ATTRIBUTE_TOUCHSET", GEIS_EVENT_ATTRIBUTE_TOUCHSET, "touch set" },
	{ "GEIS_EVENT_ATTRIBUTE_CONSTRUCTION_FINISHED", GEIS_EVENT_ATTRIBUTE_CONSTRUCTION_FINISHED, "construction finished" },
	{ "GEIS_TOUCH_ATTRIBUTE_ID", GEIS_TOUCH_ATTRIBUTE_ID, "touch id" },
	{ "GEIS_TOUCH_ATTRIBUTE_X", GEIS_TOUCH_ATTRIBUTE_X, "touch x" },
	{ "GEIS_TOUCH_ATTRIBUTE_Y", GEIS_TOUCH_ATTRIBUTE_Y, "touch y" },
};

#define FN(fn) { #fn, (void (*)(void))fn }
static const struct {
	const char *name;
	void (*addr)(void);
} functions[] = {
	FN(geis_init),
	FN(geis_finish),
	FN(geis_configuration_supported),
	FN(geis_configuration_get_value),
	FN(geis_configuration_set_value),
	FN(geis_event_dispatch),
	FN(geis_new),
	FN(geis_delete),
	FN(geis_error_count),
	FN(geis_error_code),
	FN(geis_error_message),
	FN(geis_get_configuration),
	FN(geis_set_configuration),
	FN(geis_input_devices),
	FN(geis_subscribe),
	FN(geis_unsubscribe),
	FN(geis_attr_name),
	FN(geis_attr_type),
	FN(geis_attr_value_to_boolean),
	FN(geis_attr_value_to_float),
	FN(geis_attr_value_to_integer),
	FN(geis_attr_value_to_pointer),
	FN(geis_attr_value_to_string),
	FN(geis_event_delete),
	FN(geis_event_type),
	FN(geis_event_attr_count),
	FN(geis_event_attr),
	FN(geis_event_attr_by_name),
	FN(geis_register_event_callback),
	FN(geis_dispatch_events),
	FN(geis_next_event),
	FN(geis_register_device_callback),
	FN(geis_get_device),
	FN(geis_device_ref),
	FN(geis_device_unref),
	FN(geis_device_name),
	FN(geis_device_id),
	FN(geis_device_attr_count),
	FN(geis_device_attr),
	FN(geis_device_attr_by_name),
	FN(geis_register_class_callback),
	FN(geis_gesture_class_ref),
	FN(geis_gesture_class_unref),
	FN(geis_gesture_class_name),
	FN(geis_gesture_class_id),
	FN(geis_gesture_class_attr_count),
	FN(geis_gesture_class_attr),
	FN(geis_region_new),
	FN(geis_region_delete),
	FN(geis_region_name),
	FN(geis_filter_new),
	FN(geis_filter_clone),
	FN(geis_filter_delete),
	FN(geis_filter_name),
	FN(geis_filter_add_term),
	FN(geis_subscription_new),
	FN(geis_subscription_delete),
	FN(geis_subscription_activate),
	FN(geis_subscription_deactivate),
	FN(geis_subscription_name),
	FN(geis_subscription_id),
	FN(geis_subscription_add_filter),
	FN(geis_subscription_filter_by_name),
	FN(geis_subscription_remove_filter),
	FN(geis_subscription_get_configuration),
	FN(geis_subscription_set_configuration),
	FN(geis_groupset_group_count),
	FN(geis_groupset_group),
	FN(geis_group_id),
	FN(geis_group_frame_count),
	FN(geis_group_frame),
	FN(geis_group_reject),
	FN(geis_touchset_touch_count),
	FN(geis_touchset_touch),
	FN(geis_touchset_touch_by_id),
	FN(geis_touch_id),
	FN(geis_touch_attr_count),
	FN(geis_touch_attr),
	FN(geis_touch_attr_by_name),
	FN(geis_frame_id),
	FN(geis_frame_is_class),
	FN(geis_frame_attr_count),
	FN(geis_frame_attr),
	FN(geis_frame_attr_by_name),
	FN(geis_frame_matrix),
	FN(geis_frame_touchid_count),
	FN(geis_frame_touchid),
	FN(geis_gesture_accept),
	FN(geis_gesture_reject),
};

int
main(void)
{
	int bad = 0;

	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		if (strcmp(strings[i].ours, strings[i].want) != 0) {
			fprintf(stderr, "%s is \"%s\", geis 2.2 has \"%s\"\n",
				strings[i].name, strings[i].ours, strings[i].want);
			bad++;
		}
	for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
		if (!functions[i].addr) {
			fprintf(stderr, "%s has no address\n", functions[i].name);
			bad++;
		}
	/* 'GXWF' packed little-endian, as geis_win_type_str() does */
	if (GEIS_XCB_FULL_WINDOW != 0x46575847u) {
		fprintf(stderr, "GEIS_XCB_FULL_WINDOW is 0x%x\n", (unsigned)GEIS_XCB_FULL_WINDOW);
		bad++;
	}
	if (geis_win_type_str(ABCD) != 0x44434241u) {
		fprintf(stderr, "geis_win_type_str(ABCD) is 0x%x\n",
			(unsigned)geis_win_type_str(ABCD));
		bad++;
	}
	if (GEIS_DEFAULT_EVENT_CALLBACK != NULL) {
		fprintf(stderr, "GEIS_DEFAULT_EVENT_CALLBACK is not NULL\n");
		bad++;
	}
	if (sizeof(strings) / sizeof(strings[0]) != 128 ||
	    sizeof(functions) / sizeof(functions[0]) != 89) {
		fprintf(stderr, "table sizes changed\n");
		bad++;
	}
	printf("%zu string constants, %zu functions checked, %d mismatches\n",
	       sizeof(strings) / sizeof(strings[0]),
	       sizeof(functions) / sizeof(functions[0]), bad);
	return bad ? 1 : 0;
}
