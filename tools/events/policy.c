/*
 * utouch-events: --accept and --reject, once per gesture.
 */
#include <stdio.h>
#include <stdlib.h>

#include "events.h"
#include "tool.h"

/* ---- accept / reject ---- */

static int
decided_index(const struct state *st, GeisGestureId id)
{
	for (size_t i = 0; i < st->ndecided; i++)
		if (st->decided[i] == id)
			return (int)i;
	return -1;
}

void
apply_policy(struct state *st, GeisEvent ev, FILE *out)
{
	GeisEventType type = geis_event_type(ev);
	GeisGroupSet gs = geis_attr_value_to_pointer(
		geis_event_attr_by_name(ev, GEIS_EVENT_ATTRIBUTE_GROUPSET));

	if (st->opt->policy == POLICY_NONE || !is_gesture_event(type))
		return;
	for (GeisSize g = 0; g < geis_groupset_group_count(gs); g++) {
		GeisGroup group = geis_groupset_group(gs, g);

		for (GeisSize k = 0; k < geis_group_frame_count(group); k++) {
			GeisGestureId id = geis_frame_id(geis_group_frame(group, k));
			int idx = decided_index(st, id);
			int accept = st->opt->policy == POLICY_ACCEPT;
			GeisStatus s;

			if (idx >= 0) {
				/* forget ended gestures: ids may be reused */
				if (type == GEIS_EVENT_GESTURE_END || type == GEIS_EVENT_TENTATIVE_END)
					st->decided[idx] = st->decided[--st->ndecided];
				continue;
			}
			if (type == GEIS_EVENT_GESTURE_END || type == GEIS_EVENT_TENTATIVE_END)
				continue;   /* nothing left to decide */
			TOOL_RESERVE(st->decided, st->capdecided, st->ndecided + 1, 16);
			st->decided[st->ndecided++] = id;
			s = accept ? geis_gesture_accept(st->geis, group, id)
				   : geis_gesture_reject(st->geis, group, id);
			if (st->opt->json)
				fprintf(out, "{\"action\":\"%s\",\"gesture\":%u,\"status\":%d}\n",
					accept ? "accept" : "reject", id, (int)s);
			else
				fprintf(out, "%s gesture %u: %s\n", accept ? "accept" : "reject", id,
					s == GEIS_STATUS_SUCCESS ? "ok" : "failed");
		}
	}
}

