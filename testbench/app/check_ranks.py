#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end checks of `lqemu run` and `lqemu board` over MPI ranks
(decision 0050): the same statistics, trace, capture and consoles on 1, 2
and 4 ranks, bad input refused once with exit 2, a dead rank ending the run
with exit 1. Usage:
check_ranks.py CASE MPIEXEC LQEMU WORK_DIR SCENARIO_DIR
with the firmware images in $LQ_FIRMWARE_DIR for the board's cases."""
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

# CI runs as root, and 4 ranks share 2 cores.
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
# Figures that may differ with the rank count: the rest must not.
RANK_DEPENDENT = ["wall_time_s", "ranks"]
# Counters of what the simulation cost, not of the model, wherever they
# are: a link controller's process activations depend on when the kernel
# was told of what arrives, which is a window's end for a cut cable.
SIMULATION_COST = ["activations"]


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def launch(mpiexec, ranks, lqemu, *args):
    return [mpiexec, "-q", "--oversubscribe", "-np", str(ranks), lqemu, *args]


def run(command):
    return subprocess.run(command, capture_output=True, text=True, env=ENV,
                          timeout=280)


def stats(mpiexec, lqemu, work, ranks, name, args):
    path = work / ("%s.%d.json" % (name, ranks))
    command = [lqemu] if ranks == 1 else launch(mpiexec, ranks, lqemu)
    result = run(command + ["run", "--quiet", "--stats", str(path), *args])
    expect(result.returncode == 0, "%s on %d ranks exited %d: %s" %
           (name, ranks, result.returncode, result.stderr))
    return comparable_stats(path, ranks, name)


def comparable_stats(path, ranks, name):
    """The --stats file at `path` of a run on `ranks` ranks, checked for its
    ranks object, without what may differ with the rank count."""
    figures = json.loads(path.read_text())
    ranks_json = figures.get("ranks")
    expect((ranks_json is None) == (ranks == 1),
           "%s on %d ranks: a ranks object %s" %
           (name, ranks, "missing" if ranks > 1 else "in a one-process run"))
    if ranks > 1:
        expect(ranks_json["count"] == ranks and
               len(ranks_json["per_rank"]) == ranks,
               "%s: ranks %s" % (name, ranks_json))
    for key in RANK_DEPENDENT:
        figures.pop(key, None)
    return without_cost(figures)


def without_cost(figures):
    if isinstance(figures, dict):
        return {key: without_cost(value) for key, value in figures.items()
                if key.split(".")[-1] not in SIMULATION_COST}
    if isinstance(figures, list):
        return [without_cost(value) for value in figures]
    return figures


def first_difference(a, b, where=""):
    if type(a) is not type(b):
        return "%s: %r against %r" % (where, a, b)
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return "%s.%s: only on one side" % (where, key)
            found = first_difference(a[key], b[key], where + "." + key)
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return "%s: %d entries against %d" % (where, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, "%s[%d]" % (where, i))
            if found:
                return found
        return None
    return None if a == b else "%s: %r against %r" % (where, a, b)


def expect_the_same_on_ranks(mpiexec, lqemu, work, cases):
    """Each case's stats on 2 and 4 ranks are its stats in one process."""
    for name, args in cases.items():
        one = stats(mpiexec, lqemu, work, 1, name, args)
        for ranks in (2, 4):
            many = stats(mpiexec, lqemu, work, ranks, name, args)
            difference = first_difference(one, many)
            expect(difference is None, "%s on %d ranks differs from one "
                   "process at %s" % (name, ranks, difference))


