# SPDX-License-Identifier: Apache-2.0
# Builds the RISC-V firmware (firmware/) as an external project with its own
# cross toolchain; testbench/firmware runs the images.
option(LQ_FIRMWARE "Build the RISC-V firmware images" ON)
set(LQ_FIRMWARE_DIR "" CACHE INTERNAL "Directory of the built firmware images (NAME.elf); empty without firmware")

if(NOT LQ_FIRMWARE)
  return()
endif()
find_program(LQ_RISCV_GCC riscv64-unknown-elf-gcc)
if(NOT LQ_RISCV_GCC)
  message(WARNING "riscv64-unknown-elf-gcc not found: the firmware images are not built "
                  "(install gcc-riscv64-unknown-elf and picolibc-riscv64-unknown-elf, "
                  "e.g. with scripts/setup-deps, then reconfigure)")
  return()
endif()

include(ExternalProject)
set(LQ_FIRMWARE_DIR ${PROJECT_BINARY_DIR}/firmware CACHE INTERNAL
    "Directory of the built firmware images (NAME.elf); empty without firmware")

# A separate project: the cross compiler must not see the host build's flags
# (sanitizers, coverage), and the host build must not see the cross toolchain.
ExternalProject_Add(lq_firmware
  SOURCE_DIR ${PROJECT_SOURCE_DIR}/firmware
  BINARY_DIR ${LQ_FIRMWARE_DIR}
  CMAKE_ARGS
    -DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/firmware/cmake/riscv32-toolchain.cmake
    -DLQ_GENERATED_DIR=${PROJECT_BINARY_DIR}/generated
    -DCMAKE_BUILD_TYPE=MinSizeRel
  INSTALL_COMMAND ""
  # lqemu compiles this image in (the default run's probe phase).
  BUILD_BYPRODUCTS ${LQ_FIRMWARE_DIR}/link_bringup_watch.elf
  # The sub-build tracks its own sources; let it decide what is stale.
  BUILD_ALWAYS ON
  DEPENDS lq_regs_lc_generate lq_regs_board_generate lq_regs_router_generate
          lq_regs_transport_generate lq_regs_logical_generate)
