// SPDX-License-Identifier: Apache-2.0
// Verilator tests of prim_crc64 against the C++ reference lq::crc::Crc64Xz(),
// for the flit sizes of both link profiles and for small sizes that exercise
// the byte tail, in both of its forms: the DPI-C call into the C++ engine
// that Verilated models run and the XOR matrix synthesis reads
// (-DLQ_CRC_XOR_MATRIX).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>

#include "Vprim_crc64_b242.h"
#include "Vprim_crc64_b242_matrix.h"
#include "Vprim_crc64_b634.h"
#include "Vprim_crc64_b634_matrix.h"
#include "Vprim_crc64_b642.h"
#include "Vprim_crc64_b8.h"
#include "Vprim_crc64_b9.h"
#include "Vprim_crc64_b9_matrix.h"
#include "models/common/bytes.h"
#include "models/crc/crc.h"
#include "systemc/common/wide_bytes.h"

namespace lq::rtl {
namespace {

// The parameter variants built by CMakeLists.txt (Bytes = kBytes).
struct Bytes8 {
  using Model = Vprim_crc64_b8;
  static constexpr size_t kBytes = 8;  // One whole word.
};
struct Bytes9 {
  using Model = Vprim_crc64_b9;
  static constexpr size_t kBytes = 9;  // A word and a tail byte.
};
struct Bytes242 {
  using Model = Vprim_crc64_b242;
  static constexpr size_t kBytes = 242;  // pcie6: payload slot + DLP.
};
struct Bytes634 {
  using Model = Vprim_crc64_b634;
  static constexpr size_t kBytes = 634;  // ib: payload slot + DLP.
};
struct Bytes642 {
  using Model = Vprim_crc64_b642;
  static constexpr size_t kBytes = 642;  // A whole ib content.
};
// The synthesised form, at the widths the RTL uses and with a byte tail.
struct Matrix9 {
  using Model = Vprim_crc64_b9_matrix;
  static constexpr size_t kBytes = 9;
};
struct Matrix242 {
  using Model = Vprim_crc64_b242_matrix;
  static constexpr size_t kBytes = 242;
};
struct Matrix634 {
  using Model = Vprim_crc64_b634_matrix;
  static constexpr size_t kBytes = 634;
};

constexpr int kRandomVectors = 300;
constexpr uint32_t kSeed = 20240605;
constexpr int kBitsPerByte = 8;

// The CRC a Verilated prim_crc64 gives for `data`.
template <typename Model>
uint64_t Crc(Model& model, ByteView data) {
  Drive(model.data_i, data);
  model.eval();
  return model.crc_o;
}

// `bytes` zero bytes but for input bit `bit` (byte 0's MSB first): with the
// zero input, the basis on which an affine function of the bits is fixed.
Bytes SingleBit(size_t bytes, size_t bit) {
  Bytes data(bytes, 0);
  data[bit / kBitsPerByte] = static_cast<uint8_t>(0x80 >> (bit % kBitsPerByte));
  return data;
}

template <typename Variant>
class Crc64Test : public ::testing::Test {
 protected:
  Crc64Test()
      : context_(std::make_unique<VerilatedContext>()),
        model_(
            std::make_unique<typename Variant::Model>(context_.get(), "dut")) {}
  ~Crc64Test() override { model_->final(); }

  uint64_t Rtl(ByteView data) { return Crc(*model_, data); }

 private:
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<typename Variant::Model> model_;
};

using Variants = ::testing::Types<Bytes8, Bytes9, Bytes242, Bytes634, Bytes642,
                                  Matrix9, Matrix242, Matrix634>;
TYPED_TEST_SUITE(Crc64Test, Variants);

TYPED_TEST(Crc64Test, PHY_2_3_MatchesModelOnRandomData) {
  std::mt19937 rng(kSeed);
  Bytes data(TypeParam::kBytes);
  for (int vector = 0; vector < kRandomVectors; ++vector) {
    for (auto& byte : data) {
      byte = static_cast<uint8_t>(rng());
    }
    ASSERT_EQ(this->Rtl(data), crc::Crc64Xz().Compute(data))
        << "RTL flit CRC differs from models/crc on random vector " << vector;
  }
}

TYPED_TEST(Crc64Test, PHY_2_3_MatchesModelForEveryInputBit) {
  // The CRC is affine in its input: matching on all-zero data and on each
  // single set bit pins down every term of the RTL's XOR matrix.
  Bytes data(TypeParam::kBytes, 0);
  ASSERT_EQ(this->Rtl(data), crc::Crc64Xz().Compute(data))
      << "RTL CRC of all-zero data (the init/xorout term) is wrong";
  for (size_t bit = 0; bit < TypeParam::kBytes * kBitsPerByte; ++bit) {
    data = SingleBit(TypeParam::kBytes, bit);
    ASSERT_EQ(this->Rtl(data), crc::Crc64Xz().Compute(data))
        << "RTL CRC wrong for the single set bit " << bit
        << " (byte 0 MSB first)";
  }
  data.assign(TypeParam::kBytes, 0xFF);
  EXPECT_EQ(this->Rtl(data), crc::Crc64Xz().Compute(data))
      << "RTL CRC of all-ones data is wrong";
}

// The simulation form and the XOR matrix on the same input, both Verilated.
template <typename SimulationVariant, typename MatrixVariant>
class CrcForms {
 public:
  static_assert(SimulationVariant::kBytes == MatrixVariant::kBytes,
                "forms of one width");
  uint64_t Simulation(ByteView data) { return Crc(simulation_, data); }
  uint64_t Matrix(ByteView data) { return Crc(matrix_, data); }

 private:
  VerilatedContext context_;
  typename SimulationVariant::Model simulation_{&context_, "simulation"};
  typename MatrixVariant::Model matrix_{&context_, "matrix"};
};

// Both forms are affine over GF(2) in the input bits, so agreeing on the zero
// input and on every single set bit makes them equal on every input: the
// simulation-only form computes what the synthesised matrix does.
template <typename Simulation, typename Matrix>
void ExpectFormsEqualOnTheAffineBasis() {
  CrcForms<Simulation, Matrix> forms;
  Bytes data(Simulation::kBytes, 0);
  ASSERT_EQ(forms.Simulation(data), forms.Matrix(data)) << "zero input";
  for (size_t bit = 0; bit < Simulation::kBytes * kBitsPerByte; ++bit) {
    data = SingleBit(Simulation::kBytes, bit);
    ASSERT_EQ(forms.Simulation(data), forms.Matrix(data))
        << "single bit " << bit;
  }
}

TEST(Crc64Forms, PHY_2_3_SimulationFormEqualsMatrixAtEveryWidthTheRtlUses) {
  ExpectFormsEqualOnTheAffineBasis<Bytes9, Matrix9>();
  ExpectFormsEqualOnTheAffineBasis<Bytes242, Matrix242>();
  ExpectFormsEqualOnTheAffineBasis<Bytes634, Matrix634>();
}

TEST(Crc64Check, PHY_2_3_CatalogueCheckValue) {
  constexpr char kCheckInput[] = "123456789";
  static_assert(sizeof(kCheckInput) - 1 == Bytes9::kBytes, "variant size");
  VerilatedContext context;
  Vprim_crc64_b9 model(&context, "dut");
  const Bytes data(kCheckInput, kCheckInput + Bytes9::kBytes);
  Drive(model.data_i, data);
  model.eval();
  EXPECT_EQ(model.crc_o, crc::kCrc64Xz.check)
      << "RTL CRC-64/XZ must give the catalogue check value on '123456789'";
  model.final();
}

}  // namespace
}  // namespace lq::rtl
