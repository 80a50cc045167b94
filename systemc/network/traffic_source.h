// SPDX-License-Identifier: Apache-2.0
// TrafficSource: a synthetic workload behind one node's network interface
// (which it contains, and whose socket binds to the router's local port):
// packets of a fixed size to destinations from a traffic pattern, injected
// as a Bernoulli process at a rate in packets per cycle, seeded. Each
// packet carries its injection time, so the receiving source measures its
// latency (creation to delivery, source queueing included).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <systemc>
#include <vector>

#include "models/network/traffic_pattern.h"
#include "systemc/network/network_interface.h"

namespace lq::net {

struct TrafficConfig {
  double packets_per_cycle = 0.01;  // offered load per node
  uint16_t payload_bytes = 64;
  uint64_t packets = 0;  // to send; 0: until the simulation ends
  uint8_t tc = 0;
  double clock_ns = 1.0;
  uint64_t seed = 1;
  sc_core::sc_time start;  // first injection no earlier than this
  sc_core::sc_time stop;   // no injection from then on (zero: no end)
};

class TrafficSource : public sc_core::sc_module {
 public:
  TrafficSource(const sc_core::sc_module_name& name,
                const NetworkInterfaceConfig& interface,
                const TrafficConfig& config,
                std::shared_ptr<const TrafficPattern> pattern);

  link::SlotSocket& socket() { return ni_.socket; }
  NetworkInterface& interface() { return ni_; }
  const NetworkInterface& interface() const { return ni_; }
  // The node failed: no more packets until Resume().
  void Stop() { halted_ = true; }
  // The node came back (NET-7.12): packets again, from the next trial on
  // (its interface holds them until the fabric manager resumes it).
  void Resume();
  // Sends one packet now, on behalf of a workload beyond the synthetic
  // one (a collective): its payload is the injection stamp, then `body`.
  // Counted and measured as the source's own.
  void Send(uint32_t dst, ByteView body);
  // Called with every packet delivered here, after it is measured.
  void SetDeliveryHook(std::function<void(const Delivered&)> hook) {
    on_delivery_ = std::move(hook);
  }
  // Bytes of a payload the source itself uses: the injection stamp (ps,
  // little-endian) that latencies are measured from.
  static constexpr size_t kStampBytes = 8;

  uint64_t sent() const { return sent_; }
  // True once every packet of a finite run has left for the router (at
  // once for a source that offers no load).
  bool finished() const {
    const bool done_sending =
        halted_ || stopped_ ||
        (config_.packets != 0 && sent_ >= config_.packets);
    return config_.packets_per_cycle <= 0 ||
           (done_sending && ni_.pending_bytes() == 0);
  }
  // Latencies (ns), send times (ns), hop counts, sources and routing
  // epochs of the packets delivered here, in delivery order.
  const std::vector<double>& latencies_ns() const { return latencies_ns_; }
  const std::vector<double>& sent_ns() const { return sent_ns_; }
  const std::vector<uint8_t>& hops() const { return hops_; }
  const std::vector<uint16_t>& sources() const { return sources_; }
  const std::vector<uint8_t>& epochs() const { return epochs_; }

 private:
  void start_of_simulation() override;
  void Inject();  // SC_METHOD: one packet, then the next injection time
  // Sends `payload` once its first kStampBytes hold the stamp of now.
  void SendStamped(uint32_t dst, Bytes payload);
  void OnDelivery(const Delivered& delivered);
  void ScheduleNext();

  uint16_t node_;
  TrafficConfig config_;
  std::shared_ptr<const TrafficPattern> pattern_;
  NetworkInterface ni_;
  std::mt19937_64 random_;
  sc_core::sc_time period_;
  uint64_t sent_ = 0;
  bool stopped_ = false;  // reached config_.stop
  bool halted_ = false;   // the node has failed
  std::vector<double> latencies_ns_;
  std::vector<double> sent_ns_;
  std::vector<uint8_t> hops_;
  std::vector<uint16_t> sources_;
  std::vector<uint8_t> epochs_;
  std::function<void(const Delivered&)> on_delivery_;
  sc_core::sc_event next_;
};

}  // namespace lq::net
