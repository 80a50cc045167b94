// SPDX-License-Identifier: Apache-2.0
// WindowSync: the window loop and the exchange of messages.
#include "systemc/parallel/window_sync.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "systemc/parallel/wire.h"

namespace lq::parallel {

using sc_core::sc_time;

namespace {
// What Send adds to each payload: receiver, due time, length.
constexpr size_t kMessageHeaderBytes = 8 + 8 + 4;
}  // namespace

WindowSync::WindowSync(const RankWorld& world, const sc_time& lookahead)
    : world_(world), lookahead_(lookahead), outboxes_(world.size()) {
  if (lookahead == sc_core::SC_ZERO_TIME && world.parallel()) {
    throw std::invalid_argument(
        "a cut link with zero latency leaves the ranks no lookahead");
  }
}

void WindowSync::Listen(uint64_t receiver, Receiver take) {
  if (!receivers_.emplace(receiver, std::move(take)).second) {
    throw std::logic_error("receiver " + std::to_string(receiver) +
                           " listened for twice");
  }
}

void WindowSync::Send(unsigned rank, uint64_t receiver, const sc_time& due,
                      ByteView payload) {
  if (due.value() < window_end_) {
    throw std::logic_error("a message between ranks due at " + due.to_string() +
                           ", inside the window ending " +
                           sc_time::from_value(window_end_).to_string() +
                           ": a cut link is shorter than the lookahead");
  }
  WireWriter out(outboxes_.at(rank));
  out.U64(receiver);
  out.U64(due.value());
  out.Blob(payload);
  earliest_sent_ = std::min<uint64_t>(earliest_sent_, due.value());
  ++counts_.messages_sent;
  counts_.bytes_sent += payload.size() + kMessageHeaderBytes;
}

uint64_t WindowSync::NextActivity() const {
  if (sc_core::sc_pending_activity_at_current_time()) {
    return sc_core::sc_time_stamp().value();
  }
  if (!sc_core::sc_pending_activity_at_future_time()) {
    return kNever;
  }
  return (sc_core::sc_time_stamp() + sc_core::sc_time_to_pending_activity())
      .value();
}

WindowSync::Agreement WindowSync::ExchangeAndAgree(bool done) {
  const bool stopped = sc_core::sc_get_status() == sc_core::SC_STOPPED;
  // Before delivery, what arrives here is due when its sender said: the
  // least over the ranks of their own next activity and what they sent is
  // the earliest any rank will have after delivery.
  std::vector<uint64_t> least = {
      stopped ? kNever : std::min(NextActivity(), earliest_sent_),
      stopped ? 0u : 1u, done ? 1u : 0u};
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Bytes> inboxes = world_.Exchange(outboxes_, least);
  counts_.wait_s +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  for (Bytes& outbox : outboxes_) {
    outbox.clear();
  }
  earliest_sent_ = kNever;
  const Agreement agreed{least[0], least[1] != 0, least[2] != 0};
  if (stopped) {
    return agreed;
  }
  const sc_time now = sc_core::sc_time_stamp();
  for (const Bytes& inbox : inboxes) {  // by sender, each in send order
    WireReader in(inbox);
    while (!in.done()) {
      const uint64_t receiver = in.U64();
      const sc_time due = sc_time::from_value(in.U64());
      const ByteView payload = in.Blob();
      const auto take = receivers_.find(receiver);
      if (take == receivers_.end() || due < now) {
        throw std::logic_error(
            "rank " + std::to_string(world_.rank()) +
            ": a message for receiver " + std::to_string(receiver) +
            (take == receivers_.end() ? " it lacks" : " came too late"));
      }
      take->second(payload, due);
    }
  }
  if (NextActivity() < agreed.next) {
    throw std::logic_error(
        "a message between ranks made work before it was due");
  }
  return agreed;
}

sc_time WindowSync::LatestTime() const {
  return sc_time::from_value(world_.Max(sc_core::sc_time_stamp().value()));
}

bool WindowSync::Run(const sc_time& end, const std::function<bool()>& done) {
  const bool until_idle = end == sc_core::sc_max_time();
  if (!world_.parallel() && !done) {
    if (until_idle) {
      sc_core::sc_start();
    } else {
      sc_core::sc_start(end - sc_core::sc_time_stamp());
    }
    return sc_core::sc_get_status() == sc_core::SC_STOPPED;
  }
  const uint64_t lookahead = lookahead_.value();
  if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) {
    // Start of simulation and time zero's first delta cycle: what they
    // send is due a lookahead later at the earliest.
    window_end_ = lookahead;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  // Within a window a rank stops at its last event when it runs out, as
  // sc_start() does, so that a run to idle ends at the same time on any
  // number of ranks; a run that a workload ends runs every window to its
  // end, where every rank then is.
  const auto policy = until_idle && !done ? sc_core::SC_EXIT_ON_STARVATION
                                          : sc_core::SC_RUN_TO_TIME;
  for (;;) {
    const Agreement agreed = ExchangeAndAgree(done && done());
    if (!agreed.running) {
      if (sc_core::sc_get_status() != sc_core::SC_STOPPED) {
        sc_core::sc_stop();
      }
      return true;
    }
    if (agreed.done) {
      return false;
    }
    const uint64_t now = sc_core::sc_time_stamp().value();
    const uint64_t next = std::max(agreed.next, now);
    if (next == kNever || next >= end.value()) {
      // A workload's run that nothing is left in stops where it is.
      if (!until_idle && now < end.value() && !(done && next == kNever)) {
        sc_core::sc_start(end - sc_core::sc_time_stamp());
      }
      return false;
    }
    counts_.skipped += next / lookahead - (now + lookahead - 1) / lookahead;
    window_end_ =
        std::min<uint64_t>((next / lookahead + 1) * lookahead, end.value());
    // A rank that starves stays at its last event; one with nothing due
    // in another rank's window has no reason to start its kernel.
    if (policy == sc_core::SC_RUN_TO_TIME || NextActivity() < window_end_) {
      sc_core::sc_start(sc_time::from_value(window_end_ - now), policy);
    }
    ++counts_.windows;
  }
}

}  // namespace lq::parallel
