// SPDX-License-Identifier: Apache-2.0
// TrafficSource: Bernoulli injection and latency measurement.
#include "systemc/network/traffic_source.h"

#include <algorithm>
#include <cmath>

namespace lq::net {
namespace {}  // namespace

TrafficSource::TrafficSource(const sc_core::sc_module_name& name,
                             const NetworkInterfaceConfig& interface,
                             const TrafficConfig& config,
                             std::shared_ptr<const TrafficPattern> pattern)
    : sc_module(name),
      node_(interface.node),
      config_(config),
      pattern_(std::move(pattern)),
      ni_("ni", interface,
          [this](Delivered delivered) { OnDelivery(delivered); }),
      random_(config.seed),
      period_(config.clock_ns, sc_core::SC_NS) {
  SC_HAS_PROCESS(TrafficSource);
  SC_METHOD(Inject);
  sensitive << next_;
  dont_initialize();
}

void TrafficSource::start_of_simulation() {
  if (config_.packets_per_cycle > 0) {
    next_.notify(config_.start);
  }
}

// Bernoulli trials once per cycle: the gap to the next success is
// geometric, so one event per packet, none per idle cycle.
void TrafficSource::ScheduleNext() {
  if (config_.packets != 0 && sent_ >= config_.packets) {
    return;
  }
  const double p = std::min(config_.packets_per_cycle, 1.0);
  uint64_t gap = 1;
  if (p < 1.0) {
    std::geometric_distribution<uint64_t> cycles(p);
    gap = 1 + cycles(random_);
  }
  const sc_core::sc_time wait = period_ * static_cast<double>(gap);
  if (config_.stop > sc_core::SC_ZERO_TIME &&
      sc_core::sc_time_stamp() + wait >= config_.stop) {
    stopped_ = true;
    return;
  }
  next_.notify(wait);
}

void TrafficSource::Resume() {
  if (!halted_) {
    return;
  }
  halted_ = false;
  if (!stopped_ && config_.packets_per_cycle > 0) {
    ScheduleNext();
  }
}

void TrafficSource::Inject() {
  if (stopped_ || halted_) {
    return;
  }
  const uint32_t dst = pattern_->Destination(node_, random_);
  // The stamp, then zeros.
  SendStamped(dst,
              Bytes(std::max<size_t>(config_.payload_bytes, kStampBytes), 0));
  ScheduleNext();
}

void TrafficSource::Send(uint32_t dst, ByteView body) {
  Bytes payload(kStampBytes + body.size());
  std::copy(body.begin(), body.end(), payload.begin() + kStampBytes);
  SendStamped(dst, std::move(payload));
}

void TrafficSource::SendStamped(uint32_t dst, Bytes payload) {
  const uint64_t stamp = sc_core::sc_time_stamp().value();
  for (size_t i = 0; i < kStampBytes; ++i) {
    payload[i] = static_cast<uint8_t>(stamp >> (8 * i));
  }
  ni_.Send(static_cast<uint16_t>(dst), config_.tc, std::move(payload));
  ++sent_;
}

void TrafficSource::OnDelivery(const Delivered& delivered) {
  uint64_t stamp = 0;
  for (size_t i = 0; i < kStampBytes; ++i) {
    stamp |= static_cast<uint64_t>(delivered.payload[i]) << (8 * i);
  }
  const double sent_ps = static_cast<double>(stamp) *
                         sc_core::sc_get_time_resolution().to_seconds() * 1e12;
  latencies_ns_.push_back((delivered.at.to_seconds() * 1e12 - sent_ps) / 1e3);
  sent_ns_.push_back(sent_ps / 1e3);
  hops_.push_back(delivered.header.hops);
  sources_.push_back(delivered.header.src);
  epochs_.push_back(delivered.header.epoch);
  if (on_delivery_) {
    on_delivery_(delivered);
  }
}

}  // namespace lq::net
