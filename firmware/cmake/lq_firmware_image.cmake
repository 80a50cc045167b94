# SPDX-License-Identifier: Apache-2.0
# lq_firmware_image(NAME [LAYOUT board|ram] SOURCES src... [DEFINES def...])
# builds NAME.elf with the linker script LAYOUT.ld (board, the default: code
# in flash, data in RAM; ram: everything in RAM, which runs on QEMU's virt
# machine too), its link map NAME.map and, with an objdump, its disassembly
# NAME.lst, all in the project's build directory. The runtime and HAL come
# from ${LQ_FIRMWARE_RUNTIME} and the linker scripts from
# ${LQ_FIRMWARE_LD_DIR}, which the firmware tree and the lqemu-firmware
# package (lqemu-firmwareConfig.cmake) both set.
function(lq_firmware_image name)
  cmake_parse_arguments(ARG "" "LAYOUT" "SOURCES;DEFINES" ${ARGN})
  if(NOT ARG_LAYOUT)
    set(ARG_LAYOUT board)
  endif()
  if(NOT ARG_LAYOUT MATCHES "^(board|ram)$" OR NOT ARG_SOURCES)
    message(FATAL_ERROR "lq_firmware_image(${name}): SOURCES are required, and LAYOUT is board or ram")
  endif()
  if(NOT LQ_FIRMWARE_RUNTIME OR NOT LQ_FIRMWARE_LD_DIR)
    message(FATAL_ERROR "lq_firmware_image(${name}): find_package(lqemu-firmware) first")
  endif()
  add_executable(${name} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES SUFFIX .elf)
  target_compile_definitions(${name} PRIVATE ${ARG_DEFINES})
  target_link_libraries(${name} PRIVATE ${LQ_FIRMWARE_RUNTIME})
  # _start sits in the library: ask for it, or the archive would not be searched.
  target_link_options(${name} PRIVATE
    -T ${LQ_FIRMWARE_LD_DIR}/${ARG_LAYOUT}.ld -L ${LQ_FIRMWARE_LD_DIR}
    -Wl,--require-defined=_start -Wl,-Map=${PROJECT_BINARY_DIR}/${name}.map)
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}
    LINK_DEPENDS "${LQ_FIRMWARE_LD_DIR}/${ARG_LAYOUT}.ld;${LQ_FIRMWARE_LD_DIR}/sections.ld")
  find_program(LQ_OBJDUMP NAMES riscv64-unknown-elf-objdump HINTS ${CMAKE_OBJDUMP})
  if(LQ_OBJDUMP)
    add_custom_command(TARGET ${name} POST_BUILD
      COMMAND sh -c "\"${LQ_OBJDUMP}\" -d \"$<TARGET_FILE:${name}>\" > \"${PROJECT_BINARY_DIR}/${name}.lst\""
      VERBATIM)
  endif()
endfunction()
