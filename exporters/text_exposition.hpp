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

// One sample value as TextSerializer writes it ("%.16g"; "Nan", "+Inf", "-Inf"). The scrape
// benchmark's render floor formats values with it too, so the floor formats exactly as much.
void append_sample_value(std::string& out, double value);

}  // namespace xcvr::exporters
