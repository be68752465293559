/*
 * Error stacks: one per instance, plus a process-wide one for failures
 * without an instance.  Every error pushed is also logged (info priority,
 * or the one the pusher names) through the shared log path, util/log.h:
 * the instance's log handler (utouch_geis_set_log_handler()) or stderr.
 */
#include <stdio.h>
#include <string.h>

#include "geis-private.h"

static struct geis_error_stack global_errors;
static const struct ut_log global_log = UT_LOG_STATIC_INIT("geis");

static struct geis_error_stack *
stack_of(Geis geis)
{
	return geis ? &geis->errors : &global_errors;
}

static void
error_vpush(Geis geis, GeisStatus code, enum ut_log_priority priority, const char *fmt,
	    va_list ap)
{
	struct geis_error_stack *s = stack_of(geis);
	GeisSize i;

	if (s->count == GEIS_MAX_ERRORS) {
		/* keep the newest entries */
		memmove(&s->code[0], &s->code[1], sizeof(s->code[0]) * (GEIS_MAX_ERRORS - 1));
		memmove(&s->msg[0], &s->msg[1], sizeof(s->msg[0]) * (GEIS_MAX_ERRORS - 1));
		s->count--;
	}
	i = s->count++;
	s->code[i] = code;
	vsnprintf(s->msg[i], sizeof(s->msg[i]), fmt, ap);
	ut_log(geis ? &geis->log : &global_log, priority, "%s", s->msg[i]);
}

void
gs_error_vpush(Geis geis, GeisStatus code, const char *fmt, va_list ap)
{
	error_vpush(geis, code, UT_LOG_INFO, fmt, ap);
}


void
gs_error_push(Geis geis, GeisStatus code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gs_error_vpush(geis, code, fmt, ap);
	va_end(ap);
}

void
gs_core_error(Geis geis, GeisStatus code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gs_error_vpush(geis, code, fmt, ap);
	va_end(ap);
}

void
gs_core_warning(Geis geis, GeisStatus code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vpush(geis, code, UT_LOG_WARNING, fmt, ap);
	va_end(ap);
}

void
gs_error_clear(Geis geis)
{
	stack_of(geis)->count = 0;
}

GEIS_API GeisSize
geis_error_count(Geis geis)
{
	return stack_of(geis)->count;
}

GEIS_API GeisStatus
geis_error_code(Geis geis, GeisSize index)
{
	struct geis_error_stack *s = stack_of(geis);

	if (index >= s->count)
		return GEIS_STATUS_BAD_ARGUMENT;
	return s->code[index];
}

GEIS_API GeisString
geis_error_message(Geis geis, GeisSize index)
{
	struct geis_error_stack *s = stack_of(geis);

	if (index >= s->count)
		return NULL;
	return s->msg[index];
}
