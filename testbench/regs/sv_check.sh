#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs one SystemVerilog tool on a generated register package; exits 77 (CTest skip) when the
# tool is not installed. Usage: sv_check.sh verilator WAIVER PKG | iverilog PKG TB WORK_DIR | yosys PKG
set -eu
tool=$1
shift
if ! command -v "$tool" >/dev/null 2>&1; then
  echo "sv_check: $tool not installed; skipped (scripts/setup-deps installs it)"
  exit 77
fi
case "$tool" in
  verilator)
    verilator --lint-only -Wall "$1" "$2"
    ;;
  iverilog)
    # Icarus needs a top module, so the package is elaborated under a small testbench and run.
    mkdir -p "$3"
    iverilog -g2012 -o "$3/reg_pkg_tb.vvp" "$1" "$2"
    vvp -n "$3/reg_pkg_tb.vvp"
    ;;
  yosys)
    yosys -q -p "read_verilog -sv $1"
    ;;
  *)
    echo "sv_check: unknown tool $tool" >&2
    exit 2
    ;;
esac
