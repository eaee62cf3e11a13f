// SPDX-License-Identifier: Apache-2.0
#pragma once

/// RouteBuilder: the C++ route DSL, with Camel's names.
///
/// A RouteBuilder collects route definitions; the context compiles them into flat arrays of
/// nodes when the routes start (URIs parsed and endpoints resolved, expressions compiled,
/// placeholders filled in). Nested blocks (filter, choice) are closed with `end()`, as in
/// Camel's Java DSL. Mistakes in the chain (a `when()` outside a `choice()`, an `end()` too
/// many) are reported by `Context::addRoutes` with the route and step they concern.
///
/// Example:
///   class OrderRoutes : public RouteBuilder {
///     void configure() override {
///       from("direct:orders").routeId("orders")
///           .setHeader("received", constant(true))
///           .filter(header("type") == "order")
///             .choice()
///               .when(header("amount") > 1000).to("direct:big")
///               .otherwise().to("log:small")
///             .end()
///           .end()
///           .to("mock:done");
///     }
///   };
///   context.addRoutes(routes);

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <dromedary/core/logging.h>
#include <dromedary/engine/aggregation_repository.h>
#include <dromedary/engine/aggregation_strategy.h>
#include <dromedary/engine/circuit_breaker.h>
#include <dromedary/engine/error_handler.h>
#include <dromedary/engine/idempotent_repository.h>
#include <dromedary/engine/expression_builder.h>
#include <dromedary/engine/rest_definition.h>
#include <dromedary/spi/processor.h>

namespace dromedary {

namespace detail {
struct RouteModel;
struct BlockModel;
struct StepModel;
struct OnExceptionModel;
}  // namespace detail

/// When a route's consumer stops as the context stops (Camel's shutdownRoute): Default with
/// the others, in reverse start order; Defer after every other route has drained (for routes
/// the others still send to; direct: and seda: consumers are deferred anyway).
enum class ShutdownRoute : uint8_t { Default, Defer };

/// What a stopping route finishes (Camel's shutdownRunningTask): the exchanges running now
/// only, or also what its consumer has accepted and not yet started (a seda: queue). Unlike
/// Camel, whose default is CompleteCurrentTaskOnly, CompleteAllTasks is the default here: a
/// graceful stop loses no queued message unless its timeout passes.
enum class ShutdownRunningTask : uint8_t { CompleteAllTasks, CompleteCurrentTaskOnly };


/// Camel's Claim Check operations (RouteDefinition::claimCheck).
enum class ClaimCheckOperation : uint8_t { Get, GetAndRemove, Set, Push, Pop };

/// One route under construction. Every DSL method returns *this for chaining.
class RouteDefinition {
 public:
  explicit RouteDefinition(std::string from_uri);
  ~RouteDefinition();
  RouteDefinition(const RouteDefinition&) = delete;
  RouteDefinition& operator=(const RouteDefinition&) = delete;

  // --- route settings ----------------------------------------------------------
  RouteDefinition& routeId(std::string id);
  RouteDefinition& autoStartup(bool auto_startup);
  /// Camel's shutdownRoute and shutdownRunningTask (above).
  RouteDefinition& shutdownRoute(ShutdownRoute when);
  RouteDefinition& shutdownRunningTask(ShutdownRunningTask what);
  RouteDefinition& description(std::string text);
  /// Camel's route `trace`: true traces this route in the trace log (and the backlog tracer,
  /// when on) whatever the context's tracing and pattern say; false never traces it.
  RouteDefinition& trace(bool enabled);
  /// Camel's nodePrefixId: put before every node id this route's steps are given
  /// automatically (`tpl-to1`), not before ids set with id(); keeps ids apart in routes made
  /// from one template.
  RouteDefinition& nodePrefixId(std::string prefix);
  /// Camel 4's from variableReceive (Java's fromV): each exchange's incoming body goes to the
  /// variable `name` (its headers to header:NAME.KEY) and the body becomes null.
  RouteDefinition& fromVariableReceive(std::string name);
  /// Sets the id of the last step added (Camel's `.id("myNode")`); node ids show in
  /// statistics and errors. Steps without one get `<kind><n>`, e.g. `to3`.
  RouteDefinition& id(std::string node_id);

