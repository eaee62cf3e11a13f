// SPDX-License-Identifier: Apache-2.0
// timer:name: fires an exchange every `period` after `delay`, `repeatCount` times (0: for
// ever), on the context's scheduler, the route running on a worker thread. As Camel's timer,
// fires of one timer never overlap: the next is scheduled when the exchange completes
// (fixedRate: at start + n * period, catching up when late; else period after completion).
// Metadata (CamelTimerName, CamelTimerFiredTime, CamelTimerPeriod, CamelTimerCounter as
// properties; CamelTimerFiredTime and CamelMessageTimestamp as headers, as Camel 4) is set
// with includeMetadata=true.
// A failed exchange is logged at WARN until error handlers exist (issue #6).
#include <atomic>
#include <mutex>

#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/repeating_task.h>

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

struct TimerSettings {
  std::string name;
  std::chrono::milliseconds period;
  std::chrono::milliseconds delay;
  int64_t repeatCount;
  bool fixedRate;
  bool includeMetadata;
};

// One timer's fires: a RepeatingTask (its scheduling and reference counting), each run one
// exchange, the next fire scheduled when that exchange completes.
class TimerState final : public RepeatingTask {
 public:
  TimerState(Context& context, Processor& processor, TimerSettings settings)
      : RepeatingTask(context),
        processor_(processor),
        settings_(std::move(settings)),
        log_(Logger::get("dromedary.timer")) {}

  void start() {
    next_ = context().scheduler().now() + settings_.delay;
    RepeatingTask::start(next_);
  }

 private:
  // On a worker: one exchange through the route, completing in done().
  void run() noexcept override {
    int64_t counter = ++fired_;
    Exchange* ex = context().createExchange().release();
    if (settings_.includeMetadata) {
      try {
        int64_t now = context().scheduler().epochMillis();
        ex->setProperty("CamelTimerName", Value(std::string_view(settings_.name)));
        ex->setProperty("CamelTimerFiredTime", Value(now));
        ex->setProperty("CamelTimerPeriod", Value(int64_t{settings_.period.count()}));
        ex->setProperty("CamelTimerCounter", Value(counter));
        ex->message().setHeader("CamelMessageTimestamp", Value(now));
        ex->message().setHeader("CamelTimerFiredTime", Value(now));  // Camel 4 sets both
      } catch (...) {
        ex->setException(std::current_exception());
      }
    }
    processAsync(*ex, processor_, &done, this);
  }

  static void done(Exchange& ex, void* arg) {
    auto* self = static_cast<TimerState*>(arg);
    if (ex.failed() && self->log_.enabled(LoggingLevel::Warn)) {
      try {
        self->log_.log(LoggingLevel::Warn, fmt::format("timer:{} exchange failed: {}",
                                                       self->settings_.name, ex.error().message()));
      } catch (...) {
      }
    }
    ExchangeRecycler{}(&ex);
    const TimerSettings& s = self->settings_;
    if (!(s.repeatCount > 0 && self->fired_ >= s.repeatCount)) {
      Scheduler::TimePoint now = self->context().scheduler().now();
      self->next_ = s.fixedRate ? self->next_ + s.period : now + s.period;
      self->scheduleAt(self->next_);
    }
    self->release();  // this fire's reference; the next one holds its own
  }

  Processor& processor_;
  TimerSettings settings_;
  Logger log_;
  // Touched by one fire at a time (the next is scheduled when the previous completed).
  Scheduler::TimePoint next_;
  int64_t fired_ = 0;
};

class TimerConsumer final : public Consumer {
 public:
  TimerConsumer(Context& context, Processor& processor, TimerSettings settings)
      : state_(new TimerState(context, processor, std::move(settings))) {}
  ~TimerConsumer() override {
    state_->stop();
    state_->release();
  }

  Result<void> start() override {
    state_->start();
    return {};
  }
  void stop() noexcept override { state_->stop(); }

 private:
  TimerState* state_;
};

// scheduler:name is Camel's scheduler component (a polling consumer's schedule): the same
// machinery as the timer under its option names and defaults (initialDelay 1000, delay 500,
// useFixedDelay true, i.e. not fixed rate).
constexpr OptionSpec kSchedulerOptions[] = {
    {"initialDelay", OptionType::Duration, "1000", "Time before the first run"},
    {"delay", OptionType::Duration, "500", "Time between runs"},
    {"useFixedDelay", OptionType::Bool, "true",
     "Wait delay after each run ends (true) or run at fixed times (false)"},
    {"repeatCount", OptionType::Int, "0", "Run this many times, then stop; 0 is forever"},
    {"includeMetadata", OptionType::Bool, "false",
     "Set CamelTimerName, CamelTimerFiredTime, CamelTimerPeriod, CamelTimerCounter and "
     "CamelMessageTimestamp on each exchange"},
};

// What tells timer: and scheduler: apart: their scheme and option names.
struct Flavour {
  std::string_view scheme;
  std::string_view syntax;
  std::span<const OptionSpec> options;
  std::string_view period;      // the option between fires
  std::string_view first;       // the option before the first fire
  std::string_view fixedRate;  // the option choosing fixed rate
  bool fixedRateInverted;     // scheduler's useFixedDelay=true means not fixed rate
};
constexpr Flavour kTimer{"timer", "timer:timerName", kOptions, "period",
                         "delay", "fixedRate",       false};
constexpr Flavour kScheduler{"scheduler", "scheduler:name", kSchedulerOptions,
                             "delay",     "initialDelay",   "useFixedDelay",
                             true};

class TimerEndpoint final : public Endpoint {
 public:
  TimerEndpoint(Component& component, const Uri& uri, EndpointOptions options,
                const Flavour& flavour)
      : Endpoint(component, uri, std::move(options)), flavour_(flavour) {}

  Result<std::unique_ptr<Producer>> createProducer() override {
    return makeError(ErrorCode::InvalidUri,
                     fmt::format("the {} component only consumes: cannot send to '{}'",
                                 flavour_.scheme, uri()));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    TimerSettings s{std::string(parsedUri().path()), options().getDuration(flavour_.period),
                    options().getDuration(flavour_.first), options().getInt("repeatCount"),
                    options().getBool(flavour_.fixedRate) != flavour_.fixedRateInverted,
                    options().getBool("includeMetadata")};
    if (s.period.count() <= 0 && s.repeatCount != 1) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("{} must be positive for '{}' (or repeatCount=1)",
                                   flavour_.period, uri()));
    }
    return std::unique_ptr<Consumer>(new TimerConsumer(context(), processor, std::move(s)));
  }

 private:
  const Flavour& flavour_;
};

class TimerComponent final : public Component {
 public:
  explicit TimerComponent(const Flavour& flavour) : flavour_(flavour) {}
  std::string_view scheme() const override { return flavour_.scheme; }
  std::string_view syntax() const override { return flavour_.syntax; }
  std::span<const OptionSpec> endpointOptions() const override { return flavour_.options; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    if (uri.path().empty()) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("a {0} needs a name: {0}:name, not '{1}'", flavour_.scheme,
                                   uri.text()));
    }
    return std::unique_ptr<Endpoint>(new TimerEndpoint(*this, uri, std::move(options), flavour_));
  }

 private:
  const Flavour& flavour_;
};

}  // namespace

}  // namespace component::timer

void registerTimerComponent(Context& context) {
  context.addComponent(
      std::make_unique<component::timer::TimerComponent>(component::timer::kTimer));
  context.addComponent(
      std::make_unique<component::timer::TimerComponent>(component::timer::kScheduler));
}

}  // namespace dromedary
