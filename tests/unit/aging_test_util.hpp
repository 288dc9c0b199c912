// Shared by aging_state_test.cpp and aging_bounds_test.cpp: temp directories, log capture,
// a module report with lit lasers.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include "cmis/report.hpp"

namespace xcvr::daemon {
namespace fs = std::filesystem;

inline constexpr double kT0 = 1.7e9;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("xcvr-aging-" + std::to_string(::getpid()) + "-" +
                                               std::to_string(counter++));
  TempDir() { fs::create_directories(path); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  static inline int counter = 0;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void spit(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

inline std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Captures spdlog's default logger for the life of the object.
struct CapturedLog {
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> ring = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(10000);
  std::shared_ptr<spdlog::logger> previous = spdlog::default_logger();
  CapturedLog() {
    auto logger = std::make_shared<spdlog::logger>("capture", ring);
    logger->set_pattern("%l %v");
    logger->set_level(spdlog::level::info);
    spdlog::set_default_logger(logger);
  }
  ~CapturedLog() { spdlog::set_default_logger(previous); }
  std::vector<std::string> matching(const std::string& needle) const {
    std::vector<std::string> out;
    for (const std::string& l : ring->last_formatted()) {
      if (l.find(needle) != std::string::npos) out.push_back(l);
    }
    return out;
  }
  std::string all() const {
    std::string s;
    for (const std::string& l : ring->last_formatted()) s += l + "\n";
    return s;
  }
};

inline cmis::ModuleReport module(const std::string& serial, double bias = 0.0065, double power = 0.0011,
                          const std::string& part = "MMA4Z00-NS400") {
  cmis::ModuleReport r;
  r.id.serial = serial;
  r.id.vendor_name = "NVIDIA";
  r.id.part_number = part;
  for (int lane = 1; lane <= 4; ++lane) {
    cmis::LaneReport l;
    l.lane = lane;
    l.tx_bias_amperes = bias;
    l.tx_power_watts = power;
    r.lanes.push_back(l);
  }
  return r;
}

}  // namespace xcvr::daemon
