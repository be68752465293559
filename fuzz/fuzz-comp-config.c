/*
 * libFuzzer target for the compositor library's configuration reader
 * (utouch_comp_load_config_data(), on the shared YAML reader).  Besides
 * the sanitizers it checks the promise of the API: all or nothing (a
 * refused file adds no subscription and its message names the file; an
 * accepted one adds exactly as many as it returns, each valid).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <utouch/compositor.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct utouch_comp *comp = utouch_comp_new("fuzz");
	char err[512];
	int r;

	if (!comp)
		abort();
	r = utouch_comp_load_config_data(comp, "fuzz", (const char *)data, size, err, sizeof(err));
	if (r < 0) {
		if (utouch_comp_get_subscription(comp, 0) || (r == -22 && strncmp(err, "fuzz", 4)))
			abort();
	} else {
		for (int i = 0; i < r; i++) {
			const struct utouch_comp_subscription_params *p =
				utouch_comp_subscription_get_params(utouch_comp_get_subscription(comp,
											  (size_t)i));
			if (!p || !p->mask || p->touches_start < 1 || p->touches_start > 5)
				abort();
		}
		if (utouch_comp_get_subscription(comp, (size_t)r))
			abort();
	}
	utouch_comp_destroy(comp);
	return 0;
}
