// Unit tests of scenario loading: the embedded default, YAML errors with
// line numbers, --set overrides and cross-key validation.
#include "systemc/app/scenario.h"

#include "gtest/gtest.h"
#include "models/phy/link_profile.h"
#include "models/roce/packet.h"
#include "systemc/app/run_command.h"
#include "systemc/app/scenario_schema.h"
#include "systemc/fabric/fabric.h"

namespace lq::app {
namespace {

ParamSet FabricSet() { return ParamSet(ScenarioRootParamSpecs()); }

TEST(Scenario, EveryDeclaredDefaultPassesItsOwnChecks) {
  ParamSet set = FabricSet();
  for (const auto& spec : set.specs()) {
    EXPECT_FALSE(set.Set(spec.key, spec.default_value))
        << spec.key << " default '" << spec.default_value << "' is invalid";
  }
  EXPECT_FALSE(fabric::ValidateFabricParams(set));
}

TEST(Scenario, EmbeddedDefaultLoadsAndIsValid) {
  ParamSet set(ScenarioParamSpecs());
  const auto error = ApplyYaml(kDefaultScenarioYaml, "default", set);
  EXPECT_FALSE(error) << *error;
  EXPECT_FALSE(fabric::ValidateFabricParams(set));
  EXPECT_EQ(set.Text("topology.dims"), "4x8x8")
      << "the default is the seed's 256-card torus";
  EXPECT_EQ(set.Text("run.study"), "phases")
      << "the default runs the supernode's phases";
  EXPECT_EQ(set.Text("run.phases"), "all")
      << "the default runs every phase of the supernode";
}

TEST(Scenario, RejectsUnknownKeyWithFileAndLine) {
  ParamSet set = FabricSet();
  const auto error =
      ApplyYaml("link:\n  profile: ib\n  bogus: 1\n", "s.yaml", set);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rfind("s.yaml:3: unknown key 'link.bogus'", 0), 0u)
      << *error;
}

TEST(Scenario, RejectsListsAndSyntaxErrors) {
  ParamSet set = FabricSet();
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
  ParamSet set = FabricSet();
  EXPECT_FALSE(ApplyOverrides({"link.ber=1e-9", "link.ber=1e-8"}, set));
  EXPECT_DOUBLE_EQ(set.Real("link.ber"), 1e-8) << "later --set wins";
  EXPECT_TRUE(ApplyOverrides({"link.ber"}, set));
  EXPECT_TRUE(ApplyOverrides({"=3"}, set));
}

TEST(Scenario, RejectsMessagesThatDoNotFitOneFlit) {
  ParamSet set = FabricSet();
  ASSERT_FALSE(set.Set("traffic.message_bytes", "4000"));
  const auto error = fabric::ValidateFabricParams(set);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("traffic.message_bytes"), std::string::npos) << *error;
}

// A message is accepted exactly when its whole frame, the BTH pad to a
// 4-byte multiple included, fits the profile's payload slot: an accepted
// size that did not fit once crashed the link at its first flit.
TEST(Scenario, AcceptsExactlyTheMessagesWhoseFrameFitsOneFlit) {
  for (const auto& name : phy::LinkProfileNames()) {
    const size_t slot = phy::FindLinkProfile(name).value().payload_bytes;
    for (size_t bytes = 16; bytes <= slot; ++bytes) {
      ParamSet set = FabricSet();
      ASSERT_FALSE(set.Set("link.profile", name));
      ASSERT_FALSE(set.Set("traffic.message_bytes", std::to_string(bytes)));
      const bool fits = roce::FrameSize(roce::Opcode::kSendOnly, bytes) <= slot;
      EXPECT_EQ(!fabric::ValidateFabricParams(set), fits)
          << name << ", " << bytes << " B";
    }
  }
}

TEST(Scenario, RejectsMalformedDimensions) {
  for (const char* dims :
       {"4x", "x8", "4x0x8", "4xax8", "", "4x8x8x8x8x8x8x8x8"}) {
    ParamSet set = FabricSet();
    ASSERT_FALSE(set.Set("topology.dims", dims));
    EXPECT_TRUE(fabric::ValidateFabricParams(set))
        << "accepted dims '" << dims << "'";
  }
}

}  // namespace
}  // namespace lq::app
