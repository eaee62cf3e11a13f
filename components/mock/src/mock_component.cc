// SPDX-License-Identifier: Apache-2.0
#include <dromedary/component/mock/mock_endpoint.h>

#include <fmt/format.h>

#include <dromedary/core/file_body.h>
#include <dromedary/core/value_compare.h>
#include <dromedary/engine/context.h>

namespace dromedary {
namespace component::mock {

namespace {

constexpr OptionSpec kOptions[] = {
    {"retainFirst", OptionType::Int, "-1", "Keep copies of only the first N messages (-1: all)"},
    {"retainLast", OptionType::Int, "-1", "Keep copies of only the last N messages (-1: all)"},
};

std::string listText(const std::vector<Value>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += values[i].toString();
  }
  return out + "]";
}

class MockProducer final : public Producer {
 public:
  explicit MockProducer(MockEndpoint& endpoint) : endpoint_(endpoint) {}
  Status process(Exchange& ex) override {
    endpoint_.receive(ex);
    return Status::Continue;
  }
  // It records the exchange under its lock, held only for that: it never waits.
  bool mayBlock() const noexcept override { return false; }

 private:
  MockEndpoint& endpoint_;
};

class MockComponent final : public Component {
 public:
  std::string_view scheme() const override { return "mock"; }
  std::string_view syntax() const override { return "mock:name"; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    if (uri.path().empty()) {
      return makeError(ErrorCode::InvalidUri,
                       "mock endpoint '" + uri.text() + "' has no name (expected 'mock:name')");
    }
    return std::unique_ptr<Endpoint>(new MockEndpoint(*this, uri, std::move(options)));
  }
};

}  // namespace

MockEndpoint::MockEndpoint(Component& component, Uri uri, EndpointOptions options)
    : Endpoint(component, std::move(uri), std::move(options)),
      retain_first_(this->options().getInt("retainFirst")),
      retain_last_(this->options().getInt("retainLast")) {}

MockEndpoint::~MockEndpoint() { delete state_.load(std::memory_order_acquire); }

MockEndpoint::State& MockEndpoint::state() const {
  State* s = state_.load(std::memory_order_acquire);
  if (s) return *s;
  auto made = std::make_unique<State>();
  if (state_.compare_exchange_strong(s, made.get(), std::memory_order_acq_rel)) {
    return *made.release();
  }
  return *s;  // another thread made it first
}

void MockEndpoint::expectedMessageCount(size_t count) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.expect().count = count;
}

void MockEndpoint::expectedMinimumMessageCount(size_t count) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.expect().minimum = count;
}

void MockEndpoint::expectedBodiesReceived(std::vector<Value> bodies) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.expect().count = bodies.size();
  s.expect().bodies = std::move(bodies);
}

void MockEndpoint::expectedBodiesReceivedInAnyOrder(std::vector<Value> bodies) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.expect().count = bodies.size();
  s.expect().bodiesAnyOrder = std::move(bodies);
}

void MockEndpoint::expectedHeaderReceived(std::string name, Value value) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.expect().headers.emplace_back(std::move(name), std::move(value));
}

void MockEndpoint::receive(const Exchange& exchange) {
  auto copy = std::make_shared<Exchange>(exchange.context());
  copy->copyFrom(exchange);
  // A file body is read on arrival, as Camel's mock converts bodies then: the file is moved
  // away once the exchange completes. (One that cannot be read stays, to fail when used.)
  try {
    loadFileBody(copy->message().body());
  } catch (const std::exception&) {
  }
  State& s = state();
  std::lock_guard lock(s.mutex);
  ++s.count;
  bool keep = retain_first_ < 0 || static_cast<int64_t>(s.count) <= retain_first_;
  if (retain_last_ >= 0) {
    keep = true;
    if (static_cast<int64_t>(s.received.size()) >= retain_last_ && !s.received.empty()) {
      s.received.erase(s.received.begin());
    }
    if (retain_last_ == 0) keep = false;
  }
  if (keep) s.received.push_back(std::move(copy));
  s.arrived.notify_all();
}