  // --- endpoints -----------------------------------------------------------------
  RouteDefinition& to(std::string uri);
  /// Sends with the exchange pattern `pattern` for this send only (Camel's
  /// to(ExchangePattern, uri)): e.g. to(Pattern::InOut, "amqp:queue:x") asks and waits for
  /// the reply; the exchange's own pattern is back for the steps after it.
  RouteDefinition& to(Pattern pattern, std::string uri);
  /// Sends to a URI computed per exchange; resolved endpoints are cached. The text form is a
  /// Simple template, as in Camel: toD("direct:${header.target}").
  RouteDefinition& toD(std::string uri);
  RouteDefinition& toD(ExpressionDefinition uri);
  RouteDefinition& toD(Pattern pattern, std::string uri);

  // --- message transformation ------------------------------------------------------
  RouteDefinition& process(std::shared_ptr<Processor> processor);
  /// Processor owned elsewhere; it must outlive the context.
  RouteDefinition& process(Processor& processor);
  RouteDefinition& process(std::function<void(Exchange&)> fn);
  /// The processor bound to `name` in the context (Context::bindProcessor), looked up when
  /// the route starts.
  RouteDefinition& processRef(std::string name);
  /// Camel's bean EIP: the processor bound as `name.method` (a bean's method ported to C++),
  /// else as `name`; without a method, as `name`. Looked up when the route starts.
  RouteDefinition& bean(std::string name, std::string method = {});
  RouteDefinition& setBody(ExpressionDefinition value);
  RouteDefinition& transform(ExpressionDefinition value);
  RouteDefinition& setHeader(std::string name, ExpressionDefinition value);
  RouteDefinition& setProperty(std::string name, ExpressionDefinition value);
  RouteDefinition& removeHeader(std::string name);
  /// Removes headers matching `pattern` (Camel's rules, all case-insensitive: an exact
  /// name, a trailing `*` wildcard, or a regular expression matching the whole name),
  /// except those matching one of `excludes`. Patterns are compiled when the route starts.
  RouteDefinition& removeHeaders(std::string pattern, std::vector<std::string> excludes = {});
  RouteDefinition& removeProperty(std::string name);
  RouteDefinition& removeProperties(std::string pattern,
                                    std::vector<std::string> excludes = {});
  /// Converts the body to a type named as Camel names it: "String" (or "java.lang.String"),
  /// "Integer"/"Long"/"int"/"long", "Double"/"Float", "Boolean", "byte[]", "java.util.Map".
  /// `charset` (UTF-8, ISO-8859-1, US-ASCII) is the bytes' encoding between text and byte[];
  /// `mandatory` false makes a body that cannot be converted null instead of a failure.
  RouteDefinition& convertBodyTo(std::string type, std::string charset = {},
                                 bool mandatory = true);
  /// Camel 4's convertHeaderTo: the header `name` converted to `type` (as convertBodyTo's),
  /// into itself or into the header `to_name`; an absent header is left absent.
  RouteDefinition& convertHeaderTo(std::string name, std::string type, std::string to_name = {},
                                   std::string charset = {}, bool mandatory = true);
  /// Camel's Claim Check: Set (under `key`) and Push (on a stack) keep a copy of the message's
  /// body and headers in the exchange's claim check repository; Get, GetAndRemove (by `key`)
  /// and Pop merge it back, everything or what `filter` says (`body`, `headers`,
  /// `header:PATTERN`, each with +, - or --; docs/eip.md). A key holding ${...} is Simple.
  /// aggregationStrategy()/aggregationStrategyRef() after it merge through a strategy instead.
  RouteDefinition& claimCheck(ClaimCheckOperation operation, std::string key = {},
                              std::string filter = {});
  /// Camel 4's variableSend / variableReceive on the last to, toD or enrich: the variable
  /// whose value is sent as the body, and the variable the reply's body goes to (its headers
  /// to `header:NAME.KEY`), leaving the message as it was. Such a send runs on a copy of the
  /// exchange, as enrich does.
  RouteDefinition& variableSend(std::string name);
  RouteDefinition& variableReceive(std::string name);
  /// Camel's allowOptimisedComponents on the last toD (default true): a URI of a component
  /// that splits its URIs (http, https) goes to one endpoint per host, with its path and query
  /// in CamelHttpPath/CamelHttpQuery for the send (removed after it).
  RouteDefinition& allowOptimisedComponents(bool allow);
  /// Camel's toV(uri, variableSend, variableReceive); either may be empty.
  RouteDefinition& toV(std::string uri, std::string variable_send, std::string variable_receive);
  /// Camel 4's variables (docs/variables.md): the exchange's own variable `name`, a global one
  /// (`global:name`) or a route's (`route:name`, `route:ROUTEID:name`) set to the value; a
  /// name holding ${...} is a Simple template evaluated per exchange.
  RouteDefinition& setVariable(std::string name, ExpressionDefinition value);
  /// Removes a variable; "*" removes all the exchange's (`global:*`, `route:*` theirs).
  RouteDefinition& removeVariable(std::string name);
  /// convertHeaderTo for the exchange's own variables.
  RouteDefinition& convertVariableTo(std::string name, std::string type,
                                     std::string to_name = {}, std::string charset = {},
                                     bool mandatory = true);
  /// Camel's marshal / unmarshal: the body through the data format registered as `format`
  /// ("json": maps, lists and values to JSON text and back), made from `options` (as route
  /// files write them: {{"prettyPrint", "true"}}) when the route starts.
  ///   b.from("direct:in").unmarshal("json").setBody(simple("${body[name]}"))
  RouteDefinition& marshal(std::string format, std::map<std::string, std::string, std::less<>> options = {});
  RouteDefinition& unmarshal(std::string format,
                             std::map<std::string, std::string, std::less<>> options = {});

