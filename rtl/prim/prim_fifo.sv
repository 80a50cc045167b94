// SPDX-License-Identifier: Apache-2.0
// Synchronous FIFO with valid/ready on both sides; output comes from registered storage only.
`include "prim_assert.svh"

module prim_fifo #(
  parameter int Width = 8,
  parameter int Depth = 4
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       in_valid_i,
  output logic                       in_ready_o,
  input  logic [Width-1:0]           in_data_i,
  output logic                       out_valid_o,
  input  logic                       out_ready_i,
  output logic [Width-1:0]           out_data_o,
  output logic [$clog2(Depth+1)-1:0] count_o
);
  localparam int PtrWidth = $clog2(Depth);
  localparam int CountWidth = $clog2(Depth + 1);
  localparam logic [PtrWidth-1:0] LastPtr = PtrWidth'(Depth - 1);
  localparam logic [CountWidth-1:0] FullCount = CountWidth'(Depth);

  logic [Width-1:0]      storage_q [Depth];
  logic [PtrWidth-1:0]   wr_ptr_q, wr_ptr_d;
  logic [PtrWidth-1:0]   rd_ptr_q, rd_ptr_d;
  logic [CountWidth-1:0] count_q, count_d;
  logic                  push, pop;

  assign in_ready_o  = count_q != FullCount;
  assign out_valid_o = count_q != '0;
  assign out_data_o  = storage_q[rd_ptr_q];
  assign count_o     = count_q;
  assign push        = in_valid_i & in_ready_o;
  assign pop         = out_valid_o & out_ready_i;

  // Pointers wrap explicitly so that Depth need not be a power of two.
  always_comb begin
    wr_ptr_d = wr_ptr_q;
    rd_ptr_d = rd_ptr_q;
    count_d  = count_q;
    if (push) begin
      wr_ptr_d = (wr_ptr_q == LastPtr) ? '0 : wr_ptr_q + 1'b1;
    end
    if (pop) begin
      rd_ptr_d = (rd_ptr_q == LastPtr) ? '0 : rd_ptr_q + 1'b1;
    end
    if (push && !pop) begin
      count_d = count_q + 1'b1;
    end else if (pop && !push) begin
      count_d = count_q - 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      wr_ptr_q <= wr_ptr_d;
      rd_ptr_q <= rd_ptr_d;
      count_q  <= count_d;
    end
  end

  // The storage is a memory: no reset (a slot is read only after it was written) and a
  // write-enabled update, so synthesis infers a RAM and simulators avoid copying every entry
  // each cycle, which a _q/_d pair of a wide, deep array would cost.
  always_ff @(posedge clk_i) begin
    if (push) begin
      storage_q[wr_ptr_q] <= in_data_i;
    end
  end

  `ASSERT_INIT(DepthAtLeastTwo_A, Depth >= 2)
  `ASSERT_INIT(WidthPositive_A, Width >= 1)
  `ASSERT(NoPushWhenFull_A, !(push && count_q == FullCount))
  `ASSERT(NoPopWhenEmpty_A, !(pop && count_q == '0))
  `ASSERT(CountInRange_A, count_q <= FullCount)
  `ASSERT(PointersMeetOnlyEmptyOrFull_A,
          (wr_ptr_q == rd_ptr_q) == (count_q == '0 || count_q == FullCount))
endmodule
