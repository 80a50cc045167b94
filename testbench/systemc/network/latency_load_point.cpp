// One point of a latency-versus-offered-load curve: a torus of routers
// joined by ideal channels (systemc/network/Network), uniform random
// single-slot packets at a given offered load, run for a number of cycles.
// Prints one CSV line; scripts/latency-load runs it over a sweep of loads
// (one process per point: SystemC elaborates once per process).
//
//   latency_load_point DIMS LOAD CYCLES
//   -> dims,offered,accepted,latency_mean_ns,latency_p99_ns,hops_mean
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <systemc>
#include <vector>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/network/network.h"

int sc_main(int argc, char* argv[]) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s DIMS LOAD CYCLES (e.g. 4x4x4 0.3 20000)\n",
                 argv[0]);
    return 2;
  }
  const std::string dims = argv[1];
  const double load = std::atof(argv[2]);
  const double cycles = std::atof(argv[3]);
  auto topology = lq::topo::CreateTopology("torus", {{"dims", dims}});
  if (!topology || load <= 0 || load > 1 || cycles < 100) {
    std::fprintf(stderr, "%s: bad DIMS, LOAD (0..1] or CYCLES (>= 100)\n",
                 argv[0]);
    return 2;
  }
  auto routing =
      lq::topo::CreateRouting("dor", *topology, {{"dateline", "on"}}).value();
  const uint32_t nodes = (*topology)->EndpointCount();
  std::shared_ptr<const lq::net::TrafficPattern> uniform =
      lq::net::CreateTrafficPattern("uniform", nodes, {}).value();

  lq::net::NetworkConfig config;
  config.traffic.packets_per_cycle = load;
  config.traffic.payload_bytes = 64;  // one slot with its header
  lq::net::Network network("network", *topology, std::move(routing), uniform,
                           config);
  sc_core::sc_start(sc_core::sc_time(cycles, sc_core::SC_NS));

  // Warm up for a quarter of the run; measure deliveries in the rest and
  // the latency of packets sent in the middle half.
  const double warm = cycles / 4;
  uint64_t delivered_in_window = 0;
  double hops = 0;
  std::vector<double> latencies;
  for (unsigned n = 0; n < nodes; ++n) {
    const auto& source = network.source(n);
    for (size_t i = 0; i < source.latencies_ns().size(); ++i) {
      const double sent = source.sent_ns()[i];
      const double arrived = sent + source.latencies_ns()[i];
      delivered_in_window += arrived >= warm;
      if (sent >= warm && sent < cycles - warm) {
        latencies.push_back(source.latencies_ns()[i]);
        hops += source.hops()[i];
      }
    }
  }
  std::sort(latencies.begin(), latencies.end());
  double mean = 0;
  for (double latency : latencies) {
    mean += latency;
  }
  const size_t count = latencies.size();
  mean = count ? mean / count : 0;
  const double p99 =
      count ? latencies[std::min(count - 1, count * 99 / 100)] : 0;
  const double accepted = delivered_in_window / (nodes * (cycles - warm));
  std::printf("%s,%.4f,%.4f,%.2f,%.2f,%.3f\n", dims.c_str(), load, accepted,
              mean, p99, count ? hops / count : 0);
  return 0;
}
