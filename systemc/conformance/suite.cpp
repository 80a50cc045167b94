// SPDX-License-Identifier: Apache-2.0
// Selecting, running and reporting the conformance suite.
#include "systemc/conformance/suite.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <systemc>
#include <tuple>
#include <utility>

#include "systemc/app/exit_status.h"
#include "systemc/app/phase_runner.h"
#include "systemc/common/function_thread.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/frame_mutants.h"
#include "systemc/conformance/mutants.h"
#include "systemc/conformance/router_mutants.h"

namespace lq::conformance {

namespace {

bool Matches(const std::string& glob, const std::string& text) {
  return fnmatch(glob.c_str(), text.c_str(), 0) == 0;
}

std::map<std::string, ConformanceCase> CasesByName() {
  std::map<std::string, ConformanceCase> cases;
  for (ConformanceCase& c : AllCases()) {
    cases.emplace(c.name, std::move(c));
  }
  return cases;
}

// The child's side: one case in a fresh bench; its verdict as JSON.
int RunCaseOrThrow(const ConformanceCase& c, const SuiteOptions& options,
                   const std::string& result_path);

// The child's verdict file: "pass", "fail" (with the first evidence per
// clause) or "error".
void WriteResult(const std::string& path, const char* verdict,
                 const std::string& evidence,
                 const std::map<std::string, std::string>& failures = {}) {
  nlohmann::ordered_json result;
  result["verdict"] = verdict;
  result["evidence"] = evidence;
  result["failures"] = failures;
  result["sim_time_ns"] = sc_core::sc_time_stamp().to_seconds() * 1e9;
  std::ofstream(path) << result.dump(2) << "\n";
}

int RunCase(const ConformanceCase& c, const SuiteOptions& options,
            const std::string& result_path) {
  try {
    return RunCaseOrThrow(c, options, result_path);
  } catch (const std::exception& error) {  // sc_report included
    WriteResult(result_path, "error", error.what());
    return 1;
  }
}

int RunCaseOrThrow(const ConformanceCase& c, const SuiteOptions& options,
                   const std::string& result_path) {
  // A mutant of the other layer leaves the DUT as built.
  Verdict verdict;
  std::unique_ptr<ConformanceBench> link_bench;
  std::unique_ptr<TransportBench> transport_bench;
  std::unique_ptr<RouterBench> router_bench;
  std::unique_ptr<LogicalBench> logical_bench;
  std::function<void()> body;
  if (c.logical_case()) {
    const std::optional<FrameMutant> mutant =
        MakeFrameMutant(options.mutant, "log");
    logical_bench = std::make_unique<LogicalBench>(mutant ? &*mutant : nullptr);
    body = [&] {
      LogicalCaseContext context{*logical_bench, verdict};
      c.logical_body(context);
    };
  } else if (c.router_case()) {
    const std::optional<RouterMutant> mutant = MakeRouterMutant(options.mutant);
    router_bench =
        std::make_unique<RouterBench>(c.router, mutant ? &*mutant : nullptr);
    body = [&] {
      RouterCaseContext context{*router_bench, verdict};
      c.router_body(context);
    };
  } else if (c.transport()) {
    const std::optional<FrameMutant> mutant =
        MakeFrameMutant(options.mutant, "trn");
    transport_bench = std::make_unique<TransportBench>(
        c.transport_bench, mutant ? &*mutant : nullptr);
    body = [&] {
      TransportCaseContext context{*transport_bench, verdict};
      c.transport_body(context);
    };
  } else {
    std::unique_ptr<PortTap> mutant;
    if (!options.mutant.empty()) {
      mutant =
          MakeMutant(options.mutant, phy::FindLinkProfile("pcie6").value());
    }
    link_bench = std::make_unique<ConformanceBench>(
        MakeDut(options.dut), std::move(mutant), c.traffic);
    body = [&] {
      CaseContext context{*link_bench, verdict};
      c.body(context);
    };
  }
  // The case's sc_stop() is how it ends, not news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  FunctionThread thread("case", [&] {
    body();
    sc_core::sc_stop();
  });
  sc_core::sc_start(c.limit);
  if (!thread.finished()) {
    verdict.Fail("the case did not finish within " +
                 std::to_string(c.limit.to_seconds() * 1e6) + " us");
  }
  WriteResult(result_path, verdict.failed() ? "fail" : "pass",
              verdict.failed() ? verdict.evidence() : verdict.note(),
              verdict.failures());
  return 0;
}

