// The daemon's glibc allocator policy. The live heap is small and flat (5-10 MB at 72 ports,
// heaptrack over a soak), but glibc gives each of the ~25 threads (bus domains, HTTP workers)
// its own arena and freed chunks stay resident in every one: RSS crept ~0.3 MiB/min in the soak
// with no live growth. Two arenas plus a periodic trim keep RSS following the live heap; the
// threads mostly wait on buses, so arena contention is nil.
//
// Free memory goes back to the OS by that trim only, not by every free: a render builds a
// body-sized buffer (0.75 MB at 64 ports, 24 MB at 2048) per snapshot, and glibc's defaults
// (mmap above 128 kB, trim the heap top above twice that) returned and re-faulted it on every
// render. A page fault costs ~8 µs on these VMs: ~300 per 64-port render tripled its CPU
// (docs/benchmarks.md, "Scrape cost").
#pragma once

#include <malloc.h>

namespace xcvr::daemon {

constexpr int kMmapThresholdBytes = 32 << 20;  // glibc's maximum: larger blocks are still mmapped

inline void apply_allocator_policy() {  // before any thread starts
  mallopt(M_ARENA_MAX, 2);
  mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
  mallopt(M_TRIM_THRESHOLD, -1);  // never trim on free: return_free_heap_to_os() does, periodically
}
inline void return_free_heap_to_os() { malloc_trim(0); }

constexpr double kHeapTrimIntervalSeconds = 30;

}  // namespace xcvr::daemon
