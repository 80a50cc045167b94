// SPDX-License-Identifier: Apache-2.0
// A DebugTarget and an RspChannel held in memory, for the RSP session tests
// and its fuzz target: the target records what GDB did to it, the channel
// plays back GDB's bytes and keeps the stub's.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/bytes.h"
#include "models/gdb/debug_target.h"
#include "models/gdb/rsp_channel.h"
#include "models/gdb/rv32_description.h"

namespace lq::gdb::fakes {

// An RV32 hart with 4 KiB of memory at kMemoryBase and nothing elsewhere.
class FakeTarget : public DebugTarget {
 public:
  static constexpr uint32_t kMemoryBase = 0x8000'0000;
  static constexpr uint32_t kMemorySize = 0x1000;

  struct Watchpoint {
    WatchKind kind;
    uint32_t address;
    uint32_t length;
    bool operator==(const Watchpoint& other) const {
      return kind == other.kind && address == other.address &&
             length == other.length;
    }
  };

  FakeTarget();

  int RegisterCount() const override { return kRv32RegisterCount; }
  bool ReadRegister(int number, uint32_t* value) override;
  bool WriteRegister(int number, uint32_t value) override;
  bool ReadMemory(uint32_t address, uint8_t* data, size_t size) override;
  bool WriteMemory(uint32_t address, const uint8_t* data, size_t size) override;
  bool InsertBreakpoint(uint32_t address) override;
  bool RemoveBreakpoint(uint32_t address) override;
  bool InsertWatchpoint(WatchKind kind, uint32_t address,
                        uint32_t length) override;
  bool RemoveWatchpoint(WatchKind kind, uint32_t address,
                        uint32_t length) override;
  std::string TargetDescription(const std::string& annex) const override;
  // Answers with `monitor_answers`' entry for the command, if it has one.
  std::optional<std::string> Monitor(const std::string& command) override;

  std::array<uint32_t, kRv32RegisterCount> registers{};
  // Registers beyond the g packet's (CSRs), by GDB number; others fail.
  std::map<int, uint32_t> csrs;
  Bytes memory;
  std::vector<uint32_t> breakpoints;  // one entry per insertion
  std::vector<Watchpoint> watchpoints;
  bool refuse_watchpoints = false;  // like a hart out of trigger slots
  // Monitor commands the target knows, with their answers; without any,
  // the target has no monitor commands.
  std::map<std::string, std::string> monitor_answers;
  std::vector<std::string> monitor_commands;  // as received

 private:
  bool Mapped(uint32_t address, size_t size) const;
};

// GDB's side of the connection: bytes queued with Send are what the session
// reads; once they run out the connection counts as closed, so nothing
// the session does can block.
class FakeChannel : public RspChannel {
 public:
  int ReadByte() override { return NextByte(); }
  int PollByte() override { return NextByte(); }
  void Write(std::string_view bytes) override { written.append(bytes); }

  // Queues a correctly framed packet.
  void Send(std::string_view payload);
  // Queues bytes as they are.
  void SendRaw(std::string_view bytes) { input_.append(bytes); }

  // What TakeReplies gives for a frame GDB would reject.
  static constexpr char kBadFrame[] = "<bad frame>";

  // The payloads of the frames the session wrote since the last call, in
  // order; acks are dropped.
  std::vector<std::string> TakeReplies();

  std::string written;  // everything the session wrote, framing included

 private:
  int NextByte();

  std::string input_;
  size_t read_at_ = 0;
  size_t replies_taken_ = 0;  // bytes of `written` TakeReplies has seen
};

}  // namespace lq::gdb::fakes
