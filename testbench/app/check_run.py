#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end checks of `lqemu run` and `lqemu list`: exit statuses, the
report, the stats JSON, determinism and captures. Usage:
check_run.py CASE LQEMU WORK_DIR SCENARIO_DIR"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

# The embedded default runs the supernode's phases; ONE runs its scenario
# keys as a single experiment on the stack, as a scenario file does, and
# NETWORK as a network study.
ONE = ["--set", "run.study=stack"]
NETWORK = ["--set", "run.study=network"]
SMALL = [*ONE, "--set", "traffic.messages_per_node=40"]
# Network studies (run.study: network) run for cycles, not messages.
SHORT_STUDY = ["--set", "sim.cycles=2000", "--set", "sim.warmup_cycles=500"]
# A fabric manager fast enough to repair a cut inside a short study.
QUICK_FM = ["--set", "fm.oob_latency=0.1", "--set", "fm.holdoff=1",
            "--set", "fm.compute_time=0.002", "--set", "fm.drain_timeout=0.005"]
STATS_KEYS = ["scenario", "seed", "sim_time_ns", "wall_time_s", "nodes", "links",
              "latency_ns", "hops", "bandwidth", "link", "transport", "faults",
              "integrity"]


def run(lqemu, *args):
    return subprocess.run([lqemu, *args], capture_output=True, text=True, timeout=240)


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def decoded_roce_packets(pcap):
    """The RoCEv2 packets tshark decodes in `pcap`, which must hold no
    malformed packet."""
    bad = subprocess.run(["tshark", "-r", str(pcap), "-Y", "_ws.malformed"],
                         capture_output=True, text=True, timeout=120)
    expect(bad.returncode == 0 and bad.stdout.strip() == "",
           "tshark finds malformed packets:\n" + bad.stdout + bad.stderr)
    decoded = subprocess.run(["tshark", "-r", str(pcap), "-Y", "infiniband"],
                             capture_output=True, text=True, timeout=120)
    return len(decoded.stdout.splitlines())


def stats_of(lqemu, work, name, *args):
    path = work / (name + ".json")
    result = run(lqemu, "run", "--quiet", "--stats", str(path), *SMALL, *args)
    expect(result.returncode == 0,
           "run %s exited %d: %s" % (args, result.returncode, result.stderr))
    return json.loads(path.read_text())


def default_run_is_clean(lqemu, work, _):
    pcap = work / "node0.pcap"
    result = run(lqemu, "run", "--stats", str(work / "s.json"), "--pcap", str(pcap), *SMALL)
    expect(result.returncode == 0, "default run failed: " + result.stderr)
    expect("integrity" in result.stdout and "OK" in result.stdout,
           "report lacks the integrity line:\n" + result.stdout)
    stats = json.loads((work / "s.json").read_text())
    for key in STATS_KEYS:
        expect(key in stats, "stats JSON lacks '%s'" % key)
    expect(stats["nodes"] == 256 and stats["links"] == 768,
           "default is a 4x8x8 torus (256 nodes, 768 links), got %s/%s"
           % (stats["nodes"], stats["links"]))
    integrity = stats["integrity"]
    expect(integrity["sent"] == 256 * 40, "every node sends its messages")
    expect(integrity["delivered"] == integrity["sent"] and integrity["lost"] == 0,
           "messages lost: %s" % integrity)
    hops = stats["hops"]
    # 4x8x8 torus, uniform traffic excluding self: (1 + 2 + 2) * 256 / 255.
    expect(abs(hops["minimal"] - 5 * 256 / 255) < 1e-9,
           "shortest-path mean %.6f is not the torus formula" % hops["minimal"])
    expect(abs(hops["mean"] - hops["minimal"]) < 0.05 * hops["minimal"],
           "mean hops %.3f far from the minimal %.3f" % (hops["mean"], hops["minimal"]))
    latency = stats["latency_ns"]
    expect(0 < latency["p50"] <= latency["p99"] <= latency["max"],
           "latency percentiles out of order: %s" % latency)
    directions = stats["link"]["directions"]
    expect(len(directions) == 2 * 768, "one entry per link direction, not %d"
           % len(directions))
    expect(all(0 <= d["utilisation"] <= 1 and len(d["coordinates"]) == 3
               for d in directions), "utilisation is a fraction, per placed card")
    expect(max(d["utilisation"] for d in directions)
           == stats["bandwidth"]["max_link_utilisation"],
           "the busiest direction is the one the bandwidth line names")
    transport = stats["transport"]
    expect(transport["ops"] == integrity["sent"] and transport["failed"] == 0
           and transport["packets"] >= 2 * integrity["sent"],
           "every message is a SEND and its ACK through the engines: %s" % transport)
    expect(pcap.stat().st_size > 24, "pcap capture is empty")
    if shutil.which("tshark"):
        expect(decoded_roce_packets(pcap) > 0, "tshark decodes no RoCEv2 packet")


def same_seed_same_stats(lqemu, work, _):
    first = stats_of(lqemu, work, "a", "--seed", "7")
    second = stats_of(lqemu, work, "b", "--seed", "7")
    other = stats_of(lqemu, work, "c", "--seed", "8")
    for stats in (first, second, other):
        stats.pop("wall_time_s")
    expect(first == second, "same scenario and seed gave different stats")
    expect(first["latency_ns"] != other["latency_ns"],
           "a different seed changed nothing: is the seed used?")


def bit_errors_are_replayed(lqemu, work, _):
    stats = stats_of(lqemu, work, "ber", "--set", "link.ber=2e-4")
    link = stats["link"]
    expect(link["fec_corrected"] > 0, "no FEC corrections at BER 2e-4: %s" % link)
    expect(link["crc_errors"] > 0 and link["replays"] > 0,
           "uncorrectable flits should be replayed at BER 2e-4: %s" % link)
    integrity = stats["integrity"]
    expect(integrity["lost"] == 0 and integrity["corrupted"] == 0
           and integrity["delivered"] == integrity["sent"],
           "replay must hide every bit error: %s" % integrity)


def every_pattern_runs_on_either_link_fidelity(lqemu, work, scenarios):
    """Traffic runs through the transport engines on ideal links and on the
    link controllers and PHYs alike, for every pattern (decision 0034)."""
    for pattern in ["uniform", "transpose", "bitcomp", "hotspot"]:
        for fidelity in ["tlm", "ideal"]:
            stats = stats_of(lqemu, work, pattern + fidelity,
                             "--set", "topology.dims=2x2x4",
                             "--set", "traffic.pattern=" + pattern,
                             "--set", "link.fidelity=" + fidelity,
                             "--set", "traffic.message_bytes=5000")
            integrity = stats["integrity"]
            expect(integrity["sent"] == 16 * 40 and
                   integrity["delivered"] == integrity["sent"],
                   "%s over %s links: %s" % (pattern, fidelity, integrity))
            expect(stats["transport"]["packets"] >= 3 * integrity["sent"],
                   "%s over %s links: 5000-byte messages are two packets at "
                   "the 4096-byte PMTU, and an ACK: %s" % (pattern, fidelity, stats["transport"]))
            expect(("flits" in stats["link"]) == (fidelity == "tlm")
                   and len(stats["link"]["directions"]) == 2 * stats["links"],
                   "link totals exist where links have controllers, "
                   "directions on either: %s" % list(stats["link"]))
    # A congested pattern: ACKs still cross the links after the last
    # message lands, and a link is never more than fully busy.
    path = work / "transpose.json"
    result = run(lqemu, "run", str(scenarios / "small_torus.yaml"), "--quiet",
                 "--stats", str(path), "--set", "traffic.pattern=transpose")
    expect(result.returncode == 0, "transpose exited %d: %s"
           % (result.returncode, result.stderr))
    utilisation = json.loads(path.read_text())["bandwidth"]["max_link_utilisation"]
    expect(0.5 < utilisation <= 1, "busiest direction %.3f busy" % utilisation)


def NET_7_3_failover_with_transport_loses_nothing(lqemu, work, _):
    """A link cut with the transport running, on tlm links and on ideal
    ones: the links find it (tlm: within a microsecond; ideal: at once),
    the port agents report it (NET-7.3), the fabric manager reroutes, the
    transport resends what the cut dropped, and every message lands."""
    for fidelity in ["tlm", "ideal"]:
        path = work / ("failover_" + fidelity + ".json")
        result = run(lqemu, "run", "--quiet", "--stats", str(path), *ONE,
                     "--set", "link.fidelity=" + fidelity,
                     "--set", "topology.dims=4x4x4", "--set", "traffic.load=0.002",
                     "--set", "traffic.messages_per_node=30", "--set", "fault.kind=link",
                     "--set", "fault.node=0", "--set", "fault.port=0",
                     "--set", "fault.at_cycles=5000")
        expect(result.returncode == 0, "%s: exited %d: %s"
               % (fidelity, result.returncode, result.stderr))
        stats = json.loads(path.read_text())
        integrity, transport = stats["integrity"], stats["transport"]
        expect(integrity["sent"] == 64 * 30 and integrity["delivered"] == integrity["sent"]
               and integrity["lost"] == 0 and transport["failed"] == 0,
               "%s: every message lands: %s %s" % (fidelity, integrity, transport))
        fault = stats["faults"][0]
        found = (10000 < fault["detected_ns"] < 11000 if fidelity == "tlm"
                 else fault["detected_ns"] == 10000)
        expect(fault["kind"] == "link" and fault["at_ns"] == 10000 and found
               and fault["recovered_ns"] > fault["detected_ns"],
               "%s: found by the links, then rerouted: %s" % (fidelity, fault))
        expect(fault["dropped"] > 0 and transport["retransmits"] >= fault["dropped"],
               "%s: the cut dropped packets and the transport resent them: %s %s"
               % (fidelity, fault, transport))
        # The cut strikes inside the measured window: its latencies measure
        # the failover, and the run is not called saturated for it.
        window = stats["window"]
        expect(window["fault_in_window"] and not window["saturated"],
               "%s: the window holds the fault, not saturation: %s" % (fidelity, window))


def NET_7_13_node_failure_with_transport_fails_only_its_messages(lqemu, work, _):
    """A node failure with the transport running, on tlm links and on
    ideal ones: its neighbours' links find it, the fabric manager routes
    around it, every message between working nodes lands, and each message
    to or from the failed node is counted as failed, not lost (NET-7.10,
    NET-7.13)."""
    for fidelity in ["tlm", "ideal"]:
        path = work / ("node_failure_" + fidelity + ".json")
        result = run(lqemu, "run", "--stats", str(path), *ONE,
                     "--set", "link.fidelity=" + fidelity,
                     "--set", "topology.dims=4x4x4", "--set", "traffic.load=0.0001",
                     "--set", "traffic.message_bytes=64",
                     "--set", "traffic.messages_per_node=20", "--set", "fault.kind=node",
                     "--set", "fault.node=5", "--set", "fault.at_cycles=5000")
        expect(result.returncode == 0, "%s: exited %d: %s"
               % (fidelity, result.returncode, result.stderr))
        stats = json.loads(path.read_text())
        integrity, transport = stats["integrity"], stats["transport"]
        expect(integrity["sent"] == 64 * 20 and integrity["lost"] == 0
               and integrity["endpoint_failed"] > 0
               and integrity["delivered"] + integrity["endpoint_failed"] == integrity["sent"],
               "%s: every message between working nodes lands: %s" % (fidelity, integrity))
        expect(transport["failed"] >= integrity["endpoint_failed"],
               "%s: each failed message's SEND failed: %s %s"
               % (fidelity, integrity, transport))
        fault = stats["faults"][0]
        found = (fault["detected_ns"] > fault["at_ns"] if fidelity == "tlm"
                 else fault["detected_ns"] == fault["at_ns"])
        expect(fault["kind"] == "node" and fault["update"]["failed_nodes"] == 1
               and found
               and fault["recovered_ns"] > fault["update"]["resumed_ns"] - fault["at_ns"],
               "%s: found by the neighbours' links, routed around, and each "
               "affected connection resumed after the repair: %s"
               % (fidelity, {k: fault[k] for k in ["at_ns", "detected_ns", "recovered_ns"]}))
        expect(fault["measured_by"] == "messages"
               and len(fault["flows"]) > fault["unmeasured"],
               "%s: connections measured by their messages: %s" % (fidelity, fault["flows"]))
        expect("failed %d (to or from the failed node)" % integrity["endpoint_failed"]
               in result.stdout, "%s: the report counts them:\n%s" % (fidelity, result.stdout))


