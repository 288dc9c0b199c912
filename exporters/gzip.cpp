#include "exporters/gzip.hpp"

#include <libdeflate.h>

#include <cstdlib>
#include <memory>

namespace xcvr::exporters {

// libdeflate, not zlib: on the /metrics body it is faster at level 1 and compresses smaller
// (docs/benchmarks.md, "gzip floor"), and it compresses a whole buffer in one call, which is all
// a body rendered once needs.
std::optional<std::string> gzip_compress(std::string_view data, int level) {
  struct Free {
    void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
  };
  // One compressor per thread and level, kept: allocating one costs more than compressing a
  // small body.
  thread_local int kept_level = -1;
  thread_local std::unique_ptr<libdeflate_compressor, Free> compressor;
  if (!compressor || kept_level != level) {
    compressor.reset(libdeflate_alloc_compressor(level));
    kept_level = level;
  }
  if (!compressor) return std::nullopt;
  // Into an uninitialized buffer of the worst-case size, then only the bytes written are copied:
  // the bound is about the body's size (24 MB at 2048 ports), and zero-filling it would touch
  // every page of it where libdeflate writes only the compressed ~4 %.
  const std::size_t bound = libdeflate_gzip_compress_bound(compressor.get(), data.size());
  const std::unique_ptr<char[]> buffer(new char[bound]);
  const std::size_t n = libdeflate_gzip_compress(compressor.get(), data.data(), data.size(), buffer.get(), bound);
  if (n == 0) return std::nullopt;
  return std::string(buffer.get(), n);
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool equals_nocase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  }
  return true;
}

}  // namespace

bool accepts_gzip(std::string_view header) {
  while (!header.empty()) {
    const auto comma = header.find(',');
    std::string_view item = trim(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
    std::string_view params;
    if (const auto semi = item.find(';'); semi != std::string_view::npos) {
      params = trim(item.substr(semi + 1));
      item = trim(item.substr(0, semi));
    }
    if (!equals_nocase(item, "gzip") && item != "*") continue;
    if (params.size() > 2 && (params[0] | 0x20) == 'q' && params[1] == '=') {
      return std::strtod(std::string(params.substr(2)).c_str(), nullptr) > 0;
    }
    return true;
  }
  return false;
}

}  // namespace xcvr::exporters
