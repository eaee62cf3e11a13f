// SPDX-License-Identifier: Apache-2.0
// loadBalance(): each exchange goes to one branch (each step of the block). roundRobin,
// random, weighted (by a distribution ratio, in turn or at random) and sticky (by a
// correlation key's hash) run the chosen branch on the exchange itself, like a choice; topic
// runs every branch on a copy.
// failover tries the branches in order on copies of the exchange, moving on when an attempt
// fails (with one of the listed exception types, if any), until one succeeds or the attempts
// run out; the last failure is then the exchange's, for the route's error handler.
//
// roundRobin keeps one shared counter per balancer (a relaxed atomic add per exchange):
// turns are what the pattern is about.
#include <atomic>
#include <charconv>
#include <random>

#include <fmt/format.h>

#include <dromedary/core/value_compare.h>

#include "core/text.h"
#include "eip/fan_out.h"
#include "eip/models.h"
#include "engine/context_impl.h"
#include "engine/failure_path.h"
#include "engine/executor.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

using detail::FanOutState;
using Policy = LoadBalanceModel::Policy;

namespace {

uint32_t randomBelow(uint32_t n) noexcept {
  thread_local std::minstd_rand rng(std::random_device{}());
  return static_cast<uint32_t>(rng() % n);
}

class BalanceStep final : public Step {
 public:
  BalanceStep(Policy policy, std::vector<const detail::Block*> branches,
              std::vector<uint32_t> slots, std::unique_ptr<Expression> key)
      : policy_(policy), branches_(std::move(branches)), slots_(std::move(slots)),
        key_(std::move(key)) {}

  Status run(Exchange& ex) noexcept override {
    uint32_t n = static_cast<uint32_t>(branches_.size());
    uint32_t pick = 0;
    switch (policy_) {
      case Policy::RoundRobin:
        pick = next_.fetch_add(1, std::memory_order_relaxed) % n;
        break;
      case Policy::Random:
        pick = randomBelow(n);
        break;
      case Policy::Weighted:
        pick = slots_[weightedRoundRobin_ ? next_.fetch_add(1, std::memory_order_relaxed) %
                                                slots_.size()
                                          : randomBelow(static_cast<uint32_t>(slots_.size()))];
        break;
      case Policy::Sticky: {
        Value scratch;
        const Value* v = key_->evaluate(ex, scratch);
        if (!v) return Status::Fail;
        thread_local std::string buffer;
        pick = static_cast<uint32_t>(std::hash<std::string_view>{}(stringForm(*v, buffer)) % n);
        break;
      }
      case Policy::Failover:
      case Policy::Topic:
        break;
    }
    return detail::pushBlock(ex, *branches_[pick]) ? Status::Continue : Status::Fail;
  }

  bool weightedRoundRobin_ = false;

 private:
  Policy policy_;
  std::vector<const detail::Block*> branches_;
  std::vector<uint32_t> slots_;  // weighted: branch indexes, each as often as its weight
  std::unique_ptr<Expression> key_;
  std::atomic<uint32_t> next_{0};
};

// Each attempt's result replaces the last: an earlier failure does not outlive a success.
class LastAttempt final : public AggregationStrategy {
 public:
  Exchange* aggregate(Exchange*, Exchange& ex) override { return &ex; }
};

class FailoverStep final : public FanOutStep {
 public:
  FailoverStep(std::vector<const detail::Block*> branches,
               std::vector<const detail::ExceptionType*> types, int max_attempts,
               bool round_robin, bool sticky)
      : FanOutStep(options()),
        branches_(std::move(branches)),
        types_(std::move(types)),
        maxAttempts_(max_attempts),
        roundRobin_(round_robin),
        sticky_(sticky) {}

 protected:
  Status begin(Exchange&, FanOutState& s) noexcept override {
    size_t n = branches_.size();
    s.cursor = roundRobin_ ? next_.fetch_add(1, std::memory_order_relaxed) % n
               : sticky_   ? last_.load(std::memory_order_relaxed) % n
                           : 0;
    return Status::Continue;
  }

