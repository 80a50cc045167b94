// SPDX-License-Identifier: Apache-2.0
// What built this binary: its version, the checkout's `git describe`, and
// the SystemC, Verilator and specification versions, for `--version` and
// for every stats file, so that a result can be traced to the code that
// produced it. Its one source file is rebuilt whenever the checkout
// changes (cmake/LqVersion.cmake); nothing else is.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace lq::app {

// "lqemu 0.1.0 (c856b0a)\nSystemC 2.3.4-Accellera, Verilator 5.006, ...".
std::string VersionText();

// The stats files' `lqemu` object: version, git, systemc, verilator, spec.
nlohmann::ordered_json BuildJson();

}  // namespace lq::app
