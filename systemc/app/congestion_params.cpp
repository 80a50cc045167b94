// SPDX-License-Identifier: Apache-2.0
// The dcqcn.* and lqcc.* keys, read into CongestionParams.
#include "systemc/app/congestion_params.h"

#include <cstdint>
#include <cstdio>

namespace lq::app {
namespace {

constexpr double kPsPerNs = 1000;

// A default as the scenario would write it: whole numbers as integers,
// fractions without rounding (1/256 is 0.00390625).
std::string Text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}
std::string NsText(uint64_t ps) { return Text(ps / kPsPerNs); }

uint64_t Ps(const ParamSet& params, const std::string& key) {
  return static_cast<uint64_t>(params.Integer(key)) *
         static_cast<uint64_t>(kPsPerNs);
}

}  // namespace

std::vector<ParamSpec> CongestionParamSpecs() {
  const transport::DcqcnParams d;
  const transport::LqccParams l;
  constexpr double kLong = 1e12;  // ns: far beyond any run
  return {
      RealParam("dcqcn.g", "DCQCN gain of alpha (TRN-10.5)", Text(d.g), "",
                1e-9, 1),
      IntegerParam("dcqcn.alpha_timer_ns", "DCQCN alpha timer K",
                   NsText(d.alpha_timer_ps), "ns", 1, kLong),
      IntegerParam("dcqcn.increase_timer_ns", "DCQCN increase timer T_inc",
                   NsText(d.increase_timer_ps), "ns", 1, kLong),
      IntegerParam("dcqcn.byte_counter_bytes", "DCQCN byte counter B",
                   Text(d.byte_counter), "bytes", 1, 1e15),
      IntegerParam("dcqcn.fast_recovery_steps", "DCQCN fast-recovery steps F",
                   Text(d.fast_recovery_steps), "", 1, 1000),
      RealParam("dcqcn.ai_fraction", "DCQCN R_AI as a share of the line rate",
                Text(d.ai_fraction), "", 1e-9, 1),
      RealParam("dcqcn.hai_fraction", "DCQCN R_HAI as a share of the line rate",
                Text(d.hai_fraction), "", 1e-9, 1),
      RealParam("dcqcn.min_rate_bps", "DCQCN minimum rate R_min",
                Text(d.min_rate_bps), "bit/s", 1, 1e13),
      RealParam("dcqcn.initial_alpha", "DCQCN alpha at start",
                Text(d.initial_alpha), "", 0, 1),
      IntegerParam("dcqcn.cnp_interval_ns",
                   "least time between CNPs for one flow, N (TRN-9.5)",
                   NsText(d.cnp_interval_ps), "ns", 1, kLong),
      IntegerParam("lqcc.round_ns", "LQCC round T_r (TRN-11.8)",
                   NsText(l.round_ps), "ns", 1, kLong),
      IntegerParam("lqcc.max_window_bytes", "LQCC W_max, also W at start",
                   Text(l.max_window_bytes), "bytes", 1, 1 << 30),
      IntegerParam("lqcc.min_window_bytes", "LQCC W_min",
                   Text(l.min_window_bytes), "bytes", 1, 1 << 30),
      RealParam("lqcc.g", "LQCC gain of alpha", Text(l.g), "", 1e-9, 1),
      IntegerParam("lqcc.ramp_ns",
                   "LQCC T_ramp, time unmarked ACKs take to regain line rate "
                   "(TRN-11.9)",
                   NsText(l.ramp_ps), "ns", 1, kLong),
  };
}

void UseCongestionKeys(const std::string& cc, KeyUsage& usage) {
  for (const ParamSpec& spec : CongestionParamSpecs()) {
    const std::string control = spec.key.substr(0, spec.key.find('.'));
    usage.UseIf(cc.empty() || cc == control, {spec.key},
                "a key of " + control + ", and transport.cc is " + cc);
  }
}

Result<transport::CongestionParams> ScenarioCongestionParams(
    const ParamSet& params, double line_rate_bps) {
  transport::CongestionParams out;
  out.line_rate_bps = line_rate_bps;
  transport::DcqcnParams& d = out.dcqcn;
  d.g = params.Real("dcqcn.g");
  d.alpha_timer_ps = Ps(params, "dcqcn.alpha_timer_ns");
  d.increase_timer_ps = Ps(params, "dcqcn.increase_timer_ns");
  d.byte_counter =
      static_cast<uint64_t>(params.Integer("dcqcn.byte_counter_bytes"));
  d.fast_recovery_steps =
      static_cast<unsigned>(params.Integer("dcqcn.fast_recovery_steps"));
  d.ai_fraction = params.Real("dcqcn.ai_fraction");
  d.hai_fraction = params.Real("dcqcn.hai_fraction");
  d.min_rate_bps = params.Real("dcqcn.min_rate_bps");
  d.initial_alpha = params.Real("dcqcn.initial_alpha");
  d.cnp_interval_ps = Ps(params, "dcqcn.cnp_interval_ns");
  transport::LqccParams& l = out.lqcc;
  l.round_ps = Ps(params, "lqcc.round_ns");
  l.max_window_bytes =
      static_cast<uint64_t>(params.Integer("lqcc.max_window_bytes"));
  l.min_window_bytes =
      static_cast<uint64_t>(params.Integer("lqcc.min_window_bytes"));
  l.g = params.Real("lqcc.g");
  l.ramp_ps = Ps(params, "lqcc.ramp_ns");
  // Each control checks what the key ranges cannot.
  for (const std::string& name : transport::CongestionControlNames()) {
    auto control = transport::CreateCongestionControl(name, out);
    if (!control) {
      return control.error();
    }
  }
  return out;
}

}  // namespace lq::app
