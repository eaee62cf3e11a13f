// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Context: owns components, endpoints, routes, languages and properties.
///
/// Example:
///   Context context;
///   registerBuiltinComponents(context);          // direct, log, mock ... (components.h)
///   context.properties().set("greeting", "hello");
///   context.addRoutes([](RouteBuilder& b) {
///     b.from("direct:in").setBody(constant("{{greeting}}")).to("log:out");
///   }).value();
///   context.start().value();
///   ProducerTemplate template_(context);
///   template_.sendBody("direct:in", "x").value();
///   context.stop();
///
/// Routes are compiled when they start: every URI is parsed and its endpoint resolved, every
/// option validated against its component's table, every expression compiled and every
/// `{{placeholder}}` resolved, so a mistake fails `start()` (or `addRoutes()` on a running
/// context) with a message naming the route, the text and what was expected.
///
/// Thread-safety: configuration (adding components, routes, properties) and start/stop are
/// for one thread at a time; endpoint lookup, producers and exchanges are safe from any
/// thread while the context runs.

#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <dromedary/core/exchange.h>
#include <dromedary/core/result.h>
#include <dromedary/core/type_id.h>
#include <dromedary/engine/error_handler.h>
#include <dromedary/engine/flight_recorder.h>
#include <dromedary/engine/exception_types.h>
#include <dromedary/engine/route_builder.h>
#include <dromedary/engine/route_template.h>
#include <dromedary/engine/statistics.h>
#include <dromedary/engine/stream_caching.h>
#include <dromedary/engine/tracing.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/language.h>
#include <dromedary/spi/processor.h>
#include <dromedary/spi/scheduler.h>

namespace dromedary {

class AggregationStrategy;
class DataFormatFactory;
class HeaderFilterStrategy;
class IdempotentRepository;

namespace detail {
struct ContextImpl;
}

/// Property placeholders: `{{key}}`, `{{key:default}}`, `{{env:NAME}}`, `{{env:NAME:default}}`.
class Properties {
 public:
  /// Sets `key`, unless it is pinned.
  void set(std::string key, std::string value);
  /// Sets `key` and keeps it: later set() and load() leave it as it is. For what the command
  /// line gives (`dromedary run --prop`, `--properties`), which wins over the route files'
  /// own application.properties, as Camel JBang's does.
  void pin(std::string key, std::string value);
  std::optional<std::string> get(std::string_view key) const;
  /// Every key starting with `prefix` and its value (unresolved), in key order: for settings
  /// written as a family (`camel.component.kafka.additionalProperties[NAME]`).
  std::vector<std::pair<std::string, std::string>> withPrefix(std::string_view prefix) const;
  /// Loads a Java-style .properties file (`key=value`, `key: value`, `#`/`!` comments,
  /// backslash line continuations and escapes). Later keys replace earlier ones.
  Result<void> load(const std::string& path);
  /// load(), pinning every key the file sets.
  Result<void> loadPinned(const std::string& path);
  /// Replaces every placeholder in `text`, recursively (a value may contain placeholders);
  /// fails naming the key and the text when a key is missing, a placeholder is not closed,
  /// or properties refer to each other in a cycle. Camel's forms: `{{key}}`,
  /// `{{key:default}}`, `{{?key}}` (optional: empty when absent), `{{env:NAME}}` and
  /// `{{sys:NAME}}` (user.home, user.dir, os.name ... from the process), each with a default.
  Result<std::string> resolve(std::string_view text) const;
  /// Whether `value` is one optional placeholder (`{{?key}}`) whose key is not set.
  bool isAbsentOptional(std::string_view value) const;
  /// `uri` without the options whose whole value is an absent optional placeholder
  /// (`?timeout={{?t}}` when t is not set), as Camel drops them.
  std::string withoutAbsentOptionalOptions(std::string_view uri) const;
  /// A JVM-style system property of this process (user.home, user.dir, user.name, os.name,
  /// os.arch, os.version, line.separator, file.separator, path.separator, java.io.tmpdir), or
  /// nothing.
  static std::optional<std::string> systemProperty(std::string_view name);