std::vector<std::string> MockEndpoint::failures(const State& s) const {
  std::vector<std::string> out;
  if (!s.expected) return out;
  const Expectations& e = *s.expected;
  const std::string& name = uri();
  if (e.count && s.count != *e.count) {
    out.push_back(fmt::format("{} Received message count. Expected: <{}> but was: <{}>", name,
                              *e.count, s.count));
  }
  if (e.minimum && s.count < *e.minimum) {
    out.push_back(fmt::format("{} Received message count. Expected at least: <{}> but was: <{}>",
                              name, *e.minimum, s.count));
  }
  if (e.bodies) {
    for (size_t i = 0; i < e.bodies->size() && i < s.received.size(); ++i) {
      const Value& expected = (*e.bodies)[i];
      const Value& actual = s.received[i]->message().body();
      if (!coerceEquals(expected, actual)) {
        out.push_back(fmt::format("{} Body of message: {}. Expected: <{}> but was: <{}>", name,
                                  i, expected.toString(), actual.toString()));
      }
    }
  }
  if (e.bodiesAnyOrder) {
    std::vector<Value> remaining = *e.bodiesAnyOrder;
    std::vector<Value> actual;
    for (const auto& ex : s.received) actual.push_back(ex->message().body());
    bool ok = actual.size() == remaining.size();
    for (const Value& body : actual) {
      auto it = std::find_if(remaining.begin(), remaining.end(),
                             [&](const Value& v) { return coerceEquals(v, body); });
      if (it == remaining.end()) {
        ok = false;
      } else {
        remaining.erase(it);
      }
    }
    if (!ok) {
      out.push_back(fmt::format("{} Expected bodies in any order: <{}> but was: <{}>", name,
                                listText(*e.bodiesAnyOrder), listText(actual)));
    }
  }
  for (const auto& [header, value] : e.headers) {
    for (size_t i = 0; i < s.received.size(); ++i) {
      const Value* actual = s.received[i]->message().getHeader(header);
      if (!actual) {
        out.push_back(
            fmt::format("{} No header with name {} found for message: {}", name, header, i));
      } else if (!coerceEquals(value, *actual)) {
        out.push_back(fmt::format("{} Header with name {} for message: {}. Expected: <{}> but "
                                  "was: <{}>",
                                  name, header, i, value.toString(), actual->toString()));
      }
    }
  }
  return out;
}

Result<void> MockEndpoint::assertIsSatisfied(std::chrono::milliseconds timeout) {
  State& s = state();
  std::unique_lock lock(s.mutex);
  std::optional<size_t> awaited;
  if (s.expected) awaited = s.expected->count ? s.expected->count : s.expected->minimum;
  if (awaited && *awaited > 0) {
    s.arrived.wait_for(lock, timeout, [&] { return s.count >= *awaited; });
  }
  std::vector<std::string> failed = failures(s);
  if (failed.empty()) return {};
  std::string message;
  for (const std::string& f : failed) message += (message.empty() ? "" : "\n") + f;
  return makeError(ErrorCode::NotFound, std::move(message));
}

Result<void> MockEndpoint::assertIsNotSatisfied(std::chrono::milliseconds timeout) {
  if (assertIsSatisfied(timeout)) {
    return makeError(ErrorCode::NotFound, uri() + " expected to be unsatisfied, but all "
                                                  "expectations were met");
  }
  return {};
}

std::vector<std::shared_ptr<const Exchange>> MockEndpoint::receivedExchanges() const {
  State& s = state();
  std::lock_guard lock(s.mutex);
  return s.received;
}

std::vector<Value> MockEndpoint::receivedBodies() const {
  State& s = state();
  std::lock_guard lock(s.mutex);
  std::vector<Value> out;
  for (const auto& ex : s.received) out.push_back(ex->message().body());
  return out;
}

size_t MockEndpoint::receivedCount() const {
  State& s = state();
  std::lock_guard lock(s.mutex);
  return s.count;
}

void MockEndpoint::reset() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.received.clear();
  s.count = 0;
  s.expected.reset();
}

Result<std::unique_ptr<Producer>> MockEndpoint::createProducer() {
  return std::unique_ptr<Producer>(new MockProducer(*this));
}

Result<std::unique_ptr<Consumer>> MockEndpoint::createConsumer(Processor&) {
  return makeError(ErrorCode::InvalidUri,
                   "the mock component only receives: '" + uri() + "' cannot start a route");
}

}  // namespace component::mock

void registerMockComponent(Context& context) {
  context.addComponent(std::make_unique<component::mock::MockComponent>());
}

}  // namespace dromedary
