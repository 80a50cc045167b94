// A requester and a responder joined by a wire of fixed latency in each
// direction, with losses the test chooses: a small event loop in simulated
// nanoseconds that plays the engine's part (sends what the requester
// offers, hands requests to the responder and replies back, fires timers).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include "models/transport/requester.h"
#include "models/transport/responder.h"

namespace lq::transport {

class Loopback {
 public:
  Loopback(const QpAttributes& requester_side,
           const QpAttributes& responder_side,
           const RequesterConfig& requester_config = {},
           const ResponderConfig& responder_config = {})
      : requester(requester_side, requester_config),
        responder(responder_side, responder_config) {}

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
        const Reply reply = to_requester.front().second;
        to_requester.pop_front();
        requester.OnAcknowledge(reply.psn, reply.aeth, now);
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
  std::function<bool(const Reply&)> drop_reply;

  uint64_t now = 0;
  std::vector<std::pair<uint64_t, RequestPacket>> sent;  // with send time
  std::vector<Reply> replies;                            // all sent back
  std::vector<Placement> placements;
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
      if (!drop_reply || !drop_reply(*step.reply)) {
        to_requester.push_back({now + latency_ns, *step.reply});
      }
    }
  }

  std::deque<std::pair<uint64_t, RequestPacket>> to_responder;
  std::deque<std::pair<uint64_t, Reply>> to_requester;
};

}  // namespace lq::transport
