// SPDX-License-Identifier: Apache-2.0
// The test plan against the spec and the suite: every point's clause is a
// clause of docs/spec, every point's test is a case, every case serves a
// point whose clause its name carries, and every clause of a chapter the
// plan calls complete has a point.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/suite.h"
#include "systemc/conformance/test_plan.h"

namespace lq::conformance {
namespace {

const std::vector<std::string> kEveryLayer = {"phy", "dll", "net", "trn",
                                              "log"};

// Clause IDs defined in docs/spec/*.md ("**[DLL-3.5]**"), by chapter.
std::map<std::string, std::set<std::string>> SpecClauses() {
  std::map<std::string, std::set<std::string>> clauses;
  const std::regex defined(
      "\\*\\*\\[((PHY|DLL|NET|TRN|LOG)-[0-9]+\\.[0-9]+)\\]\\*\\*");
  for (const char* chapter : {"phy", "dll", "net", "trn", "log"}) {
    std::ifstream file(std::string(LQ_SOURCE_DIR) + "/docs/spec/" + chapter +
                       ".md");
    std::stringstream text;
    text << file.rdbuf();
    const std::string s = text.str();
    for (std::sregex_iterator it(s.begin(), s.end(), defined), end; it != end;
         ++it) {
      clauses[(*it)[2].str()].insert((*it)[1].str());
    }
  }
  return clauses;
}

// "DLL_3_5_GapGetsSelectiveNak" cites "DLL-3.5".
std::string CitedClause(const std::string& test) {
  std::smatch match;
  const std::regex cited("^(PHY|DLL|NET|TRN|LOG)_([0-9]+)_([0-9]+)_");
  if (!std::regex_search(test, match, cited)) {
    return "";
  }
  return match[1].str() + "-" + match[2].str() + "." + match[3].str();
}

TEST(ConformancePlan, EveryPointNamesAClauseOfTheSpec) {
  const auto spec = SpecClauses();
  ASSERT_GT(spec.at("DLL").size(), 50u) << "spec chapters not found";
  for (const TestPoint& point : BuiltInTestPlan().points) {
    const std::string chapter = point.clause.substr(0, 3);
    EXPECT_EQ(spec.at(chapter).count(point.clause), 1u)
        << point.id << " names " << point.clause
        << ", which docs/spec does not define";
  }
}

TEST(ConformancePlan, EveryPointHasATestAndEveryTestAPoint) {
  std::set<std::string> named;
  for (const TestPoint& point : BuiltInTestPlan().points) {
    named.insert(point.test);
  }
  EXPECT_TRUE(SelectPoints(BuiltInTestPlan(), "*", kEveryLayer))
      << SelectPoints(BuiltInTestPlan(), "*", kEveryLayer).error().reason;
  std::set<std::string> cases;
  for (const ConformanceCase& c : AllCases()) {
    EXPECT_TRUE(cases.insert(c.name).second) << c.name << " defined twice";
    EXPECT_EQ(named.count(c.name), 1u)
        << "case " << c.name << " implements no test point of the plan";
  }
}

TEST(ConformancePlan, EveryCaseServesTheClauseItsNameCites) {
  std::map<std::string, std::set<std::string>> clauses_of;
  for (const TestPoint& point : BuiltInTestPlan().points) {
    clauses_of[point.test].insert(point.clause);
  }
  for (const ConformanceCase& c : AllCases()) {
    const std::string cited = CitedClause(c.name);
    ASSERT_FALSE(cited.empty()) << c.name << " cites no clause";
    EXPECT_EQ(clauses_of[c.name].count(cited), 1u)
        << c.name << " cites " << cited << " but no point of that clause "
        << "names it";
  }
}

TEST(ConformancePlan, CompleteChaptersHaveAPointForEveryClause) {
  const auto spec = SpecClauses();
  std::set<std::string> covered;
  for (const TestPoint& point : BuiltInTestPlan().points) {
    covered.insert(point.clause);
  }
  for (const std::string& chapter : BuiltInTestPlan().complete_chapters) {
    ASSERT_EQ(spec.count(chapter), 1u) << "no chapter " << chapter;
    for (const std::string& clause : spec.at(chapter)) {
      EXPECT_EQ(covered.count(clause), 1u)
          << clause << " has no test point, and chapter " << chapter
          << " is listed as complete";
    }
  }
}

TEST(ConformancePlan, MalformedPlansAreRejectedWithFileAndLine) {
  const auto error = [](const std::string& yaml) {
    Result<TestPlan> plan = ParseTestPlan(yaml, "plan.yaml");
    return plan ? std::string() : plan.error().reason;
  };
  const std::string point =
      "points:\n"
      "  - id: DLL-3.5/a\n"
      "    clause: DLL-3.5\n"
      "    layer: dll\n"
      "    requirement: mandatory\n"
      "    checks: c\n"
      "    stimulus: s\n"
      "    test: t\n";
  EXPECT_EQ(error(point), "");
  EXPECT_EQ(error("points: [\n"),
            "plan.yaml:2: end of sequence flow not found");
  EXPECT_EQ(error("nothing: 1\n"),
            "plan.yaml:1: the plan needs a list 'points'");
  EXPECT_EQ(error("points: [x]\n"),
            "plan.yaml:1: a test point is a map of keys");
  EXPECT_EQ(error("complete_chapters: DLL\n" + point),
            "plan.yaml:1: complete_chapters must be a list ([DLL, TRN])");
  EXPECT_EQ(error("points:\n  - id: [1, 2]\n"),
            "plan.yaml:2: test point needs 'id'");
  std::string no_test = point.substr(0, point.find("    test:"));
  EXPECT_EQ(error(no_test), "plan.yaml:2: test point needs 'test'");
  std::string wrong_id = point;
  wrong_id.replace(wrong_id.find("DLL-3.5/a"), 9, "DLL-3.6/a");
  EXPECT_EQ(error(wrong_id),
            "plan.yaml:2: id 'DLL-3.6/a' is not the clause 'DLL-3.5' and a "
            "letter (DLL-3.5/a)");
  std::string bad_requirement = point;
  bad_requirement.replace(bad_requirement.find("mandatory"), 9, "maybe");
  EXPECT_EQ(error(bad_requirement),
            "plan.yaml:2: requirement 'maybe' is neither mandatory nor "
            "optional");
  EXPECT_EQ(error(point + point.substr(point.find("  - id"))),
            "plan.yaml:9: test point 'DLL-3.5/a' is listed twice");
}

TEST(ConformancePlan, FilterSelectsByIdClauseOrTest) {
  const TestPlan& plan = BuiltInTestPlan();
  Result<std::vector<TestPoint>> by_clause =
      SelectPoints(plan, "DLL-4.*", kEveryLayer);
  ASSERT_TRUE(by_clause);
  for (const TestPoint& point : *by_clause) {
    EXPECT_EQ(point.clause.rfind("DLL-4.", 0), 0u) << point.id;
  }
  Result<std::vector<TestPoint>> by_test =
      SelectPoints(plan, "*GapGetsSelectiveNak", kEveryLayer);
  ASSERT_TRUE(by_test);
  EXPECT_EQ(by_test->size(), 1u);
  EXPECT_FALSE(SelectPoints(plan, "NOPE-*", kEveryLayer));
}

TEST(ConformancePlan, ADutIsCheckedOnlyAtTheLayersItImplements) {
  const TestPlan& plan = BuiltInTestPlan();
  Result<std::vector<TestPoint>> link = SelectPoints(plan, "*", {"dll"});
  ASSERT_TRUE(link);
  for (const TestPoint& point : *link) {
    EXPECT_EQ(point.layer, "dll") << point.id;
  }
  ASSERT_TRUE(SelectPoints(plan, "TRN-*", kEveryLayer));
  EXPECT_FALSE(SelectPoints(plan, "TRN-*", {"dll"}));
  EXPECT_EQ(DutLayers("tlm"), kEveryLayer);
  EXPECT_EQ(DutLayers("rtl"), (std::vector<std::string>{"phy", "dll"}));
}

TEST(ConformanceReport, PointFailsOnlyOnItsClauseOrOnAnUntaggedCheck) {
  app::PhaseResult outcome;
  outcome.name = "DLL_4_3_StandardNakStartsGoBackReplay";
  outcome.stats = nlohmann::ordered_json::parse(R"({
    "verdict": "fail", "evidence": "at 1 us: slot differs",
    "failures": {"DLL-1.6": "at 1 us: slot differs"}})");
  const auto judge = [&outcome](const std::string& clause) {
    PointResult result;
    result.point.clause = clause;
    JudgePoint(outcome, result);
    return result;
  };
  EXPECT_EQ(judge("DLL-1.6").verdict, PointVerdict::kFail);
  EXPECT_EQ(judge("DLL-1.6").evidence, "at 1 us: slot differs");
  EXPECT_EQ(judge("DLL-4.3").verdict, PointVerdict::kPass);
  EXPECT_EQ(judge("DLL-4.3").evidence,
            "this clause's checks passed (the case failed on DLL-1.6)");

  (*outcome.stats)["failures"][""] = "at 2 us: stimulus: no ACK";
  EXPECT_EQ(judge("DLL-4.3").verdict, PointVerdict::kFail);
  EXPECT_EQ(judge("DLL-4.3").evidence, "at 2 us: stimulus: no ACK");

  outcome.stats = nlohmann::ordered_json::parse(
      R"({"verdict": "error", "evidence": "sc_report: boom"})");
  EXPECT_EQ(judge("DLL-4.3").verdict, PointVerdict::kError);
  EXPECT_EQ(judge("DLL-4.3").evidence, "sc_report: boom");

  outcome.stats.reset();
  outcome.failure = "killed by signal 11";
  EXPECT_EQ(judge("DLL-4.3").verdict, PointVerdict::kError);
  EXPECT_EQ(judge("DLL-4.3").evidence, "the case killed by signal 11");
}

}  // namespace
}  // namespace lq::conformance
