// utouch/compositor.h compiles as C++ (extern "C", no C-only constructs).
#include <utouch/compositor.h>

int
main()
{
	utouch_comp_event ev = {};
	utouch_comp_subscription_params p = {};

	ev.type = UTOUCH_COMP_EVENT_GESTURE_END;
	p.policy = UTOUCH_COMP_POLICY_HOLD;
	return ev.gesture.canceled == 0 && p.touches_start == 0 ? 0 : 1;
}
