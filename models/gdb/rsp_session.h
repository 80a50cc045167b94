// SPDX-License-Identifier: Apache-2.0
// One GDB remote serial protocol session: answers GDB's packets from a
// DebugTarget while the CPU is stopped, and tells the CPU how to go on.
//
// The CPU drives it; the session never runs on its own:
//   - The CPU stops before its first instruction and calls
//     ServeStop({kHaltedAtStart}). The session answers GDB's connection
//     packets (GDB learns that stop by asking '?') and returns when GDB
//     resumes, detaches or kills.
//   - While running, the CPU calls PollInterrupt() every few thousand
//     instructions; on true it stops and calls ServeStop({kInterrupted}).
//   - At a breakpoint, watchpoint or finished step it calls ServeStop with
//     that reason; the session sends the stop reply GDB is waiting for.
//   - When the firmware ends the simulation it calls ReportExit(status).
//   - kDetach: run freely from now on (every later call returns at once);
//     kKill: end the simulation.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/gdb/debug_target.h"
#include "models/gdb/rsp_channel.h"
#include "models/gdb/rsp_packet.h"

namespace lq::gdb {

class RspSession {
 public:
  // Both must outlive the session. The target is the board's RV32 hart:
  // c/s with an address argument write it to the pc, register 32.
  RspSession(DebugTarget& target, RspChannel& channel);

  RspSession(const RspSession&) = delete;
  RspSession& operator=(const RspSession&) = delete;

  // The CPU has stopped. Sends the stop reply if GDB is waiting for one
  // (it resumed the CPU earlier; the very first stop is only reported when
  // GDB asks with '?'), then serves packets until GDB resumes (kContinue,
  // kStep), detaches (kDetach), kills (kKill) or closes the connection
  // (kDetach). A reason of kExited behaves as ReportExit and returns how
  // the session ended. Once the session has ended, returns at once with
  // how it ended.
  ResumeAction ServeStop(const StopEvent& stop);

  // Whether GDB sent Ctrl-C since the last call. Never waits; reads only
  // the bytes that have already arrived.
  bool PollInterrupt();

  // The firmware ended the simulation with this status. Sends W (status &
  // 0xff) if GDB is waiting for a stop reply, answers a later '?' with it,
  // and serves packets until GDB closes the connection, detaches or kills
  // (GDB closes it itself when it sees the exit). Returns at once if the
  // session has already ended.
  void ReportExit(int status);

  // False once GDB detached, killed or closed the connection: the CPU runs
  // freely and need not poll any more.
  bool Attached() const { return !ended_.has_value(); }
  // Whether the session ended because the connection closed without a
  // detach or kill (GDB was killed, or the network went).
  bool Vanished() const { return vanished_; }

 private:
  // A break- or watchpoint GDB inserted, removed again if GDB goes away
  // without removing it, so that the CPU does not stop for nobody.
  struct InsertedPoint {
    int type;  // 0 breakpoint, else the WatchKind's Z packet number
    uint32_t address;
    uint32_t length;
    bool operator==(const InsertedPoint& other) const {
      return type == other.type && address == other.address &&
             length == other.length;
    }
  };

  ResumeAction Serve();
  std::optional<RspEvent> NextEvent();
  std::optional<ResumeAction> HandlePacket(std::string_view packet);
  ResumeAction End(ResumeAction how);

  void Ack();
  void Reply(std::string_view payload);
  void ReplyError();
  void ReplyOk();
  std::string StopReply(const StopEvent& stop) const;
  bool Exited() const {
    return last_stop_.reason == StopEvent::Reason::kExited;
  }

  std::optional<ResumeAction> Resume(ResumeAction action,
                                     std::string_view address);
  std::optional<ResumeAction> ResumeWithSignal(ResumeAction action,
                                               std::string_view args);
  std::optional<ResumeAction> HandleVPacket(std::string_view packet);
  std::optional<ResumeAction> HandleVCont(std::string_view actions);
  void HandleQuery(std::string_view packet);
  void HandleMonitor(std::string_view hex);
  void HandleSupported(std::string_view features);
  void HandleFeaturesRead(std::string_view args);
  void ReadAllRegisters();
  void WriteAllRegisters(std::string_view hex);
  void ReadOneRegister(std::string_view args);
  void WriteOneRegister(std::string_view args);
  void ReadMemory(std::string_view args);
  void WriteMemoryHex(std::string_view args);
  void WriteMemoryBinary(std::string_view args);
  void HandleBreakpoint(bool insert, std::string_view args);
  void RemoveAllInserted();

  DebugTarget& target_;
  RspChannel& channel_;
  RspDecoder decoder_;
  std::deque<RspEvent> queued_;  // frames that arrived while the CPU ran
  std::string last_frame_;       // resent when GDB answers '-'
  StopEvent last_stop_;          // what '?' reports
  std::vector<InsertedPoint> inserted_;
  std::optional<ResumeAction> ended_;
  bool vanished_ = false;
  bool waiting_for_stop_ = false;  // GDB resumed and awaits a stop reply
  bool no_ack_mode_ = false;
  bool swbreak_announced_ = false;  // GDB's qSupported had swbreak+
};

}  // namespace lq::gdb
