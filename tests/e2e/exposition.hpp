// A strict little reader of the Prometheus text format, for tests: samples with their labels,
// and HELP/TYPE per family. Throws std::runtime_error on a line it cannot read.
#pragma once

#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xcvr::testing {

struct Sample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
  std::string raw_value;
};

struct Exposition {
  std::vector<Sample> samples;
  std::map<std::string, std::string> help;  // family -> HELP text
  std::map<std::string, std::string> type;  // family -> TYPE

  std::vector<Sample> find(const std::string& name,
                           const std::map<std::string, std::string>& labels = {}) const {
    std::vector<Sample> out;
    for (const auto& s : samples) {
      if (s.name != name) continue;
      bool match = true;
      for (const auto& [k, v] : labels) {
        auto it = s.labels.find(k);
        if (it == s.labels.end() || it->second != v) match = false;
      }
      if (match) out.push_back(s);
    }
    return out;
  }
  std::optional<double> value(const std::string& name,
                              const std::map<std::string, std::string>& labels = {}) const {
    const auto found = find(name, labels);
    if (found.size() != 1) return std::nullopt;
    return found.front().value;
  }
  std::size_t count_with_label(const std::string& key, const std::string& value) const {
    std::size_t n = 0;
    for (const auto& s : samples) {
      auto it = s.labels.find(key);
      if (it != s.labels.end() && it->second == value) ++n;
    }
    return n;
  }
};

inline std::string read_label_value(const std::string& line, std::size_t& i) {
  if (line.at(i) != '"') throw std::runtime_error("expected '\"': " + line);
  std::string v;
  for (++i; i < line.size() && line[i] != '"'; ++i) {
    if (line[i] == '\\') {
      const char e = line.at(++i);
      v += e == 'n' ? '\n' : e;
    } else {
      v += line[i];
    }
  }
  if (i >= line.size()) throw std::runtime_error("unterminated label value: " + line);
  ++i;
  return v;
}

inline Sample parse_sample(const std::string& line) {
  Sample s;
  std::size_t i = line.find_first_of("{ ");
  if (i == std::string::npos) throw std::runtime_error("no value: " + line);
  s.name = line.substr(0, i);
  if (line[i] == '{') {
    ++i;
    while (line.at(i) != '}') {
      const auto eq = line.find('=', i);
      const std::string key = line.substr(i, eq - i);
      i = eq + 1;
      s.labels[key] = read_label_value(line, i);
      if (line.at(i) == ',') ++i;
    }
    ++i;
  }
  if (line.at(i) != ' ') throw std::runtime_error("expected space: " + line);
  s.raw_value = line.substr(i + 1);
  if (s.raw_value.find(' ') != std::string::npos) throw std::runtime_error("timestamp: " + line);
  s.value = std::strtod(s.raw_value.c_str(), nullptr);
  return s;
}

inline Exposition parse_exposition(std::string_view text) {
  Exposition e;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) {
      const auto sp = line.find(' ', 7);
      const std::string family = line.substr(7, sp - 7);
      auto& map = line[2] == 'H' ? e.help : e.type;
      if (map.count(family) != 0) throw std::runtime_error("second HELP/TYPE: " + line);
      map[family] = line.substr(sp + 1);
      continue;
    }
    if (line[0] == '#') continue;
    e.samples.push_back(parse_sample(line));
  }
  return e;
}

}  // namespace xcvr::testing