def NET_7_11_the_stack_takes_a_restored_link_back(lqemu, work, _):
    """A cut link that comes back with the transport running, on tlm links
    and on ideal ones: on tlm its lanes are repaired and both controllers
    retrain (Detect.Quiet alone lasts 12 ms, DLL-6) before the port agents
    report it up (NET-7.3); the fabric manager takes it back (NET-7.11),
    messages cross it again, and every message lands. A run whose
    messages end first lasts until the manager has taken it back."""
    common = [*ONE, "--set", "topology.dims=4x4x4", "--set", "fault.kind=link",
              "--set", "fault.node=0", "--set", "fault.port=0",
              "--set", "fault.at_cycles=5000", "--set", "fm.restore_holdoff=0.001",
              *QUICK_FM]
    # Messages for 17 ms; or for about 0.3 ms, restored at 2 ms.
    for fidelity, load, back in [("tlm", "0.000005", 20000), ("ideal", "0.000005", 20000),
                                 ("ideal", "0.002", 1000000)]:
        name = "%s at %s" % (fidelity, load)
        path = work / ("restore_%s_%s.json" % (fidelity, load))
        result = run(lqemu, "run", "--stats", str(path), *common,
                     "--set", "link.fidelity=" + fidelity, "--set", "traffic.load=" + load,
                     "--set", "traffic.message_bytes=256",
                     "--set", "traffic.messages_per_node=40",
                     "--set", "fault.restore_at_cycles=%d" % back)
        expect(result.returncode == 0, "%s: exited %d: %s"
               % (name, result.returncode, result.stderr))
        expect("restore    link up at %d cycles; fabric manager: report" % back
               in result.stdout, "%s: no restore line:\n%s" % (name, result.stdout))
        stats = json.loads(path.read_text())
        integrity, fault = stats["integrity"], stats["faults"][0]
        expect(integrity["sent"] == 64 * 40 and integrity["delivered"] == integrity["sent"]
               and integrity["lost"] == 0, "%s: every message lands: %s" % (name, integrity))
        restore = fault["restore"]
        update = restore["update"]
        expect(restore["at_ns"] == 2 * back and update is not None
               and update["failure"] == "" and update["failed_links"] == 0,
               "%s: the manager takes the link back: %s" % (name, restore))
        # Up reports follow the repair: at once on ideal links (plus the
        # out-of-band latency), after the controllers retrain on tlm ones.
        report_after = update["report_ns"] - restore["at_ns"]
        expect((report_after > 12e6 if fidelity == "tlm" else abs(report_after - 100) < 1)
               and update["computed_ns"] > update["report_ns"] + 1000 + 2000 - 1,
               "%s: reported up, then the holdoff and computation: %s" % (name, update))
        if back == 20000:
            expect(restore["link_flits_after"] > 0,
                   "%s: messages cross the restored link: %s" % (name, restore))
        else:
            expect(stats["sim_time_ns"] < restore["at_ns"],
                   "%s: the messages ended before the restore" % name)


def NET_7_4_the_stacks_fabric_manager_works_in_band(lqemu, work, _):
    """fm.placement node<ID> on the stack: the fabric manager is node 5's
    firmware, and its messages ride the same links, routers and VC set S-1
    as the transport's (NET-7.4, NET-3.5); a link cut on tlm links is
    repaired through them and every message lands."""
    path = work / "in_band.json"
    result = run(lqemu, "run", "--quiet", "--stats", str(path), *ONE,
                 "--set", "link.fidelity=tlm", "--set", "fm.placement=node5",
                 "--set", "topology.dims=4x4x4", "--set", "traffic.load=0.002",
                 "--set", "traffic.messages_per_node=30", "--set", "fault.kind=link",
                 "--set", "fault.node=0", "--set", "fault.port=0",
                 "--set", "fault.at_cycles=5000")
    expect(result.returncode == 0, "exited %d: %s" % (result.returncode, result.stderr))
    stats = json.loads(path.read_text())
    integrity, fault = stats["integrity"], stats["faults"][0]
    update = fault["update"]
    expect(integrity["delivered"] == integrity["sent"] == 64 * 30 and integrity["lost"] == 0,
           "every message lands: %s" % integrity)
    # The LINK_EVENT climbs the management tree in tens of ns, not the
    # 1 us out of band; the manager rewrites the tree too (more messages
    # than the out-of-band update's 10 per node).
    expect(update["failure"] == "" and update["failed_links"] == 1
           and 0 < update["report_ns"] - fault["detected_ns"] < 500
           and update["messages"] > 64 * 10,
           "the manager's messages went in band: %s" % update)


def TRN_8_11_alltoall_on_a_torus_completes_under_pfc(lqemu, work, _):
    """An all-to-all of 64 KiB blocks on a 2x2x4 torus over tlm links: PFC
    pauses each VC class apart (TRN-8.11), so its pauses cannot close the
    cycle the dateline classes break, and the collective completes; with a
    pause per priority alone it deadlocked. Every dimension-order tie goes
    + here, which loads the 4-ring's + links most and pauses them most."""
    path = work / "alltoall.json"
    result = run(lqemu, "run", "--quiet", "--stats", str(path), *ONE,
                 "--set", "workload.name=alltoall", "--set", "topology.dims=2x2x4",
                 "--set", "collective.bytes=65536", "--set", "routing.tie=plus")
    expect(result.returncode == 0, "exited %d: %s" % (result.returncode, result.stderr))
    stats = json.loads(path.read_text())
    expect(stats["collective"]["completed"] and stats["integrity"]["lost"] == 0,
           "the all-to-all completes: %s" % stats["collective"])
    expect(stats["transport"]["xoff_frames"] > 0,
           "PFC paused links on the way: %s" % stats["transport"])
    expect(not stats["deadlock"]["detected"], "no deadlock: %s" % stats["deadlock"])


def NET_4_2_ties_split_by_parity_bring_the_alltoall_near_its_bound(lqemu, work, _):
    """The default run's all-to-all (16 cards, a 2x2x4 torus, every pair at
    once over tlm links): with the 4-ring's k/2 ties split by parity, the
    default, both directions carry 8 of each card's 15 blocks and the
    cards inject at 80 % or more of their bound, and the seed's 1.2 TB/s
    row holds; with every tie + (12 blocks on the + links) PFC pauses
    hold the same collective below 70 %."""
    fractions = {}
    for tie, sets in [("parity", []), ("plus", ["--set", "routing.tie=plus"])]:
        path = work / ("alltoall_%s.json" % tie)
        result = run(lqemu, "run", "--set", "run.phases=alltoall", "--stats", str(path),
                     *sets)
        expect(result.returncode == 0, "exited %d: %s" % (result.returncode, result.stderr))
        phase = json.loads(path.read_text())["phases"]["alltoall"]["stats"]
        bounds = phase["collective"]["bounds"]
        expect(bounds["bound_by"] == "injection", "bounded by injection: %s" % bounds)
        fractions[tie] = bounds["fraction"]
        if tie == "parity":
            expect(re.search(r"1\.2 TB/s on 16 nodes +holds", result.stdout) is not None,
                   "the seed row holds:\n" + result.stdout)
    expect(fractions["parity"] >= 0.8 and fractions["plus"] < 0.7,
           "parity near the bound, plus well below it: %s" % fractions)


def NET_4_7_a_deadlock_on_the_stack_is_declared(lqemu, work, _):
    """A ring without its dateline classes (routing.dateline off) under
    an all-to-all deadlocks on the stack too: the watchdog declares it
    after sim.watchdog_cycles without progress, names the waiting cycle,
    and the run exits 1 instead of waiting for the transport to give up.
    The report and the stats file say so, as a network study's do."""
    path = work / "deadlock.json"
    result = run(lqemu, "run", *ONE, "--stats", str(path), "--set", "link.fidelity=ideal",
                 "--set", "workload.name=alltoall", "--set", "topology.dims=8",
                 "--set", "routing.dateline=off", "--set", "collective.bytes=262144")
    expect(result.returncode == 1, "exited %d: %s" % (result.returncode, result.stderr))
    expect(re.search(r"deadlock at \d+ ns: \d+ packets held .*waiting cycle: node\d",
                     result.stderr) is not None,
           "the deadlock and its cycle are named:\n" + result.stderr)
    expect("NOT complete" in result.stdout, "the report says so:\n" + result.stdout)
    expect(re.search(r"deadlock   at \d+ ns: .*waiting cycle: node\d", result.stdout)
           is not None, "the report has the deadlock line:\n" + result.stdout)
    deadlock = json.loads(path.read_text())["deadlock"]
    expect(deadlock["detected"] and deadlock["at_ns"] > 0
           and "waiting cycle: node" in deadlock["cycle"],
           "the stats file has the deadlock: %s" % deadlock)


def collectives_run_through_the_transport(lqemu, work, _):
    """Each collective as RDMA WRITEs with immediate data through the
    transport engines, over ideal links and over link controllers and PHYs:
    every message lands and every buffer ends right."""
    for name in ["alltoall", "ring_allreduce", "hierarchical_allreduce"]:
        for fidelity in ["tlm", "ideal"]:
            path = work / (name + fidelity + ".json")
            result = run(lqemu, "run", "--quiet", "--stats", str(path), *ONE,
                         "--set", "workload.name=" + name,
                         "--set", "link.fidelity=" + fidelity,
                         "--set", "topology.dims=2x2x4",
                         "--set", "collective.bytes=16384")
            expect(result.returncode == 0, "%s over %s links exited %d: %s"
                   % (name, fidelity, result.returncode, result.stderr))
            stats = json.loads(path.read_text())
            collective, integrity = stats["collective"], stats["integrity"]
            expect(collective["completed"] and collective["completed_ns"] > 0,
                   "%s over %s links did not complete" % (name, fidelity))
            expect(integrity["sent"] == collective["messages"]
                   == stats["transport"]["ops"] == integrity["delivered"]
                   and integrity["corrupted"] == 0,
                   "%s over %s links: %s" % (name, fidelity, integrity))
            expect(("flits" in stats["link"]) == (fidelity == "tlm")
                   and len(stats["link"]["directions"]) == 2 * stats["links"],
                   "link totals exist where links have controllers, "
                   "directions on either: %s" % list(stats["link"]))


def NET_1_stack_runs_on_a_fat_tree(lqemu, work, _):
    """A topology with switches on the stack: engines on the 16 endpoints,
    routers alone on the 20 switches, at either link fidelity. Traffic and
    an incast complete with nothing lost, and the incast pauses switch
    outputs too (PFC at every router, TRN-8)."""
    tree = ["--set", "topology.name=fattree", "--set", "topology.endpoints=16",
            "--set", "routing.name=updown"]
    for fidelity in ["ideal", "tlm"]:
        stats = stats_of(lqemu, work, "traffic" + fidelity, *tree,
                         "--set", "link.fidelity=" + fidelity)
        integrity = stats["integrity"]
        expect(stats["nodes"] == 16 and integrity["sent"] == 16 * 40
               and integrity["delivered"] == integrity["sent"]
               and integrity["lost"] == 0,
               "traffic over %s links: %s" % (fidelity, integrity))
    result = run(lqemu, "run", *SMALL, *tree)
    expect(result.returncode == 0
           and "fabric     16 cards, 20 switches, 48 links" in result.stdout,
           "the fabric line counts the switches: " + result.stdout + result.stderr)
    path = work / "incast.json"
    result = run(lqemu, "run", "--quiet", "--stats", str(path), *ONE, *tree,
                 "--set", "workload.name=incast", "--set", "link.fidelity=ideal",
                 "--set", "transport.senders=8")
    expect(result.returncode == 0, "incast exited %d: %s"
           % (result.returncode, result.stderr))
    stats = json.loads(path.read_text())
    expect(stats["integrity"]["delivered"] == 8 and stats["integrity"]["lost"] == 0,
           "incast: %s" % stats["integrity"])
    expect(any(pause["node"] >= 16 for pause in stats["transport"]["pauses"]),
           "no switch output was paused")
    # A cut between two switches (edge switch 20's uplink) is repaired at
    # either fidelity; a cut of a host's only link is refused.
    fault = ["--set", "traffic.messages_per_node=10", "--set", "traffic.message_bytes=64",
             "--set", "traffic.load=0.00002", "--set", "fault.at_cycles=10000",
             "--set", "fault.kind=link", "--set", "fault.node=20"]
    for fidelity in ["ideal", "tlm"]:
        path = work / ("cut" + fidelity + ".json")
        result = run(lqemu, "run", "--quiet", "--stats", str(path), *ONE, *tree, *fault,
                     "--set", "fault.port=3", "--set", "link.fidelity=" + fidelity)
        expect(result.returncode == 0, "cut over %s links exited %d: %s"
               % (fidelity, result.returncode, result.stderr))
        stats = json.loads(path.read_text())
        expect(stats["integrity"]["delivered"] == 160 and stats["integrity"]["lost"] == 0
               and stats["faults"][0]["dropped"] > 0,
               "cut over %s links: %s" % (fidelity, stats["integrity"]))
    result = run(lqemu, "run", *ONE, *tree, *fault, "--set", "fault.port=0")
    expect(result.returncode == 2 and "would leave card 8 with no link" in result.stderr,
           "a host's only link: exited %d: %s" % (result.returncode, result.stderr))


