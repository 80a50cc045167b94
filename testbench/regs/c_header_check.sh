#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compiles the firmware register check with the host C compiler (and runs it) and, when present,
# with the RISC-V cross compiler the firmware uses. Usage: c_header_check.sh CC RISCV_CC SOURCE INCLUDE_DIR WORK_DIR
set -eu
cc=$1 riscv_cc=$2 source=$3 include_dir=$4 work_dir=$5
flags="-std=c99 -Wall -Wextra -Werror -pedantic -I$include_dir"
mkdir -p "$work_dir"

# shellcheck disable=SC2086  # flags is a word list on purpose
"$cc" $flags -o "$work_dir/lc_regs_c_test" "$source"
"$work_dir/lc_regs_c_test"

if command -v "$riscv_cc" >/dev/null 2>&1; then
  # picolibc supplies the C library headers (stdint.h, stdio.h) for bare-metal rv32.
  # shellcheck disable=SC2086
  "$riscv_cc" -march=rv32imac -mabi=ilp32 --specs=picolibc.specs $flags \
    -c -o "$work_dir/lc_regs_c_test.rv32.o" "$source"
  echo "c_header_check: $riscv_cc rv32imac compile OK"
else
  echo "c_header_check: $riscv_cc not installed; rv32 compile skipped (scripts/setup-deps installs it)"
fi
