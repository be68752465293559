/*
 * Counting the heap calls of the code under test (heap_count_dep).
 *
 * A test linked with heap_count_dep has malloc, calloc and realloc wrapped
 * at link time (-Wl,--wrap): every call made by the objects linked into
 * the test executable, the static archives of the libraries included,
 * goes through a counter of the calling thread.  Calls made inside shared
 * libraries (libc, cmocka) are not counted.
 */
#ifndef UTOUCH_TEST_HEAP_COUNT_H
#define UTOUCH_TEST_HEAP_COUNT_H

#include <stdint.h>

/** malloc + calloc + realloc calls of the calling thread so far. */
uint64_t ut_test_heap_calls(void);

#endif
