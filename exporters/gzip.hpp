// gzip (RFC 1952) of a whole buffer with libdeflate, for bodies rendered once and served many times.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace xcvr::exporters {

// nullopt if compression fails. Level 1 (fastest): the body is compressed once per snapshot, on the
// scrape path of the first scrape after a publish.
std::optional<std::string> gzip_compress(std::string_view data, int level = 1);

// True if an Accept-Encoding header value admits gzip ("gzip", "gzip;q=0.5", "*"; not "gzip;q=0").
bool accepts_gzip(std::string_view accept_encoding);

}  // namespace xcvr::exporters