def bad_input_exits_2(lqemu, work, scenarios):
    cases = [
        (["run", *ONE, "--set", "no.such=1"], "unknown key 'no.such'"),
        (["run", *ONE, "--set", "trafic.load=0.3"],
         "unknown key 'trafic.load' (did you mean 'traffic.load'? `lqemu list` names "
         "every key)"),
        (["run", *ONE, "--set", "link.ber=lots"], "'link.ber' wants a number"),
        (["run", *ONE, "--set", "link.ber=2"], "outside"),
        (["run", *ONE, "--set", "traffic.message_bytes=4"], "traffic.message_bytes"),
        (["run", str(work / "missing.yaml")], "missing.yaml"),
        (["run", str(scenarios / "bad_unknown_key.yaml")], "bad_unknown_key.yaml:7:"),
        (["run", str(scenarios / "bad_syntax.yaml")], "bad_syntax.yaml:"),
        (["run", "--no-such-option"], ""),
        (["run", *ONE, "--set", "trace.max_spans=0"], "'trace.max_spans' = 0 is outside"),
        (["run", *ONE, "--set", "traffic.pattern=bitcomp", "--set", "topology.dims=3x4"],
         "traffic: "),
        (["run", *ONE, "--set", "link.replay_timeout_flits=100"],
         "'link.replay_timeout_flits' is gone"),
        (["run", *ONE, "--set", "router.latency_ns=20"],
         "router.latency_ns: run.study stack with workload.name traffic does not read it"),
        (["run", *NETWORK, "--set", "net.vc_classes=1"],
         "needs 2 VC classes"),
        (["run", *NETWORK, "--set", "topology.name=fattree",
          "--set", "routing.name=dor"], "needs a torus"),
        (["run", *NETWORK, "--set", "sim.cycles=100",
          "--set", "sim.warmup_cycles=100"], "sim.warmup_cycles"),
        (["run", *NETWORK, "--set", "traffic.messages_per_node=0"],
         "sim.cycles or traffic.messages_per_node"),
        # A key the run would not read is refused, naming what would.
        (["run", *ONE, "--set", "fault.kind=link", "--set", "workload.name=incast"],
         "fault.kind: run.study stack with workload.name incast does not read it; "
         "run.study network with workload.name traffic; run.study stack with "
         "workload.name traffic would"),
        (["run", *ONE, "--set", "fault.kind=link"], "fault.at_cycles: the fault's time"),
        (["run", *ONE, "--set", "fault.kind=node", "--set", "fault.at_cycles=100",
          "--set", "fault.restore_at_cycles=200"],
         "a restored card would need its connections set up anew"),
        (["run", *ONE, "--set", "fault.kind=link", "--set", "fault.at_cycles=100",
          "--set", "fault.restore_at_cycles=100"],
         "fault.restore_at_cycles must lie after fault.at_cycles"),
        (["run", *ONE, "--set", "fault.kind=link", "--set", "fault.at_cycles=100",
          "--set", "topology.name=fattree", "--set", "routing.name=updown",
          "--set", "fm.placement=node3"], "needs a topology without switches"),
        (["run", *ONE, "--set", "sim.kernel=cycle"], "sim.kernel: run.study stack"),
        (["run", *NETWORK, "--set", "collective.bytes=4096"],
         "collective.bytes: run.study network with workload.name traffic does not read it"),
        (["run", *NETWORK, "--set", "fault.port=1"], "fault.kind is none"),
        (["run", *ONE, "--set", "topology.name=fullmesh", "--set", "routing.name=fullmesh",
          "--set", "topology.dims=4x4"], "topology.name is fullmesh"),
        (["run", *ONE, "--set", "link.ber=1e-5", "--set", "link.fidelity=ideal",
          "--set", "workload.name=incast"], "link.ber: "),
        (["run", str(scenarios / "incast_4x4x4.yaml"), "--set", "router.clock_ghz=2"],
         "flit rate"),
        (["run", str(scenarios / "incast_4x4x4.yaml"), "--set", "traffic.load=0.5"],
         "traffic.load: run.study stack with workload.name incast does not read it"),
        (["run", "--set", "run.phases=incast", "--set", "collective.order=snake"],
         "collective.order: run.study phases does not read it"),
        (["run", "--set", "workload.name=incast"], "each phase names its own"),
        (["run", *ONE, "--set", "workload.name=ring_allreduce", "--set", "traffic.load=0.5"],
         "traffic.load: run.study stack with workload.name ring_allreduce does not read it"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set", "link.fidelity=ideal"],
         "link.fidelity: run.study stack runs workload.name remote_access over tlm"),
        (["board", "--firmware", lqemu, "--set", "traffic.load=0.5"],
         "traffic.load: lqemu board does not read it"),
        (["run", str(scenarios / "failover_4x4x4.yaml"), "--set", "sim.kernel=cycle"],
         "no faults or collectives"),
        (["run", str(scenarios / "failover_4x4x4.yaml"), "--set", "fault.port=7"],
         "has no cable"),
        (["run", str(scenarios / "failover_4x4x4.yaml"), "--set", "fault.at_cycles=0"],
         "inside a timed run"),
        (["run", str(scenarios / "failover_4x4x4.yaml"), "--set",
          "fault.restore_at_cycles=50000"], "fault.restore_at_cycles must lie after"),
        (["run", str(scenarios / "failover_4x4x4.yaml"), "--set", "fault.kind=node",
          "--set", "fault.node=64"], "no endpoint 64"),
        (["run", str(scenarios / "failover_4x4x4.yaml"), "--set",
          "fm.placement=node64"], "fm.placement: expected builder or node<ID>"),
        (["run", str(scenarios / "failover_4x4x4.yaml"), "--set",
          "fm.placement=node3"], "needs net.vc_sets >= 2"),
        (["run", str(scenarios / "failover_4x4x4.yaml"), "--set", "net.vc_sets=2",
          "--set", "fm.placement=node0", "--set", "fault.kind=node"],
         "is the fabric manager's"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set",
          "topology.dims=2x2x2", "--set", "board.node_firmware=8=a.elf"],
         "board.node_firmware: node 8 is not one of the 8 boards"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set",
          "board.node_firmware=1=/nonexistent/lqemu.elf"],
         "board.node_firmware: node 1: /nonexistent/lqemu.elf: cannot open"),
        (["run", str(scenarios / "allreduce_4x4x4.yaml"), "--set", "sim.cycles=100"],
         "runs to completion"),
        (["run", str(scenarios / "incast_4x4x4.yaml"), "--set", "transport.pmtu=300"],
         "TRN-6.1"),
        (["run", str(scenarios / "incast_4x4x4.yaml"), "--set", "pfc.xon_bytes=70000"],
         "pfc.xon_bytes"),
        (["run", str(scenarios / "incast_4x4x4.yaml"), "--set", "transport.cc=tcp"],
         "transport.cc"),
        (["run", str(scenarios / "incast_4x4x4.yaml"), "--set",
          "lqcc.min_window_bytes=200000"], "lqcc.min_window_bytes"),
        (["run", "--set", "run.phases=uniform,bogus"], "no phase 'bogus'"),
        (["run", "--set", "run.phases="], "run.phases is empty"),
        (["run", "--set", "run.phases=none"], "--set run.study=stack runs"),
        (["run", *ONE, "--set", "collective.name=ring_allreduce"],
         "'collective.name' is gone: use workload.name"),
        (["run", "--set", "run.phases=incast", "--trace", str(work / "t.json")],
         "--trace: the default run traces its probe phase"),
        (["run", "--set", "run.phases=probe", "--pcap", str(work / "t.json")],
         "--pcap: the default run captures its uniform phase"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set",
          "topology.name=fattree"], "torus with dor"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set",
          "router.latency_ns=2.5"], "whole nanoseconds"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set",
          "board.firmware=" + str(work / "missing.elf")], "board.firmware: "),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set",
          "topology.dims=2x2x2", "--set", "link.rtl_ports=8"],
         "link.rtl_ports: \"8\": node: 8 is outside 0..7"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set",
          "link.rtl_ports=0:6"], "port: 6 is outside 0..5"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set",
          "link.rtl_ports=0:1,0"], "port 1 of node 0 is named twice"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set",
          "link.rtl_ports=0", "--set", "link.profile=ib"], "built for link.profile pcie6"),
        (["run", *ONE, "--set", "link.fidelity=ideal", "--set", "link.rtl_ports=0"],
         "link.rtl_ports: run.study stack with workload.name traffic does not read it: "
         "link.fidelity is ideal: ideal links have no link controllers to run as RTL"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--vcd",
          str(work / "t.json")], "--vcd: only link controllers at RTL fidelity"),
        (["run", *ONE, "--set", "workload.name=remote_access", "--set",
          "link.rtl_ports=0:0", "--vcd", "/nonexistent/w.vcd"],
         "--vcd: cannot write /nonexistent/w.node0.port0.vcd"),
        # Every phase's scenario is checked before any runs.
        (["run", "--set", "transport.pmtu=300"], "phase link: "),
        (["run", str(scenarios / "incast_4x4x4.yaml"), "--set", "topology.dims=4x4"],
         "transport.background_pairs: 16 pairs need nodes of their own"),
        # A file's key that the file alone leaves unread is refused.
        (["run", str(scenarios / "incast_4x4x4.yaml"), "--set", "fault.port=1"],
         "fault.port: run.study stack with workload.name incast does not read it"),
    ]
    for args, needle in cases:
        result = run(lqemu, *args)
        expect(result.returncode == 2, "%s should exit 2, exited %d"
               % (args, result.returncode))
        expect(needle in result.stderr, "%s: message should mention %r, got: %s"
               % (args, needle, result.stderr))
        expect(not (work / "t.json").exists(), "bad input must write nothing")


def file_keys_left_unread_by_set_are_noted(lqemu, work, scenarios):
    """A scenario file's key that an override leaves unread cannot be taken
    back from the command line: the run goes on and says so on stderr. A
    file whose own keys leave one unread is refused."""
    result = run(lqemu, "run", str(scenarios / "incast_4x4x4.yaml"), "--quiet",
                 "--set", "transport.flow_kib=16", "--set", "transport.background_pairs=0")
    expect(result.returncode == 0, "exited %d: %s" % (result.returncode, result.stderr))
    expect("note: transport.background_flows: run.study stack with workload.name incast "
           "does not read it: transport.background_pairs is 0" in result.stderr,
           "the unread file key is noted: " + result.stderr)
    scenario = work / "inconsistent.yaml"
    scenario.write_text((scenarios / "incast_4x4x4.yaml").read_text()
                        .replace("background_pairs: 16", "background_pairs: 0"))
    result = run(lqemu, "run", str(scenario), "--set", "transport.flow_kib=16")
    expect(result.returncode == 2 and "transport.background_flows: " in result.stderr,
           "a file that leaves its own key unread is refused: %d %s"
           % (result.returncode, result.stderr))


def example_scenarios_run(lqemu, work, scenarios):
    examples = sorted(p for p in scenarios.glob("*.yaml") if not p.name.startswith("bad_"))
    expect(examples, "no example scenarios in " + str(scenarios))
    for example in examples:
        stats = work / (example.stem + ".json")
        text = example.read_text()
        shorten = SMALL
        if "collective:" in text:
            shorten = ["--set", "collective.bytes=65536"]  # runs to completion
        elif "name: incast" in text:
            shorten = ["--set", "transport.flow_kib=64"]
        elif "name: remote_access" in text:
            shorten = []  # boards: a fixed probe
        elif "study: network" in text:
            shorten = SHORT_STUDY
            if "fault:" in text:
                shorten = SHORT_STUDY + QUICK_FM + ["--set", "sim.cycles=10000",
                                                    "--set", "fault.at_cycles=1000"]
        result = run(lqemu, "run", str(example), "--quiet", "--stats", str(stats), *shorten)
        expect(result.returncode == 0, "%s exited %d: %s"
               % (example.name, result.returncode, result.stderr))
        stats_json = json.loads(stats.read_text())
        integrity = stats_json["integrity"]
        expect(integrity["delivered"] + integrity["lost"] == integrity["sent"],
               "%s left packets unaccounted: %s" % (example.name, integrity))
        if "collective" in stats_json:
            expect(stats_json["collective"]["completed"],
                   "%s: the collective did not complete" % example.name)
        if stats_json["faults"]:
            expect(stats_json["faults"][0]["recovered_ns"] is not None,
                   "%s: the fault was not repaired" % example.name)
            expect(integrity["lost"] == stats_json["faults"][0]["dropped"],
                   "%s: every loss is the fault's" % example.name)
        else:
            expect(integrity["lost"] == 0, "%s lost data: %s" % (example.name, integrity))


def failures_are_rerouted(lqemu, work, scenarios):
    """NET-7: a cut link or a killed node is routed around; each lost packet
    is counted once and every affected flow's failover time is reported."""
    for kind, extra in [("link", []), ("node", ["--set", "fault.node=21"])]:
        path = work / ("failover-%s.json" % kind)
        result = run(lqemu, "run", str(scenarios / "failover_4x4x4.yaml"), "--stats", str(path),
                     "--set", "sim.cycles=20000", "--set", "fault.at_cycles=5000",
                     "--set", "fault.kind=" + kind, *extra, *QUICK_FM)
        expect(result.returncode == 0, "%s failover run failed: %s" % (kind, result.stderr))
        expect("reroute    fabric manager" in result.stdout, "no reroute line:\n" + result.stdout)
        stats = json.loads(path.read_text())
        fault = stats["faults"][0]
        # Cycles of the routers' clock, the pcie6 flit rate (NET-8.4).
        cycle_ns = 1 / stats["network"]["router_clock_ghz"]
        expect(fault["kind"] == kind and abs(fault["at_ns"] - 5000 * cycle_ns) < 1e-6,
               "fault %s" % fault)
        update = fault["update"]
        expect(update["failure"] == "", "update %s" % update)
        expect(update["failed_nodes"] == (1 if kind == "node" else 0), "update %s" % update)
        expect(update["drained"] or kind == "node",
               "a cut link's drain balances (a dead node's lost packets may not)")
        expect(abs(update["report_ns"] - (fault["at_ns"] + 100)) < 1e-6,
               "the first LINK_EVENT arrives one oob latency after the fault")
        measured = [f["failover_ns"] for f in fault["flows"] if f["failover_ns"] is not None]
        expect(measured, "no affected flow measured")
        expect(max(measured) == fault["recovered_ns"], "recovered_ns is the worst flow")
        expect(min(measured) > update["switched_ns"] - fault["at_ns"] - 2000,
               "no flow recovers long before the switch")
        integrity = stats["integrity"]
        expect(integrity["delivered"] + integrity["lost"] == integrity["sent"],
               "packets unaccounted: %s" % integrity)
        expect(integrity["lost"] == fault["dropped"] > 0, "losses are the fault's: %s" % integrity)
        expect(sum(fault["dropped_by_cause"].values()) == fault["dropped"]
               and (fault["dropped_by_cause"]["link_down"] > 0 or kind == "node"),
               "drops by cause: %s" % fault["dropped_by_cause"])
        expect(re.search(r"  dropped    \d+ packets by the failure, each counted once: \d+ at the "
                         r"cut link, \d+ inside the failed node, \d+ of the old epoch, \d+ with no "
                         r"route left; the network layer resends nothing", result.stdout),
               "the report splits the drops and says what OK means:\n" + result.stdout)


