// SPDX-License-Identifier: Apache-2.0
// Unit tests of declared parameters: every value stored has passed its checks.
#include "systemc/common/param.h"

#include "gtest/gtest.h"

namespace lq {
namespace {

ParamSet MakeSet() {
  return ParamSet({
      {"a.count", "how many", "3", "", ParamType::kInteger, 1, 10, {}},
      {"a.rate", "how fast", "0.5", "Gb/s", ParamType::kReal, 0, 1, {}},
      {"a.mode",
       "which",
       "fast",
       "",
       ParamType::kChoice,
       0,
       0,
       {"fast", "slow"}},
      {"a.name", "what", "x", "", ParamType::kText, 0, 0, {}},
      {"a.clock",
       "how often",
       "auto",
       "GHz",
       ParamType::kReal,
       0.1,
       10,
       {"auto"}},
  });
}

TEST(ParamSet, StartsFromDefaults) {
  const ParamSet set = MakeSet();
  EXPECT_EQ(set.Integer("a.count"), 3);
  EXPECT_DOUBLE_EQ(set.Real("a.rate"), 0.5);
  EXPECT_EQ(set.Text("a.mode"), "fast");
}

TEST(ParamSet, AcceptsValidValues) {
  ParamSet set = MakeSet();
  EXPECT_FALSE(set.Set("a.count", "10"));
  EXPECT_FALSE(set.Set("a.rate", "1e-3"));
  EXPECT_FALSE(set.Set("a.mode", "slow"));
  EXPECT_EQ(set.Integer("a.count"), 10);
  EXPECT_DOUBLE_EQ(set.Real("a.rate"), 1e-3);
  EXPECT_EQ(set.Text("a.mode"), "slow");
}

TEST(ParamSet, RejectsUnknownKeyAndSuggestsTheNearest) {
  ParamSet set = MakeSet();
  EXPECT_EQ(set.Set("a.cuont", "1"),
            "unknown key 'a.cuont' (did you mean 'a.count'? `lqemu list` "
            "names every key)");
  EXPECT_EQ(set.Set("a.rat", "1"),
            "unknown key 'a.rat' (did you mean 'a.rate'? `lqemu list` names "
            "every key)");
  EXPECT_EQ(set.Set("b.elsewhere", "1"),
            "unknown key 'b.elsewhere' (`lqemu list` names every key)")
      << "no key is a typo away: none is suggested";
}

TEST(ParamSet, RejectsBadValuesAndKeepsTheOldOne) {
  ParamSet set = MakeSet();
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"a.count", "1.5"},
                                                        {"a.count", "abc"},
                                                        {"a.count", ""},
                                                        {"a.count", "11"},
                                                        {"a.count", "0"},
                                                        {"a.rate", "nan"},
                                                        {"a.rate", "1.01"},
                                                        {"a.rate", "0.5x"},
                                                        {"a.mode", "medium"}}) {
    EXPECT_TRUE(set.Set(key, value)) << key << "=" << value << " accepted";
  }
  EXPECT_EQ(set.Integer("a.count"), 3)
      << "a rejected value must change nothing";
  EXPECT_DOUBLE_EQ(set.Real("a.rate"), 0.5);
  EXPECT_EQ(set.Text("a.mode"), "fast");
}

TEST(ParamSet, ANumberTakesItsWordsInstead) {
  ParamSet set = MakeSet();
  EXPECT_EQ(set.Text("a.clock"), "auto");
  EXPECT_FALSE(set.HoldsNumber("a.clock")) << "a word: no number to read";
  EXPECT_FALSE(set.Set("a.clock", "2"));
  EXPECT_TRUE(set.HoldsNumber("a.clock"));
  EXPECT_DOUBLE_EQ(set.Real("a.clock"), 2);
  EXPECT_FALSE(set.Set("a.clock", "auto"));
  EXPECT_EQ(set.Text("a.clock"), "auto");
  EXPECT_FALSE(set.HoldsNumber("a.clock"));
  const auto refused = set.Set("a.clock", "fast");
  ASSERT_TRUE(refused);
  EXPECT_EQ(*refused, "'a.clock' wants a number or 'auto', not 'fast'");
  EXPECT_TRUE(set.Set("a.clock", "20")) << "the range still holds";
  EXPECT_TRUE(set.Set("a.count", "auto")) << "a word of another key";
  EXPECT_TRUE(set.HoldsNumber("a.count"));
  EXPECT_FALSE(set.HoldsNumber("a.name")) << "text is never a number";
}

TEST(ParamSet, ValuesFollowDeclarationOrder) {
  const auto values = MakeSet().Values();
  ASSERT_EQ(values.size(), 5u);
  EXPECT_EQ(values[0].first, "a.count");
  EXPECT_EQ(values[3].first, "a.name");
}

}  // namespace
}  // namespace lq
