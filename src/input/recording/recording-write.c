/*
 * Writing evemu recordings ("# EVEMU 1.3", as evemu-record 2.x writes them):
 * the one writer that tools use to save what they read from a device, so
 * that every recording utouch writes reads back through ut_recording_load()
 * and through evemu-play.  See doc/recording-formats.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <libevdev/libevdev.h>

#include "input/recording/recording.h"

/* The highest code of each event type, for the B: bit lines. */
static unsigned int
type_max(unsigned int type)
{
	int max = libevdev_event_type_get_max(type);

	return max < 0 ? 0 : (unsigned int)max;
}

/* Bytes of a bit mask in lines of eight, each line starting with @p head. */
static int
write_mask(FILE *f, const char *head, const uint8_t *bytes, size_t n)
{
	for (size_t i = 0; i < n; i += 8) {
		if (fprintf(f, "%s", head) < 0)
			return -1;
		for (size_t j = i; j < i + 8; j++)
			if (fprintf(f, " %02x", j < n ? bytes[j] : 0) < 0)
				return -1;
		if (fputc('\n', f) == EOF)
			return -1;
	}
	return 0;
}

int
ut_evemu_write_device(FILE *f, const struct libevdev *dev, const char *comment)
{
	uint8_t bytes[(KEY_MAX + 8) / 8];
	const char *name = libevdev_get_name(dev);
	char head[8];

	if (!f || !dev)
		return -EINVAL;
	if (fprintf(f, "# EVEMU 1.3\n") < 0 ||
	    (comment && fprintf(f, "# %s\n", comment) < 0) ||
	    fprintf(f, "N: %s\n", name && *name ? name : "unnamed device") < 0 ||
	    fprintf(f, "I: %04x %04x %04x %04x\n", libevdev_get_id_bustype(dev),
		    libevdev_get_id_vendor(dev), libevdev_get_id_product(dev),
		    libevdev_get_id_version(dev)) < 0)
		return -EIO;

	memset(bytes, 0, sizeof(bytes));
	for (unsigned int p = 0; p <= INPUT_PROP_MAX; p++)
		if (libevdev_has_property(dev, p))
			bytes[p / 8] |= (uint8_t)(1u << (p % 8));
	if (write_mask(f, "P:", bytes, (INPUT_PROP_MAX + 8) / 8) < 0)
		return -EIO;

	for (unsigned int type = 0; type <= EV_MAX; type++) {
		unsigned int max = type_max(type);

		if (type != EV_SYN && !libevdev_has_event_type(dev, type))
			continue;
		if (max == 0 || max >= sizeof(bytes) * 8)
			continue;
		memset(bytes, 0, sizeof(bytes));
		for (unsigned int code = 0; code <= max; code++)
			if (type == EV_SYN ? libevdev_has_event_type(dev, code)
					   : libevdev_has_event_code(dev, type, code))
				bytes[code / 8] |= (uint8_t)(1u << (code % 8));
		snprintf(head, sizeof(head), "B: %02x", type);
		if (write_mask(f, head, bytes, max / 8 + 1) < 0)
			return -EIO;
	}

	for (unsigned int code = 0; code <= ABS_MAX; code++) {
		const struct input_absinfo *a = libevdev_get_abs_info(dev, code);

		if (!a || !libevdev_has_event_code(dev, EV_ABS, code))
			continue;
		if (fprintf(f, "A: %02x %d %d %d %d %d\n", code, a->minimum, a->maximum,
			    a->fuzz, a->flat, a->resolution) < 0)
			return -EIO;
	}
	return fflush(f) == 0 ? 0 : -EIO;
}

int
ut_evemu_write_event(FILE *f, uint64_t usec, uint16_t type, uint16_t code, int32_t value)
{
	if (!f)
		return -EINVAL;
	if (fprintf(f, "E: %" PRIu64 ".%06u %04x %04x %04d\n", usec / 1000000u,
		    (unsigned int)(usec % 1000000u), type, code, value) < 0)
		return -EIO;
	return 0;
}