def NET_7_1_a_fat_trees_switches_count_what_a_cut_drops(lqemu, work, _):
    """A cut between two switches of a fat tree: the switches drop what can
    no longer go, and those drops count (they once passed for packets still
    queued, since only the endpoints' routers were read)."""
    path = work / "fattree-cut.json"
    result = run(lqemu, "run", *NETWORK, "--stats", str(path),
                 "--set", "topology.name=fattree", "--set", "topology.endpoints=16",
                 "--set", "routing.name=updown", "--set", "fault.kind=link",
                 "--set", "fault.node=20", "--set", "fault.port=3",
                 "--set", "fault.at_cycles=1000", "--set", "sim.cycles=3000",
                 "--set", "sim.warmup_cycles=500", *QUICK_FM)
    expect(result.returncode == 0, "exited %d: %s\n%s"
           % (result.returncode, result.stderr, result.stdout))
    stats = json.loads(path.read_text())
    integrity, fault = stats["integrity"], stats["faults"][0]
    expect(integrity["lost"] == fault["dropped"] > 0,
           "the switches' drops are the cut's: %s, dropped %d"
           % (integrity, fault["dropped"]))
    in_flight = stats["network"]["in_flight"]
    expect(integrity["delivered"] + integrity["lost"] + in_flight == integrity["sent"]
           and in_flight < 100, "packets unaccounted: %s, %d in flight" % (integrity, in_flight))


def NET_7_11_restored_link_is_taken_back(lqemu, work, scenarios):
    """A cut link that comes back is taken back fm.restore_holdoff after its
    up report, and traffic crosses it again; nothing is lost to the restore."""
    path = work / "restore.json"
    result = run(lqemu, "run", str(scenarios / "failover_4x4x4.yaml"), "--stats", str(path),
                 "--set", "sim.cycles=20000", "--set", "fault.at_cycles=5000",
                 "--set", "fault.restore_at_cycles=12000",
                 "--set", "fm.restore_holdoff=0.001", *QUICK_FM)
    expect(result.returncode == 0, "restore run failed: " + result.stderr)
    expect("restore    link up at 12000 cycles" in result.stdout, "no restore line:\n" + result.stdout)
    stats = json.loads(path.read_text())
    fault = stats["faults"][0]
    restore = fault["restore"]
    cycle_ns = 1 / stats["network"]["router_clock_ghz"]
    expect(abs(restore["at_ns"] - 12000 * cycle_ns) < 1e-6, "restore %s" % restore)
    update = restore["update"]
    expect(update is not None and update["failure"] == "", "restore update %s" % update)
    # Holdoff (1 us) and computation (2 us) after the up report (0.1 us).
    expect(update["computed_ns"] >= restore["at_ns"] + 100 + 1000 + 2000,
           "tables before the holdoff and computation: %s" % update)
    expect(update["failed_links"] == 0, "the restored tables still avoid a link: %s" % update)
    expect(restore["link_flits_after"] > 0, "no traffic over the restored link")
    expect(fault["update"]["failed_links"] == 1, "the failover update comes first")
    integrity = stats["integrity"]
    expect(integrity["delivered"] + integrity["lost"] == integrity["sent"],
           "packets unaccounted: %s" % integrity)
    expect(integrity["lost"] == fault["dropped"], "losses are the cut's: %s" % integrity)


def NET_7_12_restored_node_is_taken_back(lqemu, work, scenarios):
    """A failed node that comes back rejoins: the fabric manager takes it
    back, traffic crosses its links again, and nothing is lost to the
    restore."""
    path = work / "node-restore.json"
    result = run(lqemu, "run", str(scenarios / "failover_4x4x4.yaml"), "--stats", str(path),
                 "--set", "sim.cycles=30000", "--set", "fault.kind=node",
                 "--set", "fault.node=21", "--set", "fault.at_cycles=5000",
                 "--set", "fault.restore_at_cycles=20000",
                 "--set", "fm.restore_holdoff=0.001", *QUICK_FM)
    expect(result.returncode == 0, "node restore run failed: " + result.stderr)
    expect("restore    node back at 20000 cycles" in result.stdout,
           "no restore line:\n" + result.stdout)
    stats = json.loads(path.read_text())
    fault = stats["faults"][0]
    expect(fault["update"]["failed_nodes"] == 1, "the failover update comes first")
    restore = fault["restore"]
    update = restore["update"]
    expect(update is not None and update["failure"] == "", "restore update %s" % update)
    expect(update["restored_nodes"] == 1 and update["failed_nodes"] == 0,
           "the node is not back in the graph: %s" % update)
    expect(restore["link_flits_after"] > 0, "no traffic over the node's links")
    integrity = stats["integrity"]
    expect(integrity["delivered"] + integrity["lost"] == integrity["sent"],
           "packets unaccounted: %s" % integrity)
    expect(integrity["lost"] == fault["dropped"], "losses are the failure's: %s" % integrity)


def network_study_reports_cycles_and_flits(lqemu, work, scenarios):
    """The comparability scenario reports what cycle-level simulators do."""
    path = work / "study.json"
    result = run(lqemu, "run", str(scenarios / "comparability_4x4x4.yaml"),
                 "--stats", str(path), *SHORT_STUDY)
    expect(result.returncode == 0, "study failed: " + result.stderr)
    for needle in ["flits/node/cycle", "latency    mean", "cycles", "deadlock   none"]:
        expect(needle in result.stdout, "report lacks %r:\n%s" % (needle, result.stdout))
    network = json.loads(path.read_text())["network"]
    offered = network["offered_flits_per_node_cycle"]
    accepted = network["accepted_flits_per_node_cycle"]
    expect(abs(accepted - offered) < 0.05 * offered,
           "below saturation accepted %.4f should match offered %.4f" % (accepted, offered))
    expect(network["latency_cycles"]["mean"] >= 20,
           "mean latency %.2f below the 4x4x4 zero-load figure" % network["latency_cycles"]["mean"])
    expect(not network["deadlock"]["detected"], "deadlock reported")


def default_headline_table(lqemu, work, _):
    """The embedded default: every phase runs, every seed claim gets a
    measured figure and a verdict, and nothing is lost."""
    path = work / "default.json"
    trace = work / "default-trace.json"
    result = run(lqemu, "run", "--stats", str(path), "--trace", str(trace))
    expect(result.returncode == 0, "default run failed: " + result.stderr)
    for claim in ["800 Gb/s per port", "2.1 us end-to-end", "< 1.2 us average latency",
                  "1.2 TB/s on 16 nodes", "< 50 ms node-level failover",
                  "-70 % PFC triggering", "~50 % fewer hops", "hierarchical AllReduce"]:
        expect(claim in result.stdout, "headline lacks the claim %r:\n%s"
               % (claim, result.stdout))
    expect("integrity" in result.stdout and ": OK" in result.stdout,
           "report lacks a clean integrity line:\n" + result.stdout)
    stats = json.loads(path.read_text())
    for key in STATS_KEYS + ["headline", "phases", "logical"]:
        expect(key in stats, "stats JSON lacks '%s'" % key)
    expect(stats["nodes"] == 256 and stats["links"] == 768,
           "the supernode is a 4x8x8 torus: %s nodes, %s links"
           % (stats["nodes"], stats["links"]))
    headline = stats["headline"]
    expect(len(headline) == 8, "8 headline rows, not %d" % len(headline))
    for row in headline:
        expect(row["holds"] in (True, False) and not row["measured"].startswith("not"),
               "row without a measured figure: %s" % row)
    expect(len(stats["phases"]) == 13, "13 phases, not %d" % len(stats["phases"]))
    for name, phase in stats["phases"].items():
        expect(phase["exit_status"] == 0 and phase["stats"] is not None,
               "phase %s: %s" % (name, phase["failure"]))
    # The report names the layers and their fidelity per phase.
    layers = {name: phase["layers"] for name, phase in stats["phases"].items()}
    on_the_stack = [name for name in layers if not name.endswith("_hops")]
    expect(all("TL link controllers and PHYs" in layers[name]
               and "transport engines" in layers[name] for name in on_the_stack)
           and "boards running firmware" in layers["remote_access"]
           and all("network layer alone" in layers[name]
                   for name in ["torus_hops", "fat_tree_hops"]),
           "every phase but the hop counts composes the stack over tlm links: %s"
           % layers)
    hops_row = next(row for row in headline if row["claim"].startswith("~50 %"))
    expect("network-only" in hops_row["measured"],
           "the hop-count row says it is a network study: %s" % hops_row)
    # After the table, each phase's own section: what it composed, its
    # figures with their units, its own integrity.
    sections = result.stdout.split("\n  phases\n")[1]
    for name, phase in stats["phases"].items():
        expect(re.search(r"^  %s( \(\w+\))?, [\d.]+ s wall: %s\n" % (name, re.escape(phase["layers"])),
                         sections, re.M), "a section for %s:\n%s" % (name, sections))
    expect(sections.count("    integrity sent ") == 13, "each section's integrity")
    expect("    latency mean " in sections and " GB/s delivered" in sections
           and "    transport " in sections and "    links " in sections
           and ", recovered in " in sections, "the sections' figures:\n" + sections)
    integrity = stats["integrity"]
    expect(integrity["lost"] == 0 and integrity["corrupted"] == 0
           and integrity["duplicated"] == 0 and integrity["sent"] > 0,
           "data lost: %s" % integrity)
    faults = stats["faults"]
    expect(len(faults) == 2 and all(f["recovered_ns"] > 0 for f in faults)
           and all(f["measured_by"] == "messages" for f in faults),
           "a link cut and a node failure on the stack, both repaired: %s"
           % [(f["kind"], f["recovered_ns"]) for f in faults])
    expect(integrity["endpoint_failed"] > 0,
           "the node failure's messages are counted as failed: %s" % integrity)
    expect("caveat" not in result.stdout and "no transport" not in result.stdout,
           "no caveat under the integrity line:\n" + result.stdout)
    logical = stats["logical"]
    expect(logical["remote_ops"] >= 6 and logical["page_faults"] >= 2,
           "the probe's loads, stores and faults are counted: %s" % logical)
    names = {e["args"]["name"] for e in json.loads(trace.read_text())["traceEvents"]
             if e["name"] == "process_name"}
    expect(len(names) == 256, "the probe phase traces all 256 nodes, not %d" % len(names))


def failed_phase_exits_1(lqemu, work, _):
    """An unrecoverable fault (every delivered packet dropped) fails the
    incast phases: exit 1, the phases named, their row not measured, and
    run.phases leaves the other phases out."""
    path = work / "dead.json"
    result = run(lqemu, "run", "--stats", str(path), "--set", "run.phases=incast",
                 "--set", "transport.drop=1")
    expect(result.returncode == 1, "a failed phase must exit 1, exited %d"
           % result.returncode)
    expect("phase incast_pfc failed" in result.stderr, "the phase is named: "
           + result.stderr)
    stats = json.loads(path.read_text())
    expect(sorted(stats["phases"]) == ["incast_dcqcn", "incast_lqcc", "incast_pfc"],
           "run.phases=incast runs the incast phases only: %s" % sorted(stats["phases"]))
    rows = {row["phase"]: row for row in stats["headline"]}
    expect(rows["incast"]["measured"] == "not measured: the phase failed",
           "the failed phase's row: %s" % rows["incast"])
    expect(rows["uniform"]["measured"] == "not measured: left out by run.phases",
           "a phase left out: %s" % rows["uniform"])
    expect(stats["integrity"]["lost"] > 0, "the lost writes are counted")


def remote_access_study_boots_every_board(lqemu, work, _):
    """workload.name remote_access on 8 boards: every board's firmware
    trains its links, every access has a figure, and each load's and
    store's layers add up to its latency."""
    path = work / "remote.json"
    result = run(lqemu, "run", *ONE, "--set", "workload.name=remote_access",
                 "--set", "topology.dims=2x2x2", "--stats", str(path))
    expect(result.returncode == 0, "remote access study failed: " + result.stderr)
    expect("8 of 8 boards trained their links" in result.stdout, result.stdout)
    stats = json.loads(path.read_text())
    accesses = stats["remote_access"]["accesses"]
    expect(len(accesses) == 6 and all(a["failure"] == "" for a in accesses),
           "six accesses, each with a figure: %s" % accesses)
    for access in accesses:
        if access["access"] == "fault":
            expect("layers" not in access, "a fault's firmware time is not split")
            continue
        total = sum(layer["request_ns"] + layer["answer_ns"]
                    for layer in access["layers"].values())
        expect(abs(total - access["latency_ns"]) < 1e-6,
               "%s %s: layers add up to %.3f, latency %.3f"
               % (access["access"], access["target"], total, access["latency_ns"]))
    by = {(a["access"], a["target"]): a for a in accesses}
    expect(by[("load", "farthest")]["latency_ns"] > by[("load", "1 hop")]["latency_ns"],
           "the farthest card is farther")
    expect(stats["integrity"]["delivered"] == 6 and stats["links"] == 24,
           "2x2x2 has 24 cables: %s" % stats["links"])


def remote_access_boots_each_nodes_firmware(lqemu, work, _):
    """board.node_firmware boots another image on chosen boards: the
    bring-up image from a file serves like the built-in one; a board that
    boots hello.elf greets on its console and never serves, so the study
    fails (exit 1)."""
    images = pathlib.Path(lqemu).parent / "firmware"
    result = run(lqemu, "run", *ONE, "--set", "workload.name=remote_access",
                 "--set", "topology.dims=2x2x2", "--set",
                 "board.node_firmware=7=%s" % (images / "link_bringup_watch.elf"))
    expect(result.returncode == 0, "bring-up image from a file: " + result.stderr)
    expect("8 of 8 boards trained their links" in result.stdout, result.stdout)
    trace = work / "hello-trace.json"
    result = run(lqemu, "run", *ONE, "--set", "workload.name=remote_access",
                 "--set", "topology.dims=2x2x2", "--set",
                 "board.node_firmware=2=%s" % (images / "hello.elf"),
                 "--trace", str(trace))
    expect(result.returncode == 1, "a board that never serves must fail the study: %d\n%s"
           % (result.returncode, result.stdout))
    expect("7 of 8 boards trained their links" in result.stdout, result.stdout)
    greetings = re.findall(r"Hello from node (\d+)", trace.read_text())
    expect(greetings == ["2"], "only node 2 boots hello.elf: %s" % greetings)


