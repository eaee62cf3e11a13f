// SPDX-License-Identifier: Apache-2.0
// to(uri): sends the exchange to an endpoint resolved once, when the route starts.
#include "eip/models.h"
#include "engine/executor.h"

namespace dromedary::eip {

namespace {

class ToStep final : public Step {
 public:
  ToStep(Producer& producer, std::string uri) : producer_(producer), uri_(std::move(uri)) {}

  Status run(Exchange& ex) noexcept override {
    ex.execForEngine().toEndpoint = &uri_;  // CamelFailureEndpoint, if a later step fails
    return detail::callProducer(ex, producer_);
  }

 private:
  Producer& producer_;
  const std::string uri_;
};

}  // namespace

Result<std::unique_ptr<Step>> ToModel::compile(RouteCompiler& compiler) const {
  auto producer = compiler.producer(uri);
  if (!producer) return compiler.error(*this, producer.error());
  return std::unique_ptr<Step>(new ToStep(**producer, uri));
}

}  // namespace dromedary::eip
