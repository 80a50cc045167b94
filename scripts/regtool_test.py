#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Unit tests of scripts/regtool: every validation rule rejects a small bad
description with a message naming the place and the fix, and a good description
produces all four outputs."""

import contextlib
import copy
import importlib.machinery
import importlib.util
import io
import json
import tempfile
import unittest
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
LC_DESCRIPTION = SCRIPTS.parent / "rtl" / "regs" / "lc.regs.json"


def load_regtool():
    # The tool has no .py suffix (it is run as a command), so load it by path.
    loader = importlib.machinery.SourceFileLoader("regtool", str(SCRIPTS / "regtool"))
    spec = importlib.util.spec_from_loader("regtool", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


regtool = load_regtool()

GOOD = {
    "block": "tb",
    "title": "Test block",
    "desc": "A block small enough to read in a test.",
    "size": "0x100",
    "enums": {
        "mode": {
            "desc": "Operating mode.",
            "values": [
                {"name": "OFF", "value": 0, "desc": "Off."},
                {"name": "ON", "value": 1, "desc": "On."},
                {"name": "TEST", "value": 2, "desc": "Test."},
            ],
        }
    },
    "registers": [
        {
            "name": "CTRL", "offset": "0x0", "desc": "Control.",
            "fields": [
                {"name": "A", "lsb": 0, "access": "RW", "reset": 1, "desc": "Flag."},
                {"name": "B", "lsb": 4, "width": 2, "access": "RW", "enum": "mode",
                 "reset": 2, "desc": "Mode."},
                {"name": "GO", "lsb": 8, "access": "W1S", "desc": "Pulse."},
            ],
        },
        {
            "name": "IRQ", "offset": "0x4", "desc": "Causes.",
            "fields": [{"name": "DONE", "lsb": 0, "access": "W1C", "desc": "Done."}],
        },
        {
            "name": "VAL", "offset": "0x10", "desc": "Per-lane values.",
            "array": {"count": 2, "stride": 4, "index": "LANE"},
            "fields": [{"name": "V", "lsb": 0, "width": 32, "access": "RO",
                        "desc": "Value."}],
        },
    ],
}


class RegtoolCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, doc, name="tb.regs.json"):
        path = self.dir / name
        text = doc if isinstance(doc, str) else json.dumps(doc)
        path.write_text(text, encoding="utf-8")
        return path

    def run_tool(self, *args):
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            status = regtool.main([str(a) for a in args])
        return status, stderr.getvalue()

    def problems(self, doc):
        """The one-line messages regtool gives for a description."""
        path = self.write(doc)
        with self.assertRaises(regtool.DescriptionError, msg="bad description accepted") as caught:
            regtool.load_description(path)
        return caught.exception.args[0]

    def assertRejected(self, doc, *fragments):
        """Exactly one problem is reported and it names every fragment."""
        messages = self.problems(doc)
        self.assertEqual(len(messages), 1, f"expected one problem, got {messages}")
        message = messages[0]
        self.assertTrue(message.startswith(str(self.dir / "tb.regs.json") + ": "),
                        f"message must start with the file: {message}")
        self.assertNotIn("\n", message, "each problem must be one line")
        self.assertIn("; ", message, f"message must end with the fix: {message}")
        for fragment in fragments:
            self.assertIn(fragment, message)


def good():
    return copy.deepcopy(GOOD)


class ValidationTest(RegtoolCase):
    def test_good_description_loads(self):
        block = regtool.load_description(self.write(good()))
        self.assertEqual([r.name for r in block.registers], ["CTRL", "IRQ", "VAL"])
        self.assertEqual(block.registers[0].reset, 0x21, "reset is the OR of field resets")

    def test_rejects_duplicate_register_name(self):
        doc = good()
        doc["registers"][1]["name"] = "CTRL"
        self.assertRejected(doc, "register CTRL", "duplicate register name")

    def test_rejects_array_instance_named_like_a_register(self):
        doc = good()
        doc["registers"][1]["name"] = "VAL_LANE1"
        self.assertRejected(doc, "register VAL_LANE1", "duplicate register name")

    def test_rejects_duplicate_field_name(self):
        doc = good()
        doc["registers"][0]["fields"][1]["name"] = "A"
        self.assertRejected(doc, "register CTRL field A", "duplicate field name")

    def test_rejects_overlapping_fields(self):
        doc = good()
        doc["registers"][0]["fields"][1]["lsb"] = 0
        self.assertRejected(doc, "register CTRL field B", "overlap field A", "move one")

    def test_rejects_field_outside_32_bits(self):
        doc = good()
        doc["registers"][0]["fields"][1]["lsb"] = 31
        self.assertRejected(doc, "register CTRL field B", "bits 32:31",
                            "outside the 32-bit register")

    def test_rejects_zero_width_field(self):
        doc = good()
        doc["registers"][0]["fields"][0]["width"] = 0
        self.assertRejected(doc, "register CTRL field A", "width 0")

    def test_rejects_unaligned_offset(self):
        doc = good()
        doc["registers"][1]["offset"] = "0x6"
        messages = self.problems(doc)
        self.assertIn("register IRQ: offset 0x6 is not 4-byte aligned", messages[0])

    def test_rejects_overlapping_offsets(self):
        doc = good()
        doc["registers"][1]["offset"] = "0x0"
        self.assertRejected(doc, "register IRQ", "offset 0x0 overlaps register CTRL")

    def test_rejects_register_overlapping_an_array_instance(self):
        doc = good()
        doc["registers"][1]["offset"] = "0x14"
        self.assertRejected(doc, "offset 0x14 overlaps register IRQ")

    def test_rejects_offset_outside_block(self):
        doc = good()
        doc["registers"][1]["offset"] = "0x100"
        self.assertRejected(doc, "register IRQ", "outside the 0x100-byte block",
                            "grow \"size\"")

    def test_rejects_array_running_past_block(self):
        doc = good()
        doc["registers"][2]["offset"] = "0xfc"
        self.assertRejected(doc, "register VAL_LANE1", "offset 0x100 lies outside")

    def test_rejects_bad_array_stride(self):
        doc = good()
        doc["registers"][2]["array"]["stride"] = 6
        self.assertRejected(doc, "register VAL array", "stride 6")

    def test_rejects_reset_wider_than_field(self):
        doc = good()
        doc["registers"][0]["fields"][0]["reset"] = 2
        self.assertRejected(doc, "register CTRL field A", "reset 0x2 does not fit in 1 bits")

    def test_rejects_pulse_field_with_reset(self):
        doc = good()
        doc["registers"][0]["fields"][2]["reset"] = 1
        self.assertRejected(doc, "register CTRL field GO", "W1S", "reset must be 0")

    def test_rejects_unknown_access_policy(self):
        doc = good()
        doc["registers"][0]["fields"][0]["access"] = "R/W"
        self.assertRejected(doc, "register CTRL field A", "unknown access policy \"R/W\"",
                            "RO, RW, W1C, W1S, RC")

    def test_rejects_enum_value_not_fitting_field(self):
        doc = good()
        doc["enums"]["mode"]["values"][1]["value"] = 4
        self.assertRejected(doc, "enum mode value ON", "value 4 does not fit in the 2-bit")

    def test_rejects_enum_reset_that_is_no_member(self):
        doc = good()
        doc["registers"][0]["fields"][1]["reset"] = 3
        self.assertRejected(doc, "register CTRL field B", "reset 3 is not a value of enum mode")

    def test_rejects_unknown_enum(self):
        doc = good()
        doc["registers"][0]["fields"][1]["enum"] = "mood"
        self.assertRejected(doc, "register CTRL field B", "unknown enum \"mood\"")

    def test_rejects_unused_enum(self):
        doc = good()
        doc["enums"]["spare"] = {"desc": "Nobody uses it.",
                                 "values": [{"name": "X", "value": 0, "desc": "X."}]}
        self.assertRejected(doc, "enum spare", "no field uses this enum")

    def test_rejects_enum_used_by_fields_of_different_widths(self):
        doc = good()
        doc["registers"][1]["fields"].append(
            {"name": "MODE", "lsb": 4, "width": 3, "access": "RO", "enum": "mode",
             "desc": "Mode."})
        self.assertRejected(doc, "enum mode", "different widths", "CTRL.B=2", "IRQ.MODE=3")

    def test_rejects_duplicate_enum_value(self):
        doc = good()
        doc["enums"]["mode"]["values"][2]["value"] = 1
        self.assertRejected(doc, "enum mode value TEST", "value 1 is already used by ON")

    def test_rejects_misspelt_key_with_suggestion(self):
        doc = good()
        doc["registers"][0]["fields"][1]["widht"] = doc["registers"][0]["fields"][1].pop("width")
        self.assertRejected(doc, "register CTRL field B", "unknown key 'widht'",
                            "did you mean 'width'?")

    def test_rejects_unknown_top_level_key(self):
        doc = good()
        doc["version"] = 2
        self.assertRejected(doc, "top level", "unknown key 'version'")

    def test_rejects_missing_key(self):
        doc = good()
        del doc["registers"][1]["desc"]
        self.assertRejected(doc, "register IRQ", "missing key 'desc'")

    def test_rejects_duplicate_json_key(self):
        text = json.dumps(good()).replace('"title": "Test block"',
                                          '"title": "Test block", "title": "Again"')
        messages = self.problems(text)
        self.assertEqual(len(messages), 1)
        self.assertIn("duplicate key 'title'", messages[0])

    def test_rejects_json_syntax_error_with_position(self):
        messages = self.problems('{"block": "tb",\n "title": }')
        self.assertIn("line 2 column", messages[0])
        self.assertIn("fix the JSON syntax", messages[0])

    def test_rejects_boolean_used_as_number(self):
        doc = good()
        doc["registers"][0]["fields"][0]["reset"] = True
        self.assertRejected(doc, "register CTRL field A", "reset true is not a non-negative integer")

    def test_rejects_size_not_power_of_two(self):
        doc = good()
        doc["size"] = 300
        self.assertRejected(doc, "top level", "size 0x12c is not a power of two")

    def test_rejects_lower_case_register_name(self):
        doc = good()
        doc["registers"][1]["name"] = "irq"
        self.assertRejected(doc, "register irq", "is not a valid name")

    def test_rejects_colliding_generated_names(self):
        # CTRL field B_X and CTRL_B field X would both make TB_CTRL_B_X_MASK.
        doc = good()
        doc["registers"][0]["fields"].append(
            {"name": "B_X", "lsb": 12, "access": "RO", "desc": "Clash."})
        doc["registers"][1]["name"] = "CTRL_B"
        doc["registers"][1]["fields"][0]["name"] = "X"
        messages = self.problems(doc)
        self.assertTrue(any("generated name TB_CTRL_B_X_" in m and "rename one" in m
                            for m in messages), messages)

    def test_rejects_systemverilog_keyword_field(self):
        doc = good()
        doc["registers"][1]["fields"][0]["name"] = "LOGIC"
        self.assertRejected(doc, "register IRQ field LOGIC", "SystemVerilog keyword")

    def test_rejects_systemverilog_builtin_class_field(self):
        # Not keywords, but Verilator parses them as type names (std::mailbox).
        for name in ("MAILBOX", "SEMAPHORE", "PROCESS"):
            doc = good()
            doc["registers"][1]["fields"][0]["name"] = name
            self.assertRejected(doc, f"register IRQ field {name}",
                                "SystemVerilog keyword")

    def test_reports_every_problem_not_just_the_first(self):
        doc = good()
        doc["registers"][0]["fields"][0]["access"] = "XX"
        doc["registers"][1]["fields"][0]["lsb"] = 40
        self.assertEqual(len(self.problems(doc)), 2)

    def test_link_controller_description_is_valid(self):
        block = regtool.load_description(LC_DESCRIPTION)
        self.assertEqual(block.name, "lc")


class GenerationTest(RegtoolCase):
    def generate_all(self, description):
        dirs = {fmt: self.dir / fmt for fmt in regtool.FORMATS}
        args = []
        for fmt, directory in dirs.items():
            args += [f"--{fmt}-dir", directory]
        status, stderr = self.run_tool(*args, description)
        self.assertEqual(status, 0, stderr)
        return {fmt: (directory / regtool.FORMATS[fmt][0].format("tb")).read_text()
                for fmt, directory in dirs.items()}

    def test_good_description_generates_all_four_outputs(self):
        outputs = self.generate_all(self.write(good()))
        for fmt, text in outputs.items():
            first = text.splitlines()[0]
            self.assertIn("Generated by scripts/regtool", first, fmt)
            self.assertIn("tb.regs.json", first, f"{fmt} must name its description")
            self.assertIn("do not edit", first, fmt)
        self.assertIn("package tb_reg_pkg;", outputs["sv"])
        self.assertIn("localparam logic [7:0] TB_CTRL_OFFSET = 8'h000;", outputs["sv"])
        self.assertIn("} tb_mode_e;", outputs["sv"])
        self.assertIn("#define TB_CTRL_B_MASK 0x00000030u", outputs["c"])
        self.assertIn("#define TB_VAL_LANE_OFFSET(n)", outputs["c"])
        self.assertIn("namespace lq::regs::tb {", outputs["cpp"])
        self.assertIn('{"VAL_LANE1", 0x014, 0x00000000', outputs["cpp"])
        self.assertIn("| 5:4 | B | RW | 0x2 (TEST) |", outputs["md"])

    def test_struct_lists_fields_and_reserved_gaps_from_bit_31_down(self):
        sv = regtool.generate_sv(regtool.load_description(self.write(good())))
        struct = sv[sv.index("typedef struct packed {", sv.index("TB_CTRL_OFFSET")):]
        members = [line.split()[-1].rstrip(";") for line in
                   struct[:struct.index("} tb_ctrl_reg_t;")].splitlines()[1:]
                   if line.strip()]
        self.assertEqual(members, ["reserved_31_9", "go", "reserved_7_6", "b",
                                   "reserved_3_1", "a"])

    def test_firmware_setters_exist_only_for_writable_fields(self):
        c = regtool.generate_c(regtool.load_description(self.write(good())))
        self.assertIn("tb_ctrl_a_set(", c)
        self.assertIn("tb_irq_done_set(", c, "W1C bits are written to clear them")
        self.assertNotIn("tb_val_v_set(", c, "a read-only field has nothing to set")

    def test_firmware_names_every_enum_value(self):
        description = regtool.load_description(self.write(good()))
        c = regtool.generate_c(description)
        for enum in description.enums.values():
            self.assertIn(f"static inline const char *tb_{enum.name}_name(", c)
            for v in enum.values:
                self.assertIn(f"case TB_{enum.name.upper()}_{v.name}: "
                              f"return \"{v.name}\";", c)

    def test_output_does_not_depend_on_the_working_directory_path(self):
        # The committed docs are compared byte for byte, so the source path
        # printed in them must be repository-relative for repo files.
        block = regtool.load_description(LC_DESCRIPTION)
        self.assertEqual(block.source, "rtl/regs/lc.regs.json")

    def test_check_passes_when_up_to_date_and_fails_with_the_fix_otherwise(self):
        description = self.write(good())
        status, _ = self.run_tool("--md-dir", self.dir / "md", description)
        self.assertEqual(status, 0)
        status, stderr = self.run_tool("--check", "--md-dir", self.dir / "md", description)
        self.assertEqual((status, stderr), (0, ""), "fresh output must pass --check")
        (self.dir / "md" / "tb.md").write_text("edited by hand\n")
        status, stderr = self.run_tool("--check", "--md-dir", self.dir / "md", description)
        self.assertEqual(status, 1, "a stale file must fail --check")
        self.assertIn("is out of date", stderr)
        self.assertIn("regenerate it: scripts/regtool --md-dir", stderr)
        self.assertEqual((self.dir / "md" / "tb.md").read_text(), "edited by hand\n",
                         "--check must not write")

    def test_check_fails_when_output_is_missing(self):
        status, stderr = self.run_tool("--check", "--md-dir", self.dir / "none",
                                       self.write(good()))
        self.assertEqual(status, 1)
        self.assertIn("out of date", stderr)

    def test_bad_description_exits_2_with_one_line_per_problem(self):
        doc = good()
        doc["registers"][0]["fields"][0]["access"] = "XX"
        doc["registers"][1]["fields"][0]["lsb"] = 40
        status, stderr = self.run_tool("--md-dir", self.dir / "md", self.write(doc))
        self.assertEqual(status, 2)
        self.assertEqual(len(stderr.strip().splitlines()), 2, stderr)
        self.assertFalse((self.dir / "md").exists(), "a bad description must write nothing")


if __name__ == "__main__":
    unittest.main()
