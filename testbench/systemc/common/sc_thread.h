// SPDX-License-Identifier: Apache-2.0
// A testbench module that runs one function as a SystemC thread: the
// "firmware" or stimulus of a test, written inline in the test body.
#pragma once

#include "systemc/common/function_thread.h"

namespace lq::testing {

using ScThread = FunctionThread;

}  // namespace lq::testing
