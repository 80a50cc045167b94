// SPDX-License-Identifier: Apache-2.0
// The registry of studies, and the refusal of a given key a run would not
// read.
#include "systemc/app/study.h"

#include <algorithm>

#include "systemc/app/network_study.h"
#include "systemc/app/run_tracer.h"
#include "systemc/app/scenario_schema.h"
#include "systemc/app/stack_study.h"
#include "systemc/app/supernode_run.h"

namespace lq::app {
namespace {

// "a", "a or b", "a, b or c".
std::string JoinChoices(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  }
  return out;
}

// Every study's workloads, each once, in the studies' order.
std::vector<std::string> WorkloadNames() {
  std::vector<std::string> names;
  for (const Study& study : StudyCatalogue()) {
    for (const auto& workload : study.workloads) {
      if (std::find(names.begin(), names.end(), workload) == names.end()) {
        names.push_back(workload);
      }
    }
  }
  return names;
}

// "run.study S with workload.name W" for each study and its workloads that
// would read `key`, the scenario's other settings kept.
std::vector<std::string> ReadersOf(const ParamSet& params,
                                   const std::string& key) {
  std::vector<std::string> readers;
  for (const Study& study : StudyCatalogue()) {
    std::vector<std::string> workloads;
    for (const auto& workload : study.workloads) {
      ParamSet trial = params;
      trial.Set("run.study", study.name);
      trial.Set("workload.name", workload);
      if (KeysRead(trial).Uses(key)) {
        workloads.push_back(workload);
      }
    }
    if (!workloads.empty()) {
      readers.push_back("run.study " + study.name + " with workload.name " +
                        JoinChoices(workloads));
    }
  }
  return readers;
}

}  // namespace

const std::vector<Study>& StudyCatalogue() {
  static const std::vector<Study> studies = {
      {"phases",
       "the default run: one experiment per seed claim (run.phases), each "
       "in a process of its own, then the headline table",
       {},
       SupernodeKeys,
       CheckSupernodeRun,
       RunSupernode,
       [](const ParamSet&) { return std::string("each phase its own"); },
       true},
      {"network",
       "the network layer alone: routers joined by ideal links, synthetic "
       "traffic or collectives, figures in cycles and flits; the systemc or "
       "the cycle kernel (sim.kernel)",
       NetworkWorkloadNames(), NetworkStudyKeys, CheckNetworkStudy,
       RunNetworkStudy,
       [](const ParamSet& params) {
         return "routers over ideal links, the network layer alone (" +
                params.Text("sim.kernel") + " kernel)";
       },
       true},
      {"stack",
       "the layers composed: link controllers and PHYs (link.fidelity), "
       "routers, transport engines, logical units and boards as the "
       "workload needs them",
       StackWorkloadNames(), StackStudyKeys, CheckStackStudy, RunStackStudy,
       StackLayers, true},
  };
  return studies;
}

const Study& ChosenStudy(const ParamSet& params) {
  const std::string& name = params.Text("run.study");
  const auto& studies = StudyCatalogue();
  const auto found =
      std::find_if(studies.begin(), studies.end(),
                   [&name](const Study& study) { return study.name == name; });
  // run.study is a choice of these names, so one is always found.
  return found == studies.end() ? studies.front() : *found;
}

std::vector<ParamSpec> StudyParamSpecs() {
  std::vector<std::string> studies;
  for (const Study& study : StudyCatalogue()) {
    studies.push_back(study.name);
  }
  return {
      ChoiceParam("run.study",
                  "the kind of run (decision 0033): phases, the default "
                  "run's experiments; network, routers over ideal links; "
                  "stack, the layers composed (`lqemu list` says more)",
                  "stack", studies),
      ChoiceParam("workload.name",
                  "what the cards do: traffic (traffic.pattern), a "
                  "collective (collective.*), an incast (transport.*) or "
                  "remote_access (boards, board.*)",
                  "traffic", WorkloadNames()),
  };
}

void UseCommonKeys(const ParamSet& params, KeyUsage& usage) {
  // sim.partition too: one process holds every node whatever it says, so
  // a scenario written for a run over ranks runs in one process as well.
  usage.Use({"run.study", "sim.seed", "sim.partition"});
  UseTraceKeys(usage);
  UseTopologyKeys(params, usage);
  UseRoutingKeys(params, usage);
}

KeyUsage KeysRead(const ParamSet& params) {
  KeyUsage usage;
  UseCommonKeys(params, usage);
  usage.Merge(ChosenStudy(params).keys(params));
  return usage;
}

std::string DescribeRun(const ParamSet& params) {
  const Study& study = ChosenStudy(params);
  return "run.study " + study.name +
         (study.workloads.empty()
              ? ""
              : " with workload.name " + params.Text("workload.name"));
}

std::vector<UnreadKey> UnreadGivenKeys(const ParamSet& params,
                                       const KeyUsage& usage,
                                       const std::string& run) {
  std::vector<UnreadKey> unread;
  for (const auto& key : params.given()) {
    if (usage.Uses(key)) {
      continue;
    }
    std::string message = key + ": " + run + " does not read it";
    if (const auto why = usage.WhySkipped(key)) {
      message += ": " + *why;
    } else if (const auto readers = ReadersOf(params, key); readers.empty()) {
      message +=
          ", nor does any other study with these settings (see `lqemu list`)";
    } else {
      std::string read_by;
      for (const auto& reader : readers) {
        read_by += (read_by.empty() ? "" : "; ") + reader;
      }
      message += "; " + read_by + " would";
    }
    unread.push_back({key, std::move(message)});
  }
  return unread;
}

}  // namespace lq::app
