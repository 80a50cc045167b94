#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest driver of `lqemu conformance`.

check_conformance.py LQEMU WORKDIR passes DUT      every point passes; the
                                                   JUnit and Markdown reports
                                                   agree with the table
check_conformance.py LQEMU WORKDIR catches MUTANT  the suite fails the DUT
                                                   with the mutant, at the
                                                   clauses it breaks
check_conformance.py LQEMU WORKDIR catches-own MUTANT
                                                   the same for `--dut own`
                                                   built from the mutant's
                                                   RTL file
check_conformance.py LQEMU WORKDIR bad-input DUT   bad arguments exit 2
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

# The points each mutant must fail: the clauses it breaks.
MUTANT_CATCHES = {
    "ignores-nak": {"DLL-4.3/a", "DLL-4.4/a"},
    "overdraws-credit": {"DLL-5.3/a"},
    "stale-watermark": {"DLL-2.4/a"},
    "skips-a-number": {"DLL-2.1/a"},
    "lazy-acks": {"DLL-3.9/a", "DLL-3.4/a"},
    "one-credit-vc": {"DLL-5.5/a"},
    "trn-ignores-nak": {"TRN-7.3/a"},
    "trn-accepts-bad-icrc": {"TRN-3.4/a"},
    "trn-skips-a-psn": {"TRN-6.4/a"},
    "trn-never-asks-for-acks": {"TRN-6.7/a"},
    "trn-ignores-cnps": {"TRN-10.2/a"},
    "trn-ignores-pause": {"TRN-8.6/a", "TRN-8.7/a", "TRN-8.10/b"},
    "trn-late-xoff": {"TRN-8.4/a", "TRN-8.5/a"},
    "trn-marks-as-lqcc": {"TRN-9.2/a", "TRN-9.3/c"},
    "net-forgets-hops": {"NET-2.4/a"},
    "log-drops-inval-acks": {"LOG-6.8/a"},
    "log-misnames-requester": {"LOG-6.1/a", "LOG-6.10/a"},
}


def run(lqemu, *args):
    result = subprocess.run([lqemu, "conformance", "--quiet", *args],
                            capture_output=True, text=True, timeout=550)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    return result


def junit_verdicts(path):
    verdicts = {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        point = case.get("name").split(" ")[0]
        if case.find("failure") is not None:
            verdicts[point] = "fail"
        elif case.find("error") is not None:
            verdicts[point] = "error"
        else:
            verdicts[point] = "pass"
    return verdicts


SOURCE_DIR = os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def table_rows(markdown):
    """(clause, point, checks, verdict) of each row of a Markdown report;
    the evidence column may change with timing and is left out."""
    rows = []
    with open(markdown) as file:
        for line in file:
            cells = [cell.strip() for cell in line.split("|")[1:-1]]
            if len(cells) == 5 and cells[0][:4] in ("PHY-", "DLL-", "NET-",
                                                    "TRN-", "LOG-"):
                rows.append(tuple(cells[:4]))
    return rows


def fail(message):
    print("check_conformance: " + message)
    sys.exit(1)


def passes(lqemu, workdir, dut):
    junit = os.path.join(workdir, dut + ".xml")
    markdown = os.path.join(workdir, dut + ".md")
    result = run(lqemu, "--dut", dut, "--junit", junit, "--markdown", markdown)
    if result.returncode != 0:
        fail("DUT %s: exit %d, expected 0" % (dut, result.returncode))
    verdicts = junit_verdicts(junit)
    if not verdicts or set(verdicts.values()) != {"pass"}:
        fail("JUnit report of %s: %s" % (dut, verdicts))
    rows = table_rows(markdown)
    if len(rows) != len(verdicts):
        fail("Markdown has %d rows for %d points" % (len(rows), len(verdicts)))
    # The report in docs/ must show the same points, checks and verdicts.
    published = os.path.join(SOURCE_DIR, "docs", "conformance",
                             "report-%s.md" % dut)
    if os.path.exists(published) and table_rows(published) != rows:
        fail("%s is stale: regenerate it with `lqemu conformance --dut %s "
             "--markdown %s`" % (published, dut, published))


def expect_caught(lqemu, workdir, mutant, name, args):
    """The suite run with `args` fails, at least at the points `mutant`
    breaks."""
    junit = os.path.join(workdir, name + ".xml")
    result = run(lqemu, *args, "--junit", junit)
    if result.returncode != 1:
        fail("%s: exit %d, expected 1" % (name, result.returncode))
    failed = {p for p, v in junit_verdicts(junit).items() if v == "fail"}
    missed = MUTANT_CATCHES[mutant] - failed
    if missed:
        fail("%s passed %s" % (name, sorted(missed)))


def catches(lqemu, workdir, mutant):
    expect_caught(lqemu, workdir, mutant, "mutant-" + mutant,
                  ["--dut", "tlm", "--mutant", mutant])


def catches_own(lqemu, workdir, mutant):
    """`--dut own`, built from the mutant's RTL file (-DLQ_DUT_RTL)."""
    expect_caught(lqemu, workdir, mutant, "own-" + mutant, ["--dut", "own"])


def bad_input(lqemu, workdir, dut):
    for args, needle in ((["--dut", "nonesuch"], "no such DUT"),
                         (["--dut", dut, "--mutant", "nonesuch"],
                          "no such mutant"),
                         (["--dut", dut, "--filter", "NOPE-*"],
                          "selects no test point"),
                         (["--dut", dut, "--junit",
                           os.path.join(workdir, "no-such-dir", "x.xml")],
                          "cannot write")):
        result = run(lqemu, *args)
        if result.returncode != 2 or needle not in result.stderr:
            fail("%s: exit %d, stderr %r" % (args, result.returncode,
                                               result.stderr))


def main():
    lqemu, workdir, mode, what = sys.argv[1:5]
    os.makedirs(workdir, exist_ok=True)
    {"passes": passes, "catches": catches, "catches-own": catches_own,
     "bad-input": bad_input}[mode](
        lqemu, workdir, what)
    print("check_conformance: %s %s ok" % (mode, what))


if __name__ == "__main__":
    main()
