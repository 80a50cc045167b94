// SPDX-License-Identifier: Apache-2.0
// Combinational CRC-64/XZ over a fixed number of bytes (the flit CRC of docs/spec/phy.md PHY-2.3).
//
// data_i holds byte 0 in its most significant byte, as flits are packed in lqemu's RTL; crc_o is
// the value that lq::crc::Crc64Xz() computes over the same bytes. The register is advanced
// 8 bytes at a time by a 64x64 XOR matrix fixed at elaboration: the same linear function as the
// textbook bit-serial loop, but about half the synthesis time and cells in yosys.
//
// A Verilated model evaluates that matrix as thousands of wide AND-and-parity steps a flit,
// every cycle, which made the CRC most of a Verilated controller's time. So under Verilator
// the module calls the DPI-C function lq_prim_crc64 (prim_crc64_dpi.cpp, which every Verilated
// build of lqemu links), which computes the same function with lqemu's C++ CRC engine, unless
// LQ_CRC_XOR_MATRIX is defined; synthesis, Icarus, and lint with that define read the matrix.
// The CRC is affine over GF(2), so the two forms are equal on every input once they agree on
// the zero input and on every single-bit input: testbench/rtl/prim/prim_crc64_test.cpp checks
// both forms so, for every width the RTL uses.
`include "prim_assert.svh"

module prim_crc64 #(
  parameter int Bytes = 242
) (
  input  logic [Bytes*8-1:0] data_i,
  output logic [63:0]        crc_o
);
`ifdef VERILATOR
`ifndef LQ_CRC_XOR_MATRIX
`define LQ_CRC_DPI
`endif
`endif

`ifdef LQ_CRC_DPI
  import "DPI-C" pure function longint unsigned lq_prim_crc64(
    input int unsigned bytes,
    input bit [Bytes*8-1:0] data
  );

  assign crc_o = lq_prim_crc64(Bytes, data_i);
`else
  // ECMA-182 polynomial 0x42F0E1EBA9EA3693, bit-reversed for the reflected (LSB-first) register.
  localparam logic [63:0] POLY_REFLECTED = 64'hC96C5795D7870F42;
  localparam int Words = Bytes / 8;

  // Row o (bits [o*64 +: 64]) selects the register bits that XOR into bit o after `bits` zero
  // bits have been shifted through the register. (Icarus 11 evaluates a constant function only
  // if it calls no function inside a loop, so the shift is written out here.)
  function automatic logic [64*64-1:0] advance_rows(input int bits);
    logic [63:0]      column;
    logic [64*64-1:0] rows;
    rows = '0;
    for (int k = 0; k < 64; k++) begin
      column = 64'h1 << k;
      for (int b = 0; b < bits; b++) begin
        column = (column >> 1) ^ (column[0] ? POLY_REFLECTED : 64'h0);
      end
      for (int o = 0; o < 64; o++) begin
        rows[o*64+k] = column[o];
      end
    end
    advance_rows = rows;
  endfunction

  localparam logic [64*64-1:0] ADVANCE_WORD = advance_rows(64);
  localparam logic [64*64-1:0] ADVANCE_BYTE = advance_rows(8);

  function automatic logic [63:0] advance(input logic [64*64-1:0] rows, input logic [63:0] crc);
    logic [63:0] next;
    for (int o = 0; o < 64; o++) begin
      next[o] = ^(crc & rows[o*64 +: 64]);
    end
    advance = next;
  endfunction

  // Reflected input: the first byte of each 8-byte word enters the register's low byte.
  function automatic logic [63:0] crc64_xz(input logic [Bytes*8-1:0] data);
    logic [63:0] crc;
    logic [63:0] word;
    crc = '1;
    for (int w = 0; w < Words; w++) begin
      for (int i = 0; i < 8; i++) begin
        word[i*8 +: 8] = data[(Bytes-1-(w*8+i))*8 +: 8];
      end
      crc = advance(ADVANCE_WORD, crc ^ word);
    end
    for (int i = Words * 8; i < Bytes; i++) begin
      crc = advance(ADVANCE_BYTE, crc ^ {56'h0, data[(Bytes-1-i)*8 +: 8]});
    end
    crc64_xz = ~crc;
  endfunction

  assign crc_o = crc64_xz(data_i);
`endif
`undef LQ_CRC_DPI

  `ASSERT_INIT(BytesPositive_A, Bytes >= 1)
endmodule
