// SPDX-License-Identifier: Apache-2.0
// Compiling a route's error handling when it starts: the error handler and its policy, the
// onException clauses with their exception types resolved and their blocks compiled, the
// dead letter endpoint's producer, onCompletion blocks, and the per-step flags that make
// the executor save the message before steps a redelivery may re-run.
#include <fmt/format.h>

#include <charconv>

#include "core/text.h"
#include "engine/context_impl.h"
#include "engine/failure_path.h"
#include "engine/executor.h"

namespace dromedary::detail {

namespace {

// Sends the failed exchange to the dead letter endpoint.
class DeadLetterStep final : public Step {
 public:
  explicit DeadLetterStep(Producer& producer) : producer_(producer) {}
  std::string_view engineId() const noexcept override { return "deadLetterChannel"; }
  Status run(Exchange& ex) noexcept override { return callProducer(ex, producer_); }

  bool mayBlock() const noexcept override { return producer_.mayBlock(); }
 private:
  Producer& producer_;
};

Error located(Error e, const SourceRef& where, std::string_view route_id) {
  e.message += fmt::format(" (in route '{}')", route_id);
  if (e.where.line == 0 && where.line != 0) e.where = where;
  return e;
}

Result<std::vector<std::pair<int, int64_t>>> parseDelayPattern(std::string_view text) {
  std::vector<std::pair<int, int64_t>> out;
  std::vector<std::string_view> groups;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find(';', start);
    if (end == std::string_view::npos) end = text.size();
    groups.push_back(trim(text.substr(start, end - start)));
    start = end + 1;
  }
  for (std::string_view group : groups) {
    size_t colon = group.find(':');
    int from = 0;
    int64_t delay = 0;
    bool ok = colon != std::string_view::npos;
    if (ok) {
      auto a = std::from_chars(group.data(), group.data() + colon, from);
      auto b = std::from_chars(group.data() + colon + 1, group.data() + group.size(), delay);
      ok = a.ec == std::errc() && a.ptr == group.data() + colon && b.ec == std::errc() &&
           b.ptr == group.data() + group.size() && from >= 0 && delay >= 0 &&
           (out.empty() || from > out.back().first);
    }
    if (!ok) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("invalid delayPattern '{}' at '{}': expected groups "
                                   "'attempt:delayMillis' separated by ';' with increasing "
                                   "attempts, e.g. '1:1000;5:5000'",
                                   text, group));
    }
    out.emplace_back(from, delay);
  }
  return out;
}

Result<std::shared_ptr<Processor>> processorFor(Context& context,
                                                const std::shared_ptr<Processor>& given,
                                                const std::string& ref) {
  if (given || ref.empty()) return given;
  auto p = context.processorByName(ref);
  if (!p) {
    return makeError(ErrorCode::NotFound,
                     fmt::format("no processor bound as '{}' for onRedelivery", ref));
  }
  return p;
}

Result<std::unique_ptr<Predicate>> compileOptional(Context& context,
                                                   const std::optional<PredicateDefinition>& p) {
  if (!p) return std::unique_ptr<Predicate>();
  return p->compile(context);
}

}  // namespace

