// SPDX-License-Identifier: Apache-2.0
// Unit tests of scenario loading: the embedded default, YAML errors with
// line numbers, --set overrides and cross-key validation.
#include "systemc/app/scenario.h"

#include "gtest/gtest.h"
#include "systemc/app/run_command.h"
#include "systemc/app/scenario_schema.h"

namespace lq::app {
namespace {

ParamSet RootSet() { return ParamSet(ScenarioRootParamSpecs()); }

TEST(Scenario, EveryDeclaredDefaultPassesItsOwnChecks) {
  ParamSet set = RootSet();
  for (const auto& spec : set.specs()) {
    EXPECT_FALSE(set.Set(spec.key, spec.default_value))
        << spec.key << " default '" << spec.default_value << "' is invalid";
  }
  EXPECT_TRUE(ScenarioRoutedTopology(set));
}

TEST(Scenario, EmbeddedDefaultLoadsAndIsValid) {
  ParamSet set(ScenarioParamSpecs());
  const auto error = ApplyYaml(kDefaultScenarioYaml, "default", set);
  EXPECT_FALSE(error) << *error;
  EXPECT_TRUE(ScenarioRoutedTopology(set));
  EXPECT_EQ(set.Text("topology.dims"), "4x8x8")
      << "the default is the seed's 256-card torus";
  EXPECT_EQ(set.Text("run.study"), "phases")
      << "the default runs the supernode's phases";
  EXPECT_EQ(set.Text("run.phases"), "all")
      << "the default runs every phase of the supernode";
}

TEST(Scenario, RejectsUnknownKeyWithFileAndLine) {
  ParamSet set = RootSet();
  const auto error =
      ApplyYaml("link:\n  profile: ib\n  bogus: 1\n", "s.yaml", set);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rfind("s.yaml:3: unknown key 'link.bogus'", 0), 0u)
      << *error;
}

TEST(Scenario, RejectsListsAndSyntaxErrors) {
  ParamSet set = RootSet();
  const auto list = ApplyYaml("link:\n  ber: [1, 2]\n", "s.yaml", set);
  ASSERT_TRUE(list);
  EXPECT_NE(list->find("s.yaml:2:"), std::string::npos) << *list;
  const auto syntax = ApplyYaml("link: [\n", "t.yaml", set);
  ASSERT_TRUE(syntax);
  EXPECT_EQ(syntax->rfind("t.yaml:", 0), 0u) << *syntax;
  const auto scalar = ApplyYaml("just words\n", "u.yaml", set);
  EXPECT_TRUE(scalar) << "a scenario must be a map";
}

TEST(Scenario, OverridesApplyInOrderAndRejectMalformedOnes) {
  ParamSet set = RootSet();
  EXPECT_FALSE(ApplyOverrides({"link.ber=1e-9", "link.ber=1e-8"}, set));
  EXPECT_DOUBLE_EQ(set.Real("link.ber"), 1e-8) << "later --set wins";
  EXPECT_TRUE(ApplyOverrides({"link.ber"}, set));
  EXPECT_TRUE(ApplyOverrides({"=3"}, set));
}

TEST(Scenario, RejectsMalformedDimensions) {
  for (const char* dims :
       {"4x", "x8", "4x0x8", "4xax8", "", "4x8x8x8x8x8x8x8x8"}) {
    ParamSet set = RootSet();
    ASSERT_FALSE(set.Set("topology.dims", dims));
    EXPECT_FALSE(ScenarioRoutedTopology(set))
        << "accepted dims '" << dims << "'";
  }
}

}  // namespace
}  // namespace lq::app
