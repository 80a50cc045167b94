// SPDX-License-Identifier: Apache-2.0
// Reading the test plan.
#include "systemc/conformance/test_plan.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <regex>
#include <set>
#include <stdexcept>

namespace lq::conformance {

namespace {

std::string Where(const std::string& source, const YAML::Node& node) {
  return source + ":" + std::to_string(node.Mark().line + 1);
}

const std::set<std::string> kLayers = {"phy", "dll", "net", "trn", "log"};

// The plan from parsed YAML; yaml-cpp throws on a node of the wrong kind.
Result<TestPlan> ParseNodes(const YAML::Node& root, const std::string& source);

Result<std::string> Text(const YAML::Node& entry, const char* key,
                         const std::string& source) {
  const YAML::Node value = entry[key];
  if (!value || !value.IsScalar() || value.as<std::string>().empty()) {
    return Fail(Where(source, entry) + ": test point needs '" + key + "'");
  }
  return value.as<std::string>();
}

}  // namespace

Result<TestPlan> ParseTestPlan(const std::string& yaml,
                               const std::string& source) {
  try {
    return ParseNodes(YAML::Load(yaml), source);
  } catch (const YAML::Exception& error) {
    return Fail(source + ":" + std::to_string(error.mark.line + 1) + ": " +
                error.msg);
  }
}

namespace {

Result<TestPlan> ParseNodes(const YAML::Node& root, const std::string& source) {
  TestPlan plan;
  const std::regex clause_id("(PHY|DLL|NET|TRN|LOG)-[0-9]+\\.[0-9]+");
  const std::regex point_id("((PHY|DLL|NET|TRN|LOG)-[0-9]+\\.[0-9]+)/[a-z]");
  const YAML::Node chapters = root["complete_chapters"];
  if (chapters && !chapters.IsSequence()) {
    return Fail(Where(source, chapters) +
                ": complete_chapters must be a list ([DLL, TRN])");
  }
  for (const auto& chapter : chapters) {
    plan.complete_chapters.push_back(chapter.as<std::string>());
  }
  const YAML::Node points = root["points"];
  if (!points || !points.IsSequence()) {
    return Fail(source + ":1: the plan needs a list 'points'");
  }
  std::set<std::string> ids;
  for (const YAML::Node& entry : points) {
    if (!entry.IsMap()) {
      return Fail(Where(source, entry) + ": a test point is a map of keys");
    }
    std::map<std::string, std::string> text;
    for (const char* key : {"id", "clause", "layer", "requirement", "checks",
                            "stimulus", "test"}) {
      Result<std::string> value = Text(entry, key, source);
      if (!value) {
        return value.error();
      }
      text[key] = *value;
    }
    const std::string& requirement = text["requirement"];
    if (requirement != "mandatory" && requirement != "optional") {
      return Fail(Where(source, entry) + ": requirement '" + requirement +
                  "' is neither mandatory nor optional");
    }
    TestPoint point;
    point.id = text["id"];
    point.clause = text["clause"];
    point.layer = text["layer"];
    point.mandatory = requirement == "mandatory";
    point.checks = text["checks"];
    point.stimulus = text["stimulus"];
    point.test = text["test"];
    std::smatch match;
    if (!std::regex_match(point.id, match, point_id) ||
        match[1].str() != point.clause) {
      return Fail(Where(source, entry) + ": id '" + point.id +
                  "' is not the clause '" + point.clause +
                  "' and a letter (DLL-3.5/a)");
    }
    if (!std::regex_match(point.clause, clause_id)) {
      return Fail(Where(source, entry) + ": '" + point.clause +
                  "' is not a clause ID");
    }
    if (kLayers.count(point.layer) == 0) {
      return Fail(Where(source, entry) + ": unknown layer '" + point.layer +
                  "'");
    }
    if (!ids.insert(point.id).second) {
      return Fail(Where(source, entry) + ": test point '" + point.id +
                  "' is listed twice");
    }
    plan.points.push_back(point);
  }
  return plan;
}

}  // namespace

const TestPlan& BuiltInTestPlan() {
  static const TestPlan plan = [] {
    Result<TestPlan> parsed =
        ParseTestPlan(kConformancePlanYaml, "systemc/conformance/plan.yaml");
    if (!parsed) {
      throw std::logic_error("built-in test plan: " + parsed.error().reason);
    }
    return *parsed;
  }();
  return plan;
}

}  // namespace lq::conformance
