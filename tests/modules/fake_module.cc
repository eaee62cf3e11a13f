// SPDX-License-Identifier: Apache-2.0
// A module of this build (component_modules_test.cc), built as dromedary-fake.so: a component
// whose endpoints fail saying they were made here, and a bean type. Like a real module it
// links nothing of the core: the test program exports it.
#include <atomic>
#include <memory>

#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>

#include "dromedary_build_id.h"

namespace {

std::atomic<int> registrations{0};

constexpr dromedary::OptionSpec kOptions[] = {
    {"size", dromedary::OptionType::Int, "1", "a number"},
};

class FakeComponent final : public dromedary::Component {
 public:
  std::string_view scheme() const override { return "fake"; }
  std::span<const dromedary::OptionSpec> endpointOptions() const override { return kOptions; }
  dromedary::Result<std::unique_ptr<dromedary::Endpoint>> createEndpoint(
      const dromedary::Uri& uri, dromedary::EndpointOptions options) override {
    return dromedary::makeError(
        dromedary::ErrorCode::Internal,
        "made by the fake module: " + uri.text() + " size " +
            std::to_string(options.getInt("size")));
  }
};

}  // namespace

extern "C" {

__attribute__((visibility("default"))) const char* dromedary_module_build() {
  return DROMEDARY_BUILD_ID;
}

__attribute__((visibility("default"))) void dromedary_module_register(
    dromedary::Context& context) {
  ++registrations;
  context.addComponent(std::make_unique<FakeComponent>());
  context.addBeanFactory("com.acme.Fake",
                         [](dromedary::Context&, const dromedary::Context::BeanDefinition& bean)
                             -> dromedary::Result<void> {
                           return dromedary::makeError(dromedary::ErrorCode::Internal,
                                                       "fake bean " + bean.name);
                         });
}

// How many times a context registered it (the test reads it through dlsym).
__attribute__((visibility("default"))) int fake_module_registrations() {
  return registrations.load();
}

}  // extern "C"
