// SPDX-License-Identifier: Apache-2.0
// A requester and a responder joined by a wire of fixed latency in each
// direction, with losses the test chooses: a small event loop in simulated
// nanoseconds that plays the engine's part (sends what the requester
// offers, hands requests to the responder and replies back, fires timers).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "models/roce/psn.h"
#include "models/transport/requester.h"
#include "models/transport/responder.h"
#include "models/transport/segmentation.h"

namespace lq::transport {

// What travels back to the requester: an ACKNOWLEDGE, a READ response or
// an ATOMIC ACKNOWLEDGE.
struct Back {
  roce::Opcode opcode = roce::Opcode::kAcknowledge;
  Reply reply;          // psn and AETH (ACKNOWLEDGE; PSN for all)
  uint32_t length = 0;  // READ response payload
  uint64_t original = 0;
};

// What the requester was handed for a READ or atomic.
struct Landed {
  uint64_t wr_id;
  uint32_t offset;
  uint32_t length;
  bool atomic;
  uint64_t original;
};

class Loopback {
 public:
  Loopback(const QpAttributes& requester_side,
           const QpAttributes& responder_side,
           const RequesterConfig& requester_config = {},
           const ResponderConfig& responder_config = {})
      : requester(requester_side, requester_config),
        responder(responder_side, responder_config),
        responder_pmtu_(responder_side.pmtu) {}

  // Runs until nothing is left to do or simulated time passes `until_ns`.
  void Run(uint64_t until_ns) {
    while (true) {
      bool acted = false;
      while (auto packet = requester.Next(now)) {
        acted = true;
        sent.push_back({now, *packet});
        if (!drop_request || !drop_request(*packet)) {
          to_responder.push_back({now + latency_ns, *packet});
        }
      }
      while (!to_responder.empty() && to_responder.front().first <= now) {
        acted = true;
        Deliver(to_responder.front().second);
        to_responder.pop_front();
      }
      while (!to_requester.empty() && to_requester.front().first <= now) {
        acted = true;
        const Back back = to_requester.front().second;
        to_requester.pop_front();
        if (back.opcode == roce::Opcode::kAcknowledge) {
          requester.OnAcknowledge(back.reply.psn, back.reply.aeth, now);
        } else if (auto data =
                       requester.OnResponse(back.opcode, back.reply.psn,
                                            back.length, back.original, now)) {
          landed.push_back({data->wr_id, data->offset, back.length,
                            data->atomic, data->original});
        }
      }
      if (requester.deadline() && *requester.deadline() <= now) {
        acted = true;
        requester.OnTimer(now);
      }
      for (const Completion& c : requester.TakeCompletions()) {
        send_completions.push_back(c);
      }
      if (acted) {
        continue;
      }
      uint64_t next = UINT64_MAX;
      if (!to_responder.empty()) {
        next = std::min(next, to_responder.front().first);
      }
      if (!to_requester.empty()) {
        next = std::min(next, to_requester.front().first);
      }
      if (requester.deadline()) {
        next = std::min(next, *requester.deadline());
      }
      if (next == UINT64_MAX || next > until_ns) {
        return;
      }
      now = next;
    }
  }

  Requester requester;
  Responder responder;
  uint64_t latency_ns = 1000;
  std::function<bool(const RequestPacket&)> drop_request;
  std::function<bool(const Back&)> drop_reply;
  // The responder's 8-byte words, for atomics.
  std::map<uint64_t, uint64_t> words;

  uint64_t now = 0;
  std::vector<std::pair<uint64_t, RequestPacket>> sent;  // with send time
  std::vector<Reply> replies;                            // all sent back
  std::vector<Placement> placements;
  std::vector<Landed> landed;  // READ data and atomic results
  uint64_t atomics_performed = 0;
  std::vector<Completion> send_completions, receive_completions;
  bool responder_fatal = false;

 private:
  void Deliver(const RequestPacket& packet) {
    RequestHeader header;
    header.opcode = packet.opcode;
    header.psn = packet.psn;
    header.ack_req = packet.ack_req;
    header.length = packet.length;
    header.reth = packet.reth;
    header.immediate = packet.immediate;
    header.atomic = packet.atomic;
    const ResponderStep step = responder.OnRequest(header);
    if (step.place) {
      placements.push_back(*step.place);
    }
    if (step.completion) {
      receive_completions.push_back(*step.completion);
    }
    responder_fatal = responder_fatal || step.fatal;
    if (step.reply) {
      replies.push_back(*step.reply);
      Back back;
      back.reply = *step.reply;
      SendBack(back);
    }
    if (step.read) {
      const ReadAnswer& read = *step.read;
      const uint32_t pmtu = responder_pmtu_;
      const uint32_t count = PacketCount(read.length, pmtu);
      for (uint32_t i = 0; i < count; ++i) {
        Back back;
        back.opcode = ReadResponseOpcode(i, count);
        back.reply.psn = roce::PsnAdd(read.first_psn, i);
        back.length = SegmentLength(read.length, pmtu, i, count);
        SendBack(back);
      }
    }
    if (step.atomic) {
      const AtomicAnswer& atomic = *step.atomic;
      uint64_t original;
      if (atomic.replay) {
        original = *atomic.replay;
      } else {
        ++atomics_performed;
        uint64_t& word = words[atomic.address];
        original = word;
        if (!atomic.compare_swap) {
          word += atomic.swap_add;
        } else if (word == atomic.compare) {
          word = atomic.swap_add;
        }
        responder.SaveAtomic(atomic.psn, original);
      }
      Back back;
      back.opcode = roce::Opcode::kAtomicAcknowledge;
      back.reply.psn = atomic.psn;
      back.original = original;
      SendBack(back);
    }
  }

  void SendBack(const Back& back) {
    if (!drop_reply || !drop_reply(back)) {
      to_requester.push_back({now + latency_ns, back});
    }
  }

  std::deque<std::pair<uint64_t, RequestPacket>> to_responder;
  std::deque<std::pair<uint64_t, Back>> to_requester;
  uint32_t responder_pmtu_;
};

}  // namespace lq::transport