Result<void> applyPolicy(RedeliveryPolicy& p, const RedeliveryPolicyModel& m) {
  if (m.maximumRedeliveries) p.maximumRedeliveries = *m.maximumRedeliveries;
  if (m.redeliveryDelayMs) p.redeliveryDelayMs = *m.redeliveryDelayMs;
  if (m.backOffMultiplier) p.backOffMultiplier = *m.backOffMultiplier;
  if (m.useExponentialBackOff) p.useExponentialBackOff = *m.useExponentialBackOff;
  if (m.maximumRedeliveryDelayMs) p.maximumRedeliveryDelayMs = *m.maximumRedeliveryDelayMs;
  if (m.useCollisionAvoidance) p.useCollisionAvoidance = *m.useCollisionAvoidance;
  if (m.collisionAvoidanceFactor) p.collisionAvoidanceFactor = *m.collisionAvoidanceFactor;
  if (m.retryAttemptedLogLevel) p.retryAttemptedLogLevel = *m.retryAttemptedLogLevel;
  if (m.retriesExhaustedLogLevel) p.retriesExhaustedLogLevel = *m.retriesExhaustedLogLevel;
  if (m.logStackTrace) p.logStackTrace = *m.logStackTrace;
  if (m.logRetryAttempted) p.logRetryAttempted = *m.logRetryAttempted;
  if (m.logExhausted) p.logExhausted = *m.logExhausted;
  if (m.logHandled) p.logHandled = *m.logHandled;
  if (m.logContinued) p.logContinued = *m.logContinued;
  if (m.logExhaustedMessageHistory) p.logExhaustedMessageHistory = *m.logExhaustedMessageHistory;
  if (m.delayPattern) {
    auto pattern = parseDelayPattern(*m.delayPattern);
    if (!pattern) return pattern.error();
    p.delayPattern = std::move(*pattern);
  }
  if (p.maximumRedeliveries < -1) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("maximumRedeliveries must be -1 (forever) or more, not {}",
                                 p.maximumRedeliveries));
  }
  if (p.redeliveryDelayMs < 0 || p.maximumRedeliveryDelayMs < 0) {
    return makeError(ErrorCode::InvalidOption, "redelivery delays must not be negative");
  }
  if (p.backOffMultiplier < 1.0 && p.useExponentialBackOff) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("backOffMultiplier must be 1 or more, not {}",
                                 p.backOffMultiplier));
  }
  if (p.collisionAvoidanceFactor < 0 || p.collisionAvoidanceFactor > 1) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("collisionAvoidanceFactor must be within 0..1, not {}",
                                 p.collisionAvoidanceFactor));
  }
  return {};
}

int64_t redeliveryDelay(const RedeliveryPolicy& p, int64_t previous, int counter, double random01,
                        bool coin) noexcept {
  if (!p.delayPattern.empty()) {
    // The delay of the last group whose attempt number has been reached.
    int64_t delay = 0;
    for (const auto& [from, ms] : p.delayPattern) {
      if (from > counter) break;
      delay = ms;
    }
    return delay;
  }
  double delay;
  if (previous == 0) {
    delay = static_cast<double>(p.redeliveryDelayMs);
  } else if (p.useExponentialBackOff && p.backOffMultiplier > 1) {
    delay = static_cast<double>(previous) * p.backOffMultiplier;
  } else {
    delay = static_cast<double>(previous);
  }
  if (p.useCollisionAvoidance) {
    double variance = (coin ? p.collisionAvoidanceFactor : -p.collisionAvoidanceFactor) * random01;
    delay += delay * variance;
  }
  if (p.maximumRedeliveryDelayMs > 0 && delay > static_cast<double>(p.maximumRedeliveryDelayMs)) {
    delay = static_cast<double>(p.maximumRedeliveryDelayMs);
  }
  return static_cast<int64_t>(delay + 0.5);
}

Result<std::vector<const ExceptionType*>> resolveExceptionTypes(
    Context& context, const std::vector<std::string>& names, std::string_view what) {
  const ExceptionRegistry& registry = context.implForEngine().exceptions;
  std::vector<const ExceptionType*> out;
  for (const std::string& name : names) {
    const ExceptionType* t = registry.find(name);
    if (!t) {
      std::string hint;
      std::vector<std::string> known = registry.names();
      std::string near = closestMatch(name, std::vector<std::string_view>(known.begin(), known.end()));
      if (!near.empty()) hint = fmt::format("; did you mean '{}'?", near);
      return makeError(ErrorCode::InvalidRoute,
                       fmt::format("unknown exception type '{}' in {}{}; register application "
                                   "exceptions with Context::registerExceptionType",
                                   name, what, hint));
    }
    out.push_back(t);
  }
  return out;
}

