// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace dromedary {
class Context;
}

namespace dromedary::detail {

/// Bean factories for Camel's built-in aggregation strategy classes
/// (org.apache.camel.processor.aggregate.StringAggregationStrategy ...): a route file's bean
/// of one is bound as an aggregation strategy under the bean's name.
void registerAggregationStrategyBeans(Context& context);

}  // namespace dromedary::detail
