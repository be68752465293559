/* Built-in device presets and the event code names used in comments. */
#include <linux/input.h>
#include <string.h>

#include "synth.h"

/*
 * The surface sizes are chosen so that the two touchscreens (protocol B and
 * protocol A) cover the same 300 x 200 mm area: a scenario then maps to the
 * same window coordinates on both, up to rounding.
 */
static const struct synth_preset presets[] = {
	{
		.name = "touchscreen",
		.summary = "protocol B touchscreen, 10 slots, 300 x 200 mm, 14 units/mm",
		.device_name = "utouch-synth touchscreen",
		.bus = BUS_USB, .vendor = 0x1d6b, .product = 0x5301, .version = 0x0110,
		.protocol = SYNTH_PROTOCOL_B,
		.prop_direct = true,
		.slots = 10, .tracking_max = 65535,
		.x = { 0, 4200, 14 }, .y = { 0, 2800, 14 },
		.width_mm = 300.0, .height_mm = 200.0,
		.touch_major = 30,
		.msc_timestamp = true,
		.udev_type = "ID_INPUT_TOUCHSCREEN",
	},
	{
		.name = "touchpad",
		.summary = "protocol B clickpad, 5 slots, 100 x 70 mm, 32 units/mm",
		.device_name = "utouch-synth touchpad",
		.bus = BUS_I2C, .vendor = 0x1d6b, .product = 0x5302, .version = 0x0100,
		.protocol = SYNTH_PROTOCOL_B,
		.prop_pointer = true, .prop_buttonpad = true, .touchpad = true,
		.slots = 5, .tracking_max = 65535,
		.x = { 0, 3200, 32 }, .y = { 0, 2240, 32 },
		.width_mm = 100.0, .height_mm = 70.0,
		.pressure = 50,
		.msc_timestamp = true,
		.udev_type = "ID_INPUT_TOUCHPAD",
	},
	{
		.name = "touchpad-apple",
		.summary = "protocol B touchpad with centred axes (negative minimum), 16 slots, 135 x 113 mm",
		.device_name = "utouch-synth centred touchpad",
		.bus = BUS_BLUETOOTH, .vendor = 0x1d6b, .product = 0x5303, .version = 0x0160,
		.protocol = SYNTH_PROTOCOL_B,
		.prop_pointer = true, .prop_buttonpad = true, .touchpad = true,
		.slots = 16, .tracking_max = 65535,
		.x = { -3100, 3110, 46 }, .y = { -2550, 2535, 45 },
		.width_mm = 135.0, .height_mm = 113.0,
		.touch_major = 400, .touch_minor = 320,
		.msc_timestamp = true,
		.udev_type = "ID_INPUT_TOUCHPAD",
	},
	{
		.name = "touchscreen-a",
		.summary = "protocol A touchscreen without tracking ids or resolution, X 0..9600, Y 0..7200",
		.device_name = "utouch-synth protocol A touchscreen",
		.bus = BUS_USB, .vendor = 0x1d6b, .product = 0x5304, .version = 0x0101,
		.protocol = SYNTH_PROTOCOL_A,
		.slots = 10, .tracking_max = 0,
		.x = { 0, 9600, 0 }, .y = { 0, 7200, 0 },
		.width_mm = 300.0, .height_mm = 200.0,
		.touch_major = 60,
		.udev_type = "ID_INPUT_TOUCHSCREEN",
	},
	{
		.name = "touchpad-a-tracking",
		.summary = "protocol A touchpad with ABS_MT_TRACKING_ID (0..15), centred axes, 130 x 110 mm",
		.device_name = "utouch-synth protocol A touchpad",
		.bus = BUS_BLUETOOTH, .vendor = 0x1d6b, .product = 0x5305, .version = 0x0131,
		.protocol = SYNTH_PROTOCOL_A, .a_tracking_id = true,
		.prop_pointer = true, .touchpad = true,
		.slots = 16, .tracking_max = 15,
		.x = { -2990, 3000, 46 }, .y = { -2470, 2480, 45 },
		.width_mm = 130.2, .height_mm = 110.0,
		.touch_major = 300, .touch_minor = 250,
		.udev_type = "ID_INPUT_TOUCHPAD",
	},
};

const struct synth_preset *
synth_preset_get(size_t index)
{
	if (index >= sizeof(presets) / sizeof(presets[0]))
		return NULL;
	return &presets[index];
}

const struct synth_preset *
synth_preset_find(const char *name)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	}
	return NULL;
}

struct code_name {
	unsigned type, code;
	const char *name;
};

static const struct code_name code_names[] = {
	{ EV_SYN, SYN_REPORT, "SYN_REPORT" },
	{ EV_SYN, SYN_MT_REPORT, "SYN_MT_REPORT" },
	{ EV_KEY, BTN_LEFT, "BTN_LEFT" },
	{ EV_KEY, BTN_TOOL_FINGER, "BTN_TOOL_FINGER" },
	{ EV_KEY, BTN_TOOL_QUINTTAP, "BTN_TOOL_QUINTTAP" },
	{ EV_KEY, BTN_TOUCH, "BTN_TOUCH" },
	{ EV_KEY, BTN_TOOL_DOUBLETAP, "BTN_TOOL_DOUBLETAP" },
	{ EV_KEY, BTN_TOOL_TRIPLETAP, "BTN_TOOL_TRIPLETAP" },
	{ EV_KEY, BTN_TOOL_QUADTAP, "BTN_TOOL_QUADTAP" },
	{ EV_ABS, ABS_X, "ABS_X" },
	{ EV_ABS, ABS_Y, "ABS_Y" },
	{ EV_ABS, ABS_PRESSURE, "ABS_PRESSURE" },
	{ EV_ABS, ABS_MT_SLOT, "ABS_MT_SLOT" },
	{ EV_ABS, ABS_MT_TOUCH_MAJOR, "ABS_MT_TOUCH_MAJOR" },
	{ EV_ABS, ABS_MT_TOUCH_MINOR, "ABS_MT_TOUCH_MINOR" },
	{ EV_ABS, ABS_MT_POSITION_X, "ABS_MT_POSITION_X" },
	{ EV_ABS, ABS_MT_POSITION_Y, "ABS_MT_POSITION_Y" },
	{ EV_ABS, ABS_MT_TRACKING_ID, "ABS_MT_TRACKING_ID" },
	{ EV_ABS, ABS_MT_PRESSURE, "ABS_MT_PRESSURE" },
	{ EV_MSC, MSC_TIMESTAMP, "MSC_TIMESTAMP" },
};

const char *
synth_type_name(unsigned type)
{
	switch (type) {
	case EV_SYN: return "EV_SYN";
	case EV_KEY: return "EV_KEY";
	case EV_ABS: return "EV_ABS";
	case EV_MSC: return "EV_MSC";
	default: return "?";
	}
}

const char *
synth_code_name(unsigned type, unsigned code)
{
	for (size_t i = 0; i < sizeof(code_names) / sizeof(code_names[0]); i++) {
		if (code_names[i].type == type && code_names[i].code == code)
			return code_names[i].name;
	}
	return "?";
}