def board_cluster_matches_one_process(mpiexec, lqemu, work, _):
    """`lqemu board --scenario` over ranks: link_bringup.elf booting every
    card of a 2x2x4 torus, and link_bringup_watch.elf with faults that
    reach across ranks (a cable between ranks cut and repaired, a BER
    change, a failed lane, a failed card whose neighbours are on another
    rank, a reset card) and its CPUs' interrupts logged, to a time limit.
    On 2 and 4 ranks: the same --stats but wall time and the ranks object,
    the same console (stdout or --console-dir files), the same notes on
    stderr and summary but wall time, the same --trace bytes, and the same
    exit status as in one process."""
    firmware = pathlib.Path(os.environ["LQ_FIRMWARE_DIR"])
    torus = "topology:\n  name: torus\n  dims: 2x2x4\n"
    (work / "torus.yaml").write_text(torus)
    # 2 ranks share z; node 0's port 5 (-z) reaches node 12, node 6's
    # ports reach nodes on both sides.
    (work / "faults.yaml").write_text(
        torus + "events:\n  - 1ms link cut 0 5\n  - 1.2ms ber 1 4 1e-6\n"
        "  - 1.3ms lane fail 2 5 3\n  - 1.5ms link repair 0 5\n"
        "  - 1.7ms node fail 6\n  - 1.8ms node reset 3\n")
    cases = {
        "bringup": (["--firmware", str(firmware / "link_bringup.elf"),
                     "--scenario", str(work / "torus.yaml")], 0, True),
        "faults": (["--firmware", str(firmware / "link_bringup_watch.elf"),
                    "--scenario", str(work / "faults.yaml"),
                    "--ltssm-time-scale", "0.01", "--max-time-us", "2500",
                    "--log", "irq"], 1, False),
    }
    for name, (args, status, console_dir) in cases.items():
        seen = {}
        for ranks in (1, 2, 4):
            out = work / ("board_%s.%d" % (name, ranks))
            logs = out / "logs"
            logs.mkdir(parents=True)
            command = [lqemu] if ranks == 1 else launch(mpiexec, ranks, lqemu)
            result = run(command + [
                "board", *args, "--stats", str(out / "stats.json"),
                "--trace", str(out / "trace.json")] +
                (["--console-dir", str(logs)] if console_dir else []))
            expect(result.returncode == status,
                   "board %s on %d ranks exited %d: %s" %
                   (name, ranks, result.returncode, result.stderr))
            # The summary but its wall-time figures; not the ranks' lines.
            notes = [line.split(" in ")[0] if "instructions in" in line
                     else line for line in result.stderr.splitlines()
                     if not line.startswith("  ")]
            seen[ranks] = {
                "stats": comparable_stats(out / "stats.json", ranks, name),
                "stdout": result.stdout, "stderr": notes,
                "trace": (out / "trace.json").read_text(),
                "consoles": {log.name: log.read_text()
                             for log in sorted(logs.iterdir())}}
        expect(seen[1]["consoles"] or seen[1]["stdout"],
               "board %s printed no console" % name)
        for ranks in (2, 4):
            for what, one in seen[1].items():
                difference = (first_difference(one, seen[ranks][what])
                              if what == "stats" else
                              None if one == seen[ranks][what] else "differs")
                expect(difference is None,
                       "board %s on %d ranks: %s %s from one process" %
                       (name, ranks, what, difference))


def default_run_matches_one_process(mpiexec, lqemu, work, _):
    """The default run's phases over ranks: each phase that runs over ranks
    does so on every rank, its children joined through their parents, and
    one that does not runs in one process on rank 0. On 2 and 4 ranks the
    default run's --stats is the one-process run's but for wall times and
    the phases' ranks objects, and the phases that ran over ranks say so."""
    phases = ["--set", "run.phases=link,link_cut,incast_pfc,torus_hops"]
    # The link phase's two cards cannot be shared out over 4 ranks.
    over_ranks = {1: [], 2: ["incast_pfc", "link", "link_cut", "torus_hops"],
                  4: ["incast_pfc", "link_cut", "torus_hops"]}
    seen = {}
    for ranks in (1, 2, 4):
        path = work / ("default.%d.json" % ranks)
        command = [lqemu] if ranks == 1 else launch(mpiexec, ranks, lqemu)
        result = run(command + ["run", "--quiet", "--stats", str(path),
                                *phases])
        expect(result.returncode == 0, "the default run on %d ranks exited "
               "%d: %s" % (ranks, result.returncode, result.stderr))
        figures = json.loads(path.read_text())
        over = sorted(name for name, phase in figures["phases"].items()
                      if "ranks" in phase["stats"])
        expect(over == over_ranks[ranks],
               "on %d ranks, the phases over ranks are %s" % (ranks, over))
        seen[ranks] = without_cost(without_keys(
            figures, ["wall_time_s", "wall_s", "ranks"]))
    for ranks in (2, 4):
        difference = first_difference(seen[1], seen[ranks])
        expect(difference is None, "the default run on %d ranks differs "
               "from one process at %s" % (ranks, difference))


