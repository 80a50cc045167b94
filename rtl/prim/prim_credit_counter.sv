// SPDX-License-Identifier: Apache-2.0
// Credit counter: credits available to a sender, loaded at link-up, spent one at a time and
// returned in batches by the receiver's updates.
`include "prim_assert.svh"

module prim_credit_counter #(
  parameter int Width = 12
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Sets the count (e.g. the partner's advertised credits); no consume or return may coincide.
  input  logic             load_i,
  input  logic [Width-1:0] load_value_i,
  // Spends one credit; only allowed while nonzero_o is high.
  input  logic             consume_i,
  // Adds return_count_i credits; may coincide with consume_i.
  input  logic             return_i,
  input  logic [Width-1:0] return_count_i,
  output logic [Width-1:0] count_o,
  output logic             nonzero_o
);
  logic [Width-1:0] count_q, count_d;
  // One extra bit so that the assertion below sees an overflow instead of a wrapped count
  // (with count_q nonzero a consume cannot borrow, so the extra bit means overflow).
  logic [Width:0]   next_count;

  assign count_o   = count_q;
  assign nonzero_o = count_q != '0;

  always_comb begin
    next_count = {1'b0, count_q};
    if (return_i) begin
      next_count = next_count + {1'b0, return_count_i};
    end
    if (consume_i) begin
      next_count = next_count - 1'b1;
    end
  end
  assign count_d = load_i ? load_value_i : next_count[Width-1:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else begin
      count_q <= count_d;
    end
  end

  `ASSERT_INIT(WidthPositive_A, Width >= 1)
  `ASSERT(NoConsumeAtZero_A, !(consume_i && count_q == '0))
  `ASSERT(NoOverflow_A, load_i || count_q == '0 || !next_count[Width])
  `ASSERT(NoUpdateDuringLoad_A, !(load_i && (consume_i || return_i)))
endmodule
