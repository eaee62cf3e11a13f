// SPDX-License-Identifier: Apache-2.0
// bean:NAME?method=M: calls a bean's method, which here is the C++ processor bound as NAME.M
// or NAME (spi/bean_processor.h), as the bean step does. Resolved when the producer is made
// (at route start), so a missing bean fails the route's start naming it.
#include <dromedary/engine/context.h>
#include <dromedary/spi/bean_processor.h>

namespace dromedary {
namespace component::bean {

namespace {

constexpr std::string_view kScopes = "Singleton,Request,Prototype";
constexpr OptionSpec kOptions[] = {
    {"method", OptionType::String, "",
     "The method: the processor bound as NAME.METHOD first, else NAME"},
    {"scope", OptionType::Enum, "Singleton",
     "Accepted for Camel's files: a bound processor is one object", kScopes},
    {"parameters", OptionType::String, "",
     "Accepted for Camel's files only when empty: a processor takes the exchange"},
};

class BeanProducer final : public Producer {
 public:
  explicit BeanProducer(std::shared_ptr<Processor> processor) : processor_(std::move(processor)) {}
  // What it throws, the calling step catches and records on the exchange.
  Status process(Exchange& ex) override { return processor_->process(ex); }
  bool mayBlock() const noexcept override { return processor_->mayBlock(); }

 private:
  std::shared_ptr<Processor> processor_;
};

class BeanEndpoint final : public Endpoint {
 public:
  using Endpoint::Endpoint;

  Result<std::unique_ptr<Producer>> createProducer() override {
    if (!options().getString("parameters").empty()) {
      return makeError(ErrorCode::InvalidOption,
                       "parameters binds Java method arguments; a C++ processor takes the "
                       "exchange, so leave it out");
    }
    auto bound = beanProcessor(context(), parsedUri().path(), options().getString("method"));
    if (!bound) return bound.error();  // the route's error names the step and its URI
    return std::unique_ptr<Producer>(new BeanProducer(std::move(*bound)));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor&) override {
    return makeError(ErrorCode::InvalidUri,
                     "the bean component only sends: '" + uri() + "' cannot start a route");
  }
};

class BeanComponent final : public Component {
 public:
  std::string_view scheme() const override { return "bean"; }
  std::string_view syntax() const override { return "bean:beanName"; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    if (uri.path().empty()) {
      return makeError(ErrorCode::InvalidUri, "bean endpoint '" + uri.text() +
                                                  "' has no bean name (expected 'bean:name')");
    }
    return std::unique_ptr<Endpoint>(new BeanEndpoint(*this, uri, std::move(options)));
  }
};

}  // namespace
}  // namespace component::bean

void registerBeanComponent(Context& context) {
  context.addComponent(std::make_unique<component::bean::BeanComponent>());
}

}  // namespace dromedary
