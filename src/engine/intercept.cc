// SPDX-License-Identifier: Apache-2.0
// Camel's intercept, interceptFrom and interceptSendToEndpoint, compiled into a route
// (intercept.h). An intercepted send becomes a block per matching clause:
//   [enter: set CamelInterceptedEndpoint, test onWhen, run the clause's steps when it holds]
//   [next:  skip (skipSendToOriginalEndpoint and onWhen held), or the next matching clause's
//           block, or the original send]
//   [after: send to afterUri when onWhen held and the send was not skipped]
// The block's frame counter carries the clause's outcome from `enter` to `next` and `after`,
// so a send that goes through another route or suspends comes back to the right decision.
#include "engine/intercept.h"

#include <dromedary/core/uri.h>
#include <dromedary/core/value_compare.h>
#include <fmt/format.h>

#include "core/name_pattern.h"
#include "engine/compiled_route.h"
#include "engine/executor.h"
#include "engine/producer_cache.h"

namespace dromedary::detail {

namespace {

const HeaderKey kInterceptedEndpoint{"CamelInterceptedEndpoint"};

// Frame counter values of an intercepted send's block.
constexpr uint32_t kWhenFailed = 0;
constexpr uint32_t kWhenHeld = 1;
constexpr uint32_t kSkipped = 2;

// An endpoint pattern, compiled once: as written, and normalized when it parses as a URI
// ("mock:foo?b=1&a=2" is also "mock://foo?a=2&b=1", as Camel compares endpoints).
class EndpointPattern {
 public:
  explicit EndpointPattern(const std::string& pattern) : written_(pattern) {
    if (auto uri = Uri::parse(pattern); uri && uri->normalized() != pattern) {
      normalized_.emplace(uri->normalized());
    }
  }
  bool everything() const noexcept { return written_.text().empty() || written_.text() == "*"; }
  bool matches(std::string_view uri) const noexcept {
    return everything() || written_.matches(uri) || (normalized_ && normalized_->matches(uri));
  }
  /// At route start: also the URI's normalized form (Camel's matchEndpoint normalizes both).
  bool matchesEndpoint(std::string_view uri) const {
    if (matches(uri)) return true;
    auto parsed = Uri::parse(uri);
    return parsed && matches(parsed->normalized());
  }

 private:
  NamePattern written_;
  std::optional<NamePattern> normalized_;
};

// Sets CamelInterceptedEndpoint; false (the exchange failed) when memory ran out.
bool nameEndpoint(Exchange& ex, std::string_view uri) noexcept {
  try {
    ex.properties().slot(kInterceptedEndpoint).setString(uri);
    return true;
  } catch (...) {
    ex.setException(std::current_exception());
    return false;
  }
}

}  // namespace


struct Interception {
  struct Clause {
    const InterceptModel* model = nullptr;
    std::shared_ptr<Predicate> when;  // null: always
    const Block* body = nullptr;
    Producer* after = nullptr;  // interceptSendToEndpoint's afterUri
    std::shared_ptr<EndpointPattern> pattern;
  };
  std::vector<Clause> everyStep, from, sends;
};

namespace {

// Runs a clause's steps when its onWhen holds (intercept, interceptFrom), setting
// CamelInterceptedEndpoint first when there is an endpoint to name (interceptFrom).
class InterceptStep final : public Step {
 public:
  InterceptStep(const Interception::Clause& clause, std::string endpoint)
      : when_(clause.when), body_(*clause.body), endpoint_(std::move(endpoint)) {}

  Status run(Exchange& ex) noexcept override {
    if (!endpoint_.empty() && !nameEndpoint(ex, endpoint_)) return Status::Fail;
    if (when_ && !when_->matches(ex)) return ex.failed() ? Status::Fail : Status::Continue;
    return pushBlock(ex, body_) ? Status::Continue : Status::Fail;
  }
  bool mayBlock() const noexcept override { return when_ && when_->mayBlock(); }

 private:
  std::shared_ptr<Predicate> when_;
  const Block& body_;
  std::string endpoint_;
};

// The first step of an intercepted send's block: names the endpoint (a static send; a
// dynamic one named it before pushing), tests onWhen, runs the clause's steps.
class EnterSendStep final : public Step {
 public:
  EnterSendStep(const Interception::Clause& clause, std::string uri)
      : when_(clause.when), body_(*clause.body), uri_(std::move(uri)) {}

  Status run(Exchange& ex) noexcept override {
    if (!uri_.empty() && !nameEndpoint(ex, uri_)) return Status::Fail;
    bool held = !when_ || when_->matches(ex);
    if (!held && ex.failed()) return Status::Fail;
    ExecState& st = exec(ex);
    st.frames[st.depth - 1].counter = held ? kWhenHeld : kWhenFailed;
    if (held && !pushBlock(ex, body_)) return Status::Fail;
    return Status::Continue;
  }
  bool mayBlock() const noexcept override { return when_ && when_->mayBlock(); }

