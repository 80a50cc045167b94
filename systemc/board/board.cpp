// SPDX-License-Identifier: Apache-2.0
// Board: declare, map addresses, bind, wire interrupts; and load images.
#include "systemc/board/board.h"

#include <stdexcept>
#include <string>

#include "models/common/hex.h"

namespace lq::board {
namespace {

constexpr uint32_t kFinisherSize = 0x1000;
constexpr uint32_t kBoardInfoSize = 0x1000;
constexpr uint32_t kUartSize = 0x100;

}  // namespace

Board::Board(const sc_core::sc_module_name& name, const BoardConfig& config)
    : sc_module(name),
      config_(config),
      cpu_("cpu", config.cpu),
      bus_("bus"),
      flash_("flash", MemoryConfig{config.flash_bytes, true}),
      ram_("ram", MemoryConfig{config.ram_bytes, false}),
      uart_("uart", config.on_console_line),
      clint_("clint", config.mtime_tick),
      plic_("plic"),
      finisher_(
          "finisher", [this](int status) { OnExit(status); },
          [this] { OnUnhandledTrap(); }),
      info_("info",
            BoardFacts{
                config.node_id, config.ports,
                static_cast<uint32_t>(sc_core::sc_time(1, sc_core::SC_MS) /
                                      config.cpu.clock_period),
                static_cast<uint32_t>(sc_core::sc_time(1, sc_core::SC_SEC) /
                                      config.mtime_tick),
                config.router, config.transport, config.logical,
                config.cabled_ports.value_or((1u << config.ports) - 1)}),
      timer_irq_("timer_irq"),
      software_irq_("software_irq"),
      external_irq_("external_irq"),
      idle_source_("idle_source"),
      source_bound_(Plic::kSources, false) {
  if (config.ports > AddressMap::kMaxPorts) {
    throw std::invalid_argument(std::string(this->name()) + ": " +
                                std::to_string(config.ports) +
                                " ports; a board has at most 8");
  }
  cpu_.bus.bind(bus_.upstream);
  // Devices in binding order, each with its window.
  bus_.devices.bind(finisher_.socket);
  bus_.Map("finisher", AddressMap::kFinisher, kFinisherSize);
  bus_.devices.bind(info_.socket);
  bus_.Map("info", AddressMap::kBoardInfo, kBoardInfoSize);
  bus_.devices.bind(clint_.socket);
  bus_.Map("clint", AddressMap::kClint, Clint::kWindowSize);
  bus_.devices.bind(plic_.socket);
  bus_.Map("plic", AddressMap::kPlic, Plic::kWindowSize);
  bus_.devices.bind(uart_.socket);
  bus_.Map("uart", AddressMap::kUart, kUartSize);
  bus_.devices.bind(flash_.socket);
  bus_.Map("flash", AddressMap::kFlash, config.flash_bytes,
           Bus::Holds::kMemory);
  bus_.devices.bind(ram_.socket);
  bus_.Map("ram", AddressMap::kRam, config.ram_bytes, Bus::Holds::kMemory);

  clint_.timer_irq.bind(timer_irq_);
  clint_.software_irq.bind(software_irq_);
  plic_.external_irq.bind(external_irq_);
  cpu_.timer_irq.bind(timer_irq_);
  cpu_.software_irq.bind(software_irq_);
  cpu_.external_irq.bind(external_irq_);
}

void Board::AttachLinkController(unsigned port, CsrTargetSocket& csr,
                                 sc_core::sc_signal<bool>& irq) {
  if (port != attached_ports_ || port >= config_.ports) {
    throw std::logic_error(std::string(name()) + ": link controller of port " +
                           std::to_string(port) + " attached out of order");
  }
  bus_.devices.bind(csr);
  bus_.Map(
      "port" + std::to_string(port),
      AddressMap::kLinkControllers + port * AddressMap::kLinkControllerStride,
      AddressMap::kLinkControllerStride);
  const unsigned source = AddressMap::kFirstLinkIrq + port;
  plic_.sources[source].bind(irq);
  source_bound_[source] = true;
  ++attached_ports_;
}

void Board::AttachRouter(CsrTargetSocket& csr) {
  if (!config_.router) {
    throw std::logic_error(std::string(name()) +
                           ": a router attached to a board configured "
                           "without one (BoardConfig::router)");
  }
  bus_.devices.bind(csr);
  bus_.Map("router", AddressMap::kRouter, AddressMap::kRouterSize);
}

void Board::AttachTransport(CsrTargetSocket& csr,
                            sc_core::sc_signal<bool>& irq) {
  if (!config_.transport) {
    throw std::logic_error(std::string(name()) +
                           ": a transport engine attached to a board "
                           "configured without one (BoardConfig::transport)");
  }
  bus_.devices.bind(csr);
  bus_.Map("transport", AddressMap::kTransport, AddressMap::kTransportSize);
  plic_.sources[AddressMap::kTransportIrq].bind(irq);
  source_bound_[AddressMap::kTransportIrq] = true;
}

void Board::AttachLogical(CsrTargetSocket& csr, CsrTargetSocket& window,
                          sc_core::sc_signal<bool>& irq) {
  if (!config_.logical) {
    throw std::logic_error(std::string(name()) +
                           ": a logical unit attached to a board configured "
                           "without one (BoardConfig::logical)");
  }
  bus_.devices.bind(csr);
  bus_.Map("logical", AddressMap::kLogical, AddressMap::kLogicalSize);
  bus_.devices.bind(window);
  bus_.Map("global window", AddressMap::kGlobalWindow,
           AddressMap::kGlobalWindowSize);
  plic_.sources[AddressMap::kLogicalIrq].bind(irq);
  source_bound_[AddressMap::kLogicalIrq] = true;
}

void Board::before_end_of_elaboration() {
  for (unsigned source = 0; source < Plic::kSources; ++source) {
    if (!source_bound_[source]) {
      plic_.sources[source].bind(idle_source_);
    }
  }
}

// The trap CSRs still hold the trap the firmware's handler is in; GDB, if
// attached, sees it as a signal first.
void Board::OnUnhandledTrap() {
  unhandled_trap_ = cpu_.StopForUnhandledTrap();
  if (!cpu_.killed()) {
    OnExit(kUnhandledTrapStatus);
  }
}

void Board::Fail() {
  failed_ = true;
  cpu_.PowerOff();
  uart_.Flush();
}

bool Board::Reset() {
  if (failed_) {
    return false;
  }
  const bool had_finished = finished_;
  finished_ = false;
  exit_status_ = 0;
  unhandled_trap_.reset();
  uart_.Reset();
  clint_.Reset();
  plic_.Reset();
  ram_.Clear();
  WriteImage();
  cpu_.Reset();
  return had_finished;
}

void Board::OnExit(int status) {
  finished_ = true;
  exit_status_ = status;
  cpu_.Finish(status);
  if (config_.on_exit) {
    config_.on_exit(status);
  }
}

// Written straight into the memories: the bus's sockets are complete only
// once elaboration ends, and loading is no bus transaction anyway.
void Board::WriteImage() {
  for (const elf::LoadSegment& segment : image_) {
    const bool in_flash = segment.address < AddressMap::kRam;
    Memory& memory = in_flash ? flash_ : ram_;
    memory.Program(
        segment.address - (in_flash ? AddressMap::kFlash : AddressMap::kRam),
        segment.data, segment.memory_size);
  }
}

bool Board::InMemory(uint32_t address, uint32_t size) const {
  auto inside = [&](uint32_t base, uint32_t bytes) {
    return address >= base &&
           uint64_t{address} + size <= uint64_t{base} + bytes;
  };
  return inside(AddressMap::kFlash, config_.flash_bytes) ||
         inside(AddressMap::kRam, config_.ram_bytes);
}

Result<uint32_t> Board::Load(const elf::ElfImage& image) {
  for (size_t i = 0; i < image.segments.size(); ++i) {
    const elf::LoadSegment& segment = image.segments[i];
    if (!InMemory(segment.address, segment.memory_size)) {
      return Error{
          "segment " + std::to_string(i) + " (" + HexText(segment.address, 8) +
              ", " + std::to_string(segment.memory_size) +
              " bytes) is outside flash (" + HexText(AddressMap::kFlash, 8) +
              ", " + std::to_string(config_.flash_bytes) + " bytes) and RAM (" +
              HexText(AddressMap::kRam, 8) + ", " +
              std::to_string(config_.ram_bytes) +
              " bytes): link the image for the board's map "
              "(docs/board.md)",
          0};
    }
  }
  if (!InMemory(image.entry, 2)) {
    return Error{"entry point " + HexText(image.entry, 8) +
                     " is outside flash and RAM (docs/board.md)",
                 0};
  }
  image_ = image.segments;
  WriteImage();
  cpu_.set_reset_pc(image.entry);
  return image.entry;
}

const ComponentDecl& Board::Declaration() {
  static const ComponentDecl decl{
      "board",
      "a card's virtual board: CPU, memories, bus and peripherals "
      "(docs/board.md); the CPU reports as cpu",
      {{"csr windows", "TLM-2.0 initiators on the bus",
        "the blocks' register windows: link controllers, router, transport "
        "engine, logical unit"},
       {"dma", "TLM-2.0 target", "where a transport engine's DMA enters"}},
      {{"bus.decode_errors", "accesses to unmapped addresses"},
       {"uart.bytes", "bytes written to the console"},
       {"plic.claims", "interrupts claimed from the PLIC"}}};
  return decl;
}

StatList Board::Stats() const {
  StatList all = cpu_.Stats();
  StatWriter stats(Declaration(), std::string(name()) + ".");
  stats.Add("bus.decode_errors", bus_.decode_errors())
      .Add("uart.bytes", uart_.bytes_sent())
      .Add("plic.claims", plic_.claims());
  Append(all, stats.Take());
  return all;
}

}  // namespace lq::board
