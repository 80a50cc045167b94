// SPDX-License-Identifier: Apache-2.0
// CollectiveDriver: dependencies counted down, messages cut into packets.
#include "systemc/network/collective_driver.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace lq::net {

CollectiveDriver::CollectiveDriver(const sc_core::sc_module_name& name,
                                   std::vector<TrafficSource*> sources,
                                   CollectiveSchedule schedule,
                                   size_t packet_bytes)
    : sc_module(name),
      sources_(std::move(sources)),
      schedule_(std::move(schedule)),
      chunk_bytes_(packet_bytes > kTagBytes ? packet_bytes - kTagBytes : 0) {
  if (chunk_bytes_ == 0) {
    throw std::invalid_argument(
        "a collective's packets need more than " + std::to_string(kTagBytes) +
        " payload bytes, not " + std::to_string(packet_bytes));
  }
  if (schedule_.nodes > sources_.size()) {
    throw std::invalid_argument(
        "collective over " + std::to_string(schedule_.nodes) +
        " nodes on a network of " + std::to_string(sources_.size()));
  }
  const size_t count = schedule_.messages.size();
  waiting_on_.assign(count, 0);
  received_.assign(count, 0);
  dependents_.resize(count);
  for (const CollectiveMessage& message : schedule_.messages) {
    waiting_on_[message.id] = static_cast<uint32_t>(message.after.size());
    for (const uint32_t before : message.after) {
      if (schedule_.messages.at(before).dst != message.src) {
        throw std::invalid_argument(
            "collective message " + std::to_string(message.id) +
            " waits for one delivered elsewhere than at its source");
      }
      dependents_[before].push_back(message.id);
    }
  }
  for (TrafficSource* source : sources_) {
    if (source != nullptr) {  // this rank's
      source->SetDeliveryHook(
          [this](const Delivered& delivered) { OnDelivery(delivered); });
    }
  }
  SC_HAS_PROCESS(CollectiveDriver);
  SC_METHOD(Release);
  sensitive << ready_;
  dont_initialize();
}

void CollectiveDriver::start_of_simulation() {
  for (const CollectiveMessage& message : schedule_.messages) {
    if (waiting_on_[message.id] == 0 && sources_.at(message.src) != nullptr) {
      Send(message);
    }
  }
}

uint64_t CollectiveDriver::PacketsOf(const CollectiveMessage& message) const {
  return std::max<uint64_t>(1,
                            (message.bytes + chunk_bytes_ - 1) / chunk_bytes_);
}

void CollectiveDriver::Send(const CollectiveMessage& message) {
  TrafficSource& source = *sources_.at(message.src);
  uint64_t left = message.bytes;
  for (uint64_t p = 0; p < PacketsOf(message); ++p) {
    const auto chunk =
        static_cast<size_t>(std::min<uint64_t>(left, chunk_bytes_));
    Bytes body(4 + chunk, 0);
    for (size_t i = 0; i < 4; ++i) {
      body[i] = static_cast<uint8_t>(message.id >> (8 * i));
    }
    source.Send(message.dst, body);
    left -= chunk;
  }
}

void CollectiveDriver::OnDelivery(const Delivered& delivered) {
  if (delivered.payload.size() < kTagBytes) {
    return;  // not one of ours
  }
  uint32_t id = 0;
  for (size_t i = 0; i < 4; ++i) {
    id |=
        static_cast<uint32_t>(delivered.payload[TrafficSource::kStampBytes + i])
        << (8 * i);
  }
  if (id >= schedule_.messages.size() ||
      ++received_[id] != PacketsOf(schedule_.messages[id])) {
    return;
  }
  ++delivered_;
  last_delivery_ = std::max(last_delivery_, delivered.at);
  // Its dependents may go once it has landed, which the interface reports
  // ahead of time.
  due_.push_back({delivered.at, id});
  ready_.notify(delivered.at - sc_core::sc_time_stamp());
}

void CollectiveDriver::Release() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  while (!due_.empty() && due_.front().first <= now) {
    const uint32_t id = due_.front().second;
    due_.pop_front();
    for (const uint32_t next : dependents_[id]) {
      if (--waiting_on_[next] == 0) {
        Send(schedule_.messages[next]);
      }
    }
  }
  if (!due_.empty()) {
    ready_.notify(due_.front().first - now);
  }
}

}  // namespace lq::net