  FanOutWork next(Exchange& input, FanOutState& s, Exchange&) noexcept override {
    if (s.index > 0) {
      Exchange* last = s.result.get();
      if (!last || !last->failed()) {  // the last attempt succeeded
        if (sticky_) last_.store((s.cursor + s.index - 1) % branches_.size(),
                                 std::memory_order_relaxed);
        return {};
      }
      if (!failsOver(input, *last)) return {};
      const size_t failovers = s.index;  // attempts after the first
      if (maxAttempts_ >= 0 && failovers > static_cast<size_t>(maxAttempts_)) return {};
      if (maxAttempts_ < 0 && !roundRobin_ && s.index >= branches_.size()) return {};
    }
    size_t i = (s.cursor + s.index) % branches_.size();
    ++s.index;
    return {branches_[i]};
  }

 private:
  static FanOutOptions options() {
    FanOutOptions o;
    o.strategy = std::make_shared<LastAttempt>();
    o.subErrorHandling = false;
    return o;
  }

  bool failsOver(Exchange& input, const Exchange& attempt) const noexcept {
    if (types_.empty()) return true;
    const detail::ExceptionType* type =
        input.context()->implForEngine().exceptions.typeOf(attempt.error());
    for (const detail::ExceptionType* t : types_) {
      if (detail::ExceptionRegistry::distance(type, t) >= 0) return true;
    }
    return false;
  }

  std::vector<const detail::Block*> branches_;
  std::vector<const detail::ExceptionType*> types_;
  int maxAttempts_;
  bool roundRobin_;
  bool sticky_;
  std::atomic<size_t> next_{0};
  std::atomic<size_t> last_{0};
};

// topic: every branch in turn on a copy of the exchange, as Camel's TopicLoadBalancer; the
// exchange keeps its message, and the first failing copy stops the rest and fails it.
class TopicStep final : public FanOutStep {
 public:
  explicit TopicStep(std::vector<const detail::Block*> branches)
      : FanOutStep(options()), branches_(std::move(branches)) {}

 protected:
  Status begin(Exchange&, FanOutState& s) noexcept override {
    s.size = branches_.size();
    s.sized = true;
    return Status::Continue;
  }
  FanOutWork next(Exchange&, FanOutState& s, Exchange&) noexcept override {
    if (s.index >= branches_.size()) return {};
    return {branches_[s.index++]};
  }

 private:
  static FanOutOptions options() {
    FanOutOptions o;
    o.useOriginal = true;
    o.propagateException = true;
    o.stopOnException = true;
    return o;
  }
  std::vector<const detail::Block*> branches_;
};

}  // namespace

Result<std::unique_ptr<Step>> LoadBalanceModel::compile(RouteCompiler& compiler) const {
  auto fail = [&](std::string message) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute, std::move(message)));
  };
  auto all = compiler.compileBlock(body);
  if (!all) return all.error();
  if ((*all)->steps.empty()) return fail("loadBalance needs at least one branch");
  std::vector<const detail::Block*> branches = stepBranches(compiler, **all);
  if (policy == Policy::Failover) {
    auto types = detail::resolveExceptionTypes(compiler.context(), exceptions, "failover");
    if (!types) return compiler.error(*this, types.error());
    if (maximumFailoverAttempts < -1) {
      return fail(fmt::format("maximumFailoverAttempts must be -1 or more, not {}",
                              maximumFailoverAttempts));
    }
    return std::unique_ptr<Step>(new FailoverStep(std::move(branches), std::move(*types),
                                                  maximumFailoverAttempts, roundRobin, sticky));
  }
  if (policy == Policy::Topic) return std::unique_ptr<Step>(new TopicStep(std::move(branches)));
  std::vector<uint32_t> slots;
  if (policy == Policy::Weighted) {
    std::vector<uint32_t> weights;
    std::string_view ratio = distributionRatio;
    size_t start = 0;
    while (start <= ratio.size()) {
      size_t end = ratio.find(distributionRatioDelimiter, start);
      if (end == std::string_view::npos) end = ratio.size();
      std::string_view part = trim(ratio.substr(start, end - start));
      uint32_t w = 0;
      auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), w);
      if (part.empty() || ec != std::errc() || p != part.data() + part.size()) {
        return fail(fmt::format("distributionRatio must be whole numbers separated by '{}', "
                                "not '{}'",
                                distributionRatioDelimiter, distributionRatio));
      }
      weights.push_back(w);
      start = end + distributionRatioDelimiter.size();
    }
    if (weights.size() != branches.size()) {
      return fail(fmt::format("distributionRatio '{}' has {} weights for {} branches",
                              distributionRatio, weights.size(), branches.size()));
    }
    // Interleaved, so that weighted round robin spreads turns as Camel's does.
    std::vector<uint32_t> left = weights;
    for (bool any = true; any;) {
      any = false;
      for (uint32_t i = 0; i < left.size(); ++i) {
        if (left[i] > 0) {
          slots.push_back(i);
          --left[i];
          any = true;
        }
      }
    }
    if (slots.empty()) return fail("distributionRatio gives every branch a weight of 0");
  }
  std::unique_ptr<Expression> key;
  if (policy == Policy::Sticky) {
    if (!correlation) return fail("sticky needs a correlation expression");
    auto k = correlation->compile(compiler.context());
    if (!k) return compiler.error(*this, k.error());
    key = std::move(*k);
  }
  auto step = std::make_unique<BalanceStep>(policy, std::move(branches), std::move(slots),
                                            std::move(key));
  step->weightedRoundRobin_ = weightedRoundRobin;
  return std::unique_ptr<Step>(std::move(step));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kLoadBalanceAliases[] = {"load-balance"};
