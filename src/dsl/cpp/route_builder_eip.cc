// SPDX-License-Identifier: Apache-2.0
// RouteDefinition's splitting and composing EIPs: split, multicast, recipientList,
// routingSlip, dynamicRouter, wireTap, pipeline, loop, and the options that follow them.
#include <dromedary/engine/route_builder.h>

#include "dsl/cpp/route_scope.h"

namespace dromedary {

using detail::BlockModel;
using detail::StepModel;

RouteDefinition& RouteDefinition::openBlock(std::unique_ptr<StepModel> step, BlockModel* body) {
  BlockModel* block = currentBlock();
  if (!block) return *this;
  lastEip_ = step.get();
  block->steps.push_back(std::move(step));
  scopes_.push_back({Scope::Block, body, nullptr});
  return *this;
}

template <class Model>
Model* RouteDefinition::lastOf(const char* option) {
  if (auto* m = dynamic_cast<Model*>(lastEip_)) return m;
  misuse(std::string(option) + "() needs a step it applies to before it");
  return nullptr;
}

namespace {
eip::AggregationOptionsModel* optionsOf(StepModel* step) {
  if (auto* s = dynamic_cast<eip::SplitModel*>(step)) return &s->options;
  if (auto* m = dynamic_cast<eip::MulticastModel*>(step)) return &m->options;
  if (auto* r = dynamic_cast<eip::RecipientListModel*>(step)) return &r->options;
  return nullptr;
}
}  // namespace

RouteDefinition& RouteDefinition::split(ExpressionDefinition expression) {
  auto step = std::make_unique<eip::SplitModel>(std::move(expression));
  BlockModel* body = &step->body;
  return openBlock(std::move(step), body);
}

RouteDefinition& RouteDefinition::split(ExpressionDefinition expression,
                                        std::shared_ptr<AggregationStrategy> strategy) {
  split(std::move(expression));
  return aggregationStrategy(std::move(strategy));
}

RouteDefinition& RouteDefinition::split(Tokenizer tokenizer) {
  auto step = std::make_unique<eip::SplitModel>(body());
  step->tokenizer = std::move(tokenizer);
  BlockModel* block = &step->body;
  return openBlock(std::move(step), block);
}

RouteDefinition& RouteDefinition::split(Tokenizer tokenizer,
                                        std::shared_ptr<AggregationStrategy> strategy) {
  split(std::move(tokenizer));
  return aggregationStrategy(std::move(strategy));
}

RouteDefinition& RouteDefinition::multicast() {
  auto step = std::make_unique<eip::MulticastModel>();
  BlockModel* body = &step->body;
  return openBlock(std::move(step), body);
}

RouteDefinition& RouteDefinition::multicast(std::shared_ptr<AggregationStrategy> strategy) {
  multicast();
  return aggregationStrategy(std::move(strategy));
}

RouteDefinition& RouteDefinition::pipeline() {
  auto step = std::make_unique<eip::PipelineModel>();
  BlockModel* body = &step->body;
  StepModel* keep = lastEip_;
  openBlock(std::move(step), body);
  lastEip_ = keep;  // options after a pipeline still mean the multicast around it
  return *this;
}

RouteDefinition& RouteDefinition::recipientList(ExpressionDefinition expression,
                                                std::string delimiter) {
  auto step = std::make_unique<eip::RecipientListModel>(std::move(expression));
  step->delimiter = std::move(delimiter);
  lastEip_ = step.get();
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::routingSlip(ExpressionDefinition expression,
                                              std::string delimiter) {
  auto step = std::make_unique<eip::RoutingSlipModel>(false, std::move(expression));
  step->delimiter = std::move(delimiter);
  lastEip_ = step.get();
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::dynamicRouter(ExpressionDefinition expression) {
  auto step = std::make_unique<eip::RoutingSlipModel>(true, std::move(expression));
  lastEip_ = step.get();
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::wireTap(std::string uri) {
  auto step = std::make_unique<eip::WireTapModel>();
  step->uri = std::move(uri);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::loop(ExpressionDefinition count) {
  auto step = std::make_unique<eip::LoopModel>(std::move(count));
  BlockModel* body = &step->body;
  return openBlock(std::move(step), body);
}

RouteDefinition& RouteDefinition::loop(int64_t count) { return loop(constant(Value(count))); }

RouteDefinition& RouteDefinition::loopDoWhile(PredicateDefinition predicate) {
  auto step = std::make_unique<eip::LoopModel>(constant(Value(int64_t{0})));
  step->whilePredicate = std::move(predicate);
  BlockModel* body = &step->body;
  return openBlock(std::move(step), body);
}

RouteDefinition& RouteDefinition::aggregationStrategy(
    std::shared_ptr<AggregationStrategy> strategy) {
  if (auto* e = dynamic_cast<eip::EnrichModel*>(lastEip_)) {
    e->strategy = std::move(strategy);
    e->strategyRef.clear();
  } else if (auto* a = dynamic_cast<eip::AggregateModel*>(lastEip_)) {
    a->strategy = std::move(strategy);
    a->strategyRef.clear();
  } else if (auto* c = dynamic_cast<eip::ClaimCheckModel*>(lastEip_)) {
    c->strategy = std::move(strategy);
    c->strategyRef.clear();
  } else if (auto* o = optionsOf(lastEip_)) {
    o->strategy = std::move(strategy);
    o->strategyRef.clear();
  } else {
    misuse("aggregationStrategy() needs a split, multicast or recipientList before it");
  }
  return *this;
}

RouteDefinition& RouteDefinition::aggregationStrategyRef(std::string name) {
  if (auto* e = dynamic_cast<eip::EnrichModel*>(lastEip_)) {
    e->strategyRef = std::move(name);
    e->strategy = nullptr;
  } else if (auto* a = dynamic_cast<eip::AggregateModel*>(lastEip_)) {
    a->strategyRef = std::move(name);
    a->strategy = nullptr;
  } else if (auto* c = dynamic_cast<eip::ClaimCheckModel*>(lastEip_)) {
    c->strategyRef = std::move(name);
    c->strategy = nullptr;
  } else if (auto* o = optionsOf(lastEip_)) {
    o->strategyRef = std::move(name);
    o->strategy = nullptr;
  } else {
    misuse("aggregationStrategyRef() needs a split, multicast or recipientList before it");
  }
  return *this;
}

#define DROMEDARY_FAN_OUT_FLAG(method, field)                                           \
  RouteDefinition& RouteDefinition::method(bool value) {                                \
    if (auto* o = optionsOf(lastEip_)) {                                                \
      o->field = value;                                                                 \
    } else {                                                                            \
      misuse(#method "() needs a split, multicast or recipientList before it");         \
    }                                                                                   \
    return *this;                                                                       \
  }
DROMEDARY_FAN_OUT_FLAG(parallelProcessing, parallelProcessing)
DROMEDARY_FAN_OUT_FLAG(stopOnException, stopOnException)
DROMEDARY_FAN_OUT_FLAG(shareUnitOfWork, shareUnitOfWork)
#undef DROMEDARY_FAN_OUT_FLAG

RouteDefinition& RouteDefinition::streaming(bool value) {
  if (auto* s = lastOf<eip::SplitModel>("streaming")) s->options.streaming = value;
  return *this;
}

RouteDefinition& RouteDefinition::timeout(std::chrono::milliseconds timeout) {
  if (auto* o = optionsOf(lastEip_)) {
    o->timeoutMillis = timeout.count();
  } else {
    misuse("timeout() needs a split, multicast or recipientList before it");
  }
  return *this;
}

RouteDefinition& RouteDefinition::ignoreInvalidEndpoints(bool ignore) {
  if (auto* e = dynamic_cast<eip::EnrichModel*>(lastEip_)) {
    e->ignoreInvalidEndpoint = ignore;
  } else if (auto* r = dynamic_cast<eip::RecipientListModel*>(lastEip_)) {
    r->ignoreInvalidEndpoints = ignore;
  } else if (auto* s = lastOf<eip::RoutingSlipModel>("ignoreInvalidEndpoints")) {
    s->ignoreInvalidEndpoints = ignore;
  }
  return *this;
}

RouteDefinition& RouteDefinition::cacheSize(int size) {
  if (auto* r = lastOf<eip::RecipientListModel>("cacheSize")) r->cacheSize = size;
  return *this;
}

RouteDefinition& RouteDefinition::copy(bool copy) {
  if (auto* l = lastOf<eip::LoopModel>("copy")) l->copy = copy;
  return *this;
}

RouteDefinition& RouteDefinition::aggregate(ExpressionDefinition correlation,
                                            std::shared_ptr<AggregationStrategy> strategy) {
  aggregate(std::move(correlation));
  return aggregationStrategy(std::move(strategy));
}

RouteDefinition& RouteDefinition::aggregate(ExpressionDefinition correlation) {
  auto step = std::make_unique<eip::AggregateModel>(std::move(correlation));
  BlockModel* body = &step->body;
  return openBlock(std::move(step), body);
}

#define DROMEDARY_AGGREGATE_OPTION(method, type, assign)                    \
  RouteDefinition& RouteDefinition::method(type value) {                    \
    if (auto* a = lastOf<eip::AggregateModel>(#method)) a->assign;          \
    return *this;                                                           \
  }
DROMEDARY_AGGREGATE_OPTION(completionSize, int64_t, completionSize = value)
DROMEDARY_AGGREGATE_OPTION(completionTimeout, std::chrono::milliseconds,
                           completionTimeoutMillis = value.count())
DROMEDARY_AGGREGATE_OPTION(completionInterval, std::chrono::milliseconds,
                           completionIntervalMillis = value.count())
DROMEDARY_AGGREGATE_OPTION(completionTimeoutCheckerInterval, std::chrono::milliseconds,
                           timeoutCheckerIntervalMillis = value.count())
DROMEDARY_AGGREGATE_OPTION(completionPredicate, PredicateDefinition,
                           completionPredicate = std::move(value))
DROMEDARY_AGGREGATE_OPTION(completionFromBatchConsumer, bool, completionFromBatchConsumer = value)
DROMEDARY_AGGREGATE_OPTION(eagerCheckCompletion, bool, eagerCheckCompletion = value)
DROMEDARY_AGGREGATE_OPTION(forceCompletionOnStop, bool, forceCompletionOnStop = value)
DROMEDARY_AGGREGATE_OPTION(optimisticLocking, bool, optimisticLocking = value)
DROMEDARY_AGGREGATE_OPTION(discardOnCompletionTimeout, bool, discardOnCompletionTimeout = value)
DROMEDARY_AGGREGATE_OPTION(closeCorrelationKeyOnCompletion, int64_t,
                           closeCorrelationKeyOnCompletion = value)
#undef DROMEDARY_AGGREGATE_OPTION

RouteDefinition& RouteDefinition::aggregationRepository(
    std::shared_ptr<AggregationRepository> repository) {
  if (auto* a = lastOf<eip::AggregateModel>("aggregationRepository")) {
    a->repository = std::move(repository);
    a->repositoryRef.clear();
  }
  return *this;
}

RouteDefinition& RouteDefinition::aggregationRepositoryRef(std::string name) {
  if (auto* a = lastOf<eip::AggregateModel>("aggregationRepositoryRef")) {
    a->repositoryRef = std::move(name);
    a->repository = nullptr;
  }
  return *this;
}

RouteDefinition& RouteDefinition::idempotentConsumer(
    ExpressionDefinition key, std::shared_ptr<IdempotentRepository> repository) {
  auto step = std::make_unique<eip::IdempotentConsumerModel>(std::move(key));
  step->repository = std::move(repository);
  BlockModel* body = &step->body;
  return openBlock(std::move(step), body);
}

RouteDefinition& RouteDefinition::idempotentConsumer(ExpressionDefinition key,
                                                     std::string repository_ref) {
  auto step = std::make_unique<eip::IdempotentConsumerModel>(std::move(key));
  step->repositoryRef = std::move(repository_ref);
  BlockModel* body = &step->body;
  return openBlock(std::move(step), body);
}

#define DROMEDARY_IDEMPOTENT_OPTION(method, field)                             \
  RouteDefinition& RouteDefinition::method(bool value) {                       \
    if (auto* m = lastOf<eip::IdempotentConsumerModel>(#method)) m->field = value; \
    return *this;                                                              \
  }
DROMEDARY_IDEMPOTENT_OPTION(skipDuplicate, skipDuplicate)
DROMEDARY_IDEMPOTENT_OPTION(removeOnFailure, removeOnFailure)
DROMEDARY_IDEMPOTENT_OPTION(eager, eager)
DROMEDARY_IDEMPOTENT_OPTION(completionEager, completionEager)
#undef DROMEDARY_IDEMPOTENT_OPTION

RouteDefinition& RouteDefinition::enrich(std::string uri,
                                         std::shared_ptr<AggregationStrategy> strategy) {
  return enrich(constant(Value(std::move(uri))), std::move(strategy));
}

RouteDefinition& RouteDefinition::enrich(ExpressionDefinition uri,
                                         std::shared_ptr<AggregationStrategy> strategy) {
  auto step = std::make_unique<eip::EnrichModel>(std::move(uri));
  step->strategy = std::move(strategy);
  lastEip_ = step.get();
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::pollEnrich(std::string uri, int64_t timeout_ms,
                                             std::shared_ptr<AggregationStrategy> strategy) {
  return pollEnrich(constant(Value(std::move(uri))), timeout_ms, std::move(strategy));
}

RouteDefinition& RouteDefinition::pollEnrich(ExpressionDefinition uri, int64_t timeout_ms,
                                             std::shared_ptr<AggregationStrategy> strategy) {
  enrich(std::move(uri), std::move(strategy));
  auto* step = static_cast<eip::EnrichModel*>(lastEip_);
  step->poll = true;
  step->timeoutMillis = timeout_ms;
  return *this;
}

RouteDefinition& RouteDefinition::script(ExpressionDefinition expression) {
  return add(std::make_unique<eip::ScriptModel>(std::move(expression)));
}

RouteDefinition& RouteDefinition::poll(std::string uri, int64_t timeout_ms) {
  const bool dynamic = uri.find("${") != std::string::npos;
  pollEnrich(dynamic ? simple(std::move(uri)) : constant(Value(std::move(uri))), timeout_ms);
  static_cast<eip::EnrichModel*>(lastEip_)->pollOnly = true;
  return *this;
}

RouteDefinition& RouteDefinition::claimCheck(ClaimCheckOperation operation, std::string key,
                                             std::string filter) {
  auto step = std::make_unique<eip::ClaimCheckModel>();
  step->operation = operation;
  step->key = std::move(key);
  step->filter = std::move(filter);
  lastEip_ = step.get();
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::aggregateOnException(bool on) {
  if (auto* e = lastOf<eip::EnrichModel>("aggregateOnException")) e->aggregateOnException = on;
  return *this;
}

RouteDefinition& RouteDefinition::resequence(ExpressionDefinition expression) {
  auto step = std::make_unique<eip::ResequenceModel>(std::move(expression));
  BlockModel* body = &step->body;
  return openBlock(std::move(step), body);
}

RouteDefinition& RouteDefinition::batch(int64_t batch_size,
                                        std::chrono::milliseconds batch_timeout) {
  if (auto* r = lastOf<eip::ResequenceModel>("batch")) {
    r->stream = false;
    r->batchSize = batch_size;
    r->batchTimeoutMillis = batch_timeout.count();
  }
  return *this;
}

RouteDefinition& RouteDefinition::stream(int64_t capacity, std::chrono::milliseconds timeout) {
  if (auto* r = lastOf<eip::ResequenceModel>("stream")) {
    r->stream = true;
    r->capacity = capacity;
    r->streamTimeoutMillis = timeout.count();
  }
  return *this;
}

#define DROMEDARY_RESEQUENCE_OPTION(method, field)                               \
  RouteDefinition& RouteDefinition::method(bool value) {                         \
    if (auto* r = lastOf<eip::ResequenceModel>(#method)) r->field = value;      \
    return *this;                                                                \
  }
DROMEDARY_RESEQUENCE_OPTION(allowDuplicates, allowDuplicates)
DROMEDARY_RESEQUENCE_OPTION(reverse, reverse)
DROMEDARY_RESEQUENCE_OPTION(rejectOld, rejectOld)
DROMEDARY_RESEQUENCE_OPTION(ignoreInvalidExchanges, ignoreInvalidExchanges)
#undef DROMEDARY_RESEQUENCE_OPTION

RouteDefinition& RouteDefinition::sort(ExpressionDefinition expression,
                                       std::function<bool(const Value&, const Value&)> less) {
  auto step = std::make_unique<eip::SortModel>(std::move(expression));
  step->comparator = std::move(less);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::sample(std::chrono::milliseconds period) {
  auto step = std::make_unique<eip::SampleModel>();
  step->periodMillis = period.count();
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::sample(int64_t message_frequency) {
  auto step = std::make_unique<eip::SampleModel>();
  step->messageFrequency = message_frequency;
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::loadBalance() {
  auto step = std::make_unique<eip::LoadBalanceModel>();
  BlockModel* body = &step->body;
  return openBlock(std::move(step), body);
}

RouteDefinition& RouteDefinition::roundRobin() {
  if (auto* m = lastOf<eip::LoadBalanceModel>("roundRobin")) {
    m->policy = eip::LoadBalanceModel::Policy::RoundRobin;
  }
  return *this;
}

RouteDefinition& RouteDefinition::random() {
  if (auto* m = lastOf<eip::LoadBalanceModel>("random")) {
    m->policy = eip::LoadBalanceModel::Policy::Random;
  }
  return *this;
}

RouteDefinition& RouteDefinition::failover(std::vector<std::string> exceptions) {
  return failover(-1, false, false, std::move(exceptions));
}

RouteDefinition& RouteDefinition::failover(int maximum_failover_attempts, bool round_robin,
                                           bool sticky, std::vector<std::string> exceptions) {
  if (auto* m = lastOf<eip::LoadBalanceModel>("failover")) {
    m->policy = eip::LoadBalanceModel::Policy::Failover;
    m->maximumFailoverAttempts = maximum_failover_attempts;
    m->roundRobin = round_robin;
    m->sticky = sticky;
    m->exceptions = std::move(exceptions);
  }
  return *this;
}

RouteDefinition& RouteDefinition::weighted(bool round_robin, std::string distribution_ratio,
                                           std::string delimiter) {
  if (auto* m = lastOf<eip::LoadBalanceModel>("weighted")) {
    m->policy = eip::LoadBalanceModel::Policy::Weighted;
    m->weightedRoundRobin = round_robin;
    m->distributionRatio = std::move(distribution_ratio);
    m->distributionRatioDelimiter = std::move(delimiter);
  }
  return *this;
}

RouteDefinition& RouteDefinition::topic() {
  if (auto* m = lastOf<eip::LoadBalanceModel>("topic")) {
    m->policy = eip::LoadBalanceModel::Policy::Topic;
  }
  return *this;
}

RouteDefinition& RouteDefinition::sticky(ExpressionDefinition correlation) {
  if (auto* m = lastOf<eip::LoadBalanceModel>("sticky")) {
    m->policy = eip::LoadBalanceModel::Policy::Sticky;
    m->correlation = std::move(correlation);
  }
  return *this;
}

}  // namespace dromedary
