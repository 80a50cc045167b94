// SPDX-License-Identifier: Apache-2.0
// Runs the conformance suite: the test plan's points (those a filter
// selects) against one DUT, each case in a process of its own, and
// reports per-clause verdicts as a table, Markdown and JUnit XML.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "systemc/app/phase_runner.h"
#include "systemc/conformance/test_plan.h"

namespace lq::conformance {

struct SuiteOptions {
  std::string dut = "tlm";
  std::string mutant;         // Empty: the DUT as built.
  std::string filter = "*";   // Glob over point IDs, clauses and test names.
  std::string junit_path;     // Empty: no JUnit XML.
  std::string markdown_path;  // Empty: no Markdown report.
  unsigned parallel = 2;
  bool progress = false;  // A line per finished case on stderr.
};

enum class PointVerdict { kPass, kFail, kError };
const char* PointVerdictName(PointVerdict verdict);

struct PointResult {
  TestPoint point;
  PointVerdict verdict = PointVerdict::kPass;
  std::string evidence;  // Why it failed, or what a pass observed.
  double wall_s = 0;
};

struct SuiteReport {
  std::string dut;                  // "tlm", or "tlm with mutant ignores-nak".
  std::vector<std::string> layers;  // Those the DUT implements.
  std::vector<PointResult> results;
  unsigned passed = 0, failed = 0, errors = 0;
  bool MandatoryFailed() const;
};

// The plan's points of `layers` (DutLayers()) that `filter` selects, or an
// error naming what is wrong: a point whose test is no case, or a filter
// that selects nothing of those layers.
Result<std::vector<TestPoint>> SelectPoints(
    const TestPlan& plan, const std::string& filter,
    const std::vector<std::string>& layers);

// The verdict of `result.point` from its case's outcome (a child's
// verdict file): ERROR if the case crashed or threw; FAIL if a check about
// the point's clause failed, or one about no clause; else PASS.
void JudgePoint(const app::PhaseResult& outcome, PointResult& result);

// Runs the cases behind `points` against the DUT (each case once, however
// many points it serves).
SuiteReport RunSuite(const std::vector<TestPoint>& points,
                     const SuiteOptions& options);

void PrintTable(const SuiteReport& report, std::FILE* out);
std::string MarkdownReport(const SuiteReport& report);
std::string JunitReport(const SuiteReport& report);

// `lqemu conformance`: returns the exit status (0 every mandatory point
// passed, 1 one failed, 2 bad input).
int RunConformanceCommand(const SuiteOptions& options);

}  // namespace lq::conformance