def rtl_ports_carry_the_stacks_traffic(lqemu, work, _):
    """link.rtl_ports on the stack's cards (tlm links): node 0's six ports
    are the Verilated controller, every other port trains with them, and
    traffic and a collective through the transport complete; the report
    names the RTL controllers and the link counters include theirs."""
    path = work / "traffic.json"
    result = run(lqemu, "run", "--stats", str(path), *SMALL,
                 "--set", "topology.dims=2x2x2", "--set", "link.rtl_ports=0")
    expect(result.returncode == 0, "traffic: " + result.stderr)
    expect("tlm links (link controllers and PHYs, 6 controllers in Verilated RTL)"
           in result.stdout, result.stdout)
    stats = json.loads(path.read_text())
    integrity = stats["integrity"]
    expect(integrity["sent"] == 8 * 40 and integrity["delivered"] == integrity["sent"]
           and integrity["lost"] == 0, "traffic: %s" % integrity)
    expect(stats["link"]["flits"] > 0, "link counters: %s" % stats["link"])
    result = run(lqemu, "run", *ONE, "--set", "topology.dims=2x2x2",
                 "--set", "workload.name=alltoall", "--set", "collective.bytes=4096",
                 "--set", "link.rtl_ports=3:1")
    expect(result.returncode == 0 and "1 controller in Verilated RTL" in result.stdout
           and "lost 0" in result.stdout, result.stdout + result.stderr)


def rtl_ports_run_the_verilated_controller(lqemu, work, _):
    """link.rtl_ports puts the Verilated controller on node 0's port 0 of a
    run of boards (DESIGN section 2): the cluster trains and serves as with
    TL models only, every access takes the same time within 2 ns a hop each
    way, the RTL port reports its LTSSM to the trace and its statistics to
    the stats, and --vcd writes its waveform over the window link.vcd_*
    give."""
    boards = [*ONE, "--set", "workload.name=remote_access", "--set", "topology.dims=2x2x2"]
    tl_path = work / "tl.json"
    result = run(lqemu, "run", "--quiet", *boards, "--stats", str(tl_path))
    expect(result.returncode == 0, "TL only: " + result.stderr)
    path, trace, vcd = work / "rtl.json", work / "rtl-trace.json", work / "w.vcd"
    result = run(lqemu, "run", *boards, "--set", "link.rtl_ports=0:0",
                 "--set", "link.vcd_length_us=3", "--stats", str(path),
                 "--trace", str(trace), "--vcd", str(vcd))
    expect(result.returncode == 0, "with an RTL port: " + result.stderr)
    expect("8 of 8 boards trained their links" in result.stdout, result.stdout)
    expect("rtl        node 0 port 0: L0" in result.stdout, result.stdout)
    stats = json.loads(path.read_text())
    ports = stats["remote_access"]["rtl_ports"]
    expect(len(ports) == 1 and ports[0]["node"] == 0 and ports[0]["port"] == 0
           and ports[0]["ltssm"] == "L0", "one RTL port, trained: %s" % ports)
    counters = ports[0]["stats"]
    expect(counters["slots_in"] > 0 and counters["cycles"] > 0
           and counters["late_inputs"] == 0,
           "the RTL port carried the accesses on time: %s" % counters)
    tl_accesses = json.loads(tl_path.read_text())["remote_access"]["accesses"]
    for rtl, tl in zip(stats["remote_access"]["accesses"], tl_accesses):
        expect(rtl["failure"] == "" and tl["failure"] == "", "every access has a figure")
        # Whole nanoseconds, summed in floating point: 1e-6 absorbs the sum's error.
        expect(abs(rtl["latency_ns"] - tl["latency_ns"]) <= 2 * rtl["hops"] * 2 + 1e-6,
               "%s %s: RTL port %.1f ns, TL only %.1f ns"
               % (rtl["access"], rtl["target"], rtl["latency_ns"], tl["latency_ns"]))
    spans = [e for e in json.loads(trace.read_text())["traceEvents"]
             if e.get("ph") == "X" and e.get("name") == "L0"]
    expect(spans, "the trace shows links entering L0")
    waveform = work / "w.node0.port0.vcd"
    expect(waveform.exists(), "--vcd writes w.node0.port0.vcd")
    with waveform.open() as text:
        head = text.read(4096)
        times = [int(line[1:]) for line in text if line.startswith("#")]
    expect(head.startswith("$version") and "$scope module lc_top" in head,
           "a VCD of lc_top: %r" % head[:200])
    expect(times and max(times) < 3_000_000, "the window ends at 3 us: %s" % times[-1:])


def vcd_times(path):
    """The time stamps of a VCD file, in its time unit."""
    with path.open() as text:
        return [int(line[1:]) for line in text if line.startswith("#")]


def board_trains_an_rtl_port(lqemu, work, _):
    """lqemu board with link.rtl_ports: the bring-up firmware trains a
    board's RTL port beside its TL port, through the same registers, and
    --vcd writes the RTL port's waveform; bad port lists exit 2."""
    bringup = str(pathlib.Path(lqemu).parent / "firmware" / "link_bringup.elf")
    vcd = work / "b.vcd"
    result = run(lqemu, "board", "--firmware", bringup, "--ports", "2", "--set",
                 "link.rtl_ports=0:1", "--set", "link.vcd_length_us=3",
                 "--set", "link.vcd_trigger=write CTRL", "--vcd", str(vcd))
    expect(result.returncode == 0, "board with an RTL port: " + result.stderr)
    expect("2 of 2 ports up" in result.stdout, result.stdout)
    expect((work / "b.node0.port1.vcd").exists() and not (work / "b.node0.port0.vcd").exists(),
           "only the RTL port has a waveform: %s" % sorted(p.name for p in work.iterdir()))
    # The firmware enables its ports after its banner, some 600 us in: the
    # window opens at that write to CTRL and lasts 3 us.
    times = vcd_times(work / "b.node0.port1.vcd")
    expect(times and times[0] > 500_000_000 and times[-1] - times[0] < 3_000_000,
           "the window opens at the write to CTRL: %s" % (times[:1] + times[-1:]))
    result = run(lqemu, "board", "--firmware", bringup, "--ports", "2", "--set",
                 "link.rtl_ports=0:1", "--set", "link.vcd_length_us=0.5",
                 "--set", "link.vcd_start_us=1", "--set", "link.vcd_trigger=ltssm L0",
                 "--vcd", str(work / "l0.vcd"), "--max-time-us", "6")
    times = vcd_times(work / "l0.node0.port1.vcd")
    expect(times and times[0] > 1_000_000 and times[-1] - times[0] < 500_000,
           "the window opens when the LTSSM reaches L0: %s %s"
           % (times[:1] + times[-1:], result.stderr))
    expect("RTL ports (node 0 port 1) and their far ends train at the RTL build's LTSSM "
           "time scale, 0.0001" in result.stderr and "so do the other links" in result.stderr,
           "the run says how its links train: " + result.stderr)
    # DLL-6.2 per link: the TL port keeps the scale given. At 0.1 its link
    # needs more than a millisecond; the RTL port's is up long before.
    result = run(lqemu, "board", "--firmware", bringup, "--ports", "2", "--set",
                 "link.rtl_ports=0:1", "--ltssm-time-scale", "0.1", "--max-time-us", "300")
    expect("at 300.000 us simulated; 1 of 2 ports up" in result.stderr
           and "the other links train at 0.1" in result.stderr,
           "the TL port trains at 0.1, the RTL port at 1e-4: " + result.stderr)
    for args, needle in [
            (["--set", "link.rtl_ports=0:2"], "link.rtl_ports: \"0:2\": port: 2 is outside 0..1"),
            (["--set", "link.rtl_ports=1"], "node: 1 is outside 0..0"),
            (["--vcd", str(work / "none.vcd")], "--vcd: only link controllers at RTL fidelity"),
            (["--set", "link.rtl_ports=0:1", "--set", "link.vcd_trigger=ltssm L1"],
             "link.vcd_trigger: no LTSSM state \"L1\" (Disabled, Detect.Quiet"),
            (["--set", "link.rtl_ports=0:1", "--set", "link.vcd_trigger=write FOO"],
             "no link controller register \"FOO\" (ID, CTRL"),
            (["--set", "link.rtl_ports=0:1", "--set", "link.vcd_trigger=at 3"],
             "expected 'ltssm STATE' or 'write REGISTER', got \"at 3\"")]:
        result = run(lqemu, "board", "--firmware", bringup, "--ports", "2", *args)
        expect(result.returncode == 2 and needle in result.stderr,
               "%s: exit %d, %s" % (args, result.returncode, result.stderr))


def trace_opens_in_perfetto(lqemu, work, _):
    """--trace writes Chrome trace-event JSON: a process per node with its
    firmware's console lines, a track per port with its LTSSM states ending
    in L0, and node 0's accesses and page faults with their path segments
    on the tracks of the layers they crossed."""
    path = work / "trace.json"
    result = run(lqemu, "run", *ONE, "--quiet", "--set", "workload.name=remote_access",
                 "--set", "topology.dims=2x2x2", "--trace", str(path))
    expect(result.returncode == 0, "traced run failed: " + result.stderr)
    trace = json.loads(path.read_text())
    expect(trace["displayTimeUnit"] == "ns", "times display in ns")
    events = trace["traceEvents"]
    processes = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
    tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
              if e["name"] == "thread_name"}
    expect(sorted(processes.values()) == ["node%d" % n for n in range(8)],
           "one process per node: %s" % sorted(processes.values()))
    for event in events:
        if event["ph"] == "M":
            continue
        expect(event["ph"] in ("X", "i") and event["ts"] >= 0
               and (event["pid"], event["tid"]) in tracks,
               "malformed or unnamed event: %s" % event)
        expect(event["ph"] == "i" or event["dur"] >= 0, "negative span: %s" % event)
    console = {processes[e["pid"]] for e in events if e.get("cat") == "firmware"}
    expect(len(console) == 8, "every node's firmware prints: %s" % console)
    last_state = {}
    for e in events:
        if e.get("cat", "").startswith("link port"):
            key = (e["pid"], e["cat"])
            if key not in last_state or e["ts"] >= last_state[key]["ts"]:
                last_state[key] = e
    expect(len(last_state) == 8 * 6 and all(e["name"] == "L0" for e in last_state.values()),
           "every port's last state is L0: %s"
           % sorted({e["name"] for e in last_state.values()}))
    accesses = [e for e in events if e.get("cat") == "accesses"]
    faults = [e for e in events if e.get("cat") == "page faults"]
    expect(len(accesses) == 4 and len(faults) == 2,
           "4 loads and stores, 2 page faults: %d, %d" % (len(accesses), len(faults)))
    routers = [e for e in events if e.get("cat") == "router"]
    expect(routers and all(processes[e["pid"]] != "fabric" for e in routers),
           "router segments sit on their nodes' tracks")


def broken_vc_assignment_exits_1(lqemu, work, _):
    """Every hop on VC class 0 deadlocks a saturated ring: exit 1, named,
    on either kernel."""
    for kernel in ["systemc", "cycle"]:
        result = run(lqemu, "run", *NETWORK,
                     "--set", "topology.dims=8", "--set", "routing.dateline=off",
                     "--set", "router.vc_buffer_flits=2",
                     "--set", "traffic.message_bytes=600", "--set", "traffic.load=0.9",
                     "--set", "sim.cycles=20000", "--set", "sim.watchdog_cycles=1000",
                     "--set", "sim.kernel=" + kernel)
        expect(result.returncode == 1, "%s: a deadlock must exit 1, exited %d"
               % (kernel, result.returncode))
        expect("deadlock" in result.stderr and "waiting cycle: node" in result.stderr,
               "%s: the watchdog should name the cycle: %s" % (kernel, result.stderr))


def over_two_ranks(lqemu):
    """What runs lqemu over 2 MPI ranks, which give the statistics of one
    process (ranks.* checks that) in about half the time, where CTest says
    how (LQ_MPIEXEC, set in a build with MPI); else lqemu alone."""
    mpiexec = os.environ.get("LQ_MPIEXEC")
    if not mpiexec:
        return [lqemu]
    os.environ.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return [mpiexec, "-q", "--oversubscribe", "-np", "2", lqemu]


def short_study_stats(lqemu, work, scenarios, scenario, kernel, load, window=SHORT_STUDY,
                      launch=None):
    """The stats of a short network study of `scenario` at `load` on
    `kernel` over `window` (the cycle settings), which must exit 0;
    `launch`, if given, is what runs lqemu (over_two_ranks)."""
    path = work / (kernel + "-" + scenario + ".json")
    args = ["run", str(scenarios / scenario), "--quiet", "--stats", str(path),
            *window, "--set", "traffic.load=" + load, "--set", "sim.kernel=" + kernel]
    result = (run(lqemu, *args) if launch is None else
              subprocess.run(launch + args, capture_output=True, text=True, timeout=240))
    expect(result.returncode == 0, "%s on %s exited %d: %s"
           % (scenario, kernel, result.returncode, result.stderr))
    return json.loads(path.read_text())