 private:
  Result<std::string> resolve(std::string_view text, std::vector<std::string>& chain) const;
  Result<void> load(const std::string& path, bool pinned);
  std::map<std::string, std::string, std::less<>> values_;
  std::set<std::string, std::less<>> pinned_;
};

/// A route's state, as Camel's ServiceStatus: Stopping and Suspending while its exchanges drain.
enum class RouteStatus : uint8_t { Stopped, Started, Suspended, Stopping, Suspending };

/// "Started", "Stopping" ... as Camel names the states.
std::string_view routeStatusName(RouteStatus status) noexcept;


/// What a (graceful) stop had to do.
struct StopReport {
  bool graceful = true;  ///< false when in-flight exchanges were still running at the timeout
  std::chrono::milliseconds took{0};
  /// Routes that still had exchanges in flight, or pending in their consumer, when the timeout
  /// forced the stop: route id and how many.
  std::vector<std::pair<std::string, uint64_t>> forced;
  /// Of those, how many were pending (queued, never started) and left behind, by route.
  std::vector<std::pair<std::string, uint64_t>> abandoned;
};

class Context {
 public:
  explicit Context(std::string name = {});
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// The context's name (Camel's camelId), "dromedary-N" unless given.
  const std::string& name() const noexcept;
  /// A number unique to this context in the process (never reused).
  uint64_t uid() const noexcept { return uid_; }

  // --- components and languages ----------------------------------------------------
  void addComponent(std::unique_ptr<Component> component);
  Component* component(std::string_view scheme) const noexcept;
  std::vector<std::string> componentSchemes() const;
  void addLanguage(std::string name, std::unique_ptr<Language> language);
  Language* language(std::string_view name) const noexcept;
  std::vector<std::string> languageNames() const;
  /// Data formats for marshal/unmarshal (spi/data_format.h), by name; one factory may be
  /// registered under several names (json, jackson, gson ...).
  void addDataFormat(std::string name, std::shared_ptr<const DataFormatFactory> factory);
  const DataFormatFactory* dataFormat(std::string_view name) const noexcept;
  std::vector<std::string> dataFormatNames() const;

  // --- named processors (Camel's registry of beans, for processors) -----------------
  /// Binds a processor to a name, so route files can refer to it: `process: {ref: name}`
  /// in YAML, `<process ref="name"/>` in XML, processRef("name") in C++.
  void bindProcessor(std::string name, std::shared_ptr<Processor> processor);
  std::shared_ptr<Processor> processorByName(std::string_view name) const;
  std::vector<std::string> processorNames() const;
  /// Binds an aggregation strategy to a name, for `aggregationStrategy: name` in route files
  /// and aggregationStrategyRef("name") in C++.
  void bindAggregationStrategy(std::string name, std::shared_ptr<AggregationStrategy> strategy);
  std::shared_ptr<AggregationStrategy> aggregationStrategyByName(std::string_view name) const;
  /// Binds an idempotent repository to a name (`idempotentRepository: name` in route files).
  void bindIdempotentRepository(std::string name, std::shared_ptr<IdempotentRepository> repository);
  std::shared_ptr<IdempotentRepository> idempotentRepositoryByName(std::string_view name) const;
  /// Binds an aggregation repository to a name (`aggregationRepository: name` in route files,
  /// aggregationRepositoryRef("name") in C++).
  void bindAggregationRepository(std::string name, std::shared_ptr<AggregationRepository> repository);
  std::shared_ptr<AggregationRepository> aggregationRepositoryByName(std::string_view name) const;
  /// Binds a header filter strategy to a name, for an endpoint's `headerFilterStrategy=#name`
  /// (see dromedary/spi/header_filter_strategy.h).
  void bindHeaderFilterStrategy(std::string name, std::shared_ptr<HeaderFilterStrategy> strategy);
  std::shared_ptr<HeaderFilterStrategy> headerFilterStrategyByName(std::string_view name) const;

  // --- beans of any type, and the factories route files' `beans:` use --------------------
  /// Binds an object of any type to a name (a component's data source, a connection ...), for
  /// the component that knows the type to look up: beanByName<T>("name").
  template <class T>
  void bindBean(std::string name, std::shared_ptr<T> bean) {
    bindBeanOfType(std::move(name), typeIdOf<T>(), std::static_pointer_cast<void>(std::move(bean)));
  }
  /// The bean bound under `name` if it is a T; null otherwise.
  template <class T>
  std::shared_ptr<T> beanByName(std::string_view name) const {
    return std::static_pointer_cast<T>(beanOfType(name, typeIdOf<T>()));
  }
  /// The names of the beans of type T, sorted (for Camel's autowiring: the only one of a type).
  template <class T>
  std::vector<std::string> beanNames() const {
    return beanNamesOfType(typeIdOf<T>());
  }
  void bindBeanOfType(std::string name, TypeId type, std::shared_ptr<void> bean);
  std::shared_ptr<void> beanOfType(std::string_view name, TypeId type) const;
  std::vector<std::string> beanNamesOfType(TypeId type) const;

