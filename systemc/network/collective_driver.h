// SPDX-License-Identifier: Apache-2.0
// CollectiveDriver: runs a collective's message schedule
// (models/network/collective.h) over the endpoints' traffic sources, one
// per node in node order. A message is
// sent once every message it depends on has been delivered at its source,
// cut into packets of at most `packet_bytes` of its data; it is delivered
// when all of its bytes have arrived. The run ends with the last delivery,
// which is the collective's completion time. Over MPI ranks (decision
// 0050) each rank's driver has its own nodes' sources and sends and
// counts their messages: a message's dependencies were all delivered at
// its source, so they are its rank's own.
#pragma once

#include <cstdint>
#include <deque>
#include <systemc>
#include <utility>
#include <vector>

#include "models/network/collective.h"
#include "systemc/network/traffic_source.h"

namespace lq::net {

class CollectiveDriver : public sc_core::sc_module {
 public:
  // Bytes each packet spends on its tag: the source's stamp, then the
  // message id.
  static constexpr size_t kTagBytes = TrafficSource::kStampBytes + 4;

  // `packet_bytes` is a packet's payload (tag included), above kTagBytes;
  // `sources` by node, nullptr for another rank's. Throws
  // std::invalid_argument if a message waits for one delivered elsewhere
  // than at its source.
  CollectiveDriver(const sc_core::sc_module_name& name,
                   std::vector<TrafficSource*> sources,
                   CollectiveSchedule schedule, size_t packet_bytes);

  const CollectiveSchedule& schedule() const { return schedule_; }
  // The messages delivered at this rank's nodes, and when the last of
  // them landed.
  uint64_t messages_delivered() const { return delivered_; }
  sc_core::sc_time last_delivery() const { return last_delivery_; }

 private:
  void start_of_simulation() override;
  uint64_t PacketsOf(const CollectiveMessage& message) const;
  void Send(const CollectiveMessage& message);
  void OnDelivery(const Delivered& delivered);
  void Release();  // SC_METHOD: send what the landed messages unblocked

  std::vector<TrafficSource*> sources_;  // by node
  CollectiveSchedule schedule_;
  size_t chunk_bytes_;                             // data per packet
  std::vector<uint32_t> waiting_on_;               // per message: deps left
  std::vector<uint64_t> received_;                 // per message: packets
  std::vector<std::vector<uint32_t>> dependents_;  // per message
  uint64_t delivered_ = 0;
  sc_core::sc_time last_delivery_;
  std::deque<std::pair<sc_core::sc_time, uint32_t>> due_;  // landed, id
  sc_core::sc_event ready_;
};

}  // namespace lq::net
