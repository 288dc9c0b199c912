#include "dumpfile/file_transport.hpp"

#include <algorithm>
#include <cstdio>

#include "dumpfile/dump_parser.hpp"

namespace xcvr::dumpfile {

std::variant<std::unique_ptr<FileTransport>, drivers::Error> FileTransport::open(const std::string& path) {
  auto parsed = parse_file(path);
  if (auto* err = std::get_if<ParseError>(&parsed)) return drivers::Error{drivers::ErrorKind::Corrupt, err->message};
  return std::make_unique<FileTransport>(path, std::move(std::get<ParsedDump>(parsed).image));
}

FileTransport::FileTransport(std::string path, cmis::ModuleImage image)
    : path_(std::move(path)), image_(std::move(image)) {}

std::optional<drivers::Error> FileTransport::read(const drivers::ReadRequest& r, std::span<uint8_t> out) {
  if (!drivers::request_fits(r, out.size())) {
    return drivers::bad_request(r, drivers::describe_read(describe(), r.device, r.bank, r.page, r.offset));
  }
  const bool lower = r.offset < cmis::kPageSize;
  const cmis::PageKey key{r.device, lower ? uint8_t{0} : r.bank,
                          lower ? cmis::kLowerPage : static_cast<int16_t>(r.page)};
  const auto* entry = image_.find(key);
  if (entry == nullptr) {
    return drivers::Error{drivers::ErrorKind::Unsupported,
                          describe() + ": page " + cmis::page_name(key) + " is not in the dump"};
  }
  const uint16_t base = lower ? 0 : cmis::kPageSize;
  std::copy_n(entry->bytes.begin() + (r.offset - base), r.length, out.begin());
  counters_.bytes += r.length;
  ++counters_.transactions;
  return std::nullopt;
}

}  // namespace xcvr::dumpfile
