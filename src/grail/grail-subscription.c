/*
 * utouch grail: subscriptions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grail-private.h"

/*
 * How long an unrecognized gesture of @s may live: the longest timeout of
 * the types in its mask (0: no limit).  Kept with the subscription, since
 * every candidate gesture asks for it in every frame.
 */
static void
update_timeout(struct UGSubscription_ *s)
{
	const UGGestureTypeMask m = s->mask;
	uint64_t t = 0;

	/* (an edge swipe is a drag from the edge, with the drag's timeout) */
	if ((m & (UGGestureTypeDrag | UGGestureTypeEdgeSwipe)) && s->drag_timeout > t)
		t = s->drag_timeout;
	if ((m & UGGestureTypePinch) && s->pinch_timeout > t)
		t = s->pinch_timeout;
	if ((m & UGGestureTypeRotate) && s->rotate_timeout > t)
		t = s->rotate_timeout;
	if ((m & UGGestureTypeTap) && s->tap_timeout > t)
		t = s->tap_timeout;
	if ((m & UGGestureTypeHold) && s->hold_timeout > t)
		t = s->hold_timeout;
	s->timeout = t;
}

GRAIL_PUBLIC UGStatus
grail_subscription_new(UGSubscription *subscription)
{
	if (UT_CLIENT_BUG_IF(NULL, !subscription))
		return UGStatusErrorInvalidValue;

	struct UGSubscription_ *s = calloc(1, sizeof(*s));
	if (!s)
		return UGStatusErrorResources;

	s->touches_start = 2;
	s->drag_timeout = 300;
	s->drag_threshold = 0.0026f;
	s->pinch_timeout = 300;
	s->pinch_threshold = 1.1f;
	s->rotate_timeout = 500;
	s->rotate_threshold = (float)(2.0 * M_PI / 50.0);
	s->tap_timeout = 300;
	s->tap_threshold = 0.0026f;
	/* utouch extensions; doc/grail.md says where the defaults come from */
	s->hold_timeout = 500;
	s->hold_threshold = 0.0026f;
	s->multitap_timeout = 400;
	s->multitap_threshold = 0.010f;
	s->multitap_max = 3;
	s->edge_edges = UGEdgeLeft | UGEdgeRight | UGEdgeTop | UGEdgeBottom;
	s->edge_margin = 0.005f;
	s->edge_velocity = 0.03f;
	s->velocity_window = 150;
	update_timeout(s);
	*subscription = s;
	return UGStatusSuccess;
}

GRAIL_PUBLIC void
grail_subscription_delete(UGSubscription subscription)
{
	if (!subscription)
		return;
	/* Deactivating detaches the handle, so this loop shrinks the array. */
	while (subscription->nhandles > 0) {
		unsigned int before = subscription->nhandles;
		grail_subscription_deactivate(subscription->handles[before - 1], subscription);
		if (subscription->nhandles == before)
			subscription->nhandles--;
	}
	free(subscription->handles);
	free(subscription);
}

static bool
valid_touch_count(unsigned int n)
{
	return n >= 1 && n <= GR_MAX_TOUCHES;
}

static bool
valid_threshold(float v)
{
	return isfinite(v) && v >= 0.0f;
}

