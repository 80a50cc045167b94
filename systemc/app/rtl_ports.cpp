// SPDX-License-Identifier: Apache-2.0
// link.rtl_ports: the keys, the list's parser, the cluster's RTL ports and
// their waveform files.
#include "systemc/app/rtl_ports.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "generated/cpp/lc_regs.h"
#include "models/link/ltssm.h"
#include "models/topology/params.h"
#include "systemc/cluster/link_port.h"
#include "systemc/link/lc_rtl_model.h"

namespace lq::app {
namespace {

uint64_t PsOfUs(double us) {
  return static_cast<uint64_t>(std::llround(us * 1e6));
}

}  // namespace

void UseRtlPortKeys(const ParamSet& params, KeyUsage& usage) {
  usage.Use("link.rtl_ports");
  usage.UseIf(!params.Text("link.rtl_ports").empty(),
              {"link.vcd_start_us", "link.vcd_length_us", "link.vcd_trigger"},
              "link.rtl_ports is empty: no port has a waveform");
}

std::vector<ParamSpec> RtlPortParamSpecs() {
  return {
      {"link.rtl_ports",
       "link controllers that are the Verilated RTL instead of the TL model "
       "(link.fidelity tlm, or lqemu board): NODE (all its ports) or "
       "NODE:PORT, comma-separated; their links (both ends) train at the RTL "
       "build's LTSSM time scale, 1e-4, the others at the run's",
       "",
       "",
       ParamType::kText,
       0,
       0,
       {}},
      {"link.vcd_start_us",
       "--vcd: simulated time at which the RTL ports' waveforms start",
       "0",
       "us",
       ParamType::kReal,
       0,
       1e6,
       {}},
      {"link.vcd_trigger",
       "--vcd: what opens the RTL ports' waveform windows, from "
       "link.vcd_start_us on: nothing (they open then), 'ltssm STATE' (a "
       "port's LTSSM in STATE, as traces name it: L0, Recovery.RcvrLock, "
       "...) or 'write REGISTER' (firmware writing that link controller "
       "register: CTRL, IRQ_ENABLE, ...)",
       "",
       "",
       ParamType::kText,
       0,
       0,
       {}},
      {"link.vcd_length_us",
       "--vcd: simulated time the RTL ports' waveforms cover (each takes "
       "about 5 MB per us)",
       "10",
       "us",
       ParamType::kReal,
       0.001,
       1e6,
       {}},
  };
}

Result<std::set<NodePort>> ParseRtlPorts(const std::string& text,
                                         uint32_t nodes,
                                         const PortCounter& ports_of) {
  std::set<NodePort> ports;
  if (text.empty()) {
    return ports;
  }
  if (nodes == 0) {
    return Fail("there are no nodes");
  }
  std::istringstream entries(text);
  std::string entry;
  while (std::getline(entries, entry, ',')) {
    const size_t colon = entry.find(':');
    const auto node =
        topo::ParseUnsigned("node", entry.substr(0, colon), 0, nodes - 1);
    if (!node) {
      return Fail("\"" + entry + "\": " + node.error().reason);
    }
    const uint32_t count = ports_of(*node);
    if (count == 0) {
      return Fail("\"" + entry + "\": node " + std::to_string(*node) +
                  " has no ports");
    }
    uint32_t first = 0;
    uint32_t end = count;
    if (colon != std::string::npos) {
      const auto port =
          topo::ParseUnsigned("port", entry.substr(colon + 1), 0, count - 1);
      if (!port) {
        return Fail("\"" + entry + "\": " + port.error().reason);
      }
      first = *port;
      end = first + 1;
    }
    for (uint32_t port = first; port < end; ++port) {
      if (!ports.emplace(*node, port).second) {
        return Fail("\"" + entry + "\": port " + std::to_string(port) +
                    " of node " + std::to_string(*node) + " is named twice");
      }
    }
  }
  if (text.back() == ',') {
    return Fail("an empty entry after the last comma");
  }
  return ports;
}

Result<std::set<NodePort>> ScenarioRtlPorts(const ParamSet& params,
                                            uint32_t nodes,
                                            const PortCounter& ports_of) {
  auto ports = ParseRtlPorts(params.Text("link.rtl_ports"), nodes, ports_of);
  if (!ports) {
    return Fail("link.rtl_ports: " + ports.error().reason);
  }
  if (ports->empty()) {
    return ports;
  }
  if (!cluster::RtlPortsBuilt()) {
    return Fail(
        "link.rtl_ports: this lqemu was built without the Verilated link "
        "controller (cmake -DLQ_RTL=ON builds it)");
  }
  if (params.Text("link.profile") != "pcie6") {
    return Fail(
        "link.rtl_ports: the Verilated link controller is built for "
        "link.profile pcie6");
  }
  if (auto trigger = ParseVcdTrigger(params.Text("link.vcd_trigger"));
      !trigger) {
    return Fail("link.vcd_trigger: " + trigger.error().reason);
  }
  return ports;
}

Result<link::LcWaveform> ParseVcdTrigger(const std::string& text) {
  link::LcWaveform waveform;
  if (text.empty()) {
    return waveform;
  }
  std::istringstream words(text);
  std::string kind, name, extra;
  words >> kind >> name >> extra;
  const std::string expected =
      "expected 'ltssm STATE' or 'write REGISTER', got \"" + text + "\"";
  if (name.empty() || !extra.empty()) {
    return Fail(expected);
  }
  if (kind == "ltssm") {
    std::string states;
    for (unsigned s = 0;
         s <= static_cast<unsigned>(link::LtssmState::kRecoveryIdle); ++s) {
      const std::string state =
          link::LtssmStateName(static_cast<link::LtssmState>(s));
      if (state == name) {
        waveform.open_on_ltssm = s;
        return waveform;
      }
      states += (states.empty() ? "" : ", ") + state;
    }
    return Fail("no LTSSM state \"" + name + "\" (" + states + ")");
  }
  if (kind == "write") {
    std::string names;
    for (const regs::Register& reg : regs::lc::kRegisters) {
      if (reg.name == name) {
        waveform.open_on_write = reg.offset;
        return waveform;
      }
      names += (names.empty() ? "" : ", ") + std::string(reg.name);
    }
    return Fail("no link controller register \"" + name + "\" (" + names + ")");
  }
  return Fail(expected);
}

void PlaceRtlPorts(const std::set<NodePort>& ports, const ParamSet& params,
                   const std::string& vcd_path,
                   cluster::ClusterConfig& config) {
  if (ports.empty()) {
    return;
  }
  config.port.controller.ltssm_time_scale = link::kLcRtlLtssmTimeScale;
  const double start_us = params.Real("link.vcd_start_us");
  const link::LcWaveform triggered =
      ParseVcdTrigger(params.Text("link.vcd_trigger")).value();
  for (const NodePort& port : ports) {
    link::RtlLinkControllerConfig& rtl = config.rtl_ports[port];
    if (!vcd_path.empty()) {
      rtl.waveform = triggered;
      rtl.waveform.vcd_path = RtlPortVcdPath(vcd_path, port);
      rtl.waveform.from_ps = PsOfUs(start_us);
      rtl.waveform.until_ps =
          PsOfUs(start_us + params.Real("link.vcd_length_us"));
    }
  }
}

std::string DescribeRtlTraining(const std::set<NodePort>& ports,
                                double time_scale) {
  std::string named;
  for (const NodePort& port : ports) {
    named += (named.empty() ? "" : ", ") + std::string("node ") +
             std::to_string(port.first) + " port " +
             std::to_string(port.second);
  }
  std::ostringstream text;
  text << "RTL ports (" << named
       << ") and their far ends train at the RTL build's LTSSM time scale, "
       << link::kLcRtlLtssmTimeScale
       << ": their links reach L0 within microseconds of CTRL.ENABLE, "
          "perhaps before the firmware has enabled interrupts; ";
  if (time_scale == link::kLcRtlLtssmTimeScale) {
    text << "so do the other links (--ltssm-time-scale gives them another)";
  } else {
    text << "the other links train at " << time_scale;
  }
  return text.str();
}

std::optional<std::string> CheckRtlWaveforms(const std::set<NodePort>& ports,
                                             const std::string& vcd_path) {
  if (ports.empty()) {
    return std::string(
        "only link controllers at RTL fidelity have waveforms: name them in "
        "link.rtl_ports");
  }
  for (const NodePort& port : ports) {
    const std::string path = RtlPortVcdPath(vcd_path, port);
    if (!std::ofstream(path)) {
      return "cannot write " + path;
    }
  }
  return std::nullopt;
}

std::string RtlPortVcdPath(const std::string& path, const NodePort& port) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  const bool has_extension =
      dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string stem = has_extension ? path.substr(0, dot) : path;
  const std::string extension = has_extension ? path.substr(dot) : "";
  return stem + ".node" + std::to_string(port.first) + ".port" +
         std::to_string(port.second) + extension;
}

}  // namespace lq::app
