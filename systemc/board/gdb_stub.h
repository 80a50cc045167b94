// SPDX-License-Identifier: Apache-2.0
// GdbStub: the CPU's link to a GDB on a loopback TCP port. It accepts the
// connection (waiting for it when the CPU halts at start, otherwise picking
// it up while the CPU runs) and hands each stop to the RSP session.
#pragma once

#include <cstdint>
#include <memory>

#include "models/gdb/debug_target.h"
#include "models/gdb/rsp_session.h"
#include "systemc/board/tcp_channel.h"

namespace lq::board {

class GdbStub {
 public:
  // Listens at once, so that the port is known (and a clash reported)
  // before the simulation starts. Throws std::runtime_error on failure.
  GdbStub(gdb::DebugTarget& target, uint16_t port, bool halt_at_start);

  uint16_t port() const { return listener_.port(); }
  bool halt_at_start() const { return halt_at_start_; }

  // The CPU stopped: serve GDB until it resumes. Without a connection (GDB
  // never came, or detached) the CPU just continues. A GDB that goes away
  // without detaching leaves the CPU halted: the stub says so and waits
  // for the next one, which finds the CPU as the last one left it. After
  // a detach the next GDB may connect at any time.
  gdb::ResumeAction ServeStop(const gdb::StopEvent& stop);
  // While the CPU runs: true if GDB wants it stopped (Ctrl-C, or a GDB
  // that just connected and will ask why the target is stopped).
  bool PollStopRequest();
  void ReportExit(int status);

 private:
  bool Connected() const { return session_ != nullptr && session_->Attached(); }
  void Open(std::unique_ptr<TcpConnection> connection);
  void Close();  // the session and its socket: none open

  gdb::DebugTarget& target_;
  TcpListener listener_;
  bool halt_at_start_;
  std::unique_ptr<TcpConnection> connection_;
  std::unique_ptr<gdb::RspSession> session_;
};

}  // namespace lq::board
