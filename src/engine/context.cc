// SPDX-License-Identifier: Apache-2.0
#include <dromedary/engine/context.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include <dromedary/version.h>

#include "core/text.h"
#include "engine/expression_spec.h"
#include "engine/context_impl.h"
#include "engine/flight_recorder.h"
#include "engine/intercept.h"
#include "engine/compiled_error_handler.h"
#include "engine/failure_path.h"
#include "engine/compiled_route.h"
#include "engine/rest_routes.h"
#include "engine/route_model.h"
#include "engine/statistics.h"
#include "engine/timer_loop.h"
#include "engine/variables.h"
#include "engine/worker_pool.h"

namespace dromedary {

namespace {
std::atomic<uint64_t> context_counter{0};
using Clock = std::chrono::steady_clock;

std::chrono::milliseconds since(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t);
}

}  // namespace

using detail::Route;

Context::Context(std::string name)
    : impl_(std::make_unique<detail::ContextImpl>()), uid_(++context_counter) {
  uint64_t n = uid_;
  impl_->name = name.empty() ? fmt::format("dromedary-{}", n) : std::move(name);
  detail::registerBuiltinLanguages(*this);
  impl_->streamCaching = StreamCaching::make({}, impl_->name).value();
}

Context::~Context() {
  if (impl_->started) stop();
  // Nothing runs once the threads are gone: then routes, producers and endpoints can go.
  // The timer thread stops first: a timer that fires hands its task to the workers (a file
  // consumer's poll), so the workers must still be there until no timer can fire (stopping
  // them first let a late timer submit to a pool being destroyed). The scheduler object
  // outlives the routes (their destructors may cancel what they scheduled); only its thread
  // stops here, and what workers schedule after that is accepted and never run.
  if (auto* loop = dynamic_cast<detail::TimerLoop*>(impl_->scheduler.get())) loop->shutdown();
  impl_->workers.reset();
  // Routes (and their consumers) go before the producers and endpoints they use.
  impl_->routes.clear();
  impl_->removedRoutes.clear();
  impl_->producersByText.clear();
  impl_->producers.clear();
  impl_->endpoints.clear();
  impl_->scheduler.reset();
}

namespace detail {
Route::Route(Context& context_ref) : context(context_ref), entry(*this) {}
Route::~Route() = default;
Route::Rare::Rare() = default;
Route::Rare::~Rare() = default;
}  // namespace detail

const std::string& Context::name() const noexcept { return impl_->name; }

void Context::addComponent(std::unique_ptr<Component> component) {
  component->attach(*this);
  if (auto* aside = detail::registrationsKeptAside(*this)) {
    aside->components.push_back(std::move(component));
    return;
  }
  std::string scheme(component->scheme());
  impl_->components[scheme] = std::move(component);
}

Component* Context::component(std::string_view scheme) const noexcept {
  auto it = impl_->components.find(scheme);
  return it == impl_->components.end() ? nullptr : it->second.get();
}

std::vector<std::string> Context::componentSchemes() const {
  std::vector<std::string> out;
  for (const auto& [scheme, c] : impl_->components) out.push_back(scheme);
  return out;
}

void Context::addLanguage(std::string name, std::unique_ptr<Language> language) {
  impl_->languages[std::move(name)] = std::move(language);
}

Language* Context::language(std::string_view name) const noexcept {
  auto it = impl_->languages.find(name);
  return it == impl_->languages.end() ? nullptr : it->second.get();
}

void Context::addDataFormat(std::string name, std::shared_ptr<const DataFormatFactory> factory) {
  impl_->dataFormats[std::move(name)] = std::move(factory);
}

const DataFormatFactory* Context::dataFormat(std::string_view name) const noexcept {
  auto it = impl_->dataFormats.find(name);
  return it == impl_->dataFormats.end() ? nullptr : it->second.get();
}

std::vector<std::string> Context::dataFormatNames() const {
  std::vector<std::string> out;
  for (const auto& [name, f] : impl_->dataFormats) out.push_back(name);
  return out;
}

Scheduler& Context::scheduler() noexcept {
  std::call_once(impl_->schedulerOnce, [this] {
    if (!impl_->scheduler) impl_->scheduler = std::make_shared<detail::TimerLoop>();
  });
  return *impl_->scheduler;
}

