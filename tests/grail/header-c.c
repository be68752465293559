/* Compile check: oif/grail.h stands alone in strict C11. */
#include <oif/grail.h>

int
main(void)
{
	UGTransform *t = 0;
	return t != 0 || UGSlicePropertyCanceled != 14 || UGStatusErrorAtomicity != 10;
}
