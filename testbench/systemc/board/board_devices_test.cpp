// SPDX-License-Identifier: Apache-2.0
// The board's bus and devices driven over TLM-2.0 as the CPU would: decode
// misses, read-only flash and its DMI window, PLIC gateways, claim,
// complete, priorities and threshold, CLINT timer and software interrupts.
// And a second bus master, as the transport engine's DMA is: memory only.
#include <gtest/gtest.h>

#include <cstdint>
#include <systemc>

#include "systemc/board/bus.h"
#include "systemc/board/clint.h"
#include "systemc/board/memory.h"
#include "systemc/board/plic.h"
#include "testbench/systemc/common/csr_master.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::board {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr uint32_t kClint = 0x02000000;
constexpr uint32_t kPlic = 0x0c000000;
constexpr uint32_t kFlash = 0x20000000;
constexpr uint32_t kFlashBytes = 0x1000;

// Lets every process that reacts to a change run (device, then lines).
void Settle() {
  for (int i = 0; i < 4; ++i) {
    sc_core::wait(sc_core::SC_ZERO_TIME);
  }
}

TEST(BoardDevicesTest, BusFlashPlicAndClintBehaveAsDocumented) {
  Bus bus("bus");
  Memory flash("flash", MemoryConfig{kFlashBytes, true});
  Plic plic("plic");
  Clint clint("clint", sc_time(100, SC_NS));
  testing::CsrMaster cpu("cpu");
  sc_core::sc_vector<sc_core::sc_signal<bool>> lines("line", Plic::kSources);
  sc_core::sc_signal<bool> meip("meip"), mtip("mtip"), msip("msip");

  cpu.socket.bind(bus.upstream);
  bus.devices.bind(flash.socket);
  bus.Map("flash", kFlash, kFlashBytes);
  bus.devices.bind(plic.socket);
  bus.Map("plic", kPlic, Plic::kWindowSize);
  bus.devices.bind(clint.socket);
  bus.Map("clint", kClint, Clint::kWindowSize);
  for (unsigned i = 0; i < Plic::kSources; ++i) {
    plic.sources[i].bind(lines[i]);
  }
  plic.external_irq.bind(meip);
  clint.timer_irq.bind(mtip);
  clint.software_irq.bind(msip);

  testing::ScThread stimulus("stimulus", [&] {
    // Decode misses and read-only flash.
    uint32_t value = 0;
    EXPECT_EQ(cpu.Access(tlm::TLM_READ_COMMAND, 0x30000000, value),
              tlm::TLM_ADDRESS_ERROR_RESPONSE)
        << "an unmapped address is an address error, not a crash";
    EXPECT_EQ(bus.decode_errors(), 1u);
    EXPECT_EQ(cpu.Access(tlm::TLM_WRITE_COMMAND, kFlash + 8, value),
              tlm::TLM_COMMAND_ERROR_RESPONSE)
        << "flash refuses CPU stores";
    EXPECT_EQ(cpu.Access(tlm::TLM_READ_COMMAND, kFlash + 8, value),
              tlm::TLM_OK_RESPONSE);
    tlm::tlm_generic_payload trans;
    trans.set_address(kFlash + 16);
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(cpu.socket->get_direct_mem_ptr(trans, dmi));
    EXPECT_EQ(dmi.get_start_address(), kFlash) << "DMI in global addresses";
    EXPECT_EQ(dmi.get_end_address(), kFlash + kFlashBytes - 1);
    EXPECT_TRUE(dmi.is_read_allowed());
    EXPECT_FALSE(dmi.is_write_allowed()) << "flash is read-only through DMI";

    // PLIC: a level source pends, is claimed, and re-pends on completion
    // while its line is still high.
    cpu.Write(kPlic + 4 * 3, 1);
    cpu.Write(kPlic + 4 * 5, 1);
    cpu.Write(kPlic + Plic::kEnable, (1u << 3) | (1u << 5));
    lines[5].write(true);
    lines[3].write(true);
    Settle();
    EXPECT_TRUE(meip.read()) << "enabled, prioritised, pending";
    EXPECT_EQ(cpu.Read(kPlic + Plic::kPending), (1u << 3) | (1u << 5));
    EXPECT_EQ(cpu.Read(kPlic + Plic::kClaim), 3u)
        << "equal priorities: the lowest id wins";
    EXPECT_EQ(cpu.Read(kPlic + Plic::kClaim), 5u);
    Settle();
    EXPECT_FALSE(meip.read()) << "both claimed: nothing left to deliver";
    lines[5].write(false);
    Settle();
    cpu.Write(kPlic + Plic::kClaim, 5);
    cpu.Write(kPlic + Plic::kClaim, 3);
    Settle();
    EXPECT_TRUE(meip.read()) << "source 3's line is still high: pending again";
    EXPECT_EQ(cpu.Read(kPlic + Plic::kPending), 1u << 3)
        << "source 5 went low before completion: not pending";
    cpu.Write(kPlic + Plic::kThreshold, 1);
    Settle();
    EXPECT_FALSE(meip.read()) << "priority 1 does not exceed threshold 1";
    cpu.Write(kPlic + 4 * 3, 2);
    Settle();
    EXPECT_TRUE(meip.read()) << "priority 2 exceeds threshold 1";
    cpu.Write(kPlic + Plic::kEnable, 0);
    Settle();
    EXPECT_FALSE(meip.read()) << "a disabled source never interrupts";
    EXPECT_EQ(cpu.Access(tlm::TLM_READ_COMMAND, kPlic + 0x3000, value),
              tlm::TLM_ADDRESS_ERROR_RESPONSE)
        << "a hole in the PLIC's window";

    // CLINT: mtime counts at 10 MHz; MTIP rises when it reaches mtimecmp.
    const uint64_t start = sc_core::sc_time_stamp() / sc_time(100, SC_NS);
    EXPECT_EQ(cpu.Read(kClint + Clint::kMtime), start);
    cpu.Write(kClint + Clint::kMtimecmp + 4, 0);
    cpu.Write(kClint + Clint::kMtimecmp, static_cast<uint32_t>(start + 10));
    Settle();
    EXPECT_FALSE(mtip.read()) << "mtime has not reached mtimecmp";
    sc_core::wait(sc_time(1, SC_US));
    Settle();
    EXPECT_TRUE(mtip.read()) << "mtime reached mtimecmp after 10 ticks";
    cpu.Write(kClint + Clint::kMtimecmp + 4, 1);
    Settle();
    EXPECT_FALSE(mtip.read()) << "a later mtimecmp drops the line at once";
    cpu.Write(kClint + Clint::kMsip, 1);
    Settle();
    EXPECT_TRUE(msip.read()) << "msip drives the software interrupt";
    cpu.Write(kClint + Clint::kMsip, 0);
    Settle();
    EXPECT_FALSE(msip.read());
  });
  sc_core::sc_start(sc_time(1, sc_core::SC_MS));
  EXPECT_TRUE(stimulus.finished());
}

