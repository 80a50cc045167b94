// SPDX-License-Identifier: Apache-2.0
// link.rtl_ports: the link controllers of a run of boards (`lqemu run` with
// workload.name remote_access, or `lqemu board`) that are the Verilated
// RTL rather than the TL model (DESIGN §2: fidelity is chosen per link
// controller), and the waveforms --vcd writes of them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/common/result.h"
#include "systemc/app/key_usage.h"
#include "systemc/cluster/cluster.h"
#include "systemc/common/param.h"
#include "systemc/link/lc_rtl_model.h"

namespace lq::app {

// A port of a cluster: (node index, port).
using NodePort = std::pair<uint32_t, uint32_t>;
// The number of ports of a node.
using PortCounter = std::function<uint32_t(uint32_t node)>;

// The link.rtl_ports and link.vcd_* keys.
std::vector<ParamSpec> RtlPortParamSpecs();

// link.rtl_ports, and with RTL ports the keys of their waveforms.
void UseRtlPortKeys(const ParamSet& params, KeyUsage& usage);

// A link.rtl_ports value: comma-separated entries, each "NODE" (every port
// of that node) or "NODE:PORT", naming nodes below `nodes` and their ports,
// each port once. Empty for "".
Result<std::set<NodePort>> ParseRtlPorts(const std::string& text,
                                         uint32_t nodes,
                                         const PortCounter& ports_of);

// The scenario's link.rtl_ports, also checked against what the Verilated
// controller is built for (link.profile pcie6) and against this build.
Result<std::set<NodePort>> ScenarioRtlPorts(const ParamSet& params,
                                            uint32_t nodes,
                                            const PortCounter& ports_of);

// A link.vcd_trigger value: "" (none: the window opens at
// link.vcd_start_us), "ltssm STATE" (a state as traces name it, e.g.
// "ltssm Recovery.RcvrLock") or "write REGISTER" (a link controller
// register, e.g. "write CTRL"). A waveform with that trigger set.
Result<link::LcWaveform> ParseVcdTrigger(const std::string& text);

// Puts `ports` at RTL fidelity in `config`, and every link of the cluster
// at the RTL build's LTSSM time scale. A caller may then give the other
// links another scale: the cluster keeps the RTL ports' far ends at the
// RTL's, so that both ends of a link keep one (DLL-6.2). With a
// `vcd_path`, each RTL port writes its waveform
// (RtlPortVcdPath) over the window link.vcd_start_us and link.vcd_length_us
// give, opened by link.vcd_trigger if it names one (which ScenarioRtlPorts
// has checked).
void PlaceRtlPorts(const std::set<NodePort>& ports, const ParamSet& params,
                   const std::string& vcd_path, cluster::ClusterConfig& config);

// What firmware will see of link training with RTL `ports` in a run whose
// other links train at `time_scale`: "RTL ports node 0 port 1 and their
// far ends train at LTSSM time scale 1e-4 ...".
std::string DescribeRtlTraining(const std::set<NodePort>& ports,
                                double time_scale);

// Whether `--vcd vcd_path` can write a waveform for each of `ports`, and
// there is one; returns why not.
std::optional<std::string> CheckRtlWaveforms(const std::set<NodePort>& ports,
                                             const std::string& vcd_path);

// The waveform file of one RTL port for `--vcd path`: `path` with
// ".nodeN.portP" before its extension ("w.vcd" -> "w.node0.port2.vcd").
std::string RtlPortVcdPath(const std::string& path, const NodePort& port);

}  // namespace lq::app
