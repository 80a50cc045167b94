#!/usr/bin/python3
"""Drives a real gdb-multiarch, in batch mode, against `lqemu board --gdb`:
break at a function, step, read a variable, watch it change, continue to
the firmware's exit.
Usage: check_gdb.py LQEMU IMAGE.elf   (exit 77 if gdb-multiarch is missing)"""
import re
import shutil
import subprocess
import sys

SKIP = 77


def main():
    lqemu, image = sys.argv[1], sys.argv[2]
    gdb = shutil.which("gdb-multiarch")
    if gdb is None:
        print("gdb-multiarch is not installed")
        return SKIP
    board = subprocess.Popen(
        [lqemu, "board", "--firmware", image, "--ports", "0", "--gdb", "0",
         "--halt"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    banner = board.stderr.readline()
    match = re.search(r"localhost:(\d+)", banner)
    if not match:
        board.kill()
        print("no GDB port announced: %r" % banner)
        return 1
    commands = [
        "set confirm off",
        "target remote localhost:" + match.group(1),
        "break on_timer",
        "continue",        # first tick: stops in the timer handler
        "step",            # one source line
        "continue",        # second tick
        "print ticks",     # the first tick was counted
        "x/wx 0x00101000",  # a device register: the board information ID
        "delete",
        "watch ticks",     # the second tick's count
        "continue",
        "delete",
        "continue",        # to the finisher: the inferior exits
    ]
    args = [gdb, "-batch", "-nx", image]
    for command in commands:
        args += ["-ex", command]
    session = subprocess.run(args, capture_output=True, text=True, timeout=120)
    out, err = board.communicate(timeout=60)
    transcript = session.stdout + session.stderr
    print(transcript)
    checks = [
        (r"Breakpoint 1(\.\d+)?, on_timer", "stopped at the breakpoint"),
        (r"\$1 = 1\b", "read the variable ticks after one tick"),
        (r"0x101000:\s+0x01044442", "read a device register over the bus"),
        (r"Old value = 1\s+New value = 2", "the watchpoint saw ticks go 1 -> 2"),
        (r"exited normally", "continued to the firmware's exit"),
    ]
    failed = [why for pattern, why in checks if not re.search(pattern, transcript)]
    if board.returncode != 0:
        failed.append("lqemu exited %d: %s" % (board.returncode, err))
    if "tick 5" not in out:
        failed.append("the firmware did not finish its ticks:\n" + out)
    for why in failed:
        print("FAILED:", why)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
