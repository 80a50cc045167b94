// SPDX-License-Identifier: Apache-2.0
// Assertion macros for lqemu RTL: one-line invariants checked by every simulator we run.
//
// `ASSERT(Name_A, expr)` checks a plain boolean `expr` at each rising edge of `clk_i` while
// `rst_ni` is high, so it may only be used in a module with those two ports. `expr` must be a
// plain expression (no `|->`, no sequences): Icarus checks it inside an always block.
// `ASSERT_INIT(Name_A, expr)` checks a parameter rule once, at elaboration where the tool can.
// `COVER(Name_C, expr)` counts the cycles in which `expr` holds, for functional coverage: with
// --coverage-user the Verilated model records it in coverage.dat (scripts/rtl-coverage); every
// other tool ignores it.
//
// Under Verilator (tests run with --assert): a concurrent assertion that reports with $error and
// counts in the VerilatedContext, so a C++ test can fail on it. Icarus: $fatal, so a vvp run
// stops with a non-zero exit. yosys (SYNTHESIS): runtime checks vanish; a failed parameter
// check stops elaboration, because yosys cannot resolve $fatal on a reachable path.
`ifndef PRIM_ASSERT_SVH
`define PRIM_ASSERT_SVH

`ifdef VERILATOR
  `define ASSERT(name, expr) \
    name: assert property (@(posedge clk_i) disable iff (!rst_ni) (expr)) \
      else $error(`"assertion name failed: expr`");
  `define ASSERT_INIT(name, expr) \
    if (!(expr)) begin : name $error(`"parameter check name failed: expr`"); end
  `define COVER(name, expr) \
    name: cover property (@(posedge clk_i) disable iff (!rst_ni) (expr));
`elsif SYNTHESIS
  `define ASSERT(name, expr)
  `define COVER(name, expr)
  `define ASSERT_INIT(name, expr) \
    initial begin : name if (!(expr)) $fatal(1, `"parameter check name failed: expr`"); end
`else
  `define COVER(name, expr)
  `define ASSERT(name, expr) \
    always @(posedge clk_i) begin : name \
      if (rst_ni && !(expr)) $fatal(1, `"assertion name failed: expr`"); \
    end
  `define ASSERT_INIT(name, expr) \
    initial begin : name if (!(expr)) $fatal(1, `"parameter check name failed: expr`"); end
`endif

`endif  // PRIM_ASSERT_SVH
