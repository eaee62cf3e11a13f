// SPDX-License-Identifier: Apache-2.0
#pragma once

// The context's state, shared by the engine's files (context.cc owns the logic).

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/engine/statistics.h>
#include <dromedary/engine/stream_caching.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/header_filter_strategy.h>
#include <dromedary/spi/language.h>
#include <dromedary/spi/scheduler.h>

#include "engine/endpoint_table.h"
#include "engine/error_handler_model.h"
#include "engine/exception_registry.h"
#include "engine/compiled_route.h"
#include "engine/tracer.h"
#include "engine/worker_pool.h"

namespace dromedary {
namespace detail {

struct ContextImpl {
  std::string name;
  Logger log = Logger::get("dromedary.context");
  Properties properties;
  std::map<std::string, std::unique_ptr<Component>, std::less<>> components;
  std::map<std::string, std::unique_ptr<Language>, std::less<>> languages;
  std::map<std::string, std::shared_ptr<const DataFormatFactory>, std::less<>> dataFormats;
  std::map<std::string, std::shared_ptr<Processor>, std::less<>> processors;  // by name
  std::map<std::string, RouteTemplate, std::less<>> templates;
  std::map<std::string, std::shared_ptr<AggregationStrategy>, std::less<>> strategies;
  std::map<std::string, std::shared_ptr<IdempotentRepository>, std::less<>> idempotent;
  std::map<std::string, std::shared_ptr<AggregationRepository>, std::less<>>
      aggregationRepositories;
  std::map<std::string, std::shared_ptr<HeaderFilterStrategy>, std::less<>> headerFilters;
  std::map<std::string, std::pair<TypeId, std::shared_ptr<void>>, std::less<>> beans;
  std::map<std::string, Context::BeanFactory, std::less<>> beanFactories;  // by Java type
  // The named objects above (processors to beanFactories): a mutex of their own, so that a
  // component creating an endpoint under `mutex` can look up what its options name.
  mutable std::mutex namedMutex;

  // Endpoints and producers are created from any thread: guarded by one mutex.
  mutable std::mutex mutex;
  // By normalised URI, the endpoint's own (Endpoint::uri()), not a second copy of it.
  EndpointTable endpoints;
  std::unordered_map<const Endpoint*, std::unique_ptr<Producer>> producers;
  std::unordered_map<std::string, Producer*> producersByText;

  std::vector<std::unique_ptr<Route>> routes;
  // The routes are added and removed by the thread that owns the context; the management
  // server's threads look them up at the same time: they read under a shared lock, the owner
  // changes the vector under an exclusive one. A removed route is kept (not destroyed) until
  // the context goes: what still points at it (an exchange a forced stop left, a reader that
  // found it) stays valid.
  mutable std::shared_mutex routesMutex;
  std::vector<std::unique_ptr<Route>> removedRoutes;
  std::map<std::string, int, std::less<>> nodeCounters;
  // Camel 4's global variables, and route variables under "ROUTEID:name" (engine/variables.h):
  // shared by every exchange, so under a lock; exchanges' own variables are not here.
  mutable std::mutex variablesMutex;
  std::map<std::string, Value, std::less<>> globalVariables;
  std::map<std::string, Value, std::less<>> routeVariables;
  int routeCounter = 0;
  bool started = false;
  std::atomic<bool> stopping{false};

  // Time and threads: created on first use.
  std::once_flag schedulerOnce;
  std::shared_ptr<Scheduler> scheduler;
  std::once_flag workersOnce;
  std::unique_ptr<WorkerPool> workers;
  size_t workerThreads = 0;  // 0: the number of cores
  bool stoppedBefore = false;  // a restart must start the producers stop() stopped

  // Error handling (configured before routes start; read without locks afterwards).
  ExceptionRegistry exceptions;
  std::shared_ptr<const ErrorHandlerModel> errorHandler;  // null: the default one
  /// The compiled error handler that routes share when theirs has nothing of their own (no
  /// dead letter endpoint, no onException clause), and the model it was compiled from (null:
  /// the default one), kept so that the key cannot be freed and its address reused.
  struct SharedErrorHandler {
    std::mutex mutex;
    bool made = false;
    std::shared_ptr<const ErrorHandlerModel> model;
    std::shared_ptr<const CompiledErrorHandler> handler;
  } sharedErrorHandler;
  bool messageHistory = false;
  std::unique_ptr<detail::Tracer> tracer;
  std::atomic<uint32_t> flightRecorderSize{10};  // per route: completed and failed kept  // made by setTracing, or at compile with defaults
  bool captureOriginal = false;  // some route uses useOriginalMessage/useOriginalBody

  // Statistics (read per exchange, changed at any time).
  std::atomic<uint8_t> statisticsLevel{static_cast<uint8_t>(StatisticsLevel::Default)};
  std::atomic<uint32_t> timingSample{0};  // 0: one per thread per coarse-clock tick
  std::chrono::steady_clock::time_point startedAt;
  std::chrono::milliseconds shutdownTimeout{45000};  // Camel's default
  // Set before start (setStreamCaching); read by producers while running. One replaced is
  // kept until the context goes: a request in flight may still point at it.
  std::shared_ptr<const StreamCaching> streamCaching;
  std::vector<std::shared_ptr<const StreamCaching>> replacedStreamCaching;

  Route* findRoute(std::string_view id) const {
    std::shared_lock lock(routesMutex);
    for (const auto& r : routes) {
      if (r->id == id) return r.get();
    }
    return nullptr;
  }
  /// The routes now, for a reader on any thread.
  std::vector<Route*> routeList() const {
    std::shared_lock lock(routesMutex);
    std::vector<Route*> list;
    list.reserve(routes.size());
    for (const auto& r : routes) list.push_back(r.get());
    return list;
  }
};

/// The error of an API call naming a route that does not exist, listing those that do.
Error noSuchRoute(std::string_view id, const std::vector<std::string>& ids);

/// Where `context`'s registrations go while Context::collectRegistrations runs on this thread;
/// null otherwise (they go to the context).
Context::Registrations* registrationsKeptAside(const Context& context) noexcept;

}  // namespace detail

}  // namespace dromedary
