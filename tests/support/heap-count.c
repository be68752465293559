/*
 * The link-time heap wrappers behind heap-count.h.
 */
#include <stddef.h>

#include "heap-count.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *ptr, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *ptr, size_t size);

static _Thread_local uint64_t heap_calls;
/* calls until the one that fails (0: none fails), and the failures so far */
static _Thread_local uint64_t fail_countdown;
static _Thread_local uint64_t heap_failures;

/* Whether this call is the one ut_test_heap_fail_at() asked to fail. */
static int
this_call_fails(void)
{
	heap_calls++;
	if (fail_countdown == 0 || --fail_countdown > 0)
		return 0;
	heap_failures++;
	return 1;
}

void *
__wrap_malloc(size_t size)
{
	return this_call_fails() ? NULL : __real_malloc(size);
}

void *
__wrap_calloc(size_t n, size_t size)
{
	return this_call_fails() ? NULL : __real_calloc(n, size);
}

void *
__wrap_realloc(void *ptr, size_t size)
{
	return this_call_fails() ? NULL : __real_realloc(ptr, size);
}

uint64_t
ut_test_heap_calls(void)
{
	return heap_calls;
}

void
ut_test_heap_fail_at(uint64_t n)
{
	fail_countdown = n;
}

uint64_t
ut_test_heap_failures(void)
{
	return heap_failures;
}

uint64_t
ut_test_heap_sweep(void (*run)(void *data, uint64_t fail_at), void *data)
{
	for (uint64_t k = 1;; k++) {
		uint64_t failures = heap_failures;
		run(data, k);
		if (heap_failures == failures)
			return k - 1; /* the run made fewer than k calls */
	}
}
