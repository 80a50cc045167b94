// SPDX-License-Identifier: Apache-2.0
// The exit statuses of every lqemu command (DESIGN.md section 7), in one
// place.
#pragma once

namespace lq::app {

// The command did what was asked and found nothing wrong.
constexpr int kExitOk = 0;
// The run found a failure: lost, duplicated or corrupted data, a protocol
// violation, a failed phase or conformance case, a board's bad status.
constexpr int kExitFailure = 1;
// Bad input, before anything runs: arguments, scenario, image; a one-line
// message names the file, the place and the fix.
constexpr int kExitBadInput = 2;

}  // namespace lq::app