def without_keys(figures, keys):
    """`figures` without `keys`, at any depth."""
    if isinstance(figures, dict):
        return {key: without_keys(value, keys)
                for key, value in figures.items() if key not in keys}
    if isinstance(figures, list):
        return [without_keys(value, keys) for value in figures]
    return figures


def network_studies_match_one_process(mpiexec, lqemu, work, scenarios):
    """Every figure in --stats but wall time and the ranks object is the
    same on 1, 2 and 4 ranks: uniform traffic on a torus (timed, and to
    the last message), the comparability router with its interface links,
    adaptive routing, a fat tree partitioned by METIS, a link cut and
    restored and a failed node that the fabric manager repairs, and two
    collectives (a hierarchical AllReduce and an all-to-all)."""
    network = ["--set", "run.study=network"]
    timed = ["--set", "sim.cycles=1500", "--set", "sim.warmup_cycles=500"]
    cases = {
        "uniform": [*network, *timed, "--set", "topology.dims=4x4x4",
                    "--set", "traffic.load=0.3"],
        "drained": [*network, "--set", "topology.dims=4x4x2",
                    "--set", "traffic.messages_per_node=100",
                    "--set", "sim.cycles=0"],
        "comparability": [str(scenarios / "comparability_4x4x4.yaml"), *timed,
                          "--set", "traffic.load=0.4"],
        "adaptive": [str(scenarios / "adaptive_4x4x4.yaml"), *timed],
        "fat_tree": [str(scenarios / "fat_tree.yaml"), *timed],
    }
    # A link cut and restored, and a failed node, each repaired by the
    # out-of-band fabric manager, a replica of which runs on every rank.
    failover = [str(scenarios / "failover_4x4x4.yaml"),
                "--set", "topology.dims=4x4x2", "--set", "sim.cycles=20000",
                "--set", "sim.warmup_cycles=1000",
                "--set", "fault.at_cycles=2000", "--set", "fm.holdoff=1",
                "--set", "fm.compute_time=0.005",
                "--set", "fm.drain_timeout=0.005"]
    cases["link_cut_and_restore"] = [
        *failover, "--set", "fault.port=1",
        "--set", "fault.restore_at_cycles=10000",
        "--set", "fm.restore_holdoff=0.002"]
    cases["node_failure"] = [*failover, "--set", "fault.kind=node",
                             "--set", "fault.node=6"]
    allreduce = [str(scenarios / "allreduce_4x4x4.yaml"),
                 "--set", "collective.bytes=65536"]
    cases["hierarchical_allreduce"] = allreduce
    cases["alltoall"] = [*allreduce, "--set", "workload.name=alltoall",
                         "--set", "collective.bytes=4096"]
    expect_the_same_on_ranks(mpiexec, lqemu, work, cases)


def stack_traffic_matches_one_process(mpiexec, lqemu, work, _):
    """Uniform RoCEv2 traffic through the transport engines, routers with
    PFC and ECN, and link controllers and PHYs (tlm links): every figure
    in --stats but wall time and the ranks object is the same on 1, 2 and
    4 ranks, with a clean wire, with bit errors that the links replay, and
    with Verilated RTL controllers on either end of a cut cable (the
    controllers' process activations, a cost of the simulation,
    excepted)."""
    stack = ["--set", "run.study=stack", "--set", "workload.name=traffic",
             "--set", "link.fidelity=tlm", "--set", "topology.dims=4x2x2",
             "--set", "traffic.messages_per_node=12",
             "--set", "traffic.load=0.3"]
    cases = {
        "stack_clean": stack,
        "stack_bit_errors": [*stack, "--set", "link.ber=1e-4",
                             "--set", "link.cable_m=5"],
        # The Verilated controller on both ends of a cable between ranks
        # (node 0's port 1 leads to node 3) and on every port of node 5.
        "stack_rtl_ports": [*stack, "--set", "link.rtl_ports=0:1,3:0,5",
                            "--set", "link.ber=3e-5"],
    }
    expect_the_same_on_ranks(mpiexec, lqemu, work, cases)


