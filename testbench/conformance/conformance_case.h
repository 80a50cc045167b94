// A conformance case: one test point's stimulus and checks, run as a
// SystemC thread in a ConformanceBench of its own, and the verdict it
// reaches with its evidence (the simulated time and what was observed).
#pragma once

#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "testbench/conformance/conformance_bench.h"

namespace lq::conformance {

class Verdict {
 public:
  // Records a failure unless `ok`; the first failure's evidence is kept,
  // stamped with the simulated time. Returns `ok`.
  bool Expect(bool ok, const std::string& evidence);
  void Fail(const std::string& evidence) { Expect(false, evidence); }
  bool failed() const { return failures_ > 0; }
  unsigned failures() const { return failures_; }
  const std::string& evidence() const { return evidence_; }
  // What the case observed when it passed (optional, for the report).
  void Note(std::string note) { note_ = std::move(note); }
  const std::string& note() const { return note_; }

 private:
  unsigned failures_ = 0;
  std::string evidence_;
  std::string note_;
};

struct CaseContext {
  ConformanceBench& bench;
  Verdict& verdict;
};

struct ConformanceCase {
  // Carries the clause ID it checks (docs/spec/README.md: "Tests cite
  // clauses"), e.g. DLL_3_5_GapGetsSelectiveNak.
  std::string name;
  BenchTraffic traffic;
  // The case fails if its body has not returned by then (simulated time).
  sc_core::sc_time limit = sc_core::sc_time(200, sc_core::SC_US);
  std::function<void(CaseContext&)> body;
};

// Every case of the suite, by chapter.
std::vector<ConformanceCase> DllFlitCases();  // dll.md sections 1-5
std::vector<ConformanceCase> DllLinkCases();  // sections 6-8, 11
std::vector<ConformanceCase> AllCases();

}  // namespace lq::conformance
