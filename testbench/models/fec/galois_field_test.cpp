// SPDX-License-Identifier: Apache-2.0
// Tests of GF(2^m) arithmetic against a shift-and-add reference.
#include "models/fec/galois_field.h"

#include <gtest/gtest.h>

#include <random>

namespace lq::fec {
namespace {

// Schoolbook carry-less multiplication reduced by the field polynomial: an
// implementation that shares nothing with the table-driven one under test.
uint32_t ReferenceMul(uint32_t a, uint32_t b, unsigned bits, uint32_t poly) {
  uint32_t product = 0;
  while (b != 0) {
    if (b & 1) {
      product ^= a;
    }
    b >>= 1;
    a <<= 1;
    if ((a >> bits) & 1) {
      a ^= poly;
    }
  }
  return product;
}

TEST(GaloisField, PHY_3_2_Gf256MatchesReferenceForEveryPair) {
  const GaloisField gf = GaloisField::Create(kGf256Bits, kGf256Poly).value();
  for (uint32_t a = 0; a < gf.size(); ++a) {
    for (uint32_t b = 0; b < gf.size(); ++b) {
      ASSERT_EQ(gf.Mul(a, b), ReferenceMul(a, b, 8, kGf256Poly))
          << "table multiply disagrees with the polynomial definition at " << a
          << " * " << b;
    }
  }
}

TEST(GaloisField, PHY_3_4_Gf1024MatchesReferenceOnSamples) {
  const GaloisField gf = GaloisField::Create(kGf1024Bits, kGf1024Poly).value();
  std::mt19937_64 rng(1024);
  for (int i = 0; i < 200000; ++i) {
    const Symbol a = rng() & 0x3FF;
    const Symbol b = rng() & 0x3FF;
    ASSERT_EQ(gf.Mul(a, b), ReferenceMul(a, b, 10, kGf1024Poly))
        << "KP4 field multiply disagrees with x^10+x^3+1 at " << a << " * "
        << b;
  }
}

TEST(GaloisField, InverseDivideAndLogAreConsistent) {
  for (const auto& [bits, poly] :
       {std::pair<unsigned, uint32_t>{8, kGf256Poly}, {10, kGf1024Poly}}) {
    const GaloisField gf = GaloisField::Create(bits, poly).value();
    for (uint32_t a = 1; a < gf.size(); ++a) {
      const Symbol x = static_cast<Symbol>(a);
      EXPECT_EQ(gf.Mul(x, gf.Inv(x)), 1) << "a * a^-1 must be 1 for a = " << a;
      EXPECT_EQ(gf.Exp(gf.Log(x)), x) << "exp must undo log for a = " << a;
      EXPECT_EQ(gf.Div(gf.Mul(x, 7), 7), x) << "(a*7)/7 must be a";
      EXPECT_EQ(gf.Pow(x, gf.order()), 1)
          << "Fermat: a^(2^m-1) = 1 for non-zero a = " << a;
    }
    EXPECT_EQ(gf.Exp(-1), gf.Inv(gf.Exp(1))) << "negative powers count down";
    EXPECT_EQ(gf.Pow(0, 0), 1) << "0^0 is taken as 1 for polynomial evaluation";
    EXPECT_EQ(gf.Pow(0, 3), 0) << "0^n = 0 for n > 0";
  }
}

TEST(GaloisField, MultiplicationDistributesOverAddition) {
  const GaloisField gf = GaloisField::Create(kGf1024Bits, kGf1024Poly).value();
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    const Symbol a = rng() & 0x3FF;
    const Symbol b = rng() & 0x3FF;
    const Symbol c = rng() & 0x3FF;
    ASSERT_EQ(gf.Mul(a, GaloisField::Add(b, c)),
              GaloisField::Add(gf.Mul(a, b), gf.Mul(a, c)))
        << "a(b+c) = ab+ac is what makes syndromes linear";
    ASSERT_EQ(gf.Mul(a, gf.Mul(b, c)), gf.Mul(gf.Mul(a, b), c))
        << "multiplication must be associative";
  }
}

TEST(GaloisField, RejectsNonPrimitivePolynomial_fail) {
  // The AES polynomial is irreducible, but x generates only 51 elements.
  const auto aes = GaloisField::Create(8, 0x11B);
  ASSERT_FALSE(aes.ok()) << "x must generate the whole multiplicative group";
  EXPECT_NE(aes.error().reason.find("not primitive"), std::string::npos)
      << aes.error().reason;
  EXPECT_FALSE(GaloisField::Create(8, 0x100).ok()) << "x^8 is reducible";
  EXPECT_FALSE(GaloisField::Create(8, 0x409).ok())
      << "a degree-10 polynomial cannot define GF(2^8)";
  EXPECT_FALSE(GaloisField::Create(1, 0x3).ok()) << "m = 1 is out of range";
}

}  // namespace
}  // namespace lq::fec
