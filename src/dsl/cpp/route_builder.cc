// SPDX-License-Identifier: Apache-2.0
#include <dromedary/engine/route_builder.h>

#include "dsl/cpp/route_scope.h"

namespace dromedary {

using detail::BlockModel;
using detail::StepModel;


RouteDefinition::RouteDefinition(std::string from_uri)
    : model_(std::make_unique<detail::RouteModel>()) {
  model_->from = std::move(from_uri);
  scopes_.push_back({Scope::Root, &model_->body, nullptr});
}

RouteDefinition::~RouteDefinition() = default;

std::unique_ptr<detail::RouteModel> RouteDefinition::takeModelForEngine() noexcept {
  return std::move(model_);
}

void RouteDefinition::misuse(std::string message) {
  model_->more().misuse.push_back(std::move(message));
}

BlockModel* RouteDefinition::currentBlock() {
  Scope& top = scopes_.back();
  if (top.kind == Scope::Choice) {
    misuse("a step was added directly inside choice(); put it inside when() or otherwise()");
    return nullptr;
  }
  return top.block;
}

RouteDefinition& RouteDefinition::add(std::unique_ptr<StepModel> step) {
  if (BlockModel* block = currentBlock()) block->steps.push_back(std::move(step));
  return *this;
}

RouteDefinition& RouteDefinition::routeId(std::string id) {
  model_->id = std::move(id);
  return *this;
}

RouteDefinition& RouteDefinition::shutdownRoute(ShutdownRoute when) {
  model_->shutdownRoute = when;
  return *this;
}

RouteDefinition& RouteDefinition::trace(bool enabled) {
  model_->trace = enabled;
  return *this;
}

RouteDefinition& RouteDefinition::fromVariableReceive(std::string name) {
  model_->more().variableReceive = std::move(name);
  return *this;
}

RouteDefinition& RouteDefinition::nodePrefixId(std::string prefix) {
  model_->more().nodePrefixId = std::move(prefix);
  return *this;
}

RouteDefinition& RouteDefinition::shutdownRunningTask(ShutdownRunningTask what) {
  model_->shutdownRunningTask = what;
  return *this;
}

RouteDefinition& RouteDefinition::autoStartup(bool auto_startup) {
  model_->autoStartup = auto_startup;
  return *this;
}

RouteDefinition& RouteDefinition::description(std::string text) {
  model_->more().description = std::move(text);
  return *this;
}

StepModel* RouteDefinition::lastStepForEngine() noexcept {
  // The last step added anywhere in the chain: the innermost open block's last step, or
  // the block-opening step itself when its block is still empty.
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    if (it->block && !it->block->steps.empty()) return it->block->steps.back().get();
  }
  return nullptr;
}

RouteDefinition& RouteDefinition::id(std::string node_id) {
  if (StepModel* step = lastStepForEngine()) {
    step->id = std::move(node_id);
    return *this;
  }
  misuse("id('" + node_id + "') was called before any step");
  return *this;
}

