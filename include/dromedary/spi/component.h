// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The component SPI: Component -> Endpoint -> Producer / Consumer.
///
/// A component plugs a URI scheme into a Context. It declares its endpoint options in a
/// table (option_table.h); the context validates a URI against that table and then asks
/// the component for an Endpoint, which is cached by its normalised URI for the life of the
/// context. An endpoint makes Producers (which send: they are Processors) and Consumers
/// (which feed a route's entry Processor).
///
/// Example (a component in its own folder, registered without touching the core):
///   class EchoComponent : public Component {
///    public:
///     std::string_view scheme() const override { return "echo"; }
///     std::span<const OptionSpec> endpointOptions() const override { return {}; }
///     Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
///                                                      EndpointOptions options) override;
///   };
///   void registerEchoComponent(Context& context) {
///     context.addComponent(std::make_unique<EchoComponent>());
///   }
///
/// Lifetimes: the context owns components, endpoints, producers and consumers, and destroys
/// them after every route has stopped. Producers are shared by every route and thread that
/// sends to the endpoint: `process` must be thread-safe.

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dromedary/core/result.h>
#include <dromedary/core/uri.h>
#include <dromedary/spi/option_table.h>
#include <dromedary/spi/processor.h>

namespace dromedary {

class Context;
class Component;

/// Sends exchanges to an endpoint.
class Producer : public Processor {
 public:
  virtual Result<void> start() { return {}; }
  virtual void stop() noexcept {}
};

/// Feeds exchanges into a route through the Processor it was created with.
class Consumer {
 public:
  virtual ~Consumer() = default;
  virtual Result<void> start() = 0;
  /// Stops taking new work, without waiting for work accepted but not yet given to the
  /// route (pendingExchanges): the context waits for that, up to its shutdown timeout.
  /// Exchanges already in the route are finished by the route.
  virtual void stop() noexcept = 0;
  /// Whether the consumer only takes work from routes of the same context (direct:, seda:).
  /// A graceful stop of the context keeps it taking work until the routes that feed it have
  /// drained (Camel defers such routes), so an exchange finishing elsewhere still reaches it.
  virtual bool internal() const noexcept { return false; }
  /// Work accepted but not yet given to the route (a seda: queue's messages). A graceful stop
  /// waits for it with the exchanges in flight.
  virtual size_t pendingExchanges() const noexcept { return 0; }
  /// The consumer's exchanges from their hand-off to the route until the consumer has handled
  /// their end (a file's move, a row's onConsume and commit): those still in the route and
  /// those that have left it. A stop waits for them as for the route's exchanges in flight
  /// (it counts the larger of the two), so that what a stopped context consumed is also
  /// committed.
  virtual size_t completing() const noexcept { return 0; }
  /// The stop's timeout passed with work pending: give it up (nothing more goes into the
  /// route after the exchanges running now) and return how much was left behind.
  virtual size_t abandonPending() noexcept { return 0; }
  /// Why the started consumer cannot take messages now (e.g. "not connected to the broker at
  /// amqp://..."), empty when it can: what the management health check reports as DOWN.
  /// Called from any thread while the consumer is started.
  virtual std::string healthProblem() const { return {}; }
  /// What the consumer shows about itself in management, as names and values (a master:
  /// consumer's role, leader and term); empty for most. Called from any thread while the
  /// consumer is started.
  virtual std::vector<std::pair<std::string, std::string>> details() const { return {}; }
};

/// A consumer its caller polls, for pollEnrich (Camel's PollingConsumer): the caller asks for
/// the next message when it wants one instead of the endpoint pushing messages into a route.
/// One per endpoint, shared by every thread that polls it: `receive` must be thread-safe.
class PollingConsumer {
 public:
  virtual ~PollingConsumer() = default;
  /// The next message, the caller's to keep: waits up to `timeout` for one, for ever when
  /// `timeout` is negative, not at all when it is zero (Camel's receive(timeout), receive(),
  /// receiveNoWait()). Null when none came in time, or when the context is stopping.
  virtual ExchangePtr receive(std::chrono::milliseconds timeout) noexcept = 0;
};

class Endpoint {
 public:
  Endpoint(Component& component, Uri uri, EndpointOptions options)
      : component_(component), uri_(std::move(uri)), options_(std::move(options)) {}
  virtual ~Endpoint();

  /// The normalised URI, e.g. "direct://a?timeout=5": stable for the context's life.
  const std::string& uri() const noexcept { return uri_.normalized(); }
  const Uri& parsedUri() const noexcept { return uri_; }
  const EndpointOptions& options() const noexcept { return options_; }
  Component& component() const noexcept { return component_; }
  Context& context() const noexcept;

