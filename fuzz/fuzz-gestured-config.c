/*
 * libFuzzer target for utouch-gestured's configuration reader (the shared
 * YAML reader, util/yaml-config.c, under the daemon's rules).  Besides the
 * sanitizers it checks what the daemon relies on: a refused file gives no
 * configuration and a message that names it; an accepted one has rules
 * whose values are in their documented ranges, each with a non-empty
 * action, and the rule matcher can run on each of them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gd-config.h"
#include "gd-rules.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct gd_config *cfg = gd_config_parse("fuzz", (const char *)data, size, err, sizeof(err));

	if (!cfg) {
		if (strncmp(err, "fuzz:", 5) != 0)
			abort();
		return 0;
	}
	if ((unsigned)cfg->orientation > GD_ORIENT_RIGHT)
		abort();
	for (size_t i = 0; i < cfg->nrules; i++) {
		const struct gd_rule *r = &cfg->rules[i];
		size_t cand[GD_MAX_CANDIDATES], n, rule;
		enum gd_dir dir;

		if ((unsigned)r->kind >= GD_KIND_COUNT || r->fingers < 1 || r->fingers > 5 ||
		    r->taps < 1 || r->taps > GD_MAX_TAPS || !r->arg || !r->arg[0] ||
		    (r->app && !r->app[0]) || (r->device_name && !r->device_name[0]) ||
		    !(r->threshold >= 0) || !(r->distance > 0) || r->line < 1)
			abort();
		struct gd_query q = { .kind = r->kind, .fingers = r->fingers, .device = r->device,
				      .device_name = "fuzz touchscreen", .taps = r->taps,
				      .app_instance = "", .app_class = "", .x = 1, .y = 1,
				      .screen_w = 100, .screen_h = 100, .mm_x = 0.25, .mm_y = 0.25 };
		struct gd_motion m = { .dx_mm = 30, .dy_mm = -40, .spread_mm = 20, .angle_deg = 40,
				       .elapsed_ms = 100, .taps = r->taps };
		gd_rules_orient(cfg->orientation, &q, &m);
		n = gd_rules_candidates(cfg, &q, cand);
		if (n > GD_MAX_CANDIDATES)
			abort();
		if (gd_rules_decide(cfg, cand, &n, &m, &rule, &dir) == GD_ACCEPT &&
		    rule >= cfg->nrules)
			abort();
	}
	gd_config_free(cfg);
	return 0;
}
