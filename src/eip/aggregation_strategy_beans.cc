// SPDX-License-Identifier: Apache-2.0
// Camel's built-in aggregation strategies as beans of route files (`beans:` in YAML, a Spring
// `<bean>`), which an aggregate, split or enrich then names: `aggregationStrategy: "#joined"`.
#include "eip/aggregation_strategy_beans.h"

#include <fmt/format.h>

#include <dromedary/engine/aggregation_strategy.h>
#include <dromedary/engine/context.h>

namespace dromedary::detail {

namespace {

constexpr std::string_view kPackage = "org.apache.camel.processor.aggregate.";

// The properties Camel's classes take: StringAggregationStrategy's delimiter and
// UseOriginalAggregationStrategy's propagateException. (StringAggregationStrategy's `pick`
// takes a Java Expression object, which a route file cannot give.)
Result<void> makeStrategyBean(Context& context, const Context::BeanDefinition& bean) {
  std::string_view base = bean.type;
  base.remove_prefix(base.rfind('.') + 1);
  const bool joins = base == "StringAggregationStrategy";
  const bool original = base == "UseOriginalAggregationStrategy";
  std::string delimiter;
  bool propagate = true;
  for (const auto& [key, value] : bean.properties) {
    if (joins && key == "delimiter") {
      delimiter = value;
    } else if (original && key == "propagateException" && (value == "true" || value == "false")) {
      propagate = value == "true";
    } else if (original && key == "propagateException") {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("propagateException must be true or false, not '{}'", value));
    } else {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("{} has no property '{}'{}", base, key,
                                   joins      ? " (it takes: delimiter)"
                                   : original ? " (it takes: propagateException)"
                                              : " (it takes none)"));
    }
  }
  std::shared_ptr<AggregationStrategy> strategy =
      joins      ? AggregationStrategies::string(std::move(delimiter))
      : original ? AggregationStrategies::useOriginal(propagate)
                 : AggregationStrategies::byClassName(base);
  context.bindAggregationStrategy(bean.name, std::move(strategy));
  return {};
}

}  // namespace

const Context::BeanFactory* aggregationStrategyBeanFactory(std::string_view type) {
  static const Context::BeanFactory factory = makeStrategyBean;
  if (type.starts_with("#class:")) type.remove_prefix(7);
  if (!type.starts_with(kPackage)) return nullptr;
  const std::string_view base = type.substr(kPackage.size());
  for (std::string_view name : AggregationStrategies::classNames()) {
    if (name == base) return &factory;
  }
  return nullptr;
}

}  // namespace dromedary::detail
