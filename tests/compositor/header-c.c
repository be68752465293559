/* Compile check: utouch/compositor.h stands alone in strict C11. */
#include <utouch/compositor.h>

int
main(void)
{
	struct utouch_comp_event ev = { .type = UTOUCH_COMP_EVENT_TOUCH_FRAME };

	return ev.touch.device != 0 || UTOUCH_COMP_ROUTE_CANCELLED != 5 ||
	       UTOUCH_COMP_POLICY_FORWARD_THEN_CANCEL != 1;
}
