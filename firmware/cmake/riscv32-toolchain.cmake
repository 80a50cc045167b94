# SPDX-License-Identifier: Apache-2.0
# CMake toolchain file that cross-compiles lqemu's firmware for the board's RV32IMAC MCU with riscv64-unknown-elf-gcc and picolibc.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

find_program(LQ_RISCV_GCC riscv64-unknown-elf-gcc)
if(NOT LQ_RISCV_GCC)
  message(FATAL_ERROR "riscv64-unknown-elf-gcc not found: install gcc-riscv64-unknown-elf "
                      "and picolibc-riscv64-unknown-elf (scripts/setup-deps)")
endif()
get_filename_component(lq_riscv_bin ${LQ_RISCV_GCC} DIRECTORY)
set(CMAKE_C_COMPILER ${LQ_RISCV_GCC})
set(CMAKE_ASM_COMPILER ${LQ_RISCV_GCC})
set(CMAKE_AR ${lq_riscv_bin}/riscv64-unknown-elf-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${lq_riscv_bin}/riscv64-unknown-elf-ranlib CACHE FILEPATH "")
set(CMAKE_OBJDUMP ${lq_riscv_bin}/riscv64-unknown-elf-objdump CACHE FILEPATH "")
set(CMAKE_SIZE ${lq_riscv_bin}/riscv64-unknown-elf-size CACHE FILEPATH "")

# Test programs cannot link without our linker script and startup code.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# binutils 2.40 wants Zicsr and Zifencei named for csr* and fence.i, but
# picolibc's multilib is selected by the plain "rv32imac" name: compile with
# the long name, link with the short one (the later -march wins at link time).
set(lq_compile_flags "-march=rv32imac_zicsr_zifencei -mabi=ilp32 --specs=picolibc.specs")
set(CMAKE_C_FLAGS_INIT "${lq_compile_flags}")
set(CMAKE_ASM_FLAGS_INIT "${lq_compile_flags}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-march=rv32imac -mabi=ilp32 -nostartfiles")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
