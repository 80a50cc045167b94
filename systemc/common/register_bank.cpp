// SPDX-License-Identifier: Apache-2.0
// The bus rules of a register bank (DLL-8.1 to DLL-8.5).
#include "systemc/common/register_bank.h"

#include <cassert>
#include <utility>

namespace lq {

void RegisterBank::Add(const regs::Register& reg) {
  Entry entry{&reg, reg.reset, 0, 0, 0, 0, {}};
  for (const regs::Field& field : reg.fields) {
    switch (field.access) {
      case regs::Access::kReadWrite:
        entry.rw |= field.Mask();
        break;
      case regs::Access::kWrite1Clear:
        entry.w1c |= field.Mask();
        break;
      case regs::Access::kWrite1Pulse:
        entry.w1s |= field.Mask();
        break;
      case regs::Access::kReadOnly:
      case regs::Access::kReadClear:
        break;
    }
  }
  entry.writable = entry.rw | entry.w1c | entry.w1s;
  registers_.emplace(reg.offset, entry);
}

RegisterBank::Entry* RegisterBank::Find(uint32_t offset) {
  const auto it = registers_.find(offset);
  return it == registers_.end() ? nullptr : &it->second;
}

void RegisterBank::Hook(uint32_t offset, Hooks hooks) {
  Entry* entry = Find(offset);
  assert(entry != nullptr && "hook on an offset no register holds");
  entry->hooks = std::move(hooks);
}

std::optional<uint32_t> RegisterBank::Read(uint32_t offset) {
  Entry* entry = Find(offset);
  if (entry == nullptr) {
    return std::nullopt;  // DLL-8.1
  }
  const uint32_t value = entry->hooks.read ? entry->hooks.read() : entry->value;
  return Shown(*entry, value);
}

std::optional<uint32_t> RegisterBank::Peek(uint32_t offset) {
  Entry* entry = Find(offset);
  if (entry == nullptr) {
    return std::nullopt;
  }
  const Hooks& hooks = entry->hooks;
  const uint32_t value = hooks.peek   ? hooks.peek()
                         : hooks.read ? hooks.read()
                                      : entry->value;
  return Shown(*entry, value);
}

// Reserved bits and pulse fields read 0 (DLL-8.2, DLL-8.5).
uint32_t RegisterBank::Shown(const Entry& entry, uint32_t value) {
  return value & entry.descriptor->DefinedBits() & ~entry.w1s;
}

bool RegisterBank::Write(uint32_t offset, uint32_t value) {
  Entry* entry = Find(offset);
  if (entry == nullptr || entry->writable == 0 ||
      (value & ~entry->descriptor->DefinedBits()) != 0 ||
      (entry->hooks.legal && !entry->hooks.legal(value))) {
    return false;  // DLL-8.1, DLL-8.3: nothing changes.
  }
  entry->value = (entry->value & ~entry->rw) | (value & entry->rw);
  entry->value &= ~(value & entry->w1c);
  if (entry->hooks.written) {
    entry->hooks.written(value);
  }
  return true;
}

uint32_t RegisterBank::value(uint32_t offset) const {
  const auto it = registers_.find(offset);
  assert(it != registers_.end());
  return it->second.value;
}

void RegisterBank::Set(uint32_t offset, uint32_t bits) {
  Entry* entry = Find(offset);
  assert(entry != nullptr);
  entry->value |= bits;
}

void RegisterBank::Store(uint32_t offset, uint32_t value) {
  Entry* entry = Find(offset);
  assert(entry != nullptr);
  entry->value = value;
}

}  // namespace lq