void Context::setScheduler(std::shared_ptr<Scheduler> scheduler) {
  impl_->scheduler = std::move(scheduler);
}

void Context::setWorkerThreads(size_t threads) { impl_->workerThreads = threads; }

void Context::submit(Scheduler::Task task) noexcept {
  if (scheduler().runsWorkInline()) {
    task.fn(task.arg);
    return;
  }
  std::call_once(impl_->workersOnce, [this] {
    size_t n = impl_->workerThreads;
    if (n == 0) n = std::max<size_t>(1, std::thread::hardware_concurrency());
    impl_->workers = std::make_unique<detail::WorkerPool>(n);
  });
  impl_->workers->submit(task);
}

std::vector<std::string> Context::languageNames() const {
  std::vector<std::string> out;
  for (const auto& [name, l] : impl_->languages) out.push_back(name);
  return out;
}

Properties& Context::properties() noexcept { return impl_->properties; }

Result<std::string> Context::resolvePlaceholders(std::string_view text) const {
  return impl_->properties.resolve(text);
}

Result<Endpoint*> Context::endpoint(std::string_view text) {
  DROMEDARY_TRY(resolved, resolvePlaceholders(impl_->properties.withoutAbsentOptionalOptions(text)));
  DROMEDARY_TRY(uri, Uri::parse(resolved));
  Component* comp = component(uri.scheme());
  if (!comp) {
    std::vector<std::string> schemes = componentSchemes();
    std::vector<std::string_view> names(schemes.begin(), schemes.end());
    std::string message = fmt::format("unknown component '{}' in endpoint '{}'", uri.scheme(),
                                      uri.text());
    std::string meant = closestMatch(uri.scheme(), names);
    if (!meant.empty()) message += fmt::format("; did you mean '{}'?", meant);
    message += fmt::format("; known components: {}", names.empty() ? "none" : joinNames(names));
    return makeError(ErrorCode::UnknownComponent, std::move(message));
  }
  std::lock_guard lock(impl_->mutex);
  if (Endpoint* known = impl_->endpoints.find(uri.normalized())) return known;
  DROMEDARY_TRY(options, EndpointOptions::resolve(comp->endpointOptions(), uri, comp->lenientOptions()));
  DROMEDARY_TRY(created, comp->createEndpoint(uri, std::move(options)));
  return impl_->endpoints.insert(std::move(created));
}

std::vector<std::string> Context::endpointUris() const {
  std::vector<std::string> uris;
  {
    std::lock_guard lock(impl_->mutex);
    uris.reserve(impl_->endpoints.size());
    impl_->endpoints.forEach([&](const Endpoint& e) { uris.push_back(e.uri()); });
  }
  std::sort(uris.begin(), uris.end());
  return uris;
}

int64_t Context::uptimeMillis() const noexcept {
  return impl_->started ? since(impl_->startedAt).count() : 0;
}

namespace {
// The endpoint's one producer: made and started on first use. With impl.mutex held.
Result<Producer*> sharedProducer(detail::ContextImpl& impl, Endpoint& e) {
  auto it = impl.producers.find(&e);
  if (it == impl.producers.end()) {
    // Made and started before it is kept: a producer that cannot be made or started leaves no
    // empty entry behind (stop() would call it).
    DROMEDARY_TRY(created, e.createProducer());
    DROMEDARY_TRY_VOID(created->start());
    it = impl.producers.emplace(&e, std::move(created)).first;
  }
  return it->second.get();
}
}  // namespace

Result<Producer*> Context::producer(std::string_view uri) {
  {
    std::lock_guard lock(impl_->mutex);
    auto it = impl_->producersByText.find(std::string(uri));
    if (it != impl_->producersByText.end()) return it->second;
  }
  DROMEDARY_TRY(e, endpoint(uri));
  std::lock_guard lock(impl_->mutex);
  DROMEDARY_TRY(p, sharedProducer(*impl_, *e));
  impl_->producersByText.emplace(std::string(uri), p);
  return p;
}

