/*
 * The context's log: one struct ut_log per context (domain "compositor")
 * on the one log path of utouch (src/util/log.h), with the handler of the
 * public API; the messages of the context's grail handle join it.  The
 * lowest layer of the library: it calls nothing of it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compositor/comp-private.h"

void
uc_log(struct utouch_comp *comp, enum ut_log_priority priority, const char *fmt, ...)
{
	va_list ap;

	if (!ut_log_enabled(&comp->log, priority))
		return;
	va_start(ap, fmt);
	ut_logv(&comp->log, priority, fmt, ap);
	va_end(ap);
}

void
uc_out_of_memory(struct utouch_comp *comp, const char *what)
{
	comp->oom = 1;
	uc_log(comp, UT_LOG_ERROR, "out of memory: %s", what);
}

/* ut_log's priorities are the public ones (the enums share values). */
static void
to_client(void *data, enum ut_log_priority priority, const char *message)
{
	struct utouch_comp *comp = data;

	comp->in_callback++;
	comp->log_handler(comp->log_data, (enum utouch_comp_log_priority)priority, message);
	comp->in_callback--;
}

/* grail's levels: -1 debug, 0 warning, 1 error */
static void
from_grail(void *data, int level, const char *message)
{
	struct utouch_comp *comp = data;

	uc_log(comp, level < 0 ? UT_LOG_DEBUG : level == 0 ? UT_LOG_WARNING : UT_LOG_ERROR,
	       "grail: %s", message);
}

UTOUCH_COMP_PUBLIC void
utouch_comp_set_log_handler(struct utouch_comp *comp, utouch_comp_log_handler handler,
			    void *data)
{
	if (UT_CLIENT_BUG_IF(NULL, !comp))
		return;
	comp->log_handler = handler;
	comp->log_data = handler ? data : NULL;
	ut_log_set_handler(&comp->log, handler ? to_client : NULL, comp);
	/* the grail handle's messages come here while a handler takes them
	 * (on stderr they already say "grail"); grail's handler takes its
	 * handle's messages only, not the process default */
	grail_set_log_handler(comp->grail, handler ? from_grail : NULL, comp);
}
