// The geis headers compile as C++ (extern "C", no C-only constructs).
#include <geis/geis.h>
#include <utouch/geis.h>

int
main()
{
	GeisXcbWinInfo xcb = { nullptr, nullptr, 1 };
	GeisWinInfo win = { GEIS_XCB_FULL_WINDOW, &xcb };
	GeisStatus st = GEIS_STATUS_SUCCESS;

	return win.win_type == 0x46575847u && st == 0 ? 0 : 1;
}
