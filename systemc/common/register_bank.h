// SPDX-License-Identifier: Apache-2.0
// A block's registers built from its generated descriptors
// (generated/cpp/<block>_regs.h): each register is a member with an offset,
// per-field access policies and callbacks, so that a model states only what
// is special about a register (STYLE: not a switch on the address). Bus
// rules are those of DLL-8.1 to DLL-8.5, which every block of lqemu shares.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>

#include "generated/cpp/lc_regs.h"  // The descriptor types (lq::regs).

namespace lq {

class RegisterBank {
 public:
  struct Hooks {
    // The value a read returns (status, counters); unset: the stored value.
    // It may have side effects of its own (a LO read latching its HI half).
    std::function<uint32_t()> read;
    // Extra legality of a written value (enum codes, minimums): false makes
    // the write a bus error that changes nothing (DLL-8.3).
    std::function<bool(uint32_t)> legal;
    // After a legal write has been applied, with the value written: pulses
    // (W1S fields) and side effects.
    std::function<void(uint32_t)> written;
    // What a debugger reads where `read` has side effects: the same value
    // without them. Unset: `read` has none.
    std::function<uint32_t()> peek = nullptr;
  };

  // Hooks of a register with only a read side (a status, a counter), or
  // only a write side (a command, with the legality of its values).
  static Hooks OnRead(std::function<uint32_t()> read) {
    Hooks hooks;
    hooks.read = std::move(read);
    return hooks;
  }
  static Hooks OnWrite(std::function<void(uint32_t)> written,
                       std::function<bool(uint32_t)> legal = nullptr) {
    Hooks hooks;
    hooks.legal = std::move(legal);
    hooks.written = std::move(written);
    return hooks;
  }

  // The block's registers at their reset values.
  template <size_t N>
  explicit RegisterBank(const std::array<regs::Register, N>& registers) {
    for (const regs::Register& reg : registers) {
      Add(reg);
    }
  }

  void Hook(uint32_t offset, Hooks hooks);

  // Bus accesses: nullopt / false is a bus error (TLM address error).
  std::optional<uint32_t> Read(uint32_t offset);
  bool Write(uint32_t offset, uint32_t value);
  // A debugger's read: what Read would return, without its side effects.
  std::optional<uint32_t> Peek(uint32_t offset);

  // The stored value, as hardware sees it.
  uint32_t value(uint32_t offset) const;
  // Hardware sets bits (a W1C cause, an RO status).
  void Set(uint32_t offset, uint32_t bits);
  // Hardware stores a whole value.
  void Store(uint32_t offset, uint32_t value);
  // One field of a stored register.
  uint32_t Get(uint32_t offset, const regs::Field& field) const {
    return field.Read(value(offset));
  }

 private:
  struct Entry {
    const regs::Register* descriptor;
    uint32_t value;
    uint32_t writable;  // RW, W1C and W1S bits.
    uint32_t rw, w1c, w1s;
    Hooks hooks;
  };
  void Add(const regs::Register& reg);
  Entry* Find(uint32_t offset);
  static uint32_t Shown(const Entry& entry, uint32_t value);

  std::map<uint32_t, Entry> registers_;
};

}  // namespace lq
