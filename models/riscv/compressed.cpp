// SPDX-License-Identifier: Apache-2.0
// RV32C expansion, quadrant by quadrant, as tabulated in the unprivileged
// ISA's "C" chapter.
#include "models/riscv/compressed.h"

#include "models/riscv/rv32_isa.h"

namespace lq::riscv {
namespace {

constexpr uint32_t kIllegal = 0;
constexpr uint32_t kSp = 2;
constexpr uint32_t kRa = 1;

// Bit `from` of `value`, moved to bit `to`.
constexpr uint32_t Bit(uint32_t value, int from, int to) {
  return ((value >> from) & 1u) << to;
}
// Bits hi..lo of `value`, moved so that lo lands at `to`.
constexpr uint32_t Bits(uint32_t value, int hi, int lo, int to) {
  return ((value >> lo) & ((1u << (hi - lo + 1)) - 1)) << to;
}
// Sign-extends the low `bits` bits of `value`.
constexpr int32_t SignExtend(uint32_t value, int bits) {
  const uint32_t sign = 1u << (bits - 1);
  return static_cast<int32_t>((value ^ sign) - sign);
}

// The three-bit register fields of the CIW/CL/CS/CB formats name x8..x15.
constexpr uint32_t RegPrime(uint32_t field) { return 8 + (field & 0x7); }

// Six-bit immediate of CI: bit 12 is bit 5, bits 6:2 are bits 4:0.
constexpr int32_t ImmCi(uint32_t c) {
  return SignExtend(Bit(c, 12, 5) | Bits(c, 6, 2, 0), 6);
}
constexpr int32_t OffsetCj(uint32_t c) {
  return SignExtend(Bit(c, 12, 11) | Bit(c, 11, 4) | Bits(c, 10, 9, 8) |
                        Bit(c, 8, 10) | Bit(c, 7, 6) | Bit(c, 6, 7) |
                        Bits(c, 5, 3, 1) | Bit(c, 2, 5),
                    12);
}
constexpr int32_t OffsetCb(uint32_t c) {
  return SignExtend(Bit(c, 12, 8) | Bits(c, 11, 10, 3) | Bits(c, 6, 5, 6) |
                        Bits(c, 4, 3, 1) | Bit(c, 2, 5),
                    9);
}
// Word offset of c.lw / c.sw.
constexpr uint32_t OffsetClw(uint32_t c) {
  return Bits(c, 12, 10, 3) | Bit(c, 6, 2) | Bit(c, 5, 6);
}

uint32_t Quadrant0(uint32_t c) {
  const uint32_t rd = RegPrime(c >> 2);
  const uint32_t rs1 = RegPrime(c >> 7);
  switch (c >> 13) {
    case 0b000: {  // c.addi4spn
      const uint32_t imm =
          Bits(c, 12, 11, 4) | Bits(c, 10, 7, 6) | Bit(c, 6, 2) | Bit(c, 5, 3);
      if (imm == 0) {
        return kIllegal;
      }
      return EncodeI(kOpImm, rd, 0, kSp, static_cast<int32_t>(imm));
    }
    case 0b010:  // c.lw
      return EncodeI(kOpLoad, rd, 2, rs1, static_cast<int32_t>(OffsetClw(c)));
    case 0b110:  // c.sw
      return EncodeS(kOpStore, 2, rs1, rd, static_cast<int32_t>(OffsetClw(c)));
    default:  // c.fld, c.flw, c.fsd, c.fsw and the reserved slot.
      return kIllegal;
  }
}

uint32_t Quadrant1(uint32_t c) {
  const uint32_t rd = Bits(c, 11, 7, 0);
  const uint32_t rd_prime = RegPrime(c >> 7);
  const uint32_t rs2_prime = RegPrime(c >> 2);
  switch (c >> 13) {
    case 0b000:  // c.addi (c.nop when rd is x0)
      return EncodeI(kOpImm, rd, 0, rd, ImmCi(c));
    case 0b001:  // c.jal (RV32 only)
      return EncodeJ(kRa, OffsetCj(c));
    case 0b010:  // c.li
      return EncodeI(kOpImm, rd, 0, 0, ImmCi(c));
    case 0b011: {
      if (rd == kSp) {  // c.addi16sp
        const int32_t imm =
            SignExtend(Bit(c, 12, 9) | Bit(c, 6, 4) | Bit(c, 5, 6) |
                           Bits(c, 4, 3, 7) | Bit(c, 2, 5),
                       10);
        return imm == 0 ? kIllegal : EncodeI(kOpImm, kSp, 0, kSp, imm);
      }
      const int32_t imm = ImmCi(c);  // c.lui
      return imm == 0 ? kIllegal
                      : EncodeU(kOpLui, rd,
                                static_cast<int32_t>(static_cast<uint32_t>(imm)
                                                     << 12));
    }
    case 0b100:
      switch (Bits(c, 11, 10, 0)) {
        case 0b00:  // c.srli: shamt[5] = 1 is reserved on RV32.
          return Bit(c, 12, 0)
                     ? kIllegal
                     : EncodeI(kOpImm, rd_prime, 5, rd_prime,
                               static_cast<int32_t>(Bits(c, 6, 2, 0)));
        case 0b01:  // c.srai
          return Bit(c, 12, 0)
                     ? kIllegal
                     : EncodeI(kOpImm, rd_prime, 5, rd_prime,
                               static_cast<int32_t>(Bits(c, 6, 2, 0) | 0x400));
        case 0b10:  // c.andi
          return EncodeI(kOpImm, rd_prime, 7, rd_prime, ImmCi(c));
        default: {
          if (Bit(c, 12, 0)) {  // c.subw, c.addw: RV64 only.
            return kIllegal;
          }
          static constexpr uint32_t kFunct3[] = {0, 4, 6, 7};  // sub xor or and
          const uint32_t op = Bits(c, 6, 5, 0);
          return EncodeR(kOpReg, rd_prime, kFunct3[op], rd_prime, rs2_prime,
                         op == 0 ? 0x20 : 0);
        }
      }
    case 0b101:  // c.j
      return EncodeJ(0, OffsetCj(c));
    case 0b110:  // c.beqz
      return EncodeB(0, rd_prime, 0, OffsetCb(c));
    default:  // c.bnez
      return EncodeB(1, rd_prime, 0, OffsetCb(c));
  }
}

uint32_t Quadrant2(uint32_t c) {
  const uint32_t rd = Bits(c, 11, 7, 0);
  const uint32_t rs2 = Bits(c, 6, 2, 0);
  switch (c >> 13) {
    case 0b000:  // c.slli: shamt[5] = 1 is reserved on RV32.
      return Bit(c, 12, 0)
                 ? kIllegal
                 : EncodeI(kOpImm, rd, 1, rd, static_cast<int32_t>(rs2));
    case 0b010: {  // c.lwsp
      if (rd == 0) {
        return kIllegal;
      }
      const uint32_t offset =
          Bit(c, 12, 5) | Bits(c, 6, 4, 2) | Bits(c, 3, 2, 6);
      return EncodeI(kOpLoad, rd, 2, kSp, static_cast<int32_t>(offset));
    }
    case 0b100:
      if (Bit(c, 12, 0) == 0) {
        if (rs2 == 0) {  // c.jr
          return rd == 0 ? kIllegal : EncodeI(kOpJalr, 0, 0, rd, 0);
        }
        return EncodeR(kOpReg, rd, 0, 0, rs2, 0);  // c.mv
      }
      if (rs2 == 0) {
        if (rd == 0) {  // c.ebreak
          return EncodeI(kOpSystem, 0, 0, 0, 1);
        }
        return EncodeI(kOpJalr, kRa, 0, rd, 0);  // c.jalr
      }
      return EncodeR(kOpReg, rd, 0, rd, rs2, 0);  // c.add
    case 0b110: {                                 // c.swsp
      const uint32_t offset = Bits(c, 12, 9, 2) | Bits(c, 8, 7, 6);
      return EncodeS(kOpStore, 2, kSp, rs2, static_cast<int32_t>(offset));
    }
    default:  // c.fldsp, c.flwsp, c.fsdsp, c.fswsp.
      return kIllegal;
  }
}

}  // namespace

uint32_t ExpandCompressed(uint16_t parcel) {
  const uint32_t c = parcel;
  switch (c & 0x3) {
    case 0:
      return Quadrant0(c);
    case 1:
      return Quadrant1(c);
    case 2:
      return Quadrant2(c);
    default:
      return kIllegal;  // Not a compressed parcel.
  }
}

}  // namespace lq::riscv
