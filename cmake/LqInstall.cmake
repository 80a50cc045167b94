# SPDX-License-Identifier: Apache-2.0
# What `cmake --install build --prefix P` puts under P, and the Debian
# package CPack makes of it (`cpack --config build/CPackConfig.cmake`):
#   bin/lqemu                       the binary (nothing in it points into
#                                   the build tree: see LqOptions.cmake)
#   share/lqemu/firmware/*.elf      the firmware images lqemu's guides boot
#   share/lqemu/scenarios/*.yaml    the example scenarios
#   share/lqemu/rtl/                the link controller's SystemVerilog, its
#                                   waivers, register descriptions and the
#                                   generated register packages (bring your
#                                   own RTL: docs/guide-conformance.md), and
#                                   in rtl/dpi the C++ of prim_crc64's DPI-C
#                                   form that a Verilated model links
#   share/doc/lqemu/                README, CHANGELOG, LICENSE, NOTICE, docs/,
#                                   third-party/ (compiled-in parts' notices)
#   the firmware SDK                lib/, include/lqemu-firmware,
#                                   lib/cmake/lqemu-firmware (decision 0044)
include(GNUInstallDirs)
set(lq_share ${CMAKE_INSTALL_DATADIR}/lqemu)

if(TARGET lqemu)
  install(TARGETS lqemu RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

if(LQ_FIRMWARE_DIR)
  # The images are an ExternalProject's outputs, known only once built.
  # file(INSTALL) and `cmake --install` each add $DESTDIR (cpack's staging).
  install(CODE "
    file(GLOB lq_images \"${LQ_FIRMWARE_DIR}/*.elf\")
    file(INSTALL \${lq_images}
         DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${lq_share}/firmware\")
    execute_process(COMMAND \"${CMAKE_COMMAND}\" --install \"${LQ_FIRMWARE_DIR}\"
                            --prefix \"\${CMAKE_INSTALL_PREFIX}\"
                    RESULT_VARIABLE lq_sdk_failed)
    if(lq_sdk_failed)
      message(FATAL_ERROR \"installing the firmware SDK failed\")
    endif()")
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/firmware/examples/
          DESTINATION ${lq_share}/firmware/examples)
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/testbench/scenarios/
        DESTINATION ${lq_share}/scenarios
        FILES_MATCHING PATTERN "*.yaml" PATTERN "bad_*" EXCLUDE)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/rtl/
        DESTINATION ${lq_share}/rtl
        FILES_MATCHING PATTERN "*.sv" PATTERN "*.svh" PATTERN "*.vlt"
                       PATTERN "*.regs.json" PATTERN "synth_tops.txt")
install(DIRECTORY ${PROJECT_BINARY_DIR}/generated/rtl/
        DESTINATION ${lq_share}/rtl/generated FILES_MATCHING PATTERN "*.sv")
# The C++ a Verilated model of the RTL links, prim_crc64's DPI-C form
# (decision 0052), under the paths its includes name: rtl/dpi is the include
# directory (docs/rtl-link-controller.md). install.runs_outside_the_tree
# compiles it from there, so a missing header fails that test.
foreach(source rtl/prim/prim_crc64_dpi.cpp models/crc/crc.cpp models/crc/crc.h
               models/common/bytes.h systemc/common/wide_bytes.h)
  get_filename_component(folder ${source} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${source}
          DESTINATION ${lq_share}/rtl/dpi/${folder})
endforeach()

install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md
              ${PROJECT_SOURCE_DIR}/CONTRIBUTING.md ${PROJECT_SOURCE_DIR}/LICENSE
              ${PROJECT_SOURCE_DIR}/NOTICE
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The notices of what is compiled into the binary and the firmware images,
# as this machine's Debian packages give them (docs/dependencies.md).
foreach(notice
    libsystemc-dev/copyright:systemc.copyright
    verilator/copyright:verilator.copyright
    nlohmann-json3-dev/copyright:nlohmann-json.copyright
    libcli11-dev/copyright:cli11.copyright
    picolibc-riscv64-unknown-elf/copyright:picolibc.copyright
    gcc-12-base/copyright:gcc-runtime.copyright)
  string(REPLACE ":" ";" notice ${notice})
  list(GET notice 0 from)
  list(GET notice 1 to)
  if(EXISTS /usr/share/doc/${from})
    install(FILES /usr/share/doc/${from} RENAME ${to}
            DESTINATION ${CMAKE_INSTALL_DOCDIR}/third-party)
  endif()
endforeach()

# The Debian package: its run-time dependencies come from the binary's
# shared libraries (dpkg-shlibdeps, from dpkg-dev).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lqemu)
set(CPACK_PACKAGE_VENDOR "The lqemu authors")
set(CPACK_PACKAGE_CONTACT "The lqemu authors <lqemu@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "emulator of a supernode interconnect protocol stack")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "lqemu emulates the interconnect protocol stack of an accelerator supernode "
  "(PHY, link controller RTL and TL models, routers, RoCEv2 transport, "
  "logical layer) in SystemC/TLM-2.0, boots RISC-V firmware on virtual "
  "boards, and runs a protocol conformance suite.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)
include(CPack)
