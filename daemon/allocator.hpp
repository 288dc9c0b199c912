// The daemon's glibc allocator policy. The live heap is small and flat (5-10 MB at 72 ports,
// heaptrack over a soak), but glibc gives each of the ~25 threads (bus domains, HTTP workers)
// its own arena and freed chunks stay resident in every one: RSS crept ~0.3 MiB/min in the soak
// with no live growth. Two arenas plus a periodic trim keep RSS following the live heap; the
// threads mostly wait on buses, so arena contention is nil.
#pragma once

#include <malloc.h>

namespace xcvr::daemon {

inline void limit_allocator_arenas() { mallopt(M_ARENA_MAX, 2); }  // before any thread starts
inline void return_free_heap_to_os() { malloc_trim(0); }

constexpr double kHeapTrimIntervalSeconds = 30;

}  // namespace xcvr::daemon