def cycle_kernel_agrees_with_systemc(lqemu, work, scenarios):
    """Below saturation both kernels send the same packets over the same
    paths (same seed), drive the same router core (RouterCore, decision
    0038) and measure the same throughput and the same median latency.
    The kernels walk the heads in different orders (decision 0038), so
    where two heads contend the other may win first: the mean may differ
    by a tenth of a cycle, the 99th percentile and the maximum by one."""
    for scenario, load in [("dor_4x4x4.yaml", "0.3"), ("comparability_4x4x4.yaml", "0.3"),
                           ("adaptive_4x4x4.yaml", "0.5")]:
        a, b = (short_study_stats(lqemu, work, scenarios, scenario, kernel, load)
                for kernel in ["systemc", "cycle"])
        expect(b["network"]["kernel"] == "cycle", "the stats should name the kernel")
        for key in ["sent", "delivered"]:
            expect(a["integrity"][key] == b["integrity"][key],
                   "%s: %s %d against %d" % (scenario, key, a["integrity"][key],
                                             b["integrity"][key]))
        expect(a["hops"]["mean"] == b["hops"]["mean"], "%s: hops differ" % scenario)
        expect(a["network"]["flit_hops"] == b["network"]["flit_hops"],
               "%s: flit-hops differ" % scenario)
        accepted = [s["network"]["accepted_flits_per_node_cycle"] for s in (a, b)]
        expect(abs(accepted[0] - accepted[1]) <= 0.001 * accepted[0],
               "%s: accepted %s" % (scenario, accepted))
        latency = [s["network"]["latency_cycles"] for s in (a, b)]
        # The SystemC kernel's cycles come from nanoseconds: equal to 1e-9.
        p50 = [l["p50"] for l in latency]
        expect(abs(p50[0] - p50[1]) <= 1e-9 * p50[1], "%s: median latency %s" % (scenario, p50))
        for key in ["p99", "max"]:
            expect(abs(latency[0][key] - latency[1][key]) <= 1 + 1e-9,
                   "%s: %s latency %s" % (scenario, key, [l[key] for l in latency]))
        means = [l["mean"] for l in latency]
        expect(abs(means[0] - means[1]) <= 0.1, "%s: mean latency %s" % (scenario, means))


def NET_8_3_routers_saturate_near_the_bound(lqemu, work, scenarios):
    """Issue 6's saturation goal on 4x4x4, offered 1.0 on both kernels: the
    adaptive scenario's router accepts within 10 % of the bound (1 flit per
    node per cycle, the injection port's), and dimension-order routing on
    the spec's router accepts over 0.6, which needs one VC to pass a
    single-flit packet every cycle (NET-8.3, decision 0030; the old order
    saturated at 0.42)."""
    for scenario, floor in [("adaptive_4x4x4.yaml", 0.9), ("dor_4x4x4.yaml", 0.6)]:
        for kernel in ["systemc", "cycle"]:
            stats = short_study_stats(lqemu, work, scenarios, scenario, kernel, "1.0")
            accepted = stats["network"]["accepted_flits_per_node_cycle"]
            expect(accepted >= floor, "%s on %s accepted %.4f flits/node/cycle, under %.1f"
                   % (scenario, kernel, accepted, floor))


# BookSim2 on the comparability configuration
# (../shared/reference/booksim2-torus-4x4x4.md): packet latency in cycles
# by offered load, and the accepted throughput it saturates at.
BOOKSIM2_4X4X4_LATENCY = {"0.02": 25.08, "0.3": 27.99, "0.45": 35.90}
BOOKSIM2_4X4X4_SATURATION = 0.49


def NET_8_3_the_comparability_router_matches_booksim2(lqemu, work, scenarios):
    """Issue 39's calibration: comparability_4x4x4.yaml configures the
    router BookSim2 builds (router.vc_reuse after_tail, NET-8.3, and the
    keys its comments name), and lqemu's cycle kernel reproduces BookSim2's
    latency within 5 % at zero load, 0.3 and 0.45, and its saturation
    throughput (accepted at offered 0.7) within 5 %. The SystemC kernel
    gives the same latency at 0.3 within 2 %."""
    window = ["--set", "sim.cycles=30000", "--set", "sim.warmup_cycles=5000"]
    measured = {}
    for load, reference in BOOKSIM2_4X4X4_LATENCY.items():
        stats = short_study_stats(lqemu, work, scenarios, "comparability_4x4x4.yaml", "cycle",
                                  load, window)
        latency = stats["network"]["latency_cycles"]["mean"]
        measured[load] = latency
        expect(abs(latency - reference) <= 0.05 * reference,
               "at offered %s lqemu gives %.2f cycles, BookSim2 %.2f" % (load, latency, reference))
    stats = short_study_stats(lqemu, work, scenarios, "comparability_4x4x4.yaml", "cycle",
                              "0.7", window)
    accepted = stats["network"]["accepted_flits_per_node_cycle"]
    expect(abs(accepted - BOOKSIM2_4X4X4_SATURATION) <= 0.05 * BOOKSIM2_4X4X4_SATURATION,
           "lqemu saturates at %.4f flits/node/cycle, BookSim2 near %.2f"
           % (accepted, BOOKSIM2_4X4X4_SATURATION))
    stats = short_study_stats(lqemu, work, scenarios, "comparability_4x4x4.yaml", "systemc",
                              "0.3", SHORT_STUDY)
    latency = stats["network"]["latency_cycles"]["mean"]
    expect(abs(latency - measured["0.3"]) <= 0.02 * measured["0.3"],
           "at 0.3 the SystemC kernel gives %.2f cycles, the cycle kernel %.2f"
           % (latency, measured["0.3"]))


def NET_8_11_speedup_saturates_8x8x8_near_the_bound(lqemu, work, scenarios):
    """Issue 6's saturation goal on 8x8x8, whose bound (8b/k = 1 flit per
    node per cycle) is also the injection port's, so every link must run
    near full: offered 0.95, the adaptive scenario's router, with its
    internal speedup of 2 (NET-8.11), accepts within 10 % of it on both
    kernels (without the speedup it saturated at 0.69-0.74). At that load a
    packet takes about 500 cycles, so the network needs a longer warm-up
    than the usual short study's. The SystemC half runs over two MPI ranks
    where the build has MPI: the same figures, in half the time."""
    window = ["--set", "sim.cycles=4000", "--set", "sim.warmup_cycles=1500"]
    for kernel in ["systemc", "cycle"]:
        stats = short_study_stats(lqemu, work, scenarios, "adaptive_8x8x8.yaml", kernel, "0.95",
                                  window, over_two_ranks(lqemu) if kernel == "systemc" else None)
        accepted = stats["network"]["accepted_flits_per_node_cycle"]
        expect(accepted >= 0.9, "adaptive_8x8x8 on %s accepted %.4f flits/node/cycle, under 0.9"
               % (kernel, accepted))


def NET_4_3_adaptive_8x8x8_holds_up_above_saturation(lqemu, work, scenarios):
    """Offered more than it can carry, the 8x8x8 adaptive router still
    accepts within 10 % of the bound, on the cycle kernel: a packet asks
    for its escape VC only once that has a credit (NET-4.3), so it does not
    sit committed to a full escape VC in front of adaptive packets (0.84
    accepted without that rule, 0.95 with it, when this was written)."""
    window = ["--set", "sim.cycles=4000", "--set", "sim.warmup_cycles=1500"]
    stats = short_study_stats(lqemu, work, scenarios, "adaptive_8x8x8.yaml", "cycle", "1.0",
                              window)
    accepted = stats["network"]["accepted_flits_per_node_cycle"]
    expect(accepted >= 0.9, "adaptive_8x8x8 at offered 1.0 accepted %.4f flits/node/cycle"
           % accepted)


def NET_1_5_rings_of_one_run_in_every_study(lqemu, work, scenarios):
    """A torus with a ring of one (4x4x1) has ports with no cable: the
    network studies on both kernels, a collective and a transport study
    cap them, route around them and deliver everything; on the boards of
    the remote access study the firmware disables them and trains the rest."""
    runs = [
        ["comparability_4x4x4.yaml", *SHORT_STUDY, "--set", "sim.kernel=systemc"],
        ["comparability_4x4x4.yaml", *SHORT_STUDY, "--set", "sim.kernel=cycle"],
        ["adaptive_4x4x4.yaml", *SHORT_STUDY],
        ["allreduce_4x4x4.yaml"],
        ["incast_4x4x4.yaml", "--set", "transport.flow_kib=64",
         "--set", "transport.background_pairs=3"],
    ]
    stats_file = work / "ring_of_one.json"
    for scenario, *args in runs:
        result = run(lqemu, "run", str(scenarios / scenario), "--quiet", "--stats",
                     str(stats_file), "--set", "topology.dims=4x4x1", *args)
        expect(result.returncode == 0, "%s %s on 4x4x1 exited %d: %s"
               % (scenario, args, result.returncode, result.stderr))
        stats = json.loads(stats_file.read_text())
        integrity = stats["integrity"]
        expect(stats["nodes"] == 16 and stats["links"] == 32, "%s: %s nodes, %s links"
               % (scenario, stats["nodes"], stats["links"]))
        expect(integrity["sent"] > 0 and integrity["delivered"] == integrity["sent"]
               and integrity["lost"] == integrity["corrupted"] == 0,
               "%s %s: %s" % (scenario, args, integrity))
    boards = run(lqemu, "run", str(scenarios / "remote_access_4x4x4.yaml"),
                 "--set", "topology.dims=4x4x1")
    expect(boards.returncode == 0 and "16 of 16 boards trained their links and serve"
           in boards.stdout, "remote access on 4x4x1 exited %d: %s%s"
           % (boards.returncode, boards.stdout, boards.stderr))


def transport_study_checks_every_write(lqemu, work, scenarios):
    """The incast scenario, short: every write arrives intact, PFC pauses,
    the capture decodes in tshark with the PSNs sent; dropped packets are
    retransmitted; a fabric that drops everything loses data and exits 1."""
    scenario = str(scenarios / "incast_4x4x4.yaml")
    small = ["--set", "transport.flow_kib=64"]
    stats_file, capture = work / "incast.json", work / "incast.pcap"
    result = run(lqemu, "run", scenario, "--quiet", "--stats", str(stats_file),
                 "--pcap", str(capture), *small)
    expect(result.returncode == 0, "incast exited %d: %s" % (result.returncode, result.stderr))
    stats = json.loads(stats_file.read_text())
    integrity, transport = stats["integrity"], stats["transport"]
    expect(integrity == {"sent": 72, "delivered": 72, "endpoint_failed": 0, "lost": 0,
                         "duplicated": 0, "corrupted": 0}, "integrity: %s" % integrity)
    expect(transport["pfc_pause_frames"] > 0 and transport["cnps"] > 0,
           "an incast under DCQCN pauses and notifies: %s" % transport)
    if shutil.which("tshark"):
        decoded = subprocess.run(["tshark", "-r", str(capture), "-T", "fields",
                                  "-e", "_ws.malformed", "-e", "infiniband.bth.psn"],
                                 capture_output=True, text=True)
        lines = decoded.stdout.splitlines()
        expect(decoded.returncode == 0 and len(lines) == transport["packets"],
               "tshark read %d of %d packets" % (len(lines), transport["packets"]))
        expect(not any(line.split("\t")[0] for line in lines), "malformed packets")
    lossy = run(lqemu, "run", scenario, "--quiet", "--stats", str(stats_file),
                "--set", "transport.drop=0.01", *small)
    expect(lossy.returncode == 0, "1 %% drops: exit %d: %s" % (lossy.returncode, lossy.stderr))
    stats = json.loads(stats_file.read_text())
    expect(stats["transport"]["retransmits"] > 0 and stats["integrity"]["lost"] == 0,
           "drops are retransmitted: %s" % stats["transport"])
    dead = run(lqemu, "run", scenario, "--quiet", "--set", "transport.drop=1",
               "--set", "transport.flow_kib=4")
    expect(dead.returncode == 1 and "lost" in dead.stderr,
           "a fabric that loses everything must exit 1: %d %s" % (dead.returncode, dead.stderr))


def incast_over_tlm_links_decodes_in_tshark(lqemu, work, scenarios):
    """The incast on cards whose ports are TL link controllers and PHYs,
    with bit errors the links replay: every write arrives intact, PFC
    messages pause the senders, and the capture decodes in tshark with no
    malformed packet."""
    path = work / "incast-tlm.json"
    pcap = work / "incast-tlm.pcap"
    result = run(lqemu, "run", str(scenarios / "incast_4x4x4.yaml"), "--stats", str(path),
                 "--pcap", str(pcap), "--set", "link.fidelity=tlm", "--set", "link.ber=1e-6",
                 "--set", "transport.flow_kib=128")
    expect(result.returncode == 0, "incast over tlm links failed: " + result.stderr)
    expect("tlm (link controllers and PHYs) links" in result.stdout,
           "the report names the links' fidelity:\n" + result.stdout)
    stats = json.loads(path.read_text())
    integrity = stats["integrity"]
    expect(integrity["sent"] == 8 + 16 * 4 and integrity["delivered"] == integrity["sent"]
           and integrity["lost"] == integrity["corrupted"] == 0,
           "every write arrives intact: %s" % integrity)
    expect(stats["transport"]["xoff_frames"] > 0, "PFC pauses the senders over the links")
    expect(shutil.which("tshark") is not None, "tshark is installed by scripts/setup-deps")
    expect(decoded_roce_packets(pcap) == stats["transport"]["packets"],
           "tshark decodes every captured RoCEv2 packet")
    usage = run(lqemu, "run", "--help").stdout
    expect("every card's in an incast" in " ".join(usage.split()),
           "--help says the capture holds every card's packets:\n" + usage)


def TRN_8_9_headroom_above_the_limit_is_bad_input(lqemu, work, scenarios):
    """Longer cables need more PFC headroom (TRN-8.8); past
    pfc.headroom_max_bytes the scenario is refused, and a higher limit
    takes it."""
    scenario = str(scenarios / "incast_4x4x4.yaml")
    stats_file = work / "long.json"
    refused = run(lqemu, "run", scenario, "--set", "link.cable_m=500")
    expect(refused.returncode == 2 and "pfc.headroom_max_bytes" in refused.stderr
           and "TRN-8.9" in refused.stderr, "500 m: %d %s" % (refused.returncode,
                                                             refused.stderr))
    taken = run(lqemu, "run", scenario, "--quiet", "--stats", str(stats_file),
                "--set", "link.cable_m=500", "--set", "pfc.headroom_max_bytes=1000000",
                "--set", "transport.flow_kib=16")
    expect(taken.returncode == 0, "a raised limit: %d %s" % (taken.returncode, taken.stderr))
    # pcie6 x16, 118 B/ns of goodput: 2 x 2 ns of flits + 2 x (2.5 us of
    # cable + the PHY's pipelines) + 20 ns of reaction is about 5.05 us, so
    # about 596 KB, plus the largest packet.
    headroom = json.loads(stats_file.read_text())["transport"]["headroom_bytes"]
    expect(590000 < headroom < 620000, "500 m headroom %d B" % headroom)


