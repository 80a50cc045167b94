// SPDX-License-Identifier: Apache-2.0
// Training-set record check (DLL-6.3): whether a TRAINING flit's slot holds a record the
// receiver may act on. A record that breaks the table makes its flit bad; a valid record of
// another profile is left for the LTSSM to ignore.
module lc_ts_check (
  input  logic [lc_pkg::TS_BYTES*8-1:0] record_i,
  input  logic tail_zero_i,  // Every slot byte after the record is zero.
  input  logic profile_i,    // The receiver's profile (0 pcie6, 1 ib), for lanes and widths.
  output logic valid_o
);
  localparam int RecTop = lc_pkg::TS_BYTES * 8 - 1;  // Bit 7 of record byte 0.

  logic [7:0] kind, width, vcs;
  logic [6:0] reserved_flags;  // Flags byte bits 7-1; bit 0 (in_recovery) is the LTSSM's.
  logic [15:0] mask, lanes;
  logic [4:0] max_width;
  logic [lc_pkg::NUM_VCS-1:0] init_ok;
  logic width_ok;

  assign kind = record_i[RecTop -: 8];
  assign mask = record_i[RecTop - 16 -: 16];
  assign width = record_i[RecTop - 32 -: 8];
  assign vcs = record_i[RecTop - 40 -: 8];
  assign reserved_flags = record_i[RecTop - 112 -: 7];
  assign lanes = profile_i ? lc_pkg::LANE_MASK_IB : lc_pkg::LANE_MASK_PCIE6;
  assign max_width = profile_i ? 5'd4 : 5'd16;
  for (genvar v = 0; v < lc_pkg::NUM_VCS; v++) begin : gen_init_check
    assign init_ok[v] = record_i[RecTop - 48 - 16 * v -: 4] == 4'd0;  // INIT < 4096
  end
  assign width_ok = width <= 8'(max_width) &&
                    (width == 8'd1 || width == 8'd2 || width == 8'd4 || width == 8'd8 ||
                     width == 8'd16);

  assign valid_o = tail_zero_i && (mask & ~lanes) == '0 &&
                   ((kind == lc_pkg::TS_KIND_TS1 && width == 8'd0) ||
                    (kind == lc_pkg::TS_KIND_TS2 && width_ok)) &&
                   vcs == 8'(lc_pkg::NUM_VCS) && init_ok == '1 && reserved_flags == '0;

  // The profile byte, the low bits of INIT and in_recovery are any value: the LTSSM reads them.
  logic unused_fields;
  assign unused_fields = ^{record_i[RecTop - 8 -: 8], record_i[RecTop - 52 -: 12],
                           record_i[RecTop - 68 -: 12], record_i[RecTop - 84 -: 12],
                           record_i[RecTop - 100 -: 12], record_i[RecTop - 119]};
endmodule