  /// A bean a route file declares (YAML `beans:`, Spring XML `<bean>`): its name, the Java
  /// class Camel would make (without `#class:`) and its properties, placeholders resolved.
  struct BeanDefinition {
    std::string name;
    std::string type;
    std::vector<std::pair<std::string, std::string>> properties;
    /// The property's value, or null when not given (names compared as written).
    const std::string* property(std::string_view key) const noexcept {
      for (const auto& [k, v] : properties) {
        if (k == key) return &v;
      }
      return nullptr;
    }
  };
  /// Makes the bean a definition describes and binds it under its name (a component's own
  /// types: a data source, a JDBC repository ...). Returns an error saying what is wrong
  /// with the definition; the loader adds the file and line.
  using BeanFactory = std::function<Result<void>(Context& context, const BeanDefinition& bean)>;
  /// Registers the factory for a Java class name, e.g. "org.apache.commons.dbcp2.BasicDataSource".
  void addBeanFactory(std::string type, BeanFactory factory);
  /// The factory for `type` (a leading "#class:" is ignored); null when none is registered.
  const BeanFactory* beanFactory(std::string_view type) const;

  // --- registrations kept aside (component modules) ---------------------------------------
  /// What a registration function added to this context, kept aside instead: its
  /// components (attached to this context) and bean factories. Languages, data formats and
  /// exception types it adds go to the context as usual. For a loader that registers
  /// stand-ins under a module's names first and hands them the real objects once the module
  /// is loaded, so that what the context holds never changes under a running route. Only
  /// what `register_fn` adds on the calling thread is kept aside.
  struct Registrations {
    std::vector<std::unique_ptr<Component>> components;
    std::vector<std::pair<std::string, BeanFactory>> beanFactories;
  };
  Registrations collectRegistrations(void (*register_fn)(Context& context));

  // --- properties ----------------------------------------------------------------------
  Properties& properties() noexcept;
  Result<std::string> resolvePlaceholders(std::string_view text) const;

  // --- endpoints -------------------------------------------------------------------------
  /// The endpoint for `uri` (placeholders resolved, options validated), created once per
  /// normalised URI and cached. Thread-safe.
  Result<Endpoint*> endpoint(std::string_view uri);
  /// The endpoint as E; throws DromedaryException when it cannot be resolved or is not an E.
  template <class E>
  E& getEndpoint(std::string_view uri) {
    Endpoint* e = endpoint(uri).value();
    if (auto* typed = dynamic_cast<E*>(e)) return *typed;
    throw DromedaryException(makeError(ErrorCode::InvalidUri,
                                       "endpoint '" + e->uri() + "' is not of the requested type"));
  }
  /// A started producer for `uri`, shared and cached by the URI text. Thread-safe.
  Result<Producer*> producer(std::string_view uri);
  /// The normalised URIs of the endpoints created so far, sorted.
  std::vector<std::string> endpointUris() const;
  /// Milliseconds since start() (0 when not started).
  int64_t uptimeMillis() const noexcept;

  // --- routes ------------------------------------------------------------------------------
  /// Adds the routes of `builder` (calling its configure()). On a started context they start.
  Result<void> addRoutes(RouteBuilder& builder);
  Result<void> addRoutes(const std::function<void(RouteBuilder&)>& configure);
  std::vector<std::string> routeIds() const;
  /// How many routes it has (routeIds().size() without copying them).
  size_t routeCount() const;

  /// Keeps a route template under `id` (an id used twice is an error); see route_template.h.
  Result<void> addRouteTemplate(std::string id, RouteTemplate route_template);
  Result<void> addRouteTemplate(
      std::string id, std::vector<TemplateParameter> parameters,
      std::function<void(RouteBuilder& builder, const TemplateParameters& values)> build);
  /// The template kept under `id`, or null.
  const RouteTemplate* routeTemplate(std::string_view id) const;
  /// Forgets the template kept under `id` (routes made from it stay); false when none was.
  bool removeRouteTemplate(std::string_view id);
  std::vector<std::string> routeTemplateIds() const;
  /// Adds (and on a started context starts) a route from the template `template_id`, named
  /// `route_id` (empty: the context names it); returns the route's id. Fails, naming the
  /// template, on an unknown template or a missing required parameter.
  Result<std::string> addRouteFromTemplate(std::string route_id, std::string_view template_id,
                                           const TemplateParameters& parameters);