def list_prints_every_key(lqemu, work, _):
    result = run(lqemu, "list")
    expect(result.returncode == 0, "list failed: " + result.stderr)
    for key in ["topology.dims", "link.profile", "link.ber", "router.latency_ns",
                "traffic.load", "sim.seed", "link.fidelity", "router.vc_buffer_flits",
                "router.allocator", "sim.cycles", "traffic.percent",
                "run.study", "workload.name", "transport.cc", "pfc.xoff_bytes", "ecn.profile",
                "dcqcn.cnp_interval_ns", "lqcc.round_ns"]:
        expect(key in result.stdout, "list lacks key " + key)
    expect("pcie6" in result.stdout and "ib" in result.stdout, "list lacks profiles")
    for study in ["phases ", "network ", "stack "]:
        expect("\n  " + study in result.stdout, "list lacks the study " + study)
    expect("The built-in scenario (lqemu run without a file):\n  default " in result.stdout
           and "testbench/scenarios/ holds examples" in result.stdout,
           "one built-in scenario, said as one, and where the files are:\n" + result.stdout)


def scenario_reference_is_current(lqemu, work, scenarios):
    """docs/scenario-reference.md is what `lqemu list --markdown` prints
    from the declarations; regenerate it with that command."""
    reference = pathlib.Path(scenarios).resolve().parents[1] / "docs" / "scenario-reference.md"
    result = run(lqemu, "list", "--markdown")
    expect(result.returncode == 0, "list --markdown failed: " + result.stderr)
    expect(result.stdout == reference.read_text(),
           "%s is stale: run build/lqemu list --markdown > docs/scenario-reference.md"
           % reference)
    for key in ["run.study", "run.phases", "workload.name", "board.firmware",
                "topology.dims"]:
        expect("`%s`" % key in result.stdout, "the reference lacks " + key)


def expect_drawn(plot, stats, pictures, names):
    """Runs scripts/plot on `stats`: it exits 0 and writes and lists each
    of `names` as a PNG."""
    drawn = subprocess.run(["/usr/bin/python3", str(plot), str(stats), str(pictures)],
                           capture_output=True, text=True, timeout=120)
    expect(drawn.returncode == 0, "plot of %s failed: %s" % (stats.name, drawn.stderr))
    for name in names:
        png = pictures / name
        expect(png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n",
               "%s is not a PNG" % name)
        expect(str(png) in drawn.stdout, "%s not listed: %s" % (name, drawn.stdout))


def network_collective_reports_its_own_figures(lqemu, work, _):
    """A collective in a network study is the only traffic: its report
    gives the collective's line, and no offered or accepted load, which
    would describe synthetic traffic that did not run."""
    path = work / "alltoall.json"
    result = run(lqemu, "run", *NETWORK, "--set", "workload.name=alltoall",
                 "--set", "topology.dims=4x4", "--stats", str(path))
    expect(result.returncode == 0, "exited %d: %s" % (result.returncode, result.stderr))
    expect("collective alltoall of 1048576 B per node over 16 nodes" in result.stdout
           and "  offered " not in result.stdout and "  accepted " not in result.stdout,
           "the collective's figures only:\n" + result.stdout)
    network = json.loads(path.read_text())["network"]
    expect(network["offered_flits_per_node_cycle"] == 0, "no offered load: %s" % network)


def NET_8_4_router_clock_follows_the_link_profile(lqemu, work, _):
    """A network study's routers run at the link profile's flit rate, so a
    port carries what a link does, unless router.clock_ghz sets another,
    which the report says with the ratio; numeric parameters are numbers
    in the stats."""
    path = work / "clock.json"
    result = run(lqemu, "run", *NETWORK, "--set", "topology.dims=4x4", *SHORT_STUDY,
                 "--stats", str(path))
    expect(result.returncode == 0, "exited %d: %s" % (result.returncode, result.stderr))
    expect("routers at 0.5 GHz, the pcie6 links' flit rate" in result.stdout,
           "the clock follows pcie6:\n" + result.stdout)
    stats = json.loads(path.read_text())
    expect(stats["network"]["router_clock_ghz"] == 0.5, "stats: %s" % stats["network"])
    parameters = stats["parameters"]
    expect(parameters["router.clock_ghz"] == "auto" and parameters["sim.cycles"] == 2000
           and parameters["link.ber"] == 1e-6 and parameters["topology.dims"] == "4x4",
           "typed parameters: %s" % {k: parameters[k] for k in
                                     ("router.clock_ghz", "sim.cycles", "link.ber")})
    faster = run(lqemu, "run", *NETWORK, "--set", "topology.dims=4x4", *SHORT_STUDY,
                 "--set", "router.clock_ghz=1")
    expect(faster.returncode == 0, "exited %d: %s" % (faster.returncode, faster.stderr))
    expect("routers at 1 GHz (router.clock_ghz), 2x the pcie6 links' flit rate of "
           "0.5 GHz: a port carries 2x what a link does" in faster.stdout,
           "an overridden clock is said:\n" + faster.stdout)
    bad = run(lqemu, "run", *NETWORK, "--set", "router.clock_ghz=fast")
    expect(bad.returncode == 2 and "wants a number or 'auto', not 'fast'" in bad.stderr,
           "exited %d: %s" % (bad.returncode, bad.stderr))


def phases_run_by_their_stats_names(lqemu, work, _):
    """run.phases takes a phase's own name (as the stats name it) as well as
    a group; the top level of the stats summarises the phases that ran."""
    path = work / "lqcc.json"
    result = run(lqemu, "run", "--set", "run.phases=incast_lqcc", "--stats", str(path))
    expect(result.returncode == 0, "exited %d: %s" % (result.returncode, result.stderr))
    stats = json.loads(path.read_text())
    expect(sorted(stats["phases"]) == ["incast_lqcc"],
           "one phase ran: %s" % sorted(stats["phases"]))
    expect(stats["nodes"] == 256 and stats["links"] == 768,
           "the top level's fabric is the phase's: %s" % {k: stats[k] for k in ("nodes", "links")})
    expect(stats["summary_phase"] == "incast_lqcc" and stats["latency_ns"],
           "the summarised phase: %r" % stats["summary_phase"])
    expect(type(stats["parameters"]["sim.seed"]) is int, "typed parameters")
    expect("\n  incast_lqcc (incast), " in result.stdout
           and "\n    transport " in result.stdout and "PFC messages" in result.stdout,
           "the phase's own section:\n" + result.stdout)
    wrong = run(lqemu, "run", "--set", "run.phases=incast_tcp")
    expect(wrong.returncode == 2 and "no phase 'incast_tcp'" in wrong.stderr
           and "incast_lqcc" in wrong.stderr, "the phases are named: " + wrong.stderr)


# Every run kind, as (name, lqemu arguments): small enough for a test.
RUN_KINDS = [
    ("network study", [*NETWORK, "--set", "topology.dims=4x4", *SHORT_STUDY]),
    ("traffic", [*ONE, "--set", "topology.dims=2x2x2", "--set", "link.fidelity=tlm",
                 "--set", "traffic.messages_per_node=20"]),
    ("transport study", [*ONE, "--set", "workload.name=incast", "--set", "topology.dims=2x2x2",
                         "--set", "link.fidelity=tlm", "--set", "transport.senders=3",
                         "--set", "transport.flow_kib=64"]),
    ("collective", [*ONE, "--set", "workload.name=alltoall", "--set", "topology.dims=2x2x2",
                    "--set", "link.fidelity=tlm", "--set", "collective.bytes=8192"]),
    ("failover", [*ONE, "--set", "topology.dims=2x2x2", "--set", "link.fidelity=tlm",
                  "--set", "traffic.messages_per_node=10", "--set", "traffic.load=0.001",
                  "--set", "fault.kind=link", "--set", "fault.node=0", "--set", "fault.port=0",
                  "--set", "fault.at_cycles=2000", *QUICK_FM]),
    ("remote access", [*ONE, "--set", "workload.name=remote_access",
                       "--set", "topology.dims=2x2x2"]),
    ("default phases", ["--set", "run.phases=link"]),
]


def expect_fabric_counters(stats, what, directions=True):
    """Per-router and per-link counters under their hierarchical names,
    and (for lqemu run) each link direction's load."""
    counters = stats["stats"]
    expect(counters and all(type(v) is int for v in counters.values()),
           "%s: integer counters: %s" % (what, list(counters)[:5]))
    for name in ["node0.router.injected", "node0.router.drops_link_down",
                 "node0.router.port0.flits_out"]:
        expect(name in counters, "%s: no %s among %s" % (what, name, list(counters)[:8]))
    if not directions:
        return
    links = stats["link"]["directions"]
    expect(len(links) == 2 * stats["links"], "%s: a direction per link direction: %d for %d links"
           % (what, len(links), stats["links"]))
    for d in links:
        expect(set(d) == {"node", "port", "to", "coordinates", "flits", "bytes", "utilisation",
                          "replays", "crc_errors", "paused_ns"}
               and 0 <= d["utilisation"] <= 1, "%s: direction %s" % (what, d))
    expect(sum(d["flits"] for d in links) > 0, "%s: no link carried a flit" % what)


def counters_in_every_run_kind(lqemu, work, _):
    """Every kind of run writes every node's component statistics under
    their hierarchical names and each link direction's load, and names
    what built the binary; a board cluster its nodes' statistics."""
    for what, args in RUN_KINDS:
        path = work / (what.replace(" ", "_") + ".json")
        result = run(lqemu, "run", *args, "--quiet", "--stats", str(path))
        expect(result.returncode == 0, "%s exited %d: %s" % (what, result.returncode, result.stderr))
        stats = json.loads(path.read_text())
        expect(set(stats["lqemu"]) == {"version", "git", "systemc", "verilator", "spec"}
               and stats["lqemu"]["git"], "%s: what built it: %s" % (what, stats.get("lqemu")))
        if what == "default phases":
            stats = stats["phases"]["link"]["stats"]
        expect_fabric_counters(stats, what)
        expect(any(re.fullmatch(r"node\d+\.router\.(port\d+|local)\.vc\d+\.peak_slots", k)
                   and v > 0 for k, v in stats["stats"].items()),
               "%s: input VCs' peak occupancy" % what)
        if "tlm" in " ".join(args):
            tlm = stats["stats"]
            expect(tlm["node0.port0.lc.tx_flits"] > 0 and "node0.port0.phy.tx_busy_ps" in tlm,
                   "%s: the link controllers' and PHYs' counters" % what)
    scenario = work / "ring.yaml"
    scenario.write_text("topology:\n  name: torus\n  dims: 2x2\n")
    firmware = pathlib.Path(lqemu).parent / "firmware" / "link_bringup.elf"
    path = work / "board.json"
    result = run(lqemu, "board", "--firmware", str(firmware), "--scenario", str(scenario),
                 "--stats", str(path))
    expect(result.returncode == 0, "board exited %d: %s" % (result.returncode, result.stderr))
    expect_fabric_counters(json.loads(path.read_text()), "board cluster", directions=False)


def cycle_kernel_counts_as_systemc_does(lqemu, work, _):
    """A network study on the cycle kernel writes the SystemC router's
    counters and link directions, and both kernels, which route the same
    packets the same way, count the same flits on every port and link
    (but the local input: the SystemC interface packs small packets' bytes
    into its slots back to back, NET-8.8, where the cycle kernel's sources
    send each packet's flits);
    backpressure shows as output VCs' credit stalls in both. Both trace
    the same packets, made at the same times (under this backpressure
    their latencies differ a little, as the kernels' agreement test
    allows above saturation)."""
    counts, spans = {}, {}
    for kernel in ("cycle", "systemc"):
        path = work / (kernel + ".json")
        trace = work / (kernel + ".trace.json")
        result = run(lqemu, "run", *NETWORK, "--set", "topology.dims=4x4", *SHORT_STUDY,
                     "--set", "traffic.load=0.5", "--set", "router.vc_buffer_flits=4",
                     "--set", "sim.kernel=" + kernel,
                     "--quiet", "--stats", str(path), "--trace", str(trace))
        expect(result.returncode == 0, "%s exited %d: %s" % (kernel, result.returncode,
                                                             result.stderr))
        stats = json.loads(path.read_text())
        expect_fabric_counters(stats, kernel + " kernel")
        expect(any(k.endswith(".credit_stall_cycles") and v > 0
                   for k, v in stats["stats"].items()),
               "%s kernel: no output VC stalled for credit" % kernel)
        counts[kernel] = stats
        by_track, _ = expect_perfetto_trace(trace, kernel + " kernel")
        nodes = {e["pid"]: e["args"]["name"] for e in json.loads(trace.read_text())["traceEvents"]
                 if e["name"] == "process_name"}
        spans[kernel] = sorted((nodes[e["pid"]], round(e["ts"], 6), e["name"])
                               for e in by_track["messages"])
    expect(spans["cycle"] and spans["cycle"] == spans["systemc"],
           "the kernels trace different packets: %d and %d spans"
           % (len(spans["cycle"]), len(spans["systemc"])))
    cycle, systemc = counts["cycle"], counts["systemc"]
    same = [k for k in cycle["stats"]
            if not k.endswith("credit_stall_cycles") and not k.endswith("local.flits_in")]
    differ = [k for k in same if systemc["stats"].get(k) != cycle["stats"][k]]
    expect(not differ, "the kernels count differently: %s" % [
        (k, cycle["stats"][k], systemc["stats"].get(k)) for k in differ[:5]])
    expect(cycle["link"]["directions"] == systemc["link"]["directions"],
           "the kernels' link directions differ")


