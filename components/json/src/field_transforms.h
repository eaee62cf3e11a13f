// SPDX-License-Identifier: Apache-2.0
#pragma once
// Camel's JSON field transforms (org.apache.camel.component.kafka.transform: ExtractField,
// InsertField, DropField, HoistField, MaskField, ReplaceField, ValueToKey) as bean types of
// route files and Kamelets.

namespace dromedary {
class Context;
}

namespace dromedary::component::json {

/// Registers the bean factories of the transforms with `context`.
void registerFieldTransforms(Context& context);

/// Registers Camel's RegexRouter (topic_routers.cc) the same way.
void registerTopicRouters(Context& context);

}  // namespace dromedary::component::json