def stack_collective_and_incast_match_one_process(mpiexec, lqemu, work, _):
    """The stack's other workloads over tlm links: a ring AllReduce and an
    all-to-all of RDMA WRITEs with immediate data, whose messages wait for
    those that landed at their source, and an incast whose senders fill
    the receiver's buffers until PFC pauses the links into it: every
    figure in --stats but wall time and the ranks object, pauses included,
    is the same on 1, 2 and 4 ranks."""
    stack = ["--set", "run.study=stack", "--set", "link.fidelity=tlm",
             "--set", "topology.dims=4x2x2"]
    cases = {
        "ring_allreduce": [*stack, "--set", "workload.name=ring_allreduce",
                           "--set", "collective.bytes=65536"],
        "alltoall": [*stack, "--set", "workload.name=alltoall",
                     "--set", "collective.bytes=4096"],
        "incast": [*stack, "--set", "workload.name=incast",
                   "--set", "transport.senders=8",
                   "--set", "transport.flow_kib=128",
                   "--set", "transport.background_pairs=2",
                   "--set", "transport.background_flows=2"],
    }
    expect_the_same_on_ranks(mpiexec, lqemu, work, cases)
    incast = json.loads((work / "incast.1.json").read_text())["transport"]
    expect(incast["xoff_frames"] > 0 and incast["pauses"],
           "the incast paused no link: %s" % incast["xoff_frames"])


def stack_faults_match_one_process(mpiexec, lqemu, work, _):
    """A link cut between two ranks' cards, restored later, and a failed
    card, under the stack's traffic over tlm links: each rank holds a
    replica of the out-of-band fabric manager, which hears the others'
    port agents fm.oob_latency after they report and acts on its own
    routers; every figure in --stats but wall time and the ranks object,
    the manager's steps and the failover included, is the same on 1, 2
    and 4 ranks."""
    stack = ["--set", "run.study=stack", "--set", "workload.name=traffic",
             "--set", "link.fidelity=tlm", "--set", "topology.dims=4x2x2",
             "--set", "traffic.message_bytes=64",
             "--set", "traffic.messages_per_node=10",
             "--set", "traffic.load=0.00002",
             "--set", "fault.at_cycles=10000"]
    cases = {
        # Node 0's port 1 leads to node 3, in another block of 2 or 4.
        "link_cut_and_restore": [*stack, "--set", "fault.kind=link",
                                 "--set", "fault.node=0",
                                 "--set", "fault.port=1",
                                 "--set", "fault.restore_at_cycles=200000"],
        "node_failure": [*stack, "--set", "fault.kind=node",
                         "--set", "fault.node=2"],
    }
    expect_the_same_on_ranks(mpiexec, lqemu, work, cases)
    for name in cases:
        fault = json.loads((work / ("%s.1.json" % name)).read_text())
        fault = fault["faults"][0]
        expect(fault["update"]["failure"] == "" and fault["dropped"] > 0,
               "%s: no repair of a fault that dropped packets: %s" %
               (name, fault))
    restored = json.loads((work / "link_cut_and_restore.1.json").read_text())
    expect(restored["faults"][0]["restore"]["update"]["failure"] == "",
           "the restored link was not taken back")


def trace_matches_one_process(mpiexec, lqemu, work, _):
    """--trace, written by rank 0 from every rank's packets, link states,
    rates and pauses, is the file one process writes, byte for byte: a
    network study, the stack's traffic with a link cut between ranks and
    restored (link states and the fabric manager's steps), and an incast
    (pauses and rates)."""
    stack = ["--set", "run.study=stack", "--set", "link.fidelity=tlm",
             "--set", "topology.dims=4x2x2"]
    cases = {
        "network": ["--set", "run.study=network",
                    "--set", "topology.dims=4x4x2", "--set", "traffic.load=0.2",
                    "--set", "sim.cycles=800", "--set", "sim.warmup_cycles=200"],
        "stack_fault": [*stack, "--set", "workload.name=traffic",
                        "--set", "traffic.message_bytes=64",
                        "--set", "traffic.messages_per_node=10",
                        "--set", "traffic.load=0.00002",
                        "--set", "fault.at_cycles=10000",
                        "--set", "fault.kind=link", "--set", "fault.node=0",
                        "--set", "fault.port=1",
                        "--set", "fault.restore_at_cycles=200000"],
        "stack_incast": [*stack, "--set", "workload.name=incast",
                         "--set", "transport.senders=8",
                         "--set", "transport.flow_kib=128"],
    }
    for name, args in cases.items():
        one = work / ("%s.one.trace.json" % name)
        many = work / ("%s.four.trace.json" % name)
        for command, path in (([lqemu], one),
                              (launch(mpiexec, 4, lqemu), many)):
            result = run(command + ["run", "--quiet", *args,
                                    "--trace", str(path)])
            expect(result.returncode == 0, "%s: %s exited %d: %s" %
                   (name, command[0], result.returncode, result.stderr))
        expect(one.read_bytes() == many.read_bytes(),
               "%s: the traces of 1 and 4 ranks differ" % name)