  // --- routing --------------------------------------------------------------------
  RouteDefinition& filter(PredicateDefinition predicate);
  /// Camel's validate: an exchange the predicate refuses fails with a
  /// PredicateValidationException ("Validation failed for Predicate[...]").
  RouteDefinition& validate(PredicateDefinition predicate);
  RouteDefinition& choice();
  RouteDefinition& when(PredicateDefinition predicate);
  RouteDefinition& otherwise();
  /// Closes the innermost block (filter, or the whole choice).
  RouteDefinition& end();
  /// Returns from a when()/otherwise() block to its choice, leaving the choice open.
  RouteDefinition& endChoice();
  /// Ends the exchange here, successfully (Camel's stop()).
  RouteDefinition& stop();
  /// The exchange's pattern from here on (Camel's setExchangePattern; inOnly() / inOut()).
  RouteDefinition& setExchangePattern(Pattern pattern);
  RouteDefinition& inOnly() { return setExchangePattern(Pattern::InOnly); }
  RouteDefinition& inOut() { return setExchangePattern(Pattern::InOut); }
  /// Fails the exchange with a failure of `exception_type` (Camel's throwException): a name
  /// the context knows (`java.lang.IllegalArgumentException`, `std::runtime_error`, one added
  /// with Context::registerExceptionType ...; checked when the route starts), whose text is
  /// `message` (Simple: "no stock for ${header.item}"). onException and doCatch clauses match
  /// it by that type, as if the route's code had thrown it.
  RouteDefinition& throwException(std::string exception_type, std::string message = {});

