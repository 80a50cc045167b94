// SPDX-License-Identifier: Apache-2.0
// The incast experiment of issue 7 (docs/validation.md, "Incast: PFC,
// DCQCN and LQCC"). On a torus of transport engines with PFC and ECN
// marking at every router, N senders RDMA-WRITE one flow each to node 0 at
// the same moment; with --mixed, background pairs elsewhere keep writing
// flows one after another while the incast lasts. Each congestion control
// ("none" is PFC alone, "dcqcn", "lqcc") runs in a child process of its own
// (SystemC allows one elaboration per process). The table gives PFC XOFF
// messages, total pause time, flow completion time p50/p99, the victims'
// slowdown against a run of the background alone, and the cut in XOFF
// messages against PFC alone (the seed's "-70 %" claim).
//
//   incast_bench [--dims 4x8x8] [--senders 8,16,64] [--flow-kib 256]
//                [--mixed] [--seed 42] [--csv FILE] [--quick]
//
// --seed draws other senders and background pairs: with 8 flows a p99 is
// nearly the slowest flow's FCT, so compare controls over several seeds.
//
// --quick (CTest) runs 8 senders on 4x4x4 and checks what the experiment
// must show: every flow completes with nothing lost, PFC alone pauses, and
// LQCC beats DCQCN on both XOFF messages and p99 FCT. Exit 1 otherwise.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <systemc>
#include <type_traits>
#include <vector>

#include "models/roce/pfc.h"
#include "systemc/app/run_report.h"
#include "systemc/cluster/engine_torus.h"
#include "systemc/transport/incast_workload.h"

namespace lq::transport {
namespace {

// The fabric is engine_torus.h's lossless one.
constexpr unsigned kBackgroundPairs = 16;
constexpr unsigned kBackgroundFlows = 4;  // per background pair

struct Setup {
  std::string dims = "4x8x8";
  std::string cc = "none";
  unsigned senders = 8;
  bool incast = true;  // false: the background alone (same pairs)
  bool mixed = false;
  uint64_t flow_bytes = 256 * 1024;
  uint64_t seed = 42;  // of the senders and the background pairs
};

struct Outcome {
  uint64_t flows = 0, flows_done = 0;
  uint64_t xoff = 0, pfc_frames = 0;
  double pause_us = 0;
  double fct_p50_us = 0, fct_p99_us = 0;
  double background_fct_us = 0;  // mean over completed background flows
  double victim_p99_us = 0;      // p99 FCT of the background flows
  uint64_t lost = 0;             // failed WRs, drops, bad packets
  uint64_t marked = 0, cnps = 0, retransmits = 0;
  double sim_us = 0, wall_s = 0;
};

Outcome RunOne(const Setup& setup) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<EngineNode> nodes = BuildTorus(
      setup.dims, LosslessTorusOptions(setup.cc, setup.cc, setup.flow_bytes));
  std::vector<TransportEngine*> engines;
  std::vector<uint32_t> rkeys;
  for (EngineNode& node : nodes) {
    engines.push_back(node.engine);
    rkeys.push_back(node.rkey);
  }
  IncastConfig incast;
  incast.senders = setup.senders;
  incast.incast = setup.incast;
  incast.background_pairs = setup.mixed ? kBackgroundPairs : 0;
  incast.background_flows = kBackgroundFlows;
  incast.flow_bytes = setup.flow_bytes;
  incast.pmtu = kLosslessPmtu;
  incast.seed = setup.seed;
  IncastWorkload workload("workload", engines, rkeys, incast);
  // The run ending is not news for the table (SystemC reports sc_stop()
  // as an info message).
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  sc_core::sc_start();

