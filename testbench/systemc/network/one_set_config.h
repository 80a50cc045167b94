// SPDX-License-Identifier: Apache-2.0
// The network tests' usual study configuration: routers and interfaces with
// one VC set of `classes` classes, and VC buffers of `slots` slots.
#pragma once

#include "systemc/cluster/network.h"

namespace lq::net {

inline NetworkConfig OneSetConfig(unsigned classes, unsigned slots) {
  NetworkConfig config;
  config.router.vc_classes = classes;
  config.router.vc_sets = 1;
  config.router.vc_buffer_flits = slots;
  config.interface.vc_classes = classes;
  config.interface.vc_sets = 1;
  config.interface.tc_map = DefaultTcMap(1);
  return config;
}

}  // namespace lq::net
