// SPDX-License-Identifier: Apache-2.0
// GdbStub: connection handling around the RSP session.
#include "systemc/board/gdb_stub.h"

#include <cstdio>
#include <utility>

namespace lq::board {

GdbStub::GdbStub(gdb::DebugTarget& target, uint16_t port, bool halt_at_start)
    : target_(target), listener_(port), halt_at_start_(halt_at_start) {}

gdb::ResumeAction GdbStub::ServeStop(const gdb::StopEvent& stop) {
  if (session_ == nullptr &&
      stop.reason == gdb::StopEvent::Reason::kHaltedAtStart) {
    std::fprintf(stderr, "lqemu: waiting for GDB on localhost:%u\n",
                 static_cast<unsigned>(port()));
    Open(listener_.Accept());
  }
  if (!Connected()) {
    Close();
    return gdb::ResumeAction::kContinue;
  }
  while (true) {
    const gdb::ResumeAction action = session_->ServeStop(stop);
    if (!session_->Vanished() ||
        stop.reason == gdb::StopEvent::Reason::kExited) {
      if (!Connected()) {
        Close();  // detached or killed: the next GDB may connect
      }
      return action;
    }
    // GDB went away without detaching: the CPU stays where it stopped
    // until the next GDB takes it over.
    std::fprintf(stderr,
                 "lqemu: GDB went away with the CPU halted; waiting for GDB "
                 "on localhost:%u\n",
                 static_cast<unsigned>(port()));
    Open(listener_.Accept());
  }
}

bool GdbStub::PollStopRequest() {
  if (session_ != nullptr && !Connected()) {
    Close();
  }
  if (session_ == nullptr) {
    std::unique_ptr<TcpConnection> connection = listener_.TryAccept();
    if (connection == nullptr) {
      return false;
    }
    Open(std::move(connection));
    return true;
  }
  return session_->PollInterrupt();
}

void GdbStub::Open(std::unique_ptr<TcpConnection> connection) {
  connection_ = std::move(connection);
  session_ = std::make_unique<gdb::RspSession>(target_, *connection_);
}

void GdbStub::Close() {
  session_.reset();
  connection_.reset();
}

void GdbStub::ReportExit(int status) {
  if (Connected()) {
    session_->ReportExit(status);
  }
}

}  // namespace lq::board