  // --- splitting and composing (docs/eip.md) -----------------------------------------
  /// Runs the steps up to end() once per item of the expression's value (a list's elements,
  /// a map's entries, a text's comma-separated parts), each on a copy of the exchange with
  /// CamelSplitIndex/CamelSplitSize/CamelSplitComplete. The exchange then goes on as it came
  /// in, unless an aggregation strategy combines the items' results.
  RouteDefinition& split(ExpressionDefinition expression);
  RouteDefinition& split(ExpressionDefinition expression,
                         std::shared_ptr<AggregationStrategy> strategy);
  /// Splits a text into tokens (see Tokenizer), produced one at a time.
  RouteDefinition& split(Tokenizer tokenizer);
  RouteDefinition& split(Tokenizer tokenizer, std::shared_ptr<AggregationStrategy> strategy);
  /// Sends a copy of the exchange to each step up to end() (each a branch: to, pipeline ...);
  /// the last branch's result goes on, unless an aggregation strategy says otherwise.
  RouteDefinition& multicast();
  RouteDefinition& multicast(std::shared_ptr<AggregationStrategy> strategy);
  /// Sends a copy to each endpoint the expression names: a list, or a text cut at
  /// `delimiter`. Options (aggregationStrategy, parallelProcessing ...) follow it.
  RouteDefinition& recipientList(ExpressionDefinition expression, std::string delimiter = ",");
  /// The exchange goes through each endpoint the expression names, in turn.
  RouteDefinition& routingSlip(ExpressionDefinition expression, std::string delimiter = ",");
  /// As routingSlip, re-evaluating the expression after each endpoint until it gives null.
  RouteDefinition& dynamicRouter(ExpressionDefinition expression);
  /// A copy goes to `uri` (a Simple template when it has ${...}) on a worker thread; the
  /// exchange goes on at once.
  RouteDefinition& wireTap(std::string uri);
  /// The steps up to end() as one step (a multicast branch of several steps).
  RouteDefinition& pipeline();
  /// The steps up to end(), `count` times (CamelLoopIndex, CamelLoopSize).
  RouteDefinition& loop(ExpressionDefinition count);
  RouteDefinition& loop(int64_t count);
  /// The steps up to end() while the predicate holds (Camel's loop with doWhile).
  RouteDefinition& loopDoWhile(PredicateDefinition predicate);

  /// Combines exchanges with the same correlation key into one with the strategy; once a group
  /// completes (completionSize, completionTimeout, completionInterval, completionPredicate,
  /// completionFromBatchConsumer, or the route stopping with forceCompletionOnStop), the
  /// aggregate runs the steps up to end(). The incoming exchange goes on after end() at once.
  RouteDefinition& aggregate(ExpressionDefinition correlation,
                             std::shared_ptr<AggregationStrategy> strategy);
  RouteDefinition& aggregate(ExpressionDefinition correlation);
  RouteDefinition& completionSize(int64_t size);
  /// A group completes after this long without a new exchange.
  RouteDefinition& completionTimeout(std::chrono::milliseconds timeout);
  /// Every group completes at this interval.
  RouteDefinition& completionInterval(std::chrono::milliseconds interval);
  /// How often timeouts are checked (Camel's default 1 s, at most the timeout).
  RouteDefinition& completionTimeoutCheckerInterval(std::chrono::milliseconds interval);
  RouteDefinition& completionPredicate(PredicateDefinition predicate);
  /// A group completes when an exchange has the CamelBatchComplete property set.
  RouteDefinition& completionFromBatchConsumer(bool on = true);
  /// completionPredicate sees the incoming exchange rather than the aggregate.
  RouteDefinition& eagerCheckCompletion(bool on = true);
  RouteDefinition& forceCompletionOnStop(bool on = true);
  /// Read and write each group in the aggregation repository for every exchange, with a
  /// version check, so that instances sharing the repository (a JDBC one) aggregate together
  /// without losing an exchange (Camel's optimisticLocking). Needs a repository that supports
  /// it; completion by size, predicate or batch only.
  RouteDefinition& optimisticLocking(bool on = true);
  /// Groups that time out are dropped instead of completing.
  RouteDefinition& discardOnCompletionTimeout(bool on = true);
  /// A completed key stays closed: later exchanges with it fail (ClosedCorrelationKey);
  /// `capacity` keys are remembered (0: all).
  RouteDefinition& closeCorrelationKeyOnCompletion(int64_t capacity = 0);
  /// Groups are also kept in `repository` (e.g. sqliteAggregationRepository) and recovered
  /// when the route starts; a completed group stays there until its steps succeed.
  RouteDefinition& aggregationRepository(std::shared_ptr<AggregationRepository> repository);
  /// With a repository bound by Context::bindAggregationRepository.
  RouteDefinition& aggregationRepositoryRef(std::string name);

