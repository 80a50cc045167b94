// SPDX-License-Identifier: Apache-2.0
// Plic's gateways, claim/complete and its register map.
#include "systemc/board/plic.h"

#include "models/common/bytes.h"
#include "systemc/common/register_port.h"

namespace lq::board {
namespace {

constexpr uint32_t kPriorityMask = 0x7;  // priorities 0 (never) .. 7

}  // namespace

Plic::Plic(const sc_core::sc_module_name& name)
    : sc_module(name),
      socket("socket"),
      sources("sources", kSources),
      external_irq("external_irq") {
  socket.register_b_transport(this, &Plic::BTransport);
  socket.register_transport_dbg(this, &Plic::TransportDbg);
  SC_HAS_PROCESS(Plic);
  SC_METHOD(SampleSources);
  for (auto& source : sources) {
    sensitive << source;
  }
  dont_initialize();
  SC_METHOD(DriveIrq);
  sensitive << update_event_;
}

void Plic::Reset() {
  priority_ = {};
  pending_ = enabled_ = in_service_ = threshold_ = 0;
  SampleSources();
}

void Plic::SampleSources() {
  for (unsigned id = 1; id < kSources; ++id) {
    const uint32_t bit = 1u << id;
    if (sources[id].read() && (in_service_ & bit) == 0) {
      pending_ |= bit;
    }
  }
  update_event_.notify(sc_core::SC_ZERO_TIME);
}

uint32_t Plic::BestPending() const {
  uint32_t best = 0;
  uint32_t best_priority = threshold_;
  const uint32_t candidates = pending_ & enabled_;
  for (unsigned id = 1; id < kSources; ++id) {
    // Strictly above the threshold and the best so far: ties go to the
    // lowest id.
    if (((candidates >> id) & 1u) && priority_[id] > best_priority) {
      best = id;
      best_priority = priority_[id];
    }
  }
  return best;
}

void Plic::DriveIrq() { external_irq.write(BestPending() != 0); }

bool Plic::Read(uint32_t offset, uint32_t* value, bool side_effects) {
  if (offset < 4 * kSources) {
    *value = priority_[offset / 4];
  } else if (offset == kPending) {
    *value = pending_;
  } else if (offset == kEnable) {
    *value = enabled_;
  } else if (offset == kThreshold) {
    *value = threshold_;
  } else if (offset == kClaim) {
    *value = BestPending();
    if (side_effects && *value != 0) {
      pending_ &= ~(1u << *value);
      in_service_ |= 1u << *value;
      ++claims_;
      update_event_.notify(sc_core::SC_ZERO_TIME);
    }
  } else {
    return false;
  }
  return true;
}

bool Plic::Write(uint32_t offset, uint32_t value) {
  if (offset < 4 * kSources) {
    if (offset != 0) {  // source 0 does not exist
      priority_[offset / 4] = value & kPriorityMask;
    }
  } else if (offset == kPending) {
    // Read-only: ignored, as on SiFive's PLIC.
  } else if (offset == kEnable) {
    enabled_ = value & ~1u;
  } else if (offset == kThreshold) {
    threshold_ = value & kPriorityMask;
  } else if (offset == kClaim) {
    // Completion: the gateway opens again; a line still high re-pends.
    if (value > 0 && value < kSources) {
      const uint32_t bit = 1u << value;
      in_service_ &= ~bit;
      if (sources[value].read()) {
        pending_ |= bit;
      }
    }
  } else {
    return false;
  }
  update_event_.notify(sc_core::SC_ZERO_TIME);
  return true;
}

void Plic::BTransport(tlm::tlm_generic_payload& trans,
                      sc_core::sc_time& delay) {
  const uint64_t offset = trans.get_address();
  bool ok = IsRegisterAccess(trans) && offset < kWindowSize;
  if (ok) {
    uint32_t value = 0;
    if (trans.is_read()) {
      ok = Read(static_cast<uint32_t>(offset), &value, true);
      StoreLittleEndian(trans.get_data_ptr(), kRegisterBytes, value);
    } else {
      value = static_cast<uint32_t>(
          LoadLittleEndian(trans.get_data_ptr(), kRegisterBytes));
      ok = Write(static_cast<uint32_t>(offset), value);
    }
  }
  trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE
                               : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  delay += sc_core::sc_time(10, sc_core::SC_NS);
}

unsigned Plic::TransportDbg(tlm::tlm_generic_payload& trans) {
  uint32_t value = 0;
  if (!trans.is_read() || trans.get_data_length() != 4 ||
      !Read(static_cast<uint32_t>(trans.get_address()), &value, false)) {
    return 0;
  }
  StoreLittleEndian(trans.get_data_ptr(), kRegisterBytes, value);
  return kRegisterBytes;
}

}  // namespace lq::board
