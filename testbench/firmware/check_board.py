#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end checks of `lqemu board` on the firmware images: exit statuses,
console output, the one-line errors for bad images, time limits, signals,
clusters.
Usage: check_board.py CASE LQEMU FIRMWARE_DIR WORK_DIR"""
import json
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time


def run(lqemu, *args, timeout=240):
    return subprocess.run([lqemu, "board", *args], capture_output=True,
                          text=True, timeout=timeout)


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def expect_exit(result, status, what):
    expect(result.returncode == status,
           "%s: exit %d, expected %d\nstdout:\n%s\nstderr:\n%s" %
           (what, result.returncode, status, result.stdout, result.stderr))


def one_line_error(result, needle, what):
    expect_exit(result, 2, what)
    lines = result.stderr.strip().splitlines()
    expect(len(lines) == 1, "%s: error is not one line: %r" % (what, lines))
    expect(needle in lines[0], "%s: %r does not mention %r" % (what, lines[0], needle))


def case_console_is_prefixed_with_the_node(lqemu, fw, work):
    result = run(lqemu, "--firmware", str(fw / "hello.elf"))
    expect_exit(result, 0, "hello")
    expect("node0: Hello from node 0" in result.stdout.splitlines(),
           "hello's greeting missing or not prefixed:\n" + result.stdout)
    expect("firmware exited with status 0" in result.stderr, result.stderr)


def case_console_dir_writes_one_log_per_node(lqemu, fw, work):
    logs = work / "logs"
    logs.mkdir()
    result = run(lqemu, "--firmware", str(fw / "hello.elf"), "--console-dir",
                 str(logs), "--quiet")
    expect_exit(result, 0, "hello --console-dir")
    expect(result.stdout == "", "console went to stdout too: " + result.stdout)
    text = (logs / "node0.log").read_text()
    expect(text.startswith("Hello from node 0\n"), "node0.log: " + text)


def case_unhandled_trap_is_named_and_exits_1(lqemu, fw, work):
    # The firmware's own statuses keep their meaning: a trap nobody handles
    # is named, with its cause, pc and mtval, and exits 1 (it exited 3, as
    # firmware returning 3 would).
    result = run(lqemu, "--firmware", str(fw / "trap_demo.elf"), "--ports", "0")
    expect_exit(result, 1, "an unhandled load access fault")
    expect("lqemu board: node 0: unhandled trap: load access fault (mcause 0x5) "
           "at pc 0x2" in result.stderr and "mtval 0x60000000" in result.stderr,
           "the trap is not named:\n" + result.stderr)
    expect("node0: trap: mcause=0x00000005" in result.stdout,
           "the runtime's own line is missing:\n" + result.stdout)


def case_sigterm_leaves_the_console_and_a_summary(lqemu, fw, work):
    # Killed part-way, the run still prints its summary, and the console
    # file holds every line the firmware printed, each as it came.
    logs = work / "logs"
    logs.mkdir()
    board = subprocess.Popen(
        [lqemu, "board", "--firmware", str(fw / "ticker.elf"), "--ports", "0",
         "--console-dir", str(logs)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log = logs / "node0.log"
    deadline = time.time() + 60
    while time.time() < deadline and (
            not log.exists() or log.read_text().count("\n") < 10):
        time.sleep(0.05)
    board.send_signal(signal.SIGTERM)
    out, err = board.communicate(timeout=60)
    expect(board.returncode == 1, "exit %d after SIGTERM: %s" % (board.returncode, err))
    expect("stopped by SIGTERM, 1 of 1 boards still running" in err,
           "no summary after SIGTERM:\n" + err)
    lines = log.read_text().splitlines()
    complete = [line for line in lines if re.fullmatch(r"ticker: line \d+", line)]
    expect(len(complete) >= 10 and complete == ["ticker: line %d" % (n + 1)
                                                for n in range(len(complete))],
           "the console file lost lines: %r" % lines[:20])
    # The UART writes a character at a time, so the signal may land inside
    # a line: what follows the complete lines is a prefix of the next.
    following = "ticker: line %d" % (len(complete) + 1)
    expect(len(lines) - len(complete) <= 1 and all(
               following.startswith(line) for line in lines[len(complete):]),
           "only a last partial line may follow: %r" % lines[len(complete):])


def case_wall_time_limit_ends_a_long_run(lqemu, fw, work):
    started = time.time()
    result = run(lqemu, "--firmware", str(fw / "ticker.elf"), "--ports", "0",
                 "--max-wall-s", "0.5")
    elapsed = time.time() - started
    expect_exit(result, 1, "ticker cut short by --max-wall-s")
    expect("still running at the wall-time limit (--max-wall-s)" in result.stderr,
           result.stderr)
    expect("node0: ticker: line 1" in result.stdout, "no console before the limit")
    expect(elapsed < 20, "the wall limit of 0.5 s took %.1f s" % elapsed)


def case_cluster_names_the_nodes_that_failed(lqemu, fw, work):
    # A cluster's summary and stats answer per node: which boards failed,
    # how, and which still run.
    scenario = work / "torus.yaml"
    scenario.write_text("topology:\n  name: torus\n  dims: 2x2x2\n")
    stats = work / "traps.json"
    result = run(lqemu, "--firmware", str(fw / "trap_demo.elf"), "--scenario",
                 str(scenario), "--stats", str(stats))
    expect_exit(result, 1, "eight boards trapping")
    expect("all boards finished, worst status 1 (node 0 exited 1, node 1 exited 1,"
           in result.stderr, "the summary names no node:\n" + result.stderr)
    expect(all("lqemu board: node %d: unhandled trap: load access fault" % n
               in result.stderr for n in range(8)), "a trap line per node:\n"
           + result.stderr)
    boards = json.loads(stats.read_text())["boards"]
    expect(len(boards) == 8 and all(
               b["finished"] and b["status"] == 1 and b["unhandled_trap"]["mcause"] == 5
               and b["instructions"] > 0 and b["traps"] >= 1 and b["console_bytes"] > 0
               for b in boards), "per-board stats: %s" % boards[:2])
    stats = work / "running.json"
    result = run(lqemu, "--firmware", str(fw / "ticker.elf"), "--scenario",
                 str(scenario), "--max-time-us", "300", "--stats", str(stats))
    expect_exit(result, 1, "eight boards at the time limit")
    expect("8 of 8 boards still running (node 0, node 1, node 2, node 3, node 4, "
           "node 5, node 6, node 7) at the time limit" in result.stderr, result.stderr)
    boards = json.loads(stats.read_text())["boards"]
    expect(all(not b["finished"] and b["status"] is None for b in boards),
           "running boards have no status: %s" % boards[:2])


def case_time_limit_ends_an_unfinished_run(lqemu, fw, work):
    # Training takes Detect.Quiet (12 ms) at full scale: a 5 ms limit ends
    # the run while the bring-up firmware still waits.
    result = run(lqemu, "--firmware", str(fw / "link_bringup.elf"),
                 "--ltssm-time-scale", "1", "--max-time-us", "5000")
    expect_exit(result, 1, "bring-up cut short by the time limit")
    expect("still running at the time limit" in result.stderr, result.stderr)


def case_rejects_bad_images(lqemu, fw, work):
    text = work / "notes.txt"
    text.write_text("not an image\n")
    one_line_error(run(lqemu, "--firmware", str(text)), "not an ELF file",
                   "text file")
    host = pathlib.Path(shutil.which("true")).resolve()
    one_line_error(run(lqemu, "--firmware", str(host)), "64-bit ELF",
                   "host executable")
    elf = (fw / "hello.elf").read_bytes()
    truncated = work / "truncated.elf"
    truncated.write_bytes(elf[:100])
    one_line_error(run(lqemu, "--firmware", str(truncated)), "truncated.elf",
                   "truncated image")
    moved = work / "moved.elf"
    subprocess.run(["riscv64-unknown-elf-objcopy", "--change-addresses",
                    "0x10000000", str(fw / "hello.elf"), str(moved)], check=True)
    one_line_error(run(lqemu, "--firmware", str(moved)), "outside flash",
                   "image linked for another map")
    missing = run(lqemu, "--firmware", str(work / "missing.elf"))
    expect_exit(missing, 2, "missing image")


def case_stats_file_has_the_cpu_counters(lqemu, fw, work):
    path = work / "stats.json"
    result = run(lqemu, "--firmware", str(fw / "compute_short.elf"), "--ports",
                 "0", "--stats", str(path), "--quiet")
    expect_exit(result, 0, "compute_short")
    stats = json.loads(path.read_text())
    expect(stats["firmware_status"] == 0, stats)
    expect(stats["stats"]["node0.board.cpu.instructions"] > 4_000_000,
           "compute_short runs millions of instructions: %s" % stats["stats"])


def case_cluster_brings_up_every_link(lqemu, fw, work):
    scenario = work / "torus.yaml"
    scenario.write_text("topology:\n  name: torus\n  dims: 4x4x4\n")
    logs = work / "logs"
    logs.mkdir()
    result = run(lqemu, "--firmware", str(fw / "link_bringup.elf"),
                 "--scenario", str(scenario), "--console-dir", str(logs))
    expect_exit(result, 0, "64-node bring-up")
    expect("384 of 384 ports up" in result.stderr, result.stderr)
    for node in range(64):
        log = (logs / ("node%d.log" % node)).read_text()
        expect("link bring-up: 6 of 6 ports up" in log,
               "node%d did not report 6 links up:\n%s" % (node, log))


def case_event_cut_raises_link_down(lqemu, fw, work):
    """A cable cut from --event reaches the firmware as LINK_DOWN (after
    Recovery's timeout, DLL-6.8, at a tenth of full scale), and its repair
    as a link up again."""
    result = run(lqemu, "--firmware", str(fw / "link_bringup_watch.elf"),
                 "--ltssm-time-scale", "0.1",
                 "--event", "2ms link cut 0 2", "--event", "4.5ms link repair 0 2",
                 "--event", "3ms ber 0 4 1e-6")
    expect_exit(result, 0, "cut and repair")
    expect("lqemu board: 3000.000 us: ber node 0 port 4 to 1e-06" in result.stderr,
           "the BER change is not reported:\n" + result.stderr)
    expect("lqemu board: 2000.000 us: link cut node 0 port 2" in result.stderr,
           "the cut is not reported:\n" + result.stderr)
    expect("lqemu board: 4500.000 us: link repair node 0 port 2" in result.stderr,
           "the repair is not reported:\n" + result.stderr)
    expect("node0: port 2: link down, retrain requested" in result.stdout,
           "the firmware saw no LINK_DOWN:\n" + result.stdout)
    expect("node0: port 2: link up again x16" in result.stdout,
           "the firmware saw no link up after the repair:\n" + result.stdout)
    expect("6 of 6 ports up at the end" in result.stdout, result.stdout)


def case_scenario_events_reach_a_cluster(lqemu, fw, work):
    """A scenario's `events:` list on a ring of three boards: the cut
    raises LINK_DOWN at both ends, in their own firmware."""
    scenario = work / "ring.yaml"
    scenario.write_text("topology:\n  name: torus\n  dims: 3\n"
                        "events:\n  - 2ms link cut 0 0\n"
                        "  - 4.5ms link repair 0 0\n")
    logs = work / "logs"
    logs.mkdir()
    result = run(lqemu, "--firmware", str(fw / "link_bringup_watch.elf"),
                 "--scenario", str(scenario), "--ltssm-time-scale", "0.1",
                 "--console-dir", str(logs))
    expect_exit(result, 0, "ring with events")
    expect("2000.000 us: link cut node 0 port 0" in result.stderr, result.stderr)
    # Node 0's port 0 (+x) faces node 1's port 1 (-x).
    for node, port in ((0, 0), (1, 1)):
        log = (logs / ("node%d.log" % node)).read_text()
        expect("port %d: link down" % port in log,
               "node%d saw no LINK_DOWN on port %d:\n%s" % (node, port, log))
    expect("link down" not in (logs / "node2.log").read_text(),
           "node2's links were not cut")


def watch_cluster(lqemu, fw, work, scenario, max_time_us):
    """link_bringup_watch on the cluster `scenario` (YAML text) describes,
    at LTSSM time scale 0.01, for `max_time_us`: the result, the --stats
    JSON and the directory of the consoles."""
    path = work / "scenario.yaml"
    path.write_text(scenario)
    logs = work / "logs"
    logs.mkdir()
    stats = work / "stats.json"
    result = run(lqemu, "--firmware", str(fw / "link_bringup_watch.elf"),
                 "--scenario", str(path), "--ltssm-time-scale", "0.01",
                 "--console-dir", str(logs), "--max-time-us", str(max_time_us),
                 "--stats", str(stats))
    return result, json.loads(stats.read_text()), logs


def case_node_failure_takes_its_links_down(lqemu, fw, work):
    """'node fail N' stops a card: its neighbours' firmware sees LINK_DOWN on
    the ports facing it, the summary and --stats name it as failed, and a
    run waits only for the boards still alive."""
    result, stats, logs = watch_cluster(
        lqemu, fw, work, "topology:\n  name: torus\n  dims: 3\n"
        "events:\n  - 1ms node fail 1\n", 1500)
    expect_exit(result, 1, "ring with a node failure, stopped at 1.5 ms")
    expect("1000.000 us: node 1 fails" in result.stderr, result.stderr)
    expect("2 of 3 boards still running (node 0, node 2); 1 failed (node 1) at the "
           "time limit" in result.stderr, result.stderr)
    # Node 1 sits between node 0's port 0 (+x) and node 2's port 1 (-x).
    for node, port in ((0, 0), (2, 1)):
        log = (logs / ("node%d.log" % node)).read_text()
        expect("port %d: link down" % port in log,
               "node%d saw no LINK_DOWN on port %d:\n%s" % (node, port, log))
    boards = stats["boards"]
    expect([b["failed"] for b in boards] == [False, True, False], "failed: %s" % boards)
    one_line_error(run(lqemu, "--firmware", str(fw / "hello.elf"),
                       "--event", "1ms node fail 1"),
                   "the run has nodes 0..0", "a node the run lacks")
    one_line_error(run(lqemu, "--firmware", str(fw / "hello.elf"), "--gdb", "0",
                       "--event", "1ms node fail 0"),
                   "GDB debugs that node", "failing the node GDB debugs")


def case_traffic_moves_the_link_counters(lqemu, fw, work):
    """board.traffic_load puts synthetic packets on the cards' routers once
    the firmware has switched routes in: the summary counts them, the links
    carry payload flits, and a BER event then shows as CRC errors and
    replays; without --scenario, or with packets too big, it is refused."""
    result, stats, _ = watch_cluster(
        lqemu, fw, work, "topology:\n  name: torus\n  dims: 2x2\n"
        "board:\n  traffic_load: 0.05\n  traffic_start_us: 800\n"
        "events:\n  - 1ms ber 0 0 1e-4\n", 1200)
    expect_exit(result, 1, "boards with traffic, stopped at 1.2 ms")
    counts = re.search(r"traffic: (\d+) packets sent, (\d+) delivered \(mean [\d.]+ ns\), "
                       r"(\d+) dropped by routers \((\d+) without a route\)", result.stderr)
    expect(counts, "a traffic line in: " + result.stderr)
    sent, delivered, dropped, no_route = map(int, counts.groups())
    # About 46 packets a microsecond per card for 400 us; a few in flight.
    expect(sent > 50000 and delivered > 0.99 * sent and no_route == 0,
           "routed and delivered: " + counts.group(0))
    port = {k.split(".")[-1]: v for k, v in stats["stats"].items()
            if k.startswith("node0.port0.lc.")}
    expect(port["tx_payload_flits"] > 1000, "payload flits on node 0 port 0: %s" % port)
    expect(port["crc_errors"] > 0 and port["replays"] > 0,
           "the BER raised at 1 ms hits real flits: %s" % port)
    one_line_error(run(lqemu, "--firmware", str(fw / "hello.elf"),
                       "--set", "board.traffic_load=0.1"),
                   "board.traffic_load: lqemu board does not read it: without --scenario",
                   "traffic on one card")
    one_line_error(run(lqemu, "--firmware", str(fw / "hello.elf"), "--scenario",
                       str(work / "scenario.yaml"), "--set", "traffic.message_bytes=70000"),
                   "board traffic sends packets of at most 65535 bytes", "a packet too big")


def case_node_reset_restarts_the_firmware(lqemu, fw, work):
    """'node reset N' restarts a board: the firmware boots again from its
    image (a partial console line is kept), runs to its end, and --stats
    counts the instructions of both boots."""
    image = str(fw / "link_bringup.elf")
    once = work / "once.json"
    result = run(lqemu, "--firmware", image, "--ports", "2", "--ltssm-time-scale", "1e-3",
                 "--stats", str(once))
    expect_exit(result, 0, "link_bringup")
    twice = work / "twice.json"
    result = run(lqemu, "--firmware", image, "--ports", "2", "--ltssm-time-scale", "1e-3",
                 "--event", "650us node reset 0", "--stats", str(twice))
    expect_exit(result, 0, "link_bringup reset at 650 us")
    expect("650.000 us: node 0 resets" in result.stderr, result.stderr)
    expect(result.stdout.count("link bring-up: node 0, 2 ports") == 2
           and result.stdout.count("ports up in") == 1,
           "two boots, one to the end:\n" + result.stdout)
    first, second = (json.loads(p.read_text())["boards"][0] for p in (once, twice))
    expect(second["instructions"] > first["instructions"] and second["status"] == 0,
           "both boots counted: %s against %s" % (second, first))


def case_bad_events_are_refused(lqemu, fw, work):
    image = str(fw / "link_bringup_watch.elf")
    one_line_error(run(lqemu, "--firmware", image, "--event", "soon link cut 0 2"),
                   "starts with its simulated time", "an event without a time")
    one_line_error(run(lqemu, "--firmware", image, "--event", "1ms link snip 0 2"),
                   "link cut|repair NODE PORT", "an unknown fault")
    one_line_error(run(lqemu, "--firmware", image, "--event", "1ms link cut 0 9"),
                   "node 0 has ports 0..5", "a port the board lacks")
    one_line_error(run(lqemu, "--firmware", image, "--ports", "2",
                       "--event", "1ms lane fail 0 1 16"),
                   "lanes 0..15", "a lane the port lacks")
    one_line_error(run(lqemu, "--firmware", image, "--event", "1ms ber 0 2 0.5"),
                   "the rate is a number from 0 to 1e-2", "a BER beyond link.ber's")
    one_line_error(run(lqemu, "--firmware", image,
                       "--event", "1ms link cut 0 2; 2ms link repair 0 2"),
                   "one event per --event", "two events in one --event")


def case_log_prints_cpu_events(lqemu, fw, work):
    """--log prints traps, interrupts, refused accesses and device accesses
    as they happen, each with its node, time and pc."""
    stamp = r"node0: \[\d+\.\d{3} us\] "
    result = run(lqemu, "--firmware", str(fw / "trap_demo.elf"), "--ports", "0",
                 "--log", "traps,bus-errors")
    expect_exit(result, 1, "trap_demo --log traps,bus-errors")
    for pattern in (stamp + r"bus error: read of 4 bytes at 0x60000000 \(pc 0x[0-9a-f]{8}\)",
                    stamp + r"trap: load access fault \(mcause 0x5\) at pc "
                            r"0x[0-9a-f]{8}, mtval 0x60000000"):
        expect(re.search(pattern, result.stderr), "no %r in:\n%s" % (pattern, result.stderr))
    result = run(lqemu, "--firmware", str(fw / "timer_demo.elf"), "--ports", "0",
                 "--log", "irq")
    expect_exit(result, 0, "timer_demo --log irq")
    ticks = re.findall(stamp + r"irq: machine timer interrupt \(mcause 0x80000007\)",
                       result.stderr)
    expect(len(ticks) >= 5, "a line per timer interrupt:\n" + result.stderr)
    expect("trap:" not in result.stderr, "traps were not asked for")
    result = run(lqemu, "--firmware", str(fw / "hello.elf"), "--ports", "0",
                 "--log", "mmio")
    expect_exit(result, 0, "hello --log mmio")
    expect(re.search(stamp + r"mmio: write 1 bytes at 0x10000000 <- 0x48 ", result.stderr),
           "the UART's first byte ('H') as a device write:\n" + result.stderr[:2000])
    expect(not re.search(r"mmio: \w+ \d+ bytes at 0x8", result.stderr),
           "RAM accesses are not device accesses")
    result = run(lqemu, "--firmware", str(fw / "hello.elf"), "--log", "trap")
    expect_exit(result, 2, "a bad --log")
    expect("'trap' is not one of traps, irq, bus-errors, mmio" in result.stderr,
           result.stderr)


def case_trace_shows_the_board(lqemu, fw, work):
    """--trace writes what a run of boards did as Chrome trace events:
    console lines, --log's CPU events at the CPU's time, each link port's
    LTSSM states as spans, and injected faults; an unwritable --trace is
    refused before the run."""
    path = work / "board.json"
    result = run(lqemu, "--firmware", str(fw / "link_bringup.elf"), "--ports", "2",
                 "--ltssm-time-scale", "1e-3", "--event", "650us link cut 0 1",
                 "--log", "irq", "--trace", str(path))
    expect_exit(result, 0, "link_bringup --trace")
    events = json.loads(path.read_text())["traceEvents"]
    tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
              if e["name"] == "thread_name"}
    processes = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}

    def on(process, track, phase):
        return [e for e in events if e["ph"] == phase
                and processes.get(e["pid"]) == process
                and tracks.get((e["pid"], e["tid"])) == track]

    expect(any(e["name"].startswith("link bring-up: 2 of 2 ports up")
               for e in on("node0", "firmware", "i")), "console lines")
    irqs = on("node0", "cpu", "i")
    expect(irqs and all(e["name"].startswith("irq: machine external interrupt")
                        for e in irqs), "--log irq's events: %s" % irqs)
    cut = on("faults", "injected", "i")
    expect([(e["name"], round(e["ts"])) for e in cut] == [("link cut node 0 port 1", 650)],
           "the fault at 650 us: %s" % cut)
    port1 = [(e["name"], e["ts"]) for e in on("node0", "link port 1", "X")]
    names = [name for name, _ in port1]
    expect("L0" in names and "Recovery.RcvrLock" in names
           and names.index("Recovery.RcvrLock") > names.index("L0"),
           "port 1 trains, then leaves L0 at the cut: %s" % port1)
    expect(on("node0", "link port 0", "X")[-1]["name"] == "L0", "port 0 stays up")
    one_line_error(run(lqemu, "--firmware", str(fw / "hello.elf"), "--trace",
                       str(work / "missing" / "t.json")),
                   "--trace: cannot write", "an unwritable trace")


def case_cluster_moves_data_by_rdma(lqemu, fw, work):
    """rdma_demo on a 4x4 torus: each pair of cards connects a queue pair
    through its transport engine's registers and moves RAM to RAM (WRITE,
    SEND, READ, FETCH_ADD); every work request completes, nothing fails,
    and completion interrupts wake the sleeping MCUs."""
    scenario = work / "torus.yaml"
    scenario.write_text("topology:\n  name: torus\n  dims: 4x4\n")
    logs = work / "logs"
    logs.mkdir()
    stats_file = work / "stats.json"
    result = run(lqemu, "--firmware", str(fw / "rdma_demo.elf"),
                 "--scenario", str(scenario), "--console-dir", str(logs),
                 "--stats", str(stats_file))
    expect_exit(result, 0, "rdma_demo on 16 cards")
    for node in range(16):
        log = (logs / ("node%d.log" % node)).read_text()
        expect("rdma demo: ok" in log, "node%d failed:\n%s" % (node, log))
        role = "WRITE 4096 bytes to" if node % 2 == 0 else \
            "4096 bytes from node %d read back intact" % (node ^ 1)
        expect(role in log, "node%d: %r missing:\n%s" % (node, role, log))
    stats = json.loads(stats_file.read_text())["stats"]
    for node in range(16):
        prefix = "node%d.transport." % node
        posted = stats[prefix + "work_posted"]
        expect(posted > 0 and stats[prefix + "work_completed"] == posted,
               "node%d: %d posted, %d completed" %
               (node, posted, stats[prefix + "work_completed"]))
        for bad in ("work_failed", "bad_packets", "dma_errors", "access_errors"):
            expect(stats[prefix + bad] == 0, "node%d: %s = %d" %
                   (node, bad, stats[prefix + bad]))
    # Every router does PFC over its links' CONTROL flits (TRN-8.3); this
    # light traffic never crosses XOFF, and nothing arrives malformed.
    for node in range(16):
        prefix = "node%d." % node
        expect(stats[prefix + "flow.bad_pfc_frames"] == 0 and
               stats[prefix + "router.control_ignored"] == 0,
               "node%d: PFC messages rejected or ignored" % node)
        for port in range(4):
            lc = prefix + "port%d.lc." % port
            expect(stats[lc + "control_rejected"] == 0,
                   "node%d port%d: malformed control messages" % (node, port))
    # Between completions the MCUs sleep; the engines' completion
    # interrupts (PLIC source 17) wake them.
    claims = sum(stats["node%d.board.plic.claims" % n] for n in range(16))
    sleeps = sum(stats["node%d.board.cpu.wfi_sleeps" % n] for n in range(16))
    expect(claims > 0 and sleeps > 0,
           "no completion interrupt woke an MCU (%d claims, %d sleeps)" %
           (claims, sleeps))


def main():
    case, lqemu, fw, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), \
        pathlib.Path(sys.argv[4])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    globals()["case_" + case](lqemu, fw, work)
    print("ok:", case)


if __name__ == "__main__":
    main()
