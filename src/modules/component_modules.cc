// SPDX-License-Identifier: Apache-2.0
// The stand-ins of a component module: a Component per scheme and a bean factory per bean type,
// registered at start-up, which load the module on first use and hand every call to what it
// registered (Context::collectRegistrations keeps that aside, so the context's own tables,
// which running routes read without locks, never change).
#include "component_modules.h"

#include <fmt/format.h>

#include <atomic>
#include <memory>
#include <mutex>

#include "module_loader.h"

namespace dromedary::modules {

namespace {

// One module in one context: loaded at most once, on the first call that needs it.
class ModuleInstance {
 public:
  ModuleInstance(Context& context, const ComponentModuleSpec& spec)
      : context_(context), spec_(spec) {}

  Result<Component*> component(std::string_view scheme) {
    DROMEDARY_TRY_VOID(load("component", scheme));
    for (const auto& c : registrations_.components) {
      if (c->scheme() == scheme) return c.get();
    }
    return makeError(ErrorCode::Internal, fmt::format("the module dromedary-{}.so registers no "
                                                      "component '{}'",
                                                      spec_.name, scheme));
  }

  Result<const Context::BeanFactory*> beanFactory(std::string_view type) {
    DROMEDARY_TRY_VOID(load("bean type", type));
    for (const auto& [name, factory] : registrations_.beanFactories) {
      if (name == type) return &factory;
    }
    return makeError(ErrorCode::Internal, fmt::format("the module dromedary-{}.so registers no "
                                                      "bean type '{}'",
                                                      spec_.name, type));
  }

 private:
  // `what` and `name` say which use needed the module, for the error.
  Result<void> load(std::string_view what, std::string_view name) {
    std::lock_guard lock(mutex_);
    if (loaded_) return {};
    auto entry = detail::openModule(spec_.name);
    if (!entry) {
      Error error = entry.error();
      error.message = fmt::format("{} '{}': {}", what, name, error.message);
      return error;
    }
    registrations_ = context_.collectRegistrations(*entry);
    loaded_ = true;
    return {};
  }

  Context& context_;
  const ComponentModuleSpec& spec_;
  std::mutex mutex_;
  bool loaded_ = false;  // under mutex_; registrations_ do not change once it is set
  Context::Registrations registrations_;
};

// A scheme's stand-in. Before the module loads it has no options and is lenient, so that
// creating an endpoint reaches createEndpoint, which reports why the module did not load.
class ModuleComponent final : public Component {
 public:
  ModuleComponent(std::string_view scheme, std::shared_ptr<ModuleInstance> module)
      : scheme_(scheme), module_(std::move(module)) {}

  std::string_view scheme() const override { return scheme_; }
  std::string_view syntax() const override {
    Component* c = real();
    return c ? c->syntax() : std::string_view();
  }
  std::span<const OptionSpec> endpointOptions() const override {
    Component* c = real();
    return c ? c->endpointOptions() : std::span<const OptionSpec>();
  }
  bool lenientOptions() const noexcept override {
    Component* c = real();
    return c ? c->lenientOptions() : true;
  }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    DROMEDARY_TRY(c, load());
    return c->createEndpoint(uri, std::move(options));
  }
  std::span<const std::string_view> dynamicSendHeaders() const noexcept override {
    Component* c = real();
    return c ? c->dynamicSendHeaders() : std::span<const std::string_view>();
  }
  // Per message (toD): the component was loaded when the route compiled (dynamicSendHeaders).
  bool splitDynamicUri(std::string_view uri, std::string& endpoint,
                       std::span<std::string> values) const noexcept override {
    Component* c = real_.load(std::memory_order_acquire);
    return c && c->splitDynamicUri(uri, endpoint, values);
  }

  Result<Component*> load() const {
    if (Component* c = real_.load(std::memory_order_acquire)) return c;
    DROMEDARY_TRY(c, module_->component(scheme_));
    real_.store(c, std::memory_order_release);
    return c;
  }

 private:
  Component* real() const noexcept {
    try {
      auto c = load();
      return c ? *c : nullptr;
    } catch (...) {
      return nullptr;
    }
  }

  std::string_view scheme_;  // the spec's, which lives as long as the program
  std::shared_ptr<ModuleInstance> module_;
  mutable std::atomic<Component*> real_{nullptr};
};

}  // namespace

void addComponentModule(Context& context, const ComponentModuleSpec& spec) {
  auto module = std::make_shared<ModuleInstance>(context, spec);
  for (std::string_view scheme : spec.schemes) {
    context.addComponent(std::make_unique<ModuleComponent>(scheme, module));
  }
  for (std::string_view type : spec.beanTypes) {
    context.addBeanFactory(
        std::string(type),
        [module, type](Context& c, const Context::BeanDefinition& bean) -> Result<void> {
          DROMEDARY_TRY(factory, module->beanFactory(type));
          return (*factory)(c, bean);
        });
  }
}

Result<void> loadModuleOf(Component& component) {
  auto* standIn = dynamic_cast<ModuleComponent*>(&component);
  if (!standIn) return {};
  DROMEDARY_TRY_VOID(standIn->load());
  return {};
}

}  // namespace dromedary::modules
