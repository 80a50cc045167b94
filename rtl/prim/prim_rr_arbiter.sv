// SPDX-License-Identifier: Apache-2.0
// Round-robin arbiter: grants one requester per cycle, rotating priority past each used grant.
`include "prim_assert.svh"

module prim_rr_arbiter #(
  parameter int N = 4
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [N-1:0] req_i,
  // One-hot, or zero when nothing is requested; combinational from req_i.
  output logic [N-1:0] gnt_o,
  // The grant was used this cycle: the next grant goes to a requester after it. Ignored while
  // gnt_o is zero, so it may be tied to the consumer's ready.
  input  logic         advance_i
);
  // Requesters at or above the pointer win first; the others wait for the wrap-around.
  logic [N-1:0] eligible_q, eligible_d;
  logic [N-1:0] masked_req;

  assign masked_req = req_i & eligible_q;
  // x & -x keeps the lowest set bit: fixed priority within each half.
  assign gnt_o = (masked_req != '0) ? (masked_req & (~masked_req + 1'b1))
                                    : (req_i & (~req_i + 1'b1));

  always_comb begin
    eligible_d = eligible_q;
    if (advance_i && gnt_o != '0) begin
      // Every index strictly above the grant; empty after the top index, which wraps.
      eligible_d = ~((gnt_o << 1) - 1'b1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      eligible_q <= '1;
    end else begin
      eligible_q <= eligible_d;
    end
  end

  `ASSERT_INIT(AtLeastTwoRequesters_A, N >= 2)
  `ASSERT(GrantOneHot_A, (gnt_o & (gnt_o - 1'b1)) == '0)
  `ASSERT(GrantOnlyToRequester_A, (gnt_o & ~req_i) == '0)
  `ASSERT(GrantWhenRequested_A, req_i == '0 || gnt_o != '0)
endmodule
