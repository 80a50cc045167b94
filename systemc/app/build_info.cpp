// SPDX-License-Identifier: Apache-2.0
// The build's names, from the generated header.
#include "systemc/app/build_info.h"

#include <systemc>

#include "generated/lq_version.h"

namespace lq::app {

std::string VersionText() {
  return std::string("lqemu ") + LQ_VERSION + " (" + LQ_GIT_DESCRIBE +
         ")\nSystemC " + SC_VERSION + ", Verilator " + LQ_VERILATOR_VERSION +
         ", protocol specification version " + LQ_SPEC_VERSION;
}

nlohmann::ordered_json BuildJson() {
  return {{"version", LQ_VERSION},
          {"git", LQ_GIT_DESCRIBE},
          {"systemc", SC_VERSION},
          {"verilator", LQ_VERILATOR_VERSION},
          {"spec", LQ_SPEC_VERSION}};
}

}  // namespace lq::app