 private:
  std::shared_ptr<Predicate> when_;
  const Block& body_;
  std::string uri_;
};

// Skips the send, or goes on to the next clause's block or the endpoint. A static send knows
// which at start (`next` or `producer`); a dynamic one finds them from the endpoint named.
class NextSendStep final : public Step {
 public:
  NextSendStep(bool skip, const Block* next, Producer* producer, Context* context,
               const std::vector<std::pair<std::shared_ptr<EndpointPattern>, const Block*>>* later)
      : skip_(skip), next_(next), producer_(producer), context_(context), later_(later) {}

  Status run(Exchange& ex) noexcept override {
    ExecState& st = exec(ex);
    uint32_t& outcome = st.frames[st.depth - 1].counter;
    if (skip_ && outcome == kWhenHeld) {
      outcome = kSkipped;
      return Status::Continue;
    }
    if (next_) return pushBlock(ex, *next_) ? Status::Continue : Status::Fail;
    if (producer_) return callProducer(ex, *producer_);
    // Dynamic: the endpoint the send was for, as the interception named it.
    const Value* named = ex.getProperty(kInterceptedEndpoint);
    thread_local std::string buffer;
    std::string_view uri = named ? stringForm(*named, buffer) : std::string_view();
    for (const auto& [pattern, block] : *later_) {
      if (pattern->matches(uri)) return pushBlock(ex, *block) ? Status::Continue : Status::Fail;
    }
    Producer* producer = cachedProducer(*context_, uri, ex);
    return producer ? callProducer(ex, *producer) : Status::Fail;
  }
  bool mayBlock() const noexcept override { return !producer_ || producer_->mayBlock(); }

 private:
  bool skip_;
  const Block* next_;
  Producer* producer_;
  Context* context_;
  const std::vector<std::pair<std::shared_ptr<EndpointPattern>, const Block*>>* later_;
};

// Sends to afterUri when the clause's onWhen held and the send was not skipped.
class AfterSendStep final : public Step {
 public:
  explicit AfterSendStep(Producer& after) : after_(after) {}
  Status run(Exchange& ex) noexcept override {
    ExecState& st = exec(ex);
    if (st.frames[st.depth - 1].counter != kWhenHeld) return Status::Continue;
    return callProducer(ex, after_);
  }
  bool mayBlock() const noexcept override { return after_.mayBlock(); }

 private:
  Producer& after_;
};

// Enters the first clause's block of an intercepted send.
class EnterBlockStep final : public Step {
 public:
  explicit EnterBlockStep(const Block& block) : block_(block) {}
  Status run(Exchange& ex) noexcept override {
    return pushBlock(ex, block_) ? Status::Continue : Status::Fail;
  }
  bool mayBlock() const noexcept override { return false; }