TEST(BoardDevicesTest, ADmaMasterReachesMemoryButNoDeviceRegisters) {
  constexpr uint32_t kRam = 0x80000000;
  constexpr uint32_t kRamBytes = 0x1000;
  Bus bus("bus");
  Memory ram("ram", MemoryConfig{kRamBytes, false});
  Clint clint("clint", sc_time(100, SC_NS));
  testing::CsrMaster cpu("cpu"), dma("dma");
  sc_core::sc_signal<bool> mtip("mtip"), msip("msip");
  cpu.socket.bind(bus.upstream);  // the first master: the CPU
  dma.socket.bind(bus.upstream);
  bus.devices.bind(ram.socket);
  bus.Map("ram", kRam, kRamBytes, Bus::Holds::kMemory);
  bus.devices.bind(clint.socket);
  bus.Map("clint", kClint, Clint::kWindowSize);
  clint.timer_irq.bind(mtip);
  clint.software_irq.bind(msip);

  testing::ScThread stimulus("stimulus", [&] {
    dma.Write(kRam + 0x10, 0x12345678);
    EXPECT_EQ(cpu.Read(kRam + 0x10), 0x12345678u)
        << "both masters see the same memory";
    uint32_t value = 1;
    EXPECT_EQ(dma.Access(tlm::TLM_WRITE_COMMAND, kClint + Clint::kMsip, value),
              tlm::TLM_ADDRESS_ERROR_RESPONSE)
        << "a DMA master never reaches a device's registers";
    Settle();
    EXPECT_FALSE(msip.read()) << "and changed nothing";
    cpu.Write(kClint + Clint::kMsip, 1);
    Settle();
    EXPECT_TRUE(msip.read()) << "the CPU does";
    EXPECT_EQ(dma.Access(tlm::TLM_READ_COMMAND, kRam + kRamBytes - 2, value),
              tlm::TLM_ADDRESS_ERROR_RESPONSE)
        << "an access running past the window's end";
    // An address near 2^64 must not wrap into a window.
    uint8_t data[32] = {};
    tlm::tlm_generic_payload trans;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(~uint64_t{0} - 15);
    trans.set_data_ptr(data);
    trans.set_data_length(sizeof data);
    trans.set_streaming_width(sizeof data);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = sc_core::SC_ZERO_TIME;
    dma.socket->b_transport(trans, delay);
    EXPECT_EQ(trans.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(bus.decode_errors(), 3u);
  });
  sc_core::sc_start(sc_time(1, sc_core::SC_MS));
  EXPECT_TRUE(stimulus.finished());
}

}  // namespace
}  // namespace lq::board