std::string XmlEscaped(const std::string& text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // XML 1.0 has no place for other control characters.
        out += static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t'
                   ? ' '
                   : ch;
    }
  }
  return out;
}

std::string MarkdownCell(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|') {
      out += "\\|";
    } else {
      out += ch == '\n' ? ' ' : ch;  // A cell is one line.
    }
  }
  return out;
}

// Points in the spec's order: chapter, section, rule, then letter.
bool ClauseOrder(const TestPoint& a, const TestPoint& b) {
  static const std::string kChapters = "PHY DLL NET TRN LOG";
  const auto key = [](const TestPoint& point) {
    unsigned section = 0, rule = 0;
    std::sscanf(point.clause.c_str() + 4, "%u.%u", &section, &rule);
    return std::make_tuple(kChapters.find(point.clause.substr(0, 3)), section,
                           rule, point.id);
  };
  return key(a) < key(b);
}

// "DLL, TRN".
std::string LayerList(const std::vector<std::string>& layers) {
  std::string list;
  for (const std::string& layer : layers) {
    std::string upper = layer;
    for (char& ch : upper) {
      ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    }
    list += (list.empty() ? "" : ", ") + upper;
  }
  return list;
}

std::string FailedClauses(const nlohmann::ordered_json& failures) {
  std::string clauses;
  for (const auto& [clause, evidence] : failures.items()) {
    clauses += (clauses.empty() ? "" : ", ") + clause;
  }
  return clauses;
}

}  // namespace

void JudgePoint(const app::PhaseResult& outcome, PointResult& result) {
  const std::string said =
      outcome.stats ? outcome.stats->value("verdict", "") : "";
  if (said == "error") {
    result.verdict = PointVerdict::kError;
    result.evidence = outcome.stats->value("evidence", "");
    return;
  }
  if (!outcome.Ok() || !outcome.stats) {
    result.verdict = PointVerdict::kError;
    result.evidence = "the case " + outcome.failure;
    return;
  }
  // A point fails on a check about it, its clause, or none.
  const auto& stats = *outcome.stats;
  const nlohmann::ordered_json failures =
      stats.value("failures", nlohmann::ordered_json::object());
  result.verdict = PointVerdict::kPass;
  result.evidence = stats.value("evidence", "");
  for (const std::string& key :
       {result.point.id, result.point.clause, std::string()}) {
    if (result.verdict == PointVerdict::kPass && failures.contains(key)) {
      result.verdict = PointVerdict::kFail;
      result.evidence = failures[key].get<std::string>();
    }
  }
  if (result.verdict == PointVerdict::kPass && said == "fail") {
    result.evidence = "this clause's checks passed (the case failed on " +
                      FailedClauses(failures) + ")";
  }
}

const char* PointVerdictName(PointVerdict verdict) {
  switch (verdict) {
    case PointVerdict::kPass:
      return "pass";
    case PointVerdict::kFail:
      return "FAIL";
    case PointVerdict::kError:
      return "ERROR";
  }
  return "?";
}

bool SuiteReport::MandatoryFailed() const {
  for (const PointResult& result : results) {
    if (result.point.mandatory && result.verdict != PointVerdict::kPass) {
      return true;
    }
  }
  return false;
}

Result<std::vector<TestPoint>> SelectPoints(
    const TestPlan& plan, const std::string& filter,
    const std::vector<std::string>& layers) {
  const std::map<std::string, ConformanceCase> cases = CasesByName();
  std::vector<TestPoint> selected;
  for (const TestPoint& point : plan.points) {
    if (cases.count(point.test) == 0) {
      return Fail("test point " + point.id + " names test '" + point.test +
                  "', which is not a case of the suite");
    }
    const bool implemented =
        std::find(layers.begin(), layers.end(), point.layer) != layers.end();
    if (implemented &&
        (Matches(filter, point.id) || Matches(filter, point.clause) ||
         Matches(filter, point.test))) {
      selected.push_back(point);
    }
  }
  std::stable_sort(selected.begin(), selected.end(), ClauseOrder);
  if (selected.empty()) {
    std::string names;
    for (const std::string& layer : layers) {
      names += (names.empty() ? "" : ", ") + layer;
    }
    return Fail("--filter '" + filter + "' selects no test point of the " +
                "layers this DUT implements (" + names +
                "); it matches point IDs such as DLL-3.5/a, clauses such as "
                "DLL-3.5, and test names");
  }
  return selected;
}