 private:
  const Block& block_;
};

// One clause's block of an intercepted send: `next` null and `producer` null for a dynamic
// send (NextSendStep then looks up `later`).
Result<const Block*> sendBlock(
    RouteCompiler& compiler, const Interception::Clause& clause, std::string uri, const Block* next,
    Producer* producer,
    const std::vector<std::pair<std::shared_ptr<EndpointPattern>, const Block*>>* later) {
  std::vector<std::unique_ptr<Step>> steps;
  steps.push_back(std::make_unique<EnterSendStep>(clause, std::move(uri)));
  steps.push_back(std::make_unique<NextSendStep>(clause.model->skipSendToOriginalEndpoint, next,
                                                 producer, &compiler.context(), later));
  if (clause.after) steps.push_back(std::make_unique<AfterSendStep>(*clause.after));
  for (auto& s : steps) (void)nameStep(compiler.route(), *s, "interceptSendToEndpoint");
  BlockModel empty;
  auto block = compiler.compileBlock(empty, BlockKind::Plain, std::move(steps));
  if (!block) return block.error();
  return static_cast<const Block*>(*block);
}

class DynamicSends final : public DynamicSendInterception {
 public:
  std::optional<Status> run(Exchange& ex, std::string_view uri) const noexcept override {
    for (const auto& [pattern, block] : chain) {
      if (!pattern->matches(uri)) continue;
      if (!nameEndpoint(ex, uri)) return Status::Fail;
      return pushBlock(ex, *block) ? Status::Continue : Status::Fail;
    }
    return std::nullopt;
  }
  // Each clause's block, in order; a block's NextSendStep looks at the ones after it.
  std::vector<std::pair<std::shared_ptr<EndpointPattern>, const Block*>> chain;
  std::vector<std::vector<std::pair<std::shared_ptr<EndpointPattern>, const Block*>>> later;
};

Error clauseError(const InterceptModel& m, const Error& cause, std::string_view route_id) {
  static constexpr std::string_view kNames[] = {"intercept", "interceptFrom",
                                                "interceptSendToEndpoint"};
  Error e = cause;
  e.message += fmt::format(" (in {}{} of route '{}')", kNames[static_cast<int>(m.kind)],
                           m.uri.empty() ? "" : fmt::format("[{}]", m.uri), route_id);
  if (e.where.line == 0) e.where = m.where;
  return e;
}

}  // namespace

Result<std::shared_ptr<Interception>> prepareInterception(RouteCompiler& compiler,
                                                          const RouteModel& model) {
  if (model.extras().intercepts.empty() && model.extras().builderIntercepts.empty()) {
    return std::shared_ptr<Interception>();
  }
  auto interception = std::make_shared<Interception>();
  std::vector<const InterceptModel*> all;
  for (const auto& m : model.extras().intercepts) all.push_back(m.get());
  for (const auto& m : model.extras().builderIntercepts) all.push_back(m.get());
  for (const InterceptModel* m : all) {
    Interception::Clause c;
    c.model = m;
    if (m->onWhen) {
      auto when = m->onWhen->compile(compiler.context());
      if (!when) return clauseError(*m, when.error(), compiler.route().id);
      c.when = std::move(*when);
    }
    auto body = compiler.compileBlock(m->body);
    if (!body) return clauseError(*m, body.error(), compiler.route().id);
    c.body = *body;
    if (!m->afterUri.empty()) {
      auto after = compiler.producer(m->afterUri);
      if (!after) return clauseError(*m, after.error(), compiler.route().id);
      c.after = *after;
    }
    c.pattern = std::make_shared<EndpointPattern>(m->uri);
    switch (m->kind) {
      case InterceptKind::Intercept:
        interception->everyStep.push_back(std::move(c));
        break;
      case InterceptKind::InterceptFrom:
        interception->from.push_back(std::move(c));
        break;
      case InterceptKind::InterceptSendToEndpoint:
        interception->sends.push_back(std::move(c));
        break;
    }
  }
  return interception;
}

void interceptStep(const Interception& interception, std::vector<std::unique_ptr<Step>>& out) {
  for (const auto& c : interception.everyStep) {
    out.push_back(std::make_unique<InterceptStep>(c, std::string()));
  }
}

void interceptFromSteps(const Interception& interception, const std::string& from_uri,
                        std::vector<std::unique_ptr<Step>>& out) {
  for (const auto& c : interception.from) {
    if (!c.pattern->matchesEndpoint(from_uri)) continue;
    out.push_back(std::make_unique<InterceptStep>(c, from_uri));
  }
}

Result<std::unique_ptr<Step>> interceptedSend(RouteCompiler& compiler,
                                              const Interception& interception,
                                              const std::string& uri, std::unique_ptr<Step> send) {
  std::vector<const Interception::Clause*> matching;
  for (const auto& c : interception.sends) {
    if (c.pattern->matchesEndpoint(uri)) matching.push_back(&c);
  }
  if (matching.empty()) return send;
  // The send itself runs as the last clause's `next`: a block of its own, built innermost
  // first so each clause knows the block after it.
  std::vector<std::unique_ptr<Step>> original;
  original.push_back(std::move(send));
  BlockModel empty;
  auto last = compiler.compileBlock(empty, BlockKind::Plain, std::move(original));
  if (!last) return last.error();
  const Block* next = *last;
  for (auto it = matching.rbegin(); it != matching.rend(); ++it) {
    auto block = sendBlock(compiler, **it, uri, next, nullptr, nullptr);
    if (!block) return block.error();
    next = *block;
  }
  return std::unique_ptr<Step>(new EnterBlockStep(*next));
}

Result<std::unique_ptr<DynamicSendInterception>> dynamicSendInterception(
    RouteCompiler& compiler, const Interception& interception) {
  if (interception.sends.empty()) return std::unique_ptr<DynamicSendInterception>();
  auto sends = std::make_unique<DynamicSends>();
  const size_t n = interception.sends.size();
  sends->later.resize(n);
  sends->chain.resize(n);
  // Innermost first, so that each clause's `later` (the clauses after it) is complete.
  for (size_t i = n; i-- > 0;) {
    const Interception::Clause& c = interception.sends[i];
    for (size_t j = i + 1; j < n; ++j) sends->later[i].push_back(sends->chain[j]);
    auto block = sendBlock(compiler, c, std::string(), nullptr, nullptr, &sends->later[i]);
    if (!block) return block.error();
    sends->chain[i] = {c.pattern, *block};
  }
  return std::unique_ptr<DynamicSendInterception>(std::move(sends));
}

}  // namespace dromedary::detail
