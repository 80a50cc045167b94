// SPDX-License-Identifier: Apache-2.0
// Fuzz target for the RSP session: arbitrary bytes from "GDB" are served
// across a series of stops of an in-memory RV32 target, then an exit.
// Whatever arrives, the session must not crash or block (the fake channel
// reports a closed connection once the input runs out), every frame it
// sends must carry a good checksum, and once it ends no break- or
// watchpoint may be left in the target.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "models/gdb/rsp_packet.h"
#include "models/gdb/rsp_session.h"
#include "testbench/models/gdb/gdb_fakes.h"

namespace {

using lq::gdb::ResumeAction;
using lq::gdb::RspEvent;
using lq::gdb::StopEvent;
using lq::gdb::WatchKind;

// More stops than any input of a few KiB can resume from.
constexpr int kMaxStops = 100000;

// The stop after a resume: Ctrl-C if GDB sent it, else a reason picked by
// the round, so that every kind of stop reply is produced.
StopEvent NextStop(int round, bool interrupted) {
  constexpr StopEvent::Reason kReasons[] = {
      StopEvent::Reason::kBreakpoint, StopEvent::Reason::kStep,
      StopEvent::Reason::kWatchpoint, StopEvent::Reason::kHaltedAtStart};
  StopEvent stop;
  stop.reason = interrupted ? StopEvent::Reason::kInterrupted
                            : kReasons[round % std::size(kReasons)];
  stop.watch_kind = static_cast<WatchKind>(2 + round % 3);
  stop.watch_address = lq::gdb::fakes::FakeTarget::kMemoryBase + 4 * round;
  return stop;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lq::gdb::fakes::FakeTarget target;
  lq::gdb::fakes::FakeChannel channel;
  channel.SendRaw(std::string_view(reinterpret_cast<const char*>(data), size));
  lq::gdb::RspSession session(target, channel);

  StopEvent stop;
  for (int round = 0; round < kMaxStops && session.Attached(); ++round) {
    const ResumeAction action = session.ServeStop(stop);
    if (action == ResumeAction::kDetach || action == ResumeAction::kKill) {
      break;
    }
    stop = NextStop(round, session.PollInterrupt());
  }
  session.ReportExit(static_cast<int>(size));

  if (session.Attached()) {
    __builtin_trap();  // ReportExit returned with GDB still connected.
  }
  lq::gdb::RspDecoder decoder(SIZE_MAX);
  for (const RspEvent& event : decoder.Feed(lq::ByteView(
           reinterpret_cast<const uint8_t*>(channel.written.data()),
           channel.written.size()))) {
    if (event.kind == RspEvent::Kind::kBadChecksum ||
        event.kind == RspEvent::Kind::kMalformed) {
      __builtin_trap();  // GDB would reject this frame.
    }
  }
  if (!target.breakpoints.empty() || !target.watchpoints.empty()) {
    __builtin_trap();  // The CPU would stop for a debugger that is gone.
  }
  return 0;
}
