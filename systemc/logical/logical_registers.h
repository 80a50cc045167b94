// SPDX-License-Identifier: Apache-2.0
// LogicalRegisters: a logical unit's register block
// (rtl/regs/logical.regs.json, docs/registers/logical.md; docs/spec/log.md
// section 7) on a TLM-2.0 target socket, through which the owner's
// firmware serves page faults (LOG-6.2 to LOG-6.5), writes the page table
// (LOG-5.2), invalidates sharers (LOG-6.8), exchanges pool-frame messages
// (LOG-6.10) and copies pages between homes (LOG-6.13). Commands act when their
// write completes and leave their outcome in CMD_STATUS; bus rules are DLL-8's.
// `irq` is the OR of IRQ_STATUS's enabled causes.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <functional>
#include <systemc>
#include <tlm>

#include "systemc/common/register_bank.h"
#include "systemc/logical/logical_unit.h"

namespace lq::logical {

class LogicalRegisters : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<LogicalRegisters> socket;
  sc_core::sc_signal<bool> irq;

  LogicalRegisters(const sc_core::sc_module_name& name, LogicalUnit& unit);

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& trans);
  // A command register: a write with a bit of `mask` set (a W1S pulse, or
  // a command field's code other than 0) runs `command`, which returns
  // CMD_STATUS's RESULT code.
  void HookCommand(uint32_t offset, uint32_t mask,
                   std::function<uint32_t()> command);
  // What FR_SEND, PT_CMD, INV_SEND and MB_SEND do; each returns
  // CMD_STATUS's RESULT code.
  uint32_t SendFaultResponse();
  uint32_t RunPageTableCommand(uint32_t command);
  uint32_t SendInvalidation();
  uint32_t SendMailMessage();
  uint32_t StartCopy(uint32_t command);  // CP_CMD (LOG-6.13)
  uint32_t CopyStatus() const;
  // FQ_DATA's and MB_DATA's words: of the head record or message, 0 if
  // there is none.
  uint32_t FaultWord(unsigned index) const;
  uint32_t MailWord(unsigned index) const;
  uint32_t IrqStatus() const;
  // Sets `irq`: the one process that drives it, run when a record or
  // message arrives and after every bus access.
  void UpdateIrq();
  uint64_t Wide(uint32_t lo_offset) const;  // a LO/HI pair of registers

  LogicalUnit& unit_;
  RegisterBank regs_;
  sc_core::sc_event access_done_;
};

}  // namespace lq::logical