def stack_pcap_matches_one_process(mpiexec, lqemu, work, _):
    """--pcap of the stack, written by rank 0 from every rank's engines'
    frames, is the file one process writes, byte for byte: node 0's
    conversations under uniform traffic, and every engine's frames in an
    incast."""
    stack = ["run", "--quiet", "--set", "run.study=stack",
             "--set", "link.fidelity=tlm", "--set", "topology.dims=4x2x2"]
    cases = {
        "traffic": ["--set", "workload.name=traffic",
                    "--set", "traffic.messages_per_node=12",
                    "--set", "traffic.load=0.3"],
        "incast": ["--set", "workload.name=incast",
                   "--set", "transport.senders=8",
                   "--set", "transport.flow_kib=16"],
    }
    for name, args in cases.items():
        files = []
        for ranks in (1, 4):
            path = work / ("%s.%d.pcap" % (name, ranks))
            command = [lqemu] if ranks == 1 else launch(mpiexec, ranks, lqemu)
            result = run(command + stack + args + ["--pcap", str(path)])
            expect(result.returncode == 0, "%s on %d ranks exited %d: %s" %
                   (name, ranks, result.returncode, result.stderr))
            files.append(path.read_bytes())
        expect(len(files[0]) > 24 * 10, "%s: a capture of %d bytes" %
               (name, len(files[0])))
        expect(files[0] == files[1],
               "%s: the captures of 1 and 4 ranks differ" % name)


def bad_input_exits_2_once(mpiexec, lqemu, work, _):
    """More ranks than nodes, a partition that does not exist or does not
    fit, a kernel or workload that runs in one process: exit 2 and one
    line, once."""
    small = ["run", "--set", "run.study=network", "--set", "sim.cycles=100",
             "--set", "topology.dims=2x2"]
    cases = [
        (5, small, "5 ranks for the 4 nodes"),
        (2, small + ["--set", "sim.partition=stripes"], "sim.partition"),
        (3, small + ["--set", "sim.partition=blocks"], "do not factor"),
        (2, small + ["--set", "sim.kernel=cycle"], "runs in one process only"),
        (2, ["conformance"], "runs in one process only"),
        (2, ["run", "--set", "run.study=stack",
             "--set", "workload.name=remote_access",
             "--set", "link.fidelity=tlm"], "runs in one process only"),
        (2, ["run", "--set", "run.study=stack", "--set", "link.fidelity=ideal",
             "--set", "workload.name=traffic"], "no lookahead"),
        (2, ["run", "--set", "run.study=stack", "--set", "link.fidelity=tlm",
             "--set", "workload.name=traffic", "--pcap",
             str(work / "no" / "such" / "dir.pcap")], "--pcap"),
        (2, ["run", "--set", "run.study=stack", "--set", "link.fidelity=tlm",
             "--set", "workload.name=traffic", "--set", "fault.kind=link",
             "--set", "fault.at_cycles=100", "--set", "net.vc_sets=2",
             "--set", "fm.placement=node1"], "in-band fabric manager"),
        (2, ["run", "--set", "run.study=stack", "--set", "link.fidelity=tlm",
             "--set", "workload.name=traffic", "--set", "fault.kind=link",
             "--set", "fault.at_cycles=100", "--set", "link.cable_m=4",
             "--set", "fm.oob_latency=0.01"],
         "fm.oob_latency"),
        (2, ["run", "--set", "run.study=stack", "--set", "link.fidelity=tlm",
             "--set", "workload.name=traffic", "--set", "link.cable_m=0"],
         "no lookahead"),
    ]
    if "LQ_FIRMWARE_DIR" in os.environ:
        hello = str(pathlib.Path(os.environ["LQ_FIRMWARE_DIR"]) / "hello.elf")
        ring = work / "ring.yaml"
        ring.write_text("topology:\n  name: torus\n  dims: 3\n")
        board = ["board", "--firmware", hello, "--scenario", str(ring)]
        cases += [
            (2, ["board", "--firmware", hello], "without mpirun"),
            (4, board, "4 ranks for the 3 nodes"),
            (2, board + ["--set", "link.cable_m=0"], "no lookahead"),
        ]
    for ranks, args, said in cases:
        result = run(launch(mpiexec, ranks, lqemu) + args)
        lines = result.stderr.strip().splitlines()
        expect(result.returncode == 2 and len(lines) == 1 and said in lines[0],
               "%s on %d ranks: exit %d, stderr:\n%s" %
               (args, ranks, result.returncode, result.stderr))


