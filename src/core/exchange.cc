// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/exchange.h>

#include <concurrentqueue/concurrentqueue.h>

#include "core/coarse_clock.h"

#include <fmt/format.h>

#include <atomic>
#include <random>
#include <vector>

namespace dromedary {

using detail::coarseNowMillis;

namespace {

// Ids come from per-thread blocks of a global sequence: no shared atomic per id.
uint64_t nextIdNumber() noexcept {
  static std::atomic<uint64_t> global{1};
  constexpr uint64_t kBlock = 4096;
  thread_local uint64_t next = 0;
  thread_local uint64_t end = 0;
  if (next == end) {
    next = global.fetch_add(kBlock, std::memory_order_relaxed);
    end = next + kBlock;
  }
  return next++;
}

// The ids' prefix: 15 random hex digits, drawn once per process (Camel 4's default
// generator has the same shape), so that instances of the same routes never share an id.
const std::string& idPrefix() {
  static const std::string prefix = [] {
    std::random_device device;
    uint64_t bits = (static_cast<uint64_t>(device()) << 32) ^ device() ^
                    static_cast<uint64_t>(coarseNowMillis());
    return fmt::format("{:015X}", bits & 0xFFFFFFFFFFFFFFFull);
  }();
  return prefix;
}

// Each thread keeps up to kMaxPooled exchanges; beyond that they go to a shared lock-free
// pool, which is where a thread that only creates exchanges (a producer whose exchanges end
// on a consumer thread: seda, timers, replies) finds them again instead of allocating.
constexpr size_t kMaxPooled = 256;
constexpr size_t kMaxShared = 1024;

struct SharedPool {
  moodycamel::ConcurrentQueue<Exchange*> free;
  std::atomic<size_t> size{0};
  ~SharedPool() {
    Exchange* e;
    while (free.try_dequeue(e)) delete e;
  }
};
SharedPool shared_pool;

// Set when the thread's pool is destroyed (a trivially destructible flag outlives it): an
// exchange released after that, by a thread_local or static object destroyed later (a
// benchmark's scenario at exit), is deleted instead of pushed into the destroyed pool.
thread_local bool pool_gone = false;

struct ExchangePool {
  std::vector<Exchange*> free;
  ~ExchangePool() {
    pool_gone = true;
    for (Exchange* e : free) delete e;
  }
};
thread_local ExchangePool pool;

}  // namespace

std::string_view patternName(Pattern pattern) noexcept {
  return pattern == Pattern::InOut ? "InOut" : "InOnly";
}

std::string ExchangeError::message() const {
  std::string out(reason);
  if (!subject.empty()) {
    out += ": ";
    out += subject;
  }
  std::string cause = detail;
  if (exception) {
    try {
      std::rethrow_exception(exception);
    } catch (const std::exception& e) {
      cause = e.what();
    } catch (...) {
      cause = "unknown exception";
    }
  }
  if (!cause.empty()) {
    if (!out.empty()) out += ": ";
    out += cause;
  }
  if (out.empty()) out = std::string(errorCodeName(code));
  return out;
}

std::string ExchangeError::causeMessage() const {
  if (!exception) return message();
  try {
    std::rethrow_exception(exception);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return message();
  }
}

Exchange::Exchange(Context* context) noexcept
    : context_(context), created_ms_(coarseNowMillis()), engine_(detail::newEngineBlock()) {}

const std::string& Exchange::exchangeId() const {
  if (id_.empty()) {
    id_ = idPrefix();
    fmt::format_to(std::back_inserter(id_), "-{:016x}", nextIdNumber());
  }
  return id_;
}

void Exchange::fail(ErrorCode code, std::string_view reason, std::string_view subject) noexcept {
  error_.code = code;
  error_.reason = reason;
  error_.subject = subject;
}

void Exchange::failWithDetail(ErrorCode code, std::string_view reason, std::string detail) {
  fail(code, reason);
  error_.detail = std::move(detail);
}

void Exchange::setException(std::exception_ptr exception) noexcept {
  if (error_.code == ErrorCode::Ok) error_.code = ErrorCode::ProcessorFailed;
  if (error_.reason.empty()) error_.reason = "Exception thrown by processor";
  error_.exception = std::move(exception);
}

void Exchange::clearError() noexcept {
  error_.code = ErrorCode::Ok;
  error_.reason = {};
  error_.subject = {};
  error_.nodeId = {};
  error_.routeId = {};
  if (error_.exception) error_.exception = nullptr;  // an out-of-line release otherwise
  error_.detail.clear();
}

void Exchange::takeCheckpoint() noexcept { engine_->takeCheckpoint(*this); }

void Exchange::resume() noexcept { engine_->resume(*this); }

std::string_view Exchange::fromRouteId() const noexcept { return engine_->fromRouteId(); }

std::string_view Exchange::routeId() const noexcept { return engine_->routeId(); }

const ExchangeError* Exchange::caughtError() const noexcept { return engine_->caughtError(); }

void Exchange::copyFrom(const Exchange& other) {
  pattern_ = other.pattern_;
  Message& m = message();
  m.headers() = other.message_.headers();
  m.setBody(other.message_.body());
  properties_ = other.properties_;
  copyVariablesOf(other);
}

void Exchange::copyVariablesOf(const Exchange& other) {
  if (other.hasVariables()) {
    variables() = *other.variables_;
  } else if (variables_) {
    variables_->clear();
  }
}

void Exchange::resetForReuse(Context* context) noexcept {
  context_ = context;
  pattern_ = Pattern::InOnly;
  message_.clear();
  properties_.clear();
  clearVariables();
  created_ms_ = coarseNowMillis();
  resetExecution();
}

// Inline in acquireExchange: every exchange taken from the pool passes here.
[[gnu::always_inline]] inline void Exchange::resetPooled(Context* context) noexcept {
  context_ = context;
  pattern_ = Pattern::InOnly;
  created_ms_ = coarseNowMillis();
  resetExecution();
}

void Exchange::resetAsCopyOf(const Exchange& input, bool with_body,
                             bool with_headers_and_properties) {
  context_ = input.context_;
  pattern_ = input.pattern_;
  created_ms_ = input.created_ms_;
  resetExecution();
  // Out of line: a split item whose copy is still current copies nothing, and then this is a
  // few stores with no call frame to set up.
  if (with_body || with_headers_and_properties) {
    copyMessageOf(input, with_body, with_headers_and_properties);
  }
}

[[gnu::noinline]] void Exchange::copyMessageOf(const Exchange& input, bool with_body,
                                               bool with_headers_and_properties) {
  if (with_headers_and_properties) message_.headers() = input.message_.headers();
  if (with_body) message_.setBody(input.message_.body());
  if (with_headers_and_properties) {
    properties_ = input.properties_;
    // Camel copies the variables with the exchange (most exchanges have none).
    if (input.variables_ || variables_) [[unlikely]] copyVariablesOf(input);
  }
}

void Exchange::resetExecution() noexcept {
  clearError();
  id_.clear();
  checkpoint_ = detail::Checkpoint::None;
  external_redelivered_ = false;
  hook_count_ = 0;
  detail::resetEngineBlock(*engine_);
}

void ExchangeRecycler::operator()(Exchange* exchange) const noexcept {
  // Emptied now, not when it is taken again: a pooled exchange must not hold its last body
  // (a pool of exchanges that had carried 12 KB bodies held ~100 MiB). Clearing keeps the
  // small buffers that make the next use allocation-free (Message::kMaxSpareBody).
  exchange->messageForEngine().clear();
  exchange->properties().clear();
  exchange->clearVariables();
  if (pool_gone) [[unlikely]] {
    delete exchange;
    return;
  }
  if (pool.free.size() >= kMaxPooled) {
    if (shared_pool.size.load(std::memory_order_relaxed) < kMaxShared &&
        shared_pool.free.enqueue(exchange)) {
      shared_pool.size.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    delete exchange;
    return;
  }
  try {
    pool.free.push_back(exchange);
  } catch (...) {
    delete exchange;
  }
}

ExchangePtr acquireExchange(Context* context) noexcept {
  if (!pool_gone && !pool.free.empty()) {
    Exchange* e = pool.free.back();
    pool.free.pop_back();
    e->resetPooled(context);
    return ExchangePtr(e);
  }
  Exchange* e;
  if (shared_pool.size.load(std::memory_order_relaxed) > 0 && shared_pool.free.try_dequeue(e)) {
    shared_pool.size.fetch_sub(1, std::memory_order_relaxed);
    e->resetPooled(context);
    return ExchangePtr(e);
  }
  return ExchangePtr(new Exchange(context));
}

}  // namespace dromedary