static UGStatus
set_property(struct UGSubscription_ *s, UGSubscriptionProperty property, const void *value)
{
	switch (property) {
	case UGSubscriptionPropertyDevice: {
		UFDevice d = *(const UFDevice *)value;
		if (!d)
			return UGStatusErrorInvalidValue;
		s->device = d;
		s->device_set = true;
		return UGStatusSuccess;
	}
	case UGSubscriptionPropertyWindow: {
		UFWindowId w = *(const UFWindowId *)value;
		if (w == 0)
			return UGStatusErrorInvalidValue;
		s->window = w;
		return UGStatusSuccess;
	}
	case UGSubscriptionPropertyMask: {
		UGGestureTypeMask m = *(const UGGestureTypeMask *)value;
		if (m == 0)
			return UGStatusErrorInvalidValue;
		s->mask = m;
		/* the recognizers of its handles cache what the masks want */
		for (unsigned int i = 0; i < s->nhandles; i++)
			s->handles[i]->masks_changed++;
		return UGStatusSuccess;
	}
	case UGSubscriptionPropertyTouchesStart:
	case UGSubscriptionPropertyTouchesMinimum:
	case UGSubscriptionPropertyTouchesMaximum: {
		unsigned int n = *(const unsigned int *)value;
		if (!valid_touch_count(n))
			return UGStatusErrorInvalidValue;
		if (property == UGSubscriptionPropertyTouchesStart)
			s->touches_start = n;
		else if (property == UGSubscriptionPropertyTouchesMinimum)
			s->touches_min = n;
		else
			s->touches_max = n;
		return UGStatusSuccess;
	}
	case UGSubscriptionPropertyDragTimeout:
		s->drag_timeout = *(const uint64_t *)value;
		return UGStatusSuccess;
	case UGSubscriptionPropertyPinchTimeout:
		s->pinch_timeout = *(const uint64_t *)value;
		return UGStatusSuccess;
	case UGSubscriptionPropertyRotateTimeout:
		s->rotate_timeout = *(const uint64_t *)value;
		return UGStatusSuccess;
	case UGSubscriptionPropertyTapTimeout:
		s->tap_timeout = *(const uint64_t *)value;
		return UGStatusSuccess;
	case UGSubscriptionPropertyDragThreshold:
	case UGSubscriptionPropertyPinchThreshold:
	case UGSubscriptionPropertyRotateThreshold:
	case UGSubscriptionPropertyTapThreshold: {
		float v = *(const float *)value;
		if (!valid_threshold(v))
			return UGStatusErrorInvalidValue;
		if (property == UGSubscriptionPropertyDragThreshold)
			s->drag_threshold = v;
		else if (property == UGSubscriptionPropertyPinchThreshold)
			s->pinch_threshold = v;
		else if (property == UGSubscriptionPropertyRotateThreshold)
			s->rotate_threshold = v;
		else
			s->tap_threshold = v;
		return UGStatusSuccess;
	}
	case UGSubscriptionPropertyAtomicGestures:
		s->atomic = *(const int *)value ? 1 : 0;
		return UGStatusSuccess;
	case UGSubscriptionPropertyWholeHand:
		s->whole_hand = *(const int *)value != 0;
		return UGStatusSuccess;
	case UGSubscriptionPropertyHoldTimeout:
	case UGSubscriptionPropertyMultiTapTimeout:
	case UGSubscriptionPropertyVelocityWindow: {
		uint64_t t = *(const uint64_t *)value;
		if (property == UGSubscriptionPropertyMultiTapTimeout)
			s->multitap_timeout = t;
		else if (t == 0)
			return UGStatusErrorInvalidValue;
		else if (property == UGSubscriptionPropertyHoldTimeout)
			s->hold_timeout = t;
		else
			s->velocity_window = t;
		return UGStatusSuccess;
	}
	case UGSubscriptionPropertyHoldThreshold:
	case UGSubscriptionPropertyMultiTapThreshold:
	case UGSubscriptionPropertyEdgeSwipeMargin:
	case UGSubscriptionPropertyEdgeSwipeVelocity: {
		float v = *(const float *)value;
		if (!valid_threshold(v))
			return UGStatusErrorInvalidValue;
		if (property == UGSubscriptionPropertyHoldThreshold)
			s->hold_threshold = v;
		else if (property == UGSubscriptionPropertyMultiTapThreshold)
			s->multitap_threshold = v;
		else if (property == UGSubscriptionPropertyEdgeSwipeMargin)
			s->edge_margin = v;
		else
			s->edge_velocity = v;
		return UGStatusSuccess;
	}
	case UGSubscriptionPropertyMultiTapMaximum: {
		unsigned int n = *(const unsigned int *)value;
		if (n < 1 || n > 100)
			return UGStatusErrorInvalidValue;
		s->multitap_max = n;
		return UGStatusSuccess;
	}
	case UGSubscriptionPropertyEdgeSwipeEdges: {
		unsigned int e = *(const unsigned int *)value;
		if (e == 0 || (e & ~(unsigned int)(UGEdgeLeft | UGEdgeRight | UGEdgeTop |
						   UGEdgeBottom)))
			return UGStatusErrorInvalidValue;
		s->edge_edges = e;
		return UGStatusSuccess;
	}
	}
	return UGStatusErrorUnknownProperty;
}

GRAIL_PUBLIC UGStatus
grail_subscription_set_property(UGSubscription subscription,
				UGSubscriptionProperty property, const void *value)
{
	if (UT_CLIENT_BUG_IF(NULL, !subscription || !value))
		return UGStatusErrorInvalidValue;

	UGStatus status = set_property(subscription, property, value);
	if (status == UGStatusSuccess)
		update_timeout(subscription);
	return status;
}

