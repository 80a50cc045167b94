#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Drives a real gdb-multiarch, in batch mode, against `lqemu board --gdb`:
break at a function, step, read a variable and a CSR, backtrace through
the trap entry, watch a variable change, continue to the firmware's exit;
read and write the devices' registers; stop at an unhandled trap; detach
and attach again; take over a CPU a killed GDB left halted; cut a link with
a monitor command.
Usage: check_gdb.py CASE LQEMU IMAGE.elf [WORK_DIR]   (exit 77 if
gdb-multiarch is missing)"""
import pathlib
import re
import shutil
import subprocess
import sys
import time

SKIP = 77


def gdb_args(image, port, commands):
    args = [shutil.which("gdb-multiarch"), "-batch", "-nx", image,
            "-ex", "set confirm off", "-ex", "target remote localhost:%s" % port]
    for command in commands:
        args += ["-ex", command]
    return args


def unmatched(checks, transcript):
    """The reasons of the (pattern, reason) checks the transcript fails."""
    return [why for pattern, why in checks if not re.search(pattern, transcript)]


class NoGdbPort(Exception):
    """The board did not announce its GDB port."""


def start_board(lqemu, image, board_args):
    """`lqemu board` halted with a GDB port: (process, port); raises
    NoGdbPort if the port was not announced."""
    board = subprocess.Popen(
        [lqemu, "board", "--firmware", image, "--gdb", "0", "--halt", *board_args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    match = re.search(r"localhost:(\d+)", board.stderr.readline())
    if not match:
        board.kill()
        raise NoGdbPort()
    return board, match.group(1)


def run_session(lqemu, image, board_args, commands):
    """Starts `lqemu board` halted with a GDB port, runs `commands` in a
    batch gdb-multiarch, and returns (transcript, board stdout, board
    stderr, board exit status)."""
    board, port = start_board(lqemu, image, board_args)
    session = subprocess.run(gdb_args(image, port, commands), capture_output=True,
                             text=True, timeout=120)
    out, err = board.communicate(timeout=60)
    transcript = session.stdout + session.stderr
    print(transcript)
    return transcript, out, err, board.returncode


def break_step_print_watch_exit(lqemu, image, _):
    result = run_session(lqemu, image, ["--ports", "0"], [
        "break on_timer",
        "continue",        # first tick: stops in the timer handler
        "p/x $mcause",     # a machine timer interrupt
        "bt",              # through the trap entry to what it interrupted
        "step",            # one source line
        "continue",        # second tick
        "print ticks",     # the first tick was counted
        "x/wx 0x00101000",  # a device register: the board information ID
        "delete",
        "watch ticks",     # the second tick's count
        "continue",
        "delete",
        "continue",        # to the finisher: the inferior exits
    ])
    transcript, out, err, status = result
    checks = [
        (r"Breakpoint 1(\.\d+)?, on_timer", "stopped at the breakpoint"),
        (r"\$1 = 0x80000007", "mcause names the timer interrupt"),
        (r"#1\s+<signal handler called>\s*\n#2\s+.*main \(\)",
         "the backtrace passes through the trap entry to main"),
        (r"\$2 = 1\b", "read the variable ticks after one tick"),
        (r"0x101000:\s+0x01044442", "read a device register over the bus"),
        (r"Old value = 1\s+New value = 2", "the watchpoint saw ticks go 1 -> 2"),
        (r"exited normally", "continued to the firmware's exit"),
    ]
    failed = unmatched(checks, transcript)
    if status != 0:
        failed.append("lqemu exited %d: %s" % (status, err))
    if "tick 5" not in out:
        failed.append("the firmware did not finish its ticks:\n" + out)
    return failed


def sees_the_hardware(lqemu, image, work):
    """On node 0 of a 2x2x2 torus of boards, halted at reset: the link
    controllers', router's and transport engine's registers read as their
    IDs, SCRATCH takes a write, and the machine CSRs print."""
    scenario = pathlib.Path(work) / "torus.yaml"
    scenario.parent.mkdir(parents=True, exist_ok=True)
    scenario.write_text("topology:\n  name: torus\n  dims: 2x2x2\n")
    result = run_session(lqemu, image, ["--scenario", str(scenario)], [
        "x/wx 0x40000000",       # link controller of port 0: ID
        "x/4wx 0x40001000",      # port 1: ID, CTRL, STATUS, ERR_INJECT
        "x/wx 0x40010000",       # router: ID
        "x/wx 0x40020000",       # transport engine: ID
        "set {int}0x00101014 = 0x1234",  # board SCRATCH
        "x/wx 0x00101014",
        "p/x $misa",
        "p/x $mstatus",
        "info registers mtvec",
        "kill",
    ])
    transcript = result[0]
    checks = [
        (r"0x40000000:\s+0x01014c43", "a link controller's ID (E01 before)"),
        (r"0x40001000:\s+0x01014c43\s+0x[0-9a-f]{8}\s+0x[0-9a-f]{8}\s+0x00000100",
         "four registers of port 1's link controller in one read"),
        (r"0x40010000:\s+0x01005452", "the router's ID"),
        (r"0x40020000:\s+0x01015054", "the transport engine's ID (E01 before)"),
        (r"0x101014:\s+0x00001234", "SCRATCH took the debugger's write"),
        (r"\$1 = 0x40001105", "misa: RV32 IMAC"),
        (r"\$2 = 0x1800", "mstatus at reset: MPP = M"),
        (r"mtvec\s+0x", "mtvec is a register GDB knows"),
    ]
    return unmatched(checks, transcript)


def sees_an_rtl_port(lqemu, image, work):
    """A board whose port 1 is the Verilated link controller, halted at
    reset: GDB reads its registers as the TL port's (peeked between clock
    edges), and a write to IRQ_ENABLE takes at once."""
    result = run_session(lqemu, image, ["--ports", "2", "--set", "link.rtl_ports=0:1",
                                        "--quiet"], [
        "x/4wx 0x40001000",           # RTL port: ID, CTRL, STATUS, ERR_INJECT
        "x/wx 0x40000000",            # TL port: ID
        "set {int}0x40001024 = 0x3",  # IRQ_ENABLE: LINK_UP and LINK_DOWN
        "x/wx 0x40001024",
        "kill",
    ])
    checks = [
        (r"0x40001000:\s+0x01014c43\s+0x00100009\s+0x[0-9a-f]{8}\s+0x00000100",
         "the RTL port's ID, CTRL at reset, STATUS, ERR_INJECT (E01 before)"),
        (r"0x40000000:\s+0x01014c43", "the TL port's ID"),
        (r"0x40001024:\s+0x00000003", "IRQ_ENABLE took the debugger's write"),
    ]
    return unmatched(checks, result[0])


def vanished_gdb_leaves_the_cpu_halted(lqemu, image, work):
    """A GDB killed while it holds the CPU at a breakpoint: the board says
    so and waits, halted, for the next GDB, which finds the CPU where the
    first left it and runs the firmware to its end."""
    board, port = start_board(lqemu, image, ["--ports", "0"])
    log = pathlib.Path(work) / "first_gdb.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as out:
        first = subprocess.Popen(
            gdb_args(image, port, ["break on_timer", "continue", "shell sleep 60"]),
            stdout=out, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while "Breakpoint 1" not in log.read_text() and time.time() < deadline:
            time.sleep(0.1)
        first.kill()  # as a crashed GDB would: no detach, no kill packet
        first.wait()
    failed = []
    if "Breakpoint 1" not in log.read_text():
        failed.append("the first GDB never reached the breakpoint:\n" + log.read_text())
    said = board.stderr.readline()
    if "GDB went away with the CPU halted" not in said:
        failed.append("the board did not say it waits: %r" % said)
    second = subprocess.run(
        gdb_args(image, port, ["p ticks", "bt 1", "delete", "continue"]),
        capture_output=True, text=True, timeout=120)
    transcript = second.stdout + second.stderr
    print(transcript)
    out, err = board.communicate(timeout=60)
    checks = [
        (r"\$1 = 0\b", "the CPU waited in the first tick's handler"),
        (r"#0\s+on_timer", "still in the handler the first GDB stopped in"),
        (r"exited normally", "the second GDB ran the firmware to its end"),
    ]
    failed += unmatched(checks, transcript)
    if board.returncode != 0 or "tick 5" not in out:
        failed.append("lqemu exited %d: %s\n%s" % (board.returncode, err, out))
    return failed


def detach_and_reattach(lqemu, image, _):
    """GDB detaches, and another attaches to the running board, twice: each
    stops it where it is and lets it go again."""
    board, port = start_board(lqemu, image, ["--ports", "0"])
    failed = []
    for round, commands in enumerate([["detach"], ["p $pc", "detach"],
                                      ["p $pc", "detach"]]):
        session = subprocess.run(gdb_args(image, port, commands),
                                 capture_output=True, text=True, timeout=120)
        transcript = session.stdout + session.stderr
        print(transcript)
        if "detached" not in transcript:
            failed.append("attach %d did not end in a detach" % (round + 1))
        if round > 0 and not re.search(r"\$1 = .* 0x[0-9a-f]+ <", transcript):
            failed.append("attach %d read no pc" % (round + 1))
    out, err = board.communicate(timeout=120)
    if board.returncode != 0:
        failed.append("lqemu exited %d: %s" % (board.returncode, err))
    return failed


def unhandled_trap_stops_gdb_with_a_signal(lqemu, image, _):
    """A trap the firmware does not handle stops GDB with SIGSEGV; the
    backtrace leads through the handler to the faulting load, the CSRs say
    what and where, and continuing ends the run as the trap (exit 1)."""
    result = run_session(lqemu, image, ["--ports", "0"], [
        "continue", "bt", "p/x $mcause", "p/x $mtval", "continue"])
    transcript, out, err, status = result
    checks = [
        (r"Program received signal SIGSEGV", "stopped with SIGSEGV"),
        (r"<signal handler called>\s*\n#\d+\s+0x[0-9a-f]+ in read_word",
         "the backtrace reaches the faulting load"),
        (r"\$1 = 0x5\b", "mcause: load access fault"),
        (r"\$2 = 0x60000000", "mtval: the address"),
        (r"exited with code 01", "continuing ends the run with status 1"),
    ]
    failed = unmatched(checks, transcript)
    if status != 1 or "unhandled trap: load access fault" not in err:
        failed.append("lqemu exited %d: %s" % (status, err))
    return failed


def monitor_cuts_a_link(lqemu, image, _):
    """Stopped once the firmware watches its links, `monitor link cut 0 2`
    cuts that cable now; the firmware, resumed, sees LINK_DOWN. `monitor
    time` and `monitor help` answer, a bad command says why."""
    result = run_session(lqemu, image, ["--ltssm-time-scale", "0.1"], [
        "monitor help",
        "break watch_over",
        "continue",             # the watch has begun
        "monitor time",
        "monitor link cut 0 2",
        "monitor link cut 0 9",
        "monitor snip",
        "delete",
        "continue",             # to the firmware's exit
    ])
    transcript, out, err, _ = result
    checks = [
        (r"link cut\|repair NODE PORT", "monitor help lists the faults"),
        (r"simulated time \d+\.\d{3} us", "monitor time answers"),
        (r"link cut node 0 port 2 at \d+\.\d{3} us", "the cut is applied"),
        (r"error: .*node 0 has ports 0\.\.5", "a port the board lacks"),
        (r"unknown monitor command 'snip'", "an unknown command is named"),
        (r"exited with code 01", "the watch ends with a link down"),
    ]
    failed = unmatched(checks, transcript)
    if "node0: port 2: link down" not in out:
        failed.append("the firmware saw no LINK_DOWN:\n" + out)
    if "link cut node 0 port 2" not in err:
        failed.append("the board did not report the cut:\n" + err)
    return failed


def debugs_the_node_asked_for(lqemu, image, work):
    """--gdb-node 2 on a ring of three boards: GDB reads node 2's board
    information (NODE_ID 2) and its console is node 2's."""
    scenario = pathlib.Path(work) / "ring.yaml"
    scenario.parent.mkdir(parents=True, exist_ok=True)
    scenario.write_text("topology:\n  name: torus\n  dims: 3\n")
    transcript, out, err, status = run_session(
        lqemu, image, ["--scenario", str(scenario), "--gdb-node", "2"],
        ["x/wx 0x00101004", "continue"])
    failed = unmatched([(r"0x101004:\s+0x00000002", "NODE_ID reads 2"),
                        (r"exited normally", "node 2 ran to its end")],
                       transcript)
    if status != 0:
        failed.append("lqemu exited %d: %s" % (status, err))
    return failed


CASES = {f.__name__: f for f in [break_step_print_watch_exit, sees_the_hardware,
                                 sees_an_rtl_port,
                                 debugs_the_node_asked_for,
                                 monitor_cuts_a_link,
                                 unhandled_trap_stops_gdb_with_a_signal,
                                 vanished_gdb_leaves_the_cpu_halted,
                                 detach_and_reattach]}


def main():
    case, lqemu, image = sys.argv[1], sys.argv[2], sys.argv[3]
    work = sys.argv[4] if len(sys.argv) > 4 else "."
    if shutil.which("gdb-multiarch") is None:
        print("gdb-multiarch is not installed")
        return SKIP
    try:
        failed = CASES[case](lqemu, image, work)
    except NoGdbPort:
        failed = ["the board announced no GDB port"]
    for why in failed:
        print("FAILED:", why)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
