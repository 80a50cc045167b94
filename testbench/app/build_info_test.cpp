// SPDX-License-Identifier: Apache-2.0
// Unit tests of what names the build: --version's text and the stats
// files' `lqemu` object say the same.
#include "systemc/app/build_info.h"

#include "gtest/gtest.h"

namespace lq::app {
namespace {

TEST(BuildInfo, TheVersionTextAndTheStatsSayTheSame) {
  const auto json = BuildJson();
  ASSERT_EQ(json.size(), 5u);
  const std::string text = VersionText();
  for (const char* key : {"version", "git", "systemc", "verilator", "spec"}) {
    const std::string value = json[key];
    EXPECT_FALSE(value.empty()) << key;
    EXPECT_NE(text.find(value), std::string::npos) << key << " " << text;
  }
  EXPECT_EQ(text.rfind("lqemu ", 0), 0u) << text;
}

}  // namespace
}  // namespace lq::app
