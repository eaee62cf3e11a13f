// SPDX-License-Identifier: Apache-2.0
// threads(poolSize, maxPoolSize): hands the exchange to this step's own thread pool; the rest
// of the route runs there and the caller's thread is free (a synchronous caller still waits
// for the result, as in Camel). The pool has poolSize threads; Camel grows towards maxPoolSize
// under load, which a lock-free queue makes unnecessary here, so maxPoolSize is only checked.
// When maxQueueSize exchanges already wait for a thread, the caller runs the rest itself
// (Camel's default CallerRuns rejection policy): nothing is dropped.
#include <fmt/format.h>

#include "eip/models.h"
#include "engine/compiled_route.h"
#include "engine/worker_pool.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

void resumeExchange(void* arg) noexcept { static_cast<Exchange*>(arg)->resume(); }

class ThreadsStep final : public Step {
 public:
  ThreadsStep(int pool_size, int max_queue)
      : pool_(static_cast<size_t>(pool_size)), max_queue_(static_cast<size_t>(max_queue)) {}

  Status run(Exchange& ex) noexcept override {
    if (pool_.queued() >= max_queue_) return Status::Continue;  // caller runs
    pool_.submit({&resumeExchange, &ex});
    return Status::Suspend;
  }

 private:
  detail::WorkerPool pool_;
  size_t max_queue_;
};

}  // namespace

Result<std::unique_ptr<Step>> ThreadsModel::compile(RouteCompiler& compiler) const {
  if (poolSize < 1 || poolSize > 1000) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute,
                                           fmt::format("poolSize must be 1 to 1000, not {}",
                                                       poolSize)));
  }
  if (maxPoolSize < poolSize) {
    return compiler.error(
        *this, makeError(ErrorCode::InvalidRoute,
                         fmt::format("maxPoolSize ({}) must not be less than poolSize ({})",
                                     maxPoolSize, poolSize)));
  }
  if (maxQueueSize < 1) {
    return compiler.error(*this, makeError(ErrorCode::InvalidRoute,
                                           fmt::format("maxQueueSize must be at least 1, not {}",
                                                       maxQueueSize)));
  }
  return std::unique_ptr<Step>(new ThreadsStep(poolSize, maxQueueSize));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr AttributeSchema kThreadsAttributes[] = {
    {"poolSize", AttributeType::Integer, "10", "Threads in the pool"},
    {"maxPoolSize", AttributeType::Integer, "",
     "Checked against poolSize; default: the larger of poolSize and 20"},
    {"maxQueueSize", AttributeType::Integer, "1000",
     "Exchanges waiting for the pool; past it the caller runs the route itself"},
};
}  // namespace

extern const EipSchema kThreadsSchema{
    .key = "threads",
    .description = "Runs the rest of the route on this step's own pool of threads",
    .attributes = kThreadsAttributes,
};

}  // namespace dromedary::eip