  RouteStatus routeStatus(std::string_view route_id) const;
  /// Why a started route's consumer cannot take messages now (e.g. "not connected to the
  /// broker at amqp://127.0.0.1:5672 (reconnecting)"); empty when it can, or when the route
  /// is unknown or not started. What the management health check reports.
  std::string routeConsumerProblem(std::string_view route_id) const;
  /// What a started route's consumer shows about itself (Consumer::details): a master:
  /// consumer's role, leader and term. Empty for most consumers and for unknown routes.
  std::vector<std::pair<std::string, std::string>> routeConsumerDetails(
      std::string_view route_id) const;
  /// Whether the route starts with the context (false for an unknown id).
  bool routeAutoStartup(std::string_view route_id) const;
  Result<void> startRoute(std::string_view route_id);
  /// Removes a stopped route (Camel's removeRoute): its id is free for a new route, its
  /// statistics go. Fails for an unknown id or a route that is started or suspended.
  Result<void> removeRoute(std::string_view route_id);
  /// Stops the route's consumer and waits (up to the shutdown timeout) for its exchanges.
  Result<StopReport> stopRoute(std::string_view route_id);
  /// Suspends a started route: its consumer stops taking work (waiting for what is in flight,
  /// up to the shutdown timeout) but is kept, so resumeRoute() continues where it was.
  Result<StopReport> suspendRoute(std::string_view route_id);
  Result<void> resumeRoute(std::string_view route_id);
  /// Exchanges in flight in a route (summed over threads; derived, not a shared counter).
  uint64_t inflight(std::string_view route_id) const;
  uint64_t inflight() const;
  /// Exchanges that finished a route (completed or failed), summed over routes, removed ones
  /// included: an exchange that passes through two routes counts twice.
  uint64_t exchangesDone() const;

  /// How a route's failures went (summed over threads).
  struct FailureCounts {
    uint64_t failed = 0;              ///< exchanges that left the route failed
    uint64_t handled = 0;             ///< failures handled (onException handled, dead letter)
    uint64_t redeliveries = 0;        ///< redelivery attempts
    uint64_t deadLetterFailures = 0;  ///< the dead letter endpoint itself failed
  };
  FailureCounts failureCounts(std::string_view route_id) const;

  // --- statistics (statistics.h) ------------------------------------------------------------
  void setStatisticsLevel(StatisticsLevel level) noexcept;
  StatisticsLevel statisticsLevel() const noexcept;
  /// Which exchanges are timed (counts are always exact): 0 (the default) at most one per
  /// thread per tick of the coarse clock (~4 ms), so quiet routes time every exchange and
  /// busy ones a few hundred a second per thread; 1 every exchange; N every Nth per thread.
  void setStatisticsTimingSample(uint32_t every) noexcept;
  /// A route's statistics with its processors', or nullopt for an unknown id.
  std::optional<RouteStats> routeStatistics(std::string_view route_id) const;
  /// Every route's statistics summed (statistics.h: ContextStats).
  ContextStats contextStatistics() const;
  /// Zeroes a route's counters and times (not its in-flight count).
  Result<void> resetStatistics(std::string_view route_id);

  // --- error handling ----------------------------------------------------------------------
  /// The error handler of routes that set none themselves (nor their RouteBuilder); by
  /// default defaultErrorHandler(). Set before the routes start.
  void setErrorHandler(ErrorHandlerDefinition handler);
  /// Keeps each exchange's message history (route, step, time per step) for the failure
  /// log, as Camel's messageHistory option; off by default (a clock read per step). Set
  /// before the routes start.
  void setMessageHistory(bool enabled);

  // --- variables (Camel 4's global and route variables) -------------------------------------
  /// A variable of the context: `name` or `global:name` (global), `route:ROUTEID:name` (a
  /// route's); nullopt when not set. Exchanges read them with `${variable.global:name}`.
  std::optional<Value> variable(std::string_view name) const;
  /// Sets one; an exchange's own variables (no prefix inside a route) are not the context's.
  /// A prefix other than global: and route: fails (Camel's "VariableRepository with id").
  Result<void> setVariable(std::string_view name, Value value);

