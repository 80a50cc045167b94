// SPDX-License-Identifier: Apache-2.0
// TransportRegisters: a transport engine's register block
// (rtl/regs/transport.regs.json, docs/registers/transport.md) on a TLM-2.0
// target socket, through which firmware sets up queue pairs (TRN-5.7),
// registers memory (TRN-6.14), posts work requests by doorbell and takes
// completions from a queue. Commands and doorbells act when their write
// completes and leave their outcome in CMD_STATUS; bus rules are DLL-8's.
// `irq` is CQ_IRQ's level: raised while enabled and a completion waits.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <systemc>
#include <tlm>

#include "systemc/common/register_bank.h"
#include "systemc/transport/transport_engine.h"

namespace lq::transport {

class TransportRegisters : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<TransportRegisters> socket;
  sc_core::sc_signal<bool> irq;

  TransportRegisters(const sc_core::sc_module_name& name,
                     TransportEngine& engine);

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& trans);
  // What QP_CMD, MR_CMD and the doorbells do; each returns CMD_STATUS's
  // RESULT code.
  uint32_t RunQpCommand(uint32_t command);
  uint32_t Modify(uint32_t qpn, uint32_t to_state);
  uint32_t RunMrCommand(uint32_t command);
  uint32_t PostSend(uint32_t qpn);
  uint32_t PostReceive(uint32_t qpn);
  // Moves the engine's new completions into the queue firmware reads.
  void TakeCompletions();
  // CQ_IRQ's level, after taking the engine's new completions.
  bool IrqLevel();
  // Sets `irq` to that level: the one process that drives it, run on each
  // completion and after every bus access (which may pop one or change
  // ENABLE).
  void UpdateIrq();
  // A CQE register's value: a field of the oldest completion, 0 if none.
  uint32_t Completion(uint32_t offset);
  uint64_t Wide(uint32_t lo_offset) const;  // a LO/HI pair of registers

  TransportEngine& engine_;
  RegisterBank regs_;
  std::deque<EngineCompletion> completions_;
  sc_core::sc_event access_done_;
};

}  // namespace lq::transport
