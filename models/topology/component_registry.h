// SPDX-License-Identifier: Apache-2.0
// What every registry of named components shares: its catalogue for
// `lqemu list`, and finding an entry by name with its parameters checked.
#pragma once

#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/topology/params.h"

namespace lq::topo {

// `Entry` is any struct with a `ComponentInfo info` member.
template <typename Entry>
std::vector<ComponentInfo> CatalogueOf(const std::vector<Entry>& entries) {
  std::vector<ComponentInfo> infos;
  for (const Entry& entry : entries) {
    infos.push_back(entry.info);
  }
  return infos;
}

// The entry named `name` once `params` hold only keys it declares; the
// error names `kind` ("topology", "routing function") and the known names.
template <typename Entry>
Result<const Entry*> FindComponent(const std::vector<Entry>& entries,
                                   const std::string& kind,
                                   const std::string& name,
                                   const ParamMap& params) {
  std::string known;
  for (const Entry& entry : entries) {
    if (entry.info.name == name) {
      Result<bool> checked = CheckKnownParams(entry.info, params);
      if (!checked) {
        return checked.error();
      }
      return &entry;
    }
    known += (known.empty() ? "" : ", ") + entry.info.name;
  }
  return Fail("unknown " + kind + " '" + name + "' (known: " + known + ")");
}

}  // namespace lq::topo
