// SPDX-License-Identifier: Apache-2.0
#pragma once

// The step models of the built-in EIPs. Each is compiled by its own file in src/eip/
// (to.cc, filter.cc, choice.cc ...), which also holds the step it compiles into.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dromedary/core/logging.h>
#include <dromedary/engine/aggregation_repository.h>
#include <dromedary/engine/aggregation_strategy.h>
#include <dromedary/engine/circuit_breaker.h>
#include <dromedary/engine/expression_builder.h>
#include <dromedary/engine/idempotent_repository.h>
#include <dromedary/spi/processor.h>

#include "eip/eip_schemas.h"
#include "engine/route_model.h"

namespace dromedary::eip {

using detail::BlockModel;
using detail::StepModel;

struct ToModel final : StepModel {
  std::string uri;
  int pattern = -1;  ///< to(pattern, uri): this send's exchange pattern (a Pattern), restored after
  std::string variableSend, variableReceive;  ///< Camel 4's (sendWithVariables)
  std::string_view kind() const override { return "to"; }
  std::string describe() const override { return "to[" + uri + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct ToDynamicModel final : StepModel {
  explicit ToDynamicModel(ExpressionDefinition e) : uri(std::move(e)) {}
  ExpressionDefinition uri;
  int pattern = -1;  ///< as ToModel::pattern
  std::string variableSend, variableReceive;  ///< as ToModel's
  /// Camel's allowOptimisedComponents: a URI of a component that splits its URIs (http) goes
  /// to one endpoint per host, its path and query in headers.
  bool allowOptimisedComponents = true;
  std::string_view kind() const override { return "toD"; }
  std::string describe() const override { return "toD[" + uri.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// A to / toD naming variables (Camel 4's variableSend / variableReceive), made as an enrich
/// step of one endpoint (enrich.cc): a copy is sent, its body from `variable_send`, and the
/// reply's body and headers go to `variable_receive` (without one, the reply becomes the
/// message). `pattern` -1: the exchange's.
Result<std::unique_ptr<Step>> sendWithVariables(RouteCompiler& compiler, const StepModel& step,
                                                const ExpressionDefinition& uri, int pattern,
                                                const std::string& variable_send,
                                                const std::string& variable_receive);

/// `send` with the exchange pattern set to `pattern` for it and restored after it, as Camel's
/// to(ExchangePattern, uri) (used by to and toD when a pattern is given).
Result<std::unique_ptr<Step>> sendWithPattern(RouteCompiler& compiler, Pattern pattern,
                                              std::unique_ptr<Step> send);

struct ProcessModel final : StepModel {
  std::shared_ptr<Processor> processor;  // owned or shared
  Processor* borrowed = nullptr;         // owned elsewhere
  std::string ref;                       // bound in the context by name (route files)
  bool bean = false;                     // Camel's bean EIP: ref and method name the processor
  std::string method;                    // bean: the method (NAME.METHOD bound first)
  std::string_view kind() const override { return bean ? "bean" : "process"; }
  std::string describe() const override {
    if (bean) return "bean[" + ref + (method.empty() ? "" : "." + method) + "]";
    return ref.empty() ? std::string("process") : "process[ref=" + ref + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// setBody and transform (Camel's transform sets the body too).
struct SetBodyModel final : StepModel {
  bool failureAtomic() const override { return true; }
  SetBodyModel(std::string_view k, ExpressionDefinition e) : kind_(k), value(std::move(e)) {}
  std::string_view kind_;
  ExpressionDefinition value;
  std::string_view kind() const override { return kind_; }
  std::string describe() const override {
    return std::string(kind_) + "[" + value.describe() + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// script(expr): the expression evaluated for its effects; the message stays (script.cc).
struct ScriptModel final : StepModel {
  bool failureAtomic() const override { return true; }
  explicit ScriptModel(ExpressionDefinition e) : script(std::move(e)) {}
  ExpressionDefinition script;
  std::string_view kind() const override { return "script"; }
  std::string describe() const override { return "script[" + script.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// setHeader and setProperty.
struct SetHeaderModel final : StepModel {
  bool failureAtomic() const override { return true; }
  SetHeaderModel(bool p, std::string n, ExpressionDefinition e)
      : property(p), name(std::move(n)), value(std::move(e)) {}
  bool property;
  std::string name;
  ExpressionDefinition value;
  std::string_view kind() const override { return property ? "setProperty" : "setHeader"; }
  std::string describe() const override {
    return std::string(kind()) + "[" + name + "=" + value.describe() + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// setVariable(name, expression) (variables.cc): the exchange's own variable, or a global or
/// route one by its prefix; a name with ${...} is a Simple template evaluated per exchange.
struct SetVariableModel final : StepModel {
  bool failureAtomic() const override { return true; }
  SetVariableModel(std::string n, ExpressionDefinition e)
      : name(std::move(n)), value(std::move(e)) {}
  std::string name;
  ExpressionDefinition value;
  std::string_view kind() const override { return "setVariable"; }
  std::string describe() const override {
    return "setVariable[" + name + "=" + value.describe() + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// removeVariable(name): one variable, or with "*" all of its scope (variables.cc).
struct RemoveVariableModel final : StepModel {
  bool failureAtomic() const override { return true; }
  std::string name;
  std::string_view kind() const override { return "removeVariable"; }
  std::string describe() const override { return "removeVariable[" + name + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// removeHeader(s) and removeProperty/ies.
struct RemoveHeadersModel final : StepModel {
  bool failureAtomic() const override { return true; }
  bool property = false;
  bool single = false;  // removeHeader(name): an exact name, no pattern
  std::string pattern;
  std::vector<std::string> excludes;
  std::string_view kind() const override {
    if (property) return single ? "removeProperty" : "removeProperties";
    return single ? "removeHeader" : "removeHeaders";
  }
  std::string describe() const override { return std::string(kind()) + "[" + pattern + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// convertHeaderTo, and convertVariableTo (`variable`: the exchange's own variables).
struct ConvertHeaderModel final : StepModel {
  bool failureAtomic() const override { return true; }
  std::string header, type, toName;
  std::string charset;  // empty: UTF-8
  bool mandatory = true;
  bool variable = false;
  std::string_view kind() const override {
    return variable ? "convertVariableTo" : "convertHeaderTo";
  }
  std::string describe() const override { return std::string(kind()) + "[" + header + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct ConvertBodyModel final : StepModel {
  bool failureAtomic() const override { return true; }
  std::string type;
  std::string charset;  // empty: UTF-8
  bool mandatory = true;
  std::string_view kind() const override { return "convertBodyTo"; }
  std::string describe() const override { return "convertBodyTo[" + type + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// marshal / unmarshal: the body through a data format (spi/data_format.h), found by name and
/// made from the options when the route starts.
struct MarshalModel final : StepModel {
  bool failureAtomic() const override { return true; }
  bool unmarshal = false;
  std::string format;
  std::map<std::string, std::string, std::less<>> options;
  std::string variableSend;     ///< Camel 4: the input from this variable instead of the body
  std::string variableReceive;  ///< Camel 4: the result into this variable; the body stays
  std::string_view kind() const override { return unmarshal ? "unmarshal" : "marshal"; }
  std::string describe() const override { return std::string(kind()) + "[" + format + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct FilterModel final : StepModel {
  bool failureAtomic() const override { return true; }
  explicit FilterModel(PredicateDefinition p) : predicate(std::move(p)) {}
  PredicateDefinition predicate;
  BlockModel body;
  std::string_view kind() const override { return "filter"; }
  std::string describe() const override { return "filter[" + predicate.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct ValidateModel final : StepModel {
  bool failureAtomic() const override { return true; }
  explicit ValidateModel(PredicateDefinition p) : predicate(std::move(p)) {}
  PredicateDefinition predicate;
  std::string_view kind() const override { return "validate"; }
  std::string describe() const override { return "validate[" + predicate.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// doTry / doCatch / doFinally (do_try.cc).
struct TryModel final : StepModel {
  struct CatchModel {
    std::vector<std::string> exceptions;  // empty: every failure
    std::optional<PredicateDefinition> onWhen;
    BlockModel body;
    SourceRef where;
  };
  BlockModel body;
  std::vector<std::unique_ptr<CatchModel>> catches;
  std::unique_ptr<BlockModel> finallyBody;
  std::string_view kind() const override { return "doTry"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
  std::string branchLabel(size_t index) const override;
};

/// circuitBreaker / onFallback (circuit_breaker.cc).
struct CircuitBreakerModel final : StepModel {
  CircuitBreakerConfig config;
  bool inheritErrorHandler = booleanDefault(kCircuitBreakerSchema, "inheritErrorHandler");
  BlockModel body;
  std::unique_ptr<BlockModel> fallback;  ///< onFallback; null: none
  std::string_view kind() const override { return "circuitBreaker"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
  std::string branchLabel(size_t index) const override {
    return index == 0 ? std::string() : std::string("onFallback");
  }
};

struct ChoiceModel final : StepModel {
  bool failureAtomic() const override { return true; }
  struct When {
    PredicateDefinition predicate;
    BlockModel body;
  };
  std::vector<When> whens;
  std::unique_ptr<BlockModel> otherwise;
  std::string_view kind() const override { return "choice"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
  std::string branchLabel(size_t index) const override {
    return index < whens.size() ? "when[" + whens[index].predicate.describe() + "]"
                                : "otherwise";
  }
};

/// delay(expr): waits the expression's milliseconds without holding a thread.
struct DelayModel final : StepModel {
  bool failureAtomic() const override { return true; }
  explicit DelayModel(ExpressionDefinition e) : millis(std::move(e)) {}
  ExpressionDefinition millis;
  std::string_view kind() const override { return "delay"; }
  std::string describe() const override { return "delay[" + millis.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// threads(poolSize, maxPoolSize): the rest of the route runs on this step's own pool.
struct ThreadsModel final : StepModel {
  int poolSize = static_cast<int>(integerDefault(kThreadsSchema, "poolSize"));
  int maxPoolSize = 20;
  int maxQueueSize = static_cast<int>(integerDefault(kThreadsSchema, "maxQueueSize"));
  std::string_view kind() const override { return "threads"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// throttle(maximumRequests, timePeriod): at most N exchanges pass per period; the others
/// wait (without a thread) in arrival order, or are rejected with rejectExecution.
struct ThrottleModel final : StepModel {
  bool failureAtomic() const override { return true; }
  explicit ThrottleModel(ExpressionDefinition m) : maximum(std::move(m)) {}
  ExpressionDefinition maximum;
  std::chrono::milliseconds period{integerDefault(kThrottleSchema, "timePeriodMillis")};
  bool reject = booleanDefault(kThrottleSchema, "rejectExecution");
  bool concurrent = false;  ///< ConcurrentRequests mode: at most N exchanges in flight
  std::string_view kind() const override { return "throttle"; }
  std::string describe() const override { return "throttle[" + maximum.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct SetExchangePatternModel final : StepModel {
  bool failureAtomic() const override { return true; }
  Pattern pattern = Pattern::InOnly;
  std::string_view kind() const override { return "setExchangePattern"; }
  std::string describe() const override {
    return "setExchangePattern[" + std::string(patternName(pattern)) + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct StopModel final : StepModel {
  bool failureAtomic() const override { return true; }
  std::string_view kind() const override { return "stop"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// throwException(exceptionType, message): fails the exchange with a failure of that type
/// (one the context's exception registry knows), whose text is the message (Simple); the
/// error handler, onException and doCatch see it as that type (throw_exception.cc).
struct ThrowExceptionModel final : StepModel {
  std::string exceptionType;
  std::string message;  ///< Simple; empty: the type's name
  std::string_view kind() const override { return "throwException"; }
  std::string describe() const override { return "throwException[" + exceptionType + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct LogModel final : StepModel {
  bool failureAtomic() const override { return true; }
  LogModel(LoggingLevel l, std::string n, ExpressionDefinition m)
      : level(l), logName(std::move(n)), message(std::move(m)) {}
  LoggingLevel level;
  std::string logName;  // empty: the route id
  ExpressionDefinition message;
  std::string_view kind() const override { return "log"; }
  std::string describe() const override { return "log[" + message.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

struct FanOutOptions;

/// The aggregation and threading options shared by split, multicast and recipientList.
/// Its defaults are the fan-out group's (kFanOutAttributes), which split, multicast and
/// recipientList share: read through split's schema.
struct AggregationOptionsModel {
  std::shared_ptr<AggregationStrategy> strategy;
  std::string strategyRef;  // a strategy bound in the context, or one of Camel's class names
  bool parallelProcessing = booleanDefault(kSplitSchema, "parallelProcessing");
  bool stopOnException = booleanDefault(kSplitSchema, "stopOnException");
  bool streaming = booleanDefault(kSplitSchema, "streaming");
  bool shareUnitOfWork = booleanDefault(kSplitSchema, "shareUnitOfWork");
  int64_t timeoutMillis = integerDefault(kSplitSchema, "timeout");
  /// The options to run with; `useOriginalByDefault` for split (Camel keeps its input).
  Result<FanOutOptions> compile(RouteCompiler& compiler, const StepModel& step,
                                bool useOriginalByDefault) const;
};

/// split(expression): each item of the expression's value (a list's elements, a map's
/// entries, a text's comma-separated parts, or tokenize()'s tokens) runs `body` as its own
/// sub-exchange (split.cc).
struct SplitModel final : StepModel {
  explicit SplitModel(ExpressionDefinition e) : expression(std::move(e)) {}
  ExpressionDefinition expression;
  std::optional<Tokenizer> tokenizer;
  AggregationOptionsModel options;
  BlockModel body;
  std::string_view kind() const override { return "split"; }
  std::string describe() const override;
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// multicast(): each step of `body` is a branch that gets its own copy of the exchange.
struct MulticastModel final : StepModel {
  AggregationOptionsModel options;
  BlockModel body;
  std::string_view kind() const override { return "multicast"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// pipeline(): its steps in order, as one step (a multicast branch of several steps).
struct PipelineModel final : StepModel {
  BlockModel body;
  std::string_view kind() const override { return "pipeline"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// recipientList(expression): a copy to each endpoint the expression names.
struct RecipientListModel final : StepModel {
  explicit RecipientListModel(ExpressionDefinition e) : expression(std::move(e)) {}
  ExpressionDefinition expression;
  std::string delimiter = textDefault(kRecipientListSchema, "delimiter");
  bool ignoreInvalidEndpoints = booleanDefault(kRecipientListSchema, "ignoreInvalidEndpoints");
  int cacheSize = static_cast<int>(integerDefault(kRecipientListSchema, "cacheSize"));
  AggregationOptionsModel options;
  std::string_view kind() const override { return "recipientList"; }
  std::string describe() const override { return "recipientList[" + expression.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// routingSlip(expression) and dynamicRouter(expression): the exchange itself goes through
/// the endpoints named, one after the other (routing_slip.cc).
struct RoutingSlipModel final : StepModel {
  RoutingSlipModel(bool dynamic_router, ExpressionDefinition e)
      : dynamic(dynamic_router), expression(std::move(e)) {}
  bool dynamic;
  ExpressionDefinition expression;
  std::string delimiter = textDefault(kRoutingSlipSchema, "uriDelimiter");
  bool ignoreInvalidEndpoints = booleanDefault(kRoutingSlipSchema, "ignoreInvalidEndpoints");
  std::string_view kind() const override { return dynamic ? "dynamicRouter" : "routingSlip"; }
  std::string describe() const override {
    return std::string(kind()) + "[" + expression.describe() + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// wireTap(uri): a copy goes to the endpoint on a worker; the exchange goes on at once.
struct WireTapModel final : StepModel {
  bool failureAtomic() const override { return true; }
  std::string uri;
  bool dynamicUri = booleanDefault(kWireTapSchema, "dynamicUri");  // toD templates, as Camel's
  std::string variableSend;  ///< Camel 4: the tap's body from this variable
  std::string_view kind() const override { return "wireTap"; }
  std::string describe() const override { return "wireTap[" + uri + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// loop(count) / loop(predicate) with doWhile: the body again and again (loop.cc).
struct LoopModel final : StepModel {
  explicit LoopModel(ExpressionDefinition e) : count(std::move(e)) {}
  ExpressionDefinition count;             // the number of iterations
  std::optional<PredicateDefinition> whilePredicate;  // doWhile: loop while it holds
  bool copy = booleanDefault(kLoopSchema, "copy");  // each iteration starts from a copy
  BlockModel body;
  std::string_view kind() const override { return "loop"; }
  std::string describe() const override {
    return "loop[" + (whilePredicate ? whilePredicate->describe() : count.describe()) + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// aggregate(correlation, strategy): combines exchanges with the same correlation key into one,
/// which runs `body` once its group completes (aggregate.cc).
struct AggregateModel final : StepModel {
  explicit AggregateModel(ExpressionDefinition c) : correlation(std::move(c)) {}
  ExpressionDefinition correlation;
  std::shared_ptr<AggregationStrategy> strategy;
  std::string strategyRef;
  int64_t completionSize = integerDefault(kAggregateSchema, "completionSize");
  int64_t completionTimeoutMillis = integerDefault(kAggregateSchema, "completionTimeout");
  int64_t completionIntervalMillis = integerDefault(kAggregateSchema, "completionInterval");
  int64_t timeoutCheckerIntervalMillis =
      integerDefault(kAggregateSchema, "completionTimeoutCheckerInterval");
  std::optional<PredicateDefinition> completionPredicate;
  bool completionFromBatchConsumer =
      booleanDefault(kAggregateSchema, "completionFromBatchConsumer");
  bool eagerCheckCompletion = booleanDefault(kAggregateSchema, "eagerCheckCompletion");
  bool forceCompletionOnStop = booleanDefault(kAggregateSchema, "forceCompletionOnStop");
  bool optimisticLocking = booleanDefault(kAggregateSchema, "optimisticLocking");
  bool discardOnCompletionTimeout =
      booleanDefault(kAggregateSchema, "discardOnCompletionTimeout");
  int64_t closeCorrelationKeyOnCompletion = -1;  // -1: keys stay open; 0: no limit; N: LRU
  std::shared_ptr<AggregationRepository> repository;  // null: memory only
  std::string repositoryRef;                          // or one bound in the context
  BlockModel body;
  std::string_view kind() const override { return "aggregate"; }
  std::string describe() const override {
    return "aggregate[" + correlation.describe() + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// idempotentConsumer(key, repository): its steps run once per key (idempotent_consumer.cc).
struct IdempotentConsumerModel final : StepModel {
  explicit IdempotentConsumerModel(ExpressionDefinition k) : key(std::move(k)) {}
  ExpressionDefinition key;
  std::shared_ptr<IdempotentRepository> repository;
  std::string repositoryRef;
  bool eager = booleanDefault(kIdempotentConsumerSchema, "eager");
  bool skipDuplicate = booleanDefault(kIdempotentConsumerSchema, "skipDuplicate");
  bool removeOnFailure = booleanDefault(kIdempotentConsumerSchema, "removeOnFailure");
  bool completionEager = booleanDefault(kIdempotentConsumerSchema, "completionEager");
  BlockModel body;
  std::string_view kind() const override { return "idempotentConsumer"; }
  std::string describe() const override {
    return "idempotentConsumer[" + key.describe() + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// loadBalance(): each exchange goes to one of the steps of `body` (load_balance.cc).
struct LoadBalanceModel final : StepModel {
  enum class Policy { RoundRobin, Random, Failover, Weighted, Sticky, Topic };
  Policy policy = Policy::RoundRobin;
  // failover: -1 = no limit (each branch once unless roundRobin), 0 = none
  int maximumFailoverAttempts =
      static_cast<int>(integerDefault(kLoadBalanceSchema, "failover", "maximumFailoverAttempts"));
  // failover: start at the next branch each time; start where the last success was
  bool roundRobin = booleanDefault(kLoadBalanceSchema, "failover", "roundRobin");
  bool sticky = booleanDefault(kLoadBalanceSchema, "failover", "sticky");
  std::vector<std::string> exceptions;  // failover: only on these (none = any failure)
  bool weightedRoundRobin = booleanDefault(kLoadBalanceSchema, "weighted", "roundRobin");
  std::string distributionRatio;  // weighted: "4,2,1"
  std::string distributionRatioDelimiter =
      textDefault(kLoadBalanceSchema, "weighted", "distributionRatioDelimiter");
  std::optional<ExpressionDefinition> correlation;  // sticky
  BlockModel body;
  std::string_view kind() const override { return "loadBalance"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// claimCheck(operation, key, filter): Camel's Claim Check (claim_check.cc). Set and Push keep
/// a copy of the message (body and headers) in the exchange's claim check repository; Get,
/// GetAndRemove and Pop merge one back, as `filter` says or through a strategy.
struct ClaimCheckModel final : StepModel {
  using Operation = ClaimCheckOperation;
  Operation operation = Operation::Get;
  std::string key;  ///< Get, GetAndRemove, Set; ${...} is Simple
  std::string filter;
  std::shared_ptr<AggregationStrategy> strategy;
  std::string strategyRef;
  std::string_view kind() const override { return "claimCheck"; }
  std::string describe() const override;
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// sort(expression): the expression's list (or comma-separated text), sorted, as the body.
struct SortModel final : StepModel {
  bool failureAtomic() const override { return true; }
  explicit SortModel(ExpressionDefinition e) : expression(std::move(e)) {}
  ExpressionDefinition expression;
  std::function<bool(const Value&, const Value&)> comparator;  // null: Camel's ordering
  std::string_view kind() const override { return "sort"; }
  std::string describe() const override { return "sort[" + expression.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// sample(period) / sample(messageFrequency): lets one exchange through per period (or one in
/// N); the others stop there, successfully.
struct SampleModel final : StepModel {
  bool failureAtomic() const override { return true; }
  int64_t periodMillis = integerDefault(kSampleSchema, "samplePeriod");
  int64_t messageFrequency = 0;  // > 0: frequency mode
  std::string_view kind() const override { return "sample"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

/// enrich(uri, strategy): a copy of the exchange asks the endpoint; the strategy combines the
/// reply with the exchange (without one, the reply's message replaces it) (enrich.cc).
/// pollEnrich (poll = true): the message comes from the endpoint's polling consumer instead,
/// waited for up to timeoutMillis (poll_enrich.cc).
struct EnrichModel final : StepModel {
  explicit EnrichModel(ExpressionDefinition u) : uri(std::move(u)) {}
  ExpressionDefinition uri;
  std::shared_ptr<AggregationStrategy> strategy;
  std::string strategyRef;
  bool aggregateOnException = booleanDefault(kEnrichSchema, "aggregateOnException");
  bool ignoreInvalidEndpoint = booleanDefault(kEnrichSchema, "ignoreInvalidEndpoint");
  bool poll = false;
  bool pollOnly = false;  ///< Camel 4's poll: a pollEnrich with a static endpoint, no strategy
  std::string variableSend;     ///< enrich only (Camel 4)
  std::string variableReceive;  ///< the reply's (polled) body goes here; the message stays
  // pollEnrich: negative = wait for ever, 0 = no wait
  int64_t timeoutMillis = integerDefault(kPollEnrichSchema, "timeout");
  std::string_view kind() const override {
    return pollOnly ? "poll" : poll ? "pollEnrich" : "enrich";
  }
  std::string describe() const override {
    return std::string(kind()) + "[" + uri.describe() + "]";
  }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
  Result<std::unique_ptr<Step>> compilePoll(RouteCompiler& compiler) const;
};

/// resequence(expression): exchanges go through its steps in the order of the expression's
/// values (resequence.cc): batch mode sorts groups; stream mode orders sequence numbers.
struct ResequenceModel final : StepModel {
  explicit ResequenceModel(ExpressionDefinition e) : expression(std::move(e)) {}
  ExpressionDefinition expression;
  bool stream = false;
  // batch mode (the schema's batchConfig)
  int64_t batchSize = integerDefault(kResequenceSchema, "batchConfig", "batchSize");
  int64_t batchTimeoutMillis = integerDefault(kResequenceSchema, "batchConfig", "batchTimeout");
  bool allowDuplicates = booleanDefault(kResequenceSchema, "batchConfig", "allowDuplicates");
  bool reverse = booleanDefault(kResequenceSchema, "batchConfig", "reverse");
  // stream mode (streamConfig)
  int64_t capacity = integerDefault(kResequenceSchema, "streamConfig", "capacity");
  int64_t streamTimeoutMillis = integerDefault(kResequenceSchema, "streamConfig", "timeout");
  bool rejectOld = booleanDefault(kResequenceSchema, "streamConfig", "rejectOld");
  bool ignoreInvalidExchanges =
      booleanDefault(kResequenceSchema, "batchConfig", "ignoreInvalidExchanges");
  BlockModel body;
  std::string_view kind() const override { return "resequence"; }
  std::string describe() const override { return "resequence[" + expression.describe() + "]"; }
  Result<std::unique_ptr<Step>> compile(RouteCompiler& compiler) const override;
};

}  // namespace dromedary::eip
