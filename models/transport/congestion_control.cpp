// SPDX-License-Identifier: Apache-2.0
// The congestion-control registry: one entry per name, each a factory that
// checks its parameters, and the "none" control that neither paces nor
// windows.
#include "models/transport/congestion_control.h"

#include <array>
#include <cmath>
#include <initializer_list>

#include "models/transport/dcqcn.h"
#include "models/transport/lqcc.h"

namespace lq::transport {
namespace {

using ControlResult = Result<std::unique_ptr<CongestionControl>>;

// No congestion control: the QP sends at line rate whenever it can.
class NoCongestionControl final : public CongestionControl {
 public:
  explicit NoCongestionControl(double line_rate_bps)
      : line_rate_bps_(line_rate_bps) {}

  const char* name() const override { return "none"; }
  uint64_t next_send_ps() const override { return 0; }
  bool WindowAllows(uint64_t) const override { return true; }
  bool OnSent(uint64_t, uint64_t, std::optional<SentRequest>) override {
    return false;
  }
  void OnAcknowledged(uint64_t, uint32_t, bool) override {}
  void OnRewind(uint32_t) override {}
  void OnCnp(uint64_t) override {}
  void Advance(uint64_t) override {}
  std::optional<uint64_t> next_timer_ps() const override {
    return std::nullopt;
  }
  std::optional<uint64_t> cnp_interval_ps() const override {
    return std::nullopt;
  }
  bool marks_return_as_becn() const override { return false; }
  double rate_bps() const override { return line_rate_bps_; }

 private:
  double line_rate_bps_;
};

// A parameter check: whether it holds, and what to say when it does not.
struct Check {
  bool holds;
  const char* complaint;
};

// The complaint of the first check that does not hold, if any.
std::optional<Error> FirstFailure(std::initializer_list<Check> checks) {
  for (const Check& check : checks) {
    if (!check.holds) {
      return Fail(check.complaint);
    }
  }
  return std::nullopt;
}

// g lies in (0, 1]; written so that NaN fails too.
bool IsGain(double g) { return g > 0 && g <= 1; }

ControlResult MakeNone(const CongestionParams& params) {
  return std::unique_ptr<CongestionControl>(
      std::make_unique<NoCongestionControl>(params.line_rate_bps));
}

ControlResult MakeDcqcn(const CongestionParams& params) {
  const DcqcnParams& d = params.dcqcn;  // TRN-10.5
  if (std::optional<Error> failure = FirstFailure({
          {IsGain(d.g), "dcqcn.g must lie in (0, 1]"},
          {d.alpha_timer_ps > 0, "dcqcn.alpha_timer_ps (K) must be positive"},
          {d.increase_timer_ps > 0,
           "dcqcn.increase_timer_ps (T_inc) must be positive"},
          {d.byte_counter > 0, "dcqcn.byte_counter (B) must be positive"},
          {d.ai_fraction > 0, "dcqcn.ai_fraction (R_AI) must be positive"},
          {d.hai_fraction > 0, "dcqcn.hai_fraction (R_HAI) must be positive"},
          {d.min_rate_bps > 0, "dcqcn.min_rate_bps (R_min) must be positive"},
          {d.min_rate_bps <= params.line_rate_bps,
           "dcqcn.min_rate_bps (R_min) must not exceed line_rate_bps"},
          {d.initial_alpha >= 0 && d.initial_alpha <= 1,
           "dcqcn.initial_alpha must lie in [0, 1]"},
          {d.cnp_interval_ps > 0, "dcqcn.cnp_interval_ps (N) must be positive"},
      })) {
    return *failure;
  }
  return std::unique_ptr<CongestionControl>(
      std::make_unique<Dcqcn>(params.line_rate_bps, d));
}

ControlResult MakeLqcc(const CongestionParams& params) {
  const LqccParams& l = params.lqcc;  // TRN-11.8
  if (std::optional<Error> failure = FirstFailure({
          {l.round_ps > 0, "lqcc.round_ps (T_r) must be positive"},
          {IsGain(l.g), "lqcc.g must lie in (0, 1]"},
          {l.min_window_bytes > 0,
           "lqcc.min_window_bytes (W_min) must be positive"},
          {l.min_window_bytes <= l.max_window_bytes,
           "lqcc.min_window_bytes (W_min) must not exceed "
           "lqcc.max_window_bytes (W_max)"},
          {l.ramp_ps > 0, "lqcc.ramp_ps (T_ramp) must be positive"},
      })) {
    return *failure;
  }
  return std::unique_ptr<CongestionControl>(
      std::make_unique<Lqcc>(params.line_rate_bps, l));
}

struct Entry {
  const char* name;
  ControlResult (*make)(const CongestionParams& params);
};

constexpr std::array<Entry, 3> kControls{{
    {"none", &MakeNone},
    {"dcqcn", &MakeDcqcn},
    {"lqcc", &MakeLqcc},
}};

const Entry* FindControl(const std::string& name) {
  for (const Entry& entry : kControls) {
    if (name == entry.name) {
      return &entry;
    }
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> CongestionControlNames() {
  std::vector<std::string> names;
  for (const Entry& entry : kControls) {
    names.emplace_back(entry.name);
  }
  return names;
}

Result<std::unique_ptr<CongestionControl>> CreateCongestionControl(
    const std::string& name, const CongestionParams& params) {
  const Entry* control = FindControl(name);
  if (control == nullptr) {
    std::string known;
    for (const std::string& known_name : CongestionControlNames()) {
      known += known.empty() ? "" : ", ";
      known += known_name;
    }
    return Fail("unknown congestion control '" + name + "' (known: " + known +
                ")");
  }
  // TRN-10.1: every control paces or windows against R.
  if (!(std::isfinite(params.line_rate_bps) && params.line_rate_bps > 0)) {
    return Fail("line_rate_bps (R) must be positive and finite");
  }
  return control->make(params);
}

}  // namespace lq::transport
