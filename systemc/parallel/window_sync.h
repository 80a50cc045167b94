// SPDX-License-Identifier: Apache-2.0
// WindowSync: conservative synchronisation of a parallel run (decision
// 0050), as SST and ns-3's distributed simulator do it. Every rank runs its
// SystemC kernel over the same windows of simulated time, each no longer
// than the lookahead (the least latency of a cut link), so that nothing a
// rank sends in a window is due before the next one starts. At each
// window's end the ranks exchange what crossed cut links, each message is
// handed to its receiver with its due time, and the ranks agree, in the
// same exchange, on the earliest next activity of any of them: windows in
// which no rank has anything to do are skipped.
//
// Messages to one receiver arrive in the order they were sent; what each
// receiver does with messages from several links due at the same time must
// not depend on the order of their arrival (the router takes them in port
// order, NET-8.12), so the run's results do not depend on the rank count.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <systemc>
#include <vector>

#include "models/common/bytes.h"
#include "systemc/parallel/rank_world.h"

namespace lq::parallel {

class WindowSync {
 public:
  // Takes a message's payload, due at `due` (absolute simulated time, at
  // or after the kernel's current time).
  using Receiver =
      std::function<void(ByteView payload, const sc_core::sc_time& due)>;

  // `lookahead` is the least latency of any cut link of the whole run
  // (every rank's); it must be more than zero.
  WindowSync(const RankWorld& world, const sc_core::sc_time& lookahead);

  const RankWorld& world() const { return world_; }
  const sc_core::sc_time& lookahead() const { return lookahead_; }

  // Hands every message sent to `receiver` on this rank to `take`.
  // Throws std::logic_error if the receiver has one.
  void Listen(uint64_t receiver, Receiver take);
  // Queues `payload` for `receiver` on `rank`, due at `due`. Throws
  // std::logic_error if `due` falls inside the current window (a cut
  // link shorter than the lookahead).
  void Send(unsigned rank, uint64_t receiver, const sc_core::sc_time& due,
            ByteView payload);

  // Runs the simulation to `end`, or with sc_core::sc_max_time() until no
  // rank has anything left to do, in windows: the multiples of the
  // lookahead, [kL, (k+1)L). Ends early on every rank if any rank's
  // simulation stopped (sc_stop); returns whether one did. With `done`, a
  // workload's "my share is finished", it runs in those windows in one
  // process too, and ends at the end of the first window after which
  // `done()` holds on every rank: where the run ends, and so every figure
  // read then, does not depend on the rank count. `done()` is asked on
  // every rank at every window's end. With `done` and an `end`, a run in
  // which no rank has anything left to do ends at once, where its last
  // window ended, rather than at `end`.
  bool Run(const sc_core::sc_time& end, const std::function<bool()>& done = {});
  // The latest simulated time any rank reached (after Run: when a run to
  // idle had its last event anywhere).
  sc_core::sc_time LatestTime() const;

  // What synchronising cost (this rank's figures).
  struct Counts {
    uint64_t windows = 0;  // windows run
    uint64_t skipped = 0;  // lookaheads jumped over with nothing due
    uint64_t messages_sent = 0;
    uint64_t bytes_sent = 0;
    double wait_s = 0;  // wall time in the window-end exchanges
  };
  const Counts& counts() const { return counts_; }

 private:
  // The end of a window: the ranks exchange what crossed cut links, each
  // message goes to its receiver, and they agree on the earliest next
  // activity of any rank (ticks, kNever if none), whether every rank
  // still runs and whether every rank is `done`, all returned. A rank's
  // next activity counts the due times of what it sent, so one exchange
  // does for all.
  struct Agreement {
    uint64_t next;
    bool running;
    bool done;
  };
  Agreement ExchangeAndAgree(bool done);
  // The earliest time this rank has something to do, in ticks (kNever if
  // nothing).
  uint64_t NextActivity() const;

  static constexpr uint64_t kNever = UINT64_MAX;
  const RankWorld& world_;
  sc_core::sc_time lookahead_;
  uint64_t window_end_ = 0;          // ticks: no message may be due before it
  std::vector<Bytes> outboxes_;      // by rank
  uint64_t earliest_sent_ = kNever;  // the earliest due time in them
  std::map<uint64_t, Receiver> receivers_;
  Counts counts_;
};

}  // namespace lq::parallel