// --- route compilation (RouteCompiler::compileBlock: route_compiler.cc) ---------------

Result<Producer*> RouteCompiler::producer(const std::string& uri) {
  // Not kept by its text (Context::producer's cache, for sends resolved while running): a
  // route's URI is resolved once, and a context may hold many thousand routes.
  DROMEDARY_TRY(e, context_.endpoint(uri));
  auto& impl = context_.implForEngine();
  std::lock_guard lock(impl.mutex);
  return sharedProducer(impl, *e);
}

Result<std::unique_ptr<Step>> RouteCompiler::interceptSend(const std::string& uri,
                                                           std::unique_ptr<Step> send) {
  if (!interception) return send;
  return detail::interceptedSend(*this, *interception, uri, std::move(send));
}

Result<std::unique_ptr<detail::DynamicSendInterception>>
RouteCompiler::dynamicSendInterception() {
  if (!interception) return std::unique_ptr<detail::DynamicSendInterception>();
  return detail::dynamicSendInterception(*this, *interception);
}


namespace {

Result<void> compileRoute(Context& context, Route& route) {
  if (route.compiled) return {};
  route.steps.clear();
  route.blocks.clear();
  route.labels.clear();
  if (route.rare) route.rare->branchLabels.clear();
  RouteCompiler compiler(context, route);
  auto from = context.endpoint(route.fromUri);
  if (!from) {
    Error e = from.error();
    e.message += fmt::format(" (in route '{}', from[{}])", route.id, route.fromUri);
    if (e.where.line == 0) e.where = route.model->where;  // the file's `from`
    return e;
  }
  route.from = *from;
  // Interceptors' own steps first (they are not intercepted), then the route's.
  auto interception = detail::prepareInterception(compiler, *route.model);
  if (!interception) return interception.error();
  compiler.interception = std::move(*interception);
  compiler.interceptSteps = true;
  auto top = compiler.compileBlock(route.model->body);
  compiler.interceptSteps = false;
  if (!top) return top.error();
  const_cast<detail::Block*>(*top)->route = &route;
  if (compiler.interception) {
    std::vector<std::unique_ptr<Step>> first;
    detail::interceptFromSteps(*compiler.interception, route.fromUri, first);
    auto& steps = const_cast<detail::Block*>(*top)->steps;
    for (size_t i = 0; i < first.size(); ++i) {
      (void)detail::nameStep(route, *first[i], "interceptFrom");
      steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(i), first[i].get());
      route.steps.push_back(std::move(first[i]));
    }
  }
  if (!route.model->extras().variableReceive.empty()) {
    auto receive = detail::makeFromVariableReceive(context, route.model->extras().variableReceive);
    if (!receive) {
      Error e = receive.error();
      e.message += fmt::format(" (in route '{}', from[{}] variableReceive)", route.id,
                               route.fromUri);
      if (e.where.line == 0) e.where = route.model->where;
      return e;
    }
    (void)detail::nameStep(route, **receive, "variableReceive");
    auto& steps = const_cast<detail::Block*>(*top)->steps;
    steps.insert(steps.begin(), receive->get());
    route.steps.push_back(std::move(*receive));
  }
  route.top = *top;
  if (auto handling = detail::compileErrorHandling(compiler, route); !handling) {
    return handling.error();
  }
  route.statistics =
      std::make_unique<detail::RouteStatistics>(static_cast<uint32_t>(route.steps.size()));
  route.recorder = std::make_unique<detail::FlightRecorder>(
      context.implForEngine().flightRecorderSize.load(std::memory_order_relaxed));
  for (size_t i = 0; i < route.steps.size(); ++i) {
    route.steps[i]->stats = route.statistics.get();
    route.steps[i]->statsIndex = static_cast<uint32_t>(i);
    route.steps[i]->countStride = static_cast<uint32_t>(route.statistics->countStride());
    route.steps[i]->statsCount = route.statistics->stepCount0(static_cast<uint32_t>(i));
  }
  route.mayBlock = !route.onCompletions().empty() ||
                   (route.errorHandler && detail::mayBlock(*route.errorHandler)) ||
                   std::any_of(route.steps.begin(), route.steps.end(),
                               [](const auto& s) { return s->mayBlock(); });
  route.compiled = true;
  // What runs holds nothing of the model (steps keep their StepOrigin): let it go.
  route.model.reset();
  // Grown one by one while compiling: kept at their size (many routes, each kept long).
  route.labels.shrink_to_fit();
  route.steps.shrink_to_fit();
  route.blocks.shrink_to_fit();
  for (auto& b : route.blocks) b->steps.shrink_to_fit();
  return {};
}

