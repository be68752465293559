/* The geis headers compile on their own in strict C99. */
#include <geis/geis.h>
#include <utouch/geis.h>

int
main(void)
{
	GeisXcbWinInfo xcb = { 0, 0, 1 };
	GeisWinInfo win = { GEIS_XCB_FULL_WINDOW, &xcb };
	GeisGestureAttr attr;

	attr.name = GEIS_GESTURE_ATTRIBUTE_TOUCHES;
	attr.type = GEIS_ATTR_TYPE_INTEGER;
	attr.integer_val = 2;
	/* 'GXWF' packed little-endian */
	return win.win_type == 0x46575847u && attr.integer_val == 2 &&
	       GEIS_SUBSCRIPTION_CONT == 2 ? 0 : 1;
}