  virtual Result<std::unique_ptr<Producer>> createProducer() = 0;
  /// `processor` is the route's entry; it outlives the consumer.
  virtual Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) = 0;
  /// For an endpoint that takes one consumer only (direct, seda without multipleConsumers):
  /// what two endpoints share when they are the same channel ("direct:a", whatever their
  /// options); empty when any number of routes may consume. `dromedary validate` reports two
  /// routes consuming the same channel without starting them.
  virtual std::string exclusiveConsumerKey() const { return {}; }
  /// Endpoints that can be polled (seda ...) override this; the default refuses, naming the
  /// endpoint. Called once per endpoint, through pollingConsumer().
  virtual Result<std::unique_ptr<PollingConsumer>> createPollingConsumer();

  /// The endpoint's polling consumer, created on first use and kept for the endpoint's life.
  Result<PollingConsumer*> pollingConsumer();

 private:
  Component& component_;
  Uri uri_;
  EndpointOptions options_;
  // Owned; made at most once (under one lock for all endpoints: it is rare, and a lock of its
  // own would be a tenth of an endpoint's size in a context of many routes).
  std::atomic<PollingConsumer*> polling_{nullptr};
};

class Component {
 public:
  virtual ~Component() = default;
  virtual std::string_view scheme() const = 0;
  /// The URI syntax as Camel's catalog writes it: the scheme and the names of the path's
  /// parts ("timer:timerName", "amqp:destinationType:destinationName"). Route files may give
  /// those parts as parameters (`uri: timer` with `timerName: tick`); the loaders fold them
  /// into the path in this order, leaving out parts not given.
  virtual std::string_view syntax() const { return {}; }
  virtual std::span<const OptionSpec> endpointOptions() const = 0;
  /// Camel's lenientProperties: true when a URI may carry options the table does not name,
  /// which the component takes as its own (the http component sends them to the server as
  /// the request's query). False for every other component: an unknown option is an error.
  virtual bool lenientOptions() const noexcept { return false; }
  /// Called once per normalised URI, after the options were validated against the table.
  virtual Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                           EndpointOptions options) = 0;

  /// Camel's SendDynamicAware, for toD (allowOptimisedComponents): a URI computed per exchange
  /// ("https://api/items/42?x=1") split into the endpoint sent to, shared by many such URIs
  /// ("https://api"), and the values of dynamicSendHeaders() that carry the rest (the path,
  /// the query). So distinct URIs do not each make an endpoint and a producer that the context
  /// keeps. Empty names (the default): toD sends to each URI as it is.
  virtual std::span<const std::string_view> dynamicSendHeaders() const noexcept { return {}; }
  /// Fills `endpoint` and `values` (one per dynamicSendHeaders() name, in order; empty: the
  /// header is removed), reusing their buffers; false to send to `uri` as it is. Called per
  /// message on any thread: no lock, no allocation once the buffers are warm.
  virtual bool splitDynamicUri(std::string_view uri, std::string& endpoint,
                               std::span<std::string> values) const noexcept {
    (void)uri, (void)endpoint, (void)values;
    return false;
  }
  /// Called by the context when the component is added.
  void attach(Context& context) noexcept { context_ = &context; }
  Context& context() const noexcept { return *context_; }

 private:
  Context* context_ = nullptr;
};

inline Context& Endpoint::context() const noexcept { return component_.context(); }

/// Runs `exchange` through a route's entry `processor` on the calling thread and returns when
/// the exchange has completed, also when a step suspended it on the way: what a consumer
/// calls for each message it feeds into its route. The result is Continue or Fail (the
/// exchange's error slot says why).
Status processAndWait(Exchange& exchange, Processor& processor) noexcept;

/// Runs `exchange` through `processor` without waiting: `done(exchange, arg)` is called when
/// it has completed, at once when nothing suspended it, else on whichever thread resumes it.
/// No thread is held while the exchange waits (a delay, a queue, a reply). `done_may_block`
/// false promises that `done` returns promptly (it hands the result on, it never waits): an
/// I/O thread may then resume the exchange itself (see resumeMayBlock).
void processAsync(Exchange& exchange, Processor& processor,
                  void (*done)(Exchange& exchange, void* arg), void* arg,
                  bool done_may_block = true) noexcept;

/// Whether resuming `exchange` may run something that blocks: a step of a route that may
/// block (Processor::mayBlock) that is still to run, a completion hook, or a completion
/// callback not known to return promptly. A component's I/O thread that gets a parked
/// exchange back (a reply) resumes it itself when this is false, saving the hand-off to a
/// worker; otherwise it hands it to the context's workers (`Context::submit`). A thread
/// waiting in a ProducerTemplate is woken promptly.
bool resumeMayBlock(const Exchange& exchange) noexcept;

/// Whether the calling thread would wait for `exchange` anyway if a step parked it now: the
/// exchange entered through processAndWait (a consumer's thread, a ProducerTemplate's caller)
/// on this very thread, and is not a sub-exchange. A producer may then do its I/O on this
/// thread, blocking, rather than park the exchange and have another thread do it: the same
/// thread is held either way, and the two hand-offs (to the I/O thread and back) are saved.
bool callerWaits(const Exchange& exchange) noexcept;

}  // namespace dromedary
