// Tests of the RV32 target description against GDB's own 32bit-cpu.xml.
#include "models/gdb/rv32_description.h"

#include <gtest/gtest.h>

#include <string>
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
  ASSERT_EQ(registers.size(), names.size()) << "x0..x31 and pc";
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
  ASSERT_EQ(registers.size(), static_cast<size_t>(kRv32RegisterCount))
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

}  // namespace
}  // namespace lq::gdb
