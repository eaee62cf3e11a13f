// SPDX-License-Identifier: Apache-2.0
// to(uri): sends the exchange to an endpoint resolved once, when the route starts.
#include "eip/models.h"
#include "engine/executor.h"

namespace dromedary::eip {

namespace {

class ToStep final : public Step {
 public:
  explicit ToStep(Producer& producer) : producer_(producer) {}

  Status run(Exchange& ex) noexcept override { return detail::callProducer(ex, producer_); }

 private:
  Producer& producer_;
};

}  // namespace

Result<std::unique_ptr<Step>> ToModel::compile(RouteCompiler& compiler) const {
  auto producer = compiler.producer(uri);
  if (!producer) return compiler.error(*this, producer.error());
  return std::unique_ptr<Step>(new ToStep(**producer));
}

}  // namespace dromedary::eip