  /// Runs the steps up to end() only for the first exchange with each key; duplicates get
  /// CamelDuplicateMessage=true and go on after end().
  RouteDefinition& idempotentConsumer(ExpressionDefinition key,
                                      std::shared_ptr<IdempotentRepository> repository);
  /// With a repository bound by Context::bindIdempotentRepository.
  RouteDefinition& idempotentConsumer(ExpressionDefinition key, std::string repository_ref);
  RouteDefinition& skipDuplicate(bool skip);
  RouteDefinition& removeOnFailure(bool remove);
  /// Add the key before the steps run (default) rather than once they succeed.
  RouteDefinition& eager(bool eager);
  RouteDefinition& completionEager(bool eager);

  /// A copy of the exchange asks `uri` (InOut); the strategy combines the reply with the
  /// exchange (`aggregate(exchange, reply)`); without one the reply's message replaces it.
  RouteDefinition& enrich(std::string uri, std::shared_ptr<AggregationStrategy> strategy = {});
  /// The same with the URI computed per exchange (e.g. simple("direct:${header.kind}")).
  RouteDefinition& enrich(ExpressionDefinition uri,
                          std::shared_ptr<AggregationStrategy> strategy = {});
  /// enrich / pollEnrich: the strategy also sees a failed reply (else the failure is the
  /// exchange's).
  RouteDefinition& aggregateOnException(bool on = true);

  /// Takes the next message from `uri` (a pollable endpoint: seda), waiting up to
  /// `timeout_ms` (negative: until one comes; 0: not at all), and combines it with the
  /// exchange through `strategy` (`aggregate(exchange, polled)`); without one the polled
  /// message replaces the exchange's. When none came, the strategy's noResource() is called;
  /// without one the body becomes null and the headers stay (Camel's pollEnrich). The wait
  /// holds the calling thread, as Camel's receive() does.
  RouteDefinition& pollEnrich(std::string uri, int64_t timeout_ms = -1,
                              std::shared_ptr<AggregationStrategy> strategy = {});
  /// The same with the URI computed per exchange (e.g. simple("seda:${header.queue}")).
  RouteDefinition& pollEnrich(ExpressionDefinition uri, int64_t timeout_ms = -1,
                              std::shared_ptr<AggregationStrategy> strategy = {});
  /// Camel's script: evaluates `expression` for its effects; the message stays as it was.
  RouteDefinition& script(ExpressionDefinition expression);
  /// Camel 4's poll: the next message of `uri` (Simple when it holds ${...}) replaces the
  /// exchange's, waiting up to `timeout_ms` (Camel's default 20 s; negative: until one comes;
  /// 0: not at all); none came: the body becomes null.
  RouteDefinition& poll(std::string uri, int64_t timeout_ms = 20000);

  /// Exchanges run the steps up to end() in the order of the expression's values: in batches
  /// (batch(): sorted groups of batchSize, or what came within batchTimeout) or as a stream of
  /// sequence numbers (stream(): gaps waited for up to timeout). The incoming exchange goes on
  /// after end() at once.
  RouteDefinition& resequence(ExpressionDefinition expression);
  RouteDefinition& batch(int64_t batch_size = 100,
                         std::chrono::milliseconds batch_timeout = std::chrono::seconds(1));
  RouteDefinition& stream(int64_t capacity = 1000,
                          std::chrono::milliseconds timeout = std::chrono::seconds(1));
  /// batch: keep exchanges whose values are equal (else the later ones are dropped).
  RouteDefinition& allowDuplicates(bool on = true);
  RouteDefinition& reverse(bool on = true);
  /// stream: a number below the last one delivered fails the exchange (else it is dropped).
  RouteDefinition& rejectOld(bool on = true);
  /// An exchange whose value is missing (or not a number, in stream mode) is dropped.
  RouteDefinition& ignoreInvalidExchanges(bool on = true);

  /// The expression's list (a text is cut at commas), sorted (numbers numerically, else as
  /// text; or by `less`), becomes the body.
  RouteDefinition& sort(ExpressionDefinition expression,
                        std::function<bool(const Value&, const Value&)> less = {});
  /// One exchange per period goes on; the others stop here, successfully.
  RouteDefinition& sample(std::chrono::milliseconds period = std::chrono::seconds(1));
  /// One exchange in `message_frequency` goes on (the last of each N).
  RouteDefinition& sample(int64_t message_frequency);

