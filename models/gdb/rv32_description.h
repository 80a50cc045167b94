// The target description GDB reads (qXfer:features:read) to learn the
// board's RV32 hart: its architecture and its registers, in GDB's numbering.
#pragma once

#include <string>

namespace lq::gdb {

// GDB's register numbers for RV32 (debug_target.h): x0..x31, then the pc.
inline constexpr int kRv32IntegerRegisters = 32;
inline constexpr int kRv32PcRegister = 32;
inline constexpr int kRv32RegisterCount = 33;

// The annex GDB asks for first, and the only one the RV32 description has.
inline constexpr char kRv32DescriptionAnnex[] = "target.xml";

// Target XML for riscv:rv32 with the feature org.gnu.gdb.riscv.cpu exactly
// as GDB's own features/riscv/32bit-cpu.xml lays it out (ABI names, 32-bit
// registers, code_ptr for ra and pc, data_ptr for sp, gp, tp and fp).
std::string Rv32TargetDescription();

}  // namespace lq::gdb
