// SPDX-License-Identifier: Apache-2.0
// Tests of the RV32 target description against GDB's own 32bit-cpu.xml.
#include "models/gdb/rv32_description.h"

#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace lq::gdb {
namespace {

struct Reg {
  std::string name;
  int regnum;
  std::string type;
  int bitsize;
};

// The value of attribute `name` in an XML element, or "".
std::string Attribute(const std::string& element, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const size_t start = element.find(key);
  if (start == std::string::npos) {
    return "";
  }
  const size_t value = start + key.size();
  return element.substr(value, element.find('"', value) - value);
}

// Every <reg .../> element, in document order.
std::vector<Reg> Registers(const std::string& xml) {
  std::vector<Reg> registers;
  for (size_t at = xml.find("<reg "); at != std::string::npos;
       at = xml.find("<reg ", at + 1)) {
    const std::string element = xml.substr(at, xml.find("/>", at) - at);
    registers.push_back({Attribute(element, "name"),
                         std::stoi("0" + Attribute(element, "regnum")),
                         Attribute(element, "type"),
                         std::stoi("0" + Attribute(element, "bitsize"))});
  }
  return registers;
}

TEST(Rv32Description, NamesTheArchitectureAndTheCpuFeature) {
  const std::string xml = Rv32TargetDescription();
  EXPECT_NE(xml.find("<architecture>riscv:rv32</architecture>"),
            std::string::npos)
      << "GDB picks its RV32 gdbarch from this";
  EXPECT_NE(xml.find("<feature name=\"org.gnu.gdb.riscv.cpu\">"),
            std::string::npos)
      << "GDB requires this feature for RISC-V";
  EXPECT_EQ(xml.rfind("</target>\n"), xml.size() - 10) << "well closed";
}

TEST(Rv32Description, ListsTheRegistersAsGdbDoes) {
  // gdb/features/riscv/32bit-cpu.xml, in order.
  const std::vector<std::string> names = {
      "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "fp", "s1", "a0",
      "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
      "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6", "pc"};
  const std::vector<Reg> registers = Registers(Rv32TargetDescription());
  ASSERT_EQ(registers.size(), names.size() + std::size(kRv32DebugCsrs))
      << "x0..x31 and pc, then the CSRs";
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(registers[i].name, names[i]) << "ABI name of register " << i;
    EXPECT_EQ(registers[i].regnum, static_cast<int>(i))
        << "GDB's register numbers are the g packet's order";
    EXPECT_EQ(registers[i].bitsize, 32) << "RV32: " << names[i];
  }
  EXPECT_EQ(registers[kRv32PcRegister].name, "pc") << "pc is register 32";
}

TEST(Rv32Description, TypesPointersAsGdbDoes) {
  const std::vector<Reg> registers = Registers(Rv32TargetDescription());
  ASSERT_EQ(registers.size(), kRv32RegisterCount + std::size(kRv32DebugCsrs))
      << "all registers";
  for (const Reg& reg : registers) {
    std::string expected = "int";
    if (reg.name == "ra" || reg.name == "pc") {
      expected = "code_ptr";
    } else if (reg.name == "sp" || reg.name == "gp" || reg.name == "tp" ||
               reg.name == "fp") {
      expected = "data_ptr";
    }
    EXPECT_EQ(reg.type, expected)
        << "GDB prints code pointers as symbols and data pointers as "
           "addresses: "
        << reg.name;
  }
}

TEST(Rv32Description, NamesTheMachineCsrsAtGdbsNumbers) {
  const std::string xml = Rv32TargetDescription();
  const size_t feature = xml.find("<feature name=\"org.gnu.gdb.riscv.csr\">");
  ASSERT_NE(feature, std::string::npos) << "GDB looks for CSRs here";
  const std::vector<Reg> csrs = Registers(xml.substr(feature));
  const std::vector<std::pair<std::string, int>> expected = {
      {"mstatus", 0x300}, {"misa", 0x301},     {"mie", 0x304},
      {"mtvec", 0x305},   {"mscratch", 0x340}, {"mepc", 0x341},
      {"mcause", 0x342},  {"mtval", 0x343},    {"mip", 0x344},
      {"mcycle", 0xb00},  {"minstret", 0xb02}};
  ASSERT_EQ(csrs.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(csrs[i].name, expected[i].first);
    EXPECT_EQ(csrs[i].regnum, kRv32FirstCsrRegister + expected[i].second)
        << "GDB numbers a CSR 65 plus its address: " << expected[i].first;
    EXPECT_EQ(csrs[i].bitsize, 32);
  }
}

}  // namespace
}  // namespace lq::gdb
