// SPDX-License-Identifier: Apache-2.0
// to(uri): sends the exchange to an endpoint resolved once, when the route starts.
#include "eip/models.h"
#include "engine/route.h"

namespace dromedary::eip {

namespace {

class ToStep final : public Step {
 public:
  explicit ToStep(Producer& producer) : producer_(producer) {}

  Status run(Exchange& ex) noexcept override {
    // tailCall lets a direct route continue in this loop instead of nesting a new one.
    detail::ExecState& st = ex.execForEngine();
    st.tailCall = true;
    Status s;
    try {
      s = producer_.process(ex);
    } catch (...) {
      ex.setException(std::current_exception());
      s = Status::Fail;
    }
    st.tailCall = false;
    return s;
  }

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
