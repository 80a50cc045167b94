// SPDX-License-Identifier: Apache-2.0
// LogMessenger: how a logical unit sends and receives LOG messages
// (docs/spec/log.md LOG-6.10): as SENDs on the RC connection to each peer
// node, over the node's transport engine. It keeps receive work requests
// posted on every connection, parses what arrives (counting what does not
// parse as bad_messages) and hands each message to its owner with the node
// it came from. Sends are fire-and-forget: a send that fails, or a
// connection whose receives are flushed, is reported as that peer lost.
// Its buffers live in a window of the engine's DMA space that the unit
// routes here.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <tlm>

#include "models/common/reuse_pool.h"
#include "models/logical/log_message.h"
#include "systemc/transport/transport_engine.h"

namespace lq::logical {

class LogMessenger {
 public:
  using OnMessage = std::function<void(uint16_t from, const LogMessage&)>;
  using OnPeerLost = std::function<void(uint16_t peer)>;

  // Buffers at [base, base + kWindowBytes) of the engine's DMA space;
  // `receives` receive work requests kept posted per connection.
  static constexpr uint64_t kWindowBytes = uint64_t{1} << 40;
  LogMessenger(transport::TransportEngine& engine, uint64_t base,
               unsigned receives, OnMessage on_message, OnPeerLost on_lost);

  // Messages to and from `peer` travel on local QP `qpn`, which must take
  // receive work requests; fails if it does not.
  bool AddPeer(uint16_t peer, uint32_t qpn);
  // Posts `message` to `peer`; false if there is no connection to it or
  // the engine refused the post.
  bool Send(uint16_t peer, const LogMessage& message);
  // Takes `completion` if it is one of the messenger's work requests.
  bool Take(const transport::EngineCompletion& completion);
  // The engine's DMA into the window: false if `trans` is outside it.
  bool Dma(tlm::tlm_generic_payload& trans);

  // Messages that parsed but that the unit cannot act on count here too.
  void CountBad() { ++bad_messages_; }
  uint64_t bad_messages() const { return bad_messages_; }
  uint64_t sent() const { return sent_; }
  uint64_t received() const { return received_; }

 private:
  // Work request IDs with this bit are the messenger's (the unit's RDMA
  // work requests count up from 1).
  static constexpr uint64_t kOwnWrBit = uint64_t{1} << 63;
  struct Buffer {
    Bytes bytes;
    uint16_t peer = 0;
    bool receive = false;
  };

  size_t NewBuffer(uint16_t peer, bool receive);
  bool PostReceive(size_t buffer);
  uint64_t Address(size_t buffer) const;

  transport::TransportEngine& engine_;
  uint64_t base_;
  unsigned receives_;
  OnMessage on_message_;
  OnPeerLost on_lost_;
  std::map<uint16_t, uint32_t> qpn_of_;
  // Buffers by index (the work request ID without kOwnWrBit); a finished
  // send's buffer is reused.
  ReusePool<Buffer> buffers_;
  uint64_t bad_messages_ = 0;
  uint64_t sent_ = 0;
  uint64_t received_ = 0;
};

}  // namespace lq::logical