Result<void> startRouteConsumer(Route& route) {
  if (route.status == RouteStatus::Started) return {};
  if (route.status == RouteStatus::Stopping || route.status == RouteStatus::Suspending) {
    return makeError(ErrorCode::RouteNotStarted,
                     fmt::format("route '{}' is {}: start it once that is done", route.id,
                                 route.status == RouteStatus::Stopping ? "stopping" : "suspending"));
  }
  if (route.status == RouteStatus::Suspended && route.consumer) {
    auto resumed = route.consumer->start();
    if (!resumed) {
      Error e = resumed.error();
      e.message += fmt::format(" (resuming route '{}')", route.id);
      return e;
    }
    route.consumerStarted(nullptr);
    return {};
  }
  auto consumer = route.from->createConsumer(route.entry);
  if (!consumer) {
    Error e = consumer.error();
    e.message += fmt::format(" (starting route '{}')", route.id);
    return e;
  }
  auto started = (*consumer)->start();
  if (!started) {
    Error e = started.error();
    e.message += fmt::format(" (starting route '{}')", route.id);
    return e;
  }
  route.consumerStarted(std::move(*consumer));
  route.startedAt = Clock::now();
  for (auto& step : route.steps) step->routeStarted();
  return {};
}

}  // namespace

Result<void> Context::addRoutes(RouteBuilder& builder) {
  builder.configure();
  DROMEDARY_TRY_VOID(detail::addRestRoutes(*this, builder));
  // Builder-wide onException / onCompletion: shared by every route of the builder.
  std::vector<std::shared_ptr<detail::OnExceptionModel>> builder_clauses;
  std::vector<std::shared_ptr<detail::OnCompletionModel>> builder_completions;
  std::vector<std::shared_ptr<detail::InterceptModel>> builder_intercepts;
  if (RouteDefinition* config = builder.configurationForEngine()) {
    detail::RouteModel& cm = config->modelForEngine();
    const detail::RouteModel::Extras& clauses = cm.extras();
    if (!clauses.misuse.empty() || !cm.body.steps.empty()) {
      return makeError(ErrorCode::InvalidRoute,
                       fmt::format("{} (in the RouteBuilder's onException/onCompletion/"
                                   "intercept)",
                                   clauses.misuse.empty() ? "steps outside a clause (onException, "
                                                       "onCompletion, intercept ...); close "
                                                       "the clause with end() and start "
                                                       "routes with from()"
                                                     : clauses.misuse.front()));
    }
    builder_clauses = clauses.onExceptions;
    builder_completions = clauses.onCompletions;
    builder_intercepts = clauses.intercepts;
  }
  std::vector<std::unique_ptr<Route>> added;
  // The ids in use, to refuse a duplicate in constant time (a file of 50,000 routes compared
  // each id with every one before it: 70% of its load time).
  std::unordered_set<std::string_view> taken;
  for (const Route* r : impl_->routeList()) taken.insert(r->id);
  for (auto& definition : builder.routesForEngine()) {
    detail::RouteModel& model = definition->modelForEngine();
    // Kept in the model's extras only when there is something to keep.
    if (!model.kamelet && (builder.errorHandlerForEngine() || !builder_clauses.empty() ||
                           !builder_completions.empty() || !builder_intercepts.empty())) {
      detail::RouteModel::Extras& more = model.more();
      more.builderErrorHandler = builder.errorHandlerForEngine();
      more.builderOnExceptions = builder_clauses;
      more.builderOnCompletions = builder_completions;
      more.builderIntercepts = builder_intercepts;
    }
    std::string id = model.id.empty() ? fmt::format("route{}", ++impl_->routeCounter) : model.id;
    if (const auto& misuse = model.extras().misuse; !misuse.empty()) {
      Error e = makeError(ErrorCode::InvalidRoute,
                          fmt::format("{} (in route '{}' from '{}')", misuse.front(), id,
                                      model.from));
      e.where = model.where;
      return e;
    }
    // An id is a label in /metrics and a value in JSON and in log lines: UTF-8 text only.
    if (printableText(id) != id) {
      Error e = makeError(ErrorCode::InvalidRoute,
                          fmt::format("route id '{}' is not printable UTF-8 text (route from "
                                      "'{}')",
                                      printableText(id), model.from));
      e.where = model.where;
      return e;
    }
    if (taken.contains(id)) {
      Error e = makeError(ErrorCode::DuplicateRoute,
                          fmt::format("route id '{}' is used by more than one route", id));
      e.where = model.where;  // the second one's, in a route file
      return e;
    }
    auto route = std::make_unique<Route>(*this);
    route->id = std::move(id);
    taken.insert(route->id);  // the route's own string: it does not move
    route->fromUri = model.from;
    route->autoStartup = model.autoStartup;
    route->shutdownRoute = model.shutdownRoute;
    route->shutdownRunningTask = model.shutdownRunningTask;
    route->trace = model.trace;
    route->where = {model.where.file, model.where.line, model.where.column};
    route->kamelet = model.kamelet;
    added.push_back(std::move(route));
  }
  // Every route is valid: the models move into their routes (the objects themselves: a copy
  // would hold two of each until the builder goes), so the builder can be destroyed.
  for (size_t i = 0; i < added.size(); ++i) {
    added[i]->model = builder.routesForEngine()[i]->takeModelForEngine();
  }
  builder.routesForEngine().clear();
  size_t first = impl_->routes.size();
  {
    std::unique_lock lock(impl_->routesMutex);
    for (auto& r : added) impl_->routes.push_back(std::move(r));
  }
  if (!impl_->started) return {};
  for (size_t i = first; i < impl_->routes.size(); ++i) {
    Route& route = *impl_->routes[i];
    DROMEDARY_TRY_VOID(compileRoute(*this, route));
    if (route.autoStartup) DROMEDARY_TRY_VOID(startRouteConsumer(route));
  }
  return {};
}

