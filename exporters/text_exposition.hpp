// Prometheus text exposition format 0.0.4 for prometheus-cpp metric families, byte for byte what
// prometheus::TextSerializer (1.0.1) writes, without its per-token std::ostream cost: that was
// 10 ms per 64-port render on these machines, twice the scrape latency budget. The
// equivalence test (exporter_text_exposition_test) holds the two outputs equal.
#pragma once

#include <string>
#include <vector>

#include <prometheus/metric_family.h>

namespace xcvr::exporters {

std::string serialize_text(const std::vector<prometheus::MetricFamily>& families);

}  // namespace xcvr::exporters
