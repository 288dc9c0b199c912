#include "cmis/report_json.hpp"

#include "cmis/quantities.hpp"

namespace xcvr::cmis {
namespace {

using nlohmann::json;

json coded(const Coded& c) { return json{{"code", c.code}, {"name", c.name}}; }

template <typename T>
void put(json& j, const char* key, const std::optional<T>& value) {
  if (value) j[key] = *value;
}
void put(json& j, std::string_view key, const std::optional<double>& value) {
  if (value) j[std::string(key)] = *value;
}
void put(json& j, const char* key, const std::optional<Coded>& value) {
  if (value) j[key] = coded(*value);
}
void put(json& j, const char* key, const std::string& value) {
  if (!value.empty()) j[key] = value;
}

json thresholds(const Thresholds& t) {
  json j = json::object();
  put(j, "high_alarm", t.high_alarm);
  put(j, "high_warning", t.high_warning);
  put(j, "low_warning", t.low_warning);
  put(j, "low_alarm", t.low_alarm);
  return j;
}

json vendor(const Identity& id) {
  json j = json::object();
  put(j, "name", id.vendor_name);
  put(j, "oui", id.vendor_oui);
  put(j, "part_number", id.part_number);
  put(j, "revision", id.revision);
  put(j, "serial", id.serial);
  put(j, "date_code", id.date_code);
  put(j, "clei", id.clei);
  return j;
}

json module(const ModuleReport& r) {
  json j = json::object();
  for (const QuantitySpec& q : kQuantities) {
    if (!q.per_lane()) put(j, q.key, r.*q.module_value);
  }
  if (r.module_state) j["state"] = r.module_state->name;
  put(j, "fault_cause", r.module_fault_cause);
  put(j, "low_power", r.low_power);
  put(j, "active_application", r.active_application);
  put(j, "power_class", r.power_class);
  put(j, "max_power_watts", r.max_power_watts);
  put(j, "firmware", r.id.firmware);
  put(j, "inactive_firmware", r.id.inactive_firmware);
  put(j, "hardware_revision", r.id.hardware_revision);
  j["flat_memory"] = r.flat_memory;
  put(j, "media_type", r.media_type);
  put(j, "connector", r.connector);
  put(j, "media_interface_technology", r.media_interface_technology);
  put(j, "extended_compliance", r.extended_compliance);
  put(j, "cable_length_meters", r.cable_length_meters);
  put(j, "wavelength_meters", r.wavelength_meters);
  if (!r.lengths_meters.empty()) j["lengths_meters"] = r.lengths_meters;
  put(j, "rx_power_type", r.rx_power_type);
  put(j, "tx_bias_multiplier", r.tx_bias_multiplier);
  j["flags"] = r.module_flags;
  const Implemented& im = r.implemented;
  j["monitors_implemented"] = {{"temperature", im.temperature}, {"supply_voltage", im.supply_voltage},
                               {"rx_power", im.rx_power}, {"tx_power", im.tx_power},
                               {"tx_bias", im.tx_bias}};
  return j;
}

json lane(const LaneReport& l) {
  json j{{"lane", l.lane}};
  for (const QuantitySpec& q : kQuantities) {
    if (q.per_lane()) put(j, q.key, l.*q.lane_value);
  }
  put(j, "data_path_state", l.data_path_state);
  put(j, "data_path", l.data_path);
  j["flags"] = l.flags;
  return j;
}

json application(const Application& a) {
  json j{{"index", a.index},
         {"host_interface", coded(a.host_interface)},
         {"media_interface", coded(a.media_interface)},
         {"host_lane_count", a.host_lane_count},
         {"media_lane_count", a.media_lane_count},
         {"host_lane_assignment", a.host_lane_assignment}};
  put(j, "media_lane_assignment", a.media_lane_assignment);
  return j;
}

}  // namespace

nlohmann::json to_json(const ModuleReport& r) {
  json j;
  j["identifier"] = coded(r.id.identifier);
  j["spec"] = std::string(spec_name(r.spec));
  j["spec_revision"] = r.spec_revision;
  j["vendor"] = vendor(r.id);
  j["module"] = module(r);
  j["lanes"] = json::array();
  for (const LaneReport& l : r.lanes) j["lanes"].push_back(lane(l));
  j["thresholds"] = json::object();
  for (const auto& [key, t] : r.thresholds) j["thresholds"][key] = thresholds(t);
  j["applications"] = json::array();
  for (const Application& a : r.applications) j["applications"].push_back(application(a));
  j["vdm"] = json::array();
  for (const VdmObservable& o : r.vdm) {
    json v = {{"type_id", o.type_id}, {"name", o.name()},      {"lane", o.lane},
              {"value", o.value},     {"unit", o.unit()},      {"statistic", o.statistic()},
              {"threshold_set", o.threshold_set},            {"flags", json::array()}};
    for (const std::string_view level : o.flags) v["flags"].push_back(level);
    if (!o.quantity().empty()) v["quantity"] = o.quantity();
    if (!o.qualifier().empty()) v["qualifier"] = o.qualifier();
    if (o.thresholds) v["thresholds"] = thresholds(*o.thresholds);
    j["vdm"].push_back(std::move(v));
  }
  j["checksums"] = json::array();
  for (const Checksum& c : r.checksums) {
    j["checksums"].push_back({{"page", c.page}, {"range", c.range}, {"stored", c.stored},
                              {"computed", c.computed}, {"ok", c.ok()}});
  }
  j["missing_pages"] = r.missing_pages;
  j["problems"] = r.problems;
  return j;
}

}  // namespace xcvr::cmis
