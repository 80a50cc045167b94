#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""lqemu as a user who installed it runs it (issue 44).

    check_install.py install BUILD_DIR WORK_DIR
        installs BUILD_DIR into WORK_DIR/prefix (cmake --install) and, from a
        directory outside the source and build trees, runs the installed
        lqemu: --version, `run --set run.phases=link`, `conformance --filter
        'DLL-3*'`, and a board booting an installed firmware image; no
        installed file may name the build tree.
    check_install.py package BUILD_DIR WORK_DIR
        builds the Debian package with CPack into WORK_DIR and checks what it
        declares (its dependencies, the binary, images and scenarios in it).

Prints what failed and exits 1, or exits 0.
"""
import os
import pathlib
import shutil
import subprocess
import sys

FAILURES = []


def expect(condition, what):
    if not condition:
        FAILURES.append(what)
        print("FAIL:", what)


def run(command, cwd, timeout=600):
    """Runs COMMAND in CWD with an environment that knows nothing of lqemu."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("LQ_", "VERILATOR"))}
    return subprocess.run([str(part) for part in command], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


def files_naming(root, needle):
    """The files under ROOT whose bytes contain NEEDLE."""
    needle = needle.encode()
    return [path for path in sorted(root.rglob("*"))
            if path.is_file() and needle in path.read_bytes()]


def check_install(build, work):
    prefix = work / "prefix"
    shutil.rmtree(work, ignore_errors=True)
    outside = work / "elsewhere"  # Neither source tree nor build tree.
    outside.mkdir(parents=True)
    done = run(["cmake", "--install", build, "--prefix", prefix], outside)
    expect(done.returncode == 0, "cmake --install failed:\n" + done.stderr)
    if done.returncode != 0:
        return
    lqemu = prefix / "bin" / "lqemu"
    share = prefix / "share" / "lqemu"
    for needed in [lqemu, share / "firmware" / "link_bringup.elf",
                   share / "firmware" / "hello.elf",
                   share / "scenarios" / "torus_4x8x8.yaml",
                   share / "rtl" / "lc" / "lc_top.sv",
                   share / "rtl" / "regs" / "lc.regs.json",
                   share / "rtl" / "generated" / "lc_reg_pkg.sv",
                   prefix / "include" / "lqemu-firmware" / "lc_regs.h",
                   prefix / "lib" / "cmake" / "lqemu-firmware" /
                   "lqemu-firmwareConfig.cmake",
                   prefix / "share" / "doc" / "lqemu" / "LICENSE",
                   prefix / "share" / "doc" / "lqemu" / "guide-firmware.md",
                   prefix / "share" / "doc" / "lqemu" / "third-party" /
                   "systemc.copyright"]:
        expect(needed.is_file(), f"{needed.relative_to(prefix)} is not installed")
    expect(not (share / "scenarios" / "bad_syntax.yaml").exists(),
           "the test tree's bad scenarios are installed")
    naming = files_naming(prefix, str(build.resolve()))
    expect(not naming, "installed files name the build tree: " +
           ", ".join(str(path.relative_to(prefix)) for path in naming))

    version = run([lqemu, "--version"], outside)
    expect(version.returncode == 0 and version.stdout.startswith("lqemu ") and
           "SystemC" in version.stdout and "Verilator" in version.stdout,
           "lqemu --version: " + version.stdout + version.stderr)

    link = run([lqemu, "run", "--set", "run.phases=link", "--stats",
                "stats.json"], outside)
    expect(link.returncode == 0 and "link" in link.stdout and
           (outside / "stats.json").is_file(),
           f"installed `lqemu run --set run.phases=link` exit "
           f"{link.returncode}:\n{link.stdout[-2000:]}{link.stderr[-2000:]}")

    suite = run([lqemu, "conformance", "--filter", "DLL-3*"], outside)
    expect(suite.returncode == 0 and "DLL-3" in suite.stdout and
           "FAIL" not in suite.stdout,
           f"installed `lqemu conformance --filter 'DLL-3*'` exit "
           f"{suite.returncode}:\n{suite.stdout[-2000:]}{suite.stderr[-2000:]}")

    board = run([lqemu, "board", "--firmware", share / "firmware" / "hello.elf",
                 "--ports", "0"], outside, timeout=120)
    expect(board.returncode == 0 and board.stdout.strip(),
           f"installed lqemu booting the installed hello.elf: exit "
           f"{board.returncode}:\n{board.stdout[-1000:]}{board.stderr[-1000:]}")

    check_rtl_dpi(share / "rtl", outside)

    stray = sorted(path.name for path in outside.iterdir()
                   if path.name != "stats.json" and path.name != "dpi")
    expect(not stray, f"the runs left files behind: {stray}")


def check_rtl_dpi(rtl, outside):
    """The installed RTL brings the C++ its Verilated models link (the DPI-C
    form of prim_crc64, decision 0052), and that C++ compiles from the
    installed tree alone, as docs/rtl-link-controller.md says."""
    dpi = rtl / "dpi"
    sources = [dpi / "rtl" / "prim" / "prim_crc64_dpi.cpp",
               dpi / "models" / "crc" / "crc.cpp"]
    for source in sources:
        expect(source.is_file(), f"{source.relative_to(rtl.parent)} is not "
               "installed")
    verilator = pathlib.Path("/usr/share/verilator/include")
    if not all(source.is_file() for source in sources) or \
            not verilator.is_dir():
        return
    objects = outside / "dpi"
    objects.mkdir()
    for source in sources:
        built = run(["c++", "-std=c++17", "-c", "-I", dpi, "-I", verilator,
                     "-I", verilator / "vltstd", "-o",
                     objects / (source.stem + ".o"), source], outside)
        expect(built.returncode == 0,
               f"the installed {source.name} does not compile on its own:\n"
               + built.stderr[-2000:])


def check_package(build, work):
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    made = run(["cpack", "--config", build / "CPackConfig.cmake", "-B", work],
               work)
    expect(made.returncode == 0, "cpack failed:\n" + made.stdout + made.stderr)
    packages = sorted(work.glob("lqemu_*.deb"))
    expect(len(packages) == 1, f"cpack made {packages}, not one lqemu_*.deb")
    if len(packages) != 1:
        return
    fields = run(["dpkg-deb", "--field", packages[0]], work).stdout
    depends = next((line for line in fields.splitlines()
                    if line.startswith("Depends:")), "")
    for library in ["libsystemc", "libyaml-cpp", "libc6"]:
        expect(library in depends, f"the package does not depend on {library}: "
               f"{depends or fields}")
    listing = run(["dpkg-deb", "--contents", packages[0]], work).stdout
    paths = [line.split()[-1] for line in listing.splitlines() if line]
    stray = [path for path in paths
             if path != "./" and not path.startswith("./usr/")]
    expect(not stray, f"the package installs outside /usr: {stray[:5]}")
    for path in ["./usr/bin/lqemu", "./usr/share/lqemu/firmware/hello.elf",
                 "./usr/share/lqemu/scenarios/torus_4x8x8.yaml",
                 "./usr/share/doc/lqemu/LICENSE"]:
        expect(path in listing, f"the package holds no {path}")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("install", "package"):
        print(__doc__, file=sys.stderr)
        return 2
    build = pathlib.Path(sys.argv[2]).resolve()
    work = pathlib.Path(sys.argv[3]).resolve()
    if sys.argv[1] == "install":
        check_install(build, work)
    else:
        check_package(build, work)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
