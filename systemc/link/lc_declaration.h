// SPDX-License-Identifier: Apache-2.0
// The ports and statistics the two link controllers declare (`lqemu list`,
// their Stats()): the same sockets and mostly the same counters, so one
// place describes both, and the list shows the RTL controller's even in a
// build without Verilator.
#pragma once

#include "systemc/common/component_decl.h"

namespace lq::link {

const ComponentDecl& TlLinkControllerDeclaration();
const ComponentDecl& RtlLinkControllerDeclaration();

}  // namespace lq::link
