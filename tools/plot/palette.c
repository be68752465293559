#include <stdio.h>

#include "plot.h"

/* Touches: the ten "category 10" colours most plotting tools share, so a
 * touch's colour is easy to tell apart from its neighbours. */
static const unsigned int touch_colours[10] = {
	0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
	0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf,
};

/* Gestures: dark colours that stand out over the touch colours. */
static const unsigned int gesture_colours[6] = {
	0x222222, 0x6a3d9a, 0xb15928, 0x00606b, 0x8b0a50, 0x3f5f00,
};

static struct plot_rgb
rgb(unsigned int v)
{
	return (struct plot_rgb){ ((v >> 16) & 0xff) / 255.0, ((v >> 8) & 0xff) / 255.0,
				  (v & 0xff) / 255.0 };
}

struct plot_rgb
plot_touch_rgb(uint32_t id)
{
	return rgb(touch_colours[(id ? id - 1 : 0) % 10]);
}

struct plot_rgb
plot_gesture_rgb(size_t n)
{
	return rgb(gesture_colours[n % 6]);
}

void
plot_rgb_hex(struct plot_rgb c, char *buf)
{
	snprintf(buf, 8, "#%02x%02x%02x", (unsigned int)(c.r * 255 + 0.5),
		 (unsigned int)(c.g * 255 + 0.5), (unsigned int)(c.b * 255 + 0.5));
}
