// SPDX-License-Identifier: Apache-2.0
// Plic: a platform-level interrupt controller with the register layout of
// QEMU's virt machine and SiFive's parts, reduced to one context (hart 0,
// machine mode). Sources are level-triggered lines; a source that stays
// high after its completion is pending again.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <cstdint>
#include <systemc>
#include <tlm>

namespace lq::board {

class Plic : public sc_core::sc_module {
 public:
  static constexpr unsigned kSources = 32;  // source 0 means "none"
  static constexpr uint32_t kPending = 0x1000;
  static constexpr uint32_t kEnable = 0x2000;
  static constexpr uint32_t kThreshold = 0x200000;
  static constexpr uint32_t kClaim = 0x200004;
  static constexpr uint32_t kWindowSize = 0x400000;

  tlm_utils::simple_target_socket<Plic> socket;
  sc_core::sc_vector<sc_core::sc_in<bool>> sources;  // index = source id
  sc_core::sc_out<bool> external_irq;                // mip.MEIP

  explicit Plic(const sc_core::sc_module_name& name);

  uint64_t claims() const { return claims_; }

  // The board was reset: priorities, enables and threshold 0, nothing in
  // service; sources still raised are pending again.
  void Reset();

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& trans);
  bool Read(uint32_t offset, uint32_t* value, bool side_effects);
  bool Write(uint32_t offset, uint32_t value);
  uint32_t BestPending() const;  // highest-priority deliverable source, or 0
  void SampleSources();          // SC_METHOD: gateways latch high lines
  void DriveIrq();               // SC_METHOD: the only writer of external_irq

  std::array<uint32_t, kSources> priority_{};
  uint32_t pending_ = 0;
  uint32_t enabled_ = 0;
  uint32_t in_service_ = 0;
  uint32_t threshold_ = 0;
  uint64_t claims_ = 0;
  sc_core::sc_event update_event_;
};

}  // namespace lq::board
