// SPDX-License-Identifier: Apache-2.0
// Board: one card's management controller as a netlist (docs/board.md):
// the RV32 CPU, its bus, flash, RAM, UART, CLINT, PLIC, test finisher and
// board information block, plus the CSR windows and interrupt lines of the
// node's link controllers, attached by whoever builds the node.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/result.h"
#include "models/elf/elf_image.h"
#include "systemc/board/board_info.h"
#include "systemc/board/bus.h"
#include "systemc/board/clint.h"
#include "systemc/board/memory.h"
#include "systemc/board/plic.h"
#include "systemc/board/rv32_cpu.h"
#include "systemc/board/test_finisher.h"
#include "systemc/board/uart.h"
#include "systemc/common/component_decl.h"
#include "systemc/common/csr_socket.h"
#include "systemc/common/stat_list.h"

namespace lq::board {

// The address map of docs/board.md.
struct AddressMap {
  static constexpr uint32_t kFinisher = 0x00100000;
  static constexpr uint32_t kBoardInfo = 0x00101000;
  static constexpr uint32_t kClint = 0x02000000;
  static constexpr uint32_t kPlic = 0x0c000000;
  static constexpr uint32_t kUart = 0x10000000;
  static constexpr uint32_t kFlash = 0x20000000;
  static constexpr uint32_t kLinkControllers = 0x40000000;
  static constexpr uint32_t kLinkControllerStride = 0x1000;
  static constexpr uint32_t kRouter = 0x40010000;
  static constexpr uint32_t kRouterSize = 0x10000;
  static constexpr uint32_t kTransport = 0x40020000;
  static constexpr uint32_t kTransportSize = 0x1000;
  static constexpr unsigned kTransportIrq = 17;  // PLIC source (CQ_IRQ)
  static constexpr uint32_t kLogical = 0x40030000;
  static constexpr uint32_t kLogicalSize = 0x1000;
  static constexpr unsigned kLogicalIrq = 16;  // PLIC source
  static constexpr uint32_t kRam = 0x80000000;
  // The logical unit's window onto global addresses (LOG-3.8).
  static constexpr uint32_t kGlobalWindow = 0xc0000000;
  static constexpr uint32_t kGlobalWindowSize = 0x10000000;
  static constexpr unsigned kMaxPorts = 8;
  static constexpr unsigned kFirstLinkIrq = 1;  // PLIC source of port 0
};

struct BoardConfig {
  uint32_t node_id = 0;
  unsigned ports = 0;  // link controllers that will be attached
  // Bit p: port p has a cable (CABLED.PORTS, NET-1.5); unset: all of them.
  std::optional<uint32_t> cabled_ports;
  bool router = false;     // a router will be attached (DEVICES.ROUTER)
  bool transport = false;  // so will a transport engine (DEVICES.TRANSPORT)
  bool logical = false;    // and a logical unit (DEVICES.LOGICAL)
  uint32_t flash_bytes = 1u << 20;
  uint32_t ram_bytes = 1u << 20;
  CpuConfig cpu;
  sc_core::sc_time mtime_tick = sc_core::sc_time(100, sc_core::SC_NS);
  // Each console line, without its newline.
  std::function<void(const std::string&)> on_console_line;
  // The firmware ended the run (test finisher) with this status.
  std::function<void(int)> on_exit;
};

class Board : public sc_core::sc_module {
 public:
  Board(const sc_core::sc_module_name& name, const BoardConfig& config);

  // Maps port `port`'s link controller registers into the CPU's address
  // space and its interrupt line into the PLIC. Call for ports 0, 1, ...
  // in order, before the simulation starts.
  void AttachLinkController(unsigned port, CsrTargetSocket& csr,
                            sc_core::sc_signal<bool>& irq);

  // Maps the router's registers (docs/registers/router.md) at
  // AddressMap::kRouter. Once, before the simulation starts, on a board
  // configured with a router.
  void AttachRouter(CsrTargetSocket& csr);

  // Maps the transport engine's registers (docs/registers/transport.md) at
  // AddressMap::kTransport and its completion interrupt into the PLIC.
  // Once, before the simulation starts, on a board configured with a
  // transport engine, whose DMA (or the logical unit's bus socket in front
  // of it) the caller binds to dma_target().
  void AttachTransport(CsrTargetSocket& csr, sc_core::sc_signal<bool>& irq);
  // The bus's upstream side for a DMA master: it sees the CPU's address
  // map, memory windows only (decision 0014), so that work requests name
  // bus addresses.
  tlm_utils::multi_passthrough_target_socket<Bus>& dma_target() {
    return bus_.upstream;
  }
  // Maps a logical unit's registers (docs/registers/logical.md) at
  // AddressMap::kLogical, its window onto global addresses at
  // AddressMap::kGlobalWindow (LOG-3.8) and its interrupt into the PLIC.
  // Once, before the simulation starts, on a board configured with one.
  void AttachLogical(CsrTargetSocket& csr, CsrTargetSocket& window,
                     sc_core::sc_signal<bool>& irq);

  // Loads an image into flash and RAM and sets the CPU's reset pc to its
  // entry. Fails, changing nothing, if a segment or the entry point lies
  // outside flash and RAM.
  Result<uint32_t> Load(const elf::ElfImage& image);

  Rv32Cpu& cpu() { return cpu_; }
  const Rv32Cpu& cpu() const { return cpu_; }
  // Bytes the firmware wrote to its console (the UART).
  uint64_t console_bytes() const { return uart_.bytes_sent(); }
  bool finished() const { return finished_; }
  // The card failed (an injected fault): its CPU stopped, its firmware
  // never finishes.
  void Fail();
  // The board is reset (an injected node reset): CPU, CLINT, PLIC and
  // UART return to their reset state, RAM is cleared and the loaded image
  // written again, and the firmware starts over, whether it had finished
  // or not. The devices attached to the board keep their state. Not on a
  // failed board. Returns whether its firmware had finished.
  bool Reset();
  bool failed() const { return failed_; }
  int exit_status() const { return exit_status_; }
  // The trap the firmware said it does not handle, which ended its run
  // (its exit status is then 1); none if it ended otherwise.
  const std::optional<UnhandledTrap>& unhandled_trap() const {
    return unhandled_trap_;
  }
  void FlushConsole() { uart_.Flush(); }
  StatList Stats() const;
  static const ComponentDecl& Declaration();

 private:
  void before_end_of_elaboration() override;
  void OnExit(int status);
  void OnUnhandledTrap();
  void WriteImage();  // image_ into flash and RAM
  // True if [address, address + size) lies in flash or RAM.
  bool InMemory(uint32_t address, uint32_t size) const;

  BoardConfig config_;
  Rv32Cpu cpu_;
  Bus bus_;
  Memory flash_;
  Memory ram_;
  Uart uart_;
  Clint clint_;
  Plic plic_;
  TestFinisher finisher_;
  BoardInfo info_;
  sc_core::sc_signal<bool> timer_irq_, software_irq_, external_irq_;
  sc_core::sc_signal<bool> idle_source_;  // PLIC sources nothing drives
  std::vector<bool> source_bound_;
  unsigned attached_ports_ = 0;
  bool finished_ = false;
  bool failed_ = false;
  int exit_status_ = 0;
  std::optional<UnhandledTrap> unhandled_trap_;
  std::vector<elf::LoadSegment> image_;  // what Load() wrote, for Reset()
};

}  // namespace lq::board
