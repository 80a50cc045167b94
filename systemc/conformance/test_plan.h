// SPDX-License-Identifier: Apache-2.0
// The conformance test plan (systemc/conformance/plan.yaml): which spec
// clause each test point checks, with which stimulus, by which test, at
// which layer, and whether it is mandatory. Compiled into lqemu.
#pragma once

#include <string>
#include <vector>

#include "models/common/result.h"

namespace lq::conformance {

struct TestPoint {
  std::string id;      // "DLL-3.5/a": the clause and a letter.
  std::string clause;  // "DLL-3.5"
  std::string layer;   // phy, dll, net, trn or log.
  bool mandatory = true;
  std::string checks;    // What is checked.
  std::string stimulus;  // With which stimulus.
  std::string test;      // The case that implements it.
};

struct TestPlan {
  std::vector<TestPoint> points;
  // Chapters ("DLL") in which every normative clause has a test point.
  std::vector<std::string> complete_chapters;
};

// Parses a plan; errors read "SOURCE:LINE: message".
Result<TestPlan> ParseTestPlan(const std::string& yaml,
                               const std::string& source);
// The plan compiled into this build.
const TestPlan& BuiltInTestPlan();
extern const char* const kConformancePlanYaml;

}  // namespace lq::conformance