Result<void> compileErrorHandling(RouteCompiler& compiler, Route& route) {
  Context& context = compiler.context();
  ContextImpl& impl = context.implForEngine();
  const RouteModel::Extras& model = route.model->extras();  // what error handling reads of it
  const size_t body_steps = route.steps.size();

  const std::shared_ptr<const ErrorHandlerModel>& configured =
      model.errorHandler          ? model.errorHandler
      : model.builderErrorHandler ? model.builderErrorHandler
                                  : impl.errorHandler;
  static const ErrorHandlerModel kDefault;
  const ErrorHandlerModel* ehm = configured ? configured.get() : &kDefault;
  route.errorHandler.reset();
  // A handler without a dead letter endpoint or clauses holds nothing of the route: one compiled
  // copy serves every route configured with the same model (most routes: the default one).
  const bool shareable = ehm->kind != ErrorHandlerDefinition::Kind::None &&
                         ehm->kind != ErrorHandlerDefinition::Kind::DeadLetterChannel &&
                         model.onExceptions.empty() && model.builderOnExceptions.empty();
  auto& shared = impl.sharedErrorHandler;
  std::unique_lock shared_lock(shared.mutex, std::defer_lock);
  if (shareable) {
    shared_lock.lock();
    if (shared.made && shared.model == configured) route.errorHandler = shared.handler;
  }
  if (ehm->kind != ErrorHandlerDefinition::Kind::None && !route.errorHandler) {
    auto h = std::make_shared<CompiledErrorHandler>();
    h->kind = ehm->kind;
    if (auto r = applyPolicy(h->policy, ehm->policy); !r) {
      return located(r.error(), ehm->where, route.id);
    }
    auto retry = compileOptional(context, ehm->retryWhile);
    if (!retry) return located(retry.error(), ehm->where, route.id);
    h->retryWhile = std::move(*retry);
    auto on_redelivery = processorFor(context, ehm->onRedelivery, ehm->onRedeliveryRef);
    if (!on_redelivery) return located(on_redelivery.error(), ehm->where, route.id);
    h->onRedelivery = std::move(*on_redelivery);
    h->useOriginalMessage = ehm->useOriginalMessage;
    h->useOriginalBody = ehm->useOriginalBody;
    h->deadLetterHandleNewException = ehm->deadLetterHandleNewException;
    if (h->kind == ErrorHandlerDefinition::Kind::DeadLetterChannel) {
      h->deadLetterUri = ehm->deadLetterUri;
      auto producer = compiler.producer(h->deadLetterUri);
      if (!producer) {
        Error e = producer.error();
        e.message += fmt::format(" (the deadLetterChannel's endpoint)");
        return located(e, ehm->where, route.id);
      }
      std::vector<std::unique_ptr<Step>> steps;
      steps.push_back(std::make_unique<DeadLetterStep>(**producer));
      steps.push_back(makeFailureEpilogue());
      static const BlockModel kEmpty;
      auto block = compiler.compileBlock(kEmpty, BlockKind::FailureBlock, std::move(steps));
      if (!block) return block.error();
      h->deadLetterBlock = *block;
    }
    std::vector<const OnExceptionModel*> clauses;
    for (const auto& c : model.onExceptions) clauses.push_back(c.get());
    for (const auto& c : model.builderOnExceptions) clauses.push_back(c.get());
    for (const OnExceptionModel* c : clauses) {
      CompiledClause& cc = h->clauses.emplace_back();
      auto types = resolveExceptionTypes(context, c->exceptions, "onException");
      if (!types) return located(types.error(), c->where, route.id);
      cc.types = std::move(*types);
      cc.policy = h->policy;
      if (auto r = applyPolicy(cc.policy, c->policy); !r) {
        return located(r.error(), c->where, route.id);
      }
      for (auto [src, dst] : {std::pair{&c->onWhen, &cc.onWhen}, {&c->handled, &cc.handled},
                              {&c->continued, &cc.continued}, {&c->retryWhile, &cc.retryWhile}}) {
        auto p = compileOptional(context, *src);
        if (!p) return located(p.error(), c->where, route.id);
        *dst = std::move(*p);
      }
      if (cc.handled && cc.continued) {
        return located(makeError(ErrorCode::InvalidRoute,
                                 "onException cannot be both handled and continued"),
                       c->where, route.id);
      }
      auto on_redelivery = processorFor(context, c->onRedelivery, c->onRedeliveryRef);
      if (!on_redelivery) return located(on_redelivery.error(), c->where, route.id);
      cc.onRedelivery = std::move(*on_redelivery);
      cc.useOriginalMessage = c->useOriginalMessage;
      cc.useOriginalBody = c->useOriginalBody;
      std::vector<std::unique_ptr<Step>> trailing;
      trailing.push_back(makeFailureEpilogue());
      auto block = compiler.compileBlock(c->body, BlockKind::FailureBlock, std::move(trailing));
      if (!block) return block.error();
      cc.block = *block;
    }
    h->mayRedeliver = h->policy.maximumRedeliveries != 0 || h->retryWhile;
    h->needsOriginal = h->useOriginalMessage || h->useOriginalBody;
    for (const CompiledClause& cc : h->clauses) {
      h->mayRedeliver = h->mayRedeliver || cc.policy.maximumRedeliveries != 0 || cc.retryWhile;
      h->needsOriginal = h->needsOriginal || cc.useOriginalMessage || cc.useOriginalBody;
    }
    route.errorHandler = std::move(h);
    if (shareable) {
      shared.made = true;
      shared.model = configured;
      shared.handler = route.errorHandler;
    }
  }
  if (shared_lock.owns_lock()) shared_lock.unlock();

  // Route-scoped onCompletion, else the builder's.
  if (route.rare) route.rare->onCompletions.clear();
  const auto& completions =
      model.onCompletions.empty() ? model.builderOnCompletions : model.onCompletions;
  for (const auto& oc : completions) {
    auto c = std::make_unique<CompiledOnCompletion>();
    c->onCompleteOnly = oc->onCompleteOnly;
    c->onFailureOnly = oc->onFailureOnly;
    auto when = compileOptional(context, oc->onWhen);
    if (!when) return located(when.error(), oc->where, route.id);
    c->onWhen = std::move(*when);
    auto block = compiler.compileBlock(oc->body);
    if (!block) return block.error();
    c->block = *block;
    c->route = &route;
    route.rareParts().onCompletions.push_back(std::move(c));
  }

  // Flags: the body's steps save the message first when a redelivery may re-run them.
  if (!impl.tracer) {
    auto made = Tracer::create({}, context);  // the defaults: nothing that can fail
    if (!made) return made.error();
    impl.tracer = std::move(*made);
  }
  const Tracer& tracer = *impl.tracer;
  const bool tracing = tracer.installed() || route.trace.value_or(false);
  route.traced = tracing && tracer.marks(route, nullptr);
  route.entryHooks =
      static_cast<uint8_t>((route.onCompletions().empty() ? 0 : Route::kEntryOnCompletions) |
                           (route.traced ? Route::kEntryTrace : 0));
  const bool redeliver = route.errorHandler && route.errorHandler->mayRedeliver;
  for (size_t k = 0; k < route.steps.size(); ++k) {
    Step& s = *route.steps[k];
    s.flags = 0;
    s.checkpoint = Checkpoint::None;
    if (redeliver && k < body_steps) {
      const bool atomic = !s.origin.known() || s.origin.failureAtomic;
      s.flags |= kStepCheckpoint;
      s.checkpoint = atomic ? Checkpoint::None : Checkpoint::Armed;
    }
    if (impl.messageHistory) s.flags |= kStepHistory;
    if (tracing && tracer.marks(route, &s)) s.flags |= kStepTrace;
  }
  if (route.errorHandler && route.errorHandler->needsOriginal && !impl.captureOriginal) {
    impl.captureOriginal = true;
    for (auto& r : impl.routes) r->captureOriginal = true;
  }
  route.captureOriginal = impl.captureOriginal;
  return {};
}

namespace {
bool mayBlock(const Predicate* p) noexcept { return p && p->mayBlock(); }
}  // namespace

bool mayBlock(const CompiledErrorHandler& handler) noexcept {
  if (mayBlock(handler.retryWhile.get())) return true;
  if (handler.onRedelivery && handler.onRedelivery->mayBlock()) return true;
  for (const CompiledClause& c : handler.clauses) {
    if (mayBlock(c.onWhen.get()) || mayBlock(c.handled.get()) || mayBlock(c.continued.get()) ||
        mayBlock(c.retryWhile.get()) || (c.onRedelivery && c.onRedelivery->mayBlock())) {
      return true;
    }
  }
  return false;
}

}  // namespace dromedary::detail
