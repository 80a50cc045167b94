#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The firmware SDK used as an outside project would use it: the template
(firmware/examples/template) configured with CMake against the firmware
build tree's package and against an installed one, and built with its
Makefile against the installed SDK; each image boots on `lqemu board`.
Usage: check_sdk.py LQEMU SOURCE_DIR FIRMWARE_BUILD_DIR WORK_DIR"""
import pathlib
import shutil
import subprocess
import sys


def run(*args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, timeout=600,
                            **kwargs)
    if result.returncode != 0:
        raise AssertionError("%s exited %d\nstdout:\n%s\nstderr:\n%s" %
                             (" ".join(map(str, args)), result.returncode,
                              result.stdout, result.stderr))
    return result


def boots(lqemu, image):
    result = run(lqemu, "board", "--firmware", str(image), "--ports", "3")
    expected = "node0: template: node 0, 3 of 3 ports cabled"
    if expected not in result.stdout.splitlines():
        raise AssertionError("%s printed no %r:\n%s" % (image, expected, result.stdout))


def main():
    lqemu, source, firmware_build, work = sys.argv[1:5]
    source, work = pathlib.Path(source).resolve(), pathlib.Path(work).resolve()
    firmware_build = pathlib.Path(firmware_build).resolve()
    template = source / "firmware" / "examples" / "template"
    toolchain = source / "firmware" / "cmake" / "riscv32-toolchain.cmake"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)

    # CMake against the build tree's package.
    tree = work / "from_tree"
    run("cmake", "-S", template, "-B", tree, "-DCMAKE_TOOLCHAIN_FILE=%s" % toolchain,
        "-Dlqemu-firmware_DIR=%s/sdk" % firmware_build)
    run("cmake", "--build", tree)
    boots(lqemu, tree / "template.elf")

    # The SDK installed, then CMake and make against it, outside both trees.
    prefix = work / "prefix"
    run("cmake", "--install", firmware_build, "--prefix", prefix)
    installed = work / "from_install"
    run("cmake", "-S", template, "-B", installed,
        "-DCMAKE_TOOLCHAIN_FILE=%s" % (prefix / "lib/cmake/lqemu-firmware/riscv32-toolchain.cmake"),
        "-Dlqemu-firmware_DIR=%s" % (prefix / "lib/cmake/lqemu-firmware"))
    run("cmake", "--build", installed)
    boots(lqemu, installed / "template.elf")

    made = work / "from_make"
    made.mkdir()
    run("make", "-C", template, "LQ_PREFIX=%s" % prefix, "OUT=%s" % made)
    boots(lqemu, made / "template.elf")
    print("the template builds and boots from the build tree, the installed "
          "SDK with CMake, and with make")
    return 0


if __name__ == "__main__":
    sys.exit(main())