SuiteReport RunSuite(const std::vector<TestPoint>& points,
                     const SuiteOptions& options) {
  const std::map<std::string, ConformanceCase> cases = CasesByName();
  std::vector<std::string> tests;  // Each case once, in plan order.
  std::set<std::string> seen;
  for (const TestPoint& point : points) {
    if (seen.insert(point.test).second) {
      tests.push_back(point.test);
    }
  }
  std::vector<app::PhaseJob> jobs;
  for (const std::string& test : tests) {
    const ConformanceCase& c = cases.at(test);
    jobs.push_back({test, [&c, &options](const std::string& path) {
                      return RunCase(c, options, path);
                    }});
  }
  auto on_done = [&](const app::PhaseResult& result, size_t done) {
    if (options.progress) {
      std::fprintf(stderr, "[%zu/%zu] %s\n", done, jobs.size(),
                   result.name.c_str());
    }
  };
  const std::vector<app::PhaseResult> outcomes =
      app::RunPhases(jobs, options.parallel, on_done);
  std::map<std::string, const app::PhaseResult*> by_test;
  for (const app::PhaseResult& outcome : outcomes) {
    by_test[outcome.name] = &outcome;
  }

  SuiteReport report;
  report.dut = options.dut +
               (options.mutant.empty() ? "" : " with mutant " + options.mutant);
  report.layers = DutLayers(options.dut);
  for (const TestPoint& point : points) {
    const app::PhaseResult& outcome = *by_test.at(point.test);
    PointResult result;
    result.point = point;
    result.wall_s = outcome.wall_s;
    JudgePoint(outcome, result);
    switch (result.verdict) {
      case PointVerdict::kPass:
        ++report.passed;
        break;
      case PointVerdict::kFail:
        ++report.failed;
        break;
      case PointVerdict::kError:
        ++report.errors;
        break;
    }
    report.results.push_back(std::move(result));
  }
  return report;
}

void PrintTable(const SuiteReport& report, std::FILE* out) {
  std::fprintf(out,
               "lqemu conformance: DUT %s (layers %s), %zu test point%s\n\n",
               report.dut.c_str(), LayerList(report.layers).c_str(),
               report.results.size(), report.results.size() == 1 ? "" : "s");
  std::fprintf(out, "%-10s %-12s %-7s %s\n", "clause", "point", "verdict",
               "test");
  for (const PointResult& result : report.results) {
    std::fprintf(out, "%-10s %-12s %-7s %s\n", result.point.clause.c_str(),
                 result.point.id.c_str(), PointVerdictName(result.verdict),
                 result.point.test.c_str());
    if (result.verdict != PointVerdict::kPass) {
      std::fprintf(out, "           %s\n", result.evidence.c_str());
    }
  }
  std::fprintf(out, "\n%u passed, %u failed, %u errors\n", report.passed,
               report.failed, report.errors);
}

std::string MarkdownReport(const SuiteReport& report) {
  std::string text =
      "# Conformance report: DUT " + report.dut + "\n\n" +
      "Layers it implements, whose points ran: " + LayerList(report.layers) +
      ".\n\n" + std::to_string(report.passed) + " passed, " +
      std::to_string(report.failed) + " failed, " +
      std::to_string(report.errors) + " errors of " +
      std::to_string(report.results.size()) +
      " test points.\n\n"
      "| clause | test point | checks | verdict | evidence |\n"
      "|---|---|---|---|---|\n";
  for (const PointResult& result : report.results) {
    text += "| " + result.point.clause + " | " + result.point.id +
            (result.point.mandatory ? "" : " (optional)") + " | " +
            MarkdownCell(result.point.checks) + " | " +
            PointVerdictName(result.verdict) + " | " +
            MarkdownCell(result.evidence) + " |\n";
  }
  return text;
}