GRAIL_PUBLIC UGStatus
grail_subscription_get_property(UGSubscription subscription,
				UGSubscriptionProperty property, void *value)
{
	if (UT_CLIENT_BUG_IF(NULL, !subscription || !value))
		return UGStatusErrorInvalidValue;

	const struct UGSubscription_ *s = subscription;

	switch (property) {
	case UGSubscriptionPropertyDevice:
		*(UFDevice *)value = s->device;
		return UGStatusSuccess;
	case UGSubscriptionPropertyWindow:
		*(UFWindowId *)value = s->window;
		return UGStatusSuccess;
	case UGSubscriptionPropertyMask:
		*(UGGestureTypeMask *)value = s->mask;
		return UGStatusSuccess;
	case UGSubscriptionPropertyTouchesStart:
		*(unsigned int *)value = s->touches_start;
		return UGStatusSuccess;
	case UGSubscriptionPropertyTouchesMinimum:
		*(unsigned int *)value = s->touches_min;
		return UGStatusSuccess;
	case UGSubscriptionPropertyTouchesMaximum:
		*(unsigned int *)value = s->touches_max;
		return UGStatusSuccess;
	case UGSubscriptionPropertyDragTimeout:
		*(uint64_t *)value = s->drag_timeout;
		return UGStatusSuccess;
	case UGSubscriptionPropertyDragThreshold:
		*(float *)value = s->drag_threshold;
		return UGStatusSuccess;
	case UGSubscriptionPropertyPinchTimeout:
		*(uint64_t *)value = s->pinch_timeout;
		return UGStatusSuccess;
	case UGSubscriptionPropertyPinchThreshold:
		*(float *)value = s->pinch_threshold;
		return UGStatusSuccess;
	case UGSubscriptionPropertyRotateTimeout:
		*(uint64_t *)value = s->rotate_timeout;
		return UGStatusSuccess;
	case UGSubscriptionPropertyRotateThreshold:
		*(float *)value = s->rotate_threshold;
		return UGStatusSuccess;
	case UGSubscriptionPropertyTapTimeout:
		*(uint64_t *)value = s->tap_timeout;
		return UGStatusSuccess;
	case UGSubscriptionPropertyTapThreshold:
		*(float *)value = s->tap_threshold;
		return UGStatusSuccess;
	case UGSubscriptionPropertyAtomicGestures:
		*(int *)value = s->atomic;
		return UGStatusSuccess;
	case UGSubscriptionPropertyHoldTimeout:
		*(uint64_t *)value = s->hold_timeout;
		return UGStatusSuccess;
	case UGSubscriptionPropertyHoldThreshold:
		*(float *)value = s->hold_threshold;
		return UGStatusSuccess;
	case UGSubscriptionPropertyMultiTapTimeout:
		*(uint64_t *)value = s->multitap_timeout;
		return UGStatusSuccess;
	case UGSubscriptionPropertyMultiTapThreshold:
		*(float *)value = s->multitap_threshold;
		return UGStatusSuccess;
	case UGSubscriptionPropertyMultiTapMaximum:
		*(unsigned int *)value = s->multitap_max;
		return UGStatusSuccess;
	case UGSubscriptionPropertyEdgeSwipeEdges:
		*(unsigned int *)value = s->edge_edges;
		return UGStatusSuccess;
	case UGSubscriptionPropertyEdgeSwipeMargin:
		*(float *)value = s->edge_margin;
		return UGStatusSuccess;
	case UGSubscriptionPropertyEdgeSwipeVelocity:
		*(float *)value = s->edge_velocity;
		return UGStatusSuccess;
	case UGSubscriptionPropertyVelocityWindow:
		*(uint64_t *)value = s->velocity_window;
		return UGStatusSuccess;
	case UGSubscriptionPropertyWholeHand:
		*(int *)value = s->whole_hand ? 1 : 0;
		return UGStatusSuccess;
	}
	return UGStatusErrorUnknownProperty;
}

bool
gr_subscription_is_valid(const struct UGSubscription_ *s)
{
	if (!s->device_set || !s->device || s->window == 0 || s->mask == 0)
		return false;
	if (!valid_touch_count(s->touches_start))
		return false;
	if (s->touches_max && s->touches_start > s->touches_max)
		return false;
	if (s->touches_min && s->touches_start < s->touches_min)
		return false;
	return true;
}

bool
gr_subscription_attach(struct UGSubscription_ *s, struct UGHandle_ *h)
{
	for (unsigned int i = 0; i < s->nhandles; i++)
		if (s->handles[i] == h)
			return true;
	if (!UT_ARRAY_RESERVE(s->handles, s->caphandles, s->nhandles + 1, 2))
		return false;
	s->handles[s->nhandles++] = h;
	return true;
}

void
gr_subscription_detach(struct UGSubscription_ *s, struct UGHandle_ *h)
{
	for (unsigned int i = 0; i < s->nhandles; i++) {
		if (s->handles[i] == h) {
			s->handles[i] = s->handles[--s->nhandles];
			return;
		}
	}
}