  /// Each exchange goes to one of the steps up to end() (each a branch), chosen by the
  /// policy that follows: roundRobin() (the default), random(), failover(), weighted(),
  /// sticky(), topic().
  RouteDefinition& loadBalance();
  RouteDefinition& roundRobin();
  RouteDefinition& random();
  /// Tries the branches in order on copies of the exchange until one succeeds; only failures
  /// of these types (none: any) move on. `maximum_failover_attempts` -1: each branch once
  /// (forever with `round_robin`).
  RouteDefinition& failover(std::vector<std::string> exceptions = {});
  RouteDefinition& failover(int maximum_failover_attempts, bool round_robin, bool sticky = false,
                            std::vector<std::string> exceptions = {});
  /// Branches chosen in the ratio of `distribution_ratio` ("4,2,1"), in turn or at random.
  RouteDefinition& weighted(bool round_robin, std::string distribution_ratio,
                            std::string delimiter = ",");
  /// The same key always goes to the same branch.
  RouteDefinition& sticky(ExpressionDefinition correlation);
  /// Every branch, in order, each on a copy of the exchange (the exchange itself goes on
  /// unchanged); a failing branch stops the others and fails the exchange.
  RouteDefinition& topic();

  // Options of the last split, multicast, recipientList, routingSlip, loop or aggregate:
  RouteDefinition& aggregationStrategy(std::shared_ptr<AggregationStrategy> strategy);
  /// A strategy bound with Context::bindAggregationStrategy, or Camel's class name of a
  /// built-in one ("UseLatestAggregationStrategy" ...), resolved when the route starts.
  RouteDefinition& aggregationStrategyRef(std::string name);
  /// Items run at once on the context's workers; results are aggregated in item order.
  RouteDefinition& parallelProcessing(bool parallel = true);
  /// The first failed item ends the step, failing the exchange with that failure.
  RouteDefinition& stopOnException(bool stop = true);
  /// Tokens are counted as they come (CamelSplitSize only on the last item).
  RouteDefinition& streaming(bool streaming = true);
  /// Accepted for Camel compatibility: every item is its own unit of work here.
  RouteDefinition& shareUnitOfWork(bool share = true);
  /// With parallelProcessing: after this long, what has finished is aggregated and the
  /// exchange goes on.
  RouteDefinition& timeout(std::chrono::milliseconds timeout);
  /// recipientList / routingSlip / enrich: endpoints that cannot be resolved are skipped.
  RouteDefinition& ignoreInvalidEndpoints(bool ignore = true);
  /// recipientList: accepted (resolved endpoints are cached per thread, unbounded).
  RouteDefinition& cacheSize(int size);
  /// loop: each iteration starts from a copy of the message the loop began with.
  RouteDefinition& copy(bool copy = true);

  // --- time -------------------------------------------------------------------------
  /// Waits the expression's value in milliseconds (Camel's delay(), asynchronous): the
  /// exchange is parked on the context's scheduler and resumed on a worker; no thread waits.
  RouteDefinition& delay(ExpressionDefinition millis);
  RouteDefinition& delay(std::chrono::milliseconds millis);
  /// At most `maximum_requests` exchanges pass per `time_period` (Camel's throttle in its
  /// TotalRequests mode); the others wait in order, holding no thread, or with
  /// `reject_execution` fail ("Exceeded the max throttle rate of N within Pms").
  RouteDefinition& throttle(ExpressionDefinition maximum_requests,
                            std::chrono::milliseconds time_period = std::chrono::seconds(1),
                            bool reject_execution = false);
  RouteDefinition& throttle(int64_t maximum_requests,
                            std::chrono::milliseconds time_period = std::chrono::seconds(1),
                            bool reject_execution = false);
  /// Camel's ConcurrentRequests mode: at most `max_concurrent` exchanges past this step and not
  /// yet finished; the others wait in order (no thread held) or, with `reject_execution`, fail
  /// ("Exceeded the concurrent throttle rate of N").
  RouteDefinition& throttleConcurrentRequests(ExpressionDefinition max_concurrent,
                                              bool reject_execution = false);

