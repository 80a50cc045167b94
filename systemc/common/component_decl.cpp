// SPDX-License-Identifier: Apache-2.0
// StatWriter: statistics reported by their declared names.
#include "systemc/common/component_decl.h"

#include <stdexcept>

namespace lq {

StatWriter::StatWriter(const ComponentDecl& decl, std::string prefix)
    : decl_(decl),
      prefix_(std::move(prefix)),
      written_(decl.stats.size(), false) {}

const StatDecl& StatWriter::Declared(const std::string& name) const {
  for (size_t i = 0; i < decl_.stats.size(); ++i) {
    if (decl_.stats[i].name == name) {
      return decl_.stats[i];
    }
  }
  throw std::logic_error(decl_.name + " reports a statistic it does not " +
                         "declare: " + name);
}

StatWriter& StatWriter::Add(const std::string& name, uint64_t value) {
  const StatDecl& stat = Declared(name);
  if (stat.family()) {
    throw std::logic_error(decl_.name + ": " + name +
                           " is a family; report its members");
  }
  written_[static_cast<size_t>(&stat - decl_.stats.data())] = true;
  stats_.push_back({prefix_ + name, value});
  return *this;
}

StatWriter& StatWriter::Add(const std::string& family,
                            const std::vector<std::string>& fill,
                            uint64_t value) {
  Declared(family);
  std::string name;
  size_t next = 0;
  for (size_t i = 0; i < family.size(); ++i) {
    if (family[i] != '<') {
      name += family[i];
      continue;
    }
    const size_t close = family.find('>', i);
    if (close == std::string::npos || next == fill.size()) {
      throw std::logic_error(decl_.name + ": " + family +
                             " does not take the values given");
    }
    name += fill[next++];
    i = close;
  }
  if (next != fill.size()) {
    throw std::logic_error(decl_.name + ": " + family +
                           " does not take the values given");
  }
  stats_.push_back({prefix_ + name, value});
  return *this;
}

StatList StatWriter::Take() {
  for (size_t i = 0; i < decl_.stats.size(); ++i) {
    if (!written_[i] && !decl_.stats[i].family()) {
      throw std::logic_error(decl_.name + " declares " + decl_.stats[i].name +
                             " but did not report it");
    }
  }
  return std::move(stats_);
}

}  // namespace lq