std::string JunitReport(const SuiteReport& report) {
  std::string text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  text += "<testsuite name=\"lqemu conformance, DUT " + XmlEscaped(report.dut) +
          "\" tests=\"" + std::to_string(report.results.size()) +
          "\" failures=\"" + std::to_string(report.failed) + "\" errors=\"" +
          std::to_string(report.errors) + "\">\n";
  for (const PointResult& result : report.results) {
    char time[32];
    std::snprintf(time, sizeof(time), "%.3f", result.wall_s);
    text += "  <testcase classname=\"" + XmlEscaped(result.point.clause) +
            "\" name=\"" +
            XmlEscaped(result.point.id + " " + result.point.test) +
            "\" time=\"" + time + "\">\n";
    if (result.verdict == PointVerdict::kFail) {
      text += "    <failure message=\"" + XmlEscaped(result.evidence) + "\">" +
              XmlEscaped(result.point.checks) + "</failure>\n";
    } else if (result.verdict == PointVerdict::kError) {
      text += "    <error message=\"" + XmlEscaped(result.evidence) + "\"/>\n";
    } else if (!result.evidence.empty()) {
      text +=
          "    <system-out>" + XmlEscaped(result.evidence) + "</system-out>\n";
    }
    text += "  </testcase>\n";
  }
  text += "</testsuite>\n";
  return text;
}

int RunConformanceCommand(const SuiteOptions& options) {
  const std::vector<std::string> duts = DutNames();
  if (std::find(duts.begin(), duts.end(), options.dut) == duts.end()) {
    std::string names;
    for (const std::string& name : duts) {
      names += (names.empty() ? "" : ", ") + name;
    }
    std::fprintf(stderr,
                 "lqemu conformance: --dut %s: no such DUT in this build "
                 "(choose one of: %s)\n",
                 options.dut.c_str(), names.c_str());
    return app::kExitBadInput;
  }
  if (!options.mutant.empty()) {
    bool known = false;
    for (const MutantInfo& mutant : Mutants()) {
      known = known || mutant.name == options.mutant;
    }
    if (!known) {
      std::fprintf(stderr, "lqemu conformance: --mutant %s: no such mutant\n",
                   options.mutant.c_str());
      return app::kExitBadInput;
    }
  }
  const TestPlan* plan = nullptr;
  try {
    plan = &BuiltInTestPlan();
  } catch (const std::logic_error& error) {
    std::fprintf(stderr, "lqemu conformance: %s\n", error.what());
    return app::kExitFailure;  // A broken build, not the user's input.
  }
  Result<std::vector<TestPoint>> points =
      SelectPoints(*plan, options.filter, DutLayers(options.dut));
  if (!points) {
    std::fprintf(stderr, "lqemu conformance: %s\n",
                 points.error().reason.c_str());
    return app::kExitBadInput;
  }
  // The report files are opened before the run, so that a path that
  // cannot be written is bad input found at once.
  std::ofstream junit, markdown;
  for (auto [file, path] : {std::pair{&junit, &options.junit_path},
                            std::pair{&markdown, &options.markdown_path}}) {
    if (path->empty()) {
      continue;
    }
    file->open(*path);
    if (!*file) {
      std::fprintf(stderr, "lqemu conformance: cannot write %s\n",
                   path->c_str());
      return app::kExitBadInput;
    }
  }
  const SuiteReport report = RunSuite(*points, options);
  PrintTable(report, stdout);
  bool written = true;
  for (auto [file, path, text] :
       {std::tuple{&junit, &options.junit_path, JunitReport(report)},
        std::tuple{&markdown, &options.markdown_path,
                   MarkdownReport(report)}}) {
    if (path->empty()) {
      continue;
    }
    *file << text;
    file->close();
    if (!*file) {
      std::fprintf(stderr, "lqemu conformance: writing %s failed\n",
                   path->c_str());
      written = false;
    }
  }
  if (report.MandatoryFailed()) {
    return app::kExitFailure;
  }
  return written ? app::kExitOk : app::kExitBadInput;
}

}  // namespace lq::conformance
