// SPDX-License-Identifier: Apache-2.0
// The target description GDB reads (qXfer:features:read) to learn the
// board's RV32 hart: its architecture and its registers, in GDB's numbering.
#pragma once

#include <string>

namespace lq::gdb {

// GDB's register numbers for RV32 (debug_target.h): x0..x31, then the pc.
inline constexpr int kRv32IntegerRegisters = 32;
inline constexpr int kRv32PcRegister = 32;
inline constexpr int kRv32RegisterCount = 33;  // in the g packet
// A CSR's number is this plus its address (GDB's RISCV_FIRST_CSR_REGNUM);
// GDB reads them one at a time (p, P).
inline constexpr int kRv32FirstCsrRegister = 65;

// The machine CSRs the description names, by address (a hart may lack
// some; reading one it lacks is an error).
inline constexpr unsigned kRv32DebugCsrs[] = {0x300, 0x301, 0x304, 0x305,
                                              0x340, 0x341, 0x342, 0x343,
                                              0x344, 0xb00, 0xb02};

// The annex GDB asks for first, and the only one the RV32 description has.
inline constexpr char kRv32DescriptionAnnex[] = "target.xml";

// Target XML for riscv:rv32 with the feature org.gnu.gdb.riscv.cpu exactly
// as GDB's own features/riscv/32bit-cpu.xml lays it out (ABI names, 32-bit
// registers, code_ptr for ra and pc, data_ptr for sp, gp, tp and fp), and
// org.gnu.gdb.riscv.csr with kRv32DebugCsrs by their GDB names.
std::string Rv32TargetDescription();

}  // namespace lq::gdb
