// SPDX-License-Identifier: Apache-2.0
// `lqemu run` with `run.study: network`: the network layer on its own
// (decision 0009) — a topology's routers joined by ideal slot channels,
// synthetic traffic at an offered load in flits per node per cycle, and the
// figures cycle-level network simulators report: latency in cycles and
// accepted throughput in flits per node per cycle, measured after a
// warm-up, with a deadlock watchdog.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "systemc/app/key_usage.h"
#include "systemc/app/run_command.h"
#include "systemc/common/param.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/router.h"

namespace lq::app {

// The keys only the network study reads: router.*, net.*, the ideal
// link's latency and the run's length in cycles.
std::vector<ParamSpec> NetworkStudyParamSpecs();

// The workloads it runs: traffic and the collectives.
std::vector<std::string> NetworkWorkloadNames();

// The router.* and net.* keys ScenarioRouterConfig reads, with
// link.profile, but for router.clock_ghz and router.vc_buffer_flits.
void UseRouterPipelineKeys(const ParamSet& params, KeyUsage& usage);
// Every key ScenarioRouterConfig reads.
void UseRouterKeys(const ParamSet& params, KeyUsage& usage);

// The keys the study reads with these settings (the Study registry's).
KeyUsage NetworkStudyKeys(const ParamSet& params);

// ValidateNetworkStudy, and the options the study refuses (--pcap,
// --trace).
std::optional<std::string> CheckNetworkStudy(const ParamSet& params,
                                             const RunOptions& options);

// Checks what the key ranges cannot (VC counts against the routing
// function, a topology the study can build); returns why not, or nothing.
std::optional<std::string> ValidateNetworkStudy(const ParamSet& params);

// The routers' configuration the router.* and net.* keys give, with the
// link profile's slot size; fails on one net::RouterConfigProblem refuses.
Result<net::RouterConfig> ScenarioRouterConfig(
    const ParamSet& params,
    std::shared_ptr<const topo::RoutingFunction> routing);

// A network interface that matches `router` (VCs, TC map, slots, clock).
net::NetworkInterfaceConfig InterfaceFor(const net::RouterConfig& router);

// Runs the study and ends the process with its exit status (0, or 1 on a
// deadlock, a dropped packet or an output not written) once every output
// is written, skipping the model's teardown (process_exit.h).
int RunNetworkStudy(const ParamSet& params, const RunOptions& options);

}  // namespace lq::app
