// SPDX-License-Identifier: Apache-2.0
// The RV32 target description: GDB checks the feature's register names and
// sizes against its own, so they follow gdb/features/riscv/32bit-cpu.xml.
#include "models/gdb/rv32_description.h"

#include <iterator>
#include <string>

namespace lq::gdb {
namespace {

struct RegisterEntry {
  const char* name;
  const char* type;
};

// x0..x31 by ABI name; GDB also accepts the x-names, but its own file uses
// these, and "fp" (not "s0") for x8.
constexpr RegisterEntry kIntegerRegisters[kRv32IntegerRegisters] = {
    {"zero", "int"},    {"ra", "code_ptr"}, {"sp", "data_ptr"},
    {"gp", "data_ptr"}, {"tp", "data_ptr"}, {"t0", "int"},
    {"t1", "int"},      {"t2", "int"},      {"fp", "data_ptr"},
    {"s1", "int"},      {"a0", "int"},      {"a1", "int"},
    {"a2", "int"},      {"a3", "int"},      {"a4", "int"},
    {"a5", "int"},      {"a6", "int"},      {"a7", "int"},
    {"s2", "int"},      {"s3", "int"},      {"s4", "int"},
    {"s5", "int"},      {"s6", "int"},      {"s7", "int"},
    {"s8", "int"},      {"s9", "int"},      {"s10", "int"},
    {"s11", "int"},     {"t3", "int"},      {"t4", "int"},
    {"t5", "int"},      {"t6", "int"},
};

// GDB's names of kRv32DebugCsrs, in that order.
constexpr const char* kCsrNames[std::size(kRv32DebugCsrs)] = {
    "mstatus", "misa",  "mie", "mtvec",  "mscratch", "mepc",
    "mcause",  "mtval", "mip", "mcycle", "minstret"};

std::string RegisterLine(const char* name, int regnum, const char* type) {
  return std::string("    <reg name=\"") + name +
         "\" bitsize=\"32\" regnum=\"" + std::to_string(regnum) + "\" type=\"" +
         type + "\"/>\n";
}

}  // namespace

std::string Rv32TargetDescription() {
  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
      "<target version=\"1.0\">\n"
      "  <architecture>riscv:rv32</architecture>\n"
      "  <feature name=\"org.gnu.gdb.riscv.cpu\">\n";
  for (int regnum = 0; regnum < kRv32IntegerRegisters; ++regnum) {
    xml += RegisterLine(kIntegerRegisters[regnum].name, regnum,
                        kIntegerRegisters[regnum].type);
  }
  xml += RegisterLine("pc", kRv32PcRegister, "code_ptr");
  xml +=
      "  </feature>\n"
      "  <feature name=\"org.gnu.gdb.riscv.csr\">\n";
  for (size_t i = 0; i < std::size(kRv32DebugCsrs); ++i) {
    xml += RegisterLine(
        kCsrNames[i],
        kRv32FirstCsrRegister + static_cast<int>(kRv32DebugCsrs[i]), "int");
  }
  xml +=
      "  </feature>\n"
      "</target>\n";
  return xml;
}

}  // namespace lq::gdb