  Outcome outcome;
  outcome.flows = workload.flows();
  outcome.flows_done = workload.flows_done();
  const auto incast_fct = app::Summarise(workload.times().incast);
  outcome.fct_p50_us = incast_fct.p50;
  outcome.fct_p99_us = incast_fct.p99;
  const auto victims = app::Summarise(workload.times().background);
  outcome.background_fct_us = victims.mean;
  outcome.victim_p99_us = victims.p99;
  const FabricFigures figures = SumFigures(nodes, kDataPriority);
  outcome.xoff = figures.xoff_frames;
  outcome.pfc_frames = figures.pfc_frames;
  outcome.pause_us = figures.pause_us;
  outcome.marked = figures.ecn_marked;
  outcome.lost =
      figures.work_failed + figures.bad_packets + figures.router_drops;
  outcome.cnps = figures.cnps;
  outcome.retransmits = figures.retransmits;
  outcome.sim_us = sc_core::sc_time_stamp().to_seconds() * 1e6;
  outcome.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return outcome;
}

// --- The parent: one child process per configuration. -------------------

static_assert(std::is_trivially_copyable_v<Outcome>,
              "an Outcome crosses the pipe as raw bytes");

// Runs `setup` in a child process (the same program image, so its Outcome
// comes back as raw bytes); false if the child failed.
bool RunChild(const Setup& setup, Outcome& outcome) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) {
    return false;
  }
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(pipe_fds[0]);
    const Outcome result = RunOne(setup);
    const bool written = write(pipe_fds[1], &result, sizeof result) ==
                         static_cast<ssize_t>(sizeof result);
    _exit(written ? 0 : 1);
  }
  close(pipe_fds[1]);
  const bool read_all = read(pipe_fds[0], &outcome, sizeof outcome) ==
                        static_cast<ssize_t>(sizeof outcome);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return read_all && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::vector<unsigned> ParseList(const char* text) {
  std::vector<unsigned> values;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    values.push_back(static_cast<unsigned>(std::stoul(item)));
  }
  return values;
}

constexpr const char* kControls[] = {"none", "dcqcn", "lqcc"};

struct Row {
  unsigned senders;
  std::string cc;
  Outcome outcome;
  double slowdown;  // victims' mean FCT over their mean alone
  double xoff_cut;  // 1 - XOFF / XOFF with PFC alone
};

void PrintHeader(const Setup& base) {
  std::printf("incast on %s, %llu KiB per flow%s, seed %llu\n",
              base.dims.c_str(),
              static_cast<unsigned long long>(base.flow_bytes / 1024),
              base.mixed ? ", with background pairs" : "",
              static_cast<unsigned long long>(base.seed));
  std::printf("%7s %6s %6s %9s %8s %8s %8s %8s %8s %5s %7s %5s %6s\n",
              "senders", "cc", "XOFF", "pause us", "FCT p50", "FCT p99",
              "vict p99", "slowdown", "XOFF cut", "lost", "marked", "CNPs",
              "wall s");
}

void PrintRow(const Row& r) {
  const Outcome& o = r.outcome;
  std::printf(
      "%7u %6s %6llu %9.1f %8.1f %8.1f %8.1f %8.2f %7.0f%% %5llu %7llu %5llu "
      "%6.2f\n",
      r.senders, r.cc.c_str(), static_cast<unsigned long long>(o.xoff),
      o.pause_us, o.fct_p50_us, o.fct_p99_us, o.victim_p99_us, r.slowdown,
      100 * r.xoff_cut, static_cast<unsigned long long>(o.lost),
      static_cast<unsigned long long>(o.marked),
      static_cast<unsigned long long>(o.cnps), o.wall_s);
}

void WriteCsv(std::FILE* csv, const Setup& base, const std::vector<Row>& rows) {
  std::fprintf(csv,
               "dims,flow_kib,mixed,seed,senders,cc,flows_done,xoff,"
               "pfc_frames,"
               "pause_us,fct_p50_us,fct_p99_us,victim_p99_us,victim_slowdown,"
               "xoff_cut,lost,marked,cnps,retransmits,sim_us,wall_s\n");
  for (const Row& r : rows) {
    const Outcome& o = r.outcome;
    std::fprintf(
        csv,
        "%s,%llu,%d,%llu,%u,%s,%llu,%llu,%llu,%.3f,%.3f,%.3f,%.3f,"
        "%.4f,%.4f,%llu,%llu,%llu,%llu,%.3f,%.3f\n",
        base.dims.c_str(),
        static_cast<unsigned long long>(base.flow_bytes / 1024),
        base.mixed ? 1 : 0, static_cast<unsigned long long>(base.seed),
        r.senders, r.cc.c_str(), static_cast<unsigned long long>(o.flows_done),
        static_cast<unsigned long long>(o.xoff),
        static_cast<unsigned long long>(o.pfc_frames), o.pause_us, o.fct_p50_us,
        o.fct_p99_us, o.victim_p99_us, r.slowdown, r.xoff_cut,
        static_cast<unsigned long long>(o.lost),
        static_cast<unsigned long long>(o.marked),
        static_cast<unsigned long long>(o.cnps),
        static_cast<unsigned long long>(o.retransmits), o.sim_us, o.wall_s);
  }
}

