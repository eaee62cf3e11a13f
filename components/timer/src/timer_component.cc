// SPDX-License-Identifier: Apache-2.0
// timer:name: fires an exchange every `period` after `delay`, `repeatCount` times (0: for
// ever), from its own thread, as Camel's timer does (one java.util.Timer thread per name
// there). Metadata (CamelTimerName, CamelTimerFiredTime, CamelTimerPeriod, CamelTimerCounter
// as properties, CamelMessageTimestamp as a header) is set with includeMetadata=true.
//
// Not yet here (issue #5): the shared timer loop instead of a thread per consumer, virtual
// time for tests, and the error handler (a failed exchange is logged at WARN).
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>

namespace dromedary {
namespace component::timer {

namespace {

constexpr OptionSpec kOptions[] = {
    {"period", OptionType::Duration, "1000", "Time between fires (1000, 500ms, 5s, 1m ...)"},
    {"delay", OptionType::Duration, "1000", "Time before the first fire"},
    {"repeatCount", OptionType::Int, "0", "Fire this many times, then stop firing; 0 is forever"},
    {"fixedRate", OptionType::Bool, "false",
     "Fire at fixed times (start + n * period) rather than period after each exchange ends"},
    {"includeMetadata", OptionType::Bool, "false",
     "Set CamelTimerName, CamelTimerFiredTime, CamelTimerPeriod, CamelTimerCounter and "
     "CamelMessageTimestamp on each exchange"},
};

int64_t epochMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct TimerSettings {
  std::string name;
  std::chrono::milliseconds period;
  std::chrono::milliseconds delay;
  int64_t repeat_count;
  bool fixed_rate;
  bool include_metadata;
};

class TimerConsumer final : public Consumer {
 public:
  TimerConsumer(Context& context, Processor& processor, TimerSettings settings)
      : context_(context),
        processor_(processor),
        settings_(std::move(settings)),
        log_(Logger::get("dromedary.timer")) {}
  ~TimerConsumer() override { stop(); }

  Result<void> start() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = false;
    }
    thread_ = std::thread([this] { run(); });
    return {};
  }

  void stop() noexcept override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }

 private:
  using Clock = std::chrono::steady_clock;

  // Waits until `when` or a stop; true when it is time to fire.
  bool waitUntil(Clock::time_point when) {
    std::unique_lock lock(mutex_);
    return !wake_.wait_until(lock, when, [this] { return stopping_; });
  }

  void run() {
    Clock::time_point next = Clock::now() + settings_.delay;
    for (int64_t counter = 1;; ++counter) {
      if (!waitUntil(next)) return;
      fire(counter);
      if (settings_.repeat_count > 0 && counter >= settings_.repeat_count) return;
      next = settings_.fixed_rate ? next + settings_.period : Clock::now() + settings_.period;
    }
  }

  void fire(int64_t counter) {
    ExchangePtr ex = context_.createExchange();
    if (settings_.include_metadata) {
      int64_t now = epochMillis();
      ex->setProperty("CamelTimerName", Value(std::string_view(settings_.name)));
      ex->setProperty("CamelTimerFiredTime", Value(now));
      ex->setProperty("CamelTimerPeriod", Value(int64_t{settings_.period.count()}));
      ex->setProperty("CamelTimerCounter", Value(counter));
      ex->message().setHeader("CamelMessageTimestamp", Value(now));
    }
    processAndWait(*ex, processor_);
    if (ex->failed() && log_.enabled(LoggingLevel::Warn)) {
      log_.log(LoggingLevel::Warn, fmt::format("timer:{} exchange failed: {}", settings_.name,
                                               ex->error().message()));
    }
  }

  Context& context_;
  Processor& processor_;
  TimerSettings settings_;
  Logger log_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

class TimerEndpoint final : public Endpoint {
 public:
  using Endpoint::Endpoint;

  Result<std::unique_ptr<Producer>> createProducer() override {
    return makeError(ErrorCode::InvalidUri,
                     fmt::format("the timer component only consumes: cannot send to '{}'", uri()));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    TimerSettings s{std::string(parsedUri().path()), options().getDuration("period"),
                    options().getDuration("delay"), options().getInt("repeatCount"),
                    options().getBool("fixedRate"), options().getBool("includeMetadata")};
    if (s.period.count() <= 0 && s.repeat_count != 1) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("period must be positive for '{}' (or repeatCount=1)", uri()));
    }
    return std::unique_ptr<Consumer>(new TimerConsumer(context(), processor, std::move(s)));
  }
};

class TimerComponent final : public Component {
 public:
  std::string_view scheme() const override { return "timer"; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    if (uri.path().empty()) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("a timer needs a name: timer:name, not '{}'", uri.text()));
    }
    return std::unique_ptr<Endpoint>(new TimerEndpoint(*this, uri, std::move(options)));
  }
};

}  // namespace

}  // namespace component::timer

void registerTimerComponent(Context& context) {
  context.addComponent(std::make_unique<component::timer::TimerComponent>());
}

}  // namespace dromedary
