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
// the module computes the same function 8 bytes at a time from eight 256-entry tables,
// unless LQ_CRC_XOR_MATRIX is defined; synthesis, Icarus, and lint with that define read the
// matrix. The CRC is affine over GF(2), so the two forms are equal on every input once they
// agree on the zero input and on every single-bit input: testbench/rtl/prim/prim_crc64_test.cpp
// checks both forms so, for every width the RTL uses.
`include "prim_assert.svh"

module prim_crc64 #(
  parameter int Bytes = 242
) (
  input  logic [Bytes*8-1:0] data_i,
  output logic [63:0]        crc_o
);
  // ECMA-182 polynomial 0x42F0E1EBA9EA3693, bit-reversed for the reflected (LSB-first) register.
  localparam logic [63:0] POLY_REFLECTED = 64'hC96C5795D7870F42;
  localparam int Words = Bytes / 8;

`ifdef VERILATOR
`ifndef LQ_CRC_XOR_MATRIX
`define LQ_CRC_SLICED
`endif
`endif

`ifdef LQ_CRC_SLICED
  // Entry k*256+b is the register after the byte b and then k zero bytes have been shifted
  // through an all-zero register: the tables of the reflected CRC taken 8 bytes at a time
  // ("slicing by 8"), table 0 alone a byte at a time. An unpacked array, filled at time 0, so
  // that each look-up is one indexed load in the generated C++.
  logic [63:0] tables [8*256];

  initial begin
    logic [63:0] entry;
    for (int b = 0; b < 256; b++) begin
      entry = 64'(b);
      for (int k = 0; k < 8; k++) begin
        entry = (entry >> 1) ^ (entry[0] ? POLY_REFLECTED : 64'h0);
      end
      tables[b] = entry;
    end
    for (int k = 1; k < 8; k++) begin
      for (int b = 0; b < 256; b++) begin
        entry = tables[(k-1)*256+b];
        tables[k*256+b] = (entry >> 8) ^ tables[int'(entry[7:0])];
      end
    end
  end

  function automatic logic [63:0] lookup(input int table_k, input logic [7:0] b);
    lookup = tables[table_k*256+int'(b)];
  endfunction

  // Reflected input: the first byte of each 8-byte word (the top byte of its 64-bit slice of
  // data) meets the register's low byte and leaves through table 7, seven more bytes following
  // it in the word.
  function automatic logic [63:0] crc64_xz(input logic [Bytes*8-1:0] data);
    logic [63:0] crc;
    logic [63:0] word;
    logic [63:0] next;
    crc = '1;
    for (int w = 0; w < Words; w++) begin
      word = data[(Bytes-8*(w+1))*8 +: 64];
      next = '0;
      for (int i = 0; i < 8; i++) begin
        next = next ^ lookup(7 - i, crc[i*8 +: 8] ^ word[(7-i)*8 +: 8]);
      end
      crc = next;
    end
    for (int i = Words * 8; i < Bytes; i++) begin
      crc = (crc >> 8) ^ lookup(0, crc[7:0] ^ data[(Bytes-1-i)*8 +: 8]);
    end
    crc64_xz = ~crc;
  endfunction
`else
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

`endif
`undef LQ_CRC_SLICED

  assign crc_o = crc64_xz(data_i);

  `ASSERT_INIT(BytesPositive_A, Bytes >= 1)
endmodule