  // --- threads ----------------------------------------------------------------------
  /// The rest of the route runs on this step's own pool of `pool_size` threads (Camel's
  /// threads()); beyond `max_queue_size` waiting exchanges the caller runs it itself.
  /// `max_pool_size` (default max(pool_size, 20)) is checked, not needed: see docs/async.md.
  RouteDefinition& threads(int pool_size = 10, int max_pool_size = -1,
                           int max_queue_size = 1000);

  // --- logging --------------------------------------------------------------------
  /// Logs `message` (a Simple template: "Got ${body} from ${header.from}") at INFO under the
  /// route's id as category. Nothing is evaluated when the level is off.
  RouteDefinition& log(std::string message);
  RouteDefinition& log(LoggingLevel level, std::string message);
  RouteDefinition& log(LoggingLevel level, std::string log_name, std::string message);
  RouteDefinition& log(LoggingLevel level, std::string log_name, ExpressionDefinition message);

  // --- error handling (docs/error-handling.md) --------------------------------------------
  /// This route's error handler (else its RouteBuilder's, else the context's).
  RouteDefinition& errorHandler(ErrorHandlerDefinition handler);
  /// Opens an onException clause for failures of these types (exception_types.h; none =
  /// every failure); the steps that follow, up to end(), run once redeliveries are
  /// exhausted. handled(), continued(), onWhen(), retryWhile(), useOriginalMessage(),
  /// onRedelivery() and the redelivery options below apply to the open clause.
  RouteDefinition& onException(std::vector<std::string> exception_types = {});
  /// The failure counts as handled: the exchange ends here, successfully, with the message
  /// the clause's steps left (the caller of requestBody gets it as the reply).
  RouteDefinition& handled(PredicateDefinition predicate);
  RouteDefinition& handled(bool handled);
  /// The failure is ignored: the route goes on at the step after the one that failed.
  RouteDefinition& continued(PredicateDefinition predicate);
  RouteDefinition& continued(bool continued);
  /// The open onException, doCatch or onCompletion applies only when the predicate holds.
  RouteDefinition& onWhen(PredicateDefinition predicate);
  RouteDefinition& retryWhile(PredicateDefinition predicate);
  RouteDefinition& useOriginalMessage();
  RouteDefinition& useOriginalBody();
  RouteDefinition& onRedelivery(std::shared_ptr<Processor> processor);
  /// The processor bound to `name` in the context runs before each redelivery.
  RouteDefinition& onRedeliveryRef(std::string name);
  DROMEDARY_REDELIVERY_OPTIONS(RouteDefinition)

  /// doTry() ... doCatch({types}) [onWhen(...)] ... doFinally() ... end(), as Java's
  /// try/catch/finally: the route's error handler does not see failures a doCatch takes.
  RouteDefinition& doTry();
  RouteDefinition& doCatch(std::vector<std::string> exception_types = {});
  RouteDefinition& doFinally();

  /// circuitBreaker(config) ... [onFallback() ...] end(): the steps run on a copy of the
  /// exchange through a circuit breaker (Camel's Resilience4j EIP); a call that fails, times
  /// out or is refused while the breaker is open goes to onFallback, which runs on the
  /// exchange as it came in with the failure as CamelExceptionCaught (docs/eip.md).
  RouteDefinition& circuitBreaker(CircuitBreakerConfig config = {});
  RouteDefinition& onFallback();
  /// The route's error handler (its redeliveries) applies inside the open circuitBreaker's
  /// steps; by default a failure there goes straight to the breaker.
  RouteDefinition& inheritErrorHandler(bool inherit = true);

  /// Opens an onCompletion block (up to end()): it runs on a copy of the exchange once the
  /// exchange has left its last route; onCompleteOnly()/onFailureOnly()/onWhen() filter.
  RouteDefinition& onCompletion();
  RouteDefinition& onCompleteOnly();
  RouteDefinition& onFailureOnly();

