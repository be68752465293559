/*
 * Counting the heap calls of the code under test (heap_count_dep).
 *
 * A test linked with heap_count_dep has malloc, calloc and realloc wrapped
 * at link time (-Wl,--wrap): every call made by the objects linked into
 * the test executable, the static archives of the libraries included,
 * goes through a counter of the calling thread, and one of them can be
 * made to fail (ut_test_heap_fail_at()).  Calls made inside shared
 * libraries (libc, cmocka) are neither counted nor failed.
 */
#ifndef UTOUCH_TEST_HEAP_COUNT_H
#define UTOUCH_TEST_HEAP_COUNT_H

#include <stdint.h>

/** malloc + calloc + realloc calls of the calling thread so far. */
uint64_t ut_test_heap_calls(void);

/**
 * Make the @p n-th heap call of the calling thread from now on fail (return
 * NULL, leaving a realloc'd block as it was), once; 0 cancels.  The calls
 * still count in ut_test_heap_calls().
 */
void ut_test_heap_fail_at(uint64_t n);

/** Heap calls of the calling thread made to fail so far. */
uint64_t ut_test_heap_failures(void);

/**
 * An out-of-memory sweep: @p run(@p data, k) for k = 1, 2, ..., each run
 * meant to call ut_test_heap_fail_at(k) before the code under test (and
 * to check what it must), until a run makes fewer than k heap calls, so
 * that every call of the code was made to fail once.
 *
 * @return the runs in which a call failed
 */
uint64_t ut_test_heap_sweep(void (*run)(void *data, uint64_t fail_at), void *data);

#endif
