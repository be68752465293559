/*
 * Marking memory that a library keeps for reuse as unusable, for
 * AddressSanitizer: objects on a free list, chunks kept between handles.
 * ASan then reports a use of them as it reports a use after free().
 * Without ASan both macros do nothing.
 *
 * Header only (no state).
 */
#ifndef UTOUCH_UTIL_POISON_H
#define UTOUCH_UTIL_POISON_H

#if defined(__SANITIZE_ADDRESS__)
#define UT_HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UT_HAVE_ASAN 1
#endif
#endif

#ifdef UT_HAVE_ASAN
#include <sanitizer/asan_interface.h>
/** Mark N bytes at P as not to be used until ut_unpoison(). */
#define ut_poison(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
/** Mark N bytes at P as usable again. */
#define ut_unpoison(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define ut_poison(p, n) ((void)(p), (void)(n))
#define ut_unpoison(p, n) ((void)(p), (void)(n))
#endif

#endif
