// GdbStub: connection handling around the RSP session.
#include "systemc/board/gdb_stub.h"

#include <cstdio>

namespace lq::board {

GdbStub::GdbStub(gdb::DebugTarget& target, uint16_t port, bool halt_at_start)
    : target_(target), listener_(port), halt_at_start_(halt_at_start) {}

gdb::ResumeAction GdbStub::ServeStop(const gdb::StopEvent& stop) {
  if (session_ == nullptr &&
      stop.reason == gdb::StopEvent::Reason::kHaltedAtStart) {
    std::fprintf(stderr, "lqemu: waiting for GDB on localhost:%u\n",
                 static_cast<unsigned>(port()));
    connection_ = listener_.Accept();
    session_ = std::make_unique<gdb::RspSession>(target_, *connection_);
  }
  if (!Connected()) {
    return gdb::ResumeAction::kContinue;
  }
  return session_->ServeStop(stop);
}

bool GdbStub::PollStopRequest() {
  if (session_ == nullptr) {
    connection_ = listener_.TryAccept();
    if (connection_ == nullptr) {
      return false;
    }
    session_ = std::make_unique<gdb::RspSession>(target_, *connection_);
    return true;
  }
  return Connected() && session_->PollInterrupt();
}

void GdbStub::ReportExit(int status) {
  if (Connected()) {
    session_->ReportExit(status);
  }
}

}  // namespace lq::board