constexpr AttributeSchema kLoadBalanceAttributes[] = {
    {"inheritErrorHandler", AttributeType::Boolean, "true", "Accepted for Camel's files"},
};
constexpr AttributeSchema kFailoverAttributes[] = {
    {"maximumFailoverAttempts", AttributeType::Integer, "-1",
     "Failovers allowed (-1: no limit: each branch once, or round and round with roundRobin; 0: "
     "none)"},
    {"roundRobin", AttributeType::Boolean, "false", "Start at the next branch each time"},
    {"sticky", AttributeType::Boolean, "false", "Start where the last success was"},
    {"inheritErrorHandler", AttributeType::Boolean, "true", "Accepted for Camel's files"},
};
constexpr AttributeSchema kWeightedAttributes[] = {
    {"distributionRatio", AttributeType::Text, "", "Each branch's weight: \"4,2,1\"", true},
    {"distributionRatioDelimiter", AttributeType::Text, ",", "What separates the weights"},
    {"roundRobin", AttributeType::Boolean, "false",
     "Interleave the branches by weight instead of choosing at random by weight"},
};
constexpr std::string_view kStickyExpressions[] = {"correlationExpression"};
// Camel 4's names for the policies.
constexpr std::string_view kRoundRobinAliases[] = {"roundRobinLoadBalancer"};
constexpr std::string_view kRandomAliases[] = {"randomLoadBalancer"};
constexpr std::string_view kFailoverAliases[] = {"failoverLoadBalancer"};
constexpr std::string_view kWeightedAliases[] = {"weightedLoadBalancer"};
constexpr std::string_view kStickyAliases[] = {"stickyLoadBalancer"};
constexpr std::string_view kTopicAliases[] = {"topicLoadBalancer"};
constexpr ClauseSchema kLoadBalanceClauses[] = {
    {"roundRobin", "Each branch in turn (the default)", {}, {}, kRoundRobinAliases},
    {"random", "A branch at random", {}, {}, kRandomAliases},
    {"failover",
     "The first branch, then the next when one fails (with `exception`: only for those types)",
     kFailoverAttributes, {}, kFailoverAliases},
    {"weighted", "Branches in proportion to their weights", kWeightedAttributes, {},
     kWeightedAliases},
    {"sticky", "The same branch for the same correlation key", {}, kStickyExpressions,
     kStickyAliases},
    {"topic", "Every branch, each on a copy of the exchange", {}, {}, kTopicAliases},
};
}  // namespace

extern const EipSchema kLoadBalanceSchema{
    .key = "loadBalance",
    .aliases = kLoadBalanceAliases,
    .description = "Sends each exchange to one of the nested steps, chosen by the policy",
    .attributes = kLoadBalanceAttributes,
    .steps = true,
    .clauses = "one of roundRobin (the default), random, failover, weighted, sticky, topic",
    .clauseSchemas = kLoadBalanceClauses,
};

}  // namespace dromedary::eip
