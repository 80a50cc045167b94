// SPDX-License-Identifier: Apache-2.0
// The in-memory DebugTarget and RspChannel of the RSP session tests.
#include "testbench/models/gdb/gdb_fakes.h"

#include <algorithm>
#include <cstring>

#include "models/gdb/rsp_packet.h"

namespace lq::gdb::fakes {

FakeTarget::FakeTarget() : memory(kMemorySize) {
  for (size_t i = 0; i < memory.size(); ++i) {
    memory[i] = static_cast<uint8_t>(i);
  }
}

bool FakeTarget::ReadRegister(int number, uint32_t* value) {
  if (const auto csr = csrs.find(number); csr != csrs.end()) {
    *value = csr->second;
    return true;
  }
  if (number < 0 || number >= kRv32RegisterCount) {
    return false;
  }
  *value = registers[number];
  return true;
}

bool FakeTarget::WriteRegister(int number, uint32_t value) {
  if (const auto csr = csrs.find(number); csr != csrs.end()) {
    csr->second = value;
    return true;
  }
  if (number < 0 || number >= kRv32RegisterCount) {
    return false;
  }
  // x0 is hard-wired to zero; writes to it are ignored, as on the hart.
  if (number != 0) {
    registers[number] = value;
  }
  return true;
}

bool FakeTarget::Mapped(uint32_t address, size_t size) const {
  return address >= kMemoryBase &&
         uint64_t{address} + size <= uint64_t{kMemoryBase} + kMemorySize;
}

bool FakeTarget::ReadMemory(uint32_t address, uint8_t* data, size_t size) {
  if (!Mapped(address, size)) {
    return false;
  }
  std::memcpy(data, &memory[address - kMemoryBase], size);
  return true;
}

bool FakeTarget::WriteMemory(uint32_t address, const uint8_t* data,
                             size_t size) {
  if (!Mapped(address, size)) {
    return false;
  }
  std::memcpy(&memory[address - kMemoryBase], data, size);
  return true;
}

bool FakeTarget::InsertBreakpoint(uint32_t address) {
  breakpoints.push_back(address);
  return true;
}

bool FakeTarget::RemoveBreakpoint(uint32_t address) {
  const auto found = std::find(breakpoints.begin(), breakpoints.end(), address);
  if (found == breakpoints.end()) {
    return false;
  }
  breakpoints.erase(found);
  return true;
}

bool FakeTarget::InsertWatchpoint(WatchKind kind, uint32_t address,
                                  uint32_t length) {
  if (refuse_watchpoints) {
    return false;
  }
  watchpoints.push_back({kind, address, length});
  return true;
}

bool FakeTarget::RemoveWatchpoint(WatchKind kind, uint32_t address,
                                  uint32_t length) {
  const auto found = std::find(watchpoints.begin(), watchpoints.end(),
                               Watchpoint{kind, address, length});
  if (found == watchpoints.end()) {
    return false;
  }
  watchpoints.erase(found);
  return true;
}

std::optional<std::string> FakeTarget::Monitor(const std::string& command) {
  monitor_commands.push_back(command);
  if (monitor_answers.empty()) {
    return std::nullopt;
  }
  const auto answer = monitor_answers.find(command);
  return answer == monitor_answers.end() ? "no such command\n" : answer->second;
}

std::string FakeTarget::TargetDescription(const std::string& annex) const {
  return annex == kRv32DescriptionAnnex ? Rv32TargetDescription() : "";
}

void FakeChannel::Send(std::string_view payload) {
  input_ += EncodePacket(payload);
}

std::vector<std::string> FakeChannel::TakeReplies() {
  RspDecoder decoder;
  std::vector<std::string> replies;
  for (const RspEvent& event : decoder.Feed(ByteView(
           reinterpret_cast<const uint8_t*>(written.data()) + replies_taken_,
           written.size() - replies_taken_))) {
    if (event.kind == RspEvent::Kind::kPacket) {
      replies.push_back(event.payload);
    } else if (event.kind != RspEvent::Kind::kAck) {
      // Shows up in the comparisons of the tests as a reply nobody sends.
      replies.push_back(kBadFrame);
    }
  }
  replies_taken_ = written.size();
  return replies;
}

int FakeChannel::NextByte() {
  if (read_at_ == input_.size()) {
    return kNoByte;
  }
  return static_cast<uint8_t>(input_[read_at_++]);
}

}  // namespace lq::gdb::fakes
