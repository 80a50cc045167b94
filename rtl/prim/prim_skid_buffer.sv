// SPDX-License-Identifier: Apache-2.0
// Two-entry skid buffer: registers a valid/ready stream so that in_ready_o comes from a flop.
`include "prim_assert.svh"

module prim_skid_buffer #(
  parameter int Width = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o
);
  // The output register feeds out_*; the skid register catches the one beat that arrives in
  // the cycle the consumer stalls, since in_ready_o only drops one cycle later.
  logic             out_valid_q, out_valid_d;
  logic [Width-1:0] out_data_q, out_data_d;
  logic             skid_valid_q, skid_valid_d;
  logic [Width-1:0] skid_data_q, skid_data_d;
  logic             out_free;

  assign in_ready_o  = !skid_valid_q;
  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;
  // The output register can take a beat when it is empty or its beat leaves this cycle.
  assign out_free    = !out_valid_q || out_ready_i;

  always_comb begin
    out_valid_d  = out_valid_q;
    out_data_d   = out_data_q;
    skid_valid_d = skid_valid_q;
    skid_data_d  = skid_data_q;
    if (out_free) begin
      if (skid_valid_q) begin
        out_valid_d  = 1'b1;
        out_data_d   = skid_data_q;
        skid_valid_d = 1'b0;
      end else begin
        out_valid_d  = in_valid_i;
        out_data_d   = in_data_i;
      end
    end else if (in_valid_i && in_ready_o) begin
      skid_valid_d = 1'b1;
      skid_data_d  = in_data_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q  <= 1'b0;
      out_data_q   <= '0;
      skid_valid_q <= 1'b0;
      skid_data_q  <= '0;
    end else begin
      out_valid_q  <= out_valid_d;
      out_data_q   <= out_data_d;
      skid_valid_q <= skid_valid_d;
      skid_data_q  <= skid_data_d;
    end
  end

  `ASSERT_INIT(WidthPositive_A, Width >= 1)
  // A full skid register always sits behind a stalled, full output register.
  `ASSERT(SkidOnlyBehindFullOutput_A, !skid_valid_q || out_valid_q)
endmodule
