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

void *
__wrap_malloc(size_t size)
{
	heap_calls++;
	return __real_malloc(size);
}

void *
__wrap_calloc(size_t n, size_t size)
{
	heap_calls++;
	return __real_calloc(n, size);
}

void *
__wrap_realloc(void *ptr, size_t size)
{
	heap_calls++;
	return __real_realloc(ptr, size);
}

uint64_t
ut_test_heap_calls(void)
{
	return heap_calls;
}
