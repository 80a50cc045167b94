// SPDX-License-Identifier: Apache-2.0
// What a component declares about itself: its ports and its statistics,
// with their meanings. `lqemu list` prints the declarations, and the
// component's Stats() reports through a StatWriter that accepts only
// declared names and insists on every one, so the two cannot drift apart.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "systemc/common/stat_list.h"

namespace lq {

struct PortDecl {
  std::string name;      // e.g. "network", "port<p>"
  std::string protocol;  // e.g. "slot socket", "TLM-2.0 target, 32-bit"
  std::string meaning;
};

// A statistic, or a family of them: a name with placeholders in angle
// brackets ("port<p>.flits_in") stands for one statistic per value.
struct StatDecl {
  std::string name;
  std::string meaning;
  bool family() const { return name.find('<') != std::string::npos; }
};

struct ComponentDecl {
  std::string name;  // as `lqemu list` and the docs call it, e.g. "router"
  std::string meaning;
  std::vector<PortDecl> ports;
  std::vector<StatDecl> stats;
};

// Builds a component's StatList under `prefix` ("node3.router."), in the
// order the calls are made. Throws std::logic_error, naming the component,
// for a statistic it does not declare and, at Take(), for a declared
// single statistic it did not report.
class StatWriter {
 public:
  StatWriter(const ComponentDecl& decl, std::string prefix);

  // A single statistic.
  StatWriter& Add(const std::string& name, uint64_t value);
  // One member of a family: `family` as declared, its placeholders
  // replaced in order by `fill` ("port<p>.tc<t>.paused_ps", {"3", "6"}).
  StatWriter& Add(const std::string& family,
                  const std::vector<std::string>& fill, uint64_t value);
  StatList Take();

 private:
  const StatDecl& Declared(const std::string& name) const;

  const ComponentDecl& decl_;
  std::string prefix_;
  StatList stats_;
  std::vector<bool> written_;
};

}  // namespace lq