// Every run: nothing lost and every flow done. With `claims` (--quick),
// also what the experiment must show: PFC alone pausing, and LQCC ahead of
// DCQCN on XOFF messages and on p99 FCT — the victims' with background
// traffic, the incast's otherwise.
bool Check(const Setup& base, const std::vector<Row>& rows, bool claims) {
  bool ok = true;
  std::map<std::string, const Outcome*> by_cc;
  for (const Row& r : rows) {
    by_cc[r.cc] = &r.outcome;
    if (r.outcome.flows_done != r.outcome.flows || r.outcome.lost != 0) {
      std::fprintf(stderr, "incast_bench: %s lost data or left flows open\n",
                   r.cc.c_str());
      ok = false;
    }
  }
  if (!claims) {
    return ok;
  }
  if (by_cc["none"]->xoff == 0) {
    std::fprintf(stderr, "incast_bench: PFC alone never paused\n");
    ok = false;
  }
  const Outcome& dcqcn = *by_cc["dcqcn"];
  const Outcome& lqcc = *by_cc["lqcc"];
  const double lqcc_p99 = base.mixed ? lqcc.victim_p99_us : lqcc.fct_p99_us;
  const double dcqcn_p99 = base.mixed ? dcqcn.victim_p99_us : dcqcn.fct_p99_us;
  if (lqcc.xoff >= dcqcn.xoff || lqcc_p99 >= dcqcn_p99) {
    std::fprintf(stderr,
                 "incast_bench: LQCC does not beat DCQCN: XOFF %llu vs %llu, "
                 "p99 FCT %.1f vs %.1f us\n",
                 static_cast<unsigned long long>(lqcc.xoff),
                 static_cast<unsigned long long>(dcqcn.xoff), lqcc_p99,
                 dcqcn_p99);
    ok = false;
  }
  return ok;
}

void Usage() {
  std::fprintf(stderr,
               "usage: incast_bench [--dims 4x8x8] [--senders 8,16,64] "
               "[--flow-kib 256] [--mixed] [--seed 42] [--csv FILE] "
               "[--quick]\n");
}

int Main(int argc, char** argv) {
  Setup base;
  std::vector<unsigned> senders = {8, 16, 64};
  std::string csv_path;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--dims" && has_value) {
      base.dims = argv[++i];
    } else if (arg == "--senders" && has_value) {
      senders = ParseList(argv[++i]);
    } else if (arg == "--flow-kib" && has_value) {
      base.flow_bytes = 1024 * std::stoull(argv[++i]);
    } else if (arg == "--mixed") {
      base.mixed = true;
    } else if (arg == "--seed" && has_value) {
      base.seed = std::stoull(argv[++i]);
    } else if (arg == "--csv" && has_value) {
      csv_path = argv[++i];
    } else if (arg == "--quick") {
      quick = true;
      base.dims = "4x4x4";
      senders = {8};
      base.flow_bytes = 1024 * 1024;
      base.mixed = true;
    } else {
      Usage();
      return 2;
    }
  }
  PrintHeader(base);
  std::vector<Row> rows;
  bool ok = true;
  for (const unsigned n : senders) {
    std::vector<Row> group;
    for (const char* cc : kControls) {
      Setup setup = base;
      setup.senders = n;
      setup.cc = cc;
      Row row{n, cc, {}, 0, 0};
      // With background traffic, first its pairs alone: the victims' FCT
      // without the incast, under the same congestion control.
      Outcome alone;
      Setup without = setup;
      without.incast = false;
      if ((base.mixed && !RunChild(without, alone)) ||
          !RunChild(setup, row.outcome)) {
        std::fprintf(stderr, "incast_bench: a %s run failed\n", cc);
        return 1;
      }
      const double pfc_xoff = static_cast<double>(
          group.empty() ? row.outcome.xoff : group.front().outcome.xoff);
      row.xoff_cut = pfc_xoff > 0 ? 1 - row.outcome.xoff / pfc_xoff : 0;
      row.slowdown =
          alone.background_fct_us > 0
              ? row.outcome.background_fct_us / alone.background_fct_us
              : 0;
      PrintRow(row);
      group.push_back(row);
    }
    ok = Check(base, group, quick) && ok;
    rows.insert(rows.end(), group.begin(), group.end());
  }
  if (!csv_path.empty()) {
    std::FILE* csv = std::fopen(csv_path.c_str(), "w");
    if (csv == nullptr) {
      std::fprintf(stderr, "incast_bench: cannot write %s\n", csv_path.c_str());
      return 2;
    }
    WriteCsv(csv, base, rows);
    std::fclose(csv);
  }
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace lq::transport

int sc_main(int argc, char** argv) { return lq::transport::Main(argc, argv); }
