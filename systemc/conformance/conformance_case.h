// SPDX-License-Identifier: Apache-2.0
// A conformance case: the stimulus and checks of one or more test points, run
// as a SystemC thread in a ConformanceBench of its own, and the verdict it
// reaches with its evidence (the simulated time and what was observed).
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/conformance/conformance_bench.h"
#include "systemc/conformance/logical_bench.h"
#include "systemc/conformance/router_bench.h"
#include "systemc/conformance/transport_bench.h"

namespace lq::conformance {

// What a case found. A check may name the clauses it is about, or single
// test points ("NET-7.4/b"): its failure then fails only the case's points
// of those clauses, or those points. A check that names none (a
// precondition, or one every point shares) fails them all.
class Verdict {
 public:
  // Records a failure unless `ok`: the first evidence per clause (and for
  // the whole case) is kept, stamped with the simulated time. Returns `ok`.
  bool Expect(bool ok, const std::string& evidence,
              std::initializer_list<const char*> clauses = {});
  void Fail(const std::string& evidence) { Expect(false, evidence); }
  bool failed() const { return !failures_.empty(); }
  // The first failure's evidence.
  const std::string& evidence() const { return first_; }
  // The first evidence per clause; key "" for checks that name none.
  const std::map<std::string, std::string>& failures() const {
    return failures_;
  }
  // What the case observed when it passed (optional, for the report).
  void Note(std::string note) { note_ = std::move(note); }
  const std::string& note() const { return note_; }

 private:
  std::map<std::string, std::string> failures_;
  std::string first_;
  std::string note_;
};

struct CaseContext {
  ConformanceBench& bench;
  Verdict& verdict;
};

// The same for a case that runs in a TransportBench.
struct TransportCaseContext {
  TransportBench& bench;
  Verdict& verdict;
};

// The same for a case that runs in a RouterBench.
struct RouterCaseContext {
  RouterBench& bench;
  Verdict& verdict;
};

// The same for a case that runs in a LogicalBench.
struct LogicalCaseContext {
  LogicalBench& bench;
  Verdict& verdict;
};

struct ConformanceCase {
  // Carries the clause ID it checks (docs/spec/README.md: "Tests cite
  // clauses"), e.g. DLL_3_5_GapGetsSelectiveNak.
  std::string name;
  BenchTraffic traffic;  // For a link case.
  // The case fails if its body has not returned by then (simulated time).
  sc_core::sc_time limit = sc_core::sc_time(200, sc_core::SC_US);
  TransportBenchOptions transport_bench;  // For a transport case.
  RouterBenchOptions router;              // For a router case.
  // A link case runs `body` in a ConformanceBench, a transport case
  // `transport_body` in a TransportBench, a router case `router_body` in a
  // RouterBench, a logical case `logical_body` in a LogicalBench. Exactly
  // one is set.
  std::function<void(CaseContext&)> body;
  std::function<void(TransportCaseContext&)> transport_body;
  std::function<void(RouterCaseContext&)> router_body;
  std::function<void(LogicalCaseContext&)> logical_body;

  bool transport() const { return static_cast<bool>(transport_body); }
  bool router_case() const { return static_cast<bool>(router_body); }
  bool logical_case() const { return static_cast<bool>(logical_body); }
};

// Every case of the suite, by chapter.
std::vector<ConformanceCase> PhyPortCases();         // phy.md sections 4-5
std::vector<ConformanceCase> DllFlitCases();         // dll.md sections 1-5
std::vector<ConformanceCase> DllLinkCases();         // sections 6-8, 11
std::vector<ConformanceCase> NetRouterCases();       // net.md sections 2-4, 8
std::vector<ConformanceCase> NetRoutingCases();      // NET-4.1, 4.4, 4.5
std::vector<ConformanceCase> NetMgmtCases();         // NET-7.4
std::vector<ConformanceCase> TrnFrameCases();        // trn.md sections 1-4
std::vector<ConformanceCase> TrnQpCases();           // sections 5, 6.1, 6.15
std::vector<ConformanceCase> TrnReliabilityCases();  // sections 6-7, 9, 12
std::vector<ConformanceCase> TrnCongestionCases();   // sections 9-11
std::vector<ConformanceCase> TrnRouterCases();  // sections 8, 9.1-9.3, 11.2
std::vector<ConformanceCase> LogAccessCases();  // log.md sections 1-4
std::vector<ConformanceCase> LogFaultCases();   // section 6, 2.4, 2.5, 4.2, 5.8
std::vector<ConformanceCase> LogFirmwareCases();  // 5.2-5.4, 6.10, 6.12, 6.13
std::vector<ConformanceCase> AllCases();

}  // namespace lq::conformance