RouteDefinition& RouteDefinition::processRef(std::string name) {
  auto step = std::make_unique<eip::ProcessModel>();
  step->ref = std::move(name);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::bean(std::string name, std::string method) {
  auto step = std::make_unique<eip::ProcessModel>();
  step->ref = std::move(name);
  step->bean = true;
  step->method = std::move(method);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::to(std::string uri) {
  auto step = std::make_unique<eip::ToModel>();
  step->uri = std::move(uri);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::to(Pattern pattern, std::string uri) {
  auto step = std::make_unique<eip::ToModel>();
  step->uri = std::move(uri);
  step->pattern = static_cast<int>(pattern);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::toD(std::string uri) { return toD(simple(std::move(uri))); }

RouteDefinition& RouteDefinition::toD(Pattern pattern, std::string uri) {
  auto step = std::make_unique<eip::ToDynamicModel>(simple(std::move(uri)));
  step->pattern = static_cast<int>(pattern);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::toD(ExpressionDefinition uri) {
  return add(std::make_unique<eip::ToDynamicModel>(std::move(uri)));
}

RouteDefinition& RouteDefinition::process(std::shared_ptr<Processor> processor) {
  auto step = std::make_unique<eip::ProcessModel>();
  step->processor = std::move(processor);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::process(Processor& processor) {
  auto step = std::make_unique<eip::ProcessModel>();
  step->borrowed = &processor;
  return add(std::move(step));
}

namespace {
class FunctionProcessor final : public Processor {
 public:
  explicit FunctionProcessor(std::function<void(Exchange&)> fn) : fn_(std::move(fn)) {}
  Status process(Exchange& exchange) override {
    fn_(exchange);
    return exchange.failed() ? Status::Fail : Status::Continue;
  }

 private:
  std::function<void(Exchange&)> fn_;
};
}  // namespace

std::shared_ptr<Processor> processorOf(std::function<void(Exchange&)> fn) {
  return std::make_shared<FunctionProcessor>(std::move(fn));
}

RouteDefinition& RouteDefinition::process(std::function<void(Exchange&)> fn) {
  return process(processorOf(std::move(fn)));
}

RouteDefinition& RouteDefinition::setBody(ExpressionDefinition value) {
  return add(std::make_unique<eip::SetBodyModel>("setBody", std::move(value)));
}

RouteDefinition& RouteDefinition::transform(ExpressionDefinition value) {
  return add(std::make_unique<eip::SetBodyModel>("transform", std::move(value)));
}

RouteDefinition& RouteDefinition::setHeader(std::string name, ExpressionDefinition value) {
  return add(std::make_unique<eip::SetHeaderModel>(false, std::move(name), std::move(value)));
}

RouteDefinition& RouteDefinition::setProperty(std::string name, ExpressionDefinition value) {
  return add(std::make_unique<eip::SetHeaderModel>(true, std::move(name), std::move(value)));
}

namespace {
std::unique_ptr<eip::RemoveHeadersModel> removeModel(bool property, bool single,
                                                     std::string pattern,
                                                     std::vector<std::string> excludes) {
  auto step = std::make_unique<eip::RemoveHeadersModel>();
  step->property = property;
  step->single = single;
  step->pattern = std::move(pattern);
  step->excludes = std::move(excludes);
  return step;
}
}  // namespace

RouteDefinition& RouteDefinition::removeHeader(std::string name) {
  return add(removeModel(false, true, std::move(name), {}));
}

RouteDefinition& RouteDefinition::removeHeaders(std::string pattern,
                                                std::vector<std::string> excludes) {
  return add(removeModel(false, false, std::move(pattern), std::move(excludes)));
}

RouteDefinition& RouteDefinition::removeProperty(std::string name) {
  return add(removeModel(true, true, std::move(name), {}));
}

RouteDefinition& RouteDefinition::removeProperties(std::string pattern,
                                                   std::vector<std::string> excludes) {
  return add(removeModel(true, false, std::move(pattern), std::move(excludes)));
}

RouteDefinition& RouteDefinition::convertHeaderTo(std::string name, std::string type,
                                                  std::string to_name, std::string charset,
                                                  bool mandatory) {
  auto step = std::make_unique<eip::ConvertHeaderModel>();
  step->header = std::move(name);
  step->type = std::move(type);
  step->toName = std::move(to_name);
  step->charset = std::move(charset);
  step->mandatory = mandatory;
  return add(std::move(step));
}

namespace {
// The variableSend / variableReceive slots of a to, toD or enrich; null for other steps.
std::pair<std::string*, std::string*> variableSlots(StepModel* step) {
  if (auto* to = dynamic_cast<eip::ToModel*>(step)) return {&to->variableSend, &to->variableReceive};
  if (auto* d = dynamic_cast<eip::ToDynamicModel*>(step)) {
    return {&d->variableSend, &d->variableReceive};
  }
  if (auto* w = dynamic_cast<eip::WireTapModel*>(step)) return {&w->variableSend, nullptr};
  if (auto* m = dynamic_cast<eip::MarshalModel*>(step)) {
    return {&m->variableSend, &m->variableReceive};
  }
  if (auto* e = dynamic_cast<eip::EnrichModel*>(step)) {
    // pollEnrich and poll receive into a variable; they send nothing.
    return {e->poll ? nullptr : &e->variableSend, &e->variableReceive};
  }
  return {nullptr, nullptr};
}
}  // namespace

RouteDefinition& RouteDefinition::variableSend(std::string name) {
  if (std::string* slot = variableSlots(lastStepForEngine()).first) {
    *slot = std::move(name);
  } else {
    misuse(
        "variableSend() applies to the to, toD, enrich, wireTap, marshal or unmarshal before it");
  }
  return *this;
}

RouteDefinition& RouteDefinition::variableReceive(std::string name) {
  if (std::string* slot = variableSlots(lastStepForEngine()).second) {
    *slot = std::move(name);
  } else {
    misuse("variableReceive() applies to the to, toD, enrich, pollEnrich, poll, marshal or "
            "unmarshal before it");
  }
  return *this;
}

RouteDefinition& RouteDefinition::allowOptimisedComponents(bool allow) {
  if (auto* to_d = dynamic_cast<eip::ToDynamicModel*>(lastStepForEngine())) {
    to_d->allowOptimisedComponents = allow;
  } else {
    misuse("allowOptimisedComponents() applies to the toD before it");
  }
  return *this;
}

RouteDefinition& RouteDefinition::toV(std::string uri, std::string variable_send,
                                      std::string variable_receive) {
  auto step = std::make_unique<eip::ToModel>();
  step->uri = std::move(uri);
  step->variableSend = std::move(variable_send);
  step->variableReceive = std::move(variable_receive);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::setVariable(std::string name, ExpressionDefinition value) {
  return add(std::make_unique<eip::SetVariableModel>(std::move(name), std::move(value)));
}

RouteDefinition& RouteDefinition::removeVariable(std::string name) {
  auto step = std::make_unique<eip::RemoveVariableModel>();
  step->name = std::move(name);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::convertVariableTo(std::string name, std::string type,
                                                    std::string to_name, std::string charset,
                                                    bool mandatory) {
  convertHeaderTo(std::move(name), std::move(type), std::move(to_name), std::move(charset),
                  mandatory);
  if (auto* step = dynamic_cast<eip::ConvertHeaderModel*>(lastStepForEngine())) {
    step->variable = true;
  }
  return *this;
}

RouteDefinition& RouteDefinition::convertBodyTo(std::string type, std::string charset,
                                                bool mandatory) {
  auto step = std::make_unique<eip::ConvertBodyModel>();
  step->type = std::move(type);
  step->charset = std::move(charset);
  step->mandatory = mandatory;
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::marshal(std::string format,
                                          std::map<std::string, std::string, std::less<>> options) {
  auto step = std::make_unique<eip::MarshalModel>();
  step->format = std::move(format);
  step->options = std::move(options);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::unmarshal(std::string format,
                                            std::map<std::string, std::string, std::less<>> options) {
  auto step = std::make_unique<eip::MarshalModel>();
  step->unmarshal = true;
  step->format = std::move(format);
  step->options = std::move(options);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::validate(PredicateDefinition predicate) {
  return add(std::make_unique<eip::ValidateModel>(std::move(predicate)));
}

RouteDefinition& RouteDefinition::filter(PredicateDefinition predicate) {
  BlockModel* block = currentBlock();
  if (!block) return *this;
  auto step = std::make_unique<eip::FilterModel>(std::move(predicate));
  BlockModel* body = &step->body;
  block->steps.push_back(std::move(step));
  scopes_.push_back({Scope::Filter, body, nullptr});
  return *this;
}

RouteDefinition& RouteDefinition::choice() {
  BlockModel* block = currentBlock();
  if (!block) return *this;
  auto step = std::make_unique<eip::ChoiceModel>();
  eip::ChoiceModel* choice = step.get();
  block->steps.push_back(std::move(step));
  scopes_.push_back({Scope::Choice, nullptr, choice});
  return *this;
}

RouteDefinition& RouteDefinition::when(PredicateDefinition predicate) {
  if (scopes_.back().kind == Scope::When) scopes_.pop_back();
  if (scopes_.back().kind == Scope::Otherwise) {
    misuse("when() after otherwise() in the same choice()");
    return *this;
  }
  if (scopes_.back().kind != Scope::Choice) {
    misuse("when() without an open choice()");
    return *this;
  }
  eip::ChoiceModel* choice = scopes_.back().choice;
  choice->whens.push_back({std::move(predicate), {}});
  scopes_.push_back({Scope::When, &choice->whens.back().body, nullptr});
  return *this;
}

RouteDefinition& RouteDefinition::otherwise() {
  if (scopes_.back().kind == Scope::When) scopes_.pop_back();
  if (scopes_.back().kind != Scope::Choice) {
    misuse(scopes_.back().kind == Scope::Otherwise ? "otherwise() given twice in one choice()"
                                                   : "otherwise() without an open choice()");
    return *this;
  }
  eip::ChoiceModel* choice = scopes_.back().choice;
  choice->otherwise = std::make_unique<BlockModel>();
  scopes_.push_back({Scope::Otherwise, choice->otherwise.get(), nullptr});
  return *this;
}

RouteDefinition& RouteDefinition::end() {
  switch (scopes_.back().kind) {
    case Scope::Root:
      misuse("end() without an open block (filter, choice, split, multicast, loop ...)");
      break;
    case Scope::When:
    case Scope::Otherwise:
      scopes_.pop_back();  // the branch
      scopes_.pop_back();  // and its choice
      break;
    case Scope::Filter:
    case Scope::Block:
    case Scope::Choice:
    case Scope::OnException:
    case Scope::OnCompletion:
    case Scope::Intercept: scopes_.pop_back(); break;
    case Scope::Catch:
    case Scope::Finally:
    case Scope::Fallback:
      scopes_.pop_back();  // the clause
      scopes_.pop_back();  // and its doTry or circuitBreaker
      break;
    case Scope::Try:
    case Scope::CircuitBreaker: scopes_.pop_back(); break;
  }
  return *this;
}

RouteDefinition& RouteDefinition::endChoice() {
  Scope::Kind k = scopes_.back().kind;
  if (k == Scope::When || k == Scope::Otherwise) {
    scopes_.pop_back();
  } else if (k != Scope::Choice) {
    misuse("endChoice() outside a choice()");
  }
  return *this;
}

RouteDefinition& RouteDefinition::stop() { return add(std::make_unique<eip::StopModel>()); }

RouteDefinition& RouteDefinition::setExchangePattern(Pattern pattern) {
  auto step = std::make_unique<eip::SetExchangePatternModel>();
  step->pattern = pattern;
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::throwException(std::string exception_type, std::string message) {
  auto step = std::make_unique<eip::ThrowExceptionModel>();
  step->exceptionType = std::move(exception_type);
  step->message = std::move(message);
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::delay(ExpressionDefinition millis) {
  return add(std::make_unique<eip::DelayModel>(std::move(millis)));
}

RouteDefinition& RouteDefinition::threads(int pool_size, int max_pool_size, int max_queue_size) {
  auto step = std::make_unique<eip::ThreadsModel>();
  step->poolSize = pool_size;
  step->maxPoolSize = max_pool_size < 0 ? std::max(pool_size, 20) : max_pool_size;
  step->maxQueueSize = max_queue_size;
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::throttle(ExpressionDefinition maximum_requests,
                                           std::chrono::milliseconds time_period,
                                           bool reject_execution) {
  auto step = std::make_unique<eip::ThrottleModel>(std::move(maximum_requests));
  step->period = time_period;
  step->reject = reject_execution;
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::throttleConcurrentRequests(ExpressionDefinition max_concurrent,
                                                            bool reject_execution) {
  auto step = std::make_unique<eip::ThrottleModel>(std::move(max_concurrent));
  step->concurrent = true;
  step->reject = reject_execution;
  return add(std::move(step));
}

RouteDefinition& RouteDefinition::throttle(int64_t maximum_requests,
                                           std::chrono::milliseconds time_period,
                                           bool reject_execution) {
  return throttle(constant(Value(maximum_requests)), time_period, reject_execution);
}

RouteDefinition& RouteDefinition::delay(std::chrono::milliseconds millis) {
  return delay(constant(Value(static_cast<int64_t>(millis.count()))));
}

RouteDefinition& RouteDefinition::log(std::string message) {
  return log(LoggingLevel::Info, std::string(), simple(std::move(message)));
}

RouteDefinition& RouteDefinition::log(LoggingLevel level, std::string message) {
  return log(level, std::string(), simple(std::move(message)));
}

RouteDefinition& RouteDefinition::log(LoggingLevel level, std::string log_name,
                                      std::string message) {
  return log(level, std::move(log_name), simple(std::move(message)));
}

RouteDefinition& RouteDefinition::log(LoggingLevel level, std::string log_name,
                                      ExpressionDefinition message) {
  return add(std::make_unique<eip::LogModel>(level, std::move(log_name), std::move(message)));
}

RouteBuilder::RouteBuilder() = default;
RouteBuilder::~RouteBuilder() = default;

RouteDefinition& RouteBuilder::from(std::string uri) {
  routes_.push_back(std::make_unique<RouteDefinition>(std::move(uri)));
  return *routes_.back();
}

void RouteBuilder::errorHandler(ErrorHandlerDefinition handler) {
  error_handler_ = handler.modelForEngine();
}

RouteDefinition& RouteBuilder::onException(std::vector<std::string> exception_types) {
  if (!configuration_) configuration_ = std::make_unique<RouteDefinition>(std::string());
  return configuration_->onException(std::move(exception_types));
}

RestDefinition& RouteBuilder::rest(std::string path) {
  rests_.push_back(std::make_unique<RestDefinition>(*this, std::move(path)));
  return *rests_.back();
}

RouteDefinition& RouteBuilder::onCompletion() {
  if (!configuration_) configuration_ = std::make_unique<RouteDefinition>(std::string());
  return configuration_->onCompletion();
}

}  // namespace dromedary