  // --- interceptors (docs/eip.md "intercept") ------------------------------------------
  /// Opens an intercept clause (up to end()): its steps run before every step of the route
  /// (of every route, given on a RouteBuilder). onWhen() limits it; a stop() in it ends the
  /// exchange.
  RouteDefinition& intercept();
  /// An intercept clause run once, before the first step, for routes whose `from` endpoint
  /// matches `uri_pattern` (Camel's: the exact URI, a prefix ending in '*', or a regular
  /// expression; empty: every route). The endpoint is in CamelInterceptedEndpoint.
  RouteDefinition& interceptFrom(std::string uri_pattern = {});
  /// An intercept clause run before each send (to, toD) to an endpoint matching
  /// `uri_pattern`; the send follows unless skipSendToOriginalEndpoint().
  RouteDefinition& interceptSendToEndpoint(std::string uri_pattern);
  /// The open interceptSendToEndpoint does not send to the endpoint (when its onWhen holds).
  RouteDefinition& skipSendToOriginalEndpoint(bool skip = true);
  /// The open interceptSendToEndpoint sends to `uri` after the endpoint (when its onWhen held
  /// and the send was not skipped).
  RouteDefinition& afterUri(std::string uri);

  detail::RouteModel& modelForEngine() noexcept { return *model_; }
  /// The model, taken by the route made of it; the definition is then spent.
  std::unique_ptr<detail::RouteModel> takeModelForEngine() noexcept;
  /// The last step added (as id() names it), or nullptr: how file loaders record positions.
  detail::StepModel* lastStepForEngine() noexcept;

 private:
  detail::BlockModel* currentBlock();
  RouteDefinition& add(std::unique_ptr<detail::StepModel> step);
  detail::RedeliveryPolicyModel* openPolicy(const char* option);
  detail::OnExceptionModel* openOnException(const char* option);
  RouteDefinition& openBlock(std::unique_ptr<detail::StepModel> step, detail::BlockModel* body);
  template <class Model>
  Model* lastOf(const char* option);
  detail::StepModel* lastEip_ = nullptr;  // the step the options above apply to
  void misuse(std::string message);

  std::unique_ptr<detail::RouteModel> model_;
  struct Scope;
  std::vector<Scope> scopes_;
};

/// Collects routes; subclass and override configure(), or pass a function to addRoutes.
class RouteBuilder {
 public:
  RouteBuilder();
  virtual ~RouteBuilder();
  virtual void configure() {}

  /// Starts a route consuming from `uri`.
  RouteDefinition& from(std::string uri);

  /// The error handler of this builder's routes (unless a route sets its own).
  void errorHandler(ErrorHandlerDefinition handler);
  /// An onException clause for every route of this builder (after the route's own ones);
  /// continue the chain with its options and steps, then end().
  RouteDefinition& onException(std::vector<std::string> exception_types = {});
  /// An onCompletion for every route of this builder that has none of its own.
  RouteDefinition& onCompletion();
  /// Interceptors for every route of this builder (RouteDefinition::intercept ...); continue
  /// the chain with their options and steps, then end().
  RouteDefinition& intercept();
  RouteDefinition& interceptFrom(std::string uri_pattern = {});
  RouteDefinition& interceptSendToEndpoint(std::string uri_pattern);

  /// REST services under `path` (Camel's REST DSL): rest_definition.h.
  RestDefinition& rest(std::string path = {});
  /// Where the REST services are served (context path, host, port).
  RestConfigurationDefinition& restConfiguration() noexcept { return rest_configuration_; }

  std::vector<std::unique_ptr<RouteDefinition>>& routesForEngine() noexcept { return routes_; }
  std::shared_ptr<const detail::ErrorHandlerModel> errorHandlerForEngine() const {
    return error_handler_;
  }
  /// Where builder-wide onException/onCompletion/intercept collect, or nullptr when none was
  /// given.
  RouteDefinition* configurationForEngine() noexcept { return configuration_.get(); }
  const std::vector<std::unique_ptr<RestDefinition>>& restsForEngine() const noexcept {
    return rests_;
  }
  const RestConfigurationDefinition& restConfigurationForEngine() const noexcept {
    return rest_configuration_;
  }

 private:
  std::vector<std::unique_ptr<RestDefinition>> rests_;
  RestConfigurationDefinition rest_configuration_;
  std::vector<std::unique_ptr<RouteDefinition>> routes_;
  std::shared_ptr<const detail::ErrorHandlerModel> error_handler_;
  std::unique_ptr<RouteDefinition> configuration_;
};

}  // namespace dromedary
