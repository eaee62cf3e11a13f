// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

#include <dromedary/engine/context.h>

namespace dromedary::detail {

/// The bean factory for Camel's built-in aggregation strategy classes
/// (org.apache.camel.processor.aggregate.StringAggregationStrategy ...): a route file's bean
/// of one is bound as an aggregation strategy under the bean's name. Null for another type.
const Context::BeanFactory* aggregationStrategyBeanFactory(std::string_view type);

}  // namespace dromedary::detail