Result<void> Context::addRoutes(const std::function<void(RouteBuilder&)>& configure) {
  RouteBuilder builder;
  configure(builder);
  return addRoutes(builder);
}

std::string_view routeStatusName(RouteStatus status) noexcept {
  switch (status) {
    case RouteStatus::Started: return "Started";
    case RouteStatus::Suspended: return "Suspended";
    case RouteStatus::Stopping: return "Stopping";
    case RouteStatus::Suspending: return "Suspending";
    case RouteStatus::Stopped: break;
  }
  return "Stopped";
}

namespace {

// The state as a sentence says it: "started", "stopping" ...
std::string statusText(RouteStatus status) {
  std::string text(routeStatusName(status));
  text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

}  // namespace

std::vector<std::string> Context::routeIds() const {
  std::vector<std::string> ids;
  const std::vector<Route*> list = impl_->routeList();
  ids.reserve(list.size());
  for (const Route* r : list) ids.push_back(r->id);
  return ids;
}

size_t Context::routeCount() const {
  std::shared_lock lock(impl_->routesMutex);
  return impl_->routes.size();
}

Result<void> Context::removeRoute(std::string_view route_id) {
  Route* r = impl_->findRoute(route_id);
  if (!r) return detail::noSuchRoute(route_id, routeIds());
  if (r->status != RouteStatus::Stopped) {
    return makeError(ErrorCode::InvalidRoute,
                     fmt::format("route '{}' is {}: stop it before removing it", route_id,
                                 statusText(r->status)));
  }
  std::unique_lock lock(impl_->routesMutex);
  auto it = std::find_if(impl_->routes.begin(), impl_->routes.end(),
                         [&](const auto& route) { return route.get() == r; });
  impl_->removedRoutes.push_back(std::move(*it));
  impl_->routes.erase(it);
  return {};
}

bool Context::routeAutoStartup(std::string_view route_id) const {
  const Route* r = impl_->findRoute(route_id);
  return r && r->autoStartup;
}

RouteStatus Context::routeStatus(std::string_view route_id) const {
  Route* r = impl_->findRoute(route_id);
  return r ? r->status : RouteStatus::Stopped;
}


Error detail::noSuchRoute(std::string_view id, const std::vector<std::string>& ids) {
  std::vector<std::string_view> names(ids.begin(), ids.end());
  return makeError(ErrorCode::NotFound,
                   fmt::format("no route with id '{}'; routes: {}", id,
                               names.empty() ? "none" : joinNames(names)));
}

Result<void> Context::startRoute(std::string_view route_id) {
  Route* r = impl_->findRoute(route_id);
  if (!r) return detail::noSuchRoute(route_id, routeIds());
  DROMEDARY_TRY_VOID(compileRoute(*this, *r));
  return startRouteConsumer(*r);
}

Result<void> Context::resumeRoute(std::string_view route_id) {
  Route* r = impl_->findRoute(route_id);
  if (!r) return detail::noSuchRoute(route_id, routeIds());
  if (r->status != RouteStatus::Suspended) {
    return makeError(ErrorCode::RouteNotStarted,
                     fmt::format("route '{}' is not suspended (it is {})", r->id,
                                 statusText(r->status)));
  }
  DROMEDARY_TRY_VOID(startRouteConsumer(*r));
  impl_->log.log(LoggingLevel::Info, fmt::format("Route: {} resumed", r->id));
  return {};
}

std::string Context::routeConsumerProblem(std::string_view route_id) const {
  const Route* r = impl_->findRoute(route_id);
  return r ? r->consumerHealthProblem() : std::string();
}

std::vector<std::pair<std::string, std::string>> Context::routeConsumerDetails(
    std::string_view route_id) const {
  const Route* r = impl_->findRoute(route_id);
  return r ? r->consumerDetails() : std::vector<std::pair<std::string, std::string>>();
}

uint64_t Context::inflight(std::string_view route_id) const {
  Route* r = impl_->findRoute(route_id);
  return r ? r->counters.inflight() : 0;
}

uint64_t Context::inflight() const {
  uint64_t total = 0;
  for (const Route* r : impl_->routeList()) total += r->counters.inflight();
  return total;
}

Context::FailureCounts Context::failureCounts(std::string_view route_id) const {
  FailureCounts c;
  if (const Route* r = impl_->findRoute(route_id)) {
    c.failed = r->counters.failed_total();
    c.handled = r->counters.failures_handled_total();
    c.redeliveries = r->counters.redeliveries_total();
    c.deadLetterFailures = r->counters.dead_letter_failures_total();
  }
  return c;
}

void Context::setErrorHandler(ErrorHandlerDefinition handler) {
  impl_->errorHandler = handler.modelForEngine();
}

void Context::setMessageHistory(bool enabled) { impl_->messageHistory = enabled; }

Result<void> Context::registerExceptionType(std::string name, std::string_view parent,
                                            ExceptionMatcher matcher) {
  return impl_->exceptions.add(std::move(name), parent, matcher);
}

Result<void> Context::aliasExceptionType(std::string alias, std::string_view name) {
  return impl_->exceptions.alias(std::move(alias), name);
}

Result<void> Context::compileRoutes() {
  for (auto& r : impl_->routes) DROMEDARY_TRY_VOID(compileRoute(*this, *r));
  // Two routes consuming a channel that takes one consumer fail when the second starts:
  // reported here too, so that validating finds it without starting anything.
  // Sorted pairs rather than a map: this runs when every route has compiled, the peak of a
  // big load, and a map's nodes would add to it.
  const auto& routes = impl_->routes;
  // Each consuming route's channel by its hash (16 bytes a route rather than the key's 40),
  // reserved at its size and sorted in place by (hash, route index); the keys are compared only
  // within a run of equal hashes.
  std::vector<std::pair<uint64_t, size_t>> consumers;  // hash of the channel, route index
  consumers.reserve(routes.size());
  for (size_t i = 0; i < routes.size(); ++i) {
    if (!routes[i]->from) continue;
    std::string key = routes[i]->from->exclusiveConsumerKey();
    if (!key.empty()) consumers.emplace_back(std::hash<std::string>{}(key), i);
  }
  std::sort(consumers.begin(), consumers.end());
  // The route met first (in route order) that consumes a channel an earlier route does.
  size_t first = 0, second = routes.size();
  for (size_t run = 0, end = 0; run < consumers.size(); run = end) {
    end = run + 1;
    while (end < consumers.size() && consumers[end].first == consumers[run].first) ++end;
    // Within the run, in route order: the earliest route of the same channel before each.
    for (size_t k = run + 1; k < end; ++k) {
      size_t later = consumers[k].second;
      if (later >= second) break;  // indexes ascend within the run
      std::string key = routes[later]->from->exclusiveConsumerKey();
      for (size_t j = run; j < k; ++j) {
        if (routes[consumers[j].second]->from->exclusiveConsumerKey() != key) continue;
        first = consumers[j].second;
        second = later;
        break;
      }
    }
  }
  if (second < routes.size()) {
    const Route* r = routes[second].get();
    std::string message = fmt::format(
        "routes '{}' and '{}' both consume from {}: it takes one consumer", routes[first]->id,
        r->id, r->from->uri());
    if (r->where.line != 0) {
      const detail::SourcePlace& w = r->where;
      message += fmt::format(" (at {}:{}:{})", w.file.str(), w.line, w.column);
    }
    return makeError(ErrorCode::DuplicateConsumer, std::move(message));
  }
  return {};
}

Result<void> Context::start() {
  if (impl_->started) return {};
  auto begin = Clock::now();
  if (impl_->stoppedBefore) {
    std::lock_guard lock(impl_->mutex);
    for (auto& [endpoint, producer] : impl_->producers) DROMEDARY_TRY_VOID(producer->start());
  }
  for (auto& r : impl_->routes) DROMEDARY_TRY_VOID(compileRoute(*this, *r));
  std::vector<Route*> started;
  for (auto& r : impl_->routes) {
    if (!r->autoStartup) continue;
    auto ok = startRouteConsumer(*r);
    if (!ok) {
      for (auto it = started.rbegin(); it != started.rend(); ++it) {
        (*it)->consumer->stop();
        (*it)->consumerGone();
      }
      return ok;
    }
    started.push_back(r.get());
  }
  impl_->started = true;
  impl_->startedAt = Clock::now();
  const Logger& log = impl_->log;
  if (log.enabled(LoggingLevel::Info)) {
    log.log(LoggingLevel::Info,
            fmt::format("Routes startup (total:{} started:{})", impl_->routes.size(),
                        started.size()));
    for (const auto& r : impl_->routes) {
      log.log(LoggingLevel::Info, fmt::format("    {} {} ({})",
                                              r->status == RouteStatus::Started ? "Started"
                                                                                : "Stopped",
                                              r->id, r->from->uri()));
    }
    const StreamCaching& caching = *impl_->streamCaching;
    if (caching.spools()) {
      log.log(LoggingLevel::Info,
              fmt::format("StreamCaching in use with spool directory: {} and rules: [Spool > {} "
                          "bytes body size]",
                          caching.directory(), caching.options().spoolThreshold));
    }
    log.log(LoggingLevel::Info, fmt::format("Dromedary {} ({}) started in {}us", kVersion,
                                            impl_->name,
                                            std::chrono::duration_cast<std::chrono::microseconds>(
                                                Clock::now() - begin)
                                                .count()));
  }
  return {};
}

bool Context::isStarted() const noexcept { return impl_->started; }

Result<void> Context::setStreamCaching(StreamCachingOptions options) {
  DROMEDARY_TRY(caching, StreamCaching::make(std::move(options), impl_->name));
  if (impl_->streamCaching) impl_->replacedStreamCaching.push_back(impl_->streamCaching);
  impl_->streamCaching = std::move(caching);
  return {};
}

const StreamCaching& Context::streamCaching() const noexcept { return *impl_->streamCaching; }

bool Context::isStopping() const noexcept {
  return impl_->stopping.load(std::memory_order_relaxed);
}

ExchangePtr Context::createExchange() noexcept { return acquireExchange(this); }

}  // namespace dromedary