def running(lqemu):
    """The process ids of every `lqemu run` on this machine."""
    return subprocess.run(["pgrep", "-f", "^" + lqemu + " run"],
                          capture_output=True, text=True).stdout.split()


def joined(pid):
    """True once the rank has joined the ranks' world and reports its own
    death: RankWorld::Init then catches SIGILL too, which Open MPI's own
    handlers (SIGABRT, SIGBUS, SIGFPE, SIGSEGV, set in MPI_Init) leave
    alone. A rank killed before that dies unannounced."""
    try:
        status = pathlib.Path("/proc/%s/status" % pid).read_text()
    except OSError:
        return False
    caught = [line.split()[1] for line in status.splitlines()
              if line.startswith("SigCgt:")]
    return bool(caught) and bool((int(caught[0], 16) >>
                                  (signal.SIGILL - 1)) & 1)


def a_dead_rank_ends_the_run(mpiexec, lqemu, work, scenarios):
    """A rank killed mid-run ends the whole run with exit 1, naming the
    rank, and leaves no rank waiting; so does a default run's phase
    process killed on one rank."""
    command = launch(mpiexec, 2, lqemu) + [
        "run", "--quiet", str(scenarios / "comparability_8x8x8.yaml"),
        "--set", "sim.kernel=systemc", "--set", "sim.cycles=200000"]
    job = subprocess.Popen(command, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=ENV)
    ranks = []
    deadline = time.time() + 120
    while not (len(ranks) == 2 and all(map(joined, ranks))) and \
            time.time() < deadline:
        time.sleep(0.2)
        ranks = running(lqemu)
    expect(len(ranks) == 2 and all(map(joined, ranks)),
           "the ranks did not join: %s" % ranks)
    time.sleep(1)  # into the run
    os.kill(int(ranks[-1]), signal.SIGSEGV)
    try:
        _, stderr = job.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        job.kill()
        raise AssertionError("the other rank was left running")
    expect(job.returncode == 1 and "died of signal 11" in stderr and
           "lqemu: rank " in stderr,
           "exit %d, stderr:\n%s" % (job.returncode, stderr))
    left = running(lqemu)
    expect(not left, "ranks left running: %s" % left)
    a_dead_phase_ends_the_default_run(mpiexec, lqemu)


def a_dead_phase_ends_the_default_run(mpiexec, lqemu):
    """A phase's process killed on one rank of the default run ends the
    whole run with exit 1, naming the rank and the phase."""
    job = subprocess.Popen(
        launch(mpiexec, 2, lqemu) + ["run", "--quiet", "--set",
                                     "run.phases=uniform"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    children = []
    deadline = time.time() + 60
    while not children and time.time() < deadline:
        time.sleep(0.5)
        processes = running(lqemu)
        parents = {pid: subprocess.run(["ps", "-o", "ppid=", "-p", pid],
                                       capture_output=True,
                                       text=True).stdout.strip()
                   for pid in processes}
        # A phase's process is one whose parent is a rank.
        children = [pid for pid, parent in parents.items()
                    if parent in parents]
    expect(children, "the phases' processes did not start")
    time.sleep(1)
    os.kill(int(children[-1]), signal.SIGKILL)
    try:
        _, stderr = job.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        job.kill()
        raise AssertionError("the other ranks were left running")
    expect(job.returncode == 1 and "phase uniform: its process died" in stderr
           and "lqemu: rank " in stderr,
           "exit %d, stderr:\n%s" % (job.returncode, stderr))


def main():
    case, mpiexec, lqemu, work, scenarios = sys.argv[1:6]
    work = pathlib.Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    globals()[case](mpiexec, lqemu, work, pathlib.Path(scenarios))
    print("%s: passed" % case)


if __name__ == "__main__":
    main()
