// SPDX-License-Identifier: Apache-2.0
// Replay buffer: each unacknowledged PAYLOAD flit's VC and slot, at its sequence number (DLL-4.1).
module lc_replay_buffer #(
  parameter int Flits = 128,  // REPLAY_BUFFER_FLITS: a power of two, at most 511 (DLL-2.3).
  parameter int Width = 8,
  localparam int IdxBits = $clog2(Flits)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     wr_en_i,
  input  logic [IdxBits-1:0]       wr_idx_i,  // Sequence number modulo Flits.
  input  logic [Width-1:0]         wr_data_i,
  input  logic [IdxBits-1:0]       rd_idx_i,
  output logic [Width-1:0]         rd_data_o
);
  // Outstanding flits never exceed Flits, so sequence numbers modulo Flits never collide.
  logic [Width-1:0] mem_q [Flits];

  // A RAM needs no reset: an entry is read only after the flit it holds was written.
  always_ff @(posedge clk_i) begin
    if (wr_en_i) mem_q[wr_idx_i] <= wr_data_i;
  end

  assign rd_data_o = mem_q[rd_idx_i];

  // rst_ni is kept in the port list so that every lc_ module shares one clock/reset shape.
  logic unused_rst;
  assign unused_rst = rst_ni;

`ifndef SYNTHESIS
  // Elaboration-time check in a form Icarus 11 also accepts.
  initial begin
    if (Flits > lc_pkg::MAX_REPLAY_FLITS || (1 << IdxBits) != Flits) begin
      $fatal(1, "lc_replay_buffer: Flits must be a power of two of at most 511");
    end
  end
`endif
endmodule