def NET_8_2_a_router_with_fewer_vcs_than_its_links_keeps_its_credits(lqemu, work, _):
    """A link controller grants room on each of the link's four VCs; a
    router with fewer (three here, two classes and one set) takes only its
    own. It once counted VC 3's credits as the next port's VC 0, sent
    without room and stopped the run, under an all-to-all's load on tlm
    links."""
    for classes, sets in [(3, 1), (2, 1)]:
        result = run(lqemu, "run", *ONE, "--set", "workload.name=alltoall", "--set",
                     "topology.dims=2x2x4", "--set", "link.fidelity=tlm", "--set",
                     "collective.bytes=65536", "--set", "net.vc_classes=%d" % classes,
                     "--set", "net.vc_sets=%d" % sets)
        expect(result.returncode == 0 and "without a credit" not in result.stderr,
               "%d VCs: exited %d: %s" % (classes * sets, result.returncode,
                                          result.stderr[-400:]))


def TRN_9_2_marks_are_counted_at_each_input(lqemu, work, scenarios):
    """Each router's ECN marks (TRN-9.2) are split by the input whose
    queue the packet joined: a node's inputs add up to its total, and the
    totals to what the transport report saw marked."""
    path = work / "incast.json"
    result = run(lqemu, "run", str(scenarios / "incast_4x4x4.yaml"), "--set",
                 "topology.dims=4x4", "--set", "transport.flow_kib=256", "--set",
                 "transport.background_pairs=4", "--set", "transport.senders=6",
                 "--stats", str(path))
    expect(result.returncode == 0, "incast exited %d: %s" % (result.returncode, result.stderr))
    marked = int(re.search(r"ECN: (\d+) marked", result.stdout).group(1))
    totals, by_input = {}, {}
    for name, value in json.loads(path.read_text())["stats"].items():
        if m := re.fullmatch(r"(node\d+)\.flow\.ecn_marked", name):
            totals[m.group(1)] = value
        elif m := re.fullmatch(r"(node\d+)\.flow\.port\d+\.ecn_marked", name):
            by_input[m.group(1)] = by_input.get(m.group(1), 0) + value
    expect(marked > 0 and sum(totals.values()) == marked,
           "routers' marks %d against the report's %d" % (sum(totals.values()), marked))
    expect({n: v for n, v in totals.items() if v} == by_input,
           "marks by input %s against totals %s" % (by_input, totals))


def expect_perfetto_trace(path, what):
    """A Chrome trace-event file as Perfetto reads it: metadata naming
    every process and track, spans and instants on named tracks, times in
    microseconds from 0. Returns {track name: [events]} and the processes."""
    trace = json.loads(path.read_text())
    expect(trace["displayTimeUnit"] == "ns", "%s: times display in ns" % what)
    events = trace["traceEvents"]
    processes = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
    tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
              if e["name"] == "thread_name"}
    by_track = {}
    for e in events:
        if e["ph"] == "M":
            continue
        expect(e["ph"] in ("X", "i") and e["ts"] >= 0 and (e["pid"], e["tid"]) in tracks
               and e["pid"] in processes, "%s: malformed or unnamed event %s" % (what, e))
        expect(e["ph"] == "i" or e["dur"] >= 0, "%s: negative span %s" % (what, e))
        by_track.setdefault(tracks[(e["pid"], e["tid"])], []).append(e)
    return by_track, set(processes.values())


def trace_of_every_run_kind(lqemu, work, scenarios):
    """--trace works for every run kind: nodes as processes, tracks named by
    port, what each node sent as spans (sampled to trace.max_spans, and the
    trace says so), PFC pauses, congestion control's rates, link states on
    tlm links, the fabric manager's steps; trace.start_us and
    trace.length_us keep a window."""
    # The traffic's cards start with trained links (DLL-6.12): only a
    # fault changes a link's state.
    expected = {"network study": ["messages"], "traffic": ["messages"],
                "transport study": ["messages"],
                "collective": ["messages"],
                "failover": ["messages", "failover update", "link port 0"],
                "remote access": ["firmware", "link port 0"], "default phases": ["firmware"]}
    for what, args in RUN_KINDS:
        if what == "default phases":
            args = ["--set", "run.phases=probe"]  # the default run traces its probe
        path = work / (what.replace(" ", "_") + ".trace.json")
        result = run(lqemu, "run", *args, "--trace", str(path))
        expect(result.returncode == 0, "%s exited %d: %s" % (what, result.returncode, result.stderr))
        by_track, processes = expect_perfetto_trace(path, what)
        for track in expected[what]:
            expect(track in by_track, "%s: no %r track among %s" % (what, track, sorted(by_track)))
        expect(processes and all(re.fullmatch(r"node\d+|fabric manager|run", p)
                                 for p in processes),
               "%s: processes named by node: %s" % (what, sorted(processes)[:4]))
    # An incast that pauses: PFC spans on its routers' outputs.
    path = work / "incast.trace.json"
    result = run(lqemu, "run", str(scenarios / "incast_4x4x4.yaml"), "--quiet",
                 "--trace", str(path))
    expect(result.returncode == 0, "incast exited %d: %s" % (result.returncode, result.stderr))
    by_track, _ = expect_perfetto_trace(path, "incast")
    pfc = [t for t in by_track if re.fullmatch(r"port \d+ PFC", t)]
    expect(pfc and all(e["name"] == "paused" for t in pfc for e in by_track[t]),
           "PFC pauses on port tracks: %s" % sorted(by_track))
    expect(len(by_track["messages"]) == 72, "every flow: %d" % len(by_track["messages"]))
    # DCQCN's rate changes: spans of each rate on its QP's track, some cut
    # below the line rate by CNPs.
    rates = [e for t, events in by_track.items() if re.fullmatch(r"QP \d+ rate", t)
             for e in events]
    expect(rates and all(re.fullmatch(r"\d+\.\d Gb/s", e["name"]) for e in rates)
           and min(e["args"]["rate_gbps"] for e in rates) < 944,
           "congestion control's rates: %s" % rates[:3])
    # A window and sampling on a traffic run whose SENDs spread over 20 us.
    path = work / "window.json"
    result = run(lqemu, "run", *ONE, "--set", "topology.dims=4x4", "--set",
                 "traffic.messages_per_node=100", "--set", "traffic.load=0.05",
                 "--trace", str(path), "--set", "trace.start_us=1",
                 "--set", "trace.length_us=2", "--set", "trace.max_spans=50")
    expect(result.returncode == 0, "windowed trace exited %d: %s" % (result.returncode, result.stderr))
    expect(re.search(r"--trace: \d+ events; spans 1 in \d+ of 1600 SENDs", result.stderr),
           "the sampling is said: " + result.stderr)
    by_track, _ = expect_perfetto_trace(path, "window")
    sends = by_track["messages"]
    expect(0 < len(sends) <= 50, "at most trace.max_spans SENDs: %d" % len(sends))
    for e in (e for events in by_track.values() for e in events):
        end = e["ts"] + e.get("dur", 0)
        expect(e["name"].startswith("sampled") or 1 <= e["ts"] and end <= 3.0000001,
               "an event outside the window [1, 3) us: %s" % e)


def steady_state_does_not_depend_on_the_message_count(lqemu, work, _):
    """A traffic run measures the messages posted after a warm-up
    (traffic.warmup_fraction): below saturation its latency does not depend
    on how many messages the run sends; above, the report says the fabric
    is saturated rather than give a figure that only grows."""
    def window(messages, load, fidelity):
        path = work / ("w%d-%s-%s.json" % (messages, load, fidelity))
        result = run(lqemu, "run", *ONE, "--set", "topology.dims=4x4x4", "--set",
                     "link.fidelity=" + fidelity, "--set", "traffic.load=" + load,
                     "--set", "traffic.messages_per_node=%d" % messages,
                     "--stats", str(path))
        expect(result.returncode == 0, "exited %d: %s" % (result.returncode, result.stderr))
        expect("  window     " in result.stdout, "a window line:\n" + result.stdout)
        stats = json.loads(path.read_text())
        return stats["latency_ns"]["mean"], stats["window"]
    for fidelity in ["ideal", "tlm"]:
        short, short_window = window(100, "0.1", fidelity)
        long, long_window = window(400, "0.1", fidelity)
        expect(not short_window["saturated"] and not long_window["saturated"]
               and abs(long - short) < 0.03 * short,
               "%s: 100 messages a card %.1f ns, 400 %.1f ns: %s" % (fidelity, short, long, long_window))
        expect(long_window["warmup_ns"] > 0 and long_window["messages"] < 400 * 64,
               "the warm-up's messages are left out: %s" % long_window)
    _, saturated = window(400, "0.5", "tlm")
    expect(saturated["saturated"]
           and saturated["latency_second_half_ns"] > saturated["latency_first_half_ns"],
           "above saturation the latency grows, and the run says so: %s" % saturated)


def version_names_what_built_it(lqemu, work, _):
    """`lqemu --version` names the version and checkout that built the
    binary, and the SystemC, Verilator and specification versions."""
    result = run(lqemu, "--version")
    expect(result.returncode == 0, "exited %d: %s" % (result.returncode, result.stderr))
    expect(re.fullmatch(r"lqemu \d+\.\d+\.\d+ \([^)]+\)\nSystemC \S+, Verilator \d+\.\d+, "
                        r"protocol specification version \d+\n", result.stdout),
           "the version text: %r" % result.stdout)


def latency_load_draws_a_curve(lqemu, work, scenarios):
    """scripts/latency-load runs a network study at each load and writes a
    CSV and a plot, taking paths relative to where it is run from; a
    scenario that is no network study is refused in one line, exit 2."""
    script = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "latency-load"
    env = dict(os.environ, LQ_BUILD_DIR=str(pathlib.Path(lqemu).resolve().parent))
    here = pathlib.Path(scenarios).resolve()
    result = subprocess.run(
        [str(script), "comparability_4x4x4.yaml", os.path.relpath(work / "curve", here),
         "0.1", "0.2", "--", "--set", "sim.cycles=2000", "--set", "sim.warmup_cycles=500"],
        cwd=here, env=env, capture_output=True, text=True, timeout=600)
    expect(result.returncode == 0, "latency-load failed: " + result.stderr)
    rows = (work / "curve.csv").read_text().splitlines()
    expect(len(rows) == 3 and rows[0].startswith("offered,accepted,latency_mean_cycles"),
           "a header and a row per load: %s" % rows)
    expect((work / "curve.png").stat().st_size > 0, "a plot")
    result = subprocess.run([str(script), "small_torus.yaml", str(work / "no"), "0.1", "--",
                             "--set", "traffic.messages_per_node=10"],
                            cwd=here, env=env, capture_output=True, text=True, timeout=600)
    expect(result.returncode == 2 and "is not a network study" in result.stderr
           and "Traceback" not in result.stderr, "a stack scenario: " + result.stderr)


def plot_draws_the_stats(lqemu, work, scenarios):
    """scripts/plot turns a stats file into PNGs: the latency CDF from the
    percentiles (the 101 of them rising from the minimum to the maximum),
    the failover picture from faults[], the heat map from a tlm run's
    link.directions[], the PFC timeline from a transport study's pauses;
    bad input exits 2."""
    plot = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "plot"
    path = work / "failover.json"
    result = run(lqemu, "run", str(scenarios / "failover_4x4x4.yaml"), "--quiet",
                 "--stats", str(path), "--set", "sim.cycles=20000",
                 "--set", "fault.at_cycles=5000", *QUICK_FM)
    expect(result.returncode == 0, "failover run failed: " + result.stderr)
    latency = json.loads(path.read_text())["latency_ns"]
    percentiles = latency["percentiles"]
    expect(len(percentiles) == 101, "101 percentiles, not %d" % len(percentiles))
    expect(percentiles == sorted(percentiles), "percentiles rise")
    expect(percentiles[50] == latency["p50"] and percentiles[99] == latency["p99"]
           and percentiles[100] == latency["max"], "they agree with p50, p99, max")
    pictures = work / "pictures"
    expect_drawn(plot, path, pictures, ("latency_cdf.png", "failover.png"))
    fabric = work / "fabric.json"
    result = run(lqemu, "run", "--quiet", "--stats", str(fabric), *SMALL)
    expect(result.returncode == 0, "fabric run failed: " + result.stderr)
    expect_drawn(plot, fabric, pictures, ("link_utilisation.png",))
    incast = work / "incast.json"
    result = run(lqemu, "run", str(scenarios / "incast_4x4x4.yaml"), "--quiet",
                 "--stats", str(incast), "--set", "transport.cc=none",
                 "--set", "transport.flow_kib=64", "--set", "transport.background_pairs=0")
    expect(result.returncode == 0, "incast run failed: " + result.stderr)
    transport = json.loads(incast.read_text())["transport"]
    pauses = transport["pauses"]
    expect(pauses and all(p["end_ns"] >= p["start_ns"] for p in pauses),
           "an incast with PFC alone pauses: %d" % len(pauses))
    paused_us = sum(p["end_ns"] - p["start_ns"] for p in pauses) / 1e3
    expect(abs(paused_us - transport["pause_us"]) < 1e-6 * max(1, paused_us),
           "the pauses add up to pause_us: %f, %f" % (paused_us, transport["pause_us"]))
    expect_drawn(plot, incast, pictures, ("pfc_timeline.png",))
    (work / "broken.json").write_text("{ not json")
    for bad in (work / "broken.json", work / "missing.json"):
        refused = subprocess.run(["/usr/bin/python3", str(plot), str(bad), str(pictures)],
                                 capture_output=True, text=True, timeout=120)
        expect(refused.returncode == 2 and refused.stderr.startswith("plot: "),
               "%s: exit %d, %r" % (bad.name, refused.returncode, refused.stderr))


def main():
    case, lqemu, work, scenarios = sys.argv[1:5]
    work = pathlib.Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        globals()[case](lqemu, work, pathlib.Path(scenarios))
    except AssertionError as error:
        print("FAILED %s: %s" % (case, error))
        return 1
    print("passed " + case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
