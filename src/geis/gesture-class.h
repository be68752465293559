/*
 * The gesture classes, in one table: the geis class name and id, the grail
 * gesture-type bit, and the lower-case key the tools accept on their
 * command lines.  geis (instance classes, filters, slice -> class) and the
 * tools (utouch-events, utouch-replay) all read this table; a new class is
 * one new row.
 *
 * Header only (no state), so every library and tool that includes it gets
 * the same table without a link dependency.  It is geis's (it maps geis
 * names and ids to grail's bits), not util's: util/ is below the layers.
 */
#ifndef UTOUCH_GEIS_GESTURE_CLASS_H
#define UTOUCH_GEIS_GESTURE_CLASS_H

#include <stddef.h>
#include <string.h>
#include <strings.h>

#include <geis/geis.h>
#include <utouch/geis.h>
#include <oif/grail.h>

/** One gesture class. */
struct ut_gesture_class {
	const char *name;        /**< geis class name, e.g. GEIS_GESTURE_DRAG "Drag" */
	const char *key;         /**< lower-case name used by the tools: "drag" */
	int id;                  /**< geis class id, e.g. GEIS_GESTURE_PRIMITIVE_DRAG */
	UGGestureTypeMask mask;  /**< the grail gesture-type bit */
	int extension;           /**< a utouch extension (grail's hold and edge
	                              swipe): never announced by geis, never in
	                              the default set, selected only by name */
};

/** Number of rows in ut_gesture_classes. */
#define UT_NUM_GESTURE_CLASSES 8

/** The first rows are geis 2.2's six classes, which geis announces. */
#define UT_NUM_GEIS_CLASSES 6

/*
 * In the order geis announces the classes; a slice whose mask has several
 * bits is given to the first class in this order that it has.
 */
static const struct ut_gesture_class ut_gesture_classes[UT_NUM_GESTURE_CLASSES] = {
	{ GEIS_GESTURE_DRAG, "drag", GEIS_GESTURE_PRIMITIVE_DRAG, UGGestureTypeDrag, 0 },
	{ GEIS_GESTURE_PINCH, "pinch", GEIS_GESTURE_PRIMITIVE_PINCH, UGGestureTypePinch, 0 },
	{ GEIS_GESTURE_ROTATE, "rotate", GEIS_GESTURE_PRIMITIVE_ROTATE, UGGestureTypeRotate, 0 },
	{ GEIS_GESTURE_TAP, "tap", GEIS_GESTURE_PRIMITIVE_TAP, UGGestureTypeTap, 0 },
	{ GEIS_GESTURE_TOUCH, "touch", GEIS_GESTURE_PRIMITIVE_TOUCH, UGGestureTypeTouch, 0 },
	/* geis 2.2's Flick: drags (after Drag, so that a mask lookup finds Drag);
	 * geis_frame_is_class() tells a flick by its end velocity */
	{ GEIS_GESTURE_FLICK, "flick", GEIS_GESTURE_ID_FLICK, UGGestureTypeDrag, 0 },
	/* utouch extensions (utouch/geis.h, oif/grail.h) */
	{ UTOUCH_GEIS_GESTURE_HOLD, "hold", UTOUCH_GEIS_GESTURE_PRIMITIVE_HOLD,
	  UGGestureTypeHold, 1 },
	{ UTOUCH_GEIS_GESTURE_EDGE_SWIPE, "edge", UTOUCH_GEIS_GESTURE_PRIMITIVE_EDGE_SWIPE,
	  UGGestureTypeEdgeSwipe, 1 },
};

/** The grail bits of every class but the extensions together: grail
 * 3.1's five, the default set and what "all" means. */
static inline UGGestureTypeMask
ut_gesture_class_mask_all(void)
{
	UGGestureTypeMask m = 0;

	for (size_t i = 0; i < UT_NUM_GESTURE_CLASSES; i++)
		if (!ut_gesture_classes[i].extension)
			m |= ut_gesture_classes[i].mask;
	return m;
}

/** The grail bits of every class, the extensions included. */
static inline UGGestureTypeMask
ut_gesture_class_mask_any(void)
{
	UGGestureTypeMask m = 0;

	for (size_t i = 0; i < UT_NUM_GESTURE_CLASSES; i++)
		m |= ut_gesture_classes[i].mask;
	return m;
}

/**
 * The first class (in table order) whose bit is set in @p mask, or NULL
 * when none is.
 */
static inline const struct ut_gesture_class *
ut_gesture_class_by_mask(UGGestureTypeMask mask)
{
	for (size_t i = 0; i < UT_NUM_GESTURE_CLASSES; i++)
		if (mask & ut_gesture_classes[i].mask)
			return &ut_gesture_classes[i];
	return NULL;
}

/** Other names of a class the lookup by key accepts: "swipe" is a drag
 * (the name utouch-gestured's rules use). */
static const struct {
	const char *alias;
	int index;   /**< row of ut_gesture_classes */
} ut_gesture_class_aliases[] = {
	{ "swipe", 0 },
};

/**
 * The index of the class whose key ("drag") or alias ("swipe") is the
 * first @p len bytes of @p s (compared without regard to case when
 * @p ignore_case is set); -1 when there is none.
 */
static inline int
ut_gesture_class_find(const char *s, size_t len, int ignore_case);

/** Whether the @p len bytes of @p s are the name @p key. */
static inline int
ut_gesture_class_key_is(const char *s, size_t len, const char *key, int ignore_case)
{
	return strlen(key) == len &&
	       (ignore_case ? strncasecmp(s, key, len) : strncmp(s, key, len)) == 0;
}

static inline int
ut_gesture_class_find(const char *s, size_t len, int ignore_case)
{
	for (size_t i = 0; i < UT_NUM_GESTURE_CLASSES; i++)
		if (ut_gesture_class_key_is(s, len, ut_gesture_classes[i].key, ignore_case))
			return (int)i;
	for (size_t i = 0; i < sizeof(ut_gesture_class_aliases) / sizeof(ut_gesture_class_aliases[0]);
	     i++)
		if (ut_gesture_class_key_is(s, len, ut_gesture_class_aliases[i].alias, ignore_case))
			return ut_gesture_class_aliases[i].index;
	return -1;
}

#endif
