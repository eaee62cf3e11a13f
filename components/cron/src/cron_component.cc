// SPDX-License-Identifier: Apache-2.0
// cron:name?schedule=EXPR: fires an exchange at the times a cron expression gives (Camel's cron
// component, which Camel runs on Quartz; here on the context's scheduler). As the timer's,
// fires of one endpoint never overlap: the next time is computed when the exchange completes,
// so a fire that runs past the next time skips it rather than piling up (Quartz's default
// misfire rule for a cron trigger fires once, then goes on). The schedule is checked when the
// route starts: a bad one fails the start naming the field.
#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/repeating_task.h>

#include "cron_expression.h"

namespace dromedary {
namespace component::cron {

namespace {

constexpr OptionSpec kOptions[] = {
    {"schedule", OptionType::String, "",
     "The cron expression: second minute hour day-of-month month day-of-week [year], or Unix's "
     "five fields; + may stand for a space (0/3+*+*+*+*+?)"},
};

class CronTask final : public RepeatingTask {
 public:
  CronTask(Context& context, Processor& processor, std::string name, CronExpression schedule)
      : RepeatingTask(context),
        processor_(processor),
        name_(std::move(name)),
        schedule_(std::move(schedule)),
        log_(Logger::get("dromedary.cron")) {}

  // Schedules the first fire; false when the expression names no time to come.
  bool startFiring() {
    auto first = nextFire();
    if (!first) return false;
    RepeatingTask::start(*first);
    return true;
  }

 private:
  // The scheduler's time of the next match, reckoned on its wall clock (virtual in tests).
  std::optional<Scheduler::TimePoint> nextFire() const {
    Scheduler& s = context().scheduler();
    const int64_t now_ms = s.epochMillis();
    auto next = schedule_.next(static_cast<std::time_t>(now_ms / 1000));
    if (!next) return std::nullopt;
    return s.now() + std::chrono::milliseconds(static_cast<int64_t>(*next) * 1000 - now_ms);
  }

  void run() noexcept override {
    Exchange* ex = context().createExchange().release();
    processAsync(*ex, processor_, &done, this);
  }

  static void done(Exchange& ex, void* arg) {
    auto* self = static_cast<CronTask*>(arg);
    if (ex.failed() && self->log_.enabled(LoggingLevel::Warn)) {
      try {
        self->log_.log(LoggingLevel::Warn,
                       fmt::format("cron:{} exchange failed: {}", self->name_, ex.error().message()));
      } catch (...) {
      }
    }
    ExchangeRecycler{}(&ex);
    if (auto next = self->nextFire()) self->scheduleAt(*next);
    self->release();  // this fire's reference
  }

  Processor& processor_;
  std::string name_;
  CronExpression schedule_;
  Logger log_;
};

class CronConsumer final : public Consumer {
 public:
  CronConsumer(Context& context, Processor& processor, std::string name, CronExpression schedule)
      : name_(name),
        schedule_text_(schedule.text()),
        task_(new CronTask(context, processor, std::move(name), std::move(schedule))) {}
  ~CronConsumer() override {
    task_->stop();
    task_->release();
  }

  Result<void> start() override {
    if (!task_->startFiring()) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("cron:{}: the schedule '{}' names no time to come", name_,
                                   schedule_text_));
    }
    return {};
  }
  void stop() noexcept override { task_->stop(); }

 private:
  std::string name_;
  std::string schedule_text_;
  CronTask* task_;
};

class CronEndpoint final : public Endpoint {
 public:
  CronEndpoint(Component& component, const Uri& uri, EndpointOptions options, CronExpression schedule)
      : Endpoint(component, uri, std::move(options)), schedule_(std::move(schedule)) {}

  Result<std::unique_ptr<Producer>> createProducer() override {
    return makeError(ErrorCode::InvalidUri,
                     fmt::format("the cron component only consumes: cannot send to '{}'", uri()));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    return std::unique_ptr<Consumer>(
        new CronConsumer(context(), processor, std::string(parsedUri().path()), schedule_));
  }

 private:
  CronExpression schedule_;
};

class CronComponent final : public Component {
 public:
  std::string_view scheme() const override { return "cron"; }
  std::string_view syntax() const override { return "cron:name"; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri, EndpointOptions options) override {
    if (uri.path().empty()) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("a cron endpoint needs a name: cron:name, not '{}'", uri.text()));
    }
    const std::string& text = options.getString("schedule");
    if (text.empty()) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("'{}' needs a schedule (cron:{}?schedule=0/5+*+*+*+*+?)",
                                   uri.text(), uri.path()));
    }
    auto schedule = CronExpression::parse(text);
    if (!schedule) {
      Error e = schedule.error();
      e.message = fmt::format("{} (in '{}')", e.message, uri.text());
      return e;
    }
    return std::unique_ptr<Endpoint>(
        new CronEndpoint(*this, uri, std::move(options), std::move(*schedule)));
  }
};

}  // namespace

}  // namespace component::cron

void registerCronComponent(Context& context) {
  context.addComponent(std::make_unique<component::cron::CronComponent>());
}

}  // namespace dromedary
