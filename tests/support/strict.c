/*
 * Every C test program is strict about client bugs (test-support.h): a
 * "client bug:" message the test did not announce fails it.  Linked whole
 * into every program that uses cmocka_dep (tests/support/meson.build), so
 * that no test can forget it; so is the log recorder that tests of log
 * handlers install (ut_test_log_record()).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "test-support.h"
#include "util/log.h"

static unsigned int client_bugs_allowed, client_bugs_seen;

static void
on_client_bug(void *data, const char *message)
{
	(void)data;
	client_bugs_seen++;
	if (client_bugs_allowed > 0) {
		client_bugs_allowed--;
		return;
	}
	fail_msg("unexpected %s (a test that passes bad arguments on purpose says so with "
		 "ut_test_expect_client_bugs() or UT_EXPECT_CLIENT_BUG())", message);
}

/* Before main(): every test program linked with this file is strict. */
__attribute__((constructor)) static void
install_client_bug_hook(void)
{
	ut_log_set_client_bug_hook(on_client_bug, NULL);
}

void
ut_test_expect_client_bugs(unsigned int n)
{
	client_bugs_allowed = n;
}

unsigned int
ut_test_client_bugs_seen(void)
{
	return client_bugs_seen;
}

void
ut_test_log_record(void *data, int level, const char *msg)
{
	struct ut_test_log *log = data;

	log->n++;
	log->level = level;
	snprintf(log->msg, sizeof(log->msg), "%s", msg ? msg : "(null)");
}
