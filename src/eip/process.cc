// SPDX-License-Identifier: Apache-2.0
// process(processor): user code. It may throw (caught here, at the node boundary, and
// recorded on the exchange) and it may suspend the exchange.
#include <fmt/format.h>

#include <dromedary/spi/bean_processor.h>

#include "core/text.h"
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

class ProcessStep final : public Step {
 public:
  ProcessStep(std::shared_ptr<Processor> owned, Processor& processor)
      : owned_(std::move(owned)), processor_(processor) {}

  // What user code throws, the executor catches (Step::run).
  Status run(Exchange& ex) override { return processor_.process(ex); }
  bool mayBlock() const noexcept override { return processor_.mayBlock(); }
 private:
  std::shared_ptr<Processor> owned_;
  Processor& processor_;
};

// What to say after "no processor under NAME": the bound name closest to it, else the bound
// names, else how to bind one. Shared by process(ref) and bean.
std::string unboundHint(const Context& context, std::string_view name) {
  std::vector<std::string> names = context.processorNames();
  std::vector<std::string_view> views(names.begin(), names.end());
  std::string meant = closestMatch(name, views);
  return !meant.empty()  ? fmt::format("; did you mean '{}'?", meant)
         : names.empty() ? std::string("; bind one with Context::bindProcessor")
                         : fmt::format("; bound names: {}", joinNames(views));
}

}  // namespace

}  // namespace dromedary::eip

namespace dromedary {

// Out of line: inlined into callers holding a Result's string, GCC 12 warned of a
// maybe-uninitialized read (-Wmaybe-uninitialized, a false positive CI's -Werror would fail).
std::string_view beanName(std::string_view reference) noexcept {
  if (reference.starts_with("#bean:")) return reference.substr(6);
  if (reference.starts_with("#") && !reference.starts_with("#class:")) return reference.substr(1);
  return reference;
}

Result<std::shared_ptr<Processor>> beanProcessor(Context& context, std::string_view name,
                                                 std::string_view method) {
  name = beanName(name);
  if (name.empty()) return makeError(ErrorCode::InvalidOption, "a bean needs its name (ref)");
  const std::string qualified = method.empty() ? std::string()
                                               : fmt::format("{}.{}", name, method);
  if (!qualified.empty()) {
    if (auto bound = context.processorByName(qualified)) return bound;
  }
  if (auto bound = context.processorByName(name)) return bound;
  if (const Context::BeanFactory* factory = context.beanFactory(name)) {
    Context::BeanDefinition definition;
    definition.name = std::string(name);
    definition.type = definition.name;
    auto made = (*factory)(context, definition);
    if (!made) {
      return makeError(made.error().code,
                       fmt::format("bean '{}': {}", name, made.error().message));
    }
    if (auto bound = context.processorByName(name)) return bound;
  }
  std::string looked = qualified.empty() ? fmt::format("'{}'", name)
                                         : fmt::format("'{}' or '{}'", qualified, name);
  return makeError(ErrorCode::NotFound,
                   fmt::format("bean '{}' has no C++ processor bound as {} (Java beans do not "
                               "run here){}",
                               name, looked, eip::unboundHint(context, name)));
}

}  // namespace dromedary

namespace dromedary::eip {

Result<std::unique_ptr<Step>> ProcessModel::compile(RouteCompiler& compiler) const {
  if (bean) {
    auto bound = beanProcessor(compiler.context(), ref, method);
    if (!bound) return compiler.error(*this, bound.error());
    return std::unique_ptr<Step>(new ProcessStep(*bound, **bound));
  }
  if (!ref.empty()) {
    std::shared_ptr<Processor> bound = compiler.context().processorByName(ref);
    if (!bound) {
      return compiler.error(
          *this, makeError(ErrorCode::NotFound,
                           fmt::format("no processor is bound to the name '{}'{}", ref,
                                       unboundHint(compiler.context(), ref))));
    }
    return std::unique_ptr<Step>(new ProcessStep(bound, *bound));
  }
  Processor& p = processor ? *processor : *borrowed;
  return std::unique_ptr<Step>(new ProcessStep(processor, p));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr AttributeSchema kProcessAttributes[] = {
    {"ref", AttributeType::Text, "", "The name it is bound under (Context::bindProcessor)", true},
};
}  // namespace

extern const EipSchema kProcessSchema{
    .key = "process",
    .description = "Runs a processor bound in the context",
    .attributes = kProcessAttributes,
    .shorthand = "ref",
};

// bean: Camel's bean EIP, on processors bound in the context (spi/bean_processor.h).
namespace {
constexpr std::string_view kBeanScopes[] = {"Singleton", "Request", "Prototype"};
constexpr AttributeSchema kBeanAttributes[] = {
    {"ref", AttributeType::Text, "",
     "The bean's name (required): the processor bound as NAME.METHOD or NAME"},
    {"method", AttributeType::Text, "", "The method: the processor bound as NAME.METHOD first"},
    {"beanType", AttributeType::Text, "",
     "A class: one Dromedary makes natively (Camel's JSON transforms), else refused"},
    {"scope", AttributeType::Enum, "Singleton",
     "Accepted for Camel's files: a bound processor is one object", false, kBeanScopes},
};
}  // namespace

extern const EipSchema kBeanSchema{
    .key = "bean",
    .description = "Calls a bean's method: the C++ processor bound under the bean's name",
    .attributes = kBeanAttributes,
    .shorthand = "ref",
};

}  // namespace dromedary::eip