  // --- the flight recorder (flight_recorder.h) -----------------------------------------------
  /// How many completed and how many failed exchanges each route keeps (10 by default; 0:
  /// none). Set before the routes compile.
  void setFlightRecorderSize(uint32_t exchanges) noexcept;
  /// A route's recent exchanges, or nullopt for an unknown id.
  std::optional<RecentExchanges> recentExchanges(std::string_view route_id) const;
  /// Logs every route's recent exchanges (on the logger dromedary.flightRecorder), as
  /// `dromedary run` does on SIGUSR2.
  void logRecentExchanges() const;

  // --- tracing (tracing.h) -------------------------------------------------------------------
  /// Configures the trace log and the backlog tracer (a bad traceFilter or backlogSize is an
  /// error; so is calling it once the context started). Set before the routes compile: which
  /// routes and steps carry the tracing hooks is decided then.
  Result<void> setTracing(TracingOptions options);
  /// Turns the trace log and the backlog tracer on or off at runtime; only routes compiled
  /// with one of them on or in standby are traced.
  void setTracingEnabled(bool logging, bool backlog) noexcept;
  /// Whether the trace log and the backlog tracer are on now.
  std::pair<bool, bool> tracingEnabled() const noexcept;
  /// The backlog tracer's events (removed as read, when camel.trace.removeOnDump).
  std::vector<TraceEvent> traceEvents(const TraceQuery& query);
  /// Reads the camel.main.* and camel.trace.* properties the engine knows (shutdownTimeout,
  /// messageHistory, tracing, tracingStandby, tracingPattern; the backlog tracer's) from
  /// properties(); an error names the property. Call after the properties are loaded, before
  /// the routes compile.
  Result<void> applyMainProperties();
  /// Names a C++ exception type for onException/doCatch (exception_types.h); `parent` is a
  /// registered name, e.g. "std::runtime_error".
  template <class T>
  Result<void> registerExceptionType(std::string name, std::string_view parent = "std::exception") {
    return registerExceptionType(std::move(name), parent, &exceptionIs<T>);
  }
  Result<void> registerExceptionType(std::string name, std::string_view parent,
                                     ExceptionMatcher matcher);
  /// Another name for a registered exception type (e.g. the Java class a route file uses).
  Result<void> aliasExceptionType(std::string alias, std::string_view name);

  // --- time and threads ----------------------------------------------------------------
  /// The context's clock and timers: a real-time loop (one thread, started on first use)
  /// unless setScheduler() gave another, such as a VirtualScheduler in a test.
  Scheduler& scheduler() noexcept;
  /// Replaces the scheduler. Call before anything uses it (before start()).
  void setScheduler(std::shared_ptr<Scheduler> scheduler);
  /// Runs `task` on one of the context's worker threads (as many as cores unless
  /// setWorkerThreads() said otherwise, started on first use); under a scheduler that
  /// runsWorkInline(), on the calling thread. Lock-free; thread-safe.
  void submit(Scheduler::Task task) noexcept;
  void setWorkerThreads(size_t threads);

  // --- lifecycle -----------------------------------------------------------------------------
  /// Compiles and starts every route with autoStartup (in the order they were added).
  Result<void> start();
  /// Compiles every route (endpoints resolved, options and expressions checked) without
  /// starting a consumer: what `dromedary validate` runs. start() later reuses the work.
  Result<void> compileRoutes();
  /// Graceful stop: stops consumers (in reverse order), waits for in-flight exchanges up to
  /// the shutdown timeout, logs what it waited for and what it forced, then stops producers.
  StopReport stop();
  bool isStarted() const noexcept;
  /// True while stop() runs: waits without a bound of their own (a pollEnrich receiving
  /// with no timeout) give up, so shutdown is not held by them.
  bool isStopping() const noexcept;
  void setShutdownTimeout(std::chrono::milliseconds timeout) noexcept;
  std::chrono::milliseconds shutdownTimeout() const noexcept;
  /// Stream caching (engine/stream_caching.h): Camel's defaults (in memory, no spooling)
  /// unless set, before start(), here or by the camel.main.streamCaching* properties.
  Result<void> setStreamCaching(StreamCachingOptions options);
  const StreamCaching& streamCaching() const noexcept;

  /// An exchange from the calling thread's pool, bound to this context.
  ExchangePtr createExchange() noexcept;

  detail::ContextImpl& implForEngine() noexcept { return *impl_; }

 private:
  std::unique_ptr<detail::ContextImpl> impl_;
  uint64_t uid_;  // read per send by the producer cache: kept here, not behind impl_
};

}  // namespace dromedary
