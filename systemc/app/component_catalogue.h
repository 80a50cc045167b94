// SPDX-License-Identifier: Apache-2.0
// Every component of a node that declares its ports and statistics, in the
// order a node is built from its board outwards: what `lqemu list` prints.
#pragma once

#include <cstdio>
#include <vector>

#include "systemc/common/component_decl.h"

namespace lq::app {

std::vector<const ComponentDecl*> ComponentCatalogue();

// The components' ports and statistics as text (`lqemu list`) or as the
// scenario reference's Markdown section.
void PrintComponents(std::FILE* out);
void PrintComponentsMarkdown(std::FILE* out);
// Every statistic a node's components report into a stats file's `stats`
// object, by its full name ("<node>.port<p>.lc.tx_flits"), as a Markdown
// table: the stats schema's, generated from the declarations.
void PrintStatisticsMarkdown(std::FILE* out);

}  // namespace lq::app
