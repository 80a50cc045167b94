// SPDX-License-Identifier: Apache-2.0
// A bare hart on a flat test bus: RAM as a direct region, one MMIO word
// reached through the bus, and nothing else mapped. Tests place encoded
// instructions in RAM and run them.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "models/riscv/hart_bus.h"
#include "models/riscv/rv32_core.h"
#include "models/riscv/rv32_isa.h"

namespace lq::riscv::testing {

constexpr uint32_t kRamBase = 0x80000000u;
constexpr uint32_t kRamSize = 0x10000u;
constexpr uint32_t kMmioBase = 0x10000000u;  // one read/write word
constexpr uint32_t kRomBase = 0x20000000u;   // read/execute only, via the bus
constexpr uint32_t kRomSize = 0x100u;

class TestBus : public HartBus {
 public:
  BusReply Read(uint32_t address, uint8_t* data, uint32_t size) override {
    ++bus_reads;
    if (address >= kMmioBase && uint64_t{address} + size <= kMmioBase + 4) {
      std::memcpy(data,
                  reinterpret_cast<uint8_t*>(&mmio) + (address - kMmioBase),
                  size);
      return {true, 5};
    }
    if (address >= kRomBase &&
        uint64_t{address} + size <= kRomBase + kRomSize) {
      std::memcpy(data, rom.data() + (address - kRomBase), size);
      return {true, 1};
    }
    return {false, 1};
  }
  BusReply Write(uint32_t address, const uint8_t* data,
                 uint32_t size) override {
    ++bus_writes;
    if (address >= kMmioBase && uint64_t{address} + size <= kMmioBase + 4) {
      std::memcpy(reinterpret_cast<uint8_t*>(&mmio) + (address - kMmioBase),
                  data, size);
      return {true, 5};
    }
    return {false, 1};  // ROM and unmapped space refuse writes
  }
  BusReply Fetch(uint32_t address, uint8_t* data, uint32_t size) override {
    ++bus_fetches;
    if (address >= kRomBase &&
        uint64_t{address} + size <= kRomBase + kRomSize) {
      std::memcpy(data, rom.data() + (address - kRomBase), size);
      return {true, 1};
    }
    return {false, 1};
  }
  uint64_t Time() override { return time; }

  uint32_t mmio = 0;
  uint64_t time = 0;
  std::vector<uint8_t> rom = std::vector<uint8_t>(kRomSize);
  int bus_reads = 0;
  int bus_writes = 0;
  int bus_fetches = 0;
};

class TestMachine {
 public:
  TestMachine() : ram(kRamSize), core(bus) {
    core.AddDirectRegion({kRamBase, kRamSize, ram.data(), true, true});
    core.Reset(kRamBase);
  }

  // Writes 32-bit instructions at address (default: the reset pc).
  void Program(std::initializer_list<uint32_t> words,
               uint32_t address = kRamBase) {
    for (uint32_t word : words) {
      Poke32(address, word);
      address += 4;
    }
  }
  // Writes 16-bit parcels (compressed instructions) at address.
  void Program16(std::initializer_list<uint16_t> parcels,
                 uint32_t address = kRamBase) {
    for (uint16_t parcel : parcels) {
      std::memcpy(&ram[address - kRamBase], &parcel, 2);
      address += 2;
    }
  }
  void Poke32(uint32_t address, uint32_t value) {
    std::memcpy(&ram[address - kRamBase], &value, 4);
  }
  uint32_t Peek32(uint32_t address) const {
    uint32_t value;
    std::memcpy(&value, &ram[address - kRamBase], 4);
    return value;
  }
  // Executes `count` instructions (or trap entries) one by one.
  void Steps(int count) {
    for (int i = 0; i < count; ++i) {
      core.Step();
    }
  }
  uint32_t Csr(uint32_t number) const {
    uint32_t value = 0;
    core.ReadCsr(number, &value);
    return value;
  }

  TestBus bus;
  std::vector<uint8_t> ram;
  Rv32Core core;
};

// Encoders for the instructions tests use most.
constexpr uint32_t Addi(uint32_t rd, uint32_t rs1, int32_t imm) {
  return EncodeI(kOpImm, rd, 0, rs1, imm);
}
constexpr uint32_t Lui(uint32_t rd, uint32_t value) {
  return EncodeU(kOpLui, rd, static_cast<int32_t>(value));
}
constexpr uint32_t Op(uint32_t funct7, uint32_t funct3, uint32_t rd,
                      uint32_t rs1, uint32_t rs2) {
  return EncodeR(kOpReg, rd, funct3, rs1, rs2, funct7);
}
constexpr uint32_t Load(uint32_t funct3, uint32_t rd, uint32_t rs1,
                        int32_t imm) {
  return EncodeI(kOpLoad, rd, funct3, rs1, imm);
}
constexpr uint32_t Store(uint32_t funct3, uint32_t rs1, uint32_t rs2,
                         int32_t imm) {
  return EncodeS(kOpStore, funct3, rs1, rs2, imm);
}
constexpr uint32_t CsrOp(uint32_t funct3, uint32_t rd, uint32_t csr,
                         uint32_t rs1) {
  return EncodeI(kOpSystem, rd, funct3, rs1, static_cast<int32_t>(csr));
}
constexpr uint32_t Amo(uint32_t funct5, uint32_t rd, uint32_t rs1,
                       uint32_t rs2) {
  return EncodeR(kOpAmo, rd, 2, rs1, rs2, funct5 << 2);
}
constexpr uint32_t kEcall = 0x00000073;
constexpr uint32_t kEbreak = 0x00100073;
constexpr uint32_t kMret = 0x30200073;
constexpr uint32_t kWfi = 0x10500073;
constexpr uint32_t kNop = 0x00000013;

}  // namespace lq::riscv::testing
